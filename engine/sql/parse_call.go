package sql

// parseCall parses the parenthesised part of a call and its trailing
// clauses; name has been read and the current token is "(".
func (p *parser) parseCall(name *ObjectName) Expr {
	start := name.Start
	fname := ""
	if len(name.Parts) == 1 && !name.Parts[0].Quoted {
		fname = upperASCII(name.Parts[0].Name)
	}
	f := &FuncCall{Name: name}
	p.expectOp("(")
	special := false
	switch fname {
	case "EXTRACT":
		u := p.parseTimeUnit()
		p.expectKw("FROM")
		f.Args = []Expr{u, p.parseExpr()}
		f.Syntax = SyntaxExtract
		special = true
	case "TRIM":
		special = p.parseTrimArgs(f)
	case "POSITION":
		a := p.parseExprPrec(precLike + 1)
		if p.acceptKw("IN") {
			b := p.parseExpr()
			f.Args = []Expr{a, b}
			if p.acceptKw("FROM") {
				f.Args = append(f.Args, p.parseExpr())
			}
			f.Syntax = SyntaxPosition
			special = true
		} else {
			f.Args = []Expr{a}
			for p.acceptOp(",") {
				f.Args = append(f.Args, p.parseCallArg())
			}
			special = true
		}
	case "SUBSTRING":
		s := p.parseExpr()
		if p.acceptKw("FROM") {
			f.Args = []Expr{s, p.parseExpr()}
			if p.acceptKw("FOR") {
				f.Args = append(f.Args, p.parseExpr())
			}
			f.Syntax = SyntaxSubstring
		} else {
			f.Args = []Expr{s}
			for p.acceptOp(",") {
				f.Args = append(f.Args, p.parseExpr())
			}
		}
		special = true
	case "OVERLAY":
		s := p.parseExpr()
		p.expectKw("PLACING")
		r := p.parseExpr()
		p.expectKw("FROM")
		a := p.parseExpr()
		f.Args = []Expr{s, r, a}
		if p.acceptKw("FOR") {
			f.Args = append(f.Args, p.parseExpr())
		}
		f.Syntax = SyntaxOverlay
		special = true
	case "FLOOR", "CEIL", "CEILING":
		x := p.parseExpr()
		f.Args = []Expr{x}
		if p.acceptKw("TO") {
			f.Args = append(f.Args, p.parseTimeUnit())
			f.Syntax = SyntaxFloorCeil
		} else {
			for p.acceptOp(",") {
				f.Args = append(f.Args, p.parseExpr())
			}
		}
		special = true
	case "TIMESTAMPADD", "TIMESTAMPDIFF":
		u := p.parseTimeUnit()
		f.Args = []Expr{u}
		for p.acceptOp(",") {
			f.Args = append(f.Args, p.parseExpr())
		}
		f.Syntax = SyntaxTimestampAdd
		special = true
	case "JSON_OBJECT", "JSON_OBJECTAGG":
		f.Syntax = SyntaxJSONObject
		f.JSON = &JSONClauses{}
		for !p.isOp(")") && !p.atJSONOnNull() {
			if p.isKw("KEY") && !p.peekKw(1, "VALUE") && !p.peekOp(1, ",") && !p.peekOp(1, ")") {
				p.advance()
			}
			k := p.parseExprPrec(precAdd)
			var v Expr
			if p.acceptOp(":") {
				v = p.parseExpr()
			} else {
				p.expectKw("VALUE")
				v = p.parseExpr()
			}
			f.Args = append(f.Args, k, v)
			if fname == "JSON_OBJECTAGG" || !p.acceptOp(",") {
				break
			}
		}
		p.parseJSONOnNull(f)
		special = true
	case "JSON_ARRAY", "JSON_ARRAYAGG":
		f.JSON = &JSONClauses{}
		if !p.isOp(")") && !p.atJSONOnNull() {
			f.Args = p.parseExprList()
		}
		if fname == "JSON_ARRAYAGG" && p.acceptKws("ORDER", "BY") {
			f.OrderBy = p.parseOrderItems()
		}
		p.parseJSONOnNull(f)
		special = true
	}
	if !special {
		if p.acceptKw("DISTINCT") {
			f.Quantifier = "DISTINCT"
		} else if p.acceptKw("ALL") {
			f.Quantifier = "ALL"
		}
		if p.isOp("*") && p.peekOp(1, ")") {
			st := p.advance()
			f.Args = []Expr{&Star{Span: Span{Start: st.Pos, EndOff: st.End}}}
		} else if !p.isOp(")") {
			for {
				f.Args = append(f.Args, p.parseCallArg())
				if !p.acceptOp(",") {
					break
				}
			}
		}
		if p.isKw("IGNORE") && p.peekKw(1, "NULLS") {
			p.p += 2
			f.NullTreatment = "IGNORE NULLS"
		} else if p.isKw("RESPECT") && p.peekKw(1, "NULLS") {
			p.p += 2
			f.NullTreatment = "RESPECT NULLS"
		}
		if p.acceptKws("ORDER", "BY") {
			f.OrderBy = p.parseOrderItems()
		}
		switch fname {
		case "JSON_VALUE", "JSON_QUERY", "JSON_EXISTS":
			f.JSON = &JSONClauses{}
			p.parseJSONClauses(f, fname)
		}
	}
	p.expectOp(")")
	// trailing clauses
	if p.isKw("WITHIN") && p.peekKw(1, "GROUP") {
		p.advance()
		p.advance()
		p.expectOp("(")
		p.expectKw("ORDER")
		p.expectKw("BY")
		f.WithinGroup = p.parseOrderItems()
		p.expectOp(")")
	}
	if p.isKw("FILTER") && p.peekOp(1, "(") {
		p.advance()
		p.advance()
		p.expectKw("WHERE")
		f.Filter = p.parseExpr()
		p.expectOp(")")
	}
	if p.isKw("IGNORE") && p.peekKw(1, "NULLS") {
		p.p += 2
		f.NullTreatment = "IGNORE NULLS"
	} else if p.isKw("RESPECT") && p.peekKw(1, "NULLS") {
		p.p += 2
		f.NullTreatment = "RESPECT NULLS"
	}
	if p.acceptKw("OVER") {
		if p.isOp("(") {
			f.Over = p.parseWindowSpec()
		} else {
			id := p.parseIdent()
			f.Over = &WindowSpec{Span: id.Span, Name: id, Ref: true}
		}
	}
	f.Span = p.span(start)
	return f
}

