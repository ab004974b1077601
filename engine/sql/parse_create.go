package sql

// ---------------------------------------------------------------------------
// CREATE

func (p *parser) parseCreate() Statement {
	start := p.advance().Pos
	orReplace := p.acceptKws("OR", "REPLACE")
	temporary := p.acceptKw("TEMPORARY")
	if !temporary && p.isKw("SYSTEM") && p.peekKw(1, "FUNCTION") {
		p.errorf(p.tok().Pos, "CREATE SYSTEM FUNCTION is not supported, system functions can only be registered as temporary functions, you can use CREATE TEMPORARY SYSTEM FUNCTION instead")
	}
	system := temporary && p.acceptKw("SYSTEM")
	switch {
	case p.isKw("TABLE"):
		ct := p.parseCreateTable(start, orReplace, temporary)
		return ct
	case p.isKw("VIEW"):
		p.advance()
		v := &CreateView{Temporary: temporary}
		v.IfNotExists = p.acceptKws("IF", "NOT", "EXISTS")
		v.Name = p.parseObjectName()
		if p.isOp("(") {
			v.Columns = p.parseParenIdentList()
		}
		if p.acceptKw("COMMENT") {
			c, _ := p.parseString()
			v.Comment = &c
		}
		p.expectKw("AS")
		v.Query = p.parseQuery()
		v.Span = p.span(start)
		return v
	case p.isKw("DATABASE"):
		p.advance()
		d := &CreateDatabase{}
		d.IfNotExists = p.acceptKws("IF", "NOT", "EXISTS")
		d.Name = p.parseObjectName()
		if p.acceptKw("COMMENT") {
			c, _ := p.parseString()
			d.Comment = &c
		}
		if p.acceptKw("WITH") {
			d.Options = p.parseProperties()
		}
		d.Span = p.span(start)
		return d
	case p.isKw("CATALOG"):
		p.advance()
		c := &CreateCatalog{}
		c.IfNotExists = p.acceptKws("IF", "NOT", "EXISTS")
		c.Name = p.parseIdent()
		if p.acceptKw("COMMENT") {
			s, _ := p.parseString()
			c.Comment = &s
		}
		if p.acceptKw("WITH") {
			c.Options = p.parseProperties()
		}
		c.Span = p.span(start)
		return c
	case p.isKw("FUNCTION"):
		p.advance()
		f := &CreateFunction{OrReplace: orReplace, Temporary: temporary, System: system}
		f.IfNotExists = p.acceptKws("IF", "NOT", "EXISTS")
		if system {
			// a temporary system function has a simple name
			id := p.parseIdent()
			f.Name = &ObjectName{Span: id.Span, Parts: []*Ident{id}}
		} else {
			f.Name = p.parseObjectName()
		}
		p.expectKw("AS")
		f.Class, _ = p.parseString()
		langPos := p.tok().Pos
		if p.acceptKw("LANGUAGE") {
			langPos = p.tok().Pos
			f.Language = p.parseLanguage()
		}
		if p.acceptKw("USING") {
			if f.Language == "SQL" || f.Language == "PYTHON" {
				p.errorf(langPos, "CREATE FUNCTION USING JAR/ARTIFACT syntax is not applicable to %s language", f.Language)
			}
			for {
				rs := p.tok().Pos
				r := &FunctionResource{}
				if p.acceptKw("JAR") {
					r.Kind = "JAR"
				} else {
					p.want("ARTIFACT")
					if !p.isIdent() || p.tok().upper != "ARTIFACT" {
						p.fail()
					}
					p.advance()
					r.Kind = "ARTIFACT"
				}
				r.Path, _ = p.parseString()
				r.Span = p.span(rs)
				f.Resources = append(f.Resources, r)
				if !p.acceptOp(",") {
					break
				}
			}
		}
		if p.acceptKw("WITH") {
			f.Options = p.parseProperties()
		}
		f.Span = p.span(start)
		return f
	case p.isKw("MATERIALIZED") && !orReplace && !temporary:
		return p.parseCreateMaterializedTable(start)
	case p.isKw("MATERIALIZED") && temporary:
		p.errorf(p.tok().Pos, "CREATE TEMPORARY MATERIALIZED TABLE is not supported.")
	case p.isKw("MATERIALIZED"):
		p.errorf(p.tok().Pos, "CREATE OR REPLACE MATERIALIZED TABLE is not supported.")
	case p.isKw("MATERIALIZED"), p.isKw("MODEL"), p.isKw("CONNECTION"):
		p.errorf(p.tok().Pos, "CREATE %s is not supported yet", p.tok().upper)
	}
	p.want("TABLE")
	p.want("VIEW")
	p.want("DATABASE")
	p.want("CATALOG")
	p.want("FUNCTION")
	p.fail()
	return nil
}

