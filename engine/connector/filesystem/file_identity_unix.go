//go:build unix

package filesystem

import (
	"os"
	"syscall"
)

// fileIdentity is what tells two files at one path apart beyond their
// size and modification time: the device and inode, and the status change
// time (nanoseconds since 1970), which every write, rename onto the path
// or metadata change sets and no user can set back.
type fileIdentity struct {
	dev, ino uint64
	ctime    int64
}

// identify returns fi's identity; the zero identity when fi does not
// come from stat(2).
func identify(fi os.FileInfo) fileIdentity {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileIdentity{}
	}
	return fileIdentity{dev: uint64(st.Dev), ino: uint64(st.Ino), ctime: statusChangeTime(st)}
}
