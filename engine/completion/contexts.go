package completion

import (
	"slices"
	"strings"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/sql"
)

type completer struct {
	a   *analysis
	cat Catalog
}

// run decides the context and gathers its candidates.
func (c *completer) run() (string, []Item) {
	b := c.a.before
	if ctx, items, ok := c.options(); ok {
		return ctx, items
	}
	if c.a.inString {
		return "string", nil
	}
	if len(b) > 0 && isOp(b[len(b)-1], ".") {
		return "qualified", c.qualified()
	}
	if c.typePosition() {
		return "type", typeItems()
	}
	if len(b) == 0 {
		return "statement", statementItems()
	}
	last := b[len(b)-1]
	lastKw := upper(last)
	first := upper(c.a.toks[0])
	switch lastKw {
	case "FROM", "JOIN", "INTO", "UPDATE", "TRUNCATE":
		return "table", c.tableItems()
	case "TABLE":
		if first == "CREATE" && !c.afterWord("LIKE") {
			return "new name", keywordItems("IF NOT EXISTS")
		}
		return "table", c.tableItems()
	case "DESCRIBE", "DESC":
		if len(b) == 1 {
			return "table", c.tableItems()
		}
	case "EXISTS":
		if len(b) >= 2 && upper(b[len(b)-2]) == "IF" && first != "CREATE" {
			return "table", c.tableItems()
		}
	case "LIKE":
		if first == "CREATE" {
			return "table", c.tableItems()
		}
	case "USE":
		return "database", append(c.databaseItems(c.currentCatalog()), append(c.catalogItems(), keywordItems("CATALOG", "MODULES")...)...)
	case "CATALOG":
		if len(b) >= 2 && (upper(b[len(b)-2]) == "USE" || upper(b[len(b)-2]) == "ALTER" || upper(b[len(b)-2]) == "DROP") {
			return "catalog", c.catalogItems()
		}
	case "DATABASE":
		if first != "CREATE" {
			return "database", c.databaseItems(c.currentCatalog())
		}
	case "IN":
		if first == "SHOW" {
			return "database", c.databaseItems(c.currentCatalog())
		}
	}
	if lastKw == "FROM" && first == "SHOW" {
		return "database", c.databaseItems(c.currentCatalog())
	}
	// a comma inside FROM continues the table list
	if isOp(last, ",") && c.clause() == "FROM" {
		return "table", c.tableItems()
	}
	if c.expressionPosition() {
		return "column", c.expressionItems()
	}
	return "keyword", append(c.nextKeywords(), allKeywords()...)
}

// afterWord reports whether the statement has the keyword before the cursor.
func (c *completer) afterWord(kw string) bool {
	for _, t := range c.a.before {
		if upper(t) == kw {
			return true
		}
	}
	return false
}

// innermostParen returns the index in before of the unmatched "(" that
// encloses the cursor, or -1.
func (c *completer) innermostParen() int {
	depth := 0
	b := c.a.before
	for i := len(b) - 1; i >= 0; i-- {
		switch {
		case isOp(b[i], ")"):
			depth++
		case isOp(b[i], "("):
			if depth == 0 {
				return i
			}
			depth--
		}
	}
	return -1
}

// clause is the last clause keyword at the cursor's nesting level.
func (c *completer) clause() string {
	depth := 0
	b := c.a.before
	for i := len(b) - 1; i >= 0; i-- {
		switch {
		case isOp(b[i], ")"):
			depth++
			continue
		case isOp(b[i], "("):
			if depth == 0 {
				return "("
			}
			depth--
			continue
		}
		if depth > 0 {
			continue
		}
		switch u := upper(b[i]); u {
		case "SELECT", "FROM", "WHERE", "HAVING", "ON", "JOIN", "SET", "VALUES", "LIMIT", "QUALIFY", "USING", "WINDOW":
			return u
		case "BY":
			if i > 0 {
				return upper(b[i-1]) + " BY" // GROUP BY, ORDER BY, PARTITION BY
			}
		}
	}
	return ""
}

