package kafka_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/engine/testwait"
)

// stream is a running streaming query read row by row.
type stream struct {
	t    *testing.T
	rows chan string
	errc chan error
	res  *table.TableResult
	stop func()
}

func startStream(t *testing.T, e *table.TableEnvironment, sql string) *stream {
	t.Helper()
	res, err := e.ExecuteSQL(sql)
	if err != nil {
		t.Fatalf("%s\n: %v", sql, err)
	}
	it, err := res.Collect()
	if err != nil {
		t.Fatal(err)
	}
	s := &stream{t: t, rows: make(chan string, 1024), errc: make(chan error, 1), res: res}
	go func() {
		for it.Next() {
			s.rows <- it.Row().String()
		}
		s.errc <- it.Err()
	}()
	s.stop = func() { it.Close() }
	t.Cleanup(s.stop)
	return s
}

// next returns the next n rows, failing after 20 s.
func (s *stream) next(n int) []string {
	s.t.Helper()
	var out []string
	deadline := time.After(20 * time.Second)
	for len(out) < n {
		select {
		case r := <-s.rows:
			out = append(out, r)
		case err := <-s.errc:
			s.t.Fatalf("query ended after %v: %v", out, err)
		case <-deadline:
			s.t.Fatalf("got %d of %d rows within 20 s: %v", len(out), n, out)
		}
	}
	return out
}

// progress polls the source's per-split progress until ok accepts it.
func (s *stream) progress(ok func([]connector.SplitProgress) bool) []connector.SplitProgress {
	s.t.Helper()
	var last []connector.SplitProgress
	if testwait.Poll(20*time.Second, func() bool {
		for _, m := range s.res.GetJobClient().Metrics() {
			if p := m.Splits; p != nil {
				last = p
				if ok(p) {
					return true
				}
			}
		}
		return false
	}) {
		return last
	}
	s.t.Fatalf("progress never matched; last %+v", last)
	return nil
}

func TestPerPartitionWatermarksAndProgress(t *testing.T) {
	bs := broker(t, map[string]int32{"ev": 2})
	produce(t, bs, "ev",
		rec{p: 0, val: `{"v":1,"ts":"2024-01-01 00:00:00.500"}`},
		rec{p: 0, val: `{"v":2,"ts":"2024-01-01 00:00:01.500"}`},
		rec{p: 0, val: `{"v":3,"ts":"2024-01-01 00:00:02.500"}`},
		rec{p: 1, val: `{"v":4,"ts":"2024-01-01 00:00:00.200"}`},
	)
	e := env(t, true)
	exec(t, e, fmt.Sprintf(`CREATE TABLE ev (v INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH (
		'connector' = 'kafka', 'topic' = 'ev', 'properties.bootstrap.servers' = '%s', 'format' = 'json',
		'scan.startup.mode' = 'earliest-offset', 'scan.watermark.idle-timeout' = '1 h')`, bs))
	s := startStream(t, e, "SELECT v FROM ev")
	got := sorted(s.next(4))
	same(t, "rows", got, []string{"+I[1]", "+I[2]", "+I[3]", "+I[4]"})
	// 2024-01-01 00:00:02.500 UTC and 00:00:00.200 UTC in epoch ms
	const wm0, wm1 = 1704067202500, 1704067200200
	p := s.progress(func(p []connector.SplitProgress) bool {
		return len(p) == 2 && p[0].Watermark == wm0 && p[1].Watermark == wm1
	})
	if p[0].Split != "ev-0" || p[0].Offset != 3 || p[0].LogEnd != 3 || p[0].Idle ||
		p[1].Split != "ev-1" || p[1].Offset != 1 || p[1].LogEnd != 1 || p[1].Idle {
		t.Errorf("progress %+v", p)
	}
}

func TestIdlePartitionDoesNotHoldBackWatermark(t *testing.T) {
	// at parallelism 2 each partition has its own reader: the reader of
	// the empty partition 1 never reads a row and must still go idle
	for _, par := range []string{"1", "2"} {
		t.Run("parallelism "+par, func(t *testing.T) {
			bs := broker(t, map[string]int32{"ev": 2})
			produce(t, bs, "ev",
				rec{p: 0, val: `{"v":1,"ts":"2024-01-01 00:00:00.500"}`},
				rec{p: 0, val: `{"v":2,"ts":"2024-01-01 00:00:01.500"}`},
				rec{p: 0, val: `{"v":3,"ts":"2024-01-01 00:00:02.500"}`},
			)
			e := env(t, true)
			e.GetConfig().Set("parallelism.default", par)
			exec(t, e, fmt.Sprintf(`CREATE TABLE ev (v INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH (
		'connector' = 'kafka', 'topic' = 'ev', 'properties.bootstrap.servers' = '%s', 'format' = 'json',
		'scan.startup.mode' = 'earliest-offset', 'scan.watermark.idle-timeout' = '300 ms')`, bs))
			// partition 1 never gets a record: once idle, partition 0 alone
			// drives the watermark to 00:00:02.500 and two windows fire
			s := startStream(t, e, `SELECT window_start, COUNT(*) FROM TABLE(TUMBLE(TABLE ev, DESCRIPTOR(ts), INTERVAL '1' SECOND))
		GROUP BY window_start, window_end`)
			got := s.next(2)
			slices.Sort(got)
			same(t, "windows", got, []string{"+I[2024-01-01T00:00, 1]", "+I[2024-01-01T00:00:01, 1]"})
			if par == "1" {
				s.progress(func(p []connector.SplitProgress) bool { return len(p) == 2 && p[1].Idle && p[1].Offset == -1 })
			}
		})
	}
}

