package sqlitecatalog

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"time"

	"github.com/riffle-sql/riffle/engine/catalog"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/engine/types"
)

// The file format, version 1. Each object is one row; what is not a plain
// column is JSON:
//
//	databases(name, comment, properties)          properties: {"k":"v"}
//	tables(database, name, kind, definition,       kind: TABLE | VIEW
//	       statistics, column_statistics)          definition: tableDef
//	functions(database, name, class_name, language) name lower-cased
//	partitions(database, table_name, spec, spec_json, properties, comment,
//	           statistics, column_statistics)
//
// Column types are SQL type strings ("DECIMAL(10, 2) NOT NULL"), parsed
// back with the engine's parser; a rowtime or proctime column says so in
// time_attribute. Empty statistics columns mean unknown.

// tableDef is a table's or view's definition.
type tableDef struct {
	Columns       []columnDef       `json:"columns"`
	Watermarks    []watermarkDef    `json:"watermarks,omitempty"`
	PrimaryKey    *primaryKeyDef    `json:"primary_key,omitempty"`
	PartitionKeys []string          `json:"partition_keys,omitempty"`
	Options       map[string]string `json:"options,omitempty"`
	Comment       string            `json:"comment,omitempty"`
	// materialized tables
	Materialized *materializedDef `json:"materialized,omitempty"`
	// views
	Query    string `json:"query,omitempty"`
	Expanded string `json:"expanded_query,omitempty"`
	Catalog  string `json:"catalog,omitempty"`
	Database string `json:"database,omitempty"`
}

type columnDef struct {
	Name          string `json:"name"`
	Type          string `json:"type"`
	TimeAttribute string `json:"time_attribute,omitempty"` // ROWTIME | PROCTIME
	Kind          string `json:"kind"`                     // PHYSICAL | COMPUTED | METADATA
	Expr          string `json:"expr,omitempty"`
	MetadataKey   string `json:"metadata_key,omitempty"`
	Virtual       bool   `json:"virtual,omitempty"`
	Comment       string `json:"comment,omitempty"`
}

type watermarkDef struct {
	Rowtime string `json:"rowtime"`
	Expr    string `json:"expr"`
}

type primaryKeyDef struct {
	Name    string   `json:"name"`
	Columns []string `json:"columns"`
}

var columnKinds = map[types.ColumnKind]string{types.PhysicalColumn: "PHYSICAL", types.ComputedColumn: "COMPUTED", types.MetadataColumn: "METADATA"}

// parseType reads a type written by SQLString back, as DDL would.
func parseType(text string) (*types.DataType, error) {
	st, err := sql.ParseDataType(text)
	if err != nil {
		return nil, err
	}
	return table.DataTypeOf(st)
}

func encodeSchema(s *types.Schema, d *tableDef) error {
	if s == nil {
		return nil
	}
	for _, col := range s.Columns {
		cd := columnDef{Name: col.Name, Kind: columnKinds[col.Kind], Expr: col.Expr, MetadataKey: col.MetadataKey, Virtual: col.Virtual, Comment: col.Comment}
		if col.Type != nil {
			cd.Type = col.Type.SQLString()
			back, err := parseType(cd.Type)
			if err != nil || !back.Equals(col.Type.WithTimeAttr(types.NoTimeAttr)) {
				return fmt.Errorf("column %s: its type %s cannot be stored in a riffle catalog (it does not read back as written)", types.QuoteIdent(col.Name), col.Type)
			}
			switch col.Type.TimeAttr {
			case types.Rowtime:
				cd.TimeAttribute = "ROWTIME"
			case types.Proctime:
				cd.TimeAttribute = "PROCTIME"
			}
		}
		d.Columns = append(d.Columns, cd)
	}
	for _, w := range s.Watermarks {
		d.Watermarks = append(d.Watermarks, watermarkDef{Rowtime: w.RowtimeAttribute, Expr: w.Expr})
	}
	if s.PrimaryKey != nil {
		d.PrimaryKey = &primaryKeyDef{Name: s.PrimaryKey.Name, Columns: append([]string(nil), s.PrimaryKey.Columns...)}
	}
	return nil
}

