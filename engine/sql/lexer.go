package sql

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Pos is a position in the source text.
//
// Line and Column are 1-based. Column counts Unicode code points (not bytes,
// not display cells; a tab counts as one column), so "é" advances the column
// by one. Offset is the 0-based byte offset into the text, suitable for
// slicing the original string.
type Pos struct {
	Line   int
	Column int
	Offset int
}

// String renders the position as "line L, column C".
func (p Pos) String() string { return fmt.Sprintf("line %d, column %d", p.Line, p.Column) }

// TokenKind is the lexical category of a Token.
type TokenKind uint8

// Token kinds produced by the lexer.
const (
	// TokEOF marks the end of input.
	TokEOF TokenKind = iota
	// TokIdent is an unquoted word: an identifier or a keyword. Value holds
	// the word as written (Flink leaves the case of identifiers unchanged).
	TokIdent
	// TokQuotedIdent is a backquoted identifier; Value is unescaped.
	TokQuotedIdent
	// TokString is a character string literal '...' (also N'...'); Value is
	// unescaped.
	TokString
	// TokUnicodeString is U&'...'; Value is the raw body (escapes unresolved).
	TokUnicodeString
	// TokBinary is a binary string literal X'...'; Value holds the hex digits.
	TokBinary
	// TokInteger is an exact integer number such as 42.
	TokInteger
	// TokDecimal is an exact decimal number such as 1.5 or .5.
	TokDecimal
	// TokApprox is an approximate number with an exponent such as 1e10.
	TokApprox
	// TokOp is an operator or punctuation: ( ) [ ] { } , ; . = <> != < > <=
	// >= + - * / % || => ? : |.
	TokOp
	// TokHintStart is the "/*+" that opens a hint.
	TokHintStart
	// TokHintEnd is the "*/" that closes a hint.
	TokHintEnd
	// TokComment is a comment; only Tokenize returns comments.
	TokComment
	// TokError is text the lexer could not read (unterminated quote or
	// comment, stray character). Value holds the Calcite-style message.
	TokError
)

var tokenKindNames = [...]string{"EOF", "identifier", "quoted identifier", "string", "unicode string",
	"binary string", "integer", "decimal", "approximate number", "operator", "hint start",
	"hint end", "comment", "error"}

// String names the kind.
func (k TokenKind) String() string {
	if int(k) < len(tokenKindNames) {
		return tokenKindNames[k]
	}
	return fmt.Sprintf("TokenKind(%d)", k)
}

// Token is one lexical token.
type Token struct {
	Kind TokenKind
	// Text is the exact source text of the token.
	Text string
	// Value is the processed value: the unescaped content of strings and
	// quoted identifiers, the hex digits of binary strings, the word for
	// identifiers, the text otherwise.
	Value string
	// Pos is the position of the first character.
	Pos Pos
	// End is the byte offset just past the token.
	End int
	// Class is the editor token class; set only by Tokenize.
	Class TokenClass
	// upper caches the upper-cased word of TokIdent tokens.
	upper string
}

// lexer turns text into tokens.
type lexer struct {
	src      string
	i        int // byte offset
	line     int
	col      int
	inHint   bool
	comments bool // emit TokComment tokens
	recover  bool // after a stray character, emit it as TokError and go on
}

func newLexer(src string) *lexer { return &lexer{src: src, line: 1, col: 1} }

func (l *lexer) pos() Pos { return Pos{Line: l.line, Column: l.col, Offset: l.i} }

// advance moves over n bytes that are known to contain no newline and to be
// ASCII.
func (l *lexer) advanceASCII(n int) {
	l.i += n
	l.col += n
}

// advanceTo moves to byte offset j, updating line and column.
func (l *lexer) advanceTo(j int) {
	for l.i < j {
		c := l.src[l.i]
		if c == '\n' {
			l.line++
			l.col = 1
			l.i++
			continue
		}
		if c < utf8.RuneSelf {
			l.col++
			l.i++
			continue
		}
		_, sz := utf8.DecodeRuneInString(l.src[l.i:])
		l.i += sz
		l.col++
	}
}

func isIdentStart(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '_' || r == '$'
	}
	return unicode.IsLetter(r)
}

