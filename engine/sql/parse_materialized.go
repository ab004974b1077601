package sql

// parseCreateMaterializedTable parses CREATE MATERIALIZED TABLE after
// CREATE (start is CREATE's position).
func (p *parser) parseCreateMaterializedTable(start Pos) *CreateMaterializedTable {
	p.expectKw("MATERIALIZED")
	p.expectKw("TABLE")
	m := &CreateMaterializedTable{Name: p.parseObjectName()}
	if p.isOp("(") {
		p.advance()
		if !p.isKw("CONSTRAINT") && !p.isKw("PRIMARY") {
			p.errorf(p.tok().Pos, "The column list of CREATE MATERIALIZED TABLE holds only its PRIMARY KEY; the columns come from the query")
		}
		m.Constraint = p.parseTableConstraint()
		p.expectOp(")")
	}
	if p.acceptKw("COMMENT") {
		c, _ := p.parseString()
		m.Comment = &c
	}
	if p.acceptKws("PARTITIONED", "BY") {
		m.PartitionBy = p.parseParenIdentList()
	}
	if p.acceptKw("WITH") {
		m.Options = p.parseProperties()
	}
	if p.acceptKw("START_MODE") {
		p.expectOp("=")
		t := p.tok()
		if !p.isKw("FROM_BEGINNING") {
			p.want("FROM_BEGINNING")
			p.fail()
		}
		p.advance()
		m.StartMode = t.upper
	}
	if p.isKw("FRESHNESS") {
		p.advance()
		p.expectOp("=")
		if !p.isKw("INTERVAL") {
			p.errorf(p.tok().Pos, "MATERIALIZED TABLE only supports define interval type FRESHNESS, please refer to the materialized table document.")
		}
		x := p.parseInterval()
		lit, ok := x.(*IntervalLit)
		if !ok {
			p.errorf(x.Pos(), "MATERIALIZED TABLE only supports define interval type FRESHNESS, please refer to the materialized table document.")
		}
		m.Freshness = lit
	}
	if p.acceptKw("REFRESH_MODE") {
		p.expectOp("=")
		switch {
		case p.acceptKw("CONTINUOUS"):
			m.RefreshMode = "CONTINUOUS"
		case p.acceptKw("FULL"):
			m.RefreshMode = "FULL"
		default:
			p.want("CONTINUOUS")
			p.want("FULL")
			p.fail()
		}
	}
	p.expectKw("AS")
	m.Query = p.parseQuery()
	m.Span = p.span(start)
	return m
}

// parseAlterMaterializedTable parses ALTER MATERIALIZED TABLE after ALTER.
func (p *parser) parseAlterMaterializedTable(start Pos) *AlterMaterializedTable {
	a := &AlterMaterializedTable{Name: p.parseObjectName()}
	switch {
	case p.acceptKw("SUSPEND"):
		a.Op = "SUSPEND"
	case p.acceptKw("RESUME"):
		a.Op = "RESUME"
		if p.acceptKw("WITH") {
			a.Options = p.parseProperties()
		}
	case p.acceptKw("REFRESH"):
		a.Op = "REFRESH"
		if p.acceptKw("PARTITION") {
			a.Partition = p.parsePartitionSpec()
		}
	case p.acceptKw("AS"):
		a.Op = "AS"
		a.Query = p.parseQuery()
	default:
		p.want("SUSPEND")
		p.want("RESUME")
		p.want("REFRESH")
		p.want("AS")
		p.fail()
	}
	a.Span = p.span(start)
	return a
}

func (p *printer) createMaterializedTable(s *CreateMaterializedTable) {
	p.w("CREATE MATERIALIZED TABLE ")
	p.objName(s.Name)
	if s.Constraint != nil {
		p.w(" (")
		p.constraint(s.Constraint)
		p.w(")")
	}
	p.optComment(s.Comment)
	if len(s.PartitionBy) > 0 {
		p.nl()
		p.w("PARTITIONED BY (")
		p.idents(s.PartitionBy)
		p.w(")")
	}
	if s.Options != nil {
		p.nl()
		p.w("WITH ")
		p.props(s.Options)
	}
	if s.StartMode != "" {
		p.nl()
		p.w("START_MODE = " + s.StartMode)
	}
	if s.Freshness != nil {
		p.nl()
		p.w("FRESHNESS = ")
		p.expr(s.Freshness)
	}
	if s.RefreshMode != "" {
		p.nl()
		p.w("REFRESH_MODE = " + s.RefreshMode)
	}
	p.nl()
	p.w("AS ")
	p.query(s.Query)
}

func (p *printer) alterMaterializedTable(s *AlterMaterializedTable) {
	p.w("ALTER MATERIALIZED TABLE ")
	p.objName(s.Name)
	p.w(" " + s.Op)
	switch s.Op {
	case "RESUME":
		if s.Options != nil {
			p.w(" WITH ")
			p.props(s.Options)
		}
	case "REFRESH":
		if s.Partition != nil {
			p.w(" PARTITION ")
			p.partSpec(s.Partition)
		}
	case "AS":
		p.w(" ")
		p.query(s.Query)
	}
}
