package completion

import (
	"strings"

	"github.com/riffle-sql/riffle/engine/sql"
)

// statementStarts are the beginnings of statements offered at the start.
var statementStarts = []string{
	"SELECT", "INSERT INTO", "INSERT OVERWRITE", "WITH", "VALUES",
	"CREATE TABLE", "CREATE TEMPORARY TABLE", "CREATE VIEW", "CREATE TEMPORARY VIEW",
	"CREATE DATABASE", "CREATE CATALOG", "CREATE FUNCTION", "CREATE TEMPORARY FUNCTION",
	"ALTER TABLE", "ALTER VIEW", "ALTER DATABASE", "DROP TABLE", "DROP VIEW", "DROP DATABASE",
	"DROP CATALOG", "DROP FUNCTION", "DESCRIBE", "EXPLAIN", "SHOW CATALOGS", "SHOW DATABASES",
	"SHOW TABLES", "SHOW VIEWS", "SHOW FUNCTIONS", "SHOW COLUMNS FROM", "SHOW CREATE TABLE",
	"SHOW JOBS", "SHOW MODULES", "USE", "USE CATALOG", "SET", "RESET", "EXECUTE STATEMENT SET",
	"BEGIN STATEMENT SET", "END", "STOP JOB", "LOAD MODULE", "UNLOAD MODULE", "TRUNCATE TABLE",
}

func statementItems() []Item { return keywordItems(statementStarts...) }

func keywordItems(words ...string) []Item {
	out := make([]Item, len(words))
	for i, w := range words {
		out[i] = Item{Label: w, Insert: w, Kind: KindKeyword}
	}
	return out
}

// allKeywords lists every keyword of the dialect.
func allKeywords() []Item {
	kws := sql.Keywords()
	out := make([]Item, 0, len(kws))
	for _, k := range kws {
		out = append(out, Item{Label: k.Word, Insert: k.Word, Kind: KindKeyword})
	}
	return out
}

// typeItems lists the data type names.
func typeItems() []Item {
	names := []string{"BOOLEAN", "TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE", "DECIMAL",
		"CHAR", "VARCHAR", "STRING", "BINARY", "VARBINARY", "BYTES", "DATE", "TIME", "TIMESTAMP",
		"TIMESTAMP_LTZ", "INTERVAL", "ARRAY", "MAP", "MULTISET", "ROW", "RAW", "VARIANT"}
	details := map[string]string{"DECIMAL": "DECIMAL(p, s)", "CHAR": "CHAR(n)", "VARCHAR": "VARCHAR(n)",
		"BINARY": "BINARY(n)", "VARBINARY": "VARBINARY(n)", "TIME": "TIME(p)", "TIMESTAMP": "TIMESTAMP(p)",
		"TIMESTAMP_LTZ": "TIMESTAMP_LTZ(p)", "ARRAY": "ARRAY<t>", "MAP": "MAP<k, v>", "MULTISET": "MULTISET<t>",
		"ROW": "ROW<name type, ...>", "INTERVAL": "INTERVAL DAY TO SECOND(3)", "STRING": "VARCHAR(2147483647)"}
	out := make([]Item, len(names))
	for i, n := range names {
		out[i] = Item{Label: n, Insert: n, Kind: KindType, Detail: details[n]}
	}
	return out
}

func (c *completer) currentCatalog() string {
	if c.cat == nil {
		return ""
	}
	return c.cat.CurrentCatalog()
}

// ident renders a name for insertion: backquoted when needed or when the
// user started with a backquote.
func (c *completer) ident(name string) string {
	if c.a.quoted {
		return sql.QuoteIdent(name)
	}
	return sql.QuoteIdentIfNeeded(name)
}

func (c *completer) catalogItems() []Item {
	if c.cat == nil {
		return nil
	}
	var out []Item
	for _, n := range c.cat.Catalogs() {
		out = append(out, Item{Label: n, Insert: c.ident(n), Kind: KindCatalog})
	}
	return out
}

func (c *completer) databaseItems(cat string) []Item {
	if c.cat == nil {
		return nil
	}
	var out []Item
	for _, n := range c.cat.Databases(cat) {
		out = append(out, Item{Label: n, Insert: c.ident(n), Kind: KindDatabase, Detail: "database of " + cat})
	}
	return out
}

func (c *completer) objectItems(cat, db string) []Item {
	if c.cat == nil {
		return nil
	}
	var out []Item
	for _, o := range c.cat.Tables(cat, db) {
		k := KindTable
		if o.View {
			k = KindView
		}
		out = append(out, Item{Label: o.Name, Insert: c.ident(o.Name), Kind: k, Detail: k.String()})
	}
	return out
}

