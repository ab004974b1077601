package sql

// Operator precedence levels, lowest first (following Calcite).
const (
	precOr      = 1
	precAnd     = 2
	precNot     = 3
	precIs      = 4 // IS [NOT] NULL/TRUE/..., IS [NOT] DISTINCT FROM
	precCmp     = 5 // = <> < > <= >= <=>
	precLike    = 6 // LIKE, SIMILAR TO, IN, BETWEEN
	precAdd     = 7 // + -
	precMul     = 8 // * / % ||
	precUnary   = 9 // prefix - +
	precPrimary = 10
)

func (p *parser) parseExpr() Expr { return p.parseExprPrec(0) }

func (p *parser) parseExprList() []Expr {
	var out []Expr
	for {
		out = append(out, p.parseExpr())
		if !p.acceptOp(",") {
			return out
		}
	}
}

// binaryOp returns the operator at the current token and its precedence,
// or "" when the current token does not continue an expression.
func (p *parser) binaryOp() (string, int) {
	t := p.tok()
	if t.Kind == TokOp {
		p.want("+")
		switch t.Text {
		case "=", "<>", "<", ">", "<=", ">=", "<=>":
			return t.Text, precCmp
		case "!=":
			return "<>", precCmp
		case "+", "-":
			return t.Text, precAdd
		case "*", "/", "%", "||":
			return t.Text, precMul
		}
		return "", 0
	}
	if t.Kind != TokIdent {
		return "", 0
	}
	switch t.upper {
	case "OR":
		return "OR", precOr
	case "AND":
		return "AND", precAnd
	case "IS":
		return "IS", precIs
	case "LIKE", "ILIKE", "IN", "BETWEEN":
		return t.upper, precLike
	case "OVERLAPS":
		// (start1, end1) OVERLAPS (start2, end2): a BinaryExpr of two RowExprs
		return "OVERLAPS", precLike
	case "SIMILAR":
		if p.peekKw(1, "TO") {
			return "SIMILAR", precLike
		}
	case "NOT":
		n := p.peek(1)
		if n.Kind == TokIdent {
			switch n.upper {
			case "LIKE", "ILIKE", "IN", "BETWEEN", "SIMILAR":
				return "NOT", precLike
			}
		}
	}
	p.want("AND")
	p.want("OR")
	p.want("IS")
	p.want("LIKE")
	p.want("IN")
	p.want("BETWEEN")
	return "", 0
}

func (p *parser) parseExprPrec(min int) Expr {
	p.enter()
	defer p.leave()
	t := p.tok()
	start := t.Pos
	var left Expr
	switch {
	case t.Kind == TokIdent && t.upper == "NOT" && min <= precNot:
		p.advance()
		x := p.parseExprPrec(precNot) // NOT NOT x, as Calcite allows
		left = &UnaryExpr{Span: p.span(start), Op: "NOT", X: x}
	case t.Kind == TokOp && (t.Text == "-" || t.Text == "+"):
		p.advance()
		x := p.parseExprPrec(precUnary)
		left = &UnaryExpr{Span: p.span(start), Op: t.Text, X: x}
	default:
		left = p.parsePostfix(p.parsePrimary())
	}
	for {
		op, prec := p.binaryOp()
		if op == "" || prec < min {
			return left
		}
		opTok := p.advance()
		switch op {
		case "IS":
			left = p.parseIsTail(left)
		case "NOT", "LIKE", "ILIKE", "SIMILAR", "IN", "BETWEEN":
			not := false
			if op == "NOT" {
				not = true
				op = p.advance().upper
			}
			left = p.parsePredicateTail(left, op, not)
		default:
			if prec == precCmp && op != "<=>" && p.atQuantifier() {
				q := p.advance().upper
				p.expectOp("(")
				query := p.parseQuery()
				p.expectOp(")")
				left = &QuantifiedExpr{Span: p.span(start), X: left, Op: op, Quantifier: q, Query: query}
				continue
			}
			y := p.parseExprPrec(prec + 1)
			left = &BinaryExpr{Span: p.span(start), Op: op, OpPos: opTok.Pos, X: left, Y: y}
		}
	}
}

