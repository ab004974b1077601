package sql

// MatchRecognize is a FROM item: input MATCH_RECOGNIZE ( [PARTITION BY
// exprs] ORDER BY items [MEASURES expr AS name, ...] [ONE ROW PER MATCH |
// ALL ROWS PER MATCH] [AFTER MATCH SKIP ...] PATTERN (elements) [WITHIN
// interval] DEFINE name AS condition, ... ) [[AS] alias [(cols)]] (row
// pattern recognition, SQL:2016 as Flink accepts it).
type MatchRecognize struct {
	Span
	// Input is the table the pattern runs over.
	Input       TableExpr
	PartitionBy []Expr
	OrderBy     []*OrderItem
	// Measures are the MEASURES items; each has an alias.
	Measures []*SelectItem
	// AllRows is set by ALL ROWS PER MATCH; OneRow by an explicit ONE ROW
	// PER MATCH (the default when neither is written).
	AllRows bool
	OneRow  bool
	// After is the AFTER MATCH SKIP clause, nil when absent.
	After *AfterMatchSkip
	// Pattern is the PATTERN: a sequence of quantified variables.
	Pattern []*PatternElem
	// Within is the WITHIN interval, nil when absent.
	Within  Expr
	Defines []*PatternDefine
	Alias   *Ident
	Columns []*Ident
}

// AfterMatchSkip kinds.
const (
	SkipPastLastRow = "PAST LAST ROW"
	SkipToNextRow   = "TO NEXT ROW"
	SkipToFirst     = "TO FIRST"
	SkipToLast      = "TO LAST"
)

// AfterMatchSkip is AFTER MATCH SKIP PAST LAST ROW | TO NEXT ROW | TO
// FIRST var | TO LAST var (Var set for the last two; "SKIP TO var" is
// parsed as TO LAST var, as the standard defines it).
type AfterMatchSkip struct {
	Span
	Kind string
	Var  *Ident
}

// PatternElem is one pattern variable with its quantifier: Min and Max
// rows (Max -1: unbounded). Quant is the quantifier as written ("" for
// none, "*", "+", "?", "{n}", "{n,}", "{n,m}", "{,m}"), without the
// reluctant "?" that sets Reluctant.
type PatternElem struct {
	Span
	Var       *Ident
	Min, Max  int
	Quant     string
	Reluctant bool
}

// PatternDefine is one DEFINE item: Name AS Cond.
type PatternDefine struct {
	Span
	Name *Ident
	Cond Expr
}

func (*MatchRecognize) tableExprNode() {}

func (n *MatchRecognize) String() string { return Format(n) }

func (p *printer) matchRecognize(m *MatchRecognize) {
	if _, join := m.Input.(*Join); join {
		// (a JOIN b) MATCH_RECOGNIZE: without the parentheses the
		// clause would bind to b
		p.w("(")
		p.table(m.Input)
		p.w(")")
	} else {
		p.table(m.Input)
	}
	p.w(" MATCH_RECOGNIZE (")
	p.indent++
	if len(m.PartitionBy) > 0 {
		p.nl()
		p.w("PARTITION BY ")
		p.exprs(m.PartitionBy)
	}
	if len(m.OrderBy) > 0 {
		p.nl()
		p.w("ORDER BY ")
		p.orderItems(m.OrderBy)
	}
	if len(m.Measures) > 0 {
		p.nl()
		p.w("MEASURES")
		p.indent++
		for i, it := range m.Measures {
			if i > 0 {
				p.w(",")
			}
			p.nl()
			p.selectItem(it)
		}
		p.indent--
	}
	if m.OneRow {
		p.nl()
		p.w("ONE ROW PER MATCH")
	} else if m.AllRows {
		p.nl()
		p.w("ALL ROWS PER MATCH")
	}
	if a := m.After; a != nil {
		p.nl()
		p.w("AFTER MATCH SKIP " + a.Kind)
		if a.Var != nil {
			p.w(" ")
			p.ident(a.Var)
		}
	}
	p.nl()
	p.w("PATTERN (")
	for i, e := range m.Pattern {
		if i > 0 {
			p.w(" ")
		}
		p.ident(e.Var)
		p.w(e.Quant)
		if e.Reluctant {
			p.w("?")
		}
	}
	p.w(")")
	if m.Within != nil {
		p.w(" WITHIN ")
		p.expr(m.Within)
	}
	p.nl()
	p.w("DEFINE")
	p.indent++
	for i, d := range m.Defines {
		if i > 0 {
			p.w(",")
		}
		p.nl()
		p.ident(d.Name)
		p.w(" AS ")
		p.expr(d.Cond)
	}
	p.indent -= 2
	p.brk()
	p.w(")")
	p.alias(m.Alias, m.Columns)
}

// String renders the element as written in PATTERN: "B+?".
func (e *PatternElem) String() string {
	s := e.Var.Name + e.Quant
	if e.Reluctant {
		s += "?"
	}
	return s
}

// String renders the item as in DEFINE: "A AS cond".
func (d *PatternDefine) String() string { return d.Name.Name + " AS " + Format(d.Cond) }

// String renders the clause: "AFTER MATCH SKIP TO LAST A".
func (a *AfterMatchSkip) String() string {
	if a.Var != nil {
		return "AFTER MATCH SKIP " + a.Kind + " " + a.Var.Name
	}
	return "AFTER MATCH SKIP " + a.Kind
}
