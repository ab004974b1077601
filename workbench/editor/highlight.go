package editor

import (
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/alecthomas/chroma/v2"
)

// tokenClass is the colour class of a highlighted token.
type tokenClass uint8

const (
	classPlain tokenClass = iota
	classKeyword
	classType
	classFunction
	classString
	classNumber
	classComment
	classQuoted // `backquoted identifier`
	classOperator
	numClasses
)

// span colours the runes [start, end) of a line.
type span struct {
	start, end int
	class      tokenClass
}

// lineHighlight is the cached highlighting of one line, valid while the line
// text is unchanged and it still starts in state.
type lineHighlight struct {
	state lexState
	spans []span
}

// maxLexLine is the longest line (in bytes) that is run through chroma.
// Longer lines (minified or generated SQL) are coloured by lexer state only,
// so a single huge line cannot stall typing.
const maxLexLine = 8 << 10

// stateAt returns the lexer state at the start of line l, scanning forward
// from the last line whose state is known.
func (b *buffer) stateAt(l int) lexState {
	for b.statesValid <= l {
		i := b.statesValid
		prev := &b.lines[i-1]
		b.lines[i].state = scanLine(prev.text, prev.state)
		b.statesValid++
	}
	return b.lines[l].state
}

// highlight returns the colour spans of line l, lexing it if needed.
func (b *buffer) highlight(l int) []span {
	st := b.stateAt(l)
	ln := &b.lines[l]
	if ln.hl != nil && ln.hl.state == st {
		return ln.hl.spans
	}
	if ln.hl == nil {
		b.cachedLines++
	}
	spans := lexLine(ln.text, st)
	ln.hl = &lineHighlight{state: st, spans: spans}
	return spans
}

// maxCachedLines bounds how many lines keep their highlighting cached, so
// that scrolling through a huge script does not keep colour spans for all of
// it.
const maxCachedLines = 20000

// trimCache drops the cached highlighting of lines outside [from, to) once
// more than maxCachedLines lines hold one.
func (b *buffer) trimCache(from, to int) {
	if b.cachedLines <= maxCachedLines {
		return
	}
	n := 0
	for i := range b.lines {
		if b.lines[i].hl == nil {
			continue
		}
		if i < from || i >= to {
			b.lines[i].hl = nil
			continue
		}
		n++
	}
	b.cachedLines = n
}

// chromaStates maps a lexState to the state of the chroma lexer.
var chromaStates = [...]string{
	stateCode:    "root",
	stateString:  "string",
	stateQuoted:  "quoted",
	stateComment: "comment",
}

// lexLine colours one line of text that starts in state st.
func lexLine(text string, st lexState) (spans []span) {
	if text == "" {
		return nil
	}
	n := utf8.RuneCountInString(text)
	whole := func() []span {
		switch st {
		case stateString:
			return []span{{0, n, classString}}
		case stateQuoted:
			return []span{{0, n, classQuoted}}
		case stateComment:
			return []span{{0, n, classComment}}
		}
		return nil
	}
	if len(text) > maxLexLine {
		return whole()
	}
	defer func() {
		// chroma panics on internal errors; a line then stays uncoloured
		// rather than taking the UI down.
		if recover() != nil {
			spans = whole()
		}
	}()
	it, err := flinkLexer().Tokenise(&chroma.TokeniseOptions{State: chromaStates[st]}, text)
	if err != nil {
		return whole()
	}
	col := 0
	for tok := it(); tok != chroma.EOF; tok = it() {
		w := utf8.RuneCountInString(tok.Value)
		if w == 0 {
			continue
		}
		c := classOf(tok.Type)
		if c != classPlain {
			if k := len(spans) - 1; k >= 0 && spans[k].class == c && spans[k].end == col {
				spans[k].end += w
			} else {
				spans = append(spans, span{col, col + w, c})
			}
		}
		col += w
	}
	return spans
}

// classOf maps a chroma token type to a colour class.
func classOf(t chroma.TokenType) tokenClass {
	switch {
	case t == chroma.KeywordType:
		return classType
	case t.InCategory(chroma.Keyword):
		return classKeyword
	case t == chroma.NameFunction || t == chroma.NameBuiltin:
		return classFunction
	case t == chroma.LiteralStringBacktick:
		return classQuoted
	case t.InSubCategory(chroma.LiteralString):
		return classString
	case t.InSubCategory(chroma.LiteralNumber):
		return classNumber
	case t.InCategory(chroma.Comment):
		return classComment
	case t.InCategory(chroma.Operator):
		return classOperator
	}
	return classPlain
}

