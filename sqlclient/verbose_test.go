package sqlclient

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/config"
	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/session"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/table"
)

// A panic in a job (a bug, or a user function's own) is reported by its
// message; its Go stack follows only with sql-client.verbose, as Flink's
// SQL Client prints an exception's stack trace.
func TestPanicStackOnlyWhenVerbose(t *testing.T) {
	env, err := table.Create(table.InStreamingMode())
	if err != nil {
		t.Fatal(err)
	}
	var errOut bytes.Buffer
	c := newClient(table.NewEmbeddedEngine(env), &bytes.Buffer{}, &errOut, "tableau")
	panicErr := fmt.Errorf("job failed: %w", expr.NewPanicError("boom"))
	st := session.Statement{Text: "SELECT 1", Pos: sql.Pos{Line: 1, Column: 1}}
	for _, verbose := range []string{"false", "true"} {
		env.Config().Set(config.Verbose.Key, verbose)
		errOut.Reset()
		c.fail("-e", st, panicErr)
		got := errOut.String()
		if !strings.Contains(got, "job failed: panic: boom") {
			t.Fatalf("verbose %s: the message is missing:\n%s", verbose, got)
		}
		hasStack := strings.Contains(got, "goroutine ") && strings.Contains(got, "TestPanicStackOnlyWhenVerbose")
		if hasStack != (verbose == "true") {
			t.Fatalf("verbose %s: stack shown %v:\n%s", verbose, hasStack, got)
		}
	}
}
