package session

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/table"
)

// recorder is an Executor that records what it was asked to run and
// fails the statements whose text contains "fail".
type recorder struct {
	ran    []string
	parsed []bool
}

func (r *recorder) ExecuteParsed(_ context.Context, st sql.Statement, text string, at sql.Pos) (table.StatementResult, error) {
	r.ran = append(r.ran, text)
	r.parsed = append(r.parsed, st != nil)
	if strings.Contains(text, "fail") {
		return nil, errors.New("engine says no")
	}
	return nil, nil
}

func newTestRunner(exec Executor, opts Options, log *[]string) *Runner {
	opts.Hooks = Hooks{
		Command: func(st Statement, ev Event) {
			*log = append(*log, fmt.Sprintf("%s@%d:%d", ev, st.Pos.Line, st.Pos.Column))
		},
		Result: func(_ context.Context, st Statement, _ table.StatementResult) error {
			*log = append(*log, "result "+strings.ReplaceAll(st.Text, "\n", " "))
			return nil
		},
	}
	return NewRunner(exec, opts)
}

func TestRunnerStatementSet(t *testing.T) {
	var log []string
	ex := &recorder{}
	r := newTestRunner(ex, Options{}, &log)
	script := "BEGIN STATEMENT SET;\nINSERT INTO a VALUES (1);\nINSERT INTO b VALUES (2);\nEND;\nBEGIN STATEMENT SET;\nEND;"
	for _, st := range Split(script, sql.Pos{}) {
		if err := r.Run(context.Background(), st); err != nil {
			t.Fatalf("%s: %v", st.Text, err)
		}
	}
	if err := r.Finish(); err != nil {
		t.Fatal(err)
	}
	want := []string{"SetBegun@1:1", "SetAdded@2:1", "SetAdded@3:1",
		"result EXECUTE STATEMENT SET BEGIN INSERT INTO a VALUES (1); INSERT INTO b VALUES (2); END",
		"SetBegun@5:1", "SetEmpty@6:1"}
	if fmt.Sprint(log) != fmt.Sprint(want) {
		t.Errorf("events\n got %q\nwant %q", log, want)
	}
	if len(ex.ran) != 1 || !ex.parsed[0] {
		t.Errorf("engine ran %q (parsed %v), want the one statement set, parsed", ex.ran, ex.parsed)
	}
}

func TestRunnerStatementSetErrors(t *testing.T) {
	var log []string
	r := newTestRunner(&recorder{}, Options{}, &log)
	ctx := context.Background()
	run := func(text string) error { return r.Run(ctx, Parse(text, sql.Pos{})) }
	if err := run("END"); !errors.Is(err, ErrNoStatementSet) {
		t.Errorf("END alone: %v", err)
	}
	_ = run("BEGIN STATEMENT SET")
	for _, text := range []string{"BEGIN STATEMENT SET", "SELECT 1", "SET 'a' = 'b'"} {
		err := run(text)
		var se *Error
		if !errors.Is(err, ErrNotInStatementSet) || !errors.As(err, &se) || se.Statement.Text != text {
			t.Errorf("%s in a set: %v", text, err)
		}
	}
	if !r.InStatementSet() {
		t.Error("the set was closed by an error")
	}
	if err := r.Finish(); !errors.Is(err, ErrStatementSetNotEnded) {
		t.Errorf("Finish: %v", err)
	}
	if r.InStatementSet() {
		t.Error("Finish left the set open")
	}
}

func TestRunnerSetSubmitFails(t *testing.T) {
	var log []string
	r := newTestRunner(&recorder{}, Options{}, &log)
	ctx := context.Background()
	var err error
	for _, st := range Split("BEGIN STATEMENT SET; INSERT INTO fail VALUES (1); END;", sql.Pos{}) {
		if err = r.Run(ctx, st); err != nil {
			break
		}
	}
	var se *Error
	if !errors.As(err, &se) || !strings.HasPrefix(se.Statement.Text, "EXECUTE STATEMENT SET") || se.Statement.Pos.Column != 51 {
		t.Fatalf("got %#v", err)
	}
}

func TestRunnerClientCommands(t *testing.T) {
	for _, keep := range []bool{false, true} {
		var log []string
		ex := &recorder{}
		r := newTestRunner(ex, Options{KeepOnQuit: keep}, &log)
		for _, st := range Split("HELP; CLEAR; QUIT; SELECT 1", sql.Pos{}) {
			if r.Quit() {
				break
			}
			if err := r.Run(context.Background(), st); err != nil {
				t.Fatal(err)
			}
		}
		want := "[Help@1:1 Clear@1:7 Quit@1:14]"
		if keep {
			want = "[Help@1:1 Clear@1:7 Quit@1:14 result SELECT 1]"
		}
		if fmt.Sprint(log) != want || r.Quit() == keep {
			t.Errorf("KeepOnQuit %v: %v, Quit %v", keep, log, r.Quit())
		}
	}
}