// tableItems lists the tables and views of the current database, then the
// databases and catalogs that qualify other names.
func (c *completer) tableItems() []Item {
	if c.cat == nil {
		return nil
	}
	out := c.objectItems(c.cat.CurrentCatalog(), c.cat.CurrentDatabase())
	out = append(out, c.databaseItems(c.cat.CurrentCatalog())...)
	return append(out, c.catalogItems()...)
}

// qualified completes after "name." or "a.b.": columns of a table in
// scope (by alias or name), tables of a database, databases of a catalog.
func (c *completer) qualified() []Item {
	b := c.a.before
	// read the qualifier parts backwards: ident . ident . [cursor]
	var parts []string
	i := len(b) - 1
	for i >= 1 && isOp(b[i], ".") {
		name, ok := identName(b[i-1])
		if !ok {
			break
		}
		parts = append([]string{name}, parts...)
		i -= 2
	}
	if len(parts) == 0 || c.cat == nil {
		return nil
	}
	var out []Item
	// a table of the statement, by alias or (last part of its) name
	if len(parts) == 1 {
		for _, ref := range c.scope() {
			if ref.alias == parts[0] || (ref.alias == "" && ref.path[len(ref.path)-1] == parts[0]) {
				out = append(out, c.columnItems(ref, false)...)
			}
		}
	}
	// a table named in full: its columns (cat.db.t. or db.t.)
	if len(parts) >= 2 {
		if meta, ok := c.cat.Table(parts); ok {
			for _, col := range meta.Columns {
				out = append(out, Item{Label: col.Name, Insert: c.ident(col.Name), Kind: KindColumn, Detail: col.Type})
			}
		}
	}
	switch len(parts) {
	case 1:
		// catalog. → databases; database. → tables of the current catalog
		for _, cat := range c.cat.Catalogs() {
			if cat == parts[0] {
				out = append(out, c.databaseItems(cat)...)
			}
		}
		for _, db := range c.cat.Databases(c.cat.CurrentCatalog()) {
			if db == parts[0] {
				out = append(out, c.objectItems(c.cat.CurrentCatalog(), db)...)
			}
		}
	case 2:
		out = append(out, c.objectItems(parts[0], parts[1])...)
	}
	return out
}

// tableRef is a table of the statement's FROM clauses.
type tableRef struct {
	path  []string
	alias string
	// window is set for a window TVF over the table (adds window_start,
	// window_end and window_time).
	window bool
}

// clauseWords end a table reference; they cannot be aliases.
var clauseWords = map[string]bool{"WHERE": true, "JOIN": true, "LEFT": true, "RIGHT": true, "FULL": true,
	"INNER": true, "CROSS": true, "ON": true, "GROUP": true, "ORDER": true, "LIMIT": true, "UNION": true,
	"HAVING": true, "WINDOW": true, "USING": true, "NATURAL": true, "FOR": true, "LATERAL": true,
	"OUTER": true, "EXCEPT": true, "INTERSECT": true, "MINUS": true, "QUALIFY": true, "OFFSET": true,
	"FETCH": true, "SELECT": true, "VALUES": true, "PARTITION": true, "SET": true, "AS": true}

// readPath reads a dotted name starting at toks[i]; it returns the parts
// and the index after the name.
func (c *completer) readPath(toks []sql.Token, i int) ([]string, int) {
	var parts []string
	for i >= 0 && i < len(toks) {
		name, ok := identName(toks[i])
		if !ok || (toks[i].Kind == sql.TokIdent && sql.IsReserved(name) && !strings.EqualFold(name, "default")) {
			break
		}
		if c.a.word != nil && toks[i].Pos.Offset == c.a.word.Pos.Offset {
			break // the word being typed is not a name yet
		}
		parts = append(parts, name)
		i++
		if i < len(toks) && isOp(toks[i], ".") {
			i++
			continue
		}
		break
	}
	return parts, i
}

// readAlias reads an optional [AS] alias at toks[i].
func readAlias(toks []sql.Token, i int) string {
	if i < len(toks) && upper(toks[i]) == "AS" {
		i++
	}
	if i >= len(toks) {
		return ""
	}
	name, ok := identName(toks[i])
	if !ok || (toks[i].Kind == sql.TokIdent && (clauseWords[strings.ToUpper(name)] || sql.IsReserved(name))) {
		return ""
	}
	return name
}

