package sql

// parseQuery parses [WITH ...] body [ORDER BY] [LIMIT] [OFFSET] [FETCH].
func (p *parser) parseQuery() *Query {
	p.enter()
	defer p.leave()
	start := p.tok().Pos
	q := &Query{}
	if p.isKw("WITH") {
		q.With = p.parseWith()
	}
	q.Body = p.parseSetOps(0)
	p.parseQueryTail(q)
	q.Span = p.span(start)
	return collapseQuery(q)
}

// collapseQuery removes a redundant wrapper: a Query without clauses of
// its own whose body is itself a Query.
func collapseQuery(q *Query) *Query {
	if inner, ok := q.Body.(*Query); ok && q.With == nil && len(q.OrderBy) == 0 && q.Limit == nil && q.Offset == nil && !q.LimitAll {
		return inner
	}
	return q
}

// atSetOpOrQueryTail reports whether the current token continues a query
// after a complete query term.
func (p *parser) atSetOpOrQueryTail() bool {
	for _, w := range []string{"UNION", "INTERSECT", "EXCEPT", "MINUS", "ORDER", "LIMIT", "OFFSET", "FETCH"} {
		if p.isKw(w) {
			return true
		}
	}
	return false
}

// continueQuery continues parsing a query whose first term q has already
// been read (used for ((SELECT ...) UNION ...) in expression context).
func (p *parser) continueQuery(first *Query, start Pos) *Query {
	var left QueryExpr = unwrapTerm(first)
	left = p.parseSetOpsFrom(left, 0)
	q := &Query{Body: left}
	p.parseQueryTail(q)
	q.Span = p.span(start)
	return collapseQuery(q)
}

func unwrapTerm(q *Query) QueryExpr {
	if q.With == nil && len(q.OrderBy) == 0 && q.Limit == nil && q.Offset == nil && !q.LimitAll {
		return q.Body
	}
	return q
}

func (p *parser) parseQueryTail(q *Query) {
	if p.acceptKws("ORDER", "BY") {
		q.OrderBy = p.parseOrderItems()
	}
	if p.acceptKw("LIMIT") {
		if p.acceptKw("ALL") {
			q.LimitAll = true
		} else {
			q.Limit = p.parseExprPrec(precAdd)
		}
	}
	if p.acceptKw("OFFSET") {
		q.Offset = p.parseExprPrec(precAdd)
		if !p.acceptKw("ROWS") {
			p.acceptKw("ROW")
		}
	}
	if q.Limit == nil && !q.LimitAll && p.acceptKw("FETCH") {
		if !p.acceptKw("FIRST") {
			p.expectKw("NEXT")
		}
		q.Limit = p.parseExprPrec(precAdd)
		if !p.acceptKw("ROWS") {
			p.expectKw("ROW")
		}
		p.expectKw("ONLY")
		q.Fetch = true
	}
}

func (p *parser) parseWith() *With {
	start := p.advance().Pos
	w := &With{}
	w.Recursive = p.acceptKw("RECURSIVE")
	for {
		cs := p.tok().Pos
		c := &CTE{Name: p.parseIdent()}
		if p.isOp("(") {
			c.Columns = p.parseParenIdentList()
		}
		p.expectKw("AS")
		p.expectOp("(")
		c.Query = p.parseQuery()
		p.expectOp(")")
		c.Span = p.span(cs)
		w.CTEs = append(w.CTEs, c)
		if !p.acceptOp(",") {
			break
		}
	}
	w.Span = p.span(start)
	return w
}

func setOpPrec(w string) int {
	switch w {
	case "UNION", "EXCEPT", "MINUS":
		return 1
	case "INTERSECT":
		return 2
	}
	return 0
}

func (p *parser) parseSetOps(min int) QueryExpr {
	return p.parseSetOpsFrom(p.parseQueryTerm(), min)
}

func (p *parser) parseSetOpsFrom(left QueryExpr, min int) QueryExpr {
	for {
		p.want("UNION")
		p.want("INTERSECT")
		p.want("EXCEPT")
		t := p.tok()
		prec := setOpPrec(t.word())
		if prec == 0 || prec < min {
			return left
		}
		p.advance()
		op := &SetOp{Op: t.upper}
		if op.Op == "MINUS" {
			op.Op, op.Minus = "EXCEPT", true
		}
		if p.acceptKw("ALL") {
			op.Quantifier = "ALL"
		} else if p.acceptKw("DISTINCT") {
			op.Quantifier = "DISTINCT"
		}
		right := p.parseSetOps(prec + 1)
		op.Left, op.Right = left, right
		op.Span = Span{Start: left.Pos(), EndOff: p.lastEnd()}
		left = op
	}
}