func decodeSchema(d *tableDef) (*types.Schema, error) {
	s := &types.Schema{}
	for _, cd := range d.Columns {
		col := types.Column{Name: cd.Name, Expr: cd.Expr, MetadataKey: cd.MetadataKey, Virtual: cd.Virtual, Comment: cd.Comment}
		switch cd.Kind {
		case "PHYSICAL", "":
			col.Kind = types.PhysicalColumn
		case "COMPUTED":
			col.Kind = types.ComputedColumn
		case "METADATA":
			col.Kind = types.MetadataColumn
		default:
			return nil, fmt.Errorf("column %s: unknown column kind %q", cd.Name, cd.Kind)
		}
		if cd.Type != "" {
			t, err := parseType(cd.Type)
			if err != nil {
				return nil, fmt.Errorf("column %s: type %q: %v", cd.Name, cd.Type, err)
			}
			switch cd.TimeAttribute {
			case "ROWTIME":
				t = t.WithTimeAttr(types.Rowtime)
			case "PROCTIME":
				t = t.WithTimeAttr(types.Proctime)
			case "":
			default:
				return nil, fmt.Errorf("column %s: unknown time attribute %q", cd.Name, cd.TimeAttribute)
			}
			col.Type = t
		}
		s.Columns = append(s.Columns, col)
	}
	for _, w := range d.Watermarks {
		s.Watermarks = append(s.Watermarks, types.WatermarkSpec{RowtimeAttribute: w.Rowtime, Expr: w.Expr})
	}
	if d.PrimaryKey != nil {
		s.PrimaryKey = &types.UniqueConstraint{Name: d.PrimaryKey.Name, Columns: append([]string(nil), d.PrimaryKey.Columns...)}
	}
	return s, nil
}

// encodeTable returns a table's kind and definition JSON.
//
// A view's catalog (the current catalog when it was created, against
// which its query's unqualified names resolve) is written as "" when it is
// the catalog that stores it, and read back as that catalog's name then:
// the file may be opened under another catalog name (the workbench's
// `workspace` is `w` in a riffle sql session), and the view's names must
// still resolve in it.
func encodeTable(self string, p catalog.ObjectPath, bt catalog.BaseTable) (string, string, error) {
	var d tableDef
	switch t := bt.(type) {
	case *catalog.Table:
		if err := encodeSchema(t.TableSchema, &d); err != nil {
			return "", "", fmt.Errorf("table %s: %w", p, err)
		}
		d.PartitionKeys, d.Options, d.Comment = t.PartitionKeys, t.TableOptions, t.TableComment
		d.Materialized = encodeMaterialized(t.Materialized)
	case *catalog.View:
		if t.Query == "" && t.Plan != nil {
			return "", "", fmt.Errorf("view %s was made from a Table API object and has no SQL text: a riffle catalog stores views as SQL (make it a temporary view, or create it with CREATE VIEW)", p)
		}
		if err := encodeSchema(t.ViewSchema, &d); err != nil {
			return "", "", fmt.Errorf("view %s: %w", p, err)
		}
		d.Options, d.Comment, d.Query, d.Expanded, d.Catalog, d.Database = t.ViewOptions, t.ViewComment, t.Query, t.Expanded, t.Catalog, t.Database
		if d.Catalog == self {
			d.Catalog = ""
		}
	default:
		return "", "", fmt.Errorf("table %s: a riffle catalog cannot store a %T", p, bt)
	}
	b, err := json.Marshal(d)
	if err != nil {
		return "", "", err
	}
	return bt.Kind().String(), string(b), nil
}

func decodeTable(self, kind, def string) (catalog.BaseTable, error) {
	var d tableDef
	if err := json.Unmarshal([]byte(def), &d); err != nil {
		return nil, fmt.Errorf("its definition is not valid JSON: %v", err)
	}
	s, err := decodeSchema(&d)
	if err != nil {
		return nil, err
	}
	switch kind {
	case "TABLE":
		return &catalog.Table{TableSchema: s, TableOptions: d.Options, TableComment: d.Comment, PartitionKeys: d.PartitionKeys,
			Materialized: decodeMaterialized(d.Materialized)}, nil
	case "VIEW":
		cat := d.Catalog
		if cat == "" {
			cat = self
		}
		return &catalog.View{ViewSchema: s, Query: d.Query, Expanded: d.Expanded, ViewComment: d.Comment, ViewOptions: d.Options, Catalog: cat, Database: d.Database}, nil
	}
	return nil, fmt.Errorf("unknown kind %q", kind)
}

