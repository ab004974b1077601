package table

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/riffle-sql/riffle/engine/catalog"
	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/types"
)

// listResult is the result of a SHOW listing: one nullable STRING column,
// as Flink's buildShowResult declares it.
func listResult(column string, names []string) *TableResult {
	rows := make([]*types.Row, len(names))
	for i, n := range names {
		rows[i] = types.NewRow(n)
	}
	return &TableResult{kind: SuccessWithContent, schema: NewTableSchema([]string{column}, []*types.DataType{types.StringType()}), static: rows}
}

// likeFilter applies SHOW ... [NOT] LIKE|ILIKE 'pattern'.
func likeFilter(names []string, l *sql.LikePattern) []string {
	if l == nil {
		return names
	}
	var re strings.Builder
	re.WriteString("^")
	if l.ILike {
		re.WriteString("(?i)")
	}
	for _, r := range l.Pattern {
		switch r {
		case '%':
			re.WriteString(".*")
		case '_':
			re.WriteString(".")
		default:
			re.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	re.WriteString("$")
	rx := regexp.MustCompile(re.String())
	var out []string
	for _, n := range names {
		if rx.MatchString(n) != l.Not {
			out = append(out, n)
		}
	}
	return out
}

func (x *execution) show(s *sql.Show) (*TableResult, error) {
	t := x.env
	switch s.What {
	case "CATALOGS":
		return listResult("catalog name", likeFilter(t.ListCatalogs(), s.Like)), nil
	case "CURRENT CATALOG":
		return listResult("current catalog name", []string{t.CurrentCatalog()}), nil
	case "CURRENT DATABASE":
		return listResult("current database name", []string{t.CurrentDatabase()}), nil
	case "DATABASES":
		cat := t.CurrentCatalog()
		if s.From != nil {
			cat = s.From.Parts[0].Name
		}
		c, err := t.catalogs.Catalog(cat)
		if err != nil {
			return nil, err
		}
		dbs, err := c.ListDatabases()
		if err != nil {
			return nil, err
		}
		return listResult("database name", likeFilter(dbs, s.Like)), nil
	case "TABLES", "VIEWS":
		cat, db := t.CurrentCatalog(), t.CurrentDatabase()
		if s.From != nil {
			parts := identNames(s.From.Parts)
			db = parts[len(parts)-1]
			if len(parts) == 2 {
				cat = parts[0]
			}
		}
		var kind *catalog.TableKind
		col := "table name"
		if s.What == "VIEWS" {
			k := catalog.KindView
			kind, col = &k, "view name"
		}
		names, err := t.catalogs.ListTables(cat, db, kind)
		if err != nil {
			return nil, err
		}
		return listResult(col, likeFilter(names, s.Like)), nil
	case "FUNCTIONS":
		set := map[string]bool{}
		for _, n := range t.modules.functionNames() {
			set[n] = true
		}
		for _, n := range t.funcs.userNames() {
			set[n] = true
		}
		return listResult("function name", likeFilter(sortedStrings(set), s.Like)), nil
	case "USER FUNCTIONS":
		return listResult("function name", likeFilter(t.funcs.userNames(), s.Like)), nil
	case "MODULES":
		return listResult("module name", t.ListModules()), nil
	case "FULL MODULES":
		var rows []*types.Row
		for _, e := range t.ListFullModules() {
			rows = append(rows, types.NewRow(e.Name(), e.Used()))
		}
		return &TableResult{kind: SuccessWithContent, schema: NewTableSchema([]string{"module name", "used"},
			[]*types.DataType{types.StringType(), types.BooleanType()}), static: rows}, nil
	case "JOBS":
		var rows []*types.Row
		for _, j := range t.Jobs() {
			rows = append(rows, types.NewRow(j.JobID(), j.JobName(), j.Status().String(), j.StartTime().UTC().Format("2006-01-02T15:04:05.000Z")))
		}
		return &TableResult{kind: SuccessWithContent, schema: NewTableSchema([]string{"job id", "job name", "status", "start time"},
			[]*types.DataType{types.StringType().NotNull(), types.StringType().NotNull(), types.StringType().NotNull(), types.StringType().NotNull()}), static: rows}, nil
	case "MATERIALIZED TABLES":
		return x.showMaterializedTables(s)
	case "PARTITIONS":
		return x.showPartitions(s)
	case "PROCEDURES":
		// Riffle's catalogs keep no procedures; Flink's in-memory catalog
		// refuses to list them with this message
		return nil, errorf("listProcedures is not implemented for class org.apache.flink.table.catalog.GenericInMemoryCatalog.")
	case "COLUMNS":
		if s.From == nil {
			return nil, errorf("SHOW COLUMNS needs FROM <table>")
		}
		res, err := x.describeTable(s.From)
		if err != nil {
			return nil, err
		}
		if s.Like != nil {
			var names []string
			for _, r := range res.static {
				names = append(names, r.Values[0].(string))
			}
			keep := map[string]bool{}
			for _, n := range likeFilter(names, s.Like) {
				keep[n] = true
			}
			var rows []*types.Row
			for _, r := range res.static {
				if keep[r.Values[0].(string)] {
					rows = append(rows, r)
				}
			}
			res.static = rows
		}
		return res, nil
	}
	return nil, errorf("SHOW %s is not supported", s.What)
}

func (x *execution) describe(d *sql.Describe) (*TableResult, error) {
	switch d.Kind {
	case "":
		return x.describeTable(d.Name)
	case "DATABASE":
		t := x.env
		parts := identNames(d.Name.Parts)
		cat := t.CurrentCatalog()
		if len(parts) == 2 {
			cat = parts[0]
		}
		c, err := t.catalogs.Catalog(cat)
		if err != nil {
			return nil, err
		}
		db, err := c.GetDatabase(parts[len(parts)-1])
		if err != nil {
			return nil, err
		}
		rows := []*types.Row{types.NewRow("database name", parts[len(parts)-1]), types.NewRow("comment", db.Comment)}
		for _, k := range sortedKeys(db.Properties) {
			rows = append(rows, types.NewRow(k, db.Properties[k]))
		}
		return &TableResult{kind: SuccessWithContent, schema: NewTableSchema([]string{"info name", "info value"},
			[]*types.DataType{types.StringType().NotNull(), types.StringType()}), static: rows}, nil
	case "CATALOG":
		return x.describeCatalog(d.Name.Parts[0].Name, d.Extended)
	case "FUNCTION":
		return x.describeFunction(d.Name, d.Extended)
	}
	return nil, errorf("DESCRIBE %s is not supported", d.Kind)
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// describeTable renders DESCRIBE: name, type, null, key, extras, watermark.
func (x *execution) describeTable(n *sql.ObjectName) (*TableResult, error) {
	t := x.env
	id, err := x.qualify(n)
	if err != nil {
		return nil, err
	}
	rt, ok, err := t.catalogs.GetTable(id)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errorf("Tables or views with the identifier '%s' doesn't exist.", id.Summary())
	}
	return describeSchema(rt.Table.Schema(), t.IsStreaming()), nil
}

// DescribeSchema renders a schema as DESCRIBE does in streaming mode: a
// column with a watermark is typed as a rowtime attribute ("TIMESTAMP(3)
// *ROWTIME*").
func DescribeSchema(s *types.Schema) *TableResult {
	return describeSchema(s, true)
}

// describeSchema renders a schema as DESCRIBE does. In batch mode
// (streaming false) Flink resolves no rowtime attribute, so a watermarked
// column shows its plain type; a PROCTIME() column stays *PROCTIME*.
func describeSchema(s *types.Schema, streaming bool) *TableResult {
	var rows []*types.Row
	wm := map[string]string{}
	for _, w := range s.Watermarks {
		wm[w.RowtimeAttribute] = w.Expr
	}
	pk := map[string]bool{}
	pkStr := ""
	if s.PrimaryKey != nil {
		for _, c := range s.PrimaryKey.Columns {
			pk[c] = true
		}
		pkStr = "PRI(" + strings.Join(s.PrimaryKey.Columns, ", ") + ")"
	}
	// Flink adds a comment column when any column has a comment
	withComment := false
	for _, c := range s.Columns {
		if c.Comment != "" {
			withComment = true
		}
	}
	for _, c := range s.Columns {
		t := c.Type
		if _, ok := wm[c.Name]; ok && streaming {
			t = t.WithTimeAttr(types.Rowtime)
		} else if !streaming && t.IsRowtime() {
			t = t.WithTimeAttr(types.NoTimeAttr)
		}
		typ := t.WithNullable(true).String()
		var key, extras, water any
		if pk[c.Name] {
			key = pkStr
		}
		switch c.Kind {
		case types.ComputedColumn:
			extras = "AS " + c.Expr
		case types.MetadataColumn:
			e := "METADATA"
			if c.MetadataKey != "" && c.MetadataKey != c.Name {
				e += " FROM '" + c.MetadataKey + "'"
			}
			if c.Virtual {
				e += " VIRTUAL"
			}
			extras = e
		}
		if w, ok := wm[c.Name]; ok {
			water = w
		}
		vals := []any{c.Name, typ, t.Nullable, key, extras, water}
		if withComment {
			var comment any
			if c.Comment != "" {
				comment = c.Comment
			}
			vals = append(vals, comment)
		}
		rows = append(rows, types.NewRow(vals...))
	}
	// All columns nullable, as in Flink's DESCRIBE result.
	st := types.StringType()
	names := []string{"name", "type", "null", "key", "extras", "watermark"}
	colTypes := []*types.DataType{st, st, types.BooleanType(), st, st, st}
	if withComment {
		names = append(names, "comment")
		colTypes = append(colTypes, st)
	}
	return &TableResult{kind: SuccessWithContent,
		schema: NewTableSchema(names, colTypes),
		static: rows}
}

func (x *execution) showCreate(s *sql.ShowCreate) (*TableResult, error) {
	t := x.env
	if s.Kind == "CATALOG" {
		return x.showCreateCatalog(s.Name.Parts[len(s.Name.Parts)-1].Name)
	}
	id, err := x.qualify(s.Name)
	if err != nil {
		return nil, err
	}
	rt, ok, err := t.catalogs.GetTable(id)
	if err != nil {
		return nil, err
	}
	if !ok {
		what := "Table"
		switch s.Kind {
		case "VIEW":
			what = "View"
		case "MATERIALIZED TABLE":
			what = "Materialized table"
		}
		if s.Kind == "MATERIALIZED TABLE" {
			return nil, errorf("Could not execute SHOW CREATE MATERIALIZED TABLE %s. %s with identifier %s does not exist.", id.Summary(), what, id)
		}
		return nil, errorf("Could not execute SHOW CREATE %s. %s with identifier %s does not exist.", s.Kind, what, id)
	}
	var ddl string
	switch tb := rt.Table.(type) {
	case *catalog.Table:
		if tb.Materialized != nil {
			if s.Kind != "MATERIALIZED TABLE" {
				return nil, errorf("SHOW CREATE %s is only supported for %ss, but %s is a materialized table. Please use SHOW CREATE MATERIALIZED TABLE instead.", s.Kind, strings.ToLower(s.Kind), id)
			}
			ddl = ShowCreateMaterializedTable(id, tb)
			break
		}
		if s.Kind == "MATERIALIZED TABLE" {
			return nil, errorf("SHOW CREATE MATERIALIZED TABLE is only supported for materialized tables, but %s is a table. Please use SHOW CREATE TABLE instead.", id)
		}
		if s.Kind == "VIEW" {
			return nil, errorf("SHOW CREATE VIEW is only supported for views, but %s is a table. Please use SHOW CREATE TABLE instead.", id)
		}
		ddl = ShowCreateTable(id, tb, rt.Temporary)
	case *catalog.View:
		if s.Kind == "MATERIALIZED TABLE" {
			return nil, errorf("SHOW CREATE MATERIALIZED TABLE is only supported for materialized tables, but %s is a view. Please use SHOW CREATE VIEW instead.", id)
		}
		if s.Kind == "TABLE" {
			return nil, errorf("SHOW CREATE TABLE is only supported for tables, but %s is a view. Please use SHOW CREATE VIEW instead.", id)
		}
		ddl = ShowCreateView(id, tb, rt.Temporary)
	}
	return &TableResult{kind: SuccessWithContent, schema: NewTableSchema([]string{"result"}, []*types.DataType{types.StringType()}), static: []*types.Row{types.NewRow(ddl)}}, nil
}

// ShowCreateTable renders the DDL of a table as Flink 2.3.0's SHOW CREATE
// TABLE writes it: the columns, watermarks and primary key one a line,
// types in their serializable form (serializableType: VARCHAR(2147483647)
// for STRING), then ")", and each of COMMENT, PARTITIONED BY and WITH on a
// line of its own, options sorted by key, ending in a newline:
//
//	CREATE TABLE `cat`.`db`.`t` (
//	  `a` INT NOT NULL,
//	  `s` VARCHAR(2147483647)
//	)
//	COMMENT 'c'
//	PARTITIONED BY (`s`)
//	WITH (
//	  'connector' = 'datagen'
//	)
func ShowCreateTable(id catalog.ObjectIdentifier, t *catalog.Table, temporary bool) string {
	var b strings.Builder
	b.WriteString("CREATE ")
	if temporary {
		b.WriteString("TEMPORARY ")
	}
	fmt.Fprintf(&b, "TABLE %s (\n", id)
	var parts []string
	for _, c := range t.TableSchema.Columns {
		p := "  " + types.QuoteIdent(c.Name)
		switch c.Kind {
		case types.ComputedColumn:
			p += " AS " + c.Expr
		case types.MetadataColumn:
			p += " " + serializableType(c.Type) + " METADATA"
			if c.MetadataKey != "" && c.MetadataKey != c.Name {
				p += " FROM '" + c.MetadataKey + "'"
			}
			if c.Virtual {
				p += " VIRTUAL"
			}
		default:
			p += " " + serializableType(c.Type)
		}
		if c.Comment != "" {
			p += " COMMENT '" + strings.ReplaceAll(c.Comment, "'", "''") + "'"
		}
		parts = append(parts, p)
	}
	for _, w := range t.TableSchema.Watermarks {
		parts = append(parts, fmt.Sprintf("  WATERMARK FOR %s AS %s", types.QuoteIdent(w.RowtimeAttribute), w.Expr))
	}
	if pk := t.TableSchema.PrimaryKey; pk != nil {
		var cols []string
		for _, c := range pk.Columns {
			cols = append(cols, types.QuoteIdent(c))
		}
		parts = append(parts, fmt.Sprintf("  CONSTRAINT %s PRIMARY KEY (%s) NOT ENFORCED", types.QuoteIdent(pk.Name), strings.Join(cols, ", ")))
	}
	b.WriteString(strings.Join(parts, ",\n"))
	b.WriteString("\n)")
	if t.TableComment != "" {
		fmt.Fprintf(&b, "\nCOMMENT '%s'", strings.ReplaceAll(t.TableComment, "'", "''"))
	}
	if len(t.PartitionKeys) > 0 {
		var ks []string
		for _, k := range t.PartitionKeys {
			ks = append(ks, types.QuoteIdent(k))
		}
		fmt.Fprintf(&b, "\nPARTITIONED BY (%s)", strings.Join(ks, ", "))
	}
	if len(t.TableOptions) > 0 {
		b.WriteString("\nWITH (\n")
		var opts []string
		for _, k := range sortedKeys(t.TableOptions) {
			opts = append(opts, fmt.Sprintf("  '%s' = '%s'", strings.ReplaceAll(k, "'", "''"), strings.ReplaceAll(t.TableOptions[k], "'", "''")))
		}
		b.WriteString(strings.Join(opts, ",\n"))
		b.WriteString("\n)")
	}
	b.WriteString("\n")
	return b.String()
}

// ShowCreateView renders the DDL of a view in the layout of Flink 2.3.0's
// SHOW CREATE VIEW: the column names one a line in parentheses, COMMENT
// on a line of its own, then AS and the view's expanded query:
//
//	CREATE VIEW `cat`.`db`.`v` (
//	  `a`,
//	  `b`
//	)
//	COMMENT 'c'
//	AS SELECT ...
//
// The query is the view's expanded query, written as Flink's Calcite
// unparses the validated query (binder.ExpandViewQuery); a view whose
// query that expansion does not reach shows its query as written.
func ShowCreateView(id catalog.ObjectIdentifier, v *catalog.View, temporary bool) string {
	var b strings.Builder
	b.WriteString("CREATE ")
	if temporary {
		b.WriteString("TEMPORARY ")
	}
	var cols []string
	for _, n := range v.ViewSchema.ColumnNames() {
		cols = append(cols, "  "+types.QuoteIdent(n))
	}
	fmt.Fprintf(&b, "VIEW %s (\n%s\n)\n", id, strings.Join(cols, ",\n"))
	if v.ViewComment != "" {
		fmt.Fprintf(&b, "COMMENT '%s'\n", strings.ReplaceAll(v.ViewComment, "'", "''"))
	}
	fmt.Fprintf(&b, "AS %s\n", v.Expanded)
	return b.String()
}

// serializableType renders a type as Flink's LogicalType.asSerializableString
// does, the form SHOW CREATE TABLE writes: VARCHAR(2147483647) and
// VARBINARY(2147483647) for STRING and BYTES, TIMESTAMP(p) WITH LOCAL TIME
// ZONE for TIMESTAMP_LTZ(p), nested types alike; no time-attribute
// markers. Other types are written as in DDL.
func serializableType(t *types.DataType) string {
	var s string
	switch t.Root {
	case types.VarChar:
		s = fmt.Sprintf("VARCHAR(%d)", t.Length)
	case types.VarBinary:
		s = fmt.Sprintf("VARBINARY(%d)", t.Length)
	case types.TimestampLTZRoot:
		s = fmt.Sprintf("TIMESTAMP(%d) WITH LOCAL TIME ZONE", t.Precision)
	case types.ArrayRoot:
		s = "ARRAY<" + serializableType(t.Elem) + ">"
	case types.MultisetRoot:
		s = "MULTISET<" + serializableType(t.Elem) + ">"
	case types.MapRoot:
		s = "MAP<" + serializableType(t.Key) + ", " + serializableType(t.Value) + ">"
	case types.RowRoot:
		var fs []string
		for _, f := range t.Fields {
			p := types.QuoteIdent(f.Name) + " " + serializableType(f.Type)
			if f.Description != "" {
				p += " '" + strings.ReplaceAll(f.Description, "'", "''") + "'"
			}
			fs = append(fs, p)
		}
		s = "ROW<" + strings.Join(fs, ", ") + ">"
	default:
		return t.SQLString()
	}
	if !t.Nullable {
		s += " NOT NULL"
	}
	return s
}

// describeFunction answers DESCRIBE FUNCTION [EXTENDED] name as Flink
// 2.3.0 does: "is system function" and "is temporary"; EXTENDED adds the
// kind, requirements, determinism and constant folding. Flink's EXTENDED
// form also prints the type inference's signature, which Riffle's
// functions do not describe in Flink's notation: that row is left out. An
// unknown name fails "Function with the identifier '`name`' doesn't
// exist.".
func (x *execution) describeFunction(n *sql.ObjectName, extended bool) (*TableResult, error) {
	t := x.env
	parts := identNames(n.Parts)
	var f *expr.Function
	system, temporary := false, false
	fc := t.funcs
	if len(parts) == 1 {
		fc.mu.RLock()
		tf, ok := fc.tempSystem[strings.ToLower(parts[0])]
		fc.mu.RUnlock()
		if ok {
			f, system, temporary = tf, true, true
		} else if mf, ok := t.modules.lookup(parts[0]); ok {
			f, system = mf, true
		}
	}
	if f == nil {
		if id, err := t.catalogs.Qualify(parts); err == nil {
			id.Object = strings.ToLower(id.Object)
			fc.mu.RLock()
			tf, ok := fc.tempCat[id]
			fc.mu.RUnlock()
			if ok {
				f, temporary = tf, true
			} else if c, ok := t.catalogs.GetCatalog(id.Catalog); ok {
				if cf, err := c.GetFunction(id.Path()); err == nil {
					if rf, err := resolveCatalogFunction(cf, id.Object); err == nil {
						f = rf
					}
				}
			}
		}
	}
	if f == nil {
		quoted := make([]string, len(parts))
		for i, p := range parts {
			quoted[i] = sql.QuoteIdent(p)
		}
		return nil, errorf("Function with the identifier '%s' doesn't exist.", strings.Join(quoted, "."))
	}
	rows := []*types.Row{
		types.NewRow("is system function", fmt.Sprint(system)),
		types.NewRow("is temporary", fmt.Sprint(temporary)),
	}
	if extended {
		kind := "SCALAR"
		switch f.Kind {
		case expr.AggregateKind:
			kind = "AGGREGATE"
		case expr.TableKind:
			kind = "TABLE"
		case expr.ProcessTableKind:
			kind = "PROCESS_TABLE"
		}
		rows = append(rows,
			types.NewRow("kind", kind),
			types.NewRow("requirements", "[]"),
			types.NewRow("is deterministic", fmt.Sprint(!f.NonDeterministic)),
			types.NewRow("supports constant folding", "true"))
	}
	return &TableResult{kind: SuccessWithContent, schema: NewTableSchema([]string{"info name", "info value"},
		[]*types.DataType{types.StringType(), types.StringType()}), static: rows}, nil
}