func TestPartitionDiscovery(t *testing.T) {
	bs := broker(t, map[string]int32{"logs-a": 1})
	produce(t, bs, "logs-a", rec{val: `{"v":1}`})
	e := env(t, true)
	exec(t, e, fmt.Sprintf(`CREATE TABLE logs (v INT, tp STRING METADATA FROM 'topic' VIRTUAL) WITH (
		'connector' = 'kafka', 'topic-pattern' = 'logs-.*', 'properties.bootstrap.servers' = '%s', 'format' = 'json',
		'scan.startup.mode' = 'earliest-offset', 'scan.topic-partition-discovery.interval' = '100 ms')`, bs))
	s := startStream(t, e, "SELECT v, tp FROM logs")
	same(t, "first", s.next(1), []string{"+I[1, logs-a]"})
	cl, err := kgo.NewClient(kgo.SeedBrokers(bs))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	adm := kadm.NewClient(cl)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := adm.CreateTopic(ctx, 1, 1, nil, "logs-b"); err != nil {
		t.Fatal(err)
	}
	// records written before the reader found the topic are read: new
	// partitions start at their earliest offset
	produce(t, bs, "logs-b", rec{val: `{"v":2}`})
	same(t, "new topic", s.next(1), []string{"+I[2, logs-b]"})
	// a new partition of an existing topic
	if _, err := adm.CreatePartitions(ctx, 1, "logs-a"); err != nil {
		t.Fatal(err)
	}
	produce(t, bs, "logs-a", rec{p: 1, val: `{"v":3}`})
	same(t, "new partition", s.next(1), []string{"+I[3, logs-a]"})
	p := s.progress(func(p []connector.SplitProgress) bool { return len(p) == 3 })
	var names []string
	for _, x := range p {
		names = append(names, x.Split)
	}
	if strings.Join(names, ",") != "logs-a-0,logs-a-1,logs-b-0" {
		t.Errorf("splits %v", names)
	}
}

func TestParallelInstancesReadTheirPartitions(t *testing.T) {
	bs := broker(t, map[string]int32{"wide": 4})
	var recs []rec
	for i := 0; i < 8; i++ {
		recs = append(recs, rec{p: int32(i % 4), val: fmt.Sprintf(`{"v":%d}`, i)})
	}
	produce(t, bs, "wide", recs...)
	e := env(t, false)
	e.GetConfig().Set("parallelism.default", "4")
	exec(t, e, fmt.Sprintf(`CREATE TABLE wide (v INT) WITH ('connector' = 'kafka', 'topic' = 'wide',
		'properties.bootstrap.servers' = '%s', 'format' = 'json', 'scan.parallelism' = '2',
		'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset')`, bs))
	same(t, "sum", query(t, e, "SELECT SUM(v), COUNT(*) FROM wide"), []string{"+I[28, 8]"})
	res, err := e.ExecuteSQL("EXPLAIN JSON_EXECUTION_PLAN SELECT v FROM wide")
	if err == nil {
		var b strings.Builder
		_ = res.PrintTo(&b)
		if !strings.Contains(b.String(), `"parallelism" : 2`) && !strings.Contains(b.String(), `"parallelism": 2`) {
			t.Logf("plan does not show parallelism 2:\n%s", b.String())
		}
	}
}

func TestDebeziumValueMetadata(t *testing.T) {
	if _, err := connector.LookupFormat("debezium-json"); err != nil {
		t.Skipf("no debezium-json format: %v", err)
	}
	bs := broker(t, map[string]int32{"dbz": 1})
	produce(t, bs, "dbz",
		rec{val: `{"before":null,"after":{"id":1,"qty":3},"source":{"ts_ms":1714979289000,"db":"shop","table":"items"},"op":"c","ts_ms":1714979289001}`},
		rec{val: `{"before":{"id":1,"qty":3},"after":{"id":1,"qty":4},"source":{"ts_ms":1714979291000,"db":"shop","table":"items"},"op":"u","ts_ms":1714979291001}`},
	)
	e := env(t, true)
	exec(t, e, fmt.Sprintf(`CREATE TABLE items (id INT, qty INT,
		src_ts TIMESTAMP_LTZ(3) METADATA FROM 'value.source.timestamp' VIRTUAL,
		tbl STRING METADATA FROM 'value.source.table' VIRTUAL,
		off BIGINT METADATA FROM 'offset' VIRTUAL
	) WITH ('connector' = 'kafka', 'topic' = 'dbz', 'properties.bootstrap.servers' = '%s', 'format' = 'debezium-json',
		'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset')`, bs))
	same(t, "changelog", query(t, e, "SELECT * FROM items"), []string{
		"+I[1, 3, 2024-05-06T07:08:09, items, 0]",
		"-U[1, 3, 2024-05-06T07:08:11, items, 1]",
		"+U[1, 4, 2024-05-06T07:08:11, items, 1]",
	})
}