// statsDef is TableStatistics; "" in the file is unknown.
type statsDef struct {
	RowCount    int64             `json:"row_count"`
	FileCount   int               `json:"file_count"`
	TotalSize   int64             `json:"total_size"`
	RawDataSize int64             `json:"raw_data_size"`
	Properties  map[string]string `json:"properties,omitempty"`
}

func encodeStats(s catalog.TableStatistics) (string, error) {
	if reflect.DeepEqual(s, catalog.UnknownTableStatistics) {
		return "", nil
	}
	b, err := json.Marshal(statsDef{s.RowCount, s.FileCount, s.TotalSize, s.RawDataSize, s.Properties})
	return string(b), err
}

func decodeStats(text string) (*catalog.TableStatistics, error) {
	if text == "" {
		return nil, nil
	}
	var d statsDef
	if err := json.Unmarshal([]byte(text), &d); err != nil {
		return nil, fmt.Errorf("its statistics are not valid JSON: %v", err)
	}
	return &catalog.TableStatistics{RowCount: d.RowCount, FileCount: d.FileCount, TotalSize: d.TotalSize, RawDataSize: d.RawDataSize, Properties: d.Properties}, nil
}

// valueDef is a column statistic's min or max with its Go type, so that it
// reads back as the same type.
type valueDef struct {
	Type  string          `json:"type"` // int64 | float64 | string | bool | time
	Value json.RawMessage `json:"value"`
}

type columnStatsDef struct {
	NDV       *int64    `json:"ndv,omitempty"`
	NullCount *int64    `json:"null_count,omitempty"`
	Min       *valueDef `json:"min,omitempty"`
	Max       *valueDef `json:"max,omitempty"`
	AvgLen    *float64  `json:"avg_len,omitempty"`
	MaxLen    *int64    `json:"max_len,omitempty"`
	TrueCount *int64    `json:"true_count,omitempty"`
}

type columnStatisticsDef struct {
	Columns    map[string]columnStatsDef `json:"columns"`
	Properties map[string]string         `json:"properties,omitempty"`
}

