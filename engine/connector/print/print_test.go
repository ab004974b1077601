package print

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/config"
	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
)

func sink(t *testing.T, opts map[string]string, out *bytes.Buffer) connector.Sink {
	t.Helper()
	o := map[string]string{"connector": "print"}
	for k, v := range opts {
		o[k] = v
	}
	// parallelism 1, so that a writer prints no "N>" prefix unless
	// sink.parallelism asks for more (the default is the number of cores)
	conf := config.New()
	conf.Set(config.Parallelism.Key, "1")
	s, err := connector.CreateSink(&connector.Context{Table: "p", Schema: types.NewPhysicalSchema([]string{"a"}, []*types.DataType{types.IntType()}), Options: o, Config: conf, Stdout: out})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestPrintLines(t *testing.T) {
	ts := []*types.DataType{types.IntType(), types.StringType(), types.TimestampType(3), types.TimestampLTZType(3),
		types.DecimalType(10, 8), types.BytesType(), types.ArrayType(types.DoubleType()), types.MapType(types.StringType(), types.IntType()),
		types.RowType(types.NewField("x", types.BooleanType())), types.DateType(), types.TimeType(0)}
	bb := types.NewBatchBuilder(ts)
	ts0 := time.Date(2024, 1, 31, 12, 0, 0, 0, time.UTC)
	_ = bb.Append(types.Insert, []any{int32(1), "Alice", ts0, ts0, types.MustDecimal("0.00000001"), []byte{1, 255}, []any{1.0, nil},
		&types.Map{Keys: []any{"k"}, Values: []any{int32(2)}}, types.NewRow(true), types.DateOf(2024, 1, 31), types.TimeOf(12, 0, 0, 0)})
	_ = bb.Append(types.UpdateBefore, make([]any, len(ts)))
	b := bb.Build()
	var out bytes.Buffer
	s := sink(t, nil, &out)
	if !s.ChangelogMode(types.RetractMode).Contains(types.Delete) {
		t.Fatal("print must accept every row kind")
	}
	w, _ := s.Open(context.Background(), connector.WriteSpec{Types: ts}, 0)
	if err := w.Write(context.Background(), b); err != nil {
		t.Fatal(err)
	}
	want := "+I[1, Alice, 2024-01-31T12:00, 2024-01-31T12:00:00Z, 1E-8, [1, -1], [1.0, null], {k=2}, +I[true], 2024-01-31, 12:00]\n" +
		"-U[null, null, null, null, null, null, null, null, null, null, null]\n"
	if out.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", out.String(), want)
	}
	for _, c := range []struct {
		opts  map[string]string
		index int
		want  string
	}{
		{map[string]string{"print-identifier": "sink"}, 0, "sink> +I[1]\n"},
		{map[string]string{"print-identifier": "sink", "sink.parallelism": "2"}, 1, "sink:2> +I[1]\n"},
		{map[string]string{"sink.parallelism": "3"}, 2, "3> +I[1]\n"},
	} {
		out.Reset()
		w, _ := sink(t, c.opts, &out).Open(context.Background(), connector.WriteSpec{Types: ts[:1]}, c.index)
		one := types.NewBatchBuilder(ts[:1])
		_ = one.Append(types.Insert, []any{int32(1)})
		_ = w.Write(context.Background(), one.Build())
		if out.String() != c.want {
			t.Errorf("%v: got %q, want %q", c.opts, out.String(), c.want)
		}
	}
	var errOut bytes.Buffer
	Stderr = &errOut
	out.Reset()
	w, _ = sink(t, map[string]string{"standard-error": "true"}, &out).Open(context.Background(), connector.WriteSpec{Types: ts}, 0)
	_ = w.Write(context.Background(), b)
	if out.Len() != 0 || errOut.String() != want {
		t.Fatalf("standard-error: stdout %q stderr %q", out.String(), errOut.String())
	}
	for _, bad := range []map[string]string{{"standard-error": "maybe"}, {"sink.parallelism": "0"}, {"other": "x"}} {
		o := map[string]string{"connector": "print"}
		for k, v := range bad {
			o[k] = v
		}
		if _, err := connector.CreateSink(&connector.Context{Table: "p", Schema: types.NewPhysicalSchema(nil, nil), Options: o, Config: config.New()}); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
}

func TestConcurrentWritersDoNotInterleave(t *testing.T) {
	var out bytes.Buffer
	s := sink(t, map[string]string{"sink.parallelism": "4"}, &out)
	ts := []*types.DataType{types.StringType()}
	done := make(chan struct{})
	for w := 0; w < 4; w++ {
		go func(w int) {
			defer func() { done <- struct{}{} }()
			wr, _ := s.Open(context.Background(), connector.WriteSpec{Types: ts}, w)
			for i := 0; i < 50; i++ {
				bb := types.NewBatchBuilder(ts)
				for j := 0; j < 10; j++ {
					_ = bb.Append(types.Insert, []any{"0123456789"})
				}
				_ = wr.Write(context.Background(), bb.Build())
			}
		}(w)
	}
	for w := 0; w < 4; w++ {
		<-done
	}
	lines := bytes.Split(bytes.TrimSuffix(out.Bytes(), []byte("\n")), []byte("\n"))
	if len(lines) != 2000 {
		t.Fatalf("%d lines", len(lines))
	}
	for _, l := range lines {
		if len(l) != len("1> +I[0123456789]") {
			t.Fatalf("interleaved line %q", l)
		}
	}
}

// TestPrintAtTheDefaultParallelism: a session that does not set
// parallelism.default runs the sink at the number of cores, and at more
// than one writer each line carries Flink's "N>" subtask prefix.
func TestPrintAtTheDefaultParallelism(t *testing.T) {
	var out bytes.Buffer
	s, err := connector.CreateSink(&connector.Context{Table: "p", Schema: types.NewPhysicalSchema([]string{"a"}, []*types.DataType{types.IntType()}),
		Options: map[string]string{"connector": "print"}, Config: config.New(), Stdout: &out})
	if err != nil {
		t.Fatal(err)
	}
	n := s.(*Sink).Parallelism()
	if n != min(runtime.NumCPU(), config.MaxParallelism) {
		t.Fatalf("parallelism %d, want runtime.NumCPU() = %d", n, runtime.NumCPU())
	}
	w, _ := s.Open(context.Background(), connector.WriteSpec{Types: []*types.DataType{types.IntType()}}, n-1)
	one := types.NewBatchBuilder([]*types.DataType{types.IntType()})
	_ = one.Append(types.Insert, []any{int32(7)})
	_ = w.Write(context.Background(), one.Build())
	want := "+I[7]\n"
	if n > 1 {
		want = fmt.Sprintf("%d> +I[7]\n", n)
	}
	if out.String() != want {
		t.Errorf("writer %d of %d printed %q, want %q", n, n, out.String(), want)
	}
}
