package filesystem

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"time"
)

// Cancellation of blocking reads.
//
// A regular file never makes open(2) or read(2) wait for another process,
// but a path can name a FIFO (named pipe), a terminal or another device:
// opening a FIFO waits until a writer opens it, and reading waits until
// the writer writes or closes. The source honours its context in both:
//
//   - openRead opens a FIFO in a goroutine and returns ctx.Err() as soon
//     as ctx is done; the pending open(2) is then woken by opening the
//     FIFO's write end for an instant (wakeFIFO), and the file it returns
//     is closed. Another reader waiting on the same FIFO may see that
//     empty writer come and go (it reads end of file).
//   - watchRead sets a past read deadline on the file when ctx is done.
//     Go reads FIFOs, pipes and terminals through its poller, so a read
//     waiting there returns at once; reading a regular file does not
//     wait, and the deadline is not needed (os.ErrNoDeadline is ignored).
//     The reader's Next then returns ctx.Err() (context.Canceled).

// openRead opens path for reading; a FIFO's open is abandoned when ctx is
// done, with ctx.Err().
func openRead(ctx context.Context, path string) (*os.File, error) {
	st, err := os.Stat(path)
	if err != nil || st.Mode()&fs.ModeNamedPipe == 0 {
		return os.Open(path)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	type opened struct {
		f   *os.File
		err error
	}
	done := make(chan opened, 1)
	go func() {
		f, err := os.Open(path)
		done <- opened{f, err}
	}()
	select {
	case o := <-done:
		return o.f, o.err
	case <-ctx.Done():
	}
	go func() {
		// The goroutine may not have reached open(2) yet, when there is no
		// reader for the write end to meet: try again until it returns
		// (for 10 s; the FIFO may have been removed meanwhile).
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		for try := 0; ; try++ {
			if try < 1000 {
				wakeFIFO(path)
			}
			select {
			case o := <-done:
				if o.f != nil {
					o.f.Close()
				}
				return
			case <-t.C:
			}
		}
	}()
	return nil, ctx.Err()
}

// watchRead makes a read of f that waits (a FIFO, a pipe, a terminal)
// return when ctx is done. The returned stop function ends the watch.
func watchRead(ctx context.Context, f *os.File) (stop func() bool) {
	return context.AfterFunc(ctx, func() {
		// ErrNoDeadline: a regular file, whose reads do not wait.
		_ = f.SetReadDeadline(time.Unix(1, 0))
	})
}

// cancelled returns ctx's error in place of err when the read failed
// because ctx was done (the deadline watchRead set).
func cancelled(ctx context.Context, err error) error {
	if cerr := ctx.Err(); cerr != nil && (errors.Is(err, os.ErrDeadlineExceeded) || errors.Is(err, os.ErrClosed)) {
		return cerr
	}
	return err
}
