//go:build unix

package filesystem

import (
	"os"
	"syscall"
)

// wakeFIFO opens and closes the write end of the FIFO at path without
// waiting (O_NONBLOCK), which wakes a reader waiting in open(2). It fails
// with ENXIO, harmlessly, when no reader is waiting.
func wakeFIFO(path string) {
	if w, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
		w.Close()
	}
}
