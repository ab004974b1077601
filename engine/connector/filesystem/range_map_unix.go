//go:build unix

package filesystem

import (
	"os"
	"syscall"
)

// mapRange maps bytes [from, to) of f read-only (see rangeData).
//
// The pages are not populated in the call (no MAP_POPULATE): the reader's
// first touches fault them in a few pages at a time as it parses. With
// MAP_POPULATE one reader's mmap call filled its whole range's page table
// before its parse began (holding the process's memory-map lock, which the
// other reader's mmap and munmap of its own range wait on, as far as the
// kernel's design says; not measured inside the kernel): on the 3 M-row
// flights CSV (106 MB, 64 ranges) the two-thread walls were 2-4 % longer
// populated (COUNT(DISTINCT) 1.75-1.90x the one-
// thread speed in fourteen alternating commands, unpopulated 1.87-1.95x;
// docs/benchmarks.md, "Mapped without MAP_POPULATE").
func mapRange(f *os.File, from, to int64) (*rangeData, error) {
	page := int64(os.Getpagesize())
	start := from &^ (page - 1)
	m, err := syscall.Mmap(int(f.Fd()), start, int(to-start), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, err
	}
	return &rangeData{b: m[from-start:], free: func() { syscall.Munmap(m) }, mapping: m}, nil
}
