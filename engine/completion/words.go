package completion

import (
	"sort"
	"strings"

	"github.com/riffle-sql/riffle/engine/sql"
)

// MaxWords caps the candidates Words returns.
const MaxWords = 200

// Words is the completion of the SQL Gateway's complete-statement endpoint
// (Riffle's gateway, and the embedded table.Engine): whole words, no
// ranges or kinds, for the word that ends at byte offset in script.
//
// The candidates are Complete's, as words (an identifier backquoted when
// it needs it, a function's name without its parenthesis), then — except
// where the position asks for a catalog object (after FROM, JOIN, INTO,
// USE, a qualifier "db." …) or an option of WITH (…) — every word that
// may follow, in groups each sorted by name: the columns of every table
// the statement names, tables and views, databases, catalogs, keywords and
// functions, so that a context Complete does not know still gets an
// answer. Only inside a string literal or a comment is the list empty
// (never nil). Duplicates are dropped; at most MaxWords are returned.
func Words(script string, offset int, cat Catalog) []string {
	offset = max(0, min(offset, len(script)))
	r := Complete(script, offset, cat)
	w := &wordList{prefix: strings.ToLower(r.Prefix), seen: map[string]bool{}, out: []string{}}
	for _, it := range r.Items {
		w.push(itemWord(it)) // Complete matched them with the prefix
	}
	switch r.Context {
	case "comment", "string", "table", "qualified", "database", "catalog", "option key", "option value", "option":
		return w.out
	}
	if cat != nil {
		var cols []string
		for _, path := range objectNames(script) {
			if meta, ok := cat.Table(path); ok {
				for _, c := range meta.Columns {
					cols = append(cols, c.Name)
				}
			}
		}
		w.group(cols, true)
		var tables []string
		for _, o := range cat.Tables(cat.CurrentCatalog(), cat.CurrentDatabase()) {
			tables = append(tables, o.Name)
		}
		w.group(tables, true)
		w.group(cat.Databases(cat.CurrentCatalog()), true)
		w.group(cat.Catalogs(), true)
	}
	var kws []string
	for _, k := range sql.Keywords() {
		kws = append(kws, k.Word)
	}
	w.group(kws, false)
	if cat != nil {
		var fns []string
		for _, f := range cat.Functions() {
			fns = append(fns, f.Name)
		}
		w.group(fns, false)
	}
	return w.out
}

// itemWord is the word an item stands for.
func itemWord(it Item) string {
	if it.Kind == KindFunction {
		return it.Label
	}
	return it.Insert
}

// wordList collects words that start with prefix (case-insensitive), once
// each, MaxWords at most.
type wordList struct {
	prefix string
	seen   map[string]bool
	out    []string
}

// add adds a word that starts with the prefix, backquoted when quote is
// set and it needs it.
func (w *wordList) add(s string, quote bool) {
	if !strings.HasPrefix(strings.ToLower(s), w.prefix) {
		return
	}
	if quote {
		s = sql.QuoteIdentIfNeeded(s)
	}
	w.push(s)
}

// push adds a word unless it is there or the list is full.
func (w *wordList) push(s string) {
	if len(w.out) >= MaxWords || s == "" || w.seen[s] {
		return
	}
	w.seen[s] = true
	w.out = append(w.out, s)
}

// group adds names sorted.
func (w *wordList) group(names []string, quote bool) {
	sorted := append([]string(nil), names...)
	sort.Strings(sorted)
	for _, n := range sorted {
		w.add(n, quote)
	}
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