// parseIsTail parses what follows IS.
func (p *parser) parseIsTail(x Expr) Expr {
	start := x.Pos()
	not := p.acceptKw("NOT")
	if p.acceptKw("DISTINCT") {
		p.expectKw("FROM")
		y := p.parseExprPrec(precIs + 1)
		return &IsDistinctFromExpr{Span: p.span(start), X: x, Y: y, Not: not}
	}
	var what string
	switch {
	case p.acceptKw("NULL"):
		what = "NULL"
	case p.acceptKw("TRUE"):
		what = "TRUE"
	case p.acceptKw("FALSE"):
		what = "FALSE"
	case p.acceptKw("UNKNOWN"):
		what = "UNKNOWN"
	case p.acceptKw("JSON"):
		what = "JSON VALUE"
		switch {
		case p.acceptKw("VALUE"):
		case p.acceptKw("SCALAR"):
			what = "JSON SCALAR"
		case p.acceptKw("ARRAY"):
			what = "JSON ARRAY"
		case p.acceptKw("OBJECT"):
			what = "JSON OBJECT"
		}
	default:
		p.fail()
	}
	return &IsExpr{Span: p.span(start), X: x, Not: not, What: what}
}

func (p *parser) parsePredicateTail(x Expr, op string, not bool) Expr {
	start := x.Pos()
	switch op {
	case "LIKE", "ILIKE", "SIMILAR":
		if op == "SIMILAR" {
			p.expectKw("TO")
			op = "SIMILAR TO"
		}
		pat := p.parseExprPrec(precLike + 1)
		var esc Expr
		if p.acceptKw("ESCAPE") {
			esc = p.parseExprPrec(precLike + 1)
		}
		return &LikeExpr{Span: p.span(start), X: x, Not: not, Op: op, Pattern: pat, Escape: esc}
	case "IN":
		in := &InExpr{X: x, Not: not}
		p.expectOp("(")
		if p.atQueryStart() {
			in.Query = p.parseQuery()
		} else {
			in.List = p.parseExprList()
		}
		p.expectOp(")")
		in.Span = p.span(start)
		return in
	default: // BETWEEN
		b := &BetweenExpr{X: x, Not: not}
		if p.acceptKw("ASYMMETRIC") {
			b.Symmetric = "ASYMMETRIC"
		} else if p.acceptKw("SYMMETRIC") {
			b.Symmetric = "SYMMETRIC"
		}
		b.Low = p.parseExprPrec(precLike + 1)
		p.expectKw("AND")
		b.High = p.parseExprPrec(precLike + 1)
		b.Span = p.span(start)
		return b
	}
}

// atQuantifier reports whether the current token starts the SOME, ANY or
// ALL (subquery) of a quantified comparison.
func (p *parser) atQuantifier() bool {
	t := p.tok()
	if t.Kind != TokIdent || t.upper != "SOME" && t.upper != "ANY" && t.upper != "ALL" || !p.peekOp(1, "(") {
		return false
	}
	i := 1
	for p.peekOp(i, "(") {
		i++
	}
	n := p.peek(i)
	return n.Kind == TokIdent && (n.upper == "SELECT" || n.upper == "WITH" || n.upper == "VALUES")
}

// atQueryStart reports whether the current token starts a query (SELECT,
// WITH, VALUES), looking through any number of opening parentheses.
func (p *parser) atQueryStart() bool {
	p.want("SELECT")
	i := 0
	for p.peekOp(i, "(") {
		i++
	}
	t := p.peek(i)
	if t.Kind != TokIdent {
		return false
	}
	switch t.upper {
	case "SELECT", "WITH", "VALUES":
		return true
	}
	return false
}

