//go:build !unix && !windows

package persistence

import "os"

// tryLockFile: no file locking on this platform; the workspace is not
// protected against a second window.
func tryLockFile(*os.File) (bool, error) { return true, nil }

func unlockFile(*os.File) {}

// fileIdentity: no inodes here; symbolic links are still resolved.
func fileIdentity(string) (dev, ino uint64, ok bool) { return 0, 0, false }