// scope finds the tables of the statement: after FROM and JOIN (and
// commas of a FROM list), window TVFs TABLE(TUMBLE(TABLE t, ...)), the
// target of INSERT INTO and UPDATE. Subqueries contribute their tables
// too: completion offers columns, it does not bind names.
func (c *completer) scope() []tableRef {
	toks := c.a.toks
	var refs []tableRef
	for i := 0; i < len(toks); i++ {
		u := upper(toks[i])
		switch {
		case u == "FROM" || u == "JOIN" || u == "UPDATE" || (u == "INTO" && i > 0 && upper(toks[i-1]) == "INSERT"):
			refs = append(refs, c.tableAt(i+1)...)
		case isOp(toks[i], ",") && c.inFromList(i):
			refs = append(refs, c.tableAt(i+1)...)
		}
	}
	return refs
}

// inFromList reports whether the comma at toks[i] separates FROM items.
func (c *completer) inFromList(i int) bool {
	toks := c.a.toks
	depth := 0
	for j := i - 1; j >= 0; j-- {
		switch {
		case isOp(toks[j], ")"):
			depth++
		case isOp(toks[j], "("):
			if depth == 0 {
				return false
			}
			depth--
		case depth == 0:
			switch upper(toks[j]) {
			case "FROM":
				return true
			case "SELECT", "WHERE", "GROUP", "ORDER", "HAVING", "ON", "SET", "VALUES", "BY":
				return false
			}
		}
	}
	return false
}

// tableAt reads the FROM item at toks[i]: a table with an alias, or a
// window TVF TABLE(F(TABLE t ...)) with an alias.
func (c *completer) tableAt(i int) []tableRef {
	toks := c.a.toks
	if i >= len(toks) {
		return nil
	}
	if upper(toks[i]) == "TABLE" && i+1 < len(toks) && isOp(toks[i+1], "(") {
		// TABLE( fn ( TABLE name ... ) ) [AS] alias
		depth := 0
		var inner []string
		end := -1
		for j := i + 1; j < len(toks); j++ {
			switch {
			case isOp(toks[j], "("):
				depth++
			case isOp(toks[j], ")"):
				depth--
				if depth == 0 {
					end = j
				}
			case upper(toks[j]) == "TABLE" && inner == nil:
				inner, _ = c.readPath(toks, j+1)
			}
			if end >= 0 {
				break
			}
		}
		if inner == nil {
			return nil
		}
		ref := tableRef{path: inner, window: true}
		if end >= 0 {
			ref.alias = readAlias(toks, end+1)
		}
		return []tableRef{ref}
	}
	if isOp(toks[i], "(") || upper(toks[i]) == "LATERAL" || upper(toks[i]) == "UNNEST" {
		return nil // subquery or table function: its own FROM is scanned
	}
	path, next := c.readPath(toks, i)
	if len(path) == 0 {
		return nil
	}
	return []tableRef{{path: path, alias: readAlias(toks, next)}}
}

// columnItems lists a table's columns; qualify prefixes them with the
// table's alias or name (when several tables are in scope).
func (c *completer) columnItems(ref tableRef, qualify bool) []Item {
	meta, ok := c.cat.Table(ref.path)
	if !ok {
		return nil
	}
	q := ref.alias
	if q == "" {
		q = ref.path[len(ref.path)-1]
	}
	cols := meta.Columns
	if ref.window {
		cols = append(append([]Column(nil), cols...), Column{"window_start", "TIMESTAMP(3)"}, Column{"window_end", "TIMESTAMP(3)"}, Column{"window_time", "TIMESTAMP(3) *ROWTIME*"})
	}
	var out []Item
	for _, col := range cols {
		it := Item{Label: col.Name, Insert: c.ident(col.Name), Kind: KindColumn, Detail: col.Type + " · " + q}
		if qualify {
			it.Label = q + "." + col.Name
			it.Insert = sql.QuoteIdentIfNeeded(q) + "." + c.ident(col.Name)
		}
		out = append(out, it)
	}
	return out
}

// expressionItems lists the columns in scope, the functions and the
// keywords. With several tables in scope, columns are offered plain and
// qualified by their table.
func (c *completer) expressionItems() []Item {
	var cols, funcs []Item
	if c.cat != nil {
		refs := c.scope()
		for _, ref := range refs {
			cols = append(cols, c.columnItems(ref, false)...)
		}
		if len(refs) > 1 {
			for _, ref := range refs {
				cols = append(cols, c.columnItems(ref, true)...)
			}
		}
		for _, f := range c.cat.Functions() {
			detail := strings.Join(f.Signatures, "; ")
			funcs = append(funcs, Item{Label: f.Name, Insert: f.Name + "(", Kind: KindFunction, Detail: detail})
		}
	}
	out := append(cols, funcs...)
	return append(out, allKeywords()...)
}
