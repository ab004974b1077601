//go:build !unix

package results

import "os"

// processRunning reports whether a process with this id exists; where
// that cannot be asked, a temporary file is kept (the day-old rule of
// removeStalePartials does not apply to it).
func processRunning(pid int) bool {
	_, err := os.FindProcess(pid)
	return err == nil
}
