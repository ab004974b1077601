//go:build unix

package filesystem

import (
	"os"
	"syscall"
)

// mapRange maps bytes [from, to) of f read-only (see rangeData).
func mapRange(f *os.File, from, to int64) (*rangeData, error) {
	page := int64(os.Getpagesize())
	start := from &^ (page - 1)
	m, err := syscall.Mmap(int(f.Fd()), start, int(to-start), syscall.PROT_READ, syscall.MAP_SHARED|mapPopulate)
	if err != nil {
		return nil, err
	}
	return &rangeData{b: m[from-start:], free: func() { syscall.Munmap(m) }, mapping: m}, nil
}
