package sql

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