func (p *parser) parseCreateTable(start Pos, orReplace, temporary bool) *CreateTable {
	p.expectKw("TABLE")
	ct := &CreateTable{OrReplace: orReplace, Temporary: temporary}
	ct.IfNotExists = p.acceptKws("IF", "NOT", "EXISTS")
	ct.Name = p.parseObjectName()
	schemaPos := p.tok().Pos
	if p.isOp("(") {
		p.advance()
		for {
			p.parseTableElement(&ct.Columns, &ct.Watermarks, &ct.Constraints)
			if !p.acceptOp(",") {
				break
			}
		}
		p.expectOp(")")
	}
	nameOnly := false
	for i, c := range ct.Columns {
		if (c.Kind == ColumnNameOnly) != (ct.Columns[0].Kind == ColumnNameOnly) {
			// mixing bare names and typed columns: report at the type
			if c.Type != nil {
				p.errAtTok(c.Type.Start)
			}
			p.errAtTok(ct.Columns[i].Name.Start)
		}
		nameOnly = nameOnly || c.Kind == ColumnNameOnly
	}
	if p.acceptKw("COMMENT") {
		c, _ := p.parseString()
		ct.Comment = &c
	}
	if p.isKw("DISTRIBUTED") {
		ct.Distribution = p.parseDistribution()
	}
	if p.acceptKws("PARTITIONED", "BY") {
		ct.PartitionBy = p.parseParenIdentList()
	}
	if p.acceptKw("WITH") {
		ct.Options = p.parseProperties()
	}
	if p.isKw("LIKE") {
		ls := p.advance().Pos
		like := &TableLike{Table: p.parseObjectName()}
		if p.acceptOp("(") {
			for !p.isOp(")") {
				os := p.tok().Pos
				o := &LikeOption{}
				switch {
				case p.acceptKw("INCLUDING"):
					o.Strategy = "INCLUDING"
				case p.acceptKw("EXCLUDING"):
					o.Strategy = "EXCLUDING"
				case p.acceptKw("OVERWRITING"):
					o.Strategy = "OVERWRITING"
				default:
					p.fail()
				}
				ft := p.tok()
				switch ft.word() {
				case "ALL", "CONSTRAINTS", "GENERATED", "METADATA", "OPTIONS", "PARTITIONS", "WATERMARKS", "DISTRIBUTION":
					p.advance()
					o.Feature = ft.upper
				default:
					for _, w := range []string{"ALL", "CONSTRAINTS", "GENERATED", "METADATA", "OPTIONS", "PARTITIONS", "WATERMARKS"} {
						p.want(w)
					}
					p.fail()
				}
				o.Span = p.span(os)
				like.Options = append(like.Options, o)
				p.acceptOp(",")
			}
			p.expectOp(")")
		}
		like.Span = p.span(ls)
		ct.Like = like
	}
	if ct.Like == nil && p.acceptKw("AS") {
		ct.AsQuery = p.parseQuery()
	}
	if nameOnly && ct.AsQuery == nil {
		p.errorf(schemaPos, "Columns identifiers without types in the schema are supported on CTAS/RTAS statements only")
	}
	ct.Span = p.span(start)
	return ct
}

// errAtTok reports "Encountered ..." for the token that starts at pos.
func (p *parser) errAtTok(pos Pos) {
	for i := range p.toks {
		if p.toks[i].Pos.Offset == pos.Offset {
			p.p = i
			p.expAt = -1
			p.fail()
		}
	}
	p.errorf(pos, "Syntax error")
}

func (p *parser) parseDistribution() *Distribution {
	start := p.expectKw("DISTRIBUTED").Pos
	return p.parseDistributionBody(start)
}

// parseDistributionBody parses BY [HASH|RANGE](cols) [INTO n BUCKETS] or
// INTO n BUCKETS.
func (p *parser) parseDistributionBody(start Pos) *Distribution {
	d := &Distribution{}
	if p.acceptKw("BY") {
		if p.acceptKw("HASH") {
			d.Kind = "HASH"
		} else if p.acceptKw("RANGE") {
			d.Kind = "RANGE"
		}
		d.Columns = p.parseParenIdentList()
		if p.acceptKw("INTO") {
			d.Buckets = p.parseBuckets()
		}
	} else {
		p.expectKw("INTO")
		d.Buckets = p.parseBuckets()
	}
	d.Span = p.span(start)
	return d
}

