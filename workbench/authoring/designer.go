package authoring

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/riffle-sql/riffle/engine/catalog"
	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/connector/format/csv"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/engine/types"
)

// ColumnDesign is one column of the table designer.
type ColumnDesign struct {
	Name string
	// Kind is physical, computed (Expr) or metadata (MetadataKey, Virtual).
	Kind types.ColumnKind
	// Type is the data type of physical and metadata columns.
	Type    TypeSpec
	NotNull bool
	// Expr is the SQL expression of a computed column.
	Expr string
	// MetadataKey is the connector's metadata key when it differs from the
	// column name ("" = the column name).
	MetadataKey string
	Virtual     bool
	Comment     string
	// Original is the column's name in the existing table, "" for a new
	// column (so that a renamed column is altered, not dropped and added).
	Original string
}

// Watermark is the designer's watermark: WATERMARK FOR Column AS Column -
// INTERVAL 'Delay' Unit (bounded out-of-orderness), or a custom Expr.
type Watermark struct {
	Column string
	// Delay and Unit give the allowed lateness: "5" SECOND, "0.001" SECOND.
	// A zero or empty Delay is a strictly ascending watermark (AS column).
	Delay string
	Unit  string
	// Expr, when set, is a custom watermark expression.
	Expr string
}

// SQL returns the watermark expression.
func (w *Watermark) SQL() string {
	if strings.TrimSpace(w.Expr) != "" {
		return w.Expr
	}
	col := sql.QuoteIdentIfNeeded(w.Column)
	d := strings.TrimSpace(w.Delay)
	if d == "" || isZero(d) {
		return col
	}
	return fmt.Sprintf("%s - INTERVAL '%s' %s", col, d, w.Unit)
}

func isZero(s string) bool {
	f, err := strconv.ParseFloat(s, 64)
	return err == nil && f == 0
}

// OptionValue is one WITH option of the design.
type OptionValue struct {
	Key, Value string
}

// Design is the table designer's model: everything CREATE TABLE says.
type Design struct {
	// Path is the table name as 1 to 3 parts.
	Path        []string
	Temporary   bool
	Columns     []ColumnDesign
	PrimaryKey  []string
	Watermark   *Watermark
	PartitionBy []string
	Comment     string
	// Connector is the 'connector' option; Options are the others in
	// order ('format' and format options such as 'csv.field-delimiter'
	// included).
	Connector string
	Options   []OptionValue

	// ConfirmPositions accepts that physical columns of a table in a
	// positional format (csv) change position: the change then reads the
	// file's fields in the new order (see PositionChanges).
	ConfirmPositions bool

	// original is the design of the existing table, when the design was
	// opened from the catalog (see DesignFromTable and Changes).
	original *Design
	id       catalog.ObjectIdentifier
}

// NewDesign starts an empty design for a new table.
func NewDesign(path ...string) *Design { return &Design{Path: path} }

// IsNew reports whether the design creates a table (rather than changing
// one opened from the catalog).
func (d *Design) IsNew() bool { return d.original == nil }

// Option returns the value of an option ('connector' included) and
// whether it is set.
func (d *Design) Option(key string) (string, bool) {
	if key == "connector" {
		return d.Connector, d.Connector != ""
	}
	for _, o := range d.Options {
		if o.Key == key {
			return o.Value, true
		}
	}
	return "", false
}

// SetOption sets an option (keeping its position when it is set already).
// Setting 'connector' calls SetConnector.
func (d *Design) SetOption(key, value string) {
	if key == "connector" {
		d.SetConnector(value)
		return
	}
	for i, o := range d.Options {
		if o.Key == key {
			d.Options[i].Value = value
			return
		}
	}
	d.Options = append(d.Options, OptionValue{key, value})
}

// RemoveOption removes an option.
func (d *Design) RemoveOption(key string) {
	d.Options = slices.DeleteFunc(d.Options, func(o OptionValue) bool { return o.Key == key })
}

// SetConnector chooses the connector: options the new connector does not
// declare are dropped (format options stay while 'format' is declared),
// and its required options are added with their defaults (or empty, for
// the user to fill in).
func (d *Design) SetConnector(id string) {
	d.Connector = id
	decl := connector.DeclaredOptions(id)
	var kept []OptionValue
	for _, o := range d.Options {
		if _, ok := matchOption(decl, o.Key); ok {
			kept = append(kept, o)
			continue
		}
		if f, ok := d.Option("format"); ok && strings.HasPrefix(o.Key, f+".") {
			if _, declared := matchOption(decl, "format"); declared {
				kept = append(kept, o)
			}
		}
	}
	d.Options = kept
	for _, o := range decl {
		if o.Required && !strings.Contains(o.Key, "#") {
			if _, ok := d.Option(o.Key); !ok {
				d.Options = append(d.Options, OptionValue{o.Key, o.Default})
			}
		}
	}
}