var (
	lexerOnce sync.Once
	lexer     chroma.Lexer
)

// flinkLexer returns the chroma lexer for the Flink SQL dialect. Its states
// match lexState so that a line can be lexed from the state carried over from
// the line before.
func flinkLexer() chroma.Lexer {
	lexerOnce.Do(func() {
		lexer = chroma.MustNewLexer(&chroma.Config{
			Name:      "Flink SQL",
			Aliases:   []string{"flinksql"},
			Filenames: []string{"*.sql"},
			MimeTypes: []string{"text/x-flink-sql"},
		}, flinkRules)
	})
	return lexer
}

func flinkRules() chroma.Rules {
	return chroma.Rules{
		"root": {
			{Pattern: `\s+`, Type: chroma.TextWhitespace},
			{Pattern: `--.*`, Type: chroma.CommentSingle},
			{Pattern: `/\*`, Type: chroma.CommentMultiline, Mutator: chroma.Push("comment")},
			{Pattern: `'`, Type: chroma.LiteralStringSingle, Mutator: chroma.Push("string")},
			{Pattern: "`", Type: chroma.LiteralStringBacktick, Mutator: chroma.Push("quoted")},
			{Pattern: `(\d+\.\d*|\.\d+)([eE][+-]?\d+)?|\d+[eE][+-]?\d+`, Type: chroma.LiteralNumberFloat},
			{Pattern: `\d+`, Type: chroma.LiteralNumberInteger},
			{Pattern: `[\p{L}_][\p{L}\p{N}_$]*(?=\()`, Type: chroma.EmitterFunc(emitWord(true))},
			{Pattern: `[\p{L}_][\p{L}\p{N}_$]*`, Type: chroma.EmitterFunc(emitWord(false))},
			{Pattern: `\|\||<>|!=|<=|>=|[+\-*/%<>=!|&^~]`, Type: chroma.Operator},
			{Pattern: `[;:()\[\],.{}]`, Type: chroma.Punctuation},
			{Pattern: `.`, Type: chroma.Text},
		},
		"string": {
			{Pattern: `''`, Type: chroma.LiteralStringEscape},
			{Pattern: `'`, Type: chroma.LiteralStringSingle, Mutator: leave},
			{Pattern: `[^']+`, Type: chroma.LiteralStringSingle},
		},
		"quoted": {
			{Pattern: "``", Type: chroma.LiteralStringBacktick},
			{Pattern: "`", Type: chroma.LiteralStringBacktick, Mutator: leave},
			{Pattern: "[^`]+", Type: chroma.LiteralStringBacktick},
		},
		"comment": {
			{Pattern: `\*/`, Type: chroma.CommentMultiline, Mutator: leave},
			{Pattern: `[^*]+`, Type: chroma.CommentMultiline},
			{Pattern: `\*`, Type: chroma.CommentMultiline},
		},
	}
}

// leave ends a string, quoted identifier or comment. A line that starts
// inside one of them is lexed with that state alone on the stack, so leaving it
// must fall back to "root" instead of emptying the stack.
var leave = chroma.MutatorFunc(func(s *chroma.LexerState) error {
	if len(s.Stack) > 1 {
		s.Stack = s.Stack[:len(s.Stack)-1]
	} else {
		s.Stack = []string{"root"}
	}
	return nil
})

// emitWord returns an emitter that classifies an identifier by looking it up
// in the Flink SQL word lists. call is true when the word is directly
// followed by "(" (a space before it, as in "CREATE TABLE t (", is not a call).
func emitWord(call bool) func(groups []string, _ *chroma.LexerState) chroma.Iterator {
	return func(groups []string, _ *chroma.LexerState) chroma.Iterator {
		w := groups[0]
		return chroma.Literator(chroma.Token{Type: wordType(w, call), Value: w})
	}
}

