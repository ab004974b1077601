package sql

import (
	"fmt"
	"strings"
)

// ---------------------------------------------------------------------------
// SHOW, DESCRIBE, EXPLAIN, SET, RESET

func (p *parser) parseLikePattern() *LikePattern {
	start := p.tok().Pos
	lp := &LikePattern{}
	if p.isKw("NOT") && (p.peekKw(1, "LIKE") || p.peekKw(1, "ILIKE")) {
		p.advance()
		lp.Not = true
	}
	if p.acceptKw("ILIKE") {
		lp.ILike = true
	} else if !p.acceptKw("LIKE") {
		return nil
	}
	lp.Pattern, _ = p.parseString()
	lp.Span = p.span(start)
	return lp
}

func (p *parser) parseShow() Statement {
	start := p.advance().Pos
	s := &Show{}
	fromAllowed := false
	t := p.tok()
	switch t.word() {
	case "CREATE":
		p.advance()
		sc := &ShowCreate{}
		switch {
		case p.acceptKw("TABLE"):
			sc.Kind = "TABLE"
		case p.acceptKw("VIEW"):
			sc.Kind = "VIEW"
		case p.acceptKw("CATALOG"):
			sc.Kind = "CATALOG"
		case p.acceptKw("MODEL"):
			sc.Kind = "MODEL"
		case p.acceptKws("MATERIALIZED", "TABLE"):
			sc.Kind = "MATERIALIZED TABLE"
		default:
			p.fail()
		}
		sc.Name = p.parseObjectName()
		sc.Span = p.span(start)
		return sc
	case "CATALOGS", "JOBS", "JARS":
		p.advance()
		s.What = t.upper
	case "CURRENT":
		p.advance()
		if p.acceptKw("CATALOG") {
			s.What = "CURRENT CATALOG"
		} else {
			p.expectKw("DATABASE")
			s.What = "CURRENT DATABASE"
		}
	case "DATABASES", "TABLES", "VIEWS", "FUNCTIONS", "PROCEDURES", "MODELS", "CONNECTIONS":
		p.advance()
		s.What = t.upper
		fromAllowed = true
	case "USER":
		p.advance()
		p.expectKw("FUNCTIONS")
		s.What = "USER FUNCTIONS"
		fromAllowed = true
	case "MATERIALIZED":
		p.advance()
		p.expectKw("TABLES")
		s.What = "MATERIALIZED TABLES"
		fromAllowed = true
	case "MODULES":
		p.advance()
		s.What = "MODULES"
	case "FULL":
		p.advance()
		p.expectKw("MODULES")
		s.What = "FULL MODULES"
	case "COLUMNS":
		p.advance()
		s.What = "COLUMNS"
		if p.acceptKw("FROM") {
			s.FromKeyword = "FROM"
		} else {
			p.expectKw("IN")
			s.FromKeyword = "IN"
		}
		s.From = p.parseObjectName()
	case "PARTITIONS":
		p.advance()
		s.What = "PARTITIONS"
		s.From = p.parseObjectName()
		if p.acceptKw("PARTITION") {
			s.Partition = p.parsePartitionSpec()
		}
	default:
		for _, w := range []string{"CATALOGS", "CURRENT", "DATABASES", "TABLES", "VIEWS", "FUNCTIONS", "USER", "MODULES", "FULL", "JOBS", "JARS", "COLUMNS", "PARTITIONS", "CREATE"} {
			p.want(w)
		}
		p.fail()
	}
	if fromAllowed {
		if p.acceptKw("FROM") {
			s.FromKeyword = "FROM"
			s.From = p.parseObjectName()
		} else if p.acceptKw("IN") {
			s.FromKeyword = "IN"
			s.From = p.parseObjectName()
		}
		if s.What == "DATABASES" && s.From != nil && len(s.From.Parts) > 1 {
			// Flink's SqlShowDatabases refuses a qualified catalog name
			// with a ParseException that names no position
			p.errAt(s.From.Pos(), fmt.Sprintf("Show databases from/in identifier [ %s ] format error, catalog must be a single part identifier.", joinNames(s.From)))
		}
	}
	switch s.What {
	case "CURRENT CATALOG", "CURRENT DATABASE", "JOBS", "JARS", "MODULES", "FULL MODULES", "PARTITIONS":
	default:
		s.Like = p.parseLikePattern()
	}
	s.Span = p.span(start)
	return s
}

