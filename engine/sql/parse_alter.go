package sql

import "strings"

// ---------------------------------------------------------------------------
// DROP, ALTER

func (p *parser) parseDrop() Statement {
	start := p.advance().Pos
	d := &Drop{}
	d.Temporary = p.acceptKw("TEMPORARY")
	d.System = d.Temporary && p.acceptKw("SYSTEM")
	switch {
	case p.acceptKw("TABLE"):
		d.Kind = DropTable
	case p.acceptKw("VIEW"):
		d.Kind = DropView
	case p.acceptKw("FUNCTION"):
		d.Kind = DropFunction
	case p.acceptKw("DATABASE"):
		d.Kind = DropDatabase
	case p.acceptKw("CATALOG"):
		d.Kind = DropCatalog
	case p.acceptKw("MODEL"):
		d.Kind = DropModel
	case p.acceptKws("MATERIALIZED", "TABLE"):
		d.Kind = DropMaterializedTable
	default:
		p.fail()
	}
	d.IfExists = p.acceptKws("IF", "EXISTS")
	d.Name = p.parseObjectName()
	if d.Kind == DropDatabase {
		if p.acceptKw("RESTRICT") {
			d.Behavior = "RESTRICT"
		} else if p.acceptKw("CASCADE") {
			d.Behavior = "CASCADE"
		}
	}
	d.Span = p.span(start)
	return d
}

func (p *parser) parseKeyList() []string {
	p.expectOp("(")
	var out []string
	for !p.isOp(")") {
		t := p.tok()
		if t.Kind == TokString {
			v, _ := p.parseString()
			out = append(out, v)
		} else {
			n := p.parseObjectName()
			var parts []string
			for _, x := range n.Parts {
				parts = append(parts, x.Name)
			}
			out = append(out, strings.Join(parts, "."))
		}
		if !p.acceptOp(",") {
			break
		}
	}
	p.expectOp(")")
	return out
}

func (p *parser) parseAlter() Statement {
	start := p.advance().Pos
	switch {
	case p.acceptKw("TABLE"):
		return p.parseAlterTable(start)
	case p.acceptKws("MATERIALIZED", "TABLE"):
		return p.parseAlterMaterializedTable(start)
	case p.acceptKw("VIEW"):
		v := &AlterView{Name: p.parseObjectName()}
		if p.acceptKw("RENAME") {
			p.expectKw("TO")
			v.NewName = p.parseObjectName()
		} else {
			p.expectKw("AS")
			v.Query = p.parseQuery()
		}
		v.Span = p.span(start)
		return v
	case p.acceptKw("DATABASE"):
		d := &AlterDatabase{Name: p.parseObjectName()}
		p.expectKw("SET")
		d.Options = p.parseProperties()
		d.Span = p.span(start)
		return d
	case p.acceptKw("CATALOG"):
		c := &AlterCatalog{Name: p.parseIdent()}
		switch {
		case p.acceptKw("SET"):
			c.Options = p.parseProperties()
		case p.acceptKw("RESET"):
			c.ResetKeys = p.parseKeyList()
		default:
			p.expectKw("COMMENT")
			s, _ := p.parseString()
			c.Comment = &s
		}
		c.Span = p.span(start)
		return c
	case p.isKw("FUNCTION") || p.isKw("TEMPORARY"):
		f := &AlterFunction{}
		f.Temporary = p.acceptKw("TEMPORARY")
		f.System = f.Temporary && p.acceptKw("SYSTEM")
		p.expectKw("FUNCTION")
		f.IfExists = p.acceptKws("IF", "EXISTS")
		f.Name = p.parseObjectName()
		p.expectKw("AS")
		f.Class, _ = p.parseString()
		if p.acceptKw("LANGUAGE") {
			f.Language = p.parseLanguage()
		}
		f.Span = p.span(start)
		return f
	}
	p.want("TABLE")
	p.want("VIEW")
	p.want("DATABASE")
	p.want("CATALOG")
	p.want("FUNCTION")
	p.fail()
	return nil
}

