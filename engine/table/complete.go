package table

import (
	"sort"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/riffle-sql/riffle/engine/catalog"
	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/sql"
)

// maxCompletions caps the candidates CompleteStatement returns.
const maxCompletions = 200

// CompleteStatement returns completion candidates for the word that ends at
// position in statement, as the SQL Gateway's complete-statement endpoint
// does: whole words that start with the typed prefix (case-insensitive),
// never an empty list for lack of context. position is a character offset
// counted in UTF-16 code units (Java's String index, as Flink's endpoint
// counts); it is clamped to the statement.
//
// The candidates are, in this order: columns of the tables the statement
// names, tables and views, databases, catalogs, keywords and functions.
// After a qualifier ("db." or "cat.db.") only the objects under it are
// offered; after FROM, JOIN, INTO, TABLE, DESCRIBE and USE only catalog
// objects. Identifiers that need it are backquoted. It is a simple,
// context-light completer: it does not parse the statement.
func CompleteStatement(env *TableEnvironment, statement string, position int) []string {
	cursor := utf16Offset(statement, position)
	text := statement[:cursor]
	if inLiteralOrComment(text) {
		return []string{}
	}
	// the word being typed and its qualifier parts
	start := cursor
	for start > 0 {
		r, size := utf8.DecodeLastRuneInString(text[:start])
		if !isIdentRune(r) {
			break
		}
		start -= size
	}
	prefix := text[start:]
	qualifier, before := readQualifier(text[:start])
	prev := strings.ToUpper(lastWord(before))

	c := &completer{env: env, prefix: strings.ToLower(prefix), seen: map[string]bool{}}
	if len(qualifier) > 0 {
		c.qualified(qualifier)
		return c.out
	}
	switch prev {
	case "FROM", "JOIN", "INTO", "TABLE", "VIEW", "DESCRIBE", "DESC", "USE", "CATALOG", "DATABASE", "UPDATE":
		if prev != "USE" && prev != "CATALOG" && prev != "DATABASE" {
			c.tables(env.catalogs.CurrentCatalog(), env.catalogs.CurrentDatabase())
		}
		c.databases(env.catalogs.CurrentCatalog())
		c.catalogs()
		return c.out
	}
	c.columns(statement)
	c.tables(env.catalogs.CurrentCatalog(), env.catalogs.CurrentDatabase())
	c.databases(env.catalogs.CurrentCatalog())
	c.catalogs()
	c.keywords()
	c.functions()
	return c.out
}

type completer struct {
	env    *TableEnvironment
	prefix string
	seen   map[string]bool
	out    []string
}

func (c *completer) add(names []string, quote bool) {
	sorted := append([]string(nil), names...)
	sort.Strings(sorted)
	for _, n := range sorted {
		if len(c.out) >= maxCompletions {
			return
		}
		if !strings.HasPrefix(strings.ToLower(n), c.prefix) {
			continue
		}
		if quote {
			n = sql.QuoteIdentIfNeeded(n)
		}
		if !c.seen[n] {
			c.seen[n] = true
			c.out = append(c.out, n)
		}
	}
}

func (c *completer) catalogs() { c.add(c.env.catalogs.ListCatalogs(), true) }

func (c *completer) databases(cat string) {
	ct, err := c.env.catalogs.Catalog(cat)
	if err != nil {
		return
	}
	dbs, err := ct.ListDatabases()
	if err == nil {
		c.add(dbs, true)
	}
}

func (c *completer) tables(cat, db string) {
	names, err := c.env.catalogs.ListTables(cat, db, nil)
	if err == nil {
		c.add(names, true)
	}
}

func (c *completer) tableColumns(id catalog.ObjectIdentifier) bool {
	rt, ok, err := c.env.catalogs.GetTable(id)
	if err != nil || !ok {
		return false
	}
	var names []string
	for _, col := range rt.Table.Schema().Columns {
		names = append(names, col.Name)
	}
	c.add(names, true)
	return true
}

// columns offers the columns of every table the statement names.
func (c *completer) columns(statement string) {
	for _, parts := range objectNames(statement) {
		id, err := c.env.catalogs.Qualify(parts)
		if err == nil {
			c.tableColumns(id)
		}
	}
}