// parsePostfix applies element access x[i] and field access x.f.
func (p *parser) parsePostfix(x Expr) Expr {
	for {
		switch {
		case p.isOp("["):
			p.advance()
			idx := p.parseExpr()
			p.expectOp("]")
			x = &IndexExpr{Span: p.span(x.Pos()), X: x, Index: idx}
		case p.isOp(".") && isIdentTok(p.peek(1)):
			p.advance()
			f := p.parseIdent()
			if id, ok := x.(*Identifier); ok {
				id.Parts = append(id.Parts, f)
				id.EndOff = f.EndOff
			} else {
				x = &FieldExpr{Span: p.span(x.Pos()), X: x, Field: f}
			}
		case p.isOp(".") && p.peekOp(1, "*"):
			id, ok := x.(*Identifier)
			if !ok {
				return x
			}
			p.advance()
			p.advance()
			return &Star{Span: p.span(id.Start), Qualifier: id.Parts}
		default:
			return x
		}
	}
}

// reservedFuncs are reserved keywords that may nevertheless be called as
// functions: name(args).
var reservedFuncs = map[string]bool{
	"ABS": true, "AVG": true, "CARDINALITY": true, "CEIL": true, "CEILING": true, "CHAR": true,
	"CHAR_LENGTH": true, "CHARACTER_LENGTH": true, "COALESCE": true, "COLLECT": true,
	"CONVERT": true, "CORR": true, "COUNT": true, "COVAR_POP": true, "COVAR_SAMP": true,
	"CUME_DIST": true, "DENSE_RANK": true, "ELEMENT": true, "EVERY": true, "EXP": true,
	"FIRST_VALUE": true, "FLOOR": true, "FUSION": true, "GROUPING": true, "HOUR": true,
	"INTERSECTION": true, "LAG": true, "LAST_VALUE": true, "LEAD": true, "LEFT": true,
	"LN": true, "LOWER": true, "MAX": true, "MIN": true, "MINUTE": true, "MOD": true,
	"MONTH": true, "NTH_VALUE": true, "NTILE": true, "NULLIF": true, "OCTET_LENGTH": true,
	"PERCENT_RANK": true, "PERCENTILE_CONT": true, "PERCENTILE_DISC": true, "POWER": true,
	"RANK": true, "REGR_COUNT": true, "REGR_SXX": true, "REGR_SYY": true, "RIGHT": true,
	"ROW_NUMBER": true, "SECOND": true, "SOME": true, "ANY": true, "SQRT": true,
	"STDDEV_POP": true, "STDDEV_SAMP": true, "SUM": true, "UPPER": true, "TRUNCATE": true,
	"USER": true, "VAR_POP": true, "VAR_SAMP": true, "YEAR": true, "DAY": true,
	"CURRENT_DATE": true, "CURRENT_TIME": true, "CURRENT_TIMESTAMP": true, "LOCALTIME": true,
	"LOCALTIMESTAMP": true, "TRANSLATE": true, "ARRAY_CONCAT_AGG": true, "STRING_AGG": true,
	"GROUP_CONCAT": true, "MATCH_NUMBER": true, "CLASSIFIER": true, "PREV": true, "NEXT": true,
	"FINAL": true, "RUNNING": true, "WIDTH_BUCKET": true, "REGR_AVGX": true, "REGR_AVGY": true,
	"REGR_INTERCEPT": true, "REGR_R2": true, "REGR_SLOPE": true, "REGR_SXY": true,
	"JSON_VALUE": true, "JSON_QUERY": true, "JSON_EXISTS": true, "JSON_OBJECT": true,
	"JSON_ARRAY": true, "JSON_OBJECTAGG": true, "JSON_ARRAYAGG": true, "UNNEST": false,
	"CURRENT_CATALOG": true, "CURRENT_SCHEMA": true, "CURRENT_USER": true, "SESSION_USER": true,
	"SYSTEM_USER": true, "CURRENT_ROLE": true, "CURRENT_PATH": true, "POSITION": true,
	"SUBSTRING": true, "OVERLAY": true, "TRIM": true, "EXTRACT": true, "DATE": false,
	"LIKE_REGEX": true, "OCCURRENCES_REGEX": true, "POSITION_REGEX": true, "SUBSTRING_REGEX": true,
	"TRANSLATE_REGEX": true, "UPSERT": false, "FIRST": false, "LAST": false,
}