func (p *parser) parseQueryTerm() QueryExpr {
	p.enter()
	defer p.leave()
	t := p.tok()
	switch {
	case p.isKw("SELECT"):
		return p.parseSelect()
	case p.isKw("VALUES"):
		return p.parseValues()
	case p.isOp("("):
		p.advance()
		q := p.parseQuery()
		p.expectOp(")")
		return unwrapTerm(q)
	case t.Kind == TokIdent && t.upper == "TABLE" && isIdentTok(p.peek(1)):
		// explicit table: TABLE t == SELECT * FROM t
		start := p.advance().Pos
		name := p.parseObjectName()
		sp := p.span(start)
		return &Select{Span: sp, Items: []*SelectItem{{Span: sp, Expr: &Star{Span: sp}}},
			From: &TableRef{Span: name.Span, Name: name}}
	}
	p.fail()
	return nil
}

func (p *parser) parseValues() *Values {
	start := p.advance().Pos
	v := &Values{}
	for {
		rs := p.tok().Pos
		if p.acceptOp("(") {
			var items []Expr
			if !p.isOp(")") {
				items = p.parseExprList()
			}
			p.expectOp(")")
			v.Rows = append(v.Rows, &RowExpr{Span: p.span(rs), Items: items})
		} else {
			v.Rows = append(v.Rows, p.parseExpr())
		}
		if !p.acceptOp(",") {
			break
		}
	}
	v.Span = p.span(start)
	return v
}

func (p *parser) parseHints() []*Hint {
	p.advance() // /*+
	var hints []*Hint
	for {
		hs := p.tok().Pos
		h := &Hint{Name: p.parseIdent()}
		if p.acceptOp("(") {
			if !p.isOp(")") {
				t0 := p.tok()
				if (t0.Kind == TokString || isIdentTok(t0)) && p.peekOp(1, "=") || (isIdentTok(t0) && p.peekOp(1, ".")) {
					for {
						h.KVOptions = append(h.KVOptions, p.parseProperty(false))
						if !p.acceptOp(",") {
							break
						}
					}
				} else {
					for {
						t := p.tok()
						switch {
						case t.Kind == TokString:
							v, _ := p.parseString()
							h.Options = append(h.Options, v)
						case isIdentTok(t) || t.Kind == TokInteger || t.Kind == TokDecimal:
							p.advance()
							h.Options = append(h.Options, t.Value)
						default:
							p.want("<IDENTIFIER>")
							p.want("<QUOTED_STRING>")
							p.fail()
						}
						if !p.acceptOp(",") {
							break
						}
					}
				}
			}
			p.expectOp(")")
		}
		h.Span = p.span(hs)
		hints = append(hints, h)
		if !p.acceptOp(",") {
			break
		}
	}
	p.want("*/")
	if p.tok().Kind != TokHintEnd {
		p.fail()
	}
	p.advance()
	return hints
}

func (p *parser) parseSelect() *Select {
	start := p.advance().Pos
	s := &Select{}
	if p.tok().Kind == TokHintStart {
		s.Hints = p.parseHints()
	}
	if p.acceptKw("DISTINCT") {
		s.Quantifier = "DISTINCT"
	} else if p.acceptKw("ALL") {
		s.Quantifier = "ALL"
	}
	for {
		s.Items = append(s.Items, p.parseSelectItem())
		if !p.acceptOp(",") {
			break
		}
	}
	if p.acceptKw("FROM") {
		s.From = p.parseFrom()
	}
	if p.acceptKw("WHERE") {
		s.Where = p.parseExpr()
	}
	if p.acceptKws("GROUP", "BY") {
		if p.acceptKw("DISTINCT") {
			s.GroupByQuantifier = "DISTINCT"
		} else if p.acceptKw("ALL") {
			s.GroupByQuantifier = "ALL"
		}
		for {
			s.GroupBy = append(s.GroupBy, p.parseGroupingElement())
			if !p.acceptOp(",") {
				break
			}
		}
	}
	if p.acceptKw("HAVING") {
		s.Having = p.parseExpr()
	}
	if p.acceptKw("WINDOW") {
		for {
			ws := p.tok().Pos
			nw := &NamedWindow{Name: p.parseIdent()}
			p.expectKw("AS")
			nw.Spec = p.parseWindowSpec()
			nw.Span = p.span(ws)
			s.Windows = append(s.Windows, nw)
			if !p.acceptOp(",") {
				break
			}
		}
	}
	if p.acceptKw("QUALIFY") {
		s.Qualify = p.parseExpr()
	}
	s.Span = p.span(start)
	return s
}

