package table

import (
	"slices"
	"unicode/utf16"

	"github.com/riffle-sql/riffle/engine/catalog"
	"github.com/riffle-sql/riffle/engine/completion"
)

// maxCompletions caps the candidates CompleteStatement returns.
const maxCompletions = completion.MaxWords

// CompleteStatement returns completion candidates for the word that ends at
// position in statement, as the SQL Gateway's complete-statement endpoint
// does: whole words that start with the typed prefix (case-insensitive),
// an empty list only inside a string literal or a comment. position is a
// character offset counted in UTF-16 code units (Java's String index, as
// Flink's endpoint counts); it is clamped to the statement.
//
// It is engine/completion's answer (the workbench's editor completion) as
// words (completion.Words): first what the position expects (after FROM
// or a qualifier "db." only the catalog objects there; columns of the
// tables in scope, functions and keywords in an expression…), then the
// columns of every table the statement names, tables and views,
// databases, catalogs, keywords and functions.
func CompleteStatement(env *TableEnvironment, statement string, position int) []string {
	return completion.Words(statement, utf16Offset(statement, position), CompletionCatalog(env))
}

// CompletionCatalog is what engine/completion reads of env: its catalogs,
// databases, tables, views and columns (temporary objects included), and
// the built-in and user-defined functions.
func CompletionCatalog(env *TableEnvironment) completion.Catalog { return envCatalog{env} }

type envCatalog struct{ env *TableEnvironment }

func (c envCatalog) CurrentCatalog() string  { return c.env.catalogs.CurrentCatalog() }
func (c envCatalog) CurrentDatabase() string { return c.env.catalogs.CurrentDatabase() }
func (c envCatalog) Catalogs() []string      { return c.env.catalogs.ListCatalogs() }

func (c envCatalog) Databases(name string) []string {
	cat, ok := c.env.catalogs.GetCatalog(name)
	if !ok {
		return nil
	}
	dbs, err := cat.ListDatabases()
	if err != nil {
		return nil
	}
	return dbs
}

func (c envCatalog) Tables(cat, db string) []completion.Object {
	m := c.env.catalogs
	names, err := m.ListTables(cat, db, nil)
	if err != nil {
		return nil
	}
	// views: the catalog's own list and the temporary ones (asking every
	// table its kind would read each table of a JDBC catalog's server)
	isView := map[string]bool{}
	if c, ok := m.GetCatalog(cat); ok {
		views, _ := c.ListViews(db)
		for _, v := range views {
			isView[v] = true
		}
	}
	for _, n := range m.ListTemporary(cat, db, nil) {
		isView[n] = false
	}
	view := catalog.KindView
	for _, n := range m.ListTemporary(cat, db, &view) {
		isView[n] = true
	}
	out := make([]completion.Object, len(names))
	for i, n := range names {
		out[i] = completion.Object{Name: n, View: isView[n]}
	}
	return out
}

func (c envCatalog) Table(path []string) (*completion.TableMeta, bool) {
	m := c.env.catalogs
	id, err := m.Qualify(path)
	if err != nil {
		return nil, false
	}
	rt, ok, err := m.GetTable(id)
	if err != nil || !ok {
		return nil, false
	}
	meta := &completion.TableMeta{Options: rt.Table.Options()}
	for _, col := range rt.Table.Schema().Columns {
		meta.Columns = append(meta.Columns, completion.Column{Name: col.Name, Type: col.Type.String()})
	}
	return meta, true
}

func (c envCatalog) Functions() []completion.Function {
	out := completion.BuiltinFunctions()
	for _, name := range c.env.funcs.userNames() {
		out = append(out, completion.Function{Name: name, Signatures: []string{name + "(...)"}})
	}
	slices.SortFunc(out, func(a, b completion.Function) int {
		switch {
		case a.Name < b.Name:
			return -1
		case a.Name > b.Name:
			return 1
		}
		return 0
	})
	return out
}

// utf16Offset converts an offset in UTF-16 code units to a byte offset,
// clamped to [0, len(s)].
func utf16Offset(s string, units int) int {
	if units <= 0 {
		return 0
	}
	n := 0
	for i, r := range s {
		if n >= units {
			return i
		}
		n += len(utf16.Encode([]rune{r}))
	}
	return len(s)
}
