package authoring

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/engine/types"
)

const sensorsDDL = "CREATE TABLE `my-sensors` (id BIGINT NOT NULL, reading DECIMAL(10, 3), ts TIMESTAMP(3), doubled AS reading * 2, " +
	"PRIMARY KEY (id) NOT ENFORCED, WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) WITH ('connector' = 'datagen')"

// sensorsEdit is the QA scenario: rename reading to val, widen it, shorten
// the watermark delay and add a column.
func sensorsEdit(d *Design) {
	d.Columns[1].Name = "val"
	d.Columns[1].Type.Params = []int{12, 3}
	d.Watermark.Delay = "2"
	d.Columns = append(d.Columns, ColumnDesign{Name: "c5", Type: TypeSpec{Name: "STRING"}})
}

func TestDesignerDependencyProblems(t *testing.T) {
	env := table.MustCreate(table.InStreamingMode())
	exec(t, env, sensorsDDL)
	d := openTable(t, env, "my-sensors")
	sensorsEdit(d)
	errs := Errors(d.Validate())
	if len(errs) != 1 || errs[0].Field != "column 4 doubled" ||
		errs[0].Msg != "the expression refers to reading, which is renamed to val: change the expression too" {
		t.Fatalf("problems %v", errs)
	}
	if _, err := d.Changes(); err == nil {
		t.Fatal("a design whose computed column refers to a renamed column has a plan")
	}
	d.Columns = slices.Delete(d.Columns, 1, 2) // val: dropped
	errs = Errors(d.Validate())
	if len(errs) != 1 || errs[0].Msg != "the expression refers to reading, which is dropped" {
		t.Fatalf("problems %v", errs)
	}
	d.Columns[2].Expr = "id * 2"
	d.Watermark.Expr = "ts - INTERVAL '1' SECOND + late"
	errs = Errors(d.Validate())
	if len(errs) != 1 || errs[0].Field != "watermark" || errs[0].Msg != "the expression refers to late, which is not a column of the table" {
		t.Fatalf("problems %v", errs)
	}
}

// TestDesignerDryRun checks a plan on a scratch copy: one that would fail
// part-way is refused with nothing changed, one that works leaves the
// table as it was until it runs for real.
func TestDesignerDryRun(t *testing.T) {
	env := table.MustCreate(table.InStreamingMode())
	exec(t, env, sensorsDDL)
	catalogs := env.ListCatalogs()
	saved, err := SaveTable(env, []string{"default_catalog", "default_database", "my-sensors"})
	if err != nil {
		t.Fatal(err)
	}
	unchanged := func() {
		t.Helper()
		now, err := SaveTable(env, saved.Path)
		if err != nil {
			t.Fatal(err)
		}
		if now.DDL != saved.DDL {
			t.Fatalf("the table changed:\n%s\nwas\n%s", now.DDL, saved.DDL)
		}
		if got := env.ListCatalogs(); !slices.Equal(got, catalogs) {
			t.Fatalf("catalogs %v, want %v", got, catalogs)
		}
	}

	// parses and refers to existing columns, but the function does not
	// exist: statement 3 (ADD doubled) fails after DROP and RENAME
	bad := openTable(t, env, "my-sensors")
	sensorsEdit(bad)
	bad.Columns[3].Expr = "no_such_function(val)"
	if errs := Errors(bad.Validate()); len(errs) > 0 {
		t.Fatalf("problems %v", errs)
	}
	err = bad.DryRun(env)
	var se *StatementError
	if !errors.As(err, &se) {
		t.Fatalf("dry run: %v", err)
	}
	plan, _ := bad.Changes()
	if se.Statement != plan.Statements[se.Index] || !strings.Contains(se.Statement, "ADD doubled AS no_such_function(val)") ||
		se.Index == 0 || se.Count != len(plan.Statements) {
		t.Fatalf("failing statement %d of %d: %s", se.Index, se.Count, se.Statement)
	}
	if strings.Contains(err.Error(), "riffle_designer_check") {
		t.Errorf("the message names the scratch catalog: %v", err)
	}
	unchanged()

	good := openTable(t, env, "my-sensors")
	sensorsEdit(good)
	good.Columns[3].Expr = "val * 2"
	if err := good.DryRun(env); err != nil {
		t.Fatalf("dry run: %v", err)
	}
	unchanged()
	plan, err = good.Changes()
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range plan.Statements {
		exec(t, env, st)
	}
	after := openTable(t, env, "my-sensors")
	want := good.Clone()
	want.Path = after.Path
	if got, w := after.CreateTableSQL(), want.CreateTableSQL(); got != w {
		t.Fatalf("table after ALTER:\n%s\ndesign:\n%s", got, w)
	}
}