// SetFormat chooses the format: options of the previous format are
// dropped.
func (d *Design) SetFormat(id string) {
	if old, ok := d.Option("format"); ok && old != id {
		d.Options = slices.DeleteFunc(d.Options, func(o OptionValue) bool { return strings.HasPrefix(o.Key, old+".") })
	}
	d.SetOption("format", id)
}

// Connectors lists the registered connectors, for the connector choice.
func Connectors() []string { return connector.Identifiers() }

// Formats lists the registered formats.
func Formats() []string { return connector.FormatIdentifiers() }

// matchOption finds the declaration of key; '#' in a declared key stands
// for a field path (datagen's fields.#.kind).
func matchOption(decl []connector.Option, key string) (connector.Option, bool) {
	for _, o := range decl {
		if o.Key == key {
			return o, true
		}
		if strings.Contains(o.Key, "#") {
			pre, post, _ := strings.Cut(o.Key, "#")
			if strings.HasPrefix(key, pre) && strings.HasSuffix(key, post) && len(key) > len(pre)+len(post) {
				return o, true
			}
		}
	}
	return connector.Option{}, false
}

// OptionField is one row of the designer's options form.
type OptionField struct {
	// Option is the declaration (Key with the format prefix for format
	// options); Declared is false for keys the user added that nothing
	// declares.
	Option   connector.Option
	Declared bool
	// Value is the current value and Set whether the option is given.
	Value string
	Set   bool
	// Problem is what is wrong with the value, or "".
	Problem string
}

// OptionFields lists the options of the chosen connector and format, in
// declaration order (per-field options such as fields.#.kind are listed
// once per set key and once as the template), then any other keys set.
func (d *Design) OptionFields() []OptionField {
	var out []OptionField
	seen := map[string]bool{}
	add := func(decl []connector.Option) {
		for _, o := range decl {
			if strings.Contains(o.Key, "#") {
				for _, ov := range d.Options {
					if m, ok := matchOption([]connector.Option{o}, ov.Key); ok && !seen[ov.Key] {
						m.Key = ov.Key
						seen[ov.Key] = true
						out = append(out, OptionField{Option: m, Declared: true, Value: ov.Value, Set: true, Problem: d.optionProblem(m, ov.Value)})
					}
				}
				out = append(out, OptionField{Option: o, Declared: true})
				continue
			}
			v, set := d.Option(o.Key)
			seen[o.Key] = true
			f := OptionField{Option: o, Declared: true, Value: v, Set: set}
			if set {
				f.Problem = d.optionProblem(o, v)
			} else if o.Required {
				f.Problem = "required"
			}
			out = append(out, f)
		}
	}
	add(connector.DeclaredOptions(d.Connector))
	if f, ok := d.Option("format"); ok {
		add(connector.DeclaredFormatOptions(f))
	}
	for _, o := range d.Options {
		if !seen[o.Key] {
			out = append(out, OptionField{Option: connector.Option{Key: o.Key}, Value: o.Value, Set: true,
				Problem: fmt.Sprintf("'%s' is not an option of connector '%s'%s", o.Key, d.Connector, d.formatNote())})
		}
	}
	return out
}

func (d *Design) formatNote() string {
	if f, ok := d.Option("format"); ok && f != "" {
		return " or format '" + f + "'"
	}
	return ""
}

var durationRe = regexp.MustCompile(`(?i)^\s*\d+\s*(ns|nano|nanos|nanosecond|nanoseconds|us|µs|micro|micros|microsecond|microseconds|ms|milli|millis|millisecond|milliseconds|s|sec|secs|second|seconds|m|min|mins|minute|minutes|h|hour|hours|d|day|days)?\s*$`)