// options handles the cursor inside WITH (...), ALTER TABLE SET/RESET
// (...) and OPTIONS(...) hints.
func (c *completer) options() (string, []Item, bool) {
	p := c.innermostParen()
	if p <= 0 {
		return "", nil, false
	}
	b := c.a.before
	kw := upper(b[p-1])
	switch kw {
	case "WITH", "OPTIONS", "SET", "RESET":
	default:
		return "", nil, false
	}
	if kw == "WITH" && (len(b) < 2 || upper(b[0]) == "WITH" || upper(b[0]) == "SELECT") {
		return "", nil, false // a CTE: WITH name AS (...)
	}
	if (kw == "SET" || kw == "RESET") && upper(b[0]) != "ALTER" {
		return "", nil, false
	}
	opts, keys := c.optionList(p)
	conn := opts["connector"]
	var colNames []string
	if upper(b[0]) == "ALTER" || kw == "OPTIONS" {
		// the table's own options
		if path := c.alteredTable(); path != nil && c.cat != nil {
			if meta, ok := c.cat.Table(path); ok {
				for k, v := range meta.Options {
					if _, set := opts[k]; !set {
						opts[k] = v
					}
				}
				for _, col := range meta.Columns {
					colNames = append(colNames, col.Name)
				}
				if conn == "" {
					conn = opts["connector"]
				}
			}
		}
	} else {
		colNames = c.definedColumns()
	}
	last := b[len(b)-1]
	switch {
	case isOp(last, "(") || isOp(last, ","):
		return "option key", c.optionKeys(kw == "RESET", conn, opts["format"], keys, colNames), true
	case isOp(last, "=") && len(b) >= 2 && b[len(b)-2].Kind == sql.TokString && kw != "RESET":
		return "option value", optionValues(b[len(b)-2].Value, conn, opts["format"], colNames), true
	}
	return "option", nil, true
}

// optionList reads the 'key' = 'value' pairs of the list opened at before[p]
// (the whole list, also after the cursor) and the keys in order.
func (c *completer) optionList(p int) (map[string]string, []string) {
	out := map[string]string{}
	var keys []string
	toks := c.a.toks
	// find before[p] in toks
	start := -1
	for i, t := range toks {
		if t.Pos.Offset == c.a.before[p].Pos.Offset {
			start = i
			break
		}
	}
	if start < 0 {
		return out, nil
	}
	for i := start + 1; i < len(toks); i++ {
		t := toks[i]
		if isOp(t, ")") {
			break
		}
		if t.Kind == sql.TokString && c.a.word != nil && t.Pos.Offset == c.a.word.Pos.Offset {
			continue // the word being typed
		}
		if t.Kind == sql.TokString && (i == start+1 || isOp(toks[i-1], ",")) {
			keys = append(keys, t.Value)
			if i+2 < len(toks) && isOp(toks[i+1], "=") && toks[i+2].Kind == sql.TokString {
				out[t.Value] = toks[i+2].Value
			} else {
				out[t.Value] = ""
			}
		}
	}
	return out, keys
}

// alteredTable returns the name after ALTER TABLE (or the table a hint is
// attached to).
func (c *completer) alteredTable() []string {
	b := c.a.before
	for i := 0; i+1 < len(b); i++ {
		u := upper(b[i])
		if u == "TABLE" || u == "FROM" || u == "JOIN" {
			j := i + 1
			if upper(b[j]) == "IF" && j+2 < len(b) {
				j += 2
			}
			if path, _ := c.readPath(c.a.toks, c.index(b[j])); len(path) > 0 {
				return path
			}
		}
	}
	return nil
}

// index returns the index of token t in a.toks.
func (c *completer) index(t sql.Token) int {
	for i, x := range c.a.toks {
		if x.Pos.Offset == t.Pos.Offset {
			return i
		}
	}
	return -1
}

