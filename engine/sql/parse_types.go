package sql

import "strings"

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
	case "BOOLEAN", "TINYINT", "SMALLINT", "BIGINT", "FLOAT", "REAL", "DATE", "STRING", "BYTES", "NULL", "VARIANT":
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