// optionProblem validates one value against its declaration.
func (d *Design) optionProblem(o connector.Option, v string) string {
	if p := kindProblem(o, v); p != "" {
		return p
	}
	if o.Required && strings.TrimSpace(v) == "" {
		return "required"
	}
	switch {
	case o.Key == "format":
		if _, err := connector.LookupFormat(v); err != nil {
			return fmt.Sprintf("format '%s' is not registered; available: %s", v, strings.Join(Formats(), ", "))
		}
	case o.Key == "path" && d.Connector == "filesystem":
		p := strings.TrimPrefix(v, "file://")
		if _, err := os.Stat(p); err != nil {
			return fmt.Sprintf("no file or directory at %s (a sink creates it; a source fails)", v)
		}
	case strings.HasPrefix(o.Key, "fields.") && strings.Count(o.Key, ".") >= 2:
		field := strings.SplitN(strings.TrimPrefix(o.Key, "fields."), ".", 2)[0]
		if d.column(field) < 0 {
			return fmt.Sprintf("the table has no column %s", sql.QuoteIdentIfNeeded(field))
		}
	}
	return ""
}

// kindProblem checks a value against the declared kind of its option.
func kindProblem(o connector.Option, v string) string {
	switch o.Kind {
	case "int":
		if _, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err != nil {
			return fmt.Sprintf("'%s' is not a whole number", v)
		}
	case "float":
		if _, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err != nil {
			return fmt.Sprintf("'%s' is not a number", v)
		}
	case "bool":
		if l := strings.ToLower(strings.TrimSpace(v)); l != "true" && l != "false" {
			return fmt.Sprintf("'%s' is not true or false", v)
		}
	case "duration":
		if !durationRe.MatchString(v) {
			return fmt.Sprintf("'%s' is not a duration such as '30 s', '5 min' or '1 h'", v)
		}
	case "enum":
		if !slices.ContainsFunc(o.Values, func(a string) bool { return strings.EqualFold(a, v) }) {
			return fmt.Sprintf("'%s' is not one of %s", v, strings.Join(o.Values, ", "))
		}
	case "char":
		s := v
		if strings.HasSuffix(o.Key, "field-delimiter") {
			u, err := csv.UnescapeJava(v)
			if err != nil {
				return err.Error()
			}
			s = u
		}
		if utf8.RuneCountInString(s) != 1 {
			return fmt.Sprintf("'%s' must be a single character", v)
		}
	}
	return ""
}

// column returns the index of the named column, or -1.
func (d *Design) column(name string) int {
	for i, c := range d.Columns {
		if c.Name == name {
			return i
		}
	}
	return -1
}

// Problem is a validation finding of the designer.
type Problem struct {
	// Field locates it: "name", "column 2", "primary key", "watermark",
	// "option 'csv.field-delimiter'", "connector".
	Field string
	Msg   string
	// Warning problems do not stop CREATE TABLE (e.g. a source path that
	// does not exist yet).
	Warning bool
}

func (p Problem) String() string { return p.Field + ": " + p.Msg }