// definedColumns lists the column names of the CREATE TABLE schema list
// of the statement.
func (c *completer) definedColumns() []string {
	toks := c.a.toks
	if len(toks) == 0 || upper(toks[0]) != "CREATE" {
		return nil
	}
	open := -1
	for i, t := range toks {
		if isOp(t, "(") {
			open = i
			break
		}
	}
	if open < 0 {
		return nil
	}
	var out []string
	depth := 0
	for i := open; i < len(toks); i++ {
		t := toks[i]
		switch {
		case isOp(t, "("):
			depth++
			continue
		case isOp(t, ")"):
			depth--
			if depth == 0 {
				return out
			}
			continue
		}
		if depth == 1 && (isOp(toks[i-1], "(") || isOp(toks[i-1], ",")) {
			switch upper(t) {
			case "WATERMARK", "PRIMARY", "CONSTRAINT", "PERIOD", "UNIQUE":
				continue
			}
			if name, ok := identName(t); ok && (c.a.word == nil || t.Pos.Offset != c.a.word.Pos.Offset) {
				out = append(out, name)
			}
		}
	}
	return out
}

// optionKeys lists the keys not yet set: 'connector', the connector's
// options (with per-field templates expanded for the columns) and the
// format's options.
func (c *completer) optionKeys(reset bool, conn, format string, set []string, cols []string) []Item {
	var items []Item
	add := func(o connector.Option, key string) {
		if slices.Contains(set, key) && !reset {
			return
		}
		items = append(items, Item{Label: key, Insert: quote(key), Kind: KindOptionKey, Detail: optionDetail(o)})
	}
	if conn == "" && !reset {
		add(connector.Option{Key: "connector", Required: true, Description: "The connector: " + strings.Join(connector.Identifiers(), ", ")}, "connector")
	}
	for _, o := range connector.DeclaredOptions(conn) {
		if strings.Contains(o.Key, "#") {
			for _, col := range cols {
				add(o, strings.Replace(o.Key, "#", col, 1))
			}
			continue
		}
		add(o, o.Key)
	}
	if format != "" {
		for _, o := range connector.DeclaredFormatOptions(format) {
			add(o, o.Key)
		}
	}
	return items
}

// optionValues lists the known values of an option.
func optionValues(key, conn, format string, cols []string) []Item {
	val := func(v, detail string) Item {
		return Item{Label: v, Insert: quote(v), Kind: KindOptionValue, Detail: detail}
	}
	switch key {
	case "connector":
		var out []Item
		for _, id := range connector.Identifiers() {
			out = append(out, val(id, "connector"))
		}
		return out
	case "format", "key.format", "value.format":
		var out []Item
		for _, id := range connector.FormatIdentifiers() {
			out = append(out, val(id, "format"))
		}
		return out
	}
	decl := connector.DeclaredOptions(conn)
	if format != "" {
		decl = append(decl, connector.DeclaredFormatOptions(format)...)
	}
	for _, o := range decl {
		if !keyMatches(o.Key, key) {
			continue
		}
		var out []Item
		switch o.Kind {
		case "enum":
			for _, v := range o.Values {
				out = append(out, val(v, defaultNote(o, v)))
			}
		case "bool":
			out = append(out, val("true", defaultNote(o, "true")), val("false", defaultNote(o, "false")))
		default:
			if o.Default != "" {
				out = append(out, val(o.Default, "default"))
			}
		}
		return out
	}
	return nil
}

func defaultNote(o connector.Option, v string) string {
	if strings.EqualFold(o.Default, v) {
		return "default"
	}
	return ""
}

// keyMatches matches a declared key ('#' = a field path) with a written key.
func keyMatches(decl, key string) bool {
	if decl == key {
		return true
	}
	pre, post, ok := strings.Cut(decl, "#")
	return ok && strings.HasPrefix(key, pre) && strings.HasSuffix(key, post) && len(key) > len(pre)+len(post)
}