func (p *parser) parseDescribe() Statement {
	start := p.advance().Pos
	d := &Describe{}
	d.Extended = p.acceptKw("EXTENDED")
	t := p.tok()
	switch t.word() {
	case "CATALOG", "DATABASE", "FUNCTION", "MODEL", "JOB":
		// only when a name follows: DESCRIBE catalog is a table named catalog
		n := p.peek(1)
		if isIdentTok(n) || n.Kind == TokString || n.word() == "EXTENDED" {
			p.advance()
			d.Kind = t.upper
			if p.acceptKw("EXTENDED") {
				d.Extended = true
			}
			if d.Kind == "JOB" {
				d.JobID, _ = p.parseString()
				d.Span = p.span(start)
				return d
			}
		}
	}
	d.Name = p.parseObjectName()
	d.Span = p.span(start)
	return d
}

var explainDetails = map[string]bool{"ESTIMATED_COST": true, "CHANGELOG_MODE": true, "JSON_EXECUTION_PLAN": true, "PLAN_ADVICE": true}

func (p *parser) parseExplain() Statement {
	start := p.advance().Pos
	e := &Explain{}
	if p.acceptKws("PLAN", "FOR") {
		e.PlanFor = true
	} else {
		for explainDetails[p.tok().word()] {
			d := p.tok()
			for _, x := range e.Details {
				if x == d.upper {
					p.errorf(d.Pos, "Duplicate EXPLAIN DETAIL is not allowed")
				}
			}
			e.Details = append(e.Details, p.advance().upper)
			if !p.acceptOp(",") {
				break
			}
		}
	}
	switch {
	case p.isKw("INSERT") || p.isKw("UPSERT"):
		e.Stmt = p.parseInsert()
	case p.isKw("STATEMENT"):
		e.Stmt = p.parseStatementSet()
	case p.isKw("EXECUTE"):
		e.Stmt = p.parseStatement()
	case p.isKw("CREATE") || p.isKw("REPLACE"):
		st := p.parseStatement()
		if ct, ok := st.(*CreateTable); !ok || ct.AsQuery == nil {
			p.errorf(st.Pos(), "Unsupported CREATE OR REPLACE statement for EXPLAIN. The statement must define a query using the AS clause (i.e. CTAS/RTAS statements)")
		}
		e.Stmt = st
	default:
		if !p.atQueryStart() && !p.isKw("TABLE") {
			for _, w := range []string{"SELECT", "INSERT", "STATEMENT", "ESTIMATED_COST", "CHANGELOG_MODE", "JSON_EXECUTION_PLAN", "PLAN_ADVICE", "PLAN"} {
				p.want(w)
			}
			p.fail()
		}
		e.Stmt = p.parseQuery()
	}
	e.Span = p.span(start)
	return e
}

// rawUntilEnd returns the source text from the current token up to (not
// including) the next ";" or "=" at top level (stopAtEq), consuming those
// tokens.
func (p *parser) rawUntil(stopAtEq bool) (string, bool) {
	t := p.tok()
	if t.Kind == TokEOF || t.Kind == TokOp && (t.Text == ";" || stopAtEq && t.Text == "=") {
		return "", false
	}
	startOff := t.Pos.Offset
	end := startOff
	for {
		t = p.tok()
		if t.Kind == TokEOF || t.Kind == TokError || t.Kind == TokOp && (t.Text == ";" || stopAtEq && t.Text == "=") {
			break
		}
		end = t.End
		p.advance()
	}
	if p.tok().Kind == TokError {
		p.fail()
	}
	return strings.TrimSpace(p.src[startOff-p.base : end-p.base]), true
}

func (p *parser) parseSet() Statement {
	start := p.advance().Pos
	s := &Set{}
	t := p.tok()
	if t.Kind == TokEOF || t.Kind == TokOp && t.Text == ";" {
		s.Span = p.span(start)
		return s
	}
	if t.Kind == TokString {
		s.Quoted = true
		s.Key, _ = p.parseString()
	} else {
		key, ok := p.rawUntil(true)
		if !ok {
			p.want("<QUOTED_STRING>")
			p.fail()
		}
		s.Key = key
	}
	p.expectOp("=")
	s.Value = p.parseSetValue()
	s.Span = p.span(start)
	return s
}

// parseSetValue reads the value of SET: a string literal, or the raw text
// up to the end of the statement.
func (p *parser) parseSetValue() string {
	if p.tok().Kind == TokString {
		n := p.peek(1)
		for i := 1; n.Kind == TokString; i++ {
			n = p.peek(i + 1)
		}
		if n.Kind == TokEOF || n.Kind == TokOp && n.Text == ";" {
			v, _ := p.parseString()
			return v
		}
	}
	v, _ := p.rawUntil(false)
	return v
}

func (p *parser) parseReset() Statement {
	start := p.advance().Pos
	r := &Reset{}
	if p.tok().Kind == TokString {
		r.Quoted = true
		r.Key, _ = p.parseString()
	} else {
		r.Key, _ = p.rawUntil(false)
	}
	r.Span = p.span(start)
	return r
}
