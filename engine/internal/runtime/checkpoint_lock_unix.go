//go:build unix

package runtime

import (
	"os"
	"syscall"
)

// tryLockDir takes an exclusive advisory lock (flock) on a directory
// without waiting: free is false when another holder has it. The kernel
// drops the lock when its process ends, even by kill -9, so a
// checkpoint's in-progress directory is locked exactly while a live
// process writes it. A directory that cannot be opened counts as free
// (there is nothing to protect).
func tryLockDir(dir string) (unlock func(), free bool) {
	f, err := os.Open(dir)
	if err != nil {
		return func() {}, true
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return func() {}, false // held, or no locks on this file system
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, true
}