// TestDesignerRestore puts a table back from its saved DDL after part of
// a plan ran.
func TestDesignerRestore(t *testing.T) {
	for _, temporary := range []bool{false, true} {
		env := table.MustCreate(table.InStreamingMode())
		ddl := sensorsDDL
		if temporary {
			ddl = strings.Replace(ddl, "CREATE TABLE", "CREATE TEMPORARY TABLE", 1)
		}
		exec(t, env, ddl)
		path := []string{"default_catalog", "default_database", "my-sensors"}
		saved, err := SaveTable(env, path)
		if err != nil {
			t.Fatal(err)
		}
		d := openTable(t, env, "my-sensors")
		sensorsEdit(d)
		d.Columns[3].Expr = "val * 2"
		plan, err := d.Changes()
		if err != nil {
			t.Fatal(err)
		}
		if err := d.DryRun(env); err != nil {
			t.Fatalf("dry run (temporary %v): %v", temporary, err)
		}
		if tmp := env.ListTemporaryTables(); len(tmp) != map[bool]int{false: 0, true: 1}[temporary] {
			t.Fatalf("temporary tables after the dry run: %v", tmp)
		}
		if left := env.Catalogs().ListTemporary("riffle_designer_check", "default_database", nil); len(left) > 0 {
			t.Fatalf("the scratch copy is left: %v", left)
		}
		for _, st := range plan.Statements[:3] {
			exec(t, env, st)
		}
		for _, st := range saved.RestoreStatements() {
			exec(t, env, st)
		}
		now, err := SaveTable(env, path)
		if err != nil {
			t.Fatal(err)
		}
		if now.DDL != saved.DDL || now.Temporary != temporary {
			t.Fatalf("restored:\n%s\nwas\n%s", now.DDL, saved.DDL)
		}
	}
}

func TestDesignerDryRunRecreate(t *testing.T) {
	env := table.MustCreate(table.InBatchMode())
	exec(t, env, "CREATE TABLE p (a INT, b STRING) PARTITIONED BY (b) WITH ('connector' = 'filesystem', 'path' = '/tmp/riffle-p', 'format' = 'csv')")
	exec(t, env, "CREATE DATABASE other")
	d := openTable(t, env, "p")
	d.Path = []string{"other", "p"}
	d.PartitionBy = nil
	if err := d.DryRun(env); err != nil {
		t.Fatal(err)
	}
	d.Columns[1].Kind = types.ComputedColumn
	d.Columns[1].Expr = "no_such_function(a)"
	var se *StatementError
	if err := d.DryRun(env); !errors.As(err, &se) || se.Index != 1 || !strings.HasPrefix(se.Statement, "CREATE TABLE other.p") {
		t.Fatalf("dry run: %v", err)
	}
	if _, err := SaveTable(env, []string{"default_catalog", "default_database", "p"}); err != nil {
		t.Fatal(err)
	}
}

// TestDesignerPositionalFormat: csv maps fields by position, so moving a
// physical column (or adding or dropping one before others) needs the
// user's confirmation; appending, dropping the last column and moving a
// computed column do not.
func TestDesignerPositionalFormat(t *testing.T) {
	env := table.MustCreate(table.InBatchMode())
	exec(t, env, "CREATE TABLE c (a INT, b STRING, c DOUBLE, d AS a * 2) WITH ('connector' = 'filesystem', 'path' = '/tmp/riffle-c', 'format' = 'csv')")
	cases := []struct {
		name   string
		change func(d *Design)
		want   []string
	}{
		{"append", func(d *Design) { d.Columns = append(d.Columns, ColumnDesign{Name: "e", Type: TypeSpec{Name: "INT"}}) }, nil},
		{"drop the last physical column", func(d *Design) { d.Columns = slices.Delete(d.Columns, 2, 3) }, nil},
		{"move the computed column first", func(d *Design) { d.Columns = append([]ColumnDesign{d.Columns[3]}, d.Columns[:3]...) }, nil},
		{"move up", func(d *Design) { d.Columns[0], d.Columns[1] = d.Columns[1], d.Columns[0] },
			[]string{"b would read field 1 instead of 2", "a would read field 2 instead of 1"}},
		{"add in the middle", func(d *Design) {
			d.Columns = slices.Insert(d.Columns, 1, ColumnDesign{Name: "x", Type: TypeSpec{Name: "INT"}})
		}, []string{"b would read field 3 instead of 2", "c would read field 4 instead of 3"}},
		{"drop the first", func(d *Design) { d.Columns[3].Expr = "2"; d.Columns = d.Columns[1:] },
			[]string{"b would read field 1 instead of 2", "c would read field 2 instead of 3"}},
	}
	for _, c := range cases {
		d := openTable(t, env, "c")
		c.change(d)
		if got := d.PositionChanges(); !slices.Equal(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
		errs := Errors(d.Validate())
		if (len(errs) > 0) != (c.want != nil) {
			t.Errorf("%s: problems %v", c.name, errs)
		}
		if c.want == nil {
			continue
		}
		if !strings.HasPrefix(errs[0].String(), "columns: csv maps the fields of each record to the columns by position: ") {
			t.Errorf("%s: %s", c.name, errs[0])
		}
		d.ConfirmPositions = true
		if errs := Errors(d.Validate()); len(errs) > 0 {
			t.Errorf("%s confirmed: %v", c.name, errs)
		}
		// the same change of a json table (fields by name) is no problem
		d.ConfirmPositions = false
		d.SetFormat("json")
		if got := d.PositionChanges(); got != nil {
			t.Errorf("%s in json: %q", c.name, got)
		}
	}
}