func (p *parser) parseBuckets() int {
	t := p.tok()
	if t.Kind == TokDecimal || t.Kind == TokApprox {
		p.errorf(t.Pos, "Bucket count must be a positive integer")
	}
	n := p.parseInt()
	if n <= 0 {
		p.errorf(t.Pos, "Bucket count must be a positive integer")
	}
	p.expectKw("BUCKETS")
	return n
}

// parseTableElement parses a column, watermark or constraint definition.
func (p *parser) parseTableElement(cols *[]*ColumnDef, wms *[]*Watermark, cons *[]*TableConstraint) {
	switch {
	case p.isKw("WATERMARK"):
		if len(*wms) > 0 {
			p.errorf(p.tok().Pos, "Multiple WATERMARK declarations are not supported yet")
		}
		*wms = append(*wms, p.parseWatermark())
	case p.isKw("CONSTRAINT"), p.isKw("PRIMARY"), p.isKw("UNIQUE"):
		*cons = append(*cons, p.parseTableConstraint())
	default:
		*cols = append(*cols, p.parseColumnDef(false))
	}
}

func (p *parser) parseWatermark() *Watermark {
	start := p.expectKw("WATERMARK").Pos
	p.expectKw("FOR")
	w := &Watermark{}
	cs := p.tok().Pos
	n := p.parseObjectName()
	w.Column = &Identifier{Span: p.span(cs), Parts: n.Parts}
	p.expectKw("AS")
	w.Expr = p.parseExpr()
	w.Span = p.span(start)
	return w
}

// parseEnforced parses an optional [NOT] ENFORCED.
func (p *parser) parseEnforced() (enforced, notEnforced bool) {
	if p.acceptKws("NOT", "ENFORCED") {
		return false, true
	}
	if p.acceptKw("ENFORCED") {
		return true, false
	}
	return false, false
}

func (p *parser) parseTableConstraint() *TableConstraint {
	start := p.tok().Pos
	c := &TableConstraint{}
	if p.acceptKw("CONSTRAINT") {
		c.Name = p.parseIdent()
	}
	if p.acceptKw("UNIQUE") {
		c.Kind = "UNIQUE"
	} else {
		p.expectKw("PRIMARY")
		p.expectKw("KEY")
		c.Kind = "PRIMARY KEY"
	}
	c.Columns = p.parseParenIdentList()
	c.Enforced, c.NotEnforced = p.parseEnforced()
	c.Span = p.span(start)
	return c
}

// parseColumnConstraint parses [CONSTRAINT name] PRIMARY KEY|UNIQUE
// [[NOT] ENFORCED] after a column type, or returns nil.
func (p *parser) parseColumnConstraint() *TableConstraint {
	if !p.isKw("CONSTRAINT") && !p.isKw("PRIMARY") && !p.isKw("UNIQUE") {
		return nil
	}
	start := p.tok().Pos
	c := &TableConstraint{}
	if p.acceptKw("CONSTRAINT") {
		c.Name = p.parseIdent()
	}
	if p.acceptKw("UNIQUE") {
		c.Kind = "UNIQUE"
	} else {
		p.expectKw("PRIMARY")
		p.expectKw("KEY")
		c.Kind = "PRIMARY KEY"
	}
	c.Enforced, c.NotEnforced = p.parseEnforced()
	c.Span = p.span(start)
	return c
}

func (p *parser) parseColumnDef(nested bool) *ColumnDef {
	start := p.tok().Pos
	c := &ColumnDef{Name: p.parseIdent()}
	for nested && p.isOp(".") && isIdentTok(p.peek(1)) {
		p.advance()
		c.Parent = append(c.Parent, c.Name)
		c.Name = p.parseIdent()
	}
	switch {
	case p.acceptKw("AS"):
		c.Kind = ColumnComputed
		c.Expr = p.parseExpr()
	case p.isOp(",") || p.isOp(")"):
		c.Kind = ColumnNameOnly
	default:
		c.Type = p.parseDataType()
		if p.acceptKw("METADATA") {
			c.Kind = ColumnMetadata
			if p.acceptKw("FROM") {
				k, _ := p.parseString()
				c.MetadataKey = &k
			}
			if p.acceptKw("VIRTUAL") {
				c.Virtual = true
			}
		}
		c.Constraint = p.parseColumnConstraint()
	}
	if p.acceptKw("COMMENT") {
		s, _ := p.parseString()
		c.Comment = &s
	}
	c.Span = p.span(start)
	return c
}
