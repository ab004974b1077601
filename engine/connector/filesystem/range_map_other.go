//go:build !unix

package filesystem

import (
	"errors"
	"os"
)

// mapRange is not used where there is no mmap(2): the bytes are read.
func mapRange(f *os.File, from, to int64) (*rangeData, error) {
	return nil, errors.ErrUnsupported
}
