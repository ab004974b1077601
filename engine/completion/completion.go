// Package completion is Riffle's one SQL completer. It computes completion
// candidates from the text around the cursor and the engine's catalog and
// function registry: keywords; catalogs, databases, tables and views;
// columns of the tables in FROM (also after an alias and a dot); functions
// with their signatures; connector and format option keys and known values
// inside WITH (...); type names in column definitions and CAST. It works on the
// statement being typed, however incomplete, using engine/sql's tokenizer,
// which never fails.
//
// The package has no GUI code: the workbench shows Result.Items in a popup
// and replaces [Result.Start, Result.End) with the chosen Item.Insert. The
// SQL Gateway's complete-statement endpoint answers with Words, the same
// candidates as bare words (table.CompleteStatement, which also converts
// Flink's UTF-16 positions). The engine's catalogs are read through
// Catalog (table.CompletionCatalog for a TableEnvironment).
package completion

import (
	"sort"
	"strings"

	"github.com/riffle-sql/riffle/engine/sql"
)

// Kind is what a candidate is.
type Kind uint8

// Candidate kinds.
const (
	KindKeyword Kind = iota
	KindCatalog
	KindDatabase
	KindTable
	KindView
	KindColumn
	KindFunction
	KindOptionKey
	KindOptionValue
	KindType
)

var kindNames = [...]string{"keyword", "catalog", "database", "table", "view", "column", "function", "option", "value", "type"}

// String names the kind (shown as a tag in the popup).
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "?"
}

// Item is one candidate.
type Item struct {
	// Label is what the popup shows and what the prefix is matched with.
	Label string
	// Insert replaces the text between Result.Start and Result.End.
	Insert string
	Kind   Kind
	// Detail is shown beside the label: a column's type, a function's
	// signatures, an option's default and description, a table's kind.
	Detail string
}

// Result is the completion at one cursor position.
type Result struct {
	// Start and End are the byte range of the script that a chosen item
	// replaces: the word under the cursor (empty range when there is none).
	Start, End int
	// Prefix is the part of that word before the cursor, which the items
	// match (case-insensitively).
	Prefix string
	// Context names what the cursor position expects, for tests and
	// debugging: "statement", "table", "column", "option key", ...
	Context string
	Items   []Item
}

// Complete returns the candidates for the cursor at byte offset in
// script. cat may be nil (then only keywords, types and options are
// offered).
func Complete(script string, offset int, cat Catalog) Result {
	offset = max(0, min(offset, len(script)))
	a := analyze(script, offset)
	res := Result{Start: a.wordStart, End: a.wordEnd, Prefix: a.prefix}
	if a.inComment {
		res.Context = "comment"
		return res
	}
	c := &completer{a: a, cat: cat}
	res.Context, res.Items = c.run()
	res.Items = filter(res.Items, a.prefix)
	return res
}

// analysis is the tokenized statement around the cursor.
type analysis struct {
	script string
	// toks are the statement's tokens without comments, with offsets in
	// the script.
	toks []sql.Token
	// before are the tokens that end before the word being completed.
	before []sql.Token
	// word is the token being completed, if any.
	word                *sql.Token
	wordStart, wordEnd  int
	prefix              string
	inString, inComment bool
	quoted              bool // the word is a backquoted identifier
}

// analyze finds the statement under the cursor, tokenizes it and locates
// the word being completed.
func analyze(script string, offset int) *analysis {
	a := &analysis{script: script, wordStart: offset, wordEnd: offset}
	start, end := 0, len(script)
	if sp, ok := sql.StatementAt(script, offset); ok {
		start, end = sp.Start.Offset, sp.End
		// the cursor is in a new (empty) statement after a ";"
		if offset >= sp.End && strings.Contains(script[sp.End:offset], ";") {
			start, end = offset, offset
		}
		if offset < sp.Start.Offset {
			// before the first statement: only what lies between
			start, end = offset, offset
		}
	}
	if end < offset {
		end = offset
	}
	text := script[start:end]
	a.toks, a.inComment = tokens(text, start, offset)
	// An unterminated quote under the cursor swallows the rest of the
	// statement; close it at the cursor and tokenize again, so that the
	// FROM clause after it is still seen.
	for _, t := range a.toks {
		if t.Kind == sql.TokError && t.Pos.Offset < offset && offset <= t.End && (strings.HasPrefix(t.Text, "`") || strings.HasPrefix(t.Text, "'")) {
			patched := text[:offset-start] + t.Text[:1] + text[offset-start:]
			toks, inComment := tokens(patched, start, offset)
			for i := range toks {
				if toks[i].Pos.Offset > offset {
					toks[i].Pos.Offset--
				}
				if toks[i].End > offset {
					toks[i].End--
				}
			}
			a.toks, a.inComment = toks, inComment
			break
		}
	}
	for i := range a.toks {
		t := &a.toks[i]
		if t.Pos.Offset < offset && offset <= t.End && isWordToken(*t) {
			a.word = t
			a.wordStart, a.wordEnd = t.Pos.Offset, t.End
			raw := script[t.Pos.Offset:offset]
			switch {
			case strings.HasPrefix(raw, "`"):
				a.quoted = true
				a.prefix = strings.ReplaceAll(raw[1:], "``", "`")
			case strings.HasPrefix(raw, "'"):
				a.inString = true
				a.prefix = strings.ReplaceAll(raw[1:], "''", "'")
			default:
				a.prefix = raw
			}
			break
		}
	}
	for _, t := range a.toks {
		if t.End <= a.wordStart && t.Pos.Offset < a.wordStart {
			a.before = append(a.before, t)
		}
	}
	return a
}