// wordType classifies an identifier: data types first (so VARCHAR(10) stays
// a type), then keywords, then calls and known niladic functions.
func wordType(w string, call bool) chroma.TokenType {
	u := strings.ToUpper(w)
	switch {
	case flinkTypes[u]:
		return chroma.KeywordType
	case flinkKeywords[u] && !(call && flinkFunctions[u]):
		return chroma.Keyword
	case call || flinkFunctions[u]:
		return chroma.NameFunction
	}
	return chroma.Name
}

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// flinkTypes are the Flink SQL data type names.
var flinkTypes = wordSet(`CHAR VARCHAR STRING BOOLEAN BINARY VARBINARY BYTES DECIMAL DEC NUMERIC
	TINYINT SMALLINT INT INTEGER BIGINT FLOAT DOUBLE PRECISION REAL DATE TIME TIMESTAMP
	TIMESTAMP_LTZ ARRAY MAP MULTISET ROW RAW INTERVAL VARIANT`)

// flinkKeywords are Flink SQL reserved and non-reserved keywords as used in
// DDL, DML, queries and the SQL client.
var flinkKeywords = wordSet(`SELECT FROM WHERE GROUP BY HAVING ORDER LIMIT OFFSET FETCH FIRST NEXT
	ROWS ONLY AS ON JOIN INNER LEFT RIGHT FULL OUTER CROSS NATURAL LATERAL UNNEST USING
	UNION ALL DISTINCT INTERSECT EXCEPT MINUS WITH RECURSIVE VALUES INSERT INTO OVERWRITE
	UPDATE DELETE SET RESET CREATE DROP ALTER TABLE VIEW TEMPORARY FUNCTION SYSTEM CATALOG
	DATABASE IF NOT EXISTS PRIMARY KEY ENFORCED WATERMARK FOR PARTITIONED PARTITION COMMENT
	LIKE INCLUDING EXCLUDING OPTIONS CONSTRAINTS GENERATED METADATA VIRTUAL SHOW DESCRIBE
	DESC EXPLAIN PLAN CHANGELOG_MODE ESTIMATED_COST JSON_EXECUTION_PLAN PLAN_ADVICE USE
	MODULES MODULE LOAD UNLOAD JAR ADD REMOVE JOBS JOB STOP SAVEPOINT DRAIN EXECUTE
	STATEMENT BEGIN END CASE WHEN THEN ELSE AND OR IS NULL TRUE FALSE UNKNOWN IN BETWEEN
	SYMMETRIC ASYMMETRIC ESCAPE SIMILAR TO OVER RANGE PRECEDING FOLLOWING UNBOUNDED
	CURRENT WINDOW DESCRIPTOR MATCH_RECOGNIZE MEASURES PATTERN DEFINE AFTER MATCH SKIP PAST
	LAST ONE PER WITHIN FINAL RUNNING SYSTEM_TIME OF ASC NULLS LANGUAGE JAVA SCALA PYTHON
	RETURNS ANALYZE COMPUTE STATISTICS COLUMNS TABLES VIEWS FUNCTIONS PROCEDURES CATALOGS
	DATABASES USER RENAME MODIFY COLUMN DISTRIBUTED BUCKETS CALL REPLACE MATERIALIZED
	FRESHNESS REFRESH_MODE SUSPEND RESUME REFRESH MODEL MODELS EXISTS ANY SOME GROUPING
	SETS CUBE ROLLUP ZONE LOCAL WITHOUT YEAR MONTH DAY HOUR MINUTE SECOND DEFAULT
	CONSTRAINT UNIQUE QUALIFY TUMBLE HOP CUMULATE SESSION SLIDE FULL_CHANGELOG CREATED
	COMPILE MODIFIED INPUT OUTPUT ENABLED DISABLED YEARS MONTHS DAYS HOURS MINUTES SECONDS
	MILLISECOND MICROSECOND NANOSECOND WEEK QUARTER EPOCH`)

// flinkFunctions are built-in function names that are highlighted even
// without a following '(' (niladic functions such as CURRENT_TIMESTAMP) or
// that double as keywords (TUMBLE, HOP, …, which are functions when called).
var flinkFunctions = wordSet(`CURRENT_TIMESTAMP CURRENT_DATE CURRENT_TIME LOCALTIME LOCALTIMESTAMP
	CURRENT_ROW_TIMESTAMP CURRENT_WATERMARK PROCTIME NOW UUID RAND CURRENT_CATALOG
	CURRENT_DATABASE TUMBLE HOP CUMULATE SESSION REPLACE LEFT RIGHT IF`)