// niladicFuncs may be written without parentheses.
var niladicFuncs = map[string]bool{
	"CURRENT_DATE": true, "CURRENT_TIME": true, "CURRENT_TIMESTAMP": true, "LOCALTIME": true,
	"LOCALTIMESTAMP": true, "CURRENT_USER": true, "SESSION_USER": true, "SYSTEM_USER": true,
	"USER": true, "CURRENT_ROLE": true, "CURRENT_PATH": true, "CURRENT_CATALOG": true,
	"CURRENT_SCHEMA": true,
}

func (p *parser) parsePrimary() Expr {
	t := p.tok()
	start := t.Pos
	switch t.Kind {
	case TokInteger, TokDecimal, TokApprox:
		p.advance()
		k := NumInteger
		if t.Kind == TokDecimal {
			k = NumDecimal
		} else if t.Kind == TokApprox {
			k = NumApprox
		}
		return &NumberLit{Span: p.span(start), Kind: k, Text: t.Text}
	case TokString:
		v, _ := p.parseString()
		return &StringLit{Span: p.span(start), Value: v}
	case TokUnicodeString:
		p.advance()
		v := t.Value
		for p.tok().Kind == TokString {
			v += p.advance().Value
		}
		if p.acceptKw("UESCAPE") {
			p.parseString()
		}
		return &StringLit{Span: p.span(start), Value: v, Unicode: true}
	case TokBinary:
		p.advance()
		v := t.Value
		for p.tok().Kind == TokString {
			v += p.advance().Value
		}
		for _, c := range v {
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' || c == ' ') {
				p.errorf(start, "Binary literal string must contain only characters '0' - '9', 'A' - 'F'")
			}
		}
		return &BinaryLit{Span: p.span(start), Hex: v}
	case TokQuotedIdent:
		return p.parseNameOrCall()
	case TokOp:
		switch t.Text {
		case "(":
			return p.parseParenExpr()
		case "?":
			p.advance()
			e := &ParamExpr{Span: p.span(start), Index: p.params}
			p.params++
			return e
		}
	case TokIdent:
		if e := p.parseKeywordExpr(t); e != nil {
			return e
		}
		if !keywordTable[t.upper] {
			return p.parseNameOrCall()
		}
		if reservedFuncs[t.upper] && p.peekOp(1, "(") {
			return p.parseNameOrCall()
		}
	case TokError:
		p.fail()
	}
	p.want("<IDENTIFIER>")
	p.want("<literal>")
	p.want("(")
	p.fail()
	return nil
}

// parseParenExpr parses ( ... ): a scalar subquery, a parenthesised
// expression or a row (a, b).
func (p *parser) parseParenExpr() Expr {
	start := p.tok().Pos
	if p.peekKw(1, "SELECT") || p.peekKw(1, "WITH") || p.peekKw(1, "VALUES") {
		p.advance()
		q := p.parseQuery()
		p.expectOp(")")
		return &SubqueryExpr{Span: p.span(start), Query: q}
	}
	p.advance()
	items := p.parseExprList()
	if len(items) == 1 {
		if sq, ok := items[0].(*SubqueryExpr); ok && p.atSetOpOrQueryTail() {
			// ((SELECT ...) UNION ...) as a scalar subquery
			q := p.continueQuery(sq.Query, sq.Start)
			p.expectOp(")")
			return &SubqueryExpr{Span: p.span(start), Query: q}
		}
	}
	p.expectOp(")")
	if len(items) == 1 {
		return items[0]
	}
	return &RowExpr{Span: p.span(start), Items: items}
}

