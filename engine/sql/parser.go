package sql

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Error is a syntax or lexical error. Line and Column (1-based, columns in
// Unicode code points) and Offset (0-based bytes) locate the offending
// token; Msg is the full message in Calcite's wording, which already
// includes the position, e.g.
//
//	Encountered "FORM" at line 1, column 10.
//	Was expecting one of:
//	    "FROM" ...
type Error struct {
	Line   int
	Column int
	Offset int
	Msg    string
}

// Error returns Msg.
func (e *Error) Error() string { return e.Msg }

// bailout carries an *Error through panics inside the parser.
type bailout struct{ err *Error }

const maxDepth = 400

type parser struct {
	src    string
	base   int // byte offset of src[0] in the caller's text
	lex    *lexer
	toks   []Token
	p      int
	expect []string
	expAt  int
	params int
	depth  int
	// startCol is the column of src[0] (1 unless the caller's text puts
	// src further right on its first line).
	startCol int
}

func newParser(src string, start Pos) *parser {
	l := newLexer(src)
	if start.Line > 0 {
		l.line, l.col = start.Line, start.Column
	}
	p := &parser{src: src, base: start.Offset, lex: l, expAt: -1, startCol: l.col}
	p.toks = make([]Token, 0, 64)
	p.fill(0)
	return p
}

// fill lexes on demand until token i exists (or input ends). Tokens are
// immutable once lexed, so *Token pointers stay valid in content even when
// the slice grows.
func (p *parser) fill(i int) {
	for len(p.toks) <= i {
		if n := len(p.toks); n > 0 && (p.toks[n-1].Kind == TokEOF || p.toks[n-1].Kind == TokError) {
			return
		}
		t := p.lex.next()
		t.Pos.Offset += p.base
		t.End += p.base
		p.toks = append(p.toks, t)
	}
}

// run executes f, converting a bailout panic into an *Error. Other panics
// propagate only when strict is set (tests); otherwise they become an
// internal error so that no input can crash the caller.
func run(strict bool, f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if b, ok := r.(bailout); ok {
				err = b.err
				return
			}
			if strict {
				panic(r)
			}
			err = &Error{Line: 1, Column: 1, Msg: fmt.Sprintf("internal parser error: %v", r)}
		}
	}()
	f()
	return nil
}

var strictPanics = false // set by tests to surface parser bugs

// Parse parses exactly one statement (an optional trailing ";" is allowed).
// It returns the statement, or an *Error for lexical and syntax errors.
func Parse(text string) (Statement, error) {
	return ParseAt(text, Pos{})
}

// ParseAt is Parse for a text that starts at position start of a larger
// document (e.g. a StatementSpan from SplitStatements): every position in
// the result and in errors is relative to that document. A zero start means
// the beginning of the document.
func ParseAt(text string, start Pos) (Statement, error) {
	var st Statement
	p := newParser(text, start)
	err := run(strictPanics, func() {
		st = p.parseStatement()
		p.acceptOp(";")
		if p.tok().Kind != TokEOF {
			p.want("<EOF>")
			p.fail()
		}
	})
	if err != nil {
		return nil, err
	}
	return st, nil
}

