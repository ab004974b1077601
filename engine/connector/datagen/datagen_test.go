package datagen

import (
	"context"
	"errors"
	"io"
	"math"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/config"
	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
)

type fakeClock struct{ t time.Time }

func (c *fakeClock) Now() time.Time { return c.t }
func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.t = c.t.Add(d)
	return nil
}

var epoch = time.Date(2024, 1, 31, 12, 0, 0, 0, time.UTC)

func newSource(t *testing.T, opts map[string]string, names []string, ts []*types.DataType) (*Source, *fakeClock) {
	t.Helper()
	o := map[string]string{"connector": "datagen"}
	for k, v := range opts {
		o[k] = v
	}
	// one split (parallelism 1), whose rows the tests read: the default
	// would be one split per core
	conf := config.New()
	conf.Set(config.Parallelism.Key, "1")
	src, err := connector.CreateSource(&connector.Context{Table: "gen", Schema: types.NewPhysicalSchema(names, ts), Options: o, Config: conf})
	if err != nil {
		t.Fatal(err)
	}
	s := src.(*Source)
	c := &fakeClock{t: epoch}
	s.clock, s.seed = c, 42
	return s, c
}

func createErr(opts map[string]string, names []string, ts []*types.DataType) error {
	o := map[string]string{"connector": "datagen"}
	for k, v := range opts {
		o[k] = v
	}
	_, err := connector.CreateSource(&connector.Context{Table: "gen", Schema: types.NewPhysicalSchema(names, ts), Options: o, Config: config.New()})
	return err
}

// rowsOf reads every split of a bounded source.
func rowsOf(t *testing.T, src *Source, ts []*types.DataType) [][]*types.Row {
	t.Helper()
	splits, _ := src.Splits(context.Background())
	var out [][]*types.Row
	for _, sp := range splits {
		r, err := src.Open(context.Background(), sp, connector.ReadSpec{Limit: -1})
		if err != nil {
			t.Fatal(err)
		}
		var rows []*types.Row
		for {
			b, err := r.Next(context.Background())
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			rows = append(rows, b.Rows(ts)...)
		}
		_ = r.Close()
		out = append(out, rows)
	}
	return out
}

func TestValidation(t *testing.T) {
	i := []*types.DataType{types.IntType()}
	s := []*types.DataType{types.VarCharType(10)}
	for _, c := range []struct {
		opts  map[string]string
		names []string
		ts    []*types.DataType
		frag  string
	}{
		{map[string]string{"fields.nope.kind": "random"}, []string{"a"}, i, "Unsupported options found for 'datagen'.\n\nUnsupported options:\n\nfields.nope.kind\n\nSupported options:\n\nconnector\nfields.a.kind\nfields.a.max\nfields.a.min\nfields.a.null-rate\nnumber-of-rows"},
		{map[string]string{"fields.a.length": "5"}, []string{"a"}, i, "fields.a.length"},
		{map[string]string{"fields.a.min": "1"}, []string{"a"}, s, "fields.a.min"},
		{map[string]string{"bogus": "1"}, []string{"a"}, i, "bogus"},
		{map[string]string{"fields.a.kind": "sequence"}, []string{"a"}, i, "could not find required property 'fields.a.start'"},
		{map[string]string{"fields.a.kind": "sequence", "fields.a.start": "1"}, []string{"a"}, i, "'fields.a.end'"},
		{map[string]string{"fields.a.kind": "sequence", "fields.a.start": "5", "fields.a.end": "1"}, []string{"a"}, i, "greater than end"},
		{map[string]string{"fields.a.kind": "sequence", "fields.a.start": "1", "fields.a.end": "3000000000"}, []string{"a"}, i, "out of the range"},
		{map[string]string{"fields.a.kind": "wild"}, []string{"a"}, i, "unknown kind"},
		{map[string]string{"fields.a.null-rate": "1.5"}, []string{"a"}, i, "null-rate"},
		{map[string]string{"fields.a.min": "9", "fields.a.max": "1"}, []string{"a"}, i, "greater than max"},
		{map[string]string{"fields.a.min": "x"}, []string{"a"}, i, "must be an integer"},
		{map[string]string{"fields.a.length": "11"}, []string{"a"}, s, "exceeds the length 10"},
		{map[string]string{"rows-per-second": "0"}, []string{"a"}, i, "rows-per-second"},
		{map[string]string{"number-of-rows": "-1"}, []string{"a"}, i, "number-of-rows"},
		{map[string]string{"fields.a.start": "1", "fields.a.end": "2"}, []string{"a"}, i, "need 'fields.a.kind' = 'sequence'"},
		{map[string]string{"fields.a.kind": "sequence", "fields.a.start": "1", "fields.a.end": "2"}, []string{"a"}, []*types.DataType{types.BooleanType()}, "fields.a.start"},
	} {
		err := createErr(c.opts, c.names, c.ts)
		if err == nil || !strings.Contains(err.Error(), c.frag) {
			t.Errorf("%v: error %v, want %q", c.opts, err, c.frag)
		}
	}
}

