package session

import (
	"context"
	"fmt"
	"io"
	"net/http/httptest"
	"testing"

	"github.com/riffle-sql/riffle/engine/gateway"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/engine/types"
)

// engines returns the embedded engine and one on a loopback gateway, both
// in streaming mode.
func engines(t *testing.T) map[string]table.Engine {
	t.Helper()
	env, err := table.Create(table.InStreamingMode())
	if err != nil {
		t.Fatal(err)
	}
	embedded := table.NewEmbeddedEngine(env)
	t.Cleanup(func() { embedded.Close() })
	srv := gateway.NewServer(gateway.Config{PrintOutput: io.Discard})
	hs := httptest.NewServer(srv)
	t.Cleanup(func() {
		hs.CloseClientConnections()
		hs.Close()
		srv.Close()
	})
	remote, err := gateway.Connect(context.Background(), hs.URL, gateway.RemoteOptions{
		Properties: map[string]string{"execution.runtime-mode": "streaming"},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { remote.Close() })
	return map[string]table.Engine{"embedded": embedded, "gateway": remote}
}

// TestBatchesOnBothEngines runs one script through the runner on the
// embedded engine and through a gateway and reads the query's changelog
// with Batches: the same schema, rows and RowKinds.
func TestBatchesOnBothEngines(t *testing.T) {
	script := "SET 'parallelism.default' = '1';\n" +
		"SELECT k, COUNT(*) AS n FROM (VALUES ('a'), ('a'), ('b')) AS t(k) GROUP BY k"
	for name, eng := range engines(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			var got []string
			var cols []string
			r := NewRunner(eng, Options{Hooks: Hooks{Result: func(ctx context.Context, _ Statement, res table.StatementResult) error {
				if !res.IsQuery() {
					return nil
				}
				cols = res.Schema().FieldNames()
				ts := res.Schema().FieldDataTypes()
				for b, err := range Batches(ctx, res) {
					if err != nil {
						return err
					}
					for i := range b.Len {
						got = append(got, fmt.Sprintf("%s %v", b.Kind(i).ShortString(), b.Row(i, ts).Values))
					}
				}
				return nil
			}}})
			for _, st := range Split(script, sql.Pos{}) {
				if err := r.Run(ctx, st); err != nil {
					t.Fatal(err)
				}
			}
			want := "[+I [a 1] -U [a 1] +U [a 2] +I [b 1]]"
			if fmt.Sprint(cols) != "[k n]" || fmt.Sprint(got) != want {
				t.Errorf("columns %v, rows %v; want %s", cols, got, want)
			}
		})
	}
}

// TestBatchesCancel stops an unbounded query through ctx on both engines:
// the sequence ends with ctx's error.
func TestBatchesCancel(t *testing.T) {
	for name, eng := range engines(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			if _, err := eng.ExecuteStatement(ctx, "CREATE TEMPORARY TABLE gen (a BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '100')", sql.Pos{}); err != nil {
				t.Fatal(err)
			}
			res, err := eng.ExecuteStatement(ctx, "SELECT a FROM gen", sql.Pos{})
			if err != nil {
				t.Fatal(err)
			}
			qctx, cancel := context.WithCancel(ctx)
			defer cancel()
			rows := 0
			var last error
			for b, err := range Batches(qctx, res) {
				if err != nil {
					last = err
					break
				}
				rows += b.Len
				cancel() // after the first rows
			}
			if rows == 0 || last != context.Canceled {
				t.Errorf("%d rows, ended with %v", rows, last)
			}
		})
	}
}

// TestBatchesEmbedded reads a streaming query's changelog through the
// runner and Batches.
func TestBatchesEmbedded(t *testing.T) {
	env, err := table.Create(table.InStreamingMode())
	if err != nil {
		t.Fatal(err)
	}
	eng := table.NewEmbeddedEngine(env)
	defer eng.Close()
	ctx := context.Background()
	var kinds []types.RowKind
	rows := 0
	r := NewRunner(eng, Options{Hooks: Hooks{Result: func(ctx context.Context, _ Statement, res table.StatementResult) error {
		for b, err := range Batches(ctx, res) {
			if err != nil {
				return err
			}
			rows += b.Len
			for i := range b.Len {
				kinds = append(kinds, b.Kind(i))
			}
		}
		return nil
	}}})
	q := "SELECT k, COUNT(*) FROM (VALUES ('a'), ('a')) AS t(k) GROUP BY k"
	if err := r.Run(ctx, Parse(q, sql.Pos{})); err != nil {
		t.Fatal(err)
	}
	if rows != 3 || kinds[0] != types.Insert || kinds[1] != types.UpdateBefore || kinds[2] != types.UpdateAfter {
		t.Errorf("got %d rows, kinds %v", rows, kinds)
	}
}