func (p *parser) parseSelectItem() *SelectItem {
	start := p.tok().Pos
	it := &SelectItem{}
	if p.isOp("*") {
		t := p.advance()
		it.Expr = &Star{Span: Span{Start: t.Pos, EndOff: t.End}}
		it.Span = p.span(start)
		return it
	}
	it.Expr = p.parseExpr()
	if _, star := it.Expr.(*Star); !star {
		if p.acceptKw("AS") {
			it.Alias = p.parseIdent()
		} else if p.isIdent() {
			it.Alias = p.parseIdent()
		}
	}
	it.Span = p.span(start)
	return it
}

func (p *parser) parseGroupingElement() *GroupingElement {
	start := p.tok().Pos
	g := &GroupingElement{}
	switch {
	case p.isOp("(") && p.peekOp(1, ")"):
		p.advance()
		p.advance()
		g.Kind = GroupEmpty
	case p.isKw("GROUPING") && p.peekKw(1, "SETS"):
		p.advance()
		p.advance()
		p.expectOp("(")
		g.Kind = GroupSets
		for {
			g.Sets = append(g.Sets, p.parseGroupingElement())
			if !p.acceptOp(",") {
				break
			}
		}
		p.expectOp(")")
	case (p.isKw("ROLLUP") || p.isKw("CUBE")) && p.peekOp(1, "("):
		if p.advance().upper == "ROLLUP" {
			g.Kind = GroupRollup
		} else {
			g.Kind = GroupCube
		}
		p.expectOp("(")
		g.Exprs = p.parseExprList()
		p.expectOp(")")
	default:
		g.Kind = GroupExpr
		g.Exprs = []Expr{p.parseExpr()}
	}
	g.Span = p.span(start)
	return g
}

// parseFrom parses the FROM list: items joined by commas and JOINs, all
// left-associative at one level (as in Calcite).
func (p *parser) parseFrom() TableExpr {
	left := p.parseTableRef()
	for {
		start := left.Pos()
		j := &Join{Left: left}
		switch {
		case p.acceptOp(","):
			j.Type = JoinComma
			j.Right = p.parseTableRef()
			j.Span = p.span(start)
			left = j
			continue
		case p.acceptKws("CROSS", "APPLY"):
			j.Type = JoinCrossApply
			j.Right = p.parseTableRef()
			j.Span = p.span(start)
			left = j
			continue
		case p.acceptKws("OUTER", "APPLY"):
			j.Type = JoinOuterApply
			j.Right = p.parseTableRef()
			j.Span = p.span(start)
			left = j
			continue
		}
		if p.acceptKw("NATURAL") {
			j.Natural = true
		}
		switch {
		case p.acceptKw("JOIN"):
			j.Type = JoinInner
		case p.acceptKw("INNER"):
			p.expectKw("JOIN")
			j.Type = JoinInner
		case p.acceptKw("LEFT"):
			p.acceptKw("OUTER")
			p.expectKw("JOIN")
			j.Type = JoinLeft
		case p.acceptKw("RIGHT"):
			p.acceptKw("OUTER")
			p.expectKw("JOIN")
			j.Type = JoinRight
		case p.acceptKw("FULL"):
			p.acceptKw("OUTER")
			p.expectKw("JOIN")
			j.Type = JoinFull
		case p.acceptKw("CROSS"):
			p.expectKw("JOIN")
			j.Type = JoinCross
		default:
			if j.Natural {
				p.fail()
			}
			return left
		}
		j.Right = p.parseTableRef()
		if j.Type != JoinCross && !j.Natural {
			if p.acceptKw("ON") {
				j.On = p.parseExpr()
			} else if p.acceptKw("USING") {
				j.Using = p.parseParenIdentList()
			} else {
				p.fail()
			}
		}
		j.Span = p.span(start)
		left = j
	}
}

// parseAlias parses [AS] alias [(cols)].
func (p *parser) parseAlias() (*Ident, []*Ident) {
	var alias *Ident
	if p.acceptKw("AS") {
		alias = p.parseIdent()
	} else if p.isIdent() {
		alias = p.parseIdent()
	} else {
		return nil, nil
	}
	var cols []*Ident
	if p.isOp("(") {
		cols = p.parseParenIdentList()
	}
	return alias, cols
}

