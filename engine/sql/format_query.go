package sql

// ---------------------------------------------------------------------------
// queries

func (p *printer) with(w *With) {
	p.w("WITH ")
	if w.Recursive {
		p.w("RECURSIVE ")
	}
	for i, c := range w.CTEs {
		if i > 0 {
			p.w(",")
			if p.calcite {
				p.w(" ")
			} else {
				p.nl()
			}
		}
		p.cte(c)
	}
}

func (p *printer) cte(c *CTE) {
	p.ident(c.Name)
	if len(c.Columns) > 0 {
		p.w(" (")
		p.idents(c.Columns)
		p.w(")")
	}
	p.w(" AS ")
	p.subquery(c.Query)
}

func (p *printer) query(q *Query) {
	if q.With != nil {
		p.with(q.With)
		if p.calcite {
			p.w(" ")
		} else {
			p.nl()
		}
	}
	p.queryExpr(q.Body)
	if len(q.OrderBy) > 0 {
		p.nl()
		p.w("ORDER BY ")
		p.orderItems(q.OrderBy)
	}
	if q.Fetch {
		if q.Offset != nil {
			p.nl()
			p.w("OFFSET ")
			p.sub(q.Offset, precAdd)
			p.w(" ROWS")
		}
		p.nl()
		p.w("FETCH NEXT ")
		p.sub(q.Limit, precAdd)
		p.w(" ROWS ONLY")
		return
	}
	if q.LimitAll {
		p.nl()
		p.w("LIMIT ALL")
	} else if q.Limit != nil {
		p.nl()
		p.w("LIMIT ")
		p.sub(q.Limit, precAdd)
	}
	if q.Offset != nil {
		p.nl()
		p.w("OFFSET ")
		p.sub(q.Offset, precAdd)
	}
}

func (p *printer) queryExpr(q QueryExpr) {
	switch q := q.(type) {
	case *Query:
		p.query(q)
	case *Select:
		p.selectBlock(q)
	case *Values:
		p.w("VALUES ")
		for i, r := range q.Rows {
			if i > 0 {
				p.w(",")
				p.nl()
			}
			p.expr(r)
		}
	case *SetOp:
		p.setOperand(q.Left, setOpPrec(q.Op), false)
		p.nl()
		if q.Minus {
			p.w("MINUS")
		} else {
			p.w(q.Op)
		}
		if q.Quantifier != "" {
			p.w(" " + q.Quantifier)
		}
		p.nl()
		p.setOperand(q.Right, setOpPrec(q.Op), true)
	}
}

func (p *printer) setOperand(q QueryExpr, prec int, right bool) {
	paren := false
	switch q := q.(type) {
	case *Query:
		paren = true
	case *SetOp:
		sp := setOpPrec(q.Op)
		paren = sp < prec || (right && sp <= prec)
	}
	if paren {
		p.w("(")
		p.indent++
		p.brk()
		p.queryExpr(q)
		p.indent--
		p.brk()
		p.w(")")
		return
	}
	p.queryExpr(q)
}

func (p *printer) hintList(hs []*Hint) {
	p.w("/*+ ")
	for i, h := range hs {
		if i > 0 {
			p.w(", ")
		}
		p.ident(h.Name)
		if len(h.KVOptions) > 0 {
			p.w("(")
			for j, kv := range h.KVOptions {
				if j > 0 {
					p.w(", ")
				}
				p.prop(kv)
			}
			p.w(")")
		} else if len(h.Options) > 0 {
			p.w("(")
			for j, o := range h.Options {
				if j > 0 {
					p.w(", ")
				}
				p.str(o)
			}
			p.w(")")
		}
	}
	p.w(" */")
}

func (p *printer) selectItem(it *SelectItem) {
	p.expr(it.Expr)
	if it.Alias != nil {
		p.w(" AS ")
		p.ident(it.Alias)
	}
}

