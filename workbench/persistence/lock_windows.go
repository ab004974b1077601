//go:build windows

package persistence

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// lockOffset is the byte locked: far beyond the holder's note, which
// other processes still read.
const lockOffset = 1 << 30

// tryLockFile takes an exclusive lock on one byte of f without waiting;
// false means another handle holds it.
func tryLockFile(f *os.File) (bool, error) {
	ol := &windows.Overlapped{Offset: lockOffset}
	err := windows.LockFileEx(windows.Handle(f.Fd()),
		windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, ol)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, windows.ERROR_LOCK_VIOLATION), errors.Is(err, windows.ERROR_IO_PENDING):
		return false, nil
	}
	return false, err
}

func unlockFile(f *os.File) {
	_ = windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, &windows.Overlapped{Offset: lockOffset})
}

// fileIdentity: hard links are not detected on Windows (the file index
// would need an open handle); symbolic links are still resolved.
func fileIdentity(string) (dev, ino uint64, ok bool) { return 0, 0, false }