// Validate checks the design as the user types: names, types, computed
// expressions, primary key, watermark and options against the connector
// and format declarations.
func (d *Design) Validate() []Problem {
	var ps []Problem
	add := func(field, format string, args ...any) {
		ps = append(ps, Problem{Field: field, Msg: fmt.Sprintf(format, args...)})
	}
	if len(d.Path) == 0 || slices.Contains(d.Path, "") {
		add("name", "enter the table name")
	} else if len(d.Path) > 3 {
		add("name", "a table name has at most 3 parts (catalog.database.table)")
	}
	if len(d.Columns) == 0 {
		add("columns", "a table needs at least one column")
	}
	names := map[string]int{}
	for i, c := range d.Columns {
		field := fmt.Sprintf("column %d", i+1)
		if c.Name != "" {
			field += " " + sql.QuoteIdentIfNeeded(c.Name)
		}
		if c.Name == "" {
			add(field, "enter a name")
		} else if j, dup := names[c.Name]; dup {
			add(field, "the name is used by column %d too", j+1)
		} else {
			names[c.Name] = i
		}
		switch c.Kind {
		case types.ComputedColumn:
			if strings.TrimSpace(c.Expr) == "" {
				add(field, "enter the expression of the computed column")
			} else if _, err := sql.ParseExpr(c.Expr); err != nil {
				add(field, "expression: %s", firstLine(err))
			}
		default:
			if _, err := c.Type.Resolve(); err != nil {
				add(field, "%s", firstLine(err))
			}
		}
	}
	for i, c := range d.Columns {
		if c.Kind == types.ComputedColumn {
			for _, msg := range d.missingRefs(c.Expr) {
				add(fmt.Sprintf("column %d %s", i+1, sql.QuoteIdentIfNeeded(c.Name)), "the expression %s", msg)
			}
		}
	}
	if moves := d.PositionChanges(); len(moves) > 0 {
		f, _ := d.positionalFormat()
		p := Problem{Field: "columns", Msg: fmt.Sprintf("%s maps the fields of each record to the columns by position: %s. "+
			"Confirm that the data has the fields in the new order, or keep the columns in place", f, strings.Join(moves, "; "))}
		p.Warning = d.ConfirmPositions
		ps = append(ps, p)
	}
	for _, k := range d.PrimaryKey {
		i := d.column(k)
		switch {
		case i < 0:
			add("primary key", "column %s does not exist", sql.QuoteIdentIfNeeded(k))
		case d.Columns[i].Kind != types.PhysicalColumn:
			add("primary key", "column %s is not a physical column", sql.QuoteIdentIfNeeded(k))
		}
	}
	if w := d.Watermark; w != nil {
		i := d.column(w.Column)
		if i < 0 {
			add("watermark", "choose the rowtime column")
		} else if c := d.Columns[i]; c.Kind != types.ComputedColumn {
			t, err := c.Type.Resolve()
			if err == nil && !(t.IsTimestamp() && t.Precision <= 3) {
				add("watermark", "the rowtime column must be TIMESTAMP(p) or TIMESTAMP_LTZ(p) with p <= 3, not %s", t)
			}
		}
		if strings.TrimSpace(w.Expr) == "" {
			if dl := strings.TrimSpace(w.Delay); dl != "" {
				if f, err := strconv.ParseFloat(dl, 64); err != nil || f < 0 {
					add("watermark", "the delay '%s' is not a non-negative number", w.Delay)
				} else if _, ok := unitSeconds[w.Unit]; !ok && !isZero(dl) {
					add("watermark", "the delay unit must be SECOND, MINUTE, HOUR or DAY")
				}
			}
		} else if _, err := sql.ParseExpr(w.Expr); err != nil {
			add("watermark", "expression: %s", firstLine(err))
		} else {
			for _, msg := range d.missingRefs(w.Expr) {
				add("watermark", "the expression %s", msg)
			}
		}
	}
	for _, p := range d.PartitionBy {
		if d.column(p) < 0 {
			add("partitioned by", "column %s does not exist", sql.QuoteIdentIfNeeded(p))
		}
	}
	if d.Connector == "" {
		add("connector", "choose a connector")
	} else if _, ok := connector.Lookup(d.Connector); !ok {
		add("connector", "connector '%s' is not registered; available: %s", d.Connector, strings.Join(Connectors(), ", "))
	}
	for _, f := range d.OptionFields() {
		if f.Problem == "" {
			continue
		}
		p := Problem{Field: "option '" + f.Option.Key + "'", Msg: f.Problem}
		p.Warning = f.Option.Key == "path" && f.Set && f.Value != ""
		ps = append(ps, p)
	}
	return ps
}

// positionalFormats map a record's fields to the physical columns by
// their position rather than by name.
var positionalFormats = map[string]bool{"csv": true}

// positionalFormat returns the design's format (or value format) when it
// is positional.
func (d *Design) positionalFormat() (string, bool) {
	for _, k := range []string{"format", "value.format"} {
		if f, ok := d.Option(k); ok && positionalFormats[f] {
			return f, true
		}
	}
	return "", false
}

// PositionChanges lists the existing physical columns that a changed
// design puts at another position among the physical columns (moved, or
// a column before them added or dropped), for a table in a positional
// format such as csv, where each would then read another field of the
// data: "reading: field 3 instead of 2". Appending and dropping the last
// columns move nothing.
func (d *Design) PositionChanges() []string {
	o := d.original
	if _, ok := d.positionalFormat(); o == nil || !ok {
		return nil
	}
	var before []string
	for _, c := range o.Columns {
		if c.Kind == types.PhysicalColumn {
			before = append(before, c.Name)
		}
	}
	var out []string
	n := 0
	for _, c := range d.Columns {
		if c.Kind != types.PhysicalColumn {
			continue
		}
		n++
		if i := slices.Index(before, c.Original); c.Original != "" && i >= 0 && i+1 != n {
			out = append(out, fmt.Sprintf("%s would read field %d instead of %d", sql.QuoteIdentIfNeeded(c.Name), n, i+1))
		}
	}
	return out
}

