package persistence

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// ErrLocked is returned (wrapped in a *LockedError) by Open when another
// process has the workspace open.
var ErrLocked = errors.New("the workspace is open in another Riffle window")

// LockedError says which process holds a workspace's lock.
type LockedError struct {
	Path string
	// PID and Since are what the holder wrote in the lock file (0 and the
	// zero time when it could not be read).
	PID   int
	Since time.Time
}

func (e *LockedError) Error() string {
	s := fmt.Sprintf("persistence: %s: %v", e.Path, ErrLocked)
	if e.PID > 0 {
		s += fmt.Sprintf(" (process %d", e.PID)
		if !e.Since.IsZero() {
			s += ", since " + e.Since.Local().Format("15:04")
		}
		s += ")"
	}
	return s
}

func (e *LockedError) Unwrap() error { return ErrLocked }

// LockPath is the file whose exclusive lock marks a workspace as open:
// the workspace's path with ".lock" appended. The lock is an advisory
// whole-file lock (flock on Unix, LockFileEx on Windows) held while the
// Store is open; the operating system releases it when the process ends,
// however it ends, so a crashed Riffle never leaves the workspace locked.
// The file itself stays (removing a lock file races with the next opener).
func LockPath(path string) string { return path + ".lock" }

// workspaceLock is a held lock on LockPath, and on the workspace file's
// identity lock (identityLockPath) when the file exists.
type workspaceLock struct{ f, id *os.File }

// lockWorkspace takes the workspace's lock without waiting, and records
// this process and the time in the lock file (for the message another
// opener shows).
//
// A workspace reached through a symbolic link locks the file it points to
// (the path is resolved first), and one reached through another hard link
// is caught by a second lock named after the file's device and inode, so
// two windows never write one file.
func lockWorkspace(path string) (*workspaceLock, error) {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	l, err := lockFileAt(LockPath(path), path)
	if err != nil {
		return nil, err
	}
	if err := l.lockIdentity(path); err != nil {
		l.release()
		return nil, err
	}
	return l, nil
}

// lockIdentity takes the identity lock of the file at path once the file
// exists (Open calls it again after creating a new workspace).
func (l *workspaceLock) lockIdentity(path string) error {
	if l.id != nil {
		return nil
	}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	idPath, ok := identityLockPath(path)
	if !ok {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(idPath), 0o700); err != nil {
		return nil // no cache folder: the path lock alone
	}
	id, err := lockFileAt(idPath, path)
	if err != nil {
		return err
	}
	l.id = id.f
	return nil
}

// identityLockPath names the lock of the file at path by its device and
// inode, in the user's cache folder (<cache>/riffle/locks/<dev>-<ino>.lock):
// every hard link of a file shares it. ok is false when the file does not
// exist yet or the system has no inodes.
func identityLockPath(path string) (string, bool) {
	dev, ino, ok := fileIdentity(path)
	if !ok {
		return "", false
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", false
	}
	return filepath.Join(dir, "riffle", "locks", fmt.Sprintf("%x-%x.lock", dev, ino)), true
}

// lockFileAt takes the lock file lockPath for the workspace at path.
func lockFileAt(lockPath, path string) (*workspaceLock, error) {
	f, err := os.OpenFile(lockPath, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("persistence: locking the workspace: %w", err)
	}
	ok, err := tryLockFile(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("persistence: locking the workspace: %w", err)
	}
	if !ok {
		le := &LockedError{Path: path}
		if b, err := io.ReadAll(io.LimitReader(f, 256)); err == nil {
			le.PID, le.Since = parseLockInfo(string(b))
		}
		f.Close()
		return nil, le
	}
	if err := f.Truncate(0); err == nil {
		fmt.Fprintf(f, "pid %d\nsince %s\n", os.Getpid(), time.Now().UTC().Format(time.RFC3339))
		f.Sync()
	}
	return &workspaceLock{f: f}, nil
}

func parseLockInfo(s string) (pid int, since time.Time) {
	for _, line := range strings.Split(s, "\n") {
		k, v, _ := strings.Cut(strings.TrimSpace(line), " ")
		switch k {
		case "pid":
			pid, _ = strconv.Atoi(v)
		case "since":
			since, _ = time.Parse(time.RFC3339, v)
		}
	}
	return pid, since
}

// release gives the locks up (closing the files releases them).
func (l *workspaceLock) release() {
	if l == nil {
		return
	}
	for _, f := range []**os.File{&l.id, &l.f} {
		if *f != nil {
			unlockFile(*f)
			(*f).Close()
			*f = nil
		}
	}
}