// parseKeywordExpr handles expressions introduced by a keyword; it returns
// nil when t does not start one.
func (p *parser) parseKeywordExpr(t *Token) Expr {
	start := t.Pos
	next := p.peek(1)
	nextParen := next.Kind == TokOp && next.Text == "("
	switch t.upper {
	case "NULL":
		p.advance()
		return &NullLit{Span: p.span(start)}
	case "TRUE", "FALSE":
		p.advance()
		return &BoolLit{Span: p.span(start), Value: t.upper == "TRUE"}
	case "UNKNOWN":
		p.advance()
		return &UnknownLit{Span: p.span(start)}
	case "DATE", "TIME", "TIMESTAMP", "TIMESTAMP_LTZ":
		if next.Kind == TokString {
			p.advance()
			v, _ := p.parseString()
			return &DateTimeLit{Span: p.span(start), Type: t.upper, Value: v}
		}
	case "INTERVAL":
		return p.parseInterval()
	case "CASE":
		return p.parseCase()
	case "CAST":
		return p.parseCast(false)
	case "TRY_CAST":
		if nextParen {
			return p.parseCast(true)
		}
	case "EXISTS":
		p.advance()
		p.expectOp("(")
		q := p.parseQuery()
		p.expectOp(")")
		return &ExistsExpr{Span: p.span(start), Query: q}
	case "ROW":
		if nextParen {
			p.advance()
			p.advance()
			var items []Expr
			if !p.isOp(")") {
				items = p.parseExprList()
			}
			p.expectOp(")")
			return &RowExpr{Span: p.span(start), Explicit: true, Items: items}
		}
	case "ARRAY", "MAP":
		if next.Kind == TokOp && (next.Text == "[" || next.Text == "(") {
			p.advance()
			var items []Expr
			var q *Query
			if p.acceptOp("[") {
				if !p.isOp("]") {
					items = p.parseExprList()
				}
				p.expectOp("]")
			} else {
				p.expectOp("(")
				q = p.parseQuery()
				p.expectOp(")")
			}
			if t.upper == "ARRAY" {
				return &ArrayExpr{Span: p.span(start), Items: items, Query: q}
			}
			if len(items)%2 != 0 {
				p.errorf(start, "MAP constructor needs an even number of arguments (key, value pairs)")
			}
			return &MapExpr{Span: p.span(start), Items: items, Query: q}
		}
	case "DESCRIPTOR":
		if nextParen {
			p.advance()
			cols := p.parseParenIdentList()
			return &Descriptor{Span: p.span(start), Columns: cols}
		}
	case "TABLE":
		p.advance()
		if p.isOp("(") {
			// Calcite's TableParam takes a name only: a query is passed
			// as (SELECT ...), without TABLE
			p.errorf(p.tok().Pos, "Encountered \"(\"")
		}
		ta := &TableArg{Name: p.parseObjectName()}
		p.parseTableArgClauses(ta)
		ta.Span = p.span(start)
		return ta
	case "SELECT", "VALUES", "WITH":
		// a query where an expression is expected, e.g. IN (...) handled
		// elsewhere; report a syntax error at the keyword.
		return nil
	case "MATCH_RECOGNIZE":
		p.errorf(start, "MATCH_RECOGNIZE follows a table in FROM; it is not an expression")
	}
	if niladicFuncs[t.upper] && !nextParen {
		p.advance()
		name := &ObjectName{Span: p.span(start), Parts: []*Ident{{Span: p.span(start), Name: t.Text}}}
		return &FuncCall{Span: p.span(start), Name: name, Syntax: SyntaxNiladic}
	}
	return nil
}

// parseNameOrCall parses an identifier (possibly compound) or a function
// call name(...).
func (p *parser) parseNameOrCall() Expr {
	start := p.tok().Pos
	first := p.advance()
	parts := []*Ident{{Span: Span{Start: first.Pos, EndOff: first.End}, Name: first.Value, Quoted: first.Kind == TokQuotedIdent}}
	for p.isOp(".") && isIdentTok(p.peek(1)) {
		p.advance()
		parts = append(parts, p.parseIdent())
	}
	if p.isOp("(") {
		name := &ObjectName{Span: p.span(start), Parts: parts}
		return p.parseCall(name)
	}
	if len(parts) == 1 && p.isOp("=>") {
		// named argument; handled by the caller (parseCallArg)
		return &Identifier{Span: p.span(start), Parts: parts}
	}
	return &Identifier{Span: p.span(start), Parts: parts}
}

