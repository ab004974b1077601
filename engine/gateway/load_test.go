package gateway

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"sync"
	"testing"
	"time"
)

// TestLoad runs 20 sessions × 10 concurrent statements over loopback,
// bounded in time, and checks that every row arrives and that no
// goroutine or memory is left once the sessions are closed.
func TestLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("load test")
	}
	const (
		sessions   = 20
		statements = 10
		rows       = 2000 // per statement
	)
	run := func(sessions, statements int) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		srv := NewServer(Config{PageRows: 512, PrintOutput: io.Discard})
		hs := &http.Server{Handler: srv}
		go hs.Serve(ln)
		hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
		url := "http://" + ln.Addr().String()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()

		var wg sync.WaitGroup
		errs := make(chan error, sessions*statements+sessions)
		var mu sync.Mutex
		gotRows, gotSum := 0, int64(0)
		for s := 0; s < sessions; s++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				mode := "batch"
				if s%2 == 1 {
					mode = "streaming"
				}
				e, err := Connect(ctx, url, RemoteOptions{HTTPClient: hc, Properties: map[string]string{"execution.runtime-mode": mode},
					PollMin: time.Millisecond, PollMax: 50 * time.Millisecond})
				if err != nil {
					errs <- err
					return
				}
				defer e.Close()
				if _, err := e.ExecuteSQLContext(ctx, fmt.Sprintf("CREATE TABLE seq (id BIGINT) WITH ('connector' = 'datagen', "+
					"'number-of-rows' = '%d', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '%d', 'rows-per-second' = '100000000')", rows, rows)); err != nil {
					errs <- err
					return
				}
				var swg sync.WaitGroup
				for q := 0; q < statements; q++ {
					swg.Add(1)
					go func() {
						defer swg.Done()
						stmt := "SELECT id FROM seq"
						if q%3 == 2 {
							stmt = "SELECT id % CAST(10 AS BIGINT) AS k, SUM(id) AS s FROM seq GROUP BY id % CAST(10 AS BIGINT)" // updates in streaming mode; MOD takes its second operand's type (Calcite NULLABLE_MOD)
						}
						res, err := e.ExecuteSQLContext(ctx, stmt)
						if err != nil {
							errs <- err
							return
						}
						it, err := res.CollectRows()
						if err != nil {
							errs <- err
							return
						}
						defer it.Close()
						n, sum := 0, int64(0)
						final := map[int64]int64{}
						for it.Next() {
							r := it.Row()
							if len(r.Values) == 1 {
								n++
								sum += r.Values[0].(int64)
								continue
							}
							if r.Kind.IsAccumulate() {
								final[r.Values[0].(int64)] = r.Values[1].(int64)
							}
						}
						if err := it.Err(); err != nil {
							errs <- err
							return
						}
						if len(final) > 0 {
							if len(final) != 10 {
								errs <- fmt.Errorf("GROUP BY: %d groups", len(final))
							}
							for _, v := range final {
								sum += v
							}
							n = rows
						}
						mu.Lock()
						gotRows += n
						gotSum += sum
						mu.Unlock()
					}()
				}
				swg.Wait()
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		wantRows := sessions * statements * rows
		wantSum := int64(sessions*statements) * int64(rows) * int64(rows+1) / 2
		if gotRows != wantRows || gotSum != wantSum {
			t.Errorf("%d rows summing to %d, want %d summing to %d", gotRows, gotSum, wantRows, wantSum)
		}
		if n := srv.SessionCount(); n != 0 {
			t.Errorf("%d sessions still open", n)
		}
		hc.CloseIdleConnections()
		sctx, scancel := context.WithTimeout(context.Background(), 10*time.Second)
		_ = hs.Shutdown(sctx)
		scancel()
		srv.Close()
	}

	run(1, 2) // warm up lazily built engine state before measuring
	runtime.GC()
	goroutines := runtime.NumGoroutine()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)

	start := time.Now()
	run(sessions, statements)
	t.Logf("%d sessions × %d statements × %d rows in %v", sessions, statements, rows, time.Since(start).Round(time.Millisecond))

	if !waitFor(10*time.Second, func() bool { return runtime.NumGoroutine() <= goroutines }) {
		buf := make([]byte, 1<<20)
		t.Errorf("goroutines: %d before, %d after\n%s", goroutines, runtime.NumGoroutine(), buf[:runtime.Stack(buf, true)])
	}
	var after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&after)
	t.Logf("heap in use: %d KiB before, %d KiB after", before.HeapInuse>>10, after.HeapInuse>>10)
	if after.HeapInuse > before.HeapInuse+16<<20 {
		t.Errorf("heap grew from %d KiB to %d KiB", before.HeapInuse>>10, after.HeapInuse>>10)
	}
}