func TestRandomBoundsAndLengths(t *testing.T) {
	names := []string{"ti", "i", "d", "dec", "s", "vs", "c", "b", "ts", "ltz", "date", "time", "arr", "m", "ms", "r"}
	ts := []*types.DataType{types.TinyIntType(), types.IntType(), types.DoubleType(), types.DecimalType(5, 2), types.StringType(),
		types.VarCharType(50), types.CharType(4), types.BytesType(), types.TimestampType(3), types.TimestampLTZType(3),
		types.DateType(), types.TimeType(0), types.ArrayType(types.IntType()), types.MapType(types.StringType(), types.BooleanType()),
		types.MultisetType(types.BooleanType()), types.RowType(types.NewField("x", types.IntType()), types.NewField("y", types.StringType()))}
	src, _ := newSource(t, map[string]string{"number-of-rows": "2000", "fields.i.min": "-5", "fields.i.max": "5",
		"fields.d.min": "1.5", "fields.d.max": "2.5", "fields.s.length": "7", "fields.vs.var-len": "true",
		"fields.b.length": "3", "fields.ts.max-past": "1 h", "fields.arr.length": "2", "fields.arr.element.min": "0",
		"fields.arr.element.max": "9", "fields.r.x.min": "100", "fields.r.x.max": "100", "fields.r.y.length": "2", "fields.m.key.length": "1"}, names, ts)
	if !src.Bounded() {
		t.Fatal("number-of-rows source must be bounded")
	}
	rows := rowsOf(t, src, ts)[0]
	if len(rows) != 2000 {
		t.Fatalf("%d rows", len(rows))
	}
	varLens := map[int]bool{}
	for _, r := range rows {
		v := r.Values
		if x := v[1].(int32); x < -5 || x > 5 {
			t.Fatalf("i = %d", x)
		}
		if x := v[2].(float64); x < 1.5 || x > 2.5 {
			t.Fatalf("d = %v", x)
		}
		if x := v[3].(types.Decimal); x.Float64() > 999.99 || x.Float64() < -999.99 {
			t.Fatalf("dec = %v", x)
		}
		if s := v[4].(string); len(s) != 7 || strings.Trim(s, "0123456789abcdef") != "" {
			t.Fatalf("s = %q", s)
		}
		vs := v[5].(string)
		if len(vs) < 1 || len(vs) > 50 {
			t.Fatalf("vs length %d", len(vs))
		}
		varLens[len(vs)] = true
		if len(v[6].(string)) != 4 || len(v[7].([]byte)) != 3 {
			t.Fatalf("char/bytes lengths %v", r)
		}
		for _, k := range []int{8, 9} {
			tt := v[k].(time.Time)
			if tt.After(epoch.Add(time.Second)) || (k == 8 && tt.Before(epoch.Add(-time.Hour))) || (k == 9 && tt.Before(epoch)) {
				t.Fatalf("timestamp %v out of [now - max-past, now]", tt)
			}
		}
		y, m, d := epoch.Local().Date()
		if v[10] != types.DateOf(y, m, d) {
			t.Fatalf("date %v", v[10])
		}
		arr := v[12].([]any)
		if len(arr) != 2 || arr[0].(int32) < 0 || arr[0].(int32) > 9 {
			t.Fatalf("arr %v", arr)
		}
		if mm := v[13].(*types.Map); mm.Len() < 1 || mm.Len() > 3 {
			t.Fatalf("map %v", mm)
		}
		if ms := v[14].(*types.Map); ms.Len() > 2 {
			t.Fatalf("multiset of BOOLEAN has %d distinct elements", ms.Len())
		}
		row := v[15].(*types.Row)
		if row.Values[0] != int32(100) || len(row.Values[1].(string)) != 2 {
			t.Fatalf("row %v", row)
		}
	}
	if len(varLens) < 10 {
		t.Fatalf("var-len produced only %d distinct lengths", len(varLens))
	}
}

