//go:build linux

package filesystem

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A file changed through a shared writable mapping keeps its size,
// modification time, status change time and inode: Linux sets the times
// when a page is first written through the mapping, not on later writes
// to the same page. A quote written that way after an earlier read of the
// file found none must still be seen by the next (two queries over a file
// another process maps, in one workbench or Go process), or the file is
// split inside a quoted field.
func TestRangesSeeWritesThroughMapping(t *testing.T) {
	const size = 2 << 20
	path := filepath.Join(t.TempDir(), "f.csv")
	if err := os.WriteFile(path, rangeTestFile(size), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Munmap(m)
	at := size/2 - 8 // the line before the second range's first
	m[at] = '1'      // the pages are now writable through the mapping (the file keeps its bytes)
	m[at+8] = '1'
	hourAgo := time.Now().Add(-time.Hour)
	if err := os.Chtimes(path, hourAgo, hourAgo); err != nil {
		t.Fatal(err)
	}
	checkRangesReadAsOne(t, path, nil)
	before, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	quoteAcross(m, at)
	after, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if !after.ModTime().Equal(before.ModTime()) || after.Sys().(*syscall.Stat_t).Ctim != before.Sys().(*syscall.Stat_t).Ctim {
		t.Log("the kernel set the file's times on the second write through the mapping: the metadata changed this run")
	}
	checkRangesReadAsOne(t, path, nil)
}
