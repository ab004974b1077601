package gateway

import (
	"strings"
	"testing"
)

// A maximum column width that is not an integer above 0 in the session's
// configuration fails the query, as Flink's SQL Client fails reading it
// when it shows a result; a Flink gateway accepts such a SET, so the
// client checks the value it reads back.
func TestRemoteMaxColumnWidthBadValue(t *testing.T) {
	g := newTestGateway(t, Config{})
	e := g.connect(t, batchMode)
	for _, c := range []struct{ key, value, want string }{
		{"sql-client.display.max-column-width", "abc", "Could not parse value 'abc' for key 'sql-client.display.max-column-width'"},
		{"table.display.max-column-width", "0", "Invalid value '0' for key 'table.display.max-column-width'"},
	} {
		conf, err := e.Config(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		bad := map[string]string{}
		for k, v := range conf {
			bad[k] = v
		}
		bad[c.key] = c.value
		e.mu.Lock()
		e.conf = bad // what a Flink gateway hands back after the SET
		e.mu.Unlock()
		_, err = e.ExecuteSQL("SELECT 1")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s = %q: err %v, want %q", c.key, c.value, err, c.want)
		}
		e.invalidateConfig()
	}
	// a width of 1 prints aligned borders
	if _, err := e.ExecuteSQL("SET 'sql-client.display.max-column-width' = '1'"); err != nil {
		t.Fatal(err)
	}
	res, err := e.ExecuteSQL("SELECT 'hello' AS x")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := res.PrintTo(&b); err != nil {
		t.Fatal(err)
	}
	if want := "+-----+\n|   x |\n+-----+\n| ... |\n+-----+\n1 row in set\n"; b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}