// parseCallArg parses one argument: name => value or an expression.
func (p *parser) parseCallArg() Expr {
	if t := p.tok(); (t.Kind == TokIdent || t.Kind == TokQuotedIdent) && p.peekOp(1, "=>") {
		// parameter names may be reserved words (OFFSET => ...)
		p.advance()
		name := &Ident{Span: Span{Start: t.Pos, EndOff: t.End}, Name: t.Value, Quoted: t.Kind == TokQuotedIdent}
		p.advance()
		v := p.parseTableQueryArg(p.parseExpr())
		return &NamedArg{Span: p.span(name.Start), Name: name, Value: v}
	}
	return p.parseTableQueryArg(p.parseExpr())
}

// parseTableQueryArg reads PARTITION BY / ORDER BY after a parenthesised
// query argument, (SELECT ...) PARTITION BY k, as Calcite's
// PartitionedQueryOrQueryOrExpr: the argument becomes a TableArg with
// Query set. A query without them stays a SubqueryExpr, which the binder
// takes as a table where the function expects one.
func (p *parser) parseTableQueryArg(v Expr) Expr {
	sq, ok := v.(*SubqueryExpr)
	if !ok || !(p.isKw("PARTITION") || p.isKw("ORDER")) {
		return v
	}
	ta := &TableArg{Query: sq.Query}
	p.parseTableArgClauses(ta)
	ta.Span = p.span(sq.Start)
	return ta
}

// parseTableArgClauses reads a table argument's optional PARTITION BY and
// ORDER BY clauses.
func (p *parser) parseTableArgClauses(ta *TableArg) {
	if p.acceptKws("PARTITION", "BY") {
		e := p.parseExpr()
		if r, ok := e.(*RowExpr); ok && !r.Explicit {
			ta.PartitionBy = r.Items
		} else {
			ta.PartitionBy = []Expr{e}
		}
	}
	if p.acceptKws("ORDER", "BY") {
		// a single item: a following comma separates call arguments
		ta.OrderBy = p.parseOrderItems1()
	}
}

func (p *parser) parseTrimArgs(f *FuncCall) bool {
	side := ""
	sideStart := p.tok().Pos
	switch {
	case p.acceptKw("BOTH"):
		side = "BOTH"
	case p.acceptKw("LEADING"):
		side = "LEADING"
	case p.acceptKw("TRAILING"):
		side = "TRAILING"
	}
	var sideSym *Symbol
	if side != "" {
		sideSym = &Symbol{Span: p.span(sideStart), Name: side}
	} else {
		sideSym = &Symbol{Span: Span{Start: sideStart, EndOff: sideStart.Offset}, Name: "BOTH"}
	}
	var chars Expr
	if !p.isKw("FROM") {
		chars = p.parseExpr()
	}
	if p.acceptKw("FROM") {
		s := p.parseExpr()
		if chars == nil {
			chars = &StringLit{Span: Span{Start: sideStart, EndOff: sideStart.Offset}, Value: " "}
		}
		f.Args = []Expr{sideSym, chars, s}
		f.Syntax = SyntaxTrim
		return true
	}
	if side != "" && chars != nil && p.isOp(")") {
		// TRIM(BOTH x): Calcite reads x as the string, trimming spaces
		sp := &StringLit{Span: Span{Start: sideStart, EndOff: sideStart.Offset}, Value: " "}
		f.Args = []Expr{sideSym, sp, chars}
		f.Syntax = SyntaxTrim
		return true
	}
	if side != "" || chars == nil {
		p.expectKw("FROM")
	}
	f.Args = []Expr{chars}
	for p.acceptOp(",") {
		f.Args = append(f.Args, p.parseExpr())
	}
	return true
}

