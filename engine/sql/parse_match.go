package sql

import "strconv"

// parseMatchRecognize parses MATCH_RECOGNIZE ( ... ) [[AS] alias [(cols)]]
// after the FROM item in, which started at start.
func (p *parser) parseMatchRecognize(in TableExpr, start Pos) *MatchRecognize {
	p.expectKw("MATCH_RECOGNIZE")
	p.expectOp("(")
	m := &MatchRecognize{Input: in}
	if p.acceptKws("PARTITION", "BY") {
		m.PartitionBy = p.parseExprList()
	}
	if p.acceptKws("ORDER", "BY") {
		m.OrderBy = p.parseOrderItems()
	}
	if p.acceptKw("MEASURES") {
		for {
			s := p.tok().Pos
			e := p.parseExpr()
			p.expectKw("AS")
			it := &SelectItem{Expr: e, Alias: p.parseIdent()}
			it.Span = p.span(s)
			m.Measures = append(m.Measures, it)
			if !p.acceptOp(",") {
				break
			}
		}
	}
	switch {
	case p.acceptKws("ONE", "ROW", "PER", "MATCH"):
		m.OneRow = true
	case p.acceptKws("ALL", "ROWS", "PER", "MATCH"):
		m.AllRows = true
	}
	if p.isKw("AFTER") {
		s := p.tok().Pos
		p.advance()
		p.expectKw("MATCH")
		p.expectKw("SKIP")
		a := &AfterMatchSkip{}
		switch {
		case p.acceptKws("PAST", "LAST", "ROW"):
			a.Kind = SkipPastLastRow
		case p.acceptKw("TO"):
			switch {
			case p.acceptKws("NEXT", "ROW"):
				a.Kind = SkipToNextRow
			case p.acceptKw("FIRST"):
				a.Kind, a.Var = SkipToFirst, p.parseIdent()
			case p.acceptKw("LAST"):
				a.Kind, a.Var = SkipToLast, p.parseIdent()
			default:
				p.want("NEXT")
				p.want("FIRST")
				p.want("LAST")
				a.Kind, a.Var = SkipToLast, p.parseIdent()
			}
		default:
			p.want("PAST")
			p.want("TO")
			p.fail()
		}
		a.Span = p.span(s)
		m.After = a
	}
	p.expectKw("PATTERN")
	p.expectOp("(")
	for {
		m.Pattern = append(m.Pattern, p.parsePatternElem())
		if p.isOp(")") {
			break
		}
		switch t := p.tok(); {
		case t.Kind == TokOp && t.Text == "|":
			p.errorf(t.Pos, "Alternation in PATTERN ('|') is not supported")
		case t.Kind == TokOp && t.Text == "(":
			p.errorf(t.Pos, "Pattern groups in PATTERN are not supported: quantifiers apply to single variables only")
		}
	}
	p.expectOp(")")
	if p.acceptKw("WITHIN") {
		m.Within = p.parseExpr()
	}
	if p.isKw("SUBSET") {
		p.errorf(p.tok().Pos, "SUBSET is not supported in MATCH_RECOGNIZE")
	}
	p.expectKw("DEFINE")
	for {
		s := p.tok().Pos
		d := &PatternDefine{Name: p.parseIdent()}
		p.expectKw("AS")
		d.Cond = p.parseExpr()
		d.Span = p.span(s)
		m.Defines = append(m.Defines, d)
		if !p.acceptOp(",") {
			break
		}
	}
	p.expectOp(")")
	m.Alias, m.Columns = p.parseAlias()
	m.Span = p.span(start)
	return m
}

// parsePatternElem parses a pattern variable and its quantifier.
func (p *parser) parsePatternElem() *PatternElem {
	t := p.tok()
	switch {
	case t.Kind == TokOp && t.Text == "(":
		p.errorf(t.Pos, "Pattern groups in PATTERN are not supported: quantifiers apply to single variables only")
	case t.Kind == TokOp && (t.Text == "^" || t.Text == "$"):
		p.errorf(t.Pos, "Anchors in PATTERN are not supported")
	case t.Kind == TokOp && t.Text == "{":
		p.errorf(t.Pos, "Exclusion in PATTERN is not supported")
	case t.word() == "PERMUTE" && p.peekOp(1, "("):
		p.errorf(t.Pos, "PERMUTE in PATTERN is not supported")
	}
	e := &PatternElem{Var: p.parseIdent(), Min: 1, Max: 1}
	q := p.tok()
	switch {
	case p.acceptOp("*"):
		e.Min, e.Max, e.Quant = 0, -1, "*"
	case p.acceptOp("+"):
		e.Min, e.Max, e.Quant = 1, -1, "+"
	case p.acceptOp("?"):
		e.Min, e.Max, e.Quant = 0, 1, "?"
	case p.acceptOp("{"):
		if p.acceptOp(",") {
			e.Min, e.Max = 0, p.parseInt()
			e.Quant = "{," + strconv.Itoa(e.Max) + "}"
		} else {
			e.Min = p.parseInt()
			switch {
			case p.acceptOp(","):
				if p.isOp("}") {
					e.Max = -1
					e.Quant = "{" + strconv.Itoa(e.Min) + ",}"
				} else {
					e.Max = p.parseInt()
					e.Quant = "{" + strconv.Itoa(e.Min) + "," + strconv.Itoa(e.Max) + "}"
				}
			default:
				e.Max = e.Min
				e.Quant = "{" + strconv.Itoa(e.Min) + "}"
			}
		}
		p.expectOp("}")
		if e.Max >= 0 && e.Max < e.Min {
			p.errorf(q.Pos, "Invalid quantifier %s: the upper bound is below the lower bound", e.Quant)
		}
		if e.Max == 0 {
			p.errorf(q.Pos, "Invalid quantifier %s: the upper bound must be positive", e.Quant)
		}
	}
	if e.Quant != "" && p.acceptOp("?") {
		e.Reluctant = true
	}
	e.Span = p.span(t.Pos)
	return e
}