func encodeValue(v any) (*valueDef, error) {
	var typ string
	switch x := v.(type) {
	case nil:
		return nil, nil
	case int:
		v, typ = int64(x), "int64"
	case int32:
		v, typ = int64(x), "int64"
	case int64:
		typ = "int64"
	case float32:
		v, typ = float64(x), "float64"
	case float64:
		typ = "float64"
	case string:
		typ = "string"
	case bool:
		typ = "bool"
	case time.Time:
		v, typ = x.UTC().Format(time.RFC3339Nano), "time"
	default:
		return nil, fmt.Errorf("a column statistic of Go type %T cannot be stored in a riffle catalog", v)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return &valueDef{Type: typ, Value: b}, nil
}

func decodeValue(d *valueDef) (any, error) {
	if d == nil {
		return nil, nil
	}
	var err error
	switch d.Type {
	case "int64":
		var x int64
		err = json.Unmarshal(d.Value, &x)
		return x, err
	case "float64":
		var x float64
		err = json.Unmarshal(d.Value, &x)
		return x, err
	case "string":
		var x string
		err = json.Unmarshal(d.Value, &x)
		return x, err
	case "bool":
		var x bool
		err = json.Unmarshal(d.Value, &x)
		return x, err
	case "time":
		var x string
		if err = json.Unmarshal(d.Value, &x); err != nil {
			return nil, err
		}
		return time.Parse(time.RFC3339Nano, x)
	}
	return nil, fmt.Errorf("unknown statistic value type %q", d.Type)
}

func encodeColumnStats(s catalog.ColumnStatistics) (string, error) {
	if len(s.Columns) == 0 && len(s.Properties) == 0 {
		return "", nil
	}
	d := columnStatisticsDef{Columns: map[string]columnStatsDef{}, Properties: s.Properties}
	for name, cs := range s.Columns {
		min, err := encodeValue(cs.Min)
		if err != nil {
			return "", fmt.Errorf("column %s: %w", name, err)
		}
		max, err := encodeValue(cs.Max)
		if err != nil {
			return "", fmt.Errorf("column %s: %w", name, err)
		}
		d.Columns[name] = columnStatsDef{NDV: cs.NDV, NullCount: cs.NullCount, Min: min, Max: max, AvgLen: cs.AvgLen, MaxLen: cs.MaxLen, TrueCount: cs.TrueCount}
	}
	b, err := json.Marshal(d)
	return string(b), err
}

func decodeColumnStats(text string) (*catalog.ColumnStatistics, error) {
	if text == "" {
		return nil, nil
	}
	var d columnStatisticsDef
	if err := json.Unmarshal([]byte(text), &d); err != nil {
		return nil, fmt.Errorf("its column statistics are not valid JSON: %v", err)
	}
	out := catalog.ColumnStatistics{Columns: map[string]catalog.ColumnStats{}, Properties: d.Properties}
	for name, cd := range d.Columns {
		min, err := decodeValue(cd.Min)
		if err != nil {
			return nil, fmt.Errorf("column %s: %v", name, err)
		}
		max, err := decodeValue(cd.Max)
		if err != nil {
			return nil, fmt.Errorf("column %s: %v", name, err)
		}
		out.Columns[name] = catalog.ColumnStats{NDV: cd.NDV, NullCount: cd.NullCount, Min: min, Max: max, AvgLen: cd.AvgLen, MaxLen: cd.MaxLen, TrueCount: cd.TrueCount}
	}
	return &out, nil
}

func encodeMap(m map[string]string) string {
	if m == nil {
		m = map[string]string{}
	}
	b, _ := json.Marshal(m) // a map[string]string always marshals
	return string(b)
}

func decodeMap(text string) (map[string]string, error) {
	m := map[string]string{}
	if text == "" {
		return m, nil
	}
	if err := json.Unmarshal([]byte(text), &m); err != nil {
		return nil, err
	}
	return m, nil
}

// ---- rows --------------------------------------------------------------------

// storedRow is one row of one of the four tables: its key columns and the
// other columns, in the table's column order.
type storedRow struct {
	table string
	key   []any
	vals  []any
}

// tableColumns are the key and value columns of the stored tables.
var tableColumns = map[string][2][]string{
	"databases":  {{"name"}, {"comment", "properties"}},
	"tables":     {{"database", "name"}, {"kind", "definition", "statistics", "column_statistics"}},
	"functions":  {{"database", "name"}, {"class_name", "language"}},
	"partitions": {{"database", "table_name", "spec"}, {"spec_json", "properties", "comment", "statistics", "column_statistics"}},
}

func (r storedRow) id() string {
	b, _ := json.Marshal(append([]any{r.table}, r.key...))
	return string(b)
}

func (r storedRow) same(o storedRow) bool { return reflect.DeepEqual(r.vals, o.vals) }

func put(rows map[string]storedRow, table string, key []any, vals ...any) {
	r := storedRow{table: table, key: key, vals: vals}
	rows[r.id()] = r
}

// dump turns the image into rows.
func (c *Catalog) dump(m *catalog.InMemoryCatalog) (map[string]storedRow, error) {
	rows := map[string]storedRow{}
	dbs, err := m.ListDatabases()
	if err != nil {
		return nil, err
	}
	for _, dbName := range dbs {
		db, err := m.GetDatabase(dbName)
		if err != nil {
			return nil, err
		}
		put(rows, "databases", []any{dbName}, db.Comment, encodeMap(db.Properties))
		tables, err := m.ListTables(dbName)
		if err != nil {
			return nil, err
		}
		for _, tn := range tables {
			p := catalog.NewObjectPath(dbName, tn)
			bt, err := m.GetTable(p)
			if err != nil {
				return nil, err
			}
			kind, def, err := encodeTable(c.name, p, bt)
			if err != nil {
				return nil, err
			}
			st, _ := m.GetTableStatistics(p)
			stats, err := encodeStats(st)
			if err != nil {
				return nil, err
			}
			cst, _ := m.GetTableColumnStatistics(p)
			colStats, err := encodeColumnStats(cst)
			if err != nil {
				return nil, fmt.Errorf("table %s: %w", p, err)
			}
			put(rows, "tables", []any{dbName, tn}, kind, def, stats, colStats)
			if t, ok := bt.(*catalog.Table); ok && t.IsPartitioned() {
				specs, err := m.ListPartitions(p, nil)
				if err != nil {
					return nil, err
				}
				for _, spec := range specs {
					part, err := m.GetPartition(p, spec)
					if err != nil {
						return nil, err
					}
					pst, _ := m.GetPartitionStatistics(p, spec)
					pstats, err := encodeStats(pst)
					if err != nil {
						return nil, err
					}
					pcst, _ := m.GetPartitionColumnStatistics(p, spec)
					pcolStats, err := encodeColumnStats(pcst)
					if err != nil {
						return nil, fmt.Errorf("partition %s of %s: %w", spec, p, err)
					}
					put(rows, "partitions", []any{dbName, tn, spec.String()}, encodeMap(spec), encodeMap(part.Properties), part.Comment, pstats, pcolStats)
				}
			}
		}
		fns, err := m.ListFunctions(dbName)
		if err != nil {
			return nil, err
		}
		for _, fn := range fns {
			f, err := m.GetFunction(catalog.NewObjectPath(dbName, fn))
			if err != nil {
				return nil, err
			}
			if f.ClassName == "" {
				return nil, fmt.Errorf("function %s.%s has no registered name (an in-process Go function): a riffle catalog stores functions by the name they were registered under (table.RegisterGoUDF); make it a temporary function", dbName, fn)
			}
			put(rows, "functions", []any{dbName, fn}, f.ClassName, f.Language)
		}
	}
	return rows, nil
}

// writeDiff stores what changed from before to after.
func (c *Catalog) writeDiff(ctx context.Context, before, after map[string]storedRow) error {
	ids := make([]string, 0, len(before)+len(after))
	for id := range before {
		ids = append(ids, id)
	}
	for id := range after {
		if _, ok := before[id]; !ok {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	for _, id := range ids {
		old, hadOld := before[id]
		nw, hasNew := after[id]
		switch {
		case hadOld && !hasNew:
			cols := tableColumns[old.table]
			where := make([]string, len(cols[0]))
			for i, k := range cols[0] {
				where[i] = k + " = ?"
			}
			if _, err := c.conn.ExecContext(ctx, `DELETE FROM `+old.table+` WHERE `+strings.Join(where, " AND "), old.key...); err != nil {
				return c.fileErr("writing", err)
			}
		case hasNew && (!hadOld || !old.same(nw)):
			cols := tableColumns[nw.table]
			all := append(append([]string(nil), cols[0]...), cols[1]...)
			marks := strings.TrimSuffix(strings.Repeat("?, ", len(all)), ", ")
			set := make([]string, len(cols[1]))
			for i, v := range cols[1] {
				set[i] = v + " = excluded." + v
			}
			q := `INSERT INTO ` + nw.table + `(` + strings.Join(all, ", ") + `) VALUES (` + marks + `) ON CONFLICT(` +
				strings.Join(cols[0], ", ") + `) DO UPDATE SET ` + strings.Join(set, ", ")
			if _, err := c.conn.ExecContext(ctx, q, append(append([]any(nil), nw.key...), nw.vals...)...); err != nil {
				return c.fileErr("writing", err)
			}
		}
	}
	return nil
}

// load reads the file into a new image and its rows. Errors name the file
// and the object that could not be read.
func (c *Catalog) load(ctx context.Context) (*catalog.InMemoryCatalog, map[string]storedRow, error) {
	m := catalog.NewInMemoryCatalog(c.name, c.defaultDB)
	rows := map[string]storedRow{}
	bad := func(what string, err error) error {
		return fmt.Errorf("catalog '%s': the catalog file %s: %s cannot be read: %v", c.name, c.path, what, err)
	}
	// databases
	q, err := c.conn.QueryContext(ctx, `SELECT name, comment, properties FROM databases ORDER BY name`)
	if err != nil {
		return nil, nil, c.fileErr("reading", err)
	}
	hasDefault := false
	for q.Next() {
		var name, comment, props string
		if err := q.Scan(&name, &comment, &props); err != nil {
			q.Close()
			return nil, nil, c.fileErr("reading", err)
		}
		pm, err := decodeMap(props)
		if err != nil {
			q.Close()
			return nil, nil, bad("database "+name, err)
		}
		db := catalog.NewCatalogDatabase(pm, comment)
		if name == c.defaultDB {
			hasDefault = true
			m.AlterDatabase(name, db, false)
		} else {
			m.CreateDatabase(name, db, false)
		}
		put(rows, "databases", []any{name}, comment, encodeMap(pm))
	}
	q.Close()
	if err := q.Err(); err != nil {
		return nil, nil, c.fileErr("reading", err)
	}
	if !hasDefault {
		m.DropDatabase(c.defaultDB, true, true)
	}
	// tables and views
	q, err = c.conn.QueryContext(ctx, `SELECT database, name, kind, definition, statistics, column_statistics FROM tables ORDER BY database, name`)
	if err != nil {
		return nil, nil, c.fileErr("reading", err)
	}
	for q.Next() {
		var dbName, name, kind, def, stats, colStats string
		if err := q.Scan(&dbName, &name, &kind, &def, &stats, &colStats); err != nil {
			q.Close()
			return nil, nil, c.fileErr("reading", err)
		}
		p := catalog.NewObjectPath(dbName, name)
		what := strings.ToLower(kind) + " " + p.FullName()
		t, err := decodeTable(c.name, kind, def)
		if err != nil {
			q.Close()
			return nil, nil, bad(what, err)
		}
		if err := m.CreateTable(p, t, false); err != nil {
			q.Close()
			return nil, nil, bad(what, err)
		}
		st, err := decodeStats(stats)
		if err != nil {
			q.Close()
			return nil, nil, bad(what, err)
		}
		if st != nil {
			m.AlterTableStatistics(p, *st, false)
		}
		cst, err := decodeColumnStats(colStats)
		if err != nil {
			q.Close()
			return nil, nil, bad(what, err)
		}
		if cst != nil {
			m.AlterTableColumnStatistics(p, *cst, false)
		}
		// rows as dump would write them, so that an unchanged object is
		// not rewritten
		k, d, err := encodeTable(c.name, p, t)
		if err != nil {
			q.Close()
			return nil, nil, bad(what, err)
		}
		put(rows, "tables", []any{dbName, name}, k, d, stats, colStats)
	}
	q.Close()
	if err := q.Err(); err != nil {
		return nil, nil, c.fileErr("reading", err)
	}
	// partitions
	q, err = c.conn.QueryContext(ctx, `SELECT database, table_name, spec, spec_json, properties, comment, statistics, column_statistics FROM partitions ORDER BY database, table_name, spec`)
	if err != nil {
		return nil, nil, c.fileErr("reading", err)
	}
	for q.Next() {
		var dbName, tn, specText, specJSON, props, comment, stats, colStats string
		if err := q.Scan(&dbName, &tn, &specText, &specJSON, &props, &comment, &stats, &colStats); err != nil {
			q.Close()
			return nil, nil, c.fileErr("reading", err)
		}
		p := catalog.NewObjectPath(dbName, tn)
		what := "partition " + specText + " of " + p.FullName()
		spec, err := decodeMap(specJSON)
		if err != nil {
			q.Close()
			return nil, nil, bad(what, err)
		}
		pm, err := decodeMap(props)
		if err != nil {
			q.Close()
			return nil, nil, bad(what, err)
		}
		ps := catalog.PartitionSpec(spec)
		if err := m.CreatePartition(p, ps, catalog.NewCatalogPartition(pm, comment), false); err != nil {
			q.Close()
			return nil, nil, bad(what, err)
		}
		st, err := decodeStats(stats)
		if err != nil {
			q.Close()
			return nil, nil, bad(what, err)
		}
		if st != nil {
			m.AlterPartitionStatistics(p, ps, *st, false)
		}
		cst, err := decodeColumnStats(colStats)
		if err != nil {
			q.Close()
			return nil, nil, bad(what, err)
		}
		if cst != nil {
			m.AlterPartitionColumnStatistics(p, ps, *cst, false)
		}
		put(rows, "partitions", []any{dbName, tn, ps.String()}, encodeMap(spec), encodeMap(pm), comment, stats, colStats)
	}
	q.Close()
	if err := q.Err(); err != nil {
		return nil, nil, c.fileErr("reading", err)
	}
	// functions
	q, err = c.conn.QueryContext(ctx, `SELECT database, name, class_name, language FROM functions ORDER BY database, name`)
	if err != nil {
		return nil, nil, c.fileErr("reading", err)
	}
	for q.Next() {
		var dbName, name, class, lang string
		if err := q.Scan(&dbName, &name, &class, &lang); err != nil {
			q.Close()
			return nil, nil, c.fileErr("reading", err)
		}
		if err := m.CreateFunction(catalog.NewObjectPath(dbName, name), &catalog.Function{ClassName: class, Language: lang}, false); err != nil {
			q.Close()
			return nil, nil, bad("function "+dbName+"."+name, err)
		}
		put(rows, "functions", []any{dbName, strings.ToLower(name)}, class, lang)
	}
	q.Close()
	if err := q.Err(); err != nil {
		return nil, nil, c.fileErr("reading", err)
	}
	return m, rows, nil
}
