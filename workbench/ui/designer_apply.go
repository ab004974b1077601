package ui

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/workbench/authoring"
)

// applyChange runs the statements that change an existing table, all or
// nothing: they are first tried on a scratch copy of the table (a plan
// that would fail changes nothing); should one still fail for real after
// others ran, the table is dropped and created again from its DDL as it
// was before, so that the session keeps the table the init script
// creates. done gets the error, on the UI goroutine.
func (wb *Workbench) applyChange(d *authoring.Design, stmts []string, done func(err error)) {
	a := wb.authoring()
	a.bg.Add(1)
	go func() {
		defer a.bg.Done()
		err := wb.applyChangeNow(d, stmts)
		wb.do(func() { done(err) })
	}()
}

func (wb *Workbench) applyChangeNow(d *authoring.Design, stmts []string) error {
	saved, err := authoring.SaveTable(wb.env, d.OriginalPath())
	if err != nil {
		return fmt.Errorf("nothing was changed: %w", err)
	}
	if err := d.DryRun(wb.env); err != nil {
		var se *authoring.StatementError
		if errors.As(err, &se) {
			return fmt.Errorf("Nothing was changed: tried on a copy of the table, statement %d of %d fails.\n%s\n%w", se.Index+1, se.Count, summary(se.Statement), se.Err)
		}
		return fmt.Errorf("Nothing was changed: %w", err)
	}
	run := func(s string) error {
		started := time.Now()
		_, err := wb.env.ExecuteSQL(s)
		errText := ""
		if err != nil {
			errText = err.Error()
		}
		wb.addHistory(s, started, time.Since(started), 0, errText)
		return err
	}
	hook := wb.authoring().beforeChange
	for i, s := range stmts {
		if hook != nil {
			hook(i)
		}
		err := run(s)
		if err == nil {
			continue
		}
		failed := fmt.Errorf("Statement %d of %d failed.\n%s\n%w", i+1, len(stmts), summary(s), err)
		if i == 0 {
			return fmt.Errorf("%w\nNothing was changed.", failed)
		}
		for _, r := range saved.RestoreStatements() {
			if rerr := run(r); rerr != nil {
				msg := fmt.Sprintf("%v\nPutting the table back failed too: %v\nThe session's table is left as statements 1 to %d made it; "+
					"the init script still creates it as it was. To restore it, run:\n%s;", failed, rerr, i, saved.DDL)
				wb.post(levelError, msg, nil)
				return errors.New(msg)
			}
		}
		msg := fmt.Sprintf("%v\nThe table was put back as it was before: dropped and created again from its saved DDL.", failed)
		wb.post(levelWarning, msg, nil)
		return errors.New(msg)
	}
	return nil
}

// recordDesign keeps the init script in step with a designed table: the
// CREATE statement replaces the table's CREATE in the script (or is added
// for a new table); for a table the script does not create, the ALTER
// statements are not recorded (they would fail when it runs).
func (wb *Workbench) recordDesign(d *authoring.Design, create string, stmts []string, recreate bool) string {
	if d.IsNew() {
		if err := wb.addToInitScript(create); err != nil {
			return "Not recorded in the init script: " + err.Error()
		}
		return "Recorded in the init script."
	}
	wb.mu.Lock()
	script := wb.initScript
	wb.mu.Unlock()
	start, end, ok := initScriptCreate(script, d)
	if !ok {
		return "The init script does not create this table: the change is not recorded there."
	}
	script = script[:start] + create + script[end:]
	if err := wb.saveInitScript(script); err != nil {
		return "Not recorded in the init script: " + err.Error()
	}
	return "The init script's CREATE TABLE was updated."
}

// initScriptCreate finds the CREATE TABLE of the design's original table
// in the script (names compared by their last part and, when given, the
// database and catalog).
func initScriptCreate(script string, d *authoring.Design) (start, end int, ok bool) {
	orig := d.OriginalPath()
	for _, sp := range sql.SplitStatements(script) {
		st, err := sp.Parse()
		if err != nil {
			continue
		}
		ct, isCreate := st.(*sql.CreateTable)
		if !isCreate || ct.AsQuery != nil {
			continue
		}
		parts := ct.Name.Parts
		match := len(orig) == 3 && len(parts) <= 3
		for i := range parts {
			if !match || parts[len(parts)-1-i].Name != orig[2-i] {
				match = false
			}
		}
		if match {
			return sp.Start.Offset, sp.End, true
		}
	}
	return 0, 0, false
}

func (wb *Workbench) saveInitScript(script string) error {
	wb.mu.Lock()
	defer wb.mu.Unlock()
	if err := wb.store.SaveInitScript(context.Background(), script); err != nil {
		return err
	}
	wb.initScript = script
	return nil
}