// qualified completes the last part of a dotted name.
func (c *completer) qualified(q []string) {
	m := c.env.catalogs
	switch len(q) {
	case 1:
		if _, ok := m.GetCatalog(q[0]); ok {
			c.databases(q[0])
		}
		if c.isDatabase(m.CurrentCatalog(), q[0]) {
			c.tables(m.CurrentCatalog(), q[0])
		}
		c.tableColumns(catalog.ObjectIdentifier{Catalog: m.CurrentCatalog(), Database: m.CurrentDatabase(), Object: q[0]})
	case 2:
		if c.isDatabase(q[0], q[1]) {
			c.tables(q[0], q[1])
		}
		c.tableColumns(catalog.ObjectIdentifier{Catalog: m.CurrentCatalog(), Database: q[0], Object: q[1]})
	case 3:
		c.tableColumns(catalog.ObjectIdentifier{Catalog: q[0], Database: q[1], Object: q[2]})
	}
}

func (c *completer) isDatabase(cat, db string) bool {
	ct, err := c.env.catalogs.Catalog(cat)
	if err != nil {
		return false
	}
	dbs, err := ct.ListDatabases()
	if err != nil {
		return false
	}
	for _, d := range dbs {
		if d == db {
			return true
		}
	}
	return false
}

func (c *completer) keywords() {
	kws := sql.Keywords()
	words := make([]string, len(kws))
	for i, k := range kws {
		words[i] = k.Word
	}
	c.add(words, false)
}

func (c *completer) functions() {
	var names []string
	for _, n := range expr.Builtins.Names() {
		names = append(names, strings.ToUpper(n))
	}
	names = append(names, c.env.funcs.userNames()...)
	c.add(names, false)
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

func isIdentRune(r rune) bool {
	return r == '_' || r == '$' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= 0x80 && r != utf8.RuneError
}

// readQualifier reads "a.b." (or "`a`.`b`.") backwards from the end of s:
// it returns the parts in order and the text before them.
func readQualifier(s string) ([]string, string) {
	var parts []string
	for strings.HasSuffix(s, ".") {
		s = s[:len(s)-1]
		var part string
		if strings.HasSuffix(s, "`") {
			i := strings.LastIndexByte(s[:len(s)-1], '`')
			if i < 0 {
				break
			}
			part = strings.ReplaceAll(s[i+1:len(s)-1], "``", "`")
			s = s[:i]
		} else {
			j := len(s)
			for j > 0 {
				r, size := utf8.DecodeLastRuneInString(s[:j])
				if !isIdentRune(r) {
					break
				}
				j -= size
			}
			if j == len(s) {
				break
			}
			part = s[j:]
			s = s[:j]
		}
		parts = append([]string{part}, parts...)
	}
	return parts, s
}

// lastWord returns the last identifier-like word of s.
func lastWord(s string) string {
	s = strings.TrimRightFunc(s, func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '(' || r == ',' })
	j := len(s)
	for j > 0 {
		r, size := utf8.DecodeLastRuneInString(s[:j])
		if !isIdentRune(r) {
			break
		}
		j -= size
	}
	return s[j:]
}

// inLiteralOrComment reports whether the end of text lies inside a string
// literal, a quoted identifier being typed does not count, or a comment.
func inLiteralOrComment(text string) bool {
	inStr, inLine, inBlock := false, false, false
	for i := 0; i < len(text); i++ {
		ch := text[i]
		switch {
		case inLine:
			if ch == '\n' {
				inLine = false
			}
		case inBlock:
			if ch == '*' && i+1 < len(text) && text[i+1] == '/' {
				inBlock = false
				i++
			}
		case inStr:
			if ch == '\'' {
				inStr = false
			}
		case ch == '\'':
			inStr = true
		case ch == '-' && i+1 < len(text) && text[i+1] == '-':
			inLine = true
		case ch == '/' && i+1 < len(text) && text[i+1] == '*':
			inBlock = true
		}
	}
	return inStr || inLine || inBlock
}

// objectNames returns the dotted names that follow FROM, JOIN, INTO, TABLE
// and UPDATE in a statement (the tables whose columns are worth offering).
func objectNames(statement string) [][]string {
	toks := sql.Tokenize(statement)
	var out [][]string
	for i := 0; i < len(toks); i++ {
		w := strings.ToUpper(toks[i].Text)
		if w != "FROM" && w != "JOIN" && w != "INTO" && w != "TABLE" && w != "UPDATE" {
			continue
		}
		var parts []string
		j := i + 1
		for ; j < len(toks); j++ {
			t := toks[j]
			if t.Kind == sql.TokComment {
				continue
			}
			if t.Kind != sql.TokIdent && t.Kind != sql.TokQuotedIdent {
				break
			}
			parts = append(parts, t.Value)
			if j+1 < len(toks) && toks[j+1].Kind == sql.TokOp && toks[j+1].Text == "." {
				j++
				continue
			}
			break
		}
		if len(parts) > 0 && len(parts) <= 3 {
			out = append(out, parts)
		}
		i = j
	}
	return out
}