func TestSequences(t *testing.T) {
	names := []string{"id", "s", "d"}
	ts := []*types.DataType{types.BigIntType(), types.StringType(), types.DecimalType(6, 2)}
	opts := map[string]string{"fields.id.kind": "sequence", "fields.id.start": "1", "fields.id.end": "1000",
		"fields.s.kind": "sequence", "fields.s.start": "10", "fields.s.end": "5000",
		"fields.d.kind": "sequence", "fields.d.start": "0.5", "fields.d.end": "2000.5"}
	src, _ := newSource(t, opts, names, ts)
	if !src.Bounded() {
		t.Fatal("sequence source must be bounded")
	}
	rows := rowsOf(t, src, ts)[0]
	// Ends with the first exhausted sequence (id: 1000 values).
	if len(rows) != 1000 {
		t.Fatalf("%d rows", len(rows))
	}
	for i, r := range rows {
		if r.Values[0] != int64(i+1) || r.Values[1] != strconv.Itoa(10+i) || r.Values[2].(types.Decimal).Float64() != 0.5+float64(i) {
			t.Fatalf("row %d: %s", i, r)
		}
	}
	// Three splits partition the range contiguously, without overlap.
	opts["scan.parallelism"] = "3"
	opts["number-of-rows"] = "500"
	src, _ = newSource(t, opts, names, ts)
	parts := rowsOf(t, src, ts)
	var ids []int
	for i, p := range parts {
		if len(p) != []int{167, 167, 166}[i] {
			t.Fatalf("split %d has %d rows", i, len(p))
		}
		for _, r := range p {
			ids = append(ids, int(r.Values[0].(int64)))
		}
	}
	if parts[1][0].Values[0] != int64(335) || parts[2][0].Values[0] != int64(668) {
		t.Fatalf("split starts %v %v", parts[1][0], parts[2][0])
	}
	sort.Ints(ids)
	for i := 1; i < len(ids); i++ {
		if ids[i] == ids[i-1] {
			t.Fatalf("duplicate id %d", ids[i])
		}
	}
}

func TestNullRate(t *testing.T) {
	ts := []*types.DataType{types.IntType(), types.StringType(), types.ArrayType(types.IntType())}
	src, _ := newSource(t, map[string]string{"number-of-rows": "100000", "fields.a.null-rate": "0.3", "fields.b.null-rate": "0",
		"fields.c.element.null-rate": "0.5", "rows-per-second": "1000000000"}, []string{"a", "b", "c"}, ts)
	rows := rowsOf(t, src, ts)[0]
	nulls, elems, elemNulls := 0, 0, 0
	for _, r := range rows {
		if r.Values[0] == nil {
			nulls++
		}
		if r.Values[1] == nil {
			t.Fatal("null with null-rate 0")
		}
		for _, e := range r.Values[2].([]any) {
			elems++
			if e == nil {
				elemNulls++
			}
		}
	}
	if rate := float64(nulls) / float64(len(rows)); math.Abs(rate-0.3) > 0.01 {
		t.Fatalf("null rate %.4f, want 0.3 ± 0.01", rate)
	}
	if rate := float64(elemNulls) / float64(elems); math.Abs(rate-0.5) > 0.01 {
		t.Fatalf("element null rate %.4f", rate)
	}
}