// ParseScript parses a script of statements separated by ";". Empty
// statements are skipped. It returns the statements in order, or the first
// error. BEGIN STATEMENT SET and END are returned as separate statements
// (*BeginStatementSet, *End), as the SQL Client sees them; EXECUTE
// STATEMENT SET BEGIN ... END is one *Execute.
func ParseScript(script string) ([]Statement, error) {
	var out []Statement
	p := newParser(script, Pos{})
	err := run(strictPanics, func() {
		for {
			for p.acceptOp(";") {
			}
			if p.tok().Kind == TokEOF {
				return
			}
			out = append(out, p.parseStatement())
			if p.tok().Kind != TokEOF {
				p.want(";")
				p.expectOp(";")
			}
			p.compact()
		}
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ParseExpr parses a single scalar expression, e.g. a computed column or
// watermark expression. It returns an *Error on failure.
func ParseExpr(text string) (Expr, error) {
	var e Expr
	p := newParser(text, Pos{})
	err := run(strictPanics, func() {
		e = p.parseExpr()
		if p.tok().Kind != TokEOF {
			p.want("<EOF>")
			p.fail()
		}
	})
	if err != nil {
		return nil, err
	}
	return e, nil
}

// ParseDataType parses a data type such as "ROW<a INT, b ARRAY<STRING>>
// NOT NULL". It returns an *Error on failure.
func ParseDataType(text string) (*DataType, error) {
	var t *DataType
	p := newParser(text, Pos{})
	err := run(strictPanics, func() {
		t = p.parseDataType()
		if p.tok().Kind != TokEOF {
			p.want("<EOF>")
			p.fail()
		}
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// ---------------------------------------------------------------------------
// token helpers

// compact drops the tokens already consumed (keeping the previous one for
// lastEnd), so that a long script does not keep every token alive.
func (p *parser) compact() {
	if p.p < 2 {
		return
	}
	n := copy(p.toks, p.toks[p.p-1:])
	p.toks = p.toks[:n]
	p.p = 1
	p.expAt = -1
}

func (p *parser) tok() *Token {
	p.fill(p.p)
	return &p.toks[p.p]
}

func (p *parser) peek(n int) *Token {
	i := p.p + n
	p.fill(i)
	if i >= len(p.toks) {
		return &p.toks[len(p.toks)-1]
	}
	return &p.toks[i]
}

func (p *parser) advance() *Token {
	t := p.tok()
	if t.Kind != TokEOF && t.Kind != TokError {
		p.p++
	}
	return t
}

// lastEnd is the end offset (in document coordinates) of the previous token.
func (p *parser) lastEnd() int {
	if p.p == 0 {
		return p.toks[0].Pos.Offset
	}
	return p.toks[p.p-1].End
}

func (p *parser) span(start Pos) Span { return Span{Start: start, EndOff: p.lastEnd()} }

// want records that s (a keyword or operator, or a <CATEGORY>) would have
// been accepted at the current token; fail lists them. It is called for
// every check, so it only appends.
func (p *parser) want(s string) {
	if p.expAt != p.p {
		p.expAt = p.p
		p.expect = p.expect[:0]
	}
	p.expect = append(p.expect, s)
}

// word returns the upper-cased word of the current token if it is an
// unquoted identifier, else "".
func (t *Token) word() string {
	if t.Kind == TokIdent {
		return t.upper
	}
	return ""
}

func (p *parser) isKw(w string) bool {
	p.want(w)
	t := p.tok()
	return t.Kind == TokIdent && t.upper == w
}

func (p *parser) peekKw(n int, w string) bool {
	t := p.peek(n)
	return t.Kind == TokIdent && t.upper == w
}

func (p *parser) acceptKw(w string) bool {
	if p.isKw(w) {
		p.advance()
		return true
	}
	return false
}

// acceptKws consumes the keyword sequence ws if all of it is present.
func (p *parser) acceptKws(ws ...string) bool {
	if !p.isKw(ws[0]) {
		return false
	}
	for i := 1; i < len(ws); i++ {
		if !p.peekKw(i, ws[i]) {
			return false
		}
	}
	p.p += len(ws)
	return true
}

func (p *parser) expectKw(w string) *Token {
	if !p.isKw(w) {
		p.fail()
	}
	return p.advance()
}

func (p *parser) isOp(s string) bool {
	p.want(s)
	t := p.tok()
	return t.Kind == TokOp && t.Text == s
}

func (p *parser) peekOp(n int, s string) bool {
	t := p.peek(n)
	return t.Kind == TokOp && t.Text == s
}

func (p *parser) acceptOp(s string) bool {
	if p.isOp(s) {
		p.advance()
		return true
	}
	return false
}

func (p *parser) expectOp(s string) *Token {
	if !p.isOp(s) {
		p.fail()
	}
	return p.advance()
}

func (p *parser) errAt(pos Pos, msg string) {
	panic(bailout{&Error{Line: pos.Line, Column: pos.Column, Offset: pos.Offset, Msg: msg}})
}

func (p *parser) errorf(pos Pos, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	p.errAt(pos, fmt.Sprintf("%s at line %d, column %d.", msg, pos.Line, pos.Column))
}

// fail reports a syntax error at the current token, listing what was
// expected there.
func (p *parser) fail() {
	t := p.tok()
	if t.Kind == TokError {
		p.errAt(t.Pos, t.Value)
	}
	var exp []string
	if p.expAt == p.p {
		seen := map[string]bool{}
		for _, e := range p.expect {
			if seen[e] {
				continue
			}
			seen[e] = true
			if e[0] != '<' {
				e = quoteJava(e)
			}
			exp = append(exp, e)
		}
	}
	var b strings.Builder
	img := t.Text
	if t.Kind == TokEOF {
		img = "<EOF>"
		t = &Token{Kind: TokEOF, Pos: p.eofPos(t.Pos), End: t.End}
	}
	identOK := false
	for _, e := range exp {
		if e == "<IDENTIFIER>" {
			identOK = true
		}
	}
	if t.Kind == TokIdent && IsReserved(t.Text) && identOK {
		fmt.Fprintf(&b, "Incorrect syntax near the keyword '%s' at line %d, column %d.", t.Text, t.Pos.Line, t.Pos.Column)
	} else {
		fmt.Fprintf(&b, "Encountered %s at line %d, column %d.", quoteJava(img), t.Pos.Line, t.Pos.Column)
	}
	if len(exp) > 0 {
		b.WriteString("\nWas expecting one of:")
		for i, e := range exp {
			if i == 16 {
				b.WriteString("\n    ...")
				break
			}
			b.WriteString("\n    ")
			b.WriteString(e)
			if e[0] == '"' {
				b.WriteString(" ...")
			} else if e != "<EOF>" {
				b.WriteString(" ...")
			}
		}
	}
	p.errAt(t.Pos, b.String())
}

// eofPos is where a syntax error at the end of input is reported: at the
// last character of the text (trailing blanks, a comment or a newline
// included), as Flink's JavaCC parser places its <EOF> token ("SELECT 1
// FROM" fails at column 13; with a newline after FROM at line 1, column
// 14), not one past it. eof is the position after the last character.
func (p *parser) eofPos(eof Pos) Pos {
	if eof.Offset <= 0 || eof.Offset > len(p.src) {
		return eof
	}
	r, size := utf8.DecodeLastRuneInString(p.src[:eof.Offset])
	last := eof.Offset - size
	if r != '\n' {
		return Pos{Line: eof.Line, Column: max(eof.Column-1, 1), Offset: last}
	}
	// the newline ends the line before: its column is one past that
	// line's last character
	prev := strings.LastIndexByte(p.src[:last], '\n')
	col := utf8.RuneCountInString(p.src[prev+1:last]) + 1
	if prev < 0 {
		col += p.startCol - 1
	}
	return Pos{Line: eof.Line - 1, Column: col, Offset: last}
}

func (p *parser) enter() {
	p.depth++
	if p.depth > maxDepth {
		t := p.tok()
		p.errorf(t.Pos, "Statement is nested too deeply (more than %d levels)", maxDepth)
	}
}

func (p *parser) leave() { p.depth-- }

// ---------------------------------------------------------------------------
// names and literals

// isIdentTok reports whether t can be an identifier: a quoted identifier or
// an unquoted word that is not a reserved keyword.
func isIdentTok(t *Token) bool {
	if t.Kind == TokQuotedIdent {
		return true
	}
	return t.Kind == TokIdent && !keywordTable[t.upper]
}

func (p *parser) isIdent() bool {
	p.want("<IDENTIFIER>")
	return isIdentTok(p.tok())
}

func (p *parser) parseIdent() *Ident {
	if !p.isIdent() {
		p.fail()
	}
	t := p.advance()
	return &Ident{Span: Span{Start: t.Pos, EndOff: t.End}, Name: t.Value, Quoted: t.Kind == TokQuotedIdent}
}

func (p *parser) parseObjectName() *ObjectName {
	first := p.parseIdent()
	n := &ObjectName{Parts: []*Ident{first}}
	for p.isOp(".") && isIdentTok(p.peek(1)) {
		p.advance()
		n.Parts = append(n.Parts, p.parseIdent())
	}
	n.Span = p.span(first.Start)
	return n
}

func (p *parser) parseIdentList() []*Ident {
	var out []*Ident
	for {
		out = append(out, p.parseIdent())
		if !p.acceptOp(",") {
			return out
		}
	}
}

func (p *parser) parseParenIdentList() []*Ident {
	p.expectOp("(")
	l := p.parseIdentList()
	p.expectOp(")")
	return l
}

// parseStringLit reads one or more adjacent string literals and returns
// the concatenated value.
func (p *parser) parseString() (string, Pos) {
	p.want("<QUOTED_STRING>")
	t := p.tok()
	if t.Kind != TokString {
		p.fail()
	}
	p.advance()
	v := t.Value
	for p.tok().Kind == TokString {
		v += p.advance().Value
	}
	return v, t.Pos
}

func (p *parser) parseInt() int {
	p.want("<UNSIGNED_INTEGER_LITERAL>")
	t := p.tok()
	if t.Kind != TokInteger {
		p.fail()
	}
	n, err := strconv.Atoi(t.Text)
	if err != nil || n > 1<<31-1 {
		p.errorf(t.Pos, "Numeric literal '%s' out of range", t.Text)
	}
	p.advance()
	return n
}

// parseProperties parses ( 'k' = 'v' [, ...] ) option lists.
func (p *parser) parseProperties() []*Property {
	p.expectOp("(")
	var out []*Property
	if p.acceptOp(")") {
		return out
	}
	for {
		out = append(out, p.parseProperty(false))
		if !p.acceptOp(",") {
			break
		}
	}
	p.expectOp(")")
	return out
}

// parseProperty parses 'k' = 'v'. In partition specs (partSpec) the key is
// an identifier and the value any literal.
func (p *parser) parseProperty(partSpec bool) *Property {
	t := p.tok()
	prop := &Property{KeyPos: t.Pos}
	switch {
	case t.Kind == TokString:
		prop.Key, _ = p.parseString()
	case partSpec && t.Kind == TokIdent, isIdentTok(t):
		// partition keys may be any word (Flink's docs use PARTITION (date = ...))
		p.advance()
		prop.Key = t.Value
		for p.isOp(".") && (p.peek(1).Kind == TokIdent || p.peek(1).Kind == TokQuotedIdent) {
			p.advance()
			prop.Key += "." + p.advance().Value
		}
		if partSpec && (p.isOp(",") || p.isOp(")")) {
			prop.Span = p.span(t.Pos)
			return prop
		}
	case t.Kind == TokQuotedIdent:
		n := p.parseObjectName()
		var parts []string
		for _, x := range n.Parts {
			parts = append(parts, x.Name)
		}
		prop.Key = strings.Join(parts, ".")
	default:
		p.want("<QUOTED_STRING>")
		p.want("<IDENTIFIER>")
		p.fail()
	}
	p.expectOp("=")
	if partSpec {
		e := p.parseLiteralExpr()
		prop.ValueExpr = e
		switch v := e.(type) {
		case *StringLit:
			prop.Value = v.Value
		default:
			prop.Value = p.src[e.Pos().Offset-p.base : e.End()-p.base]
		}
	} else if p.tok().Kind == TokUnicodeString {
		// Flink's csv docs: 'csv.field-delimiter' = U&'\0001'
		if lit, ok := p.parsePrimary().(*StringLit); ok {
			prop.Value = UnescapeUnicode(lit.Value)
		}
	} else {
		prop.Value, _ = p.parseString()
	}
	prop.Span = p.span(t.Pos)
	return prop
}

// parseLiteralExpr parses a (possibly signed) literal.
func (p *parser) parseLiteralExpr() Expr {
	t := p.tok()
	if t.Kind == TokOp && (t.Text == "-" || t.Text == "+") {
		p.advance()
		x := p.parseLiteralExpr()
		return &UnaryExpr{Span: p.span(t.Pos), Op: t.Text, X: x}
	}
	switch t.Kind {
	case TokString, TokInteger, TokDecimal, TokApprox, TokBinary, TokUnicodeString:
		return p.parsePrimary()
	case TokIdent:
		switch t.upper {
		case "TRUE", "FALSE", "NULL", "DATE", "TIME", "TIMESTAMP", "INTERVAL", "TIMESTAMP_LTZ":
			return p.parsePrimary()
		}
	}
	p.want("<literal>")
	p.fail()
	return nil
}