func (p *printer) selectBlock(s *Select) {
	p.w("SELECT")
	if len(s.Hints) > 0 {
		p.w(" ")
		p.hintList(s.Hints)
	}
	if s.Quantifier != "" {
		p.w(" " + s.Quantifier)
	}
	if p.pretty && len(s.Items) > 1 {
		p.indent++
		for i, it := range s.Items {
			if i > 0 {
				p.w(",")
			}
			p.nl()
			p.selectItem(it)
		}
		p.indent--
	} else {
		p.w(" ")
		for i, it := range s.Items {
			if i > 0 {
				p.w(", ")
			}
			p.selectItem(it)
		}
	}
	if s.From != nil {
		p.nl()
		p.w("FROM ")
		p.table(s.From)
	}
	if s.Where != nil {
		p.nl()
		p.w("WHERE ")
		p.expr(s.Where)
	}
	if len(s.GroupBy) > 0 {
		p.nl()
		p.w("GROUP BY ")
		if s.GroupByQuantifier != "" {
			p.w(s.GroupByQuantifier + " ")
		}
		for i, g := range s.GroupBy {
			if i > 0 {
				p.w(", ")
			}
			p.grouping(g)
		}
	}
	if s.Having != nil {
		p.nl()
		p.w("HAVING ")
		p.expr(s.Having)
	}
	if len(s.Windows) > 0 {
		p.nl()
		p.w("WINDOW ")
		for i, nw := range s.Windows {
			if i > 0 {
				p.w(", ")
			}
			p.ident(nw.Name)
			p.w(" AS ")
			p.windowSpec(nw.Spec)
		}
	}
	if s.Qualify != nil {
		p.nl()
		p.w("QUALIFY ")
		p.expr(s.Qualify)
	}
}

func (p *printer) grouping(g *GroupingElement) {
	switch g.Kind {
	case GroupEmpty:
		p.w("()")
	case GroupRollup:
		p.w("ROLLUP(")
		p.exprs(g.Exprs)
		p.w(")")
	case GroupCube:
		p.w("CUBE(")
		p.exprs(g.Exprs)
		p.w(")")
	case GroupSets:
		p.w("GROUPING SETS (")
		for i, s := range g.Sets {
			if i > 0 {
				p.w(", ")
			}
			p.grouping(s)
		}
		p.w(")")
	default:
		p.exprs(g.Exprs)
	}
}

func (p *printer) alias(a *Ident, cols []*Ident) {
	if a == nil {
		return
	}
	p.w(" AS ")
	p.ident(a)
	if len(cols) > 0 {
		if p.calcite {
			p.w(" ")
		}
		p.w("(")
		p.idents(cols)
		p.w(")")
	}
}

func (p *printer) table(t TableExpr) {
	switch t := t.(type) {
	case *TableRef:
		p.objName(t.Name)
		if len(t.Hints) > 0 {
			p.w(" ")
			p.hintList(t.Hints)
		}
		if t.SystemTime != nil {
			p.w(" FOR SYSTEM_TIME AS OF ")
			p.sub(t.SystemTime, precAdd)
		}
		p.alias(t.Alias, t.Columns)
	case *DerivedTable:
		if t.Lateral {
			p.w("LATERAL ")
		}
		p.subquery(t.Query)
		p.alias(t.Alias, t.Columns)
	case *TableFunc:
		if t.Lateral {
			p.w("LATERAL ")
		}
		if t.Bare {
			p.funcCall(t.Call)
		} else {
			p.w("TABLE(")
			p.funcCall(t.Call)
			p.w(")")
		}
		p.alias(t.Alias, t.Columns)
	case *MatchRecognize:
		p.matchRecognize(t)
	case *Unnest:
		p.w("UNNEST(")
		p.exprs(t.Args)
		p.w(")")
		if t.WithOrdinality {
			p.w(" WITH ORDINALITY")
		}
		p.alias(t.Alias, t.Columns)
	case *Join:
		p.table(t.Left)
		switch t.Type {
		case JoinComma:
			p.w(",")
			p.indent++
			p.nl()
			p.indent--
		default:
			p.nl()
			if t.Natural {
				p.w("NATURAL ")
			}
			switch t.Type {
			case JoinInner:
				if p.calcite {
					p.w("INNER ")
				}
				p.w("JOIN ")
			case JoinLeft:
				p.w("LEFT JOIN ")
			case JoinRight:
				p.w("RIGHT JOIN ")
			case JoinFull:
				p.w("FULL JOIN ")
			case JoinCross:
				p.w("CROSS JOIN ")
			case JoinCrossApply:
				p.w("CROSS APPLY ")
			case JoinOuterApply:
				p.w("OUTER APPLY ")
			}
		}
		if _, ok := t.Right.(*Join); ok {
			p.w("(")
			p.table(t.Right)
			p.w(")")
		} else {
			p.table(t.Right)
		}
		if t.On != nil {
			if p.pretty {
				p.indent++
				p.nl()
				p.indent--
				p.w("ON ")
			} else {
				p.w(" ON ")
			}
			p.expr(t.On)
		} else if len(t.Using) > 0 {
			p.w(" USING (")
			p.idents(t.Using)
			p.w(")")
		}
	}
}