func TestRateLimitWithFakeClock(t *testing.T) {
	ts := []*types.DataType{types.IntType()}
	src, clk := newSource(t, map[string]string{"rows-per-second": "1000"}, []string{"a"}, ts)
	if src.Bounded() {
		t.Fatal("datagen without number-of-rows must be unbounded")
	}
	r, _ := src.Open(context.Background(), Split{0, 1}, connector.ReadSpec{Limit: -1})
	total := 0
	for clk.t.Sub(epoch) < 10*time.Second {
		b, err := r.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		total += b.Len
		// Never ahead of the schedule: rows <= rate × elapsed.
		if float64(total) > 1000*clk.t.Sub(epoch).Seconds()+1e-6 {
			t.Fatalf("%d rows after %v", total, clk.t.Sub(epoch))
		}
		if b.Len != 50 {
			t.Fatalf("batch of %d rows, want 50 (50 ms at 1000 rows/s)", b.Len)
		}
	}
	if total < 9950 || total > 10000 {
		t.Fatalf("%d rows in 10 simulated seconds at 1000 rows/s", total)
	}
	// Two splits share the rate.
	src, clk = newSource(t, map[string]string{"rows-per-second": "1000", "scan.parallelism": "2"}, []string{"a"}, ts)
	r, _ = src.Open(context.Background(), Split{1, 2}, connector.ReadSpec{Limit: -1})
	total = 0
	for clk.t.Sub(epoch) < 10*time.Second {
		b, _ := r.Next(context.Background())
		total += b.Len
	}
	if total < 4950 || total > 5000 {
		t.Fatalf("split of 2: %d rows in 10 s", total)
	}
	// After a stall (the consumer did not ask for a minute) the reader does
	// not burst: at most one extra batch is released at once.
	clk.t = clk.t.Add(time.Minute)
	b, _ := r.Next(context.Background())
	if b.Len > 25 {
		t.Fatalf("burst of %d rows", b.Len)
	}
}

func TestCancellationIsPrompt(t *testing.T) {
	ts := []*types.DataType{types.IntType()}
	o := map[string]string{"connector": "datagen", "rows-per-second": "1"}
	src, err := connector.CreateSource(&connector.Context{Table: "gen", Schema: types.NewPhysicalSchema([]string{"a"}, ts), Options: o, Config: config.New()})
	if err != nil {
		t.Fatal(err)
	}
	r, _ := src.Open(context.Background(), Split{0, 1}, connector.ReadSpec{Limit: -1})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := r.Next(ctx) // due in one second
		done <- err
	}()
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("got %v", err)
		}
	case <-time.After(30 * time.Second): // a hang guard, not a timing assertion
		t.Fatal("Next did not return after cancellation")
	}
}

func TestDeterministicSeedAndProjection(t *testing.T) {
	ts := []*types.DataType{types.IntType(), types.StringType()}
	a, _ := newSource(t, map[string]string{"number-of-rows": "10"}, []string{"a", "b"}, ts)
	b, _ := newSource(t, map[string]string{"number-of-rows": "10"}, []string{"a", "b"}, ts)
	ra, rb := rowsOf(t, a, ts)[0], rowsOf(t, b, ts)[0]
	for i := range ra {
		if !ra[i].Equal(rb[i]) {
			t.Fatalf("row %d differs with the same seed", i)
		}
	}
	r, _ := a.Open(context.Background(), Split{0, 1}, connector.ReadSpec{Columns: []int{1}, Limit: 4})
	batch, err := r.Next(context.Background())
	if err != nil || len(batch.Cols) != 1 || batch.Len != 4 {
		t.Fatalf("projection/limit: %v %v", batch, err)
	}
	if _, err := r.Next(context.Background()); err != io.EOF {
		t.Fatalf("after the limit: %v", err)
	}
}