// missingRefs says which columns an expression refers to that the design
// does not have, naming what became of them: renamed (the expression must
// follow) or dropped. Flink refuses such expressions, and an ALTER plan
// must not stop half-way on them.
func (d *Design) missingRefs(expr string) []string {
	refs, err := table.ReferencedColumns(expr)
	if err != nil {
		return nil // the parse error is reported by the caller
	}
	var out []string
	for _, r := range refs {
		if d.column(r) >= 0 {
			continue
		}
		q := sql.QuoteIdentIfNeeded(r)
		switch i := slices.IndexFunc(d.Columns, func(c ColumnDesign) bool { return c.Original == r }); {
		case i >= 0:
			out = append(out, fmt.Sprintf("refers to %s, which is renamed to %s: change the expression too", q, sql.QuoteIdentIfNeeded(d.Columns[i].Name)))
		case d.original != nil && d.original.column(r) >= 0:
			out = append(out, fmt.Sprintf("refers to %s, which is dropped", q))
		default:
			out = append(out, fmt.Sprintf("refers to %s, which is not a column of the table", q))
		}
	}
	return out
}

// firstLine is an error's first line (parser errors go on to list what
// was expected).
func firstLine(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}

// Errors returns the problems that are not warnings.
func Errors(ps []Problem) []Problem {
	return slices.DeleteFunc(slices.Clone(ps), func(p Problem) bool { return p.Warning })
}

// quoteString writes a SQL string literal.
func quoteString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// pathSQL renders a name as SQL.
func pathSQL(parts []string) string {
	q := make([]string, len(parts))
	for i, p := range parts {
		q[i] = sql.QuoteIdentIfNeeded(p)
	}
	return strings.Join(q, ".")
}

// columnSQL renders a column definition.
func (c ColumnDesign) columnSQL() string {
	var b strings.Builder
	b.WriteString(sql.QuoteIdentIfNeeded(c.Name))
	if c.Kind == types.ComputedColumn {
		b.WriteString(" AS " + c.Expr)
	} else {
		b.WriteString(" " + c.Type.SQL())
		if c.NotNull {
			b.WriteString(" NOT NULL")
		}
		if c.Kind == types.MetadataColumn {
			b.WriteString(" METADATA")
			if c.MetadataKey != "" && c.MetadataKey != c.Name {
				b.WriteString(" FROM " + quoteString(c.MetadataKey))
			}
			if c.Virtual {
				b.WriteString(" VIRTUAL")
			}
		}
	}
	if c.Comment != "" {
		b.WriteString(" COMMENT " + quoteString(c.Comment))
	}
	return b.String()
}

func identList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = sql.QuoteIdentIfNeeded(n)
	}
	return strings.Join(q, ", ")
}

// CreateTableSQL is the live preview: the CREATE TABLE statement the
// design runs, in the formatter's style when it parses (otherwise as
// generated, so the user sees what is wrong).
func (d *Design) CreateTableSQL() string {
	var b strings.Builder
	b.WriteString("CREATE ")
	if d.Temporary {
		b.WriteString("TEMPORARY ")
	}
	b.WriteString("TABLE " + pathSQL(d.Path) + " (")
	var parts []string
	for _, c := range d.Columns {
		parts = append(parts, c.columnSQL())
	}
	if len(d.PrimaryKey) > 0 {
		parts = append(parts, "PRIMARY KEY ("+identList(d.PrimaryKey)+") NOT ENFORCED")
	}
	if w := d.Watermark; w != nil {
		parts = append(parts, "WATERMARK FOR "+sql.QuoteIdentIfNeeded(w.Column)+" AS "+w.SQL())
	}
	for i, p := range parts {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n  " + p)
	}
	b.WriteString("\n)")
	if d.Comment != "" {
		b.WriteString("\nCOMMENT " + quoteString(d.Comment))
	}
	if len(d.PartitionBy) > 0 {
		b.WriteString("\nPARTITIONED BY (" + identList(d.PartitionBy) + ")")
	}
	b.WriteString("\nWITH (")
	opts := append([]OptionValue{{"connector", d.Connector}}, d.Options...)
	for i, o := range opts {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n  " + quoteString(o.Key) + " = " + quoteString(o.Value))
	}
	b.WriteString("\n)")
	return normalize(b.String())
}

// normalize pretty-prints a generated statement with the formatter, or
// returns it unchanged when it does not parse.
func normalize(stmt string) string {
	out, err := sql.FormatSQL(stmt)
	if err != nil {
		return stmt
	}
	return strings.TrimSuffix(out, ";\n")
}