func (p *parser) atJSONOnNull() bool {
	return (p.isKw("NULL") || p.isKw("ABSENT")) && p.peekKw(1, "ON") && p.peekKw(2, "NULL")
}

func (p *parser) parseJSONOnNull(f *FuncCall) {
	if p.atJSONOnNull() {
		f.JSON.OnNull = p.advance().upper
		p.advance()
		p.advance()
	}
}

// parseJSONClauses parses RETURNING, wrapper and ON EMPTY/ON ERROR clauses.
func (p *parser) parseJSONClauses(f *FuncCall, fname string) {
	j := f.JSON
	for {
		start := p.tok().Pos
		switch {
		case p.acceptKw("RETURNING"):
			j.Returning = p.parseDataType()
			continue
		case fname == "JSON_QUERY" && p.isKw("WITHOUT"):
			p.advance()
			p.acceptKw("ARRAY")
			p.expectKw("WRAPPER")
			j.Wrapper = "WITHOUT ARRAY"
			continue
		case fname == "JSON_QUERY" && p.isKw("WITH"):
			p.advance()
			w := "WITH UNCONDITIONAL ARRAY"
			if p.acceptKw("CONDITIONAL") {
				w = "WITH CONDITIONAL ARRAY"
			} else {
				p.acceptKw("UNCONDITIONAL")
			}
			p.acceptKw("ARRAY")
			p.expectKw("WRAPPER")
			j.Wrapper = w
			continue
		}
		b := &JSONBehavior{}
		switch {
		case p.acceptKw("NULL"):
			b.Kind = "NULL"
		case p.acceptKw("ERROR"):
			b.Kind = "ERROR"
		case p.acceptKw("TRUE"):
			b.Kind = "TRUE"
		case p.acceptKw("FALSE"):
			b.Kind = "FALSE"
		case p.acceptKw("UNKNOWN"):
			b.Kind = "UNKNOWN"
		case p.acceptKw("DEFAULT"):
			b.Kind = "DEFAULT"
			b.Default = p.parseExpr()
		case p.isKw("EMPTY"):
			p.advance()
			if p.acceptKw("ARRAY") {
				b.Kind = "EMPTY ARRAY"
			} else {
				p.expectKw("OBJECT")
				b.Kind = "EMPTY OBJECT"
			}
		default:
			return
		}
		p.expectKw("ON")
		b.Span = p.span(start)
		if p.acceptKw("EMPTY") {
			j.OnEmpty = b
		} else {
			p.expectKw("ERROR")
			j.OnError = b
		}
		b.Span = p.span(start)
	}
}

// parseWindowSpec parses ( [name] [PARTITION BY ...] [ORDER BY ...] [frame] ).
func (p *parser) parseWindowSpec() *WindowSpec {
	start := p.expectOp("(").Pos
	w := &WindowSpec{}
	if isIdentTok(p.tok()) && !p.isKw("PARTITION") && !p.isKw("ORDER") && !p.isKw("ROWS") && !p.isKw("RANGE") {
		w.Name = p.parseIdent()
	}
	if p.acceptKws("PARTITION", "BY") {
		w.PartitionBy = p.parseExprList()
	}
	if p.acceptKws("ORDER", "BY") {
		w.OrderBy = p.parseOrderItems()
	}
	if p.isKw("ROWS") || p.isKw("RANGE") {
		fs := p.tok().Pos
		fr := &WindowFrame{Unit: p.advance().upper}
		if p.acceptKw("BETWEEN") {
			fr.From = p.parseFrameBound()
			p.expectKw("AND")
			fr.To = p.parseFrameBound()
		} else {
			fr.From = p.parseFrameBound()
		}
		fr.Span = p.span(fs)
		w.Frame = fr
	}
	p.expectOp(")")
	w.Span = p.span(start)
	return w
}

func (p *parser) parseFrameBound() *FrameBound {
	start := p.tok().Pos
	b := &FrameBound{}
	switch {
	case p.acceptKws("UNBOUNDED", "PRECEDING"):
		b.Kind = "UNBOUNDED PRECEDING"
	case p.acceptKws("UNBOUNDED", "FOLLOWING"):
		b.Kind = "UNBOUNDED FOLLOWING"
	case p.acceptKws("CURRENT", "ROW"):
		b.Kind = "CURRENT ROW"
	default:
		b.Offset = p.parseExprPrec(precAdd)
		if p.acceptKw("PRECEDING") {
			b.Kind = "PRECEDING"
		} else {
			p.expectKw("FOLLOWING")
			b.Kind = "FOLLOWING"
		}
	}
	b.Span = p.span(start)
	return b
}