func isTimeUnitWord(w string) bool {
	_, ok := timeUnits[w]
	return ok
}

// timeUnits maps unit words (singular, plural, SQL_TSI_*) to the
// canonical singular unit.
var timeUnits = map[string]string{
	"MILLENNIUM": "MILLENNIUM", "CENTURY": "CENTURY", "DECADE": "DECADE",
	"YEAR": "YEAR", "YEARS": "YEAR", "QUARTER": "QUARTER", "QUARTERS": "QUARTER",
	"MONTH": "MONTH", "MONTHS": "MONTH", "WEEK": "WEEK", "WEEKS": "WEEK",
	"DAY": "DAY", "DAYS": "DAY", "HOUR": "HOUR", "HOURS": "HOUR",
	"MINUTE": "MINUTE", "MINUTES": "MINUTE", "SECOND": "SECOND", "SECONDS": "SECOND",
	"MILLISECOND": "MILLISECOND", "MILLISECONDS": "MILLISECOND",
	"MICROSECOND": "MICROSECOND", "MICROSECONDS": "MICROSECOND",
	"NANOSECOND": "NANOSECOND", "NANOSECONDS": "NANOSECOND",
	"DOW": "DOW", "DOY": "DOY", "EPOCH": "EPOCH", "ISODOW": "ISODOW", "ISOYEAR": "ISOYEAR",
	"DAYOFWEEK": "DAYOFWEEK", "DAYOFYEAR": "DAYOFYEAR", "FRAC_SECOND": "MICROSECOND",
	"SQL_TSI_YEAR": "YEAR", "SQL_TSI_QUARTER": "QUARTER", "SQL_TSI_MONTH": "MONTH",
	"SQL_TSI_WEEK": "WEEK", "SQL_TSI_DAY": "DAY", "SQL_TSI_HOUR": "HOUR",
	"SQL_TSI_MINUTE": "MINUTE", "SQL_TSI_SECOND": "SECOND",
	"SQL_TSI_MICROSECOND": "MICROSECOND", "SQL_TSI_FRAC_SECOND": "MICROSECOND",
}

// parseTimeUnit parses a time unit keyword into a Symbol.
func (p *parser) parseTimeUnit() *Symbol {
	t := p.tok()
	p.want("<time unit>")
	if t.Kind == TokIdent {
		if u, ok := timeUnits[t.upper]; ok {
			p.advance()
			return &Symbol{Span: p.span(t.Pos), Name: u}
		}
	}
	p.fail()
	return nil
}

// intervalUnits are the units allowed in an interval qualifier.
var intervalUnits = map[string]bool{
	"YEAR": true, "QUARTER": true, "MONTH": true, "WEEK": true, "DAY": true, "HOUR": true,
	"MINUTE": true, "SECOND": true, "MILLISECOND": true, "MICROSECOND": true, "NANOSECOND": true,
}

func (p *parser) parseIntervalQualifier() *IntervalQualifier {
	start := p.tok().Pos
	q := &IntervalQualifier{StartPrecision: -1, FracPrecision: -1}
	unit := p.parseTimeUnit()
	if !intervalUnits[unit.Name] {
		p.errorf(unit.Start, "Invalid interval unit %s", unit.Name)
	}
	q.StartUnit = unit.Name
	if p.acceptOp("(") {
		q.StartPrecision = p.parseInt()
		if q.StartUnit == "SECOND" && p.acceptOp(",") {
			q.FracPrecision = p.parseInt()
		}
		p.expectOp(")")
	}
	if p.acceptKw("TO") {
		end := p.parseTimeUnit()
		if !intervalUnits[end.Name] {
			p.errorf(end.Start, "Invalid interval unit %s", end.Name)
		}
		q.EndUnit = end.Name
		if end.Name == "SECOND" && p.acceptOp("(") {
			q.FracPrecision = p.parseInt()
			p.expectOp(")")
		}
	}
	q.Span = p.span(start)
	return q
}

