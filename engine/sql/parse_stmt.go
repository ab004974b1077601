package sql

import (
	"fmt"
	"strings"
)

func (p *parser) parseStatement() Statement {
	t := p.tok()
	start := t.Pos
	if t.Kind == TokOp && t.Text == "(" {
		return p.parseQuery()
	}
	if t.Kind != TokIdent {
		p.want("SELECT")
		p.want("INSERT")
		p.want("CREATE")
		p.fail()
	}
	switch t.upper {
	case "SELECT", "WITH", "VALUES":
		return p.parseQuery()
	case "TABLE":
		if isIdentTok(p.peek(1)) {
			return p.parseQuery()
		}
	case "INSERT", "UPSERT":
		return p.parseInsert()
	case "EXECUTE":
		p.advance()
		var st Statement
		switch {
		case p.isKw("STATEMENT"):
			st = p.parseStatementSet()
		case p.isKw("INSERT") || p.isKw("UPSERT"):
			st = p.parseInsert()
		case p.atQueryStart():
			st = p.parseQuery()
		case p.acceptKw("PLAN"):
			ep := &ExecutePlan{}
			ep.Path, _ = p.parseString()
			ep.Span = p.span(start)
			return ep
		default:
			p.fail()
		}
		return &Execute{Span: p.span(start), Stmt: st}
	case "COMPILE":
		p.advance()
		cp := &CompilePlan{}
		if p.acceptKw("AND") {
			p.expectKw("EXECUTE")
			cp.AndExecute = true
		}
		p.expectKw("PLAN")
		cp.Path, _ = p.parseString()
		if !cp.AndExecute {
			cp.IfNotExists = p.acceptKws("IF", "NOT", "EXISTS")
		}
		p.expectKw("FOR")
		if p.isKw("STATEMENT") {
			cp.Stmt = p.parseStatementSet()
		} else if p.isKw("INSERT") || p.isKw("UPSERT") {
			cp.Stmt = p.parseInsert()
		} else {
			p.fail()
		}
		cp.Span = p.span(start)
		return cp
	case "STATEMENT":
		return p.parseStatementSet()
	case "BEGIN":
		p.advance()
		p.expectKw("STATEMENT")
		p.expectKw("SET")
		return &BeginStatementSet{Span: p.span(start)}
	case "END":
		p.advance()
		return &End{Span: p.span(start)}
	case "CREATE":
		return p.parseCreate()
	case "REPLACE":
		if p.peekKw(1, "TABLE") {
			p.advance()
			ct := p.parseCreateTable(start, false, false)
			ct.Replace = true
			return ct
		}
	case "DROP":
		return p.parseDrop()
	case "ALTER":
		return p.parseAlter()
	case "USE":
		p.advance()
		if p.acceptKw("CATALOG") {
			n := p.parseIdent()
			return &Use{Span: p.span(start), Catalog: true, Name: &ObjectName{Span: n.Span, Parts: []*Ident{n}}}
		}
		if p.isKw("MODULES") && !p.peekOp(1, ".") && !p.peekOp(1, ";") && p.peek(1).Kind != TokEOF {
			p.advance()
			names := p.parseIdentList()
			return &UseModules{Span: p.span(start), Names: names}
		}
		name := p.parseObjectName()
		return &Use{Span: p.span(start), Name: name}
	case "LOAD":
		p.advance()
		p.expectKw("MODULE")
		m := &LoadModule{Name: p.parseIdent()}
		if p.acceptKw("WITH") {
			m.Options = p.parseProperties()
		}
		m.Span = p.span(start)
		return m
	case "UNLOAD":
		p.advance()
		p.expectKw("MODULE")
		name := p.parseIdent()
		return &UnloadModule{Name: name, Span: p.span(start)}
	case "SHOW":
		return p.parseShow()
	case "DESCRIBE", "DESC":
		return p.parseDescribe()
	case "EXPLAIN":
		return p.parseExplain()
	case "SET":
		return p.parseSet()
	case "RESET":
		return p.parseReset()
	case "STOP":
		p.advance()
		p.expectKw("JOB")
		s := &StopJob{}
		s.JobID, _ = p.parseString()
		for p.acceptKw("WITH") {
			if p.acceptKw("SAVEPOINT") {
				s.WithSavepoint = true
			} else {
				p.expectKw("DRAIN")
				s.WithDrain = true
			}
		}
		s.Span = p.span(start)
		return s
	case "ADD", "REMOVE":
		if p.peekKw(1, "JAR") {
			p.advance()
			p.advance()
			j := &Jar{Verb: t.upper}
			j.Path, _ = p.parseString()
			j.Span = p.span(start)
			return j
		}
	case "ANALYZE":
		p.advance()
		p.expectKw("TABLE")
		a := &Analyze{Table: p.parseObjectName()}
		if p.acceptKw("PARTITION") {
			a.Partition = p.parsePartitionSpec()
		}
		p.expectKw("COMPUTE")
		p.expectKw("STATISTICS")
		if p.acceptKw("FOR") {
			if p.acceptKw("ALL") {
				p.expectKw("COLUMNS")
				a.AllColumns = true
			} else {
				p.expectKw("COLUMNS")
				a.Columns = p.parseIdentList()
			}
		}
		a.Span = p.span(start)
		return a
	case "DELETE":
		p.advance()
		p.expectKw("FROM")
		d := &Delete{Table: p.parseObjectName()}
		if p.acceptKw("AS") {
			d.Alias = p.parseIdent()
		} else if p.isIdent() {
			d.Alias = p.parseIdent()
		}
		if p.acceptKw("WHERE") {
			d.Where = p.parseExpr()
		}
		d.Span = p.span(start)
		return d
	case "UPDATE":
		p.advance()
		u := &Update{Table: p.parseObjectName()}
		if p.acceptKw("AS") {
			u.Alias = p.parseIdent()
		} else if p.isIdent() {
			u.Alias = p.parseIdent()
		}
		p.expectKw("SET")
		for {
			as := p.tok().Pos
			a := &Assignment{Column: p.parseColumnPath()}
			p.expectOp("=")
			a.Value = p.parseExpr()
			a.Span = p.span(as)
			u.Set = append(u.Set, a)
			if !p.acceptOp(",") {
				break
			}
		}
		if p.acceptKw("WHERE") {
			u.Where = p.parseExpr()
		}
		u.Span = p.span(start)
		return u
	case "CALL":
		p.advance()
		name := p.parseFuncName()
		if !p.isOp("(") {
			p.fail()
		}
		f := p.parseCall(name).(*FuncCall)
		return &Call{Span: p.span(start), Call: f}
	case "TRUNCATE":
		p.advance()
		p.expectKw("TABLE")
		name := p.parseObjectName()
		return &Truncate{Table: name, Span: p.span(start)}
	case "HELP", "QUIT", "EXIT", "CLEAR":
		p.advance()
		return &ClientCommand{Span: p.span(start), Command: t.upper}
	}
	for _, w := range []string{"SELECT", "INSERT", "CREATE", "DROP", "ALTER", "SHOW", "DESCRIBE", "EXPLAIN", "USE", "SET", "RESET"} {
		p.want(w)
	}
	p.fail()
	return nil
}

