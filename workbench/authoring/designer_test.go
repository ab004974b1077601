package authoring

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/engine/types"
)

func flightsDesign() *Design {
	d := NewDesign("flights")
	d.Columns = []ColumnDesign{
		{Name: "date", Type: TypeSpec{Name: "TIMESTAMP", Params: []int{0}}},
		{Name: "delay", Type: TypeSpec{Name: "INT"}},
		{Name: "distance", Type: TypeSpec{Name: "INT"}},
		{Name: "origin", Type: TypeSpec{Name: "STRING"}},
		{Name: "destination", Type: TypeSpec{Name: "STRING"}},
	}
	d.Watermark = &Watermark{Column: "date", Delay: "5", Unit: "MINUTE"}
	d.SetConnector("filesystem")
	d.SetOption("path", filepath.Join(connectorData, "flights-head2000.csv"))
	d.SetFormat("csv")
	d.SetOption("csv.ignore-first-line", "true")
	return d
}

func TestDesignerCreateTable(t *testing.T) {
	d := flightsDesign()
	if ps := d.Validate(); len(ps) > 0 {
		t.Fatalf("problems: %v", ps)
	}
	want := "CREATE TABLE flights (\n" +
		"  `date` TIMESTAMP(0),\n" +
		"  delay INT,\n" +
		"  distance INT,\n" +
		"  origin STRING,\n" +
		"  destination STRING,\n" +
		"  WATERMARK FOR `date` AS `date` - INTERVAL '5' MINUTE\n" +
		")\n" +
		"WITH (\n" +
		"  'connector' = 'filesystem',\n" +
		"  'path' = '" + filepath.Join(connectorData, "flights-head2000.csv") + "',\n" +
		"  'format' = 'csv',\n" +
		"  'csv.ignore-first-line' = 'true'\n" +
		")"
	if got := d.CreateTableSQL(); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	env := table.MustCreate(table.InBatchMode())
	exec(t, env, d.CreateTableSQL())
	if n := count(t, env, "SELECT * FROM flights"); n != 2000 {
		t.Errorf("%d rows, want 2000", n)
	}
}