func (p *parser) parseInterval() Expr {
	start := p.advance().Pos // INTERVAL
	lit := &IntervalLit{}
	if p.acceptOp("-") {
		lit.Negative = true
	} else {
		p.acceptOp("+")
	}
	if t := p.tok(); t.Kind != TokString {
		// Calcite's IntervalLiteralOrExpression: INTERVAL 2 DAY,
		// INTERVAL (expr) DAY, INTERVAL col DAY, each value times one unit
		var n Expr
		switch {
		case t.Kind == TokInteger || t.Kind == TokDecimal:
			p.advance()
			k := NumInteger
			if t.Kind == TokDecimal {
				k = NumDecimal
			}
			n = &NumberLit{Span: p.span(t.Pos), Kind: k, Text: t.Text}
		case p.isOp("("):
			p.advance()
			n = p.parseExpr()
			p.expectOp(")")
		case isIdentTok(t) && !intervalUnits[t.upper]:
			n = p.parseNameOrCall()
			if _, ok := n.(*Identifier); !ok {
				p.errorf(t.Pos, "Encountered \"%s\" at line %d, column %d", t.Text, t.Pos.Line, t.Pos.Column)
			}
		default:
			p.want("<QUOTED_STRING>")
			p.want("<UNSIGNED_NUMERIC_LITERAL>")
			p.want("(")
			p.fail()
		}
		q := p.parseIntervalQualifier()
		if q.EndUnit != "" {
			p.errorf(q.Start, "Encountered \"TO\": INTERVAL with a number or expression takes a single unit")
		}
		one := &IntervalLit{Span: p.span(start), Value: "1", Qualifier: &IntervalQualifier{Span: q.Span, StartUnit: q.StartUnit, StartPrecision: -1, FracPrecision: -1}}
		if lit.Negative {
			n = &UnaryExpr{Span: p.span(start), Op: "-", X: n}
		}
		return &BinaryExpr{Span: p.span(start), Op: "*", X: n, Y: one}
	}
	lit.Value, _ = p.parseString()
	lit.Qualifier = p.parseIntervalQualifier()
	lit.Span = p.span(start)
	return lit
}

func (p *parser) parseCase() Expr {
	start := p.advance().Pos
	c := &CaseExpr{}
	if !p.isKw("WHEN") {
		c.Operand = p.parseExpr()
	}
	for p.isKw("WHEN") {
		ws := p.advance().Pos
		cond := p.parseExpr()
		var more []Expr
		for c.Operand != nil && p.acceptOp(",") {
			more = append(more, p.parseExpr())
		}
		p.expectKw("THEN")
		res := p.parseExpr()
		c.Whens = append(c.Whens, &When{Span: p.span(ws), Cond: cond, Result: res, More: more})
	}
	if len(c.Whens) == 0 {
		p.fail()
	}
	if p.acceptKw("ELSE") {
		c.Else = p.parseExpr()
	}
	p.expectKw("END")
	c.Span = p.span(start)
	return c
}

func (p *parser) parseCast(try bool) Expr {
	start := p.advance().Pos
	p.expectOp("(")
	x := p.parseExpr()
	p.expectKw("AS")
	ty := p.parseDataType()
	p.expectOp(")")
	return &CastExpr{Span: p.span(start), Try: try, X: x, Type: ty}
}

func (p *parser) parseOrderItems() []*OrderItem { return p.parseOrderItemsN(false) }

func (p *parser) parseOrderItems1() []*OrderItem { return p.parseOrderItemsN(true) }

func (p *parser) parseOrderItemsN(single bool) []*OrderItem {
	var out []*OrderItem
	for {
		start := p.tok().Pos
		it := &OrderItem{Expr: p.parseExpr()}
		if p.acceptKw("DESC") {
			it.Desc = true
		} else if p.acceptKw("ASC") {
			it.Asc = true
		}
		if p.acceptKw("NULLS") {
			if p.acceptKw("FIRST") {
				it.Nulls = "FIRST"
			} else {
				p.expectKw("LAST")
				it.Nulls = "LAST"
			}
		}
		it.Span = p.span(start)
		out = append(out, it)
		if single || !p.acceptOp(",") {
			return out
		}
	}
}