func (p *parser) parseStatementSet() *StatementSet {
	start := p.expectKw("STATEMENT").Pos
	p.expectKw("SET")
	p.expectKw("BEGIN")
	ss := &StatementSet{}
	for {
		for p.acceptOp(";") {
		}
		// a statement set holds at least one INSERT, as in Flink's grammar
		if len(ss.Statements) > 0 && p.acceptKw("END") {
			break
		}
		if !p.isKw("INSERT") && !p.isKw("UPSERT") {
			// Flink's grammar expects no further ';' here
			p.expAt, p.expect = p.p, p.expect[:0]
			if len(ss.Statements) > 0 {
				p.want("END")
			}
			p.want("INSERT")
			p.want("UPSERT")
			p.fail()
		}
		ss.Statements = append(ss.Statements, p.parseInsert())
		if !p.isKw("END") {
			p.expectOp(";")
		}
	}
	ss.Span = p.span(start)
	return ss
}

func (p *parser) parsePartitionSpec() []*Property {
	p.expectOp("(")
	var out []*Property
	for {
		out = append(out, p.parseProperty(true))
		if !p.acceptOp(",") {
			break
		}
	}
	p.expectOp(")")
	return out
}

func (p *parser) parseInsert() *Insert {
	t := p.advance()
	start := t.Pos
	ins := &Insert{}
	if t.upper == "UPSERT" {
		ins.Upsert = true
		if p.isKw("OVERWRITE") {
			p.errorf(p.tok().Pos, "OVERWRITE expression is only used with INSERT statement")
		}
		p.expectKw("INTO")
	} else if p.acceptKw("OVERWRITE") {
		ins.Overwrite = true
	} else {
		p.expectKw("INTO")
	}
	ins.Table = p.parseObjectName()
	if p.tok().Kind == TokHintStart {
		ins.Hints = p.parseHints()
	}
	if p.acceptKw("PARTITION") {
		ins.Partition = p.parsePartitionSpec()
	}
	if p.isOp("(") && !p.atQueryStart() {
		ins.Columns = p.parseParenIdentList()
	}
	ins.Source = p.parseQuery()
	if p.isKw("ON") && p.peekKw(1, "CONFLICT") {
		p.p += 2
		p.expectKw("DO")
		switch {
		case p.acceptKw("ERROR"):
			ins.OnConflict = "ERROR"
		case p.acceptKw("NOTHING"):
			ins.OnConflict = "NOTHING"
		case p.acceptKw("DEDUPLICATE"):
			ins.OnConflict = "DEDUPLICATE"
		default:
			p.want("ERROR")
			p.want("NOTHING")
			p.want("DEDUPLICATE")
			p.fail()
		}
	}
	ins.Span = p.span(start)
	return ins
}

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