// DesignFromTable fills the designer from an existing table (its resolved
// schema and options), for changing it with Changes.
func DesignFromTable(info *TableInfo) (*Design, error) {
	if info.Kind != catalog.KindTable {
		return nil, fmt.Errorf("%s is a view; the table designer edits tables", info.ID)
	}
	d := &Design{Path: []string{info.ID.Catalog, info.ID.Database, info.ID.Object}, Temporary: info.Temporary,
		Comment: info.Comment, PartitionBy: slices.Clone(info.PartitionKeys), id: info.ID}
	s := info.Schema
	for _, c := range s.Columns {
		cd := ColumnDesign{Name: c.Name, Kind: c.Kind, Comment: c.Comment, Original: c.Name}
		switch c.Kind {
		case types.ComputedColumn:
			cd.Expr = compactExpr(c.Expr)
		default:
			cd.Type = TypeSpecOf(c.Type)
			cd.NotNull = !c.Type.Nullable
			if c.Kind == types.MetadataColumn {
				if c.MetadataKey != c.Name {
					cd.MetadataKey = c.MetadataKey
				}
				cd.Virtual = c.Virtual
			}
		}
		d.Columns = append(d.Columns, cd)
	}
	if pk := s.PrimaryKey; pk != nil {
		d.PrimaryKey = slices.Clone(pk.Columns)
	}
	if len(s.Watermarks) > 0 {
		d.Watermark = watermarkOf(s.Watermarks[0])
	}
	keys := make([]string, 0, len(info.Options))
	for k := range info.Options {
		if k != "connector" {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool { return optionOrder(keys[i]) < optionOrder(keys[j]) })
	d.Connector = info.Options["connector"]
	for _, k := range keys {
		d.Options = append(d.Options, OptionValue{k, info.Options[k]})
	}
	orig := d.Clone()
	d.original = orig
	return d, nil
}

// optionOrder sorts options as people write them: path and format first,
// then the rest alphabetically.
func optionOrder(k string) string {
	switch k {
	case "path":
		return "0"
	case "format":
		return "1"
	}
	return "2" + k
}

// compactExpr re-prints a stored expression (canonical: every identifier
// backquoted) with backquotes only where they are needed.
func compactExpr(s string) string {
	if _, err := sql.ParseExpr(s); err != nil {
		return s
	}
	return unquoteIdents(s)
}

// unquoteIdents drops the backquotes of identifiers that do not need them.
func unquoteIdents(s string) string {
	var b strings.Builder
	last := 0
	for _, t := range sql.Tokenize(s) {
		if t.Kind == sql.TokQuotedIdent && sql.QuoteIdentIfNeeded(t.Value) == t.Value {
			b.WriteString(s[last:t.Pos.Offset])
			b.WriteString(t.Value)
			last = t.End
		}
	}
	b.WriteString(s[last:])
	return b.String()
}

// watermarkOf reads "col - INTERVAL 'n' UNIT" and "col" back into a delay;
// other strategies stay custom expressions.
func watermarkOf(w types.WatermarkSpec) *Watermark {
	out := &Watermark{Column: w.RowtimeAttribute}
	e, err := sql.ParseExpr(w.Expr)
	if err != nil {
		out.Expr = w.Expr
		return out
	}
	isCol := func(x sql.Expr) bool {
		id, ok := x.(*sql.Identifier)
		return ok && len(id.Parts) == 1 && id.Parts[0].Name == w.RowtimeAttribute
	}
	if isCol(e) {
		return out
	}
	if b, ok := e.(*sql.BinaryExpr); ok && b.Op == "-" && isCol(b.X) {
		if iv, ok := b.Y.(*sql.IntervalLit); ok && !iv.Negative && iv.Qualifier.EndUnit == "" &&
			iv.Qualifier.StartPrecision < 0 && iv.Qualifier.FracPrecision < 0 {
			if _, known := unitSeconds[iv.Qualifier.StartUnit]; known {
				out.Delay, out.Unit = iv.Value, iv.Qualifier.StartUnit
				return out
			}
		}
	}
	out.Expr = unquoteIdents(w.Expr)
	return out
}

// Clone returns a deep copy (without the link to the original table).
func (d *Design) Clone() *Design {
	c := *d
	c.Path = slices.Clone(d.Path)
	c.Columns = slices.Clone(d.Columns)
	for i := range c.Columns {
		c.Columns[i].Type.Params = slices.Clone(d.Columns[i].Type.Params)
	}
	c.PrimaryKey = slices.Clone(d.PrimaryKey)
	c.PartitionBy = slices.Clone(d.PartitionBy)
	c.Options = slices.Clone(d.Options)
	if d.Watermark != nil {
		w := *d.Watermark
		c.Watermark = &w
	}
	c.original = nil
	return &c
}
