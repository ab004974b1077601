//go:build unix

package results

import (
	"errors"
	"syscall"
)

// processRunning reports whether a process with this id exists (one of
// another user counts: signal 0 is then refused with EPERM).
func processRunning(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