func TestDesignerEveryColumnKind(t *testing.T) {
	d := NewDesign("cat", "db", "my table")
	d.Temporary = true
	d.Columns = []ColumnDesign{
		{Name: "id", Type: TypeSpec{Name: "BIGINT"}, NotNull: true, Comment: "the key's id"},
		{Name: "price", Type: TypeSpec{Name: "DECIMAL", Params: []int{10, 2}}},
		{Name: "tags", Type: TypeSpec{Text: "ARRAY<STRING>"}},
		{Name: "ts", Type: TypeSpec{Name: "TIMESTAMP_LTZ", Params: []int{3}}},
		{Name: "doubled", Kind: types.ComputedColumn, Expr: "price * 2"},
		{Name: "file", Kind: types.MetadataColumn, Type: TypeSpec{Name: "STRING"}, MetadataKey: "file.path", Virtual: true},
	}
	d.PrimaryKey = []string{"id"}
	d.Watermark = &Watermark{Column: "ts", Delay: "0.001", Unit: "SECOND"}
	d.PartitionBy = []string{"price"}
	d.Comment = "all kinds"
	d.SetConnector("filesystem")
	d.SetOption("path", "/tmp/out")
	d.SetFormat("json")
	want := "CREATE TEMPORARY TABLE cat.db.`my table` (\n" +
		"  id BIGINT NOT NULL COMMENT 'the key''s id',\n" +
		"  price DECIMAL(10, 2),\n" +
		"  tags ARRAY<STRING>,\n" +
		"  ts TIMESTAMP_LTZ(3),\n" +
		"  doubled AS price * 2,\n" +
		"  file STRING METADATA FROM 'file.path' VIRTUAL,\n" +
		"  PRIMARY KEY (id) NOT ENFORCED,\n" +
		"  WATERMARK FOR ts AS ts - INTERVAL '0.001' SECOND\n" +
		")\n" +
		"COMMENT 'all kinds'\n" +
		"PARTITIONED BY (price)\n" +
		"WITH (\n  'connector' = 'filesystem',\n  'path' = '/tmp/out',\n  'format' = 'json'\n)"
	if got := d.CreateTableSQL(); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func TestDesignerValidatesAsYouType(t *testing.T) {
	d := flightsDesign()
	d.SetOption("csv.ignore-first-line", "yes")
	d.SetOption("csv.field-delimiter", ";;")
	d.SetOption("csv.invalid-utf8", "drop")
	d.SetOption("csv.quote-character", `\t`)
	d.SetOption("sink.parallelism", "two")
	d.SetOption("source.monitor-interval", "10 minutes")
	d.SetOption("no-such-option", "1")
	d.SetOption("path", "/no/such/file.csv")
	d.Columns = append(d.Columns, ColumnDesign{Name: "delay", Type: TypeSpec{Name: "DECIMAL", Params: []int{40, 2}}})
	d.Columns = append(d.Columns, ColumnDesign{Name: "c", Kind: types.ComputedColumn, Expr: "delay +"})
	d.Columns = append(d.Columns, ColumnDesign{Name: "d", Type: TypeSpec{Text: "ARRAY<"}})
	d.PrimaryKey = []string{"nope"}
	d.Watermark.Column = "origin"
	var got []string
	for _, p := range d.Validate() {
		w := ""
		if p.Warning {
			w = " (warning)"
		}
		got = append(got, p.String()+w)
	}
	want := []string{
		"column 6 delay: the name is used by column 2 too",
		"column 6 delay: DECIMAL precision must be between 1 and 38",
		"column 7 c: expression: Encountered \"<EOF>\" at line 1, column 7.",
		"column 8 d: type ARRAY<: Encountered \"<EOF>\" at line 1, column 6.",
		"primary key: column nope does not exist",
		"watermark: the rowtime column must be TIMESTAMP(p) or TIMESTAMP_LTZ(p) with p <= 3, not STRING",
		"option 'path': no file or directory at /no/such/file.csv (a sink creates it; a source fails) (warning)",
		"option 'sink.parallelism': 'two' is not a whole number",
		"option 'csv.field-delimiter': ';;' must be a single character",
		"option 'csv.quote-character': '\\t' must be a single character",
		"option 'csv.ignore-first-line': 'yes' is not true or false",
		"option 'csv.invalid-utf8': 'drop' is not one of fail, replace",
		"option 'no-such-option': 'no-such-option' is not an option of connector 'filesystem' or format 'csv'",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(Errors(d.Validate())) != len(want)-1 {
		t.Error("Errors should drop the warning only")
	}
}

func TestDesignerConnectorSwitch(t *testing.T) {
	d := flightsDesign()
	d.SetConnector("datagen")
	if _, ok := d.Option("path"); ok {
		t.Error("filesystem's path kept for datagen")
	}
	if _, ok := d.Option("csv.ignore-first-line"); ok {
		t.Error("format options kept though datagen has no format")
	}
	d.SetOption("number-of-rows", "10")
	d.SetOption("fields.delay.kind", "sequence")
	d.SetOption("fields.delay.start", "1")
	d.SetOption("fields.delay.end", "10")
	d.SetOption("fields.nope.kind", "random")
	var probs []string
	for _, p := range d.Validate() {
		probs = append(probs, p.String())
	}
	if !slices.Equal(probs, []string{"option 'fields.nope.kind': the table has no column nope"}) {
		t.Fatalf("problems %v", probs)
	}
	d.RemoveOption("fields.nope.kind")
	// the form lists the set per-field keys and the template
	var keys []string
	for _, f := range d.OptionFields() {
		if strings.HasPrefix(f.Option.Key, "fields.") && strings.HasSuffix(f.Option.Key, ".kind") {
			keys = append(keys, f.Option.Key)
		}
	}
	if !slices.Equal(keys, []string{"fields.delay.kind", "fields.#.kind"}) {
		t.Errorf("kind fields %v", keys)
	}
	env := table.MustCreate(table.InBatchMode())
	d.Watermark = nil
	exec(t, env, d.CreateTableSQL())
	if n := count(t, env, "SELECT * FROM flights"); n != 10 {
		t.Errorf("datagen rows %d, want 10", n)
	}
	d.SetConnector("filesystem")
	if v, ok := d.Option("path"); !ok || v != "" {
		t.Errorf("required path not added: %q %v", v, ok)
	}
	if v, ok := d.Option("format"); !ok || v != "" {
		t.Errorf("required format not added: %q %v", v, ok)
	}
	found := false
	for _, p := range d.Validate() {
		if p.Field == "option 'path'" && p.Msg == "required" {
			found = true
		}
	}
	if !found {
		t.Error("empty required path not reported")
	}
}

func TestTypeSpecs(t *testing.T) {
	for _, c := range []struct {
		spec TypeSpec
		want string
	}{
		{TypeSpec{Name: "DECIMAL", Params: []int{10, 2}}, "DECIMAL(10, 2)"},
		{TypeSpec{Name: "DECIMAL"}, "DECIMAL(10, 0)"},
		{TypeSpec{Name: "TIMESTAMP"}, "TIMESTAMP(6)"},
		{TypeSpec{Name: "VARCHAR", Params: []int{20}}, "VARCHAR(20)"},
		{TypeSpec{Text: "row<a int, `b c` string>"}, "ROW<`a` INT, `b c` STRING>"},
		{TypeSpec{Text: "MAP<STRING, ARRAY<INT>>"}, "MAP<STRING, ARRAY<INT>>"},
	} {
		dt, err := c.spec.Resolve()
		if err != nil {
			t.Errorf("%s: %v", c.spec.SQL(), err)
			continue
		}
		if dt.String() != c.want {
			t.Errorf("%s resolved to %s, want %s", c.spec.SQL(), dt, c.want)
		}
		if back := TypeSpecOf(dt); back.SQL() != strings.ReplaceAll(c.want, "`a`", "`a`") {
			if r, err := back.Resolve(); err != nil || !r.Equals(dt) {
				t.Errorf("TypeSpecOf(%s) = %s does not resolve back", dt, back.SQL())
			}
		}
	}
	if _, err := (TypeSpec{Name: "INT NOT NULL", Text: "INT NOT NULL"}).Resolve(); err == nil {
		t.Error("NOT NULL in the type text accepted")
	}
	if _, err := (TypeSpec{Name: "TIME", Params: []int{12}}).Resolve(); err == nil || !strings.Contains(err.Error(), "between 0 and 9") {
		t.Errorf("TIME(12): %v", err)
	}
	if got := TypeSpecOf(types.StringType().NotNull()); got.SQL() != "STRING" {
		t.Errorf("STRING NOT NULL → %s", got.SQL())
	}
	if got := TypeSpecOf(types.TimestampType(3).WithTimeAttr(types.Rowtime)); got.SQL() != "TIMESTAMP(3)" {
		t.Errorf("rowtime → %s", got.SQL())
	}
	var names []string
	for _, c := range TypeChoices() {
		names = append(names, c.Name)
	}
	if !slices.Contains(names, "TIMESTAMP_LTZ") || !slices.Contains(names, "ROW") {
		t.Errorf("choices %v", names)
	}
}

// openTable opens a catalog table in the designer.
func openTable(t *testing.T, env *table.TableEnvironment, name string) *Design {
	t.Helper()
	info, err := EnvCatalog(env).Table(strings.Split(name, "."))
	if err != nil {
		t.Fatal(err)
	}
	d, err := DesignFromTable(info)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestDesignerAlter opens an existing table, changes it in many ways,
// applies the ALTER TABLE statements with the engine and checks that the
// table read back from the catalog equals the design.
func TestDesignerAlter(t *testing.T) {
	setup := "CREATE TABLE t (id BIGINT NOT NULL, name STRING, price DECIMAL(10, 2), ts TIMESTAMP(3), doubled AS price * 2, " +
		"PRIMARY KEY (id) NOT ENFORCED, WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) " +
		"WITH ('connector' = 'filesystem', 'path' = '/tmp/riffle-designer-test', 'format' = 'csv', 'csv.field-delimiter' = ';')"
	cases := []struct {
		name   string
		change func(d *Design)
		want   []string
	}{
		{"nothing", func(d *Design) {}, nil},
		{"add at the end and in the middle", func(d *Design) {
			d.Columns = append(d.Columns, ColumnDesign{Name: "qty", Type: TypeSpec{Name: "INT"}})
			d.Columns = slices.Insert(d.Columns, 1, ColumnDesign{Name: "code", Type: TypeSpec{Name: "CHAR", Params: []int{3}}, Comment: "IATA"})
		}, []string{
			"ALTER TABLE default_catalog.default_database.t ADD code CHAR(3) COMMENT 'IATA' AFTER id",
			"ALTER TABLE default_catalog.default_database.t ADD qty INT",
		}},
		{"drop and rename", func(d *Design) {
			d.Columns = slices.Delete(d.Columns, 1, 2) // name
			d.Columns[1].Name = "amount"               // price
			d.Columns[3].Expr = "amount * 2"           // doubled
		}, []string{
			// Flink refuses to rename price while doubled refers to it:
			// doubled goes first and comes back after the rename
			"ALTER TABLE default_catalog.default_database.t DROP (name, doubled)",
			"ALTER TABLE default_catalog.default_database.t RENAME price TO amount",
			"ALTER TABLE default_catalog.default_database.t ADD doubled AS amount * 2",
		}},
		{"modify type, not null and move", func(d *Design) {
			d.Columns[2].Type = TypeSpec{Name: "DECIMAL", Params: []int{12, 4}}
			d.Columns[1].NotNull = true
			name := d.Columns[1]
			d.Columns = append(slices.Delete(d.Columns, 1, 2), name)
		}, []string{
			"ALTER TABLE default_catalog.default_database.t MODIFY price DECIMAL(12, 4)",
			"ALTER TABLE default_catalog.default_database.t MODIFY name STRING NOT NULL AFTER doubled",
		}},
		{"reorder many", func(d *Design) {
			// id name price ts doubled → doubled ts id price name
			c := d.Columns
			d.Columns = []ColumnDesign{c[4], c[3], c[0], c[2], c[1]}
		}, []string{
			"ALTER TABLE default_catalog.default_database.t MODIFY doubled AS price * 2 FIRST",
			"ALTER TABLE default_catalog.default_database.t MODIFY ts TIMESTAMP(3) AFTER doubled",
			"ALTER TABLE default_catalog.default_database.t MODIFY name STRING AFTER price",
		}},
		{"watermark delay, primary key and options", func(d *Design) {
			d.Watermark.Delay, d.Watermark.Unit = "1", "MINUTE"
			d.Columns[1].NotNull = true
			d.PrimaryKey = []string{"id", "name"}
			d.SetOption("csv.field-delimiter", "|")
			d.SetOption("csv.ignore-parse-errors", "true")
			d.SetFormat("csv")
		}, []string{
			"ALTER TABLE default_catalog.default_database.t DROP WATERMARK",
			"ALTER TABLE default_catalog.default_database.t DROP PRIMARY KEY",
			"ALTER TABLE default_catalog.default_database.t MODIFY name STRING NOT NULL",
			"ALTER TABLE default_catalog.default_database.t ADD WATERMARK FOR ts AS ts - INTERVAL '1' MINUTE",
			"ALTER TABLE default_catalog.default_database.t ADD PRIMARY KEY (id, name) NOT ENFORCED",
			"ALTER TABLE default_catalog.default_database.t SET (\n  'csv.field-delimiter' = '|',\n  'csv.ignore-parse-errors' = 'true'\n)",
		}},
		{"drop watermark and key, reset option, rename table", func(d *Design) {
			d.Watermark = nil
			d.PrimaryKey = nil
			d.RemoveOption("csv.field-delimiter")
			d.Path = []string{"t2"}
		}, []string{
			"ALTER TABLE default_catalog.default_database.t DROP WATERMARK",
			"ALTER TABLE default_catalog.default_database.t DROP PRIMARY KEY",
			"ALTER TABLE default_catalog.default_database.t RESET ('csv.field-delimiter')",
			"ALTER TABLE default_catalog.default_database.t RENAME TO default_catalog.default_database.t2",
		}},
		{"format switch", func(d *Design) {
			d.SetFormat("json")
		}, []string{
			"ALTER TABLE default_catalog.default_database.t SET (\n  'format' = 'json'\n)",
			"ALTER TABLE default_catalog.default_database.t RESET ('csv.field-delimiter')",
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env := table.MustCreate(table.InStreamingMode())
			exec(t, env, setup)
			d := openTable(t, env, "t")
			c.change(d)
			d.ConfirmPositions = true // the ALTERs are tested here, not the csv positions
			plan, err := d.Changes()
			if err != nil {
				t.Fatal(err)
			}
			if plan.Recreate {
				t.Fatalf("recreate: %v", plan.Reasons)
			}
			if !slices.Equal(plan.Statements, c.want) {
				t.Fatalf("got\n%s\nwant\n%s", strings.Join(plan.Statements, ";\n"), strings.Join(c.want, ";\n"))
			}
			for _, st := range plan.Statements {
				exec(t, env, st)
			}
			name := d.Path[len(d.Path)-1]
			after := openTable(t, env, name)
			want := d.Clone()
			want.Path = after.Path
			if got, w := after.CreateTableSQL(), want.CreateTableSQL(); got != w {
				t.Fatalf("table after ALTER:\n%s\ndesign:\n%s", got, w)
			}
		})
	}
}

func TestDesignerRecreate(t *testing.T) {
	env := table.MustCreate(table.InBatchMode())
	exec(t, env, "CREATE TABLE p (a INT, b STRING) PARTITIONED BY (b) WITH ('connector' = 'filesystem', 'path' = '/tmp/riffle-p', 'format' = 'csv')")
	d := openTable(t, env, "p")
	d.PartitionBy = nil
	d.Comment = "flat"
	plan, err := d.Changes()
	if err != nil {
		t.Fatal(err)
	}
	if !plan.Recreate || len(plan.Reasons) != 2 {
		t.Fatalf("plan %+v", plan)
	}
	want := []string{"DROP TABLE default_catalog.default_database.p",
		"CREATE TABLE default_catalog.default_database.p (\n  a INT,\n  b STRING\n)\nCOMMENT 'flat'\nWITH (\n  'connector' = 'filesystem',\n  'path' = '/tmp/riffle-p',\n  'format' = 'csv'\n)"}
	if !slices.Equal(plan.Statements, want) {
		t.Fatalf("got\n%s", strings.Join(plan.Statements, ";\n"))
	}
	for _, st := range plan.Statements {
		exec(t, env, st)
	}
	after := openTable(t, env, "p")
	if len(after.PartitionBy) != 0 || after.Comment != "flat" {
		t.Errorf("after recreate: %+v", after)
	}
	if _, err := NewDesign("x").Changes(); err == nil {
		t.Error("Changes on a new design")
	}
	bad := openTable(t, env, "p")
	bad.Columns[0].Type = TypeSpec{Name: "DECIMAL", Params: []int{99}}
	if _, err := bad.Changes(); err == nil || !strings.Contains(err.Error(), "precision") {
		t.Errorf("invalid design: %v", err)
	}
}

func TestDesignFromView(t *testing.T) {
	env := table.MustCreate(table.InBatchMode())
	exec(t, env, "CREATE VIEW v AS SELECT 1 AS x")
	info, err := EnvCatalog(env).Table([]string{"v"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := DesignFromTable(info); err == nil || !strings.Contains(err.Error(), "view") {
		t.Errorf("view: %v", err)
	}
}

// TestDesignerAlterRandomOrders applies random reorderings, additions and
// drops and checks the table read back after the ALTERs.
func TestDesignerAlterRandomOrders(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for round := range 40 {
		env := table.MustCreate(table.InBatchMode())
		exec(t, env, "CREATE TABLE r (a INT, b INT, c INT, d INT, e INT, f INT) WITH ('connector' = 'blackhole')")
		d := openTable(t, env, "r")
		rng.Shuffle(len(d.Columns), func(i, j int) { d.Columns[i], d.Columns[j] = d.Columns[j], d.Columns[i] })
		if rng.IntN(2) == 0 {
			i := rng.IntN(len(d.Columns))
			d.Columns = slices.Delete(d.Columns, i, i+1)
		}
		for k := range rng.IntN(3) {
			i := rng.IntN(len(d.Columns) + 1)
			d.Columns = slices.Insert(d.Columns, i, ColumnDesign{Name: fmt.Sprintf("n%d", k), Type: TypeSpec{Name: "BIGINT"}})
		}
		plan, err := d.Changes()
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range plan.Statements {
			exec(t, env, st)
		}
		after := openTable(t, env, "r")
		var got, want []string
		for _, c := range after.Columns {
			got = append(got, c.Name+" "+c.Type.SQL())
		}
		for _, c := range d.Columns {
			want = append(want, c.Name+" "+c.Type.SQL())
		}
		if !slices.Equal(got, want) {
			t.Fatalf("round %d: got %v, want %v\n%s", round, got, want, strings.Join(plan.Statements, ";\n"))
		}
	}
}