func TestRunnerParseErrors(t *testing.T) {
	ctx := context.Background()
	st := Split("SELECT 1;\nSELEC 2", sql.Pos{})[1]
	var log []string
	ex := &recorder{}
	err := newTestRunner(ex, Options{}, &log).Run(ctx, st)
	if line, col, ok := ErrorPosition(err); !ok || line != 2 || col != 1 || len(ex.ran) != 0 {
		t.Errorf("parse error: %v at %d:%d %v; ran %q", err, line, col, ok, ex.ran)
	}
	if err := newTestRunner(ex, Options{PassThrough: true}, &log).Run(ctx, st); err != nil || len(ex.ran) != 1 || ex.parsed[0] {
		t.Errorf("pass-through: %v, ran %q parsed %v", err, ex.ran, ex.parsed)
	}
}

func TestSplitPositions(t *testing.T) {
	sts := Split("SELECT 1;\n  SELECT 'é';  SELECT\n 3", sql.Pos{Line: 4, Column: 5, Offset: 100})
	var got []string
	for _, st := range sts {
		got = append(got, fmt.Sprintf("%d:%d@%d", st.Pos.Line, st.Pos.Column, st.Pos.Offset))
		if st.Parsed == nil || st.Parsed.Pos() != st.Pos {
			t.Errorf("%q parsed at %v, want %v (%v)", st.Text, st.Parsed, st.Pos, st.ParseErr)
		}
	}
	if want := "[4:5@100 5:3@112 5:16@126]"; fmt.Sprint(got) != want {
		t.Errorf("positions %v, want %s", got, want)
	}
}

func TestSplitComplete(t *testing.T) {
	sts, n := SplitComplete("SELECT 1; SELECT 'a;b'; SELECT", false, sql.Pos{})
	if len(sts) != 2 || sts[1].Text != "SELECT 'a;b'" || n != len("SELECT 1; SELECT 'a;b';") {
		t.Errorf("got %d statements, %d bytes", len(sts), n)
	}
	sts, n = SplitComplete("SELECT 1; SELECT", true, sql.Pos{})
	if len(sts) != 2 || n != len("SELECT 1; SELECT") {
		t.Errorf("at EOF the unterminated statement runs: got %d statements, %d bytes", len(sts), n)
	}
	if p := Advance(sql.Pos{}, "ab\ncd"); p != (sql.Pos{Line: 2, Column: 3, Offset: 5}) {
		t.Errorf("Advance: %v", p)
	}
}

// setRecorder records the statement set END submits.
type setRecorder struct {
	st   sql.Statement
	text string
	at   sql.Pos
}

func (r *setRecorder) ExecuteParsed(_ context.Context, st sql.Statement, text string, at sql.Pos) (table.StatementResult, error) {
	r.st, r.text, r.at = st, text, at
	return nil, nil
}

// The statement set END submits keeps each INSERT at its line and column
// of the document: in the parsed set (what the embedded engine plans) and
// in the text from at (what a gateway is sent), whatever lies between the
// INSERTs; INSERTs that cannot be laid out so (from different
// documents) are sent one a line from the start.
func TestRunnerSetKeepsInsertPositions(t *testing.T) {
	for _, script := range []string{
		"BEGIN STATEMENT SET;\nINSERT INTO a VALUES (1);\nINSERT INTO b VALUES (2);\nEND;",
		"SET 'x' = 'y';\n\nBEGIN STATEMENT SET;\n  -- first\n    INSERT INTO a\n  SELECT 'é' FROM t;\n\n\n\tINSERT INTO b VALUES (2); INSERT INTO c VALUES (3) ;\nEND;",
		"BEGIN STATEMENT SET;                     INSERT INTO a VALUES (1);\nEND;",
		"BEGIN STATEMENT SET; INSERT INTO a VALUES (1); INSERT INTO b VALUES (2); END;",
	} {
		ex := &setRecorder{}
		r := NewRunner(ex, Options{Hooks: Hooks{Result: func(context.Context, Statement, table.StatementResult) error { return nil }}})
		var inserts []Statement
		for _, st := range Split(script, sql.Pos{}) {
			if _, ok := st.Parsed.(*sql.Insert); ok {
				inserts = append(inserts, st)
			}
			if err := r.Run(context.Background(), st); err != nil {
				t.Fatalf("%s: %v", st.Text, err)
			}
		}
		set, ok := ex.st.(*sql.Execute)
		if !ok {
			t.Fatalf("%q: submitted %T", script, ex.st)
		}
		got := set.Stmt.(*sql.StatementSet).Statements
		if len(got) != len(inserts) {
			t.Fatalf("%q: %d INSERTs submitted, want %d", script, len(got), len(inserts))
		}
		laidOut := !strings.HasPrefix(script, "BEGIN STATEMENT SET; INSERT")
		for i, ins := range inserts {
			want := ins.Pos
			if !laidOut {
				want = sql.Pos{Line: 2 + i, Column: 1} // one a line after EXECUTE STATEMENT SET BEGIN
			}
			if p := got[i].Pos(); p.Line != want.Line || p.Column != want.Column {
				t.Errorf("%q: INSERT %d parsed at %d:%d, want %d:%d", script, i, p.Line, p.Column, want.Line, want.Column)
			}
			k := strings.Index(ex.text, ins.Text)
			if p := Advance(ex.at, ex.text[:k]); p.Line != want.Line || p.Column != want.Column {
				t.Errorf("%q: INSERT %d sent at %d:%d, want %d:%d", script, i, p.Line, p.Column, want.Line, want.Column)
			}
		}
	}
}