func (p *parser) parseAlterTable(start Pos) *AlterTable {
	a := &AlterTable{}
	a.IfExists = p.acceptKws("IF", "EXISTS")
	a.Name = p.parseObjectName()
	switch {
	case p.acceptKw("RENAME"):
		if p.acceptKw("TO") {
			a.Op = AlterRename
			a.NewName = p.parseObjectName()
		} else {
			a.Op = AlterRenameColumn
			a.OldColumn = p.parseColumnPath()
			p.expectKw("TO")
			a.NewColumn = p.parseColumnPath()
		}
	case p.acceptKw("SET"):
		a.Op = AlterSet
		a.Options = p.parseProperties()
	case p.isKw("COMPACT") || p.isKw("PARTITION"):
		if p.acceptKw("PARTITION") {
			a.Partition = p.parsePartitionSpec()
		}
		if !p.isIdent() || p.tok().upper != "COMPACT" {
			p.want("COMPACT")
			p.fail()
		}
		p.advance()
		a.Op = AlterCompact
	case p.acceptKw("RESET"):
		a.Op = AlterReset
		a.ResetKeys = p.parseKeyList()
	case p.isKw("ADD") || p.isKw("MODIFY"):
		verb := p.advance().upper
		a.Op = AlterAdd
		if verb == "MODIFY" {
			a.Op = AlterModify
		}
		if p.isKw("DISTRIBUTION") {
			p.advance()
			a.Op = AlterDistribution
			a.DistributionVerb = verb
			a.Distribution = p.parseDistributionBody(p.toks[p.p-1].Pos)
			break
		}
		if verb == "ADD" && (p.isKw("PARTITION") || (p.isKw("IF") && p.peekKw(1, "NOT"))) {
			a.Op = AlterAddPartitions
			a.PartitionIfCond = p.acceptKws("IF", "NOT", "EXISTS")
			for p.isKw("PARTITION") {
				ps := p.advance().Pos
				spec := &PartitionSpec{Spec: p.parsePartitionSpec()}
				if p.acceptKw("WITH") {
					spec.Options = p.parseProperties()
				}
				spec.Span = p.span(ps)
				a.Partitions = append(a.Partitions, spec)
			}
			if len(a.Partitions) == 0 {
				p.expectKw("PARTITION")
			}
			break
		}
		if p.acceptOp("(") {
			a.Parenthesised = true
			for {
				p.parseAlterItem(a)
				if !p.acceptOp(",") {
					break
				}
			}
			p.expectOp(")")
		} else {
			p.parseAlterItem(a)
		}
	case p.acceptKw("DROP"):
		switch {
		case p.acceptKws("PRIMARY", "KEY"):
			a.Op = AlterDropPrimaryKey
		case p.acceptKw("CONSTRAINT"):
			a.Op = AlterDropConstraint
			a.ConstraintName = p.parseIdent()
		case p.acceptKw("WATERMARK"):
			a.Op = AlterDropWatermark
		case p.acceptKw("DISTRIBUTION"):
			a.Op = AlterDistribution
			a.DistributionVerb = "DROP"
		case p.isKw("PARTITION") || (p.isKw("IF") && p.peekKw(1, "EXISTS")):
			a.Op = AlterDropPartitions
			a.PartitionIfCond = p.acceptKws("IF", "EXISTS")
			for {
				ps := p.expectKw("PARTITION").Pos
				spec := &PartitionSpec{Spec: p.parsePartitionSpec()}
				spec.Span = p.span(ps)
				a.Partitions = append(a.Partitions, spec)
				if !p.acceptOp(",") {
					break
				}
			}
		case p.acceptOp("("):
			a.Op = AlterDropColumns
			a.Parenthesised = true
			for {
				a.DropColumns = append(a.DropColumns, p.parseColumnPath())
				if !p.acceptOp(",") {
					break
				}
			}
			p.expectOp(")")
		default:
			a.Op = AlterDropColumns
			a.DropColumns = []*Identifier{p.parseColumnPath()}
		}
	default:
		for _, w := range []string{"RENAME", "SET", "RESET", "ADD", "MODIFY", "DROP"} {
			p.want(w)
		}
		p.fail()
	}
	a.Span = p.span(start)
	return a
}

// parseColumnPath parses a possibly nested column name a.b.c.
func (p *parser) parseColumnPath() *Identifier {
	start := p.tok().Pos
	n := p.parseObjectName()
	return &Identifier{Span: p.span(start), Parts: n.Parts}
}

func (p *parser) parseAlterItem(a *AlterTable) {
	switch {
	case p.isKw("WATERMARK"):
		if a.Watermark != nil {
			p.errorf(p.tok().Pos, "Multiple WATERMARK declarations are not supported yet")
		}
		a.Watermark = p.parseWatermark()
	case p.isKw("CONSTRAINT"), p.isKw("PRIMARY"), p.isKw("UNIQUE"):
		if a.Constraint != nil {
			p.errorf(p.tok().Pos, "Duplicate PRIMARY KEY definition")
		}
		a.Constraint = p.parseTableConstraint()
	default:
		c := p.parseColumnDef(true)
		if p.acceptKw("FIRST") {
			c.Position = "FIRST"
		} else if p.acceptKw("AFTER") {
			c.Position = "AFTER"
			c.After = p.parseColumnPath()
		}
		c.Span = p.span(c.Start)
		a.Columns = append(a.Columns, c)
	}
}
