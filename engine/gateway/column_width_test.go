package gateway

import (
	"errors"
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

// A Riffle gateway stores a bad maximum column width as Flink's SQL
// Gateway stores any SET (OperationExecutor.callSetOperation puts the
// key and value in the session's configuration unchecked): the SET over
// REST, the session's properties and the gateway's -D defaults are taken,
// and queries run on the server; the client showing the result fails with
// an error saying the value is in the session's configuration
// (SessionConfigError), not blaming the statement.
func TestGatewayStoresBadMaxColumnWidth(t *testing.T) {
	const key = "sql-client.display.max-column-width"
	g := newTestGateway(t, Config{Defaults: map[string]string{"table.display.max-column-width": "0"}})
	s := g.openSession(t, batchMode)
	for _, stmt := range []string{"SET '" + key + "' = 'abc'", "SELECT 1"} {
		op := g.execute(t, s, stmt)
		g.fetchUntilReady(t, s, op)
		if st := g.mustOK(t, "GET", "/v2/sessions/"+s+"/operations/"+op+"/status", nil)["status"]; st != "FINISHED" {
			t.Errorf("%s over REST: status %v, want FINISHED", stmt, st)
		}
	}
	for _, c := range []struct {
		name  string
		props map[string]string
		value string
	}{
		{"session properties", map[string]string{"execution.runtime-mode": "batch", key: "abc"}, "'abc' of '" + key + "'"},
		{"the gateway's -D", batchMode, "'0' of 'table.display.max-column-width'"},
	} {
		e := g.connect(t, c.props)
		_, err := e.ExecuteSQL("SELECT 'x' AS s")
		var ce *SessionConfigError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), c.value) || !strings.Contains(err.Error(), "in the session's configuration on the SQL Gateway") {
			t.Errorf("%s: err %v, want a SessionConfigError naming %s", c.name, err, c.value)
		}
		// the SET a Flink client sends is taken, and fixes the session
		if _, err := e.ExecuteSQL("SET '" + key + "' = 'xyz'"); err != nil {
			t.Errorf("%s: SET %s = 'xyz': %v", c.name, key, err)
		}
		if _, err := e.ExecuteSQL("SET '" + key + "' = '5'"); err != nil {
			t.Fatal(err)
		}
		res, err := e.ExecuteSQL("SELECT 'abcdefgh' AS s")
		if err != nil {
			t.Fatalf("%s: after SET %s = '5': %v", c.name, key, err)
		}
		var b strings.Builder
		if err := res.PrintTo(&b); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), "| ab... |") {
			t.Errorf("%s: got\n%s", c.name, b.String())
		}
	}
}