func optionDetail(o connector.Option) string {
	var parts []string
	if o.Required {
		parts = append(parts, "required")
	}
	if o.Default != "" {
		parts = append(parts, "default '"+o.Default+"'")
	}
	if len(o.Values) > 0 {
		parts = append(parts, strings.Join(o.Values, " | "))
	}
	if o.Description != "" {
		parts = append(parts, o.Description)
	}
	return strings.Join(parts, "; ")
}

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// typePosition reports a cursor where a data type is expected: after a
// column name in a CREATE TABLE (or ALTER TABLE ADD/MODIFY) column list,
// after CAST(x AS, and after ADD/MODIFY column name.
func (c *completer) typePosition() bool {
	b := c.a.before
	n := len(b)
	if n >= 1 && upper(b[n-1]) == "AS" {
		if p := c.innermostParen(); p > 0 && (upper(b[p-1]) == "CAST" || upper(b[p-1]) == "TRY_CAST") {
			return true
		}
	}
	if n < 2 {
		return false
	}
	if _, ok := identName(b[n-1]); !ok {
		return false
	}
	if upper(b[n-1]) != "" && sql.IsReserved(b[n-1].Text) {
		return false
	}
	prev := b[n-2]
	if u := upper(prev); (u == "ADD" || u == "MODIFY") && upper(b[0]) == "ALTER" {
		return true
	}
	if !(isOp(prev, "(") || isOp(prev, ",")) {
		return false
	}
	p := c.innermostParen()
	if p <= 0 {
		return false
	}
	// the list must be a CREATE TABLE schema or ALTER TABLE ADD/MODIFY (...)
	first := upper(b[0])
	switch {
	case first == "CREATE" && c.afterWord("TABLE") && !c.afterWord("WITH"):
		// the schema list is the first "(" after the table name
		for i := 0; i < p; i++ {
			if isOp(b[i], "(") {
				return false
			}
		}
		return true
	case first == "ALTER":
		u := upper(b[p-1])
		return u == "ADD" || u == "MODIFY"
	}
	return false
}

// expressionPosition reports whether the cursor is where a column or
// function may appear.
func (c *completer) expressionPosition() bool {
	b := c.a.before
	last := b[len(b)-1]
	switch c.clause() {
	case "SELECT", "WHERE", "HAVING", "ON", "GROUP BY", "ORDER BY", "PARTITION BY", "QUALIFY", "(", "SET", "VALUES":
	default:
		return false
	}
	if last.Kind == sql.TokOp {
		return !isOp(last, ")") && !isOp(last, ".")
	}
	switch upper(last) {
	case "SELECT", "WHERE", "HAVING", "ON", "BY", "AND", "OR", "NOT", "WHEN", "THEN", "ELSE", "CASE",
		"DISTINCT", "ALL", "IN", "LIKE", "BETWEEN", "IS", "DESCRIPTOR":
		return true
	}
	return false
}

// nextKeywords suggests the keywords that usually follow what was typed,
// ahead of the full keyword list.
func (c *completer) nextKeywords() []Item {
	switch c.clause() {
	case "FROM", "JOIN":
		return keywordItems("WHERE", "JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN", "CROSS JOIN", "ON", "AS", "GROUP BY", "ORDER BY", "LIMIT", "UNION ALL")
	case "WHERE", "ON":
		return keywordItems("AND", "OR", "GROUP BY", "ORDER BY", "LIMIT", "IS NULL", "IS NOT NULL", "IN", "LIKE", "BETWEEN")
	case "SELECT":
		return keywordItems("FROM", "AS")
	case "GROUP BY":
		return keywordItems("HAVING", "ORDER BY", "LIMIT")
	case "ORDER BY":
		return keywordItems("ASC", "DESC", "LIMIT")
	}
	return nil
}