func isIdentPart(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '_' || r == '$' || r >= '0' && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// errTok returns a TokError located at 'at' (the position named in msg)
// and stops the lexer: nothing after a lexical error is read.
func (l *lexer) errTok(at Pos, msg string) Token {
	if l.recover && at.Offset < len(l.src) {
		_, sz := utf8.DecodeRuneInString(l.src[at.Offset:])
		l.advanceTo(at.Offset + sz)
		return Token{Kind: TokError, Text: l.src[at.Offset:l.i], Value: msg, Pos: at, End: l.i}
	}
	text := l.src[at.Offset:]
	l.advanceTo(len(l.src))
	return Token{Kind: TokError, Text: text, Value: msg, Pos: at, End: len(l.src)}
}

// eofErr reports input that ended inside a token that began at start.
func (l *lexer) eofErr(start Pos) Token {
	l.advanceTo(len(l.src))
	at := l.pos()
	return Token{Kind: TokError, Text: l.src[start.Offset:], Pos: at, End: l.i,
		Value: lexicalError(at, "<EOF>", l.src[start.Offset:])}
}

// lexicalError formats JavaCC's message for an unexpected character or end
// of input, as Calcite reports it.
func lexicalError(at Pos, encountered string, after string) string {
	return fmt.Sprintf("Lexical error at line %d, column %d.  Encountered: %s after : %s",
		at.Line, at.Column, encountered, quoteJava(after))
}

// quoteJava quotes s as JavaCC's addEscapes does in its messages.
func quoteJava(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\'':
			b.WriteString(`\'`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// next returns the next token, skipping whitespace and (unless l.comments)
// comments.
func (l *lexer) next() Token {
	for {
		// whitespace
		for l.i < len(l.src) {
			c := l.src[l.i]
			if c == ' ' || c == '\t' || c == '\r' || c == '\f' {
				l.i++
				l.col++
			} else if c == '\n' {
				l.i++
				l.line++
				l.col = 1
			} else {
				break
			}
		}
		if l.i >= len(l.src) {
			return Token{Kind: TokEOF, Pos: l.pos(), End: l.i}
		}
		start := l.pos()
		c := l.src[l.i]
		// comments
		if (c == '-' && l.peekByte(1) == '-') || (c == '/' && l.peekByte(1) == '/') {
			j := strings.IndexByte(l.src[l.i:], '\n')
			if j < 0 {
				j = len(l.src)
			} else {
				j += l.i
			}
			l.advanceTo(j)
			if l.comments {
				return Token{Kind: TokComment, Text: l.src[start.Offset:l.i], Value: l.src[start.Offset:l.i], Pos: start, End: l.i}
			}
			continue
		}
		if c == '/' && l.peekByte(1) == '*' {
			if l.peekByte(2) == '+' {
				l.advanceASCII(3)
				l.inHint = true
				return Token{Kind: TokHintStart, Text: "/*+", Value: "/*+", Pos: start, End: l.i}
			}
			j := strings.Index(l.src[l.i+2:], "*/")
			if j < 0 {
				return l.eofErr(start)
			}
			l.advanceTo(l.i + 2 + j + 2)
			if l.comments {
				return Token{Kind: TokComment, Text: l.src[start.Offset:l.i], Value: l.src[start.Offset:l.i], Pos: start, End: l.i}
			}
			continue
		}
		if l.inHint && c == '*' && l.peekByte(1) == '/' {
			l.advanceASCII(2)
			l.inHint = false
			return Token{Kind: TokHintEnd, Text: "*/", Value: "*/", Pos: start, End: l.i}
		}
		return l.scan(start, c)
	}
}

func (l *lexer) peekByte(n int) byte {
	if l.i+n < len(l.src) {
		return l.src[l.i+n]
	}
	return 0
}

func (l *lexer) scan(start Pos, c byte) Token {
	switch {
	case c == '\'':
		return l.scanString(start, 0, TokString)
	case c == '`':
		return l.scanQuotedIdent(start)
	case isDigit(c) || (c == '.' && isDigit(l.peekByte(1))):
		return l.scanNumber(start)
	case (c == 'x' || c == 'X') && l.peekByte(1) == '\'':
		return l.scanString(start, 1, TokBinary)
	case (c == 'n' || c == 'N') && l.peekByte(1) == '\'':
		return l.scanString(start, 1, TokString)
	case (c == 'u' || c == 'U') && l.peekByte(1) == '&' && l.peekByte(2) == '\'':
		return l.scanString(start, 2, TokUnicodeString)
	}
	if c < utf8.RuneSelf {
		if isIdentStart(rune(c)) {
			return l.scanIdent(start)
		}
		return l.scanOp(start, c)
	}
	r, _ := utf8.DecodeRuneInString(l.src[l.i:])
	if isIdentStart(r) {
		return l.scanIdent(start)
	}
	return l.errTok(start, lexicalError(start, fmt.Sprintf("%s (%d),", quoteJava(string(r)), r), ""))
}

func (l *lexer) scanIdent(start Pos) Token {
	j := l.i
	ascii := true
	for j < len(l.src) {
		c := l.src[j]
		if c < utf8.RuneSelf {
			if !isIdentPart(rune(c)) {
				break
			}
			j++
			continue
		}
		r, sz := utf8.DecodeRuneInString(l.src[j:])
		if !isIdentPart(r) {
			break
		}
		ascii = false
		j += sz
	}
	if ascii {
		l.advanceASCII(j - l.i)
	} else {
		l.advanceTo(j)
	}
	text := l.src[start.Offset:l.i]
	return Token{Kind: TokIdent, Text: text, Value: text, Pos: start, End: l.i, upper: upperASCII(text)}
}

func (l *lexer) scanQuotedIdent(start Pos) Token {
	j := l.i + 1
	var b strings.Builder
	for {
		k := strings.IndexAny(l.src[j:], "`\n\r")
		if k < 0 {
			return l.eofErr(start)
		}
		k += j
		if l.src[k] != '`' {
			l.advanceTo(k)
			at := l.pos()
			return l.errTok(at, lexicalError(at, fmt.Sprintf("%s (%d),", quoteJava(l.src[k:k+1]), l.src[k]), l.src[start.Offset:k]))
		}
		b.WriteString(l.src[j:k])
		if k+1 < len(l.src) && l.src[k+1] == '`' {
			b.WriteByte('`')
			j = k + 2
			continue
		}
		l.advanceTo(k + 1)
		break
	}
	v := b.String()
	if v == "" {
		return l.errTok(start, lexicalError(start, `"`+"`"+`" (96),`, ""))
	}
	return Token{Kind: TokQuotedIdent, Text: l.src[start.Offset:l.i], Value: v, Pos: start, End: l.i}
}

// scanString reads a quoted string whose opening quote is at l.i+prefix.
func (l *lexer) scanString(start Pos, prefix int, kind TokenKind) Token {
	j := l.i + prefix + 1
	var b strings.Builder
	simple := true
	bodyStart := j
	for {
		k := strings.IndexByte(l.src[j:], '\'')
		if k < 0 {
			return l.eofErr(start)
		}
		k += j
		if k+1 < len(l.src) && l.src[k+1] == '\'' {
			simple = false
			b.WriteString(l.src[j : k+1])
			j = k + 2
			continue
		}
		b.WriteString(l.src[j:k])
		l.advanceTo(k + 1)
		break
	}
	var v string
	if simple {
		v = l.src[bodyStart : l.i-1]
	} else {
		v = b.String()
	}
	if kind == TokUnicodeString {
		v = l.src[bodyStart : l.i-1]
	}
	return Token{Kind: kind, Text: l.src[start.Offset:l.i], Value: v, Pos: start, End: l.i}
}

func (l *lexer) scanNumber(start Pos) Token {
	j := l.i
	kind := TokInteger
	for j < len(l.src) && isDigit(l.src[j]) {
		j++
	}
	if j < len(l.src) && l.src[j] == '.' && !(j+1 < len(l.src) && l.src[j+1] == '.') {
		kind = TokDecimal
		j++
		for j < len(l.src) && isDigit(l.src[j]) {
			j++
		}
	}
	if j < len(l.src) && (l.src[j] == 'e' || l.src[j] == 'E') {
		k := j + 1
		if k < len(l.src) && (l.src[k] == '+' || l.src[k] == '-') {
			k++
		}
		if k < len(l.src) && isDigit(l.src[k]) {
			for k < len(l.src) && isDigit(l.src[k]) {
				k++
			}
			j = k
			kind = TokApprox
		}
	}
	l.advanceASCII(j - l.i)
	text := l.src[start.Offset:l.i]
	return Token{Kind: kind, Text: text, Value: text, Pos: start, End: l.i}
}

func (l *lexer) scanOp(start Pos, c byte) Token {
	n := 1
	c1 := l.peekByte(1)
	switch c {
	case '<':
		if c1 == '=' && l.peekByte(2) == '>' {
			n = 3
		} else if c1 == '=' || c1 == '>' {
			n = 2
		}
	case '>':
		if c1 == '=' {
			n = 2
		}
	case '!':
		if c1 != '=' {
			return l.errTok(start, lexicalError(start, `"!" (33),`, ""))
		}
		n = 2
	case '|':
		if c1 == '|' {
			n = 2
		}
	case '=':
		if c1 == '>' {
			n = 2
		}
	case '(', ')', '[', ']', '{', '}', ',', ';', '.', '+', '-', '*', '/', '%', '?', ':', '^':
	default:
		return l.errTok(start, lexicalError(start, fmt.Sprintf("%s (%d),", quoteJava(string(rune(c))), c), ""))
	}
	l.advanceASCII(n)
	text := l.src[start.Offset:l.i]
	return Token{Kind: TokOp, Text: text, Value: text, Pos: start, End: l.i}
}

// lexAll tokenizes src without comments, ending with a TokEOF or TokError
// token.
func lexAll(src string) []Token {
	l := newLexer(src)
	toks := make([]Token, 0, len(src)/4+4)
	for {
		t := l.next()
		toks = append(toks, t)
		if t.Kind == TokEOF || t.Kind == TokError {
			return toks
		}
	}
}
