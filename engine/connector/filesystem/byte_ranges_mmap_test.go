//go:build linux

package filesystem

import (
	"bytes"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A file changed through a shared writable mapping keeps its size,
// modification time, status change time and inode: Linux sets the times
// when a page is first written through the mapping, not on later writes
// to the same page. holdsNoneOf must still see a quote written that way
// after an earlier check of the same file found none (two queries over a
// file another process maps, in one workbench or Go process), or the
// file is split inside a quoted field.
func TestHoldsNoneOfSeesWritesThroughMapping(t *testing.T) {
	const size = 2 << 20
	path := filepath.Join(t.TempDir(), "f.csv")
	if err := os.WriteFile(path, bytes.Repeat([]byte("abc,12\n"), size/7+1)[:size], 0o644); err != nil {
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
	at := size / 2
	m[at] = 'x' // the page is now writable through the mapping (the file stays clean)
	hourAgo := time.Now().Add(-time.Hour)
	if err := os.Chtimes(path, hourAgo, hourAgo); err != nil {
		t.Fatal(err)
	}
	stops := []byte{'"', '\\'}
	if !holdsNoneOf(path, size, stops, 2) {
		t.Fatal("a clean file was reported to hold a quote")
	}
	before, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	m[at] = '"'
	after, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if !after.ModTime().Equal(before.ModTime()) || after.Sys().(*syscall.Stat_t).Ctim != before.Sys().(*syscall.Stat_t).Ctim {
		t.Log("the kernel set the file's times on the second write through the mapping: the metadata changed this run")
	}
	if holdsNoneOf(path, size, stops, 2) {
		t.Fatal("a quote written through a mapping after the first check was not seen: the file would be split inside a quoted field")
	}
}
