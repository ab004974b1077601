package gateway

import (
	"strings"
	"testing"
	"time"
)

// A session closed with a running INSERT is logged once, naming the job
// that runs on (it was logged twice: "closed; job … runs on", then
// "closed"); a session without one is logged "closed", and so is one
// whose INSERT was still executing (table.dml-sync): the close cancelled
// it, and its job is CANCELED, not running on.
func TestGatewayLogsSessionCloseOnce(t *testing.T) {
	logs := &lockedLog{}
	g := newTestGateway(t, Config{Logf: logs.logf})
	s := g.openSession(t, nil)
	for _, st := range []string{
		"CREATE TABLE src (x INT) WITH ('connector' = 'datagen', 'rows-per-second' = '5')",
		"CREATE TABLE snk (x INT) WITH ('connector' = 'blackhole')",
	} {
		g.fetchUntilReady(t, s, g.execute(t, s, st))
	}
	id := g.fetchUntilReady(t, s, g.execute(t, s, "INSERT INTO snk SELECT x FROM src"))["jobID"].(string)
	g.mustOK(t, "DELETE", "/v2/sessions/"+s, nil)
	idle := g.openSession(t, nil)
	g.mustOK(t, "DELETE", "/v2/sessions/"+idle, nil)

	// an INSERT still executing (table.dml-sync) is cancelled with its
	// session: its job is not logged as running on
	syncS := g.openSession(t, nil)
	for _, st := range []string{
		"SET 'table.dml-sync' = 'true'",
		"CREATE TABLE src (x INT) WITH ('connector' = 'datagen', 'rows-per-second' = '5')",
		"CREATE TABLE snk (x INT) WITH ('connector' = 'blackhole')",
	} {
		g.fetchUntilReady(t, syncS, g.execute(t, syncS, st))
	}
	other := g.openSession(t, nil)
	before := map[string]bool{}
	for _, r := range g.jobRows(t, other) {
		before[r[0].(string)] = true
	}
	g.execute(t, syncS, "INSERT INTO snk SELECT x FROM src")
	var syncID string
	if !waitFor(10*time.Second, func() bool {
		for _, r := range g.jobRows(t, other) {
			if !before[r[0].(string)] && r[2] == "RUNNING" {
				syncID = r[0].(string)
				return true
			}
		}
		return false
	}) {
		t.Fatal("the synchronous INSERT's job did not start")
	}
	g.mustOK(t, "DELETE", "/v2/sessions/"+syncS, nil)

	var lines []string
	for _, l := range strings.Split(logs.String(), "\n") {
		if strings.HasPrefix(l, "session ") {
			lines = append(lines, l)
		}
	}
	want := []string{
		"session " + s + ` ("test") closed; job ` + id + " (insert-into_default_catalog.default_database.snk) runs on",
		"session " + idle + ` ("test") closed`,
		"session " + syncS + ` ("test") closed`,
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Fatalf("session log lines:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	if st := jobStatus(g.jobRows(t, g.openSession(t, nil)), id); st != "RUNNING" {
		t.Errorf("the INSERT's job is %q after its session closed, want RUNNING", st)
	}
	if st := jobStatus(g.jobRows(t, other), syncID); st != "CANCELED" {
		t.Errorf("the synchronous INSERT's job is %q after its session closed, want CANCELED", st)
	}
}
