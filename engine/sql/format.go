package sql

import (
	"strconv"
	"strings"
)

// Format renders a node as canonical Flink SQL on one line: keywords in
// upper case, every column/table identifier backquoted (function names are
// written as parsed), string literals with ” escapes. Parsing the result
// yields a tree equal to n apart from positions and identifier quoting.
func Format(n Node) string {
	p := &printer{canonical: true}
	p.node(n)
	return p.b.String()
}

// FormatSQL pretty-prints every statement of a SQL script in a consistent
// multi-line style: one clause per line, select lists and column lists
// indented by two spaces, upper-case keywords, identifiers quoted as they
// were written (or when they must be). Statements are terminated by ";"
// and separated by a blank line. Comments before a statement are kept;
// comments inside a statement are put back next to the code they were next
// to (formatKeepingComments), and a statement whose comments cannot be
// placed so is emitted unchanged, so that no comment is lost. The output parses to the same trees as the input. It returns an
// *Error if the script does not parse.
func FormatSQL(text string) (string, error) {
	spans := SplitStatements(text)
	var out strings.Builder
	prev := 0
	for i, sp := range spans {
		st, err := ParseAt(sp.Text, sp.Start)
		if err != nil {
			return "", err
		}
		if i > 0 {
			out.WriteString("\n")
		}
		for _, c := range commentsIn(text[prev:sp.Start.Offset]) {
			out.WriteString(c)
			out.WriteString("\n")
		}
		if len(commentsIn(sp.Text)) > 0 {
			if f, ok := formatKeepingComments(sp.Text, st); ok {
				out.WriteString(f)
			} else {
				out.WriteString(sp.Text)
			}
		} else {
			p := &printer{pretty: true}
			p.node(st)
			out.WriteString(p.b.String())
		}
		out.WriteString(";\n")
		prev = sp.End
	}
	if trailing := commentsIn(text[prev:]); len(trailing) > 0 {
		if len(spans) > 0 {
			out.WriteString("\n")
		}
		for _, c := range trailing {
			out.WriteString(c)
			out.WriteString("\n")
		}
	}
	return out.String(), nil
}

// commentsIn returns the comments of text, without trailing newlines.
func commentsIn(text string) []string {
	var out []string
	for _, t := range Tokenize(text) {
		if t.Kind == TokComment {
			out = append(out, strings.TrimRight(t.Text, "\r\n"))
		}
	}
	return out
}

type printer struct {
	b         strings.Builder
	canonical bool // backquote every identifier
	pretty    bool
	// calcite lays a query out as Calcite unparses a validated one
	// (FormatExpanded): each clause on a new line, no indentation.
	calcite bool
	// funcArg is set while a function's argument is written: Calcite
	// wraps a scalar subquery there in two parentheses, elsewhere in three.
	funcArg bool
	indent  int
}

func (p *printer) w(s string) { p.b.WriteString(s) }

// nl breaks the line in pretty mode, else writes a space.
func (p *printer) nl() {
	if p.calcite {
		p.b.WriteByte('\n')
		return
	}
	if p.pretty {
		p.b.WriteByte('\n')
		for i := 0; i < p.indent; i++ {
			p.b.WriteString("  ")
		}
	} else {
		p.b.WriteByte(' ')
	}
}

// brk breaks the line in pretty mode, else writes nothing.
func (p *printer) brk() {
	if p.pretty {
		p.nl()
	}
}

func (p *printer) ident(id *Ident) {
	if id == nil {
		return
	}
	if p.canonical || id.Quoted {
		p.w(QuoteIdent(id.Name))
		return
	}
	p.w(QuoteIdentIfNeeded(id.Name))
}

func (p *printer) idents(ids []*Ident) {
	for i, id := range ids {
		if i > 0 {
			p.w(", ")
		}
		p.ident(id)
	}
}

func (p *printer) parts(ids []*Ident) {
	for i, id := range ids {
		if i > 0 {
			p.w(".")
		}
		p.ident(id)
	}
}

func (p *printer) objName(n *ObjectName) {
	if n != nil {
		p.parts(n.Parts)
	}
}

