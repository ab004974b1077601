//go:build !unix && !windows

package persistence

import "os"

// tryLockFile: no file locking on this platform; the workspace is not
// protected against a second window.
func tryLockFile(*os.File) (bool, error) { return true, nil }

func unlockFile(*os.File) {}