// BenchmarkDatagen generates (BIGINT sequence, INT, DOUBLE, STRING(10),
// TIMESTAMP(3)) rows without rate limiting.
func BenchmarkDatagen(b *testing.B) {
	ts := []*types.DataType{types.BigIntType(), types.IntType(), types.DoubleType(), types.VarCharType(10), types.TimestampType(3)}
	o := map[string]string{"connector": "datagen", "rows-per-second": "1000000000000", "fields.id.kind": "sequence",
		"fields.id.start": "1", "fields.id.end": "9000000000000000000", "fields.s.length": "10"}
	src, err := connector.CreateSource(&connector.Context{Table: "gen", Schema: types.NewPhysicalSchema([]string{"id", "i", "d", "s", "ts"}, ts), Options: o, Config: config.New()})
	if err != nil {
		b.Fatal(err)
	}
	r, _ := src.Open(context.Background(), Split{0, 1}, connector.ReadSpec{Limit: -1})
	b.ReportAllocs()
	b.ResetTimer()
	rows := 0
	for rows < b.N {
		batch, err := r.Next(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		rows += batch.Len
	}
	b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
}

// Sequence fields end the source by themselves, but only number-of-rows
// makes it bounded to the planner (Flink's DataGenTableSource:
// isBounded = number-of-rows is set), so batch mode refuses a table of
// sequence fields without it, as Flink 2.3.0 does.
func TestDeclaredBoundedness(t *testing.T) {
	names := []string{"id"}
	ts := []*types.DataType{types.BigIntType()}
	seq := map[string]string{"fields.id.kind": "sequence", "fields.id.start": "1", "fields.id.end": "3"}
	for _, c := range []struct {
		name              string
		opts              map[string]string
		bounded, declared bool
	}{
		{"random", map[string]string{}, false, false},
		{"sequence", seq, true, false},
		{"sequence and number-of-rows", map[string]string{"fields.id.kind": "sequence", "fields.id.start": "1", "fields.id.end": "3", "number-of-rows": "2"}, true, true},
		{"number-of-rows", map[string]string{"number-of-rows": "2"}, true, true},
	} {
		src, _ := newSource(t, c.opts, names, ts)
		if src.Bounded() != c.bounded || src.DeclaredBounded() != c.declared || connector.DeclaredBounded(src) != c.declared {
			t.Errorf("%s: Bounded %v DeclaredBounded %v, want %v %v", c.name, src.Bounded(), src.DeclaredBounded(), c.bounded, c.declared)
		}
	}
	// the sequence alone still ends the rows (streaming mode)
	src, _ := newSource(t, seq, names, ts)
	if rows := rowsOf(t, src, ts)[0]; len(rows) != 3 {
		t.Fatalf("%d rows, want 3", len(rows))
	}
}

// TestSplitsAtTheDefaultParallelism: a session that does not set
// parallelism.default generates one split per core; together they give
// number-of-rows rows, each once.
func TestSplitsAtTheDefaultParallelism(t *testing.T) {
	ts := []*types.DataType{types.BigIntType()}
	o := map[string]string{"connector": "datagen", "number-of-rows": "100", "fields.id.kind": "sequence", "fields.id.start": "1", "fields.id.end": "100"}
	src, err := connector.CreateSource(&connector.Context{Table: "gen", Schema: types.NewPhysicalSchema([]string{"id"}, ts), Options: o, Config: config.New()})
	if err != nil {
		t.Fatal(err)
	}
	s := src.(*Source)
	s.clock = &fakeClock{t: epoch}
	splits, _ := s.Splits(context.Background())
	if want := min(runtime.NumCPU(), config.MaxParallelism); len(splits) != want {
		t.Fatalf("%d splits, want runtime.NumCPU() = %d", len(splits), want)
	}
	seen := map[int64]bool{}
	for _, rows := range rowsOf(t, s, ts) {
		for _, r := range rows {
			id := r.Values[0].(int64)
			if seen[id] {
				t.Fatalf("id %d twice", id)
			}
			seen[id] = true
		}
	}
	if len(seen) != 100 {
		t.Errorf("%d distinct ids, want 100", len(seen))
	}
}
