//go:build interop

package interop

import (
	"context"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/gateway"
)

// TestFlinkGatewayAnswers checks the ground the other tests stand on: the
// real SQL Gateway speaks REST v1..v4, names itself Apache Flink with the
// pinned version, and a batch query through Riffle's client returns Flink's
// rows.
func TestFlinkGatewayAnswers(t *testing.T) {
	f := fcRequire(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c, err := gateway.NewClient(f.Gateway, gateway.ClientOptions{})
	if err != nil {
		t.Fatal(err)
	}
	info, err := c.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if info.ProductName != "Apache Flink" || info.Version != f.Version {
		t.Fatalf("info = %+v, want Apache Flink %s", info, f.Version)
	}
	e, err := gateway.Connect(ctx, f.Gateway, gateway.RemoteOptions{Properties: map[string]string{"execution.runtime-mode": "batch"}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	res, err := e.ExecuteSQLContext(ctx, "SELECT x, x * 2 AS y FROM (VALUES (1), (2), (3)) AS t(x)")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := res.Collect()
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got [][2]int64
	for rows.Next() {
		r := rows.Row()
		got = append(got, [2]int64{toInt(t, r.Field(0)), toInt(t, r.Field(1))})
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	want := [][2]int64{{1, 2}, {2, 4}, {3, 6}}
	if len(got) != len(want) {
		t.Fatalf("rows = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("rows = %v, want %v", got, want)
		}
	}
}

func toInt(t testing.TB, v any) int64 {
	t.Helper()
	switch x := v.(type) {
	case int32:
		return int64(x)
	case int64:
		return x
	case int:
		return int64(x)
	}
	t.Fatalf("value %v (%T) is not an integer", v, v)
	return 0
}