func (p *parser) parseTableRef() TableExpr {
	p.enter()
	defer p.leave()
	start := p.tok().Pos
	var te TableExpr
	switch {
	case p.isKw("LATERAL"):
		p.advance()
		if p.acceptKw("TABLE") {
			tf := &TableFunc{Lateral: true, Call: p.parseTableFuncCall()}
			tf.Alias, tf.Columns = p.parseAlias()
			tf.Span = p.span(start)
			te = tf
		} else {
			p.expectOp("(")
			q := p.parseQuery()
			p.expectOp(")")
			dt := &DerivedTable{Lateral: true, Query: q}
			dt.Alias, dt.Columns = p.parseAlias()
			dt.Span = p.span(start)
			te = dt
		}
	case p.isKw("TABLE") && p.peekOp(1, "("):
		p.advance()
		tf := &TableFunc{Call: p.parseTableFuncCall()}
		tf.Alias, tf.Columns = p.parseAlias()
		tf.Span = p.span(start)
		te = tf
	case p.isKw("UNNEST"):
		p.advance()
		p.expectOp("(")
		u := &Unnest{Args: p.parseExprList()}
		p.expectOp(")")
		if p.acceptKws("WITH", "ORDINALITY") {
			u.WithOrdinality = true
		}
		u.Alias, u.Columns = p.parseAlias()
		u.Span = p.span(start)
		te = u
	case p.isOp("("):
		if p.atQueryStart() {
			p.advance()
			q := p.parseQuery()
			p.expectOp(")")
			dt := &DerivedTable{Query: q}
			dt.Alias, dt.Columns = p.parseAlias()
			dt.Span = p.span(start)
			te = dt
		} else {
			p.advance()
			te = p.parseFrom()
			p.expectOp(")")
		}
	case p.isKw("VALUES"):
		q := &Query{Body: p.parseValues()}
		q.Span = p.span(start)
		dt := &DerivedTable{Query: q}
		dt.Alias, dt.Columns = p.parseAlias()
		dt.Span = p.span(start)
		te = dt
	default:
		name := p.parseObjectName()
		if p.isOp("(") {
			// f(args): a table function called without TABLE(...)
			fc, ok := p.parseCall(name).(*FuncCall)
			if !ok {
				p.errorf(start, "Table function call expected")
			}
			tf := &TableFunc{Bare: true, Call: fc}
			tf.Alias, tf.Columns = p.parseAlias()
			tf.Span = p.span(start)
			te = tf
			break
		}
		tr := &TableRef{Name: name}
		if p.tok().Kind == TokHintStart {
			tr.Hints = p.parseHints()
		}
		if p.isKw("FOR") && p.peekKw(1, "SYSTEM_TIME") {
			p.p += 2
			p.expectKw("AS")
			p.expectKw("OF")
			tr.SystemTime = p.parseExprPrec(precAdd)
		}
		if !p.isKw("MATCH_RECOGNIZE") {
			tr.Alias, tr.Columns = p.parseAlias()
		}
		tr.Span = p.span(start)
		te = tr
	}
	if p.isKw("MATCH_RECOGNIZE") {
		te = p.parseMatchRecognize(te, start)
	}
	if p.isKw("TABLESAMPLE") {
		p.errorf(p.tok().Pos, "TABLESAMPLE is not supported")
	}
	return te
}

// parseTableFuncCall parses ( f(args) ) after TABLE.
func (p *parser) parseTableFuncCall() *FuncCall {
	p.expectOp("(")
	start := p.tok().Pos
	name := p.parseFuncName()
	if !p.isOp("(") {
		p.fail()
	}
	e := p.parseCall(name)
	p.expectOp(")")
	f, ok := e.(*FuncCall)
	if !ok {
		p.errorf(start, "Table function call expected")
	}
	return f
}

// parseFuncName parses a function name: an identifier path, or a reserved
// word that names a function.
func (p *parser) parseFuncName() *ObjectName {
	t := p.tok()
	if t.Kind == TokIdent && reservedFuncs[t.upper] {
		p.advance()
		id := &Ident{Span: Span{Start: t.Pos, EndOff: t.End}, Name: t.Value}
		return &ObjectName{Span: id.Span, Parts: []*Ident{id}}
	}
	return p.parseObjectName()
}