// tokens tokenizes a statement's text that starts at byte start of the
// script: comments are dropped (inComment reports whether the cursor at
// offset is inside one) and offsets are made script offsets.
func tokens(text string, start, offset int) (toks []sql.Token, inComment bool) {
	for _, t := range sql.Tokenize(text) {
		if t.Kind == sql.TokError && t.End-t.Pos.Offset != len(t.Text) && t.End >= len(t.Text) {
			// an unterminated quote is reported where the text ends;
			// the token itself starts len(Text) bytes earlier
			t.Pos.Offset = t.End - len(t.Text)
		}
		t.Pos.Offset += start
		t.End += start
		if t.Kind == sql.TokComment {
			if t.Pos.Offset < offset && offset < t.End || (t.Pos.Offset < offset && offset == t.End && strings.HasPrefix(t.Text, "--") && !strings.HasSuffix(t.Text, "\n")) {
				inComment = true
			}
			continue
		}
		toks = append(toks, t)
	}
	return toks, inComment
}

// isWordToken reports tokens that a completion replaces: identifiers and
// keywords, quoted identifiers and string literals (also unterminated).
func isWordToken(t sql.Token) bool {
	switch t.Kind {
	case sql.TokIdent, sql.TokQuotedIdent, sql.TokString:
		return true
	case sql.TokError:
		return strings.HasPrefix(t.Text, "`") || strings.HasPrefix(t.Text, "'")
	}
	return false
}

// upper is a token's word in upper case ("" for non-words).
func upper(t sql.Token) string {
	if t.Kind != sql.TokIdent {
		return ""
	}
	return strings.ToUpper(t.Text)
}

func isOp(t sql.Token, op string) bool { return t.Kind == sql.TokOp && t.Text == op }

// identName is the name an identifier token denotes.
func identName(t sql.Token) (string, bool) {
	switch t.Kind {
	case sql.TokIdent:
		return t.Text, true
	case sql.TokQuotedIdent:
		return t.Value, true
	}
	return "", false
}

// filter keeps the items whose label starts with prefix (case-insensitive)
// and sorts them: exact-case prefix matches first, then by label. Items
// keep their relative (rank) order otherwise.
func filter(items []Item, prefix string) []Item {
	p := strings.ToLower(prefix)
	var out []Item
	seen := map[string]bool{}
	for _, it := range items {
		key := it.Kind.String() + "\x00" + it.Label
		if seen[key] {
			continue
		}
		if strings.HasPrefix(strings.ToLower(it.Label), p) {
			seen[key] = true
			out = append(out, it)
		}
	}
	return out
}

// sortItems orders items by label within one group.
func sortItems(items []Item) []Item {
	sort.SliceStable(items, func(i, j int) bool { return strings.ToLower(items[i].Label) < strings.ToLower(items[j].Label) })
	return items
}

// AutoTrigger reports whether typing should open the completion popup at
// offset (the editor calls it after each typed character, Ctrl+Space
// opens it always): after a "." that follows a name, after two or more
// identifier characters, and after "(" , "=" or "'" inside a WITH (...)
// option list.
func AutoTrigger(script string, offset int) bool {
	if offset <= 0 || offset > len(script) {
		return false
	}
	c := script[offset-1]
	if c == '.' {
		if offset >= 2 && script[offset-2] == '`' {
			return true
		}
		i := offset - 1
		for i > 0 && isIdentByte(script[i-1]) {
			i--
		}
		return i < offset-1 && !(script[i] >= '0' && script[i] <= '9') && !inCommentOrString(script, offset)
	}
	n := 0
	for i := offset - 1; i >= 0 && isIdentByte(script[i]); i-- {
		n++
	}
	if n >= 2 {
		// not inside a number
		start := offset - n
		return !(script[start] >= '0' && script[start] <= '9') && !inCommentOrString(script, offset)
	}
	if c == '(' || c == ',' || c == '\'' || c == ' ' {
		a := analyze(script, offset)
		if a.inComment {
			return false
		}
		cc := &completer{a: a}
		if ctx, _, ok := cc.options(); ok && (ctx == "option key" || ctx == "option value") {
			return c != ' ' || (len(a.before) > 0 && isOp(a.before[len(a.before)-1], "="))
		}
	}
	return false
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// inCommentOrString reports whether offset is inside a comment or a
// string literal of the statement under it.
func inCommentOrString(script string, offset int) bool {
	a := analyze(script, offset)
	return a.inComment || a.inString
}