// ---------------------------------------------------------------------------
// data types

func (p *parser) parseTypeParams() []int {
	if !p.acceptOp("(") {
		return nil
	}
	out := []int{p.parseInt()}
	for p.acceptOp(",") {
		out = append(out, p.parseInt())
	}
	p.expectOp(")")
	return out
}

// parseDataType parses a type with its nullability suffix and any postfix
// ARRAY / MULTISET.
func (p *parser) parseDataType() *DataType {
	p.enter()
	defer p.leave()
	start := p.tok().Pos
	t := p.parseBaseType()
	p.parseNullability(t)
	for p.isKw("ARRAY") || p.isKw("MULTISET") {
		name := p.advance().upper
		t = &DataType{Name: name, Elem: t, Postfix: true}
		p.parseNullability(t)
		t.Span = p.span(start)
	}
	return t
}

func (p *parser) parseNullability(t *DataType) {
	if p.isKw("NOT") && p.peekKw(1, "NULL") {
		p.p += 2
		t.NotNull = true
	} else if p.isKw("NULL") && !p.peekKw(1, "ON") {
		p.advance()
		t.ExplicitNull = true
	}
	t.EndOff = p.lastEnd()
}

func (p *parser) parseBaseType() *DataType {
	start := p.tok().Pos
	tk := p.tok()
	t := &DataType{}
	w := tk.word()
	p.want("<data type>")
	switch w {
	case "BOOLEAN", "TINYINT", "SMALLINT", "BIGINT", "FLOAT", "REAL", "DATE", "STRING", "BYTES", "NULL":
		p.advance()
		t.Name = w
	case "INT", "INTEGER":
		p.advance()
		t.Name = "INT"
	case "DOUBLE":
		p.advance()
		p.acceptKw("PRECISION")
		t.Name = "DOUBLE"
	case "DECIMAL", "DEC", "NUMERIC":
		p.advance()
		t.Name = "DECIMAL"
		t.Params = p.parseTypeParams()
	case "CHAR", "CHARACTER":
		p.advance()
		t.Name = "CHAR"
		if p.acceptKw("VARYING") {
			t.Name = "VARCHAR"
		}
		t.Params = p.parseTypeParams()
	case "VARCHAR", "VARBINARY":
		p.advance()
		t.Name = w
		t.Params = p.parseTypeParams()
	case "BINARY":
		p.advance()
		t.Name = "BINARY"
		if p.acceptKw("VARYING") {
			t.Name = "VARBINARY"
		}
		t.Params = p.parseTypeParams()
	case "TIME", "TIMESTAMP":
		p.advance()
		t.Name = w
		t.Params = p.parseTypeParams()
		switch {
		case p.acceptKws("WITHOUT", "TIME", "ZONE"):
			t.TimeZone = "WITHOUT TIME ZONE"
		case p.acceptKws("WITH", "LOCAL", "TIME", "ZONE"):
			t.TimeZone = "WITH LOCAL TIME ZONE"
		case p.acceptKws("WITH", "TIME", "ZONE"):
			t.TimeZone = "WITH TIME ZONE"
		}
	case "TIMESTAMP_LTZ":
		p.advance()
		t.Name = w
		t.Params = p.parseTypeParams()
	case "INTERVAL":
		p.advance()
		t.Name = "INTERVAL"
		t.Interval = p.parseIntervalQualifier()
	case "ARRAY", "MULTISET":
		p.advance()
		t.Name = w
		p.expectOp("<")
		t.Elem = p.parseDataType()
		p.expectOp(">")
	case "MAP":
		p.advance()
		t.Name = w
		p.expectOp("<")
		t.Key = p.parseDataType()
		p.expectOp(",")
		t.Value = p.parseDataType()
		p.expectOp(">")
	case "ROW":
		p.advance()
		t.Name = w
		if p.acceptOp("<>") {
			break
		}
		close := ">"
		if p.acceptOp("(") {
			t.Parens = true
			close = ")"
		} else {
			p.expectOp("<")
		}
		if !p.isOp(close) {
			for {
				fs := p.tok().Pos
				f := &RowField{Name: p.parseIdent()}
				p.acceptOp(":")
				f.Type = p.parseDataType()
				if p.tok().Kind == TokString {
					c, _ := p.parseString()
					f.Comment = &c
				}
				f.Span = p.span(fs)
				t.Fields = append(t.Fields, f)
				if !p.acceptOp(",") {
					break
				}
			}
		}
		p.expectOp(close)
	case "RAW":
		p.advance()
		t.Name = w
		p.expectOp("(")
		t.RawClass, _ = p.parseString()
		if p.acceptOp(",") {
			t.RawSnapshot, _ = p.parseString()
		}
		p.expectOp(")")
	default:
		if !isIdentTok(tk) {
			p.fail()
		}
		t.UserType = p.parseObjectName()
	}
	t.Span = p.span(start)
	return t
}

// parseLanguage reads the word after LANGUAGE (JAVA, SCALA, PYTHON, GO...).
func (p *parser) parseLanguage() string {
	t := p.tok()
	p.want("<IDENTIFIER>")
	if t.Kind != TokIdent && t.Kind != TokQuotedIdent {
		p.fail()
	}
	p.advance()
	return upperASCII(t.Value)
}

// joinNames is a qualified name's parts as written, joined with dots.
func joinNames(n *ObjectName) string {
	parts := make([]string, len(n.Parts))
	for i, id := range n.Parts {
		parts[i] = id.Name
	}
	return strings.Join(parts, ".")
}