// funcName writes a function name: as written, quoted only when it was
// quoted or must be.
func (p *printer) funcName(n *ObjectName) {
	for i, id := range n.Parts {
		if i > 0 {
			p.w(".")
		}
		if id.Quoted || !isPlainIdent(id.Name) || (len(n.Parts) > 1 && IsReserved(id.Name)) {
			p.w(QuoteIdent(id.Name))
		} else {
			p.w(id.Name)
		}
	}
}

func quoteString(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

func (p *printer) str(s string) { p.w(quoteString(s)) }

func (p *printer) props(ps []*Property) {
	p.w("(")
	if p.pretty && len(ps) > 0 {
		p.indent++
		for i, pr := range ps {
			if i > 0 {
				p.w(",")
			}
			p.nl()
			p.prop(pr)
		}
		p.indent--
		p.nl()
	} else {
		for i, pr := range ps {
			if i > 0 {
				p.w(", ")
			}
			p.prop(pr)
		}
	}
	p.w(")")
}

func (p *printer) prop(pr *Property) {
	if pr.ValueExpr != nil {
		p.partKey(pr.Key)
		p.w(" = ")
		p.expr(pr.ValueExpr)
		return
	}
	p.str(pr.Key)
	p.w(" = ")
	p.str(pr.Value)
}

func (p *printer) partSpec(ps []*Property) {
	p.w("(")
	for i, pr := range ps {
		if i > 0 {
			p.w(", ")
		}
		p.partKey(pr.Key)
		if pr.ValueExpr != nil {
			p.w(" = ")
			p.expr(pr.ValueExpr)
		}
	}
	p.w(")")
}

func (p *printer) partKey(k string) {
	parts := strings.Split(k, ".")
	for i, s := range parts {
		if i > 0 {
			p.w(".")
		}
		if p.canonical {
			p.w(QuoteIdent(s))
		} else {
			p.w(QuoteIdentIfNeeded(s))
		}
	}
}

// ---------------------------------------------------------------------------
// nodes

func (p *printer) node(n Node) {
	switch n := n.(type) {
	case Statement:
		p.stmt(n)
	case Expr:
		p.expr(n)
	case QueryExpr:
		p.queryExpr(n)
	case TableExpr:
		p.table(n)
	case *DataType:
		p.dataType(n)
	case *Ident:
		p.ident(n)
	case *ObjectName:
		p.objName(n)
	case *OrderItem:
		p.orderItem(n)
	case *WindowSpec:
		p.windowSpec(n)
	case *SelectItem:
		p.selectItem(n)
	case *ColumnDef:
		p.columnDef(n)
	case *Watermark:
		p.watermark(n)
	case *TableConstraint:
		p.constraint(n)
	case *Hint:
		p.hintList([]*Hint{n})
	case *IntervalQualifier:
		p.intervalQualifier(n)
	case *Property:
		p.prop(n)
	case *When:
		p.w("WHEN ")
		p.expr(n.Cond)
		for _, m := range n.More {
			p.w(", ")
			p.expr(m)
		}
		p.w(" THEN ")
		p.expr(n.Result)
	case *CTE:
		p.cte(n)
	case *With:
		p.with(n)
	case *GroupingElement:
		p.grouping(n)
	case *NamedWindow:
		p.ident(n.Name)
		p.w(" AS ")
		p.windowSpec(n.Spec)
	case *FrameBound:
		p.frameBound(n)
	case *WindowFrame:
		p.frame(n)
	case *RowField:
		p.rowField(n)
	case *JSONBehavior:
		p.jsonBehavior(n)
	case *LikeOption:
		p.w(n.Strategy + " " + n.Feature)
	case *TableLike:
		p.tableLike(n)
	case *Distribution:
		p.distribution(n)
	case *LikePattern:
		p.likePattern(n)
	}
}

// ---------------------------------------------------------------------------
// expressions

func exprPrec(e Expr) int {
	switch e := e.(type) {
	case *BinaryExpr:
		switch e.Op {
		case "OR":
			return precOr
		case "AND":
			return precAnd
		case "+", "-":
			return precAdd
		case "*", "/", "%", "||":
			return precMul
		default:
			return precCmp
		}
	case *UnaryExpr:
		if e.Op == "NOT" {
			return precNot
		}
		return precUnary
	case *IsExpr, *IsDistinctFromExpr:
		return precIs
	case *QuantifiedExpr:
		return precCmp
	case *LikeExpr, *InExpr, *BetweenExpr:
		return precLike
	case *TableArg, *NamedArg:
		return 0
	}
	return precPrimary
}

// sub writes e, parenthesised when it binds less tightly than min.
func (p *printer) sub(e Expr, min int) {
	if exprPrec(e) < min {
		p.w("(")
		p.expr(e)
		p.w(")")
		return
	}
	p.expr(e)
}

func (p *printer) exprs(es []Expr) {
	for i, e := range es {
		if i > 0 {
			p.w(", ")
		}
		p.expr(e)
	}
}

// subquery writes (query), indented on its own lines in pretty mode.
func (p *printer) subquery(q *Query) {
	p.w("(")
	p.indent++
	p.brk()
	p.query(q)
	p.indent--
	p.brk()
	p.w(")")
}

func (p *printer) expr(e Expr) {
	funcArg := p.funcArg
	p.funcArg = false
	switch e := e.(type) {
	case nil:
		p.w("<nil>")
	case *Identifier:
		p.parts(e.Parts)
	case *Star:
		if len(e.Qualifier) > 0 {
			p.parts(e.Qualifier)
			p.w(".")
		}
		p.w("*")
	case *NumberLit:
		p.w(e.Text)
	case *StringLit:
		if e.Unicode {
			p.w("U&'" + e.Value + "'")
		} else {
			p.str(e.Value)
		}
	case *BinaryLit:
		p.w("X'" + e.Hex + "'")
	case *BoolLit:
		if e.Value {
			p.w("TRUE")
		} else {
			p.w("FALSE")
		}
	case *NullLit:
		p.w("NULL")
	case *UnknownLit:
		p.w("UNKNOWN")
	case *DateTimeLit:
		p.w(e.Type + " ")
		p.str(e.Value)
	case *IntervalLit:
		p.w("INTERVAL ")
		if e.Negative {
			p.w("- ")
		}
		p.str(e.Value)
		p.w(" ")
		p.intervalQualifier(e.Qualifier)
	case *ParamExpr:
		p.w("?")
	case *UnaryExpr:
		if e.Op == "NOT" {
			p.w("NOT ")
			p.sub(e.X, precIs)
			return
		}
		p.w(e.Op)
		if u, ok := e.X.(*UnaryExpr); ok && u.Op != "NOT" || p.calcite {
			p.w(" ") // never emit "--", which would start a comment
		}
		p.sub(e.X, precUnary)
	case *BinaryExpr:
		prec := exprPrec(e)
		p.sub(e.X, prec)
		p.w(" " + e.Op + " ")
		p.sub(e.Y, prec+1)
	case *IsExpr:
		p.sub(e.X, precIs)
		p.w(" IS ")
		if e.Not {
			p.w("NOT ")
		}
		p.w(e.What)
	case *IsDistinctFromExpr:
		p.sub(e.X, precIs)
		if e.Not {
			p.w(" IS NOT DISTINCT FROM ")
		} else {
			p.w(" IS DISTINCT FROM ")
		}
		p.sub(e.Y, precIs+1)
	case *LikeExpr:
		p.sub(e.X, precLike)
		if e.Not {
			p.w(" NOT")
		}
		p.w(" " + e.Op + " ")
		p.sub(e.Pattern, precLike+1)
		if e.Escape != nil {
			p.w(" ESCAPE ")
			p.sub(e.Escape, precLike+1)
		}
	case *QuantifiedExpr:
		p.sub(e.X, precCmp)
		p.w(" " + e.Op + " " + e.Quantifier + " ")
		p.subquery(e.Query)
	case *InExpr:
		p.sub(e.X, precLike)
		if e.Not {
			p.w(" NOT")
		}
		p.w(" IN ")
		if e.Query != nil {
			p.subquery(e.Query)
		} else {
			p.w("(")
			p.exprs(e.List)
			p.w(")")
		}
	case *BetweenExpr:
		p.sub(e.X, precLike)
		if e.Not {
			p.w(" NOT")
		}
		p.w(" BETWEEN ")
		if e.Symmetric != "" {
			p.w(e.Symmetric + " ")
		}
		p.sub(e.Low, precLike+1)
		p.w(" AND ")
		p.sub(e.High, precLike+1)
	case *ExistsExpr:
		p.w("EXISTS ")
		p.subquery(e.Query)
	case *SubqueryExpr:
		if p.calcite {
			parens := 3
			if funcArg {
				parens = 2
			}
			p.w(strings.Repeat("(", parens))
			p.query(e.Query)
			p.w(strings.Repeat(")", parens))
			return
		}
		p.subquery(e.Query)
	case *CastExpr:
		if e.Try {
			p.w("TRY_CAST(")
		} else {
			p.w("CAST(")
		}
		p.expr(e.X)
		p.w(" AS ")
		p.dataType(e.Type)
		p.w(")")
	case *CaseExpr:
		p.w("CASE")
		if e.Operand != nil {
			p.w(" ")
			p.expr(e.Operand)
		}
		for _, wh := range e.Whens {
			p.w(" WHEN ")
			p.expr(wh.Cond)
			for _, m := range wh.More {
				p.w(", ")
				p.expr(m)
			}
			p.w(" THEN ")
			p.expr(wh.Result)
		}
		if e.Else != nil {
			p.w(" ELSE ")
			p.expr(e.Else)
		}
		p.w(" END")
	case *Symbol:
		p.w(e.Name)
	case *FuncCall:
		p.funcCall(e)
	case *RowExpr:
		if e.Explicit {
			p.w("ROW")
		}
		p.w("(")
		p.exprs(e.Items)
		p.w(")")
	case *ArrayExpr:
		if e.Query != nil {
			p.w("ARRAY")
			p.subquery(e.Query)
			return
		}
		p.w("ARRAY[")
		p.exprs(e.Items)
		p.w("]")
	case *MapExpr:
		if e.Query != nil {
			p.w("MAP")
			p.subquery(e.Query)
			return
		}
		p.w("MAP[")
		p.exprs(e.Items)
		p.w("]")
	case *IndexExpr:
		p.postfixBase(e.X)
		p.w("[")
		p.expr(e.Index)
		p.w("]")
	case *FieldExpr:
		p.postfixBase(e.X)
		p.w(".")
		p.ident(e.Field)
	case *Descriptor:
		p.w("DESCRIPTOR(")
		p.idents(e.Columns)
		p.w(")")
	case *TableArg:
		if p.calcite && e.Query != nil && len(e.PartitionBy) == 0 && len(e.OrderBy) == 0 {
			// the validated table argument is its query in parentheses
			p.subquery(e.Query)
			return
		}
		if e.Query != nil {
			// a query argument is written (SELECT ...), without TABLE
			p.subquery(e.Query)
		} else {
			p.w("TABLE ")
			p.objName(e.Name)
		}
		if len(e.PartitionBy) > 0 {
			p.w(" PARTITION BY ")
			if len(e.PartitionBy) == 1 {
				p.expr(e.PartitionBy[0])
			} else {
				p.w("(")
				p.exprs(e.PartitionBy)
				p.w(")")
			}
		}
		if len(e.OrderBy) > 0 {
			p.w(" ORDER BY ")
			p.orderItems(e.OrderBy)
		}
	case *NamedArg:
		if p.canonical || e.Name.Quoted {
			p.ident(e.Name)
		} else {
			p.w(e.Name.Name) // may be a reserved word such as OFFSET
		}
		p.w(" => ")
		p.expr(e.Value)
	default:
		p.w("<?>")
	}
}

func (p *printer) postfixBase(x Expr) {
	switch x.(type) {
	case *Identifier, *FuncCall, *IndexExpr, *FieldExpr:
		p.expr(x)
	default:
		p.w("(")
		p.expr(x)
		p.w(")")
	}
}

func (p *printer) intervalQualifier(q *IntervalQualifier) {
	p.w(q.StartUnit)
	if q.StartPrecision >= 0 {
		p.w("(" + strconv.Itoa(q.StartPrecision))
		if q.EndUnit == "" && q.StartUnit == "SECOND" && q.FracPrecision >= 0 {
			p.w(", " + strconv.Itoa(q.FracPrecision))
		}
		p.w(")")
	} else if q.EndUnit == "" && q.FracPrecision >= 0 {
		// cannot happen from the parser; keep the information anyway
		p.w("(" + strconv.Itoa(q.FracPrecision) + ")")
	}
	if q.EndUnit != "" {
		p.w(" TO " + q.EndUnit)
		if q.EndUnit == "SECOND" && q.FracPrecision >= 0 {
			p.w("(" + strconv.Itoa(q.FracPrecision) + ")")
		}
	}
}

func (p *printer) funcCall(f *FuncCall) {
	if f.Syntax == SyntaxNiladic {
		p.funcName(f.Name)
		return
	}
	p.funcName(f.Name)
	p.w("(")
	a := f.Args
	switch {
	case f.Syntax == SyntaxExtract && len(a) == 2:
		p.expr(a[0])
		p.w(" FROM ")
		p.expr(a[1])
	case f.Syntax == SyntaxTrim && len(a) == 3:
		p.expr(a[0])
		p.w(" ")
		p.expr(a[1])
		p.w(" FROM ")
		p.expr(a[2])
	case f.Syntax == SyntaxPosition && len(a) >= 2:
		p.sub(a[0], precLike+1)
		p.w(" IN ")
		p.expr(a[1])
		if len(a) > 2 {
			p.w(" FROM ")
			p.expr(a[2])
		}
	case f.Syntax == SyntaxSubstring && len(a) >= 2:
		p.expr(a[0])
		p.w(" FROM ")
		p.expr(a[1])
		if len(a) > 2 {
			p.w(" FOR ")
			p.expr(a[2])
		}
	case f.Syntax == SyntaxOverlay && len(a) >= 3:
		p.expr(a[0])
		p.w(" PLACING ")
		p.expr(a[1])
		p.w(" FROM ")
		p.expr(a[2])
		if len(a) > 3 {
			p.w(" FOR ")
			p.expr(a[3])
		}
	case f.Syntax == SyntaxFloorCeil && len(a) == 2:
		p.expr(a[0])
		p.w(" TO ")
		p.expr(a[1])
	case f.Syntax == SyntaxJSONObject:
		for i := 0; i+1 < len(a); i += 2 {
			if i > 0 {
				p.w(", ")
			}
			p.w("KEY ")
			p.sub(a[i], precAdd)
			p.w(" VALUE ")
			p.expr(a[i+1])
		}
	default:
		if f.Quantifier != "" {
			p.w(f.Quantifier + " ")
		}
		for i, x := range a {
			if i > 0 {
				p.w(", ")
			}
			p.funcArg = p.calcite
			p.expr(x)
		}
	}
	if len(f.OrderBy) > 0 {
		p.w(" ORDER BY ")
		p.orderItems(f.OrderBy)
	}
	if j := f.JSON; j != nil {
		if j.Returning != nil {
			p.w(" RETURNING ")
			p.dataType(j.Returning)
		}
		if j.Wrapper != "" {
			p.w(" " + j.Wrapper + " WRAPPER")
		}
		if j.OnEmpty != nil {
			p.w(" ")
			p.jsonBehavior(j.OnEmpty)
			p.w(" ON EMPTY")
		}
		if j.OnError != nil {
			p.w(" ")
			p.jsonBehavior(j.OnError)
			p.w(" ON ERROR")
		}
		if j.OnNull != "" {
			if len(a) > 0 {
				p.w(" ")
			}
			p.w(j.OnNull + " ON NULL")
		}
	}
	p.w(")")
	if len(f.WithinGroup) > 0 {
		p.w(" WITHIN GROUP (ORDER BY ")
		p.orderItems(f.WithinGroup)
		p.w(")")
	}
	if f.Filter != nil {
		p.w(" FILTER (WHERE ")
		p.expr(f.Filter)
		p.w(")")
	}
	if f.NullTreatment != "" {
		p.w(" " + f.NullTreatment)
	}
	if f.Over != nil {
		p.w(" OVER ")
		if f.Over.Ref {
			p.ident(f.Over.Name)
		} else {
			p.windowSpec(f.Over)
		}
	}
}

func (p *printer) jsonBehavior(b *JSONBehavior) {
	p.w(b.Kind)
	if b.Kind == "DEFAULT" {
		p.w(" ")
		p.expr(b.Default)
	}
}

func (p *printer) orderItem(o *OrderItem) {
	p.expr(o.Expr)
	if o.Desc {
		p.w(" DESC")
	} else if o.Asc {
		p.w(" ASC")
	}
	if o.Nulls != "" {
		p.w(" NULLS " + o.Nulls)
	}
}

func (p *printer) orderItems(os []*OrderItem) {
	for i, o := range os {
		if i > 0 {
			p.w(", ")
		}
		p.orderItem(o)
	}
}

func (p *printer) windowSpec(w *WindowSpec) {
	p.w("(")
	sep := ""
	if w.Name != nil {
		p.ident(w.Name)
		sep = " "
	}
	if len(w.PartitionBy) > 0 {
		p.w(sep + "PARTITION BY ")
		p.exprs(w.PartitionBy)
		sep = " "
	}
	if len(w.OrderBy) > 0 {
		p.w(sep + "ORDER BY ")
		p.orderItems(w.OrderBy)
		sep = " "
	}
	if w.Frame != nil {
		p.w(sep)
		p.frame(w.Frame)
	}
	p.w(")")
}

func (p *printer) frame(f *WindowFrame) {
	p.w(f.Unit + " ")
	if f.To != nil {
		p.w("BETWEEN ")
		p.frameBound(f.From)
		p.w(" AND ")
		p.frameBound(f.To)
	} else {
		p.frameBound(f.From)
	}
}

func (p *printer) frameBound(b *FrameBound) {
	if b.Offset != nil {
		p.sub(b.Offset, precAdd)
		p.w(" ")
	}
	p.w(b.Kind)
}

// ---------------------------------------------------------------------------
// data types

func (p *printer) dataType(t *DataType) {
	if t.Postfix && t.Elem != nil {
		p.dataType(t.Elem)
		p.w(" " + t.Name)
	} else {
		switch t.Name {
		case "":
			p.objName(t.UserType)
		case "ARRAY", "MULTISET":
			p.w(t.Name + "<")
			p.dataType(t.Elem)
			p.w(">")
		case "MAP":
			p.w("MAP<")
			p.dataType(t.Key)
			p.w(", ")
			p.dataType(t.Value)
			p.w(">")
		case "ROW":
			open, close := "<", ">"
			if t.Parens {
				open, close = "(", ")"
			}
			p.w("ROW" + open)
			for i, f := range t.Fields {
				if i > 0 {
					p.w(", ")
				}
				p.rowField(f)
			}
			p.w(close)
		case "RAW":
			p.w("RAW(")
			p.str(t.RawClass)
			if t.RawSnapshot != "" {
				p.w(", ")
				p.str(t.RawSnapshot)
			}
			p.w(")")
		case "INTERVAL":
			p.w("INTERVAL ")
			p.intervalQualifier(t.Interval)
		default:
			p.w(t.Name)
			if t.Params != nil {
				p.w("(")
				for i, n := range t.Params {
					if i > 0 {
						p.w(", ")
					}
					p.w(strconv.Itoa(n))
				}
				p.w(")")
			}
			if t.TimeZone != "" {
				p.w(" " + t.TimeZone)
			}
		}
	}
	if t.NotNull {
		p.w(" NOT NULL")
	} else if t.ExplicitNull {
		p.w(" NULL")
	}
}

func (p *printer) rowField(f *RowField) {
	p.ident(f.Name)
	p.w(" ")
	p.dataType(f.Type)
	if f.Comment != nil {
		p.w(" ")
		p.str(*f.Comment)
	}
}
