package sql

import (
	"strings"
	"testing"
)

func mustParse(t *testing.T, text string) Statement {
	t.Helper()
	st, err := Parse(text)
	if err != nil {
		t.Fatalf("Parse(%q): %v", text, err)
	}
	return st
}

func selectOf(t *testing.T, text string) *Select {
	t.Helper()
	q, ok := mustParse(t, text).(*Query)
	if !ok {
		t.Fatalf("%q: not a query", text)
	}
	s, ok := q.Body.(*Select)
	if !ok {
		t.Fatalf("%q: body is %T", text, q.Body)
	}
	return s
}

func firstExpr(t *testing.T, text string) Expr {
	t.Helper()
	return selectOf(t, text).Items[0].Expr
}

func TestExprShapes(t *testing.T) {
	// each expression is rendered canonically with full parentheses by
	// shape(); checks precedence and associativity.
	tests := []struct{ in, want string }{
		{"a OR b AND c", "(a OR (b AND c))"},
		{"a AND b OR c", "((a AND b) OR c)"},
		{"NOT a = b", "(NOT (a = b))"},
		{"NOT a AND b", "((NOT a) AND b)"},
		{"NOT NOT TRUE", "(NOT (NOT TRUE))"}, // repeated prefix NOT, as Calcite allows
		{"NOT NOT NOT a = b", "(NOT (NOT (NOT (a = b))))"},
		{"NOT NOT a AND b", "((NOT (NOT a)) AND b)"},
		{"a = b AND c < d", "((a = b) AND (c < d))"},
		{"1 + 2 * 3", "(1 + (2 * 3))"},
		{"1 - 2 - 3", "((1 - 2) - 3)"},
		{"1 + 2 || 'a'", "(1 + (2 || 'a'))"},
		{"'a' || 1 + 2", "(('a' || 1) + 2)"},
		{"-a * b", "((- a) * b)"},
		{"-a[1]", "(- a[1])"},
		{"a + b IS NULL", "((a + b) IS NULL)"},
		{"a = b IS NOT TRUE", "((a = b) IS NOT TRUE)"},
		{"a BETWEEN 1 + 1 AND 3 OR x", "((a BETWEEN (1 + 1) AND 3) OR x)"},
		{"a NOT IN (1, 2) AND b LIKE 'x'", "((a NOT IN (1, 2)) AND (b LIKE 'x'))"},
		{"a || b LIKE c", "((a || b) LIKE c)"},
		{"x IS DISTINCT FROM y + 1", "(x IS DISTINCT FROM (y + 1))"},
		{"a != b", "(a <> b)"},
	}
	for _, tc := range tests {
		e, err := ParseExpr(tc.in)
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		if got := shape(e); got != tc.want {
			t.Errorf("%q: got %s, want %s", tc.in, got, tc.want)
		}
	}
}

// shape renders an expression with explicit parentheses around every
// operator application, to test precedence.
func shape(e Expr) string {
	switch e := e.(type) {
	case *BinaryExpr:
		return "(" + shape(e.X) + " " + e.Op + " " + shape(e.Y) + ")"
	case *UnaryExpr:
		return "(" + e.Op + " " + shape(e.X) + ")"
	case *IsExpr:
		not := ""
		if e.Not {
			not = "NOT "
		}
		return "(" + shape(e.X) + " IS " + not + e.What + ")"
	case *IsDistinctFromExpr:
		return "(" + shape(e.X) + " IS DISTINCT FROM " + shape(e.Y) + ")"
	case *BetweenExpr:
		return "(" + shape(e.X) + " BETWEEN " + shape(e.Low) + " AND " + shape(e.High) + ")"
	case *LikeExpr:
		return "(" + shape(e.X) + " " + e.Op + " " + shape(e.Pattern) + ")"
	case *InExpr:
		var items []string
		for _, x := range e.List {
			items = append(items, shape(x))
		}
		not := ""
		if e.Not {
			not = " NOT"
		}
		return "(" + shape(e.X) + not + " IN (" + strings.Join(items, ", ") + "))"
	case *IndexExpr:
		return shape(e.X) + "[" + shape(e.Index) + "]"
	case *Identifier:
		var parts []string
		for _, p := range e.Parts {
			parts = append(parts, p.Name)
		}
		return strings.Join(parts, ".")
	}
	return e.String()
}

func TestLiterals(t *testing.T) {
	s := selectOf(t, "SELECT 42, 1.50, .5, 1e10, 'it''s' 'x', X'0aFF', DATE '2020-01-01', TIMESTAMP_LTZ '2020-01-01 00:00:00', INTERVAL '10' MINUTES, INTERVAL '1-2' YEAR TO MONTH, INTERVAL '10' SECOND(3), INTERVAL '1 2:3:4.5' DAY(2) TO SECOND(6), NULL, TRUE")
	got := func(i int) Expr { return s.Items[i].Expr }
	if n := got(0).(*NumberLit); n.Kind != NumInteger || n.Text != "42" {
		t.Errorf("integer: %+v", n)
	}
	if n := got(1).(*NumberLit); n.Kind != NumDecimal || n.Text != "1.50" {
		t.Errorf("decimal keeps text: %+v", n)
	}
	if n := got(2).(*NumberLit); n.Kind != NumDecimal || n.Text != ".5" {
		t.Errorf(".5: %+v", n)
	}
	if n := got(3).(*NumberLit); n.Kind != NumApprox {
		t.Errorf("approx: %+v", n)
	}
	if s := got(4).(*StringLit); s.Value != "it'sx" {
		t.Errorf("string concat/escape: %q", s.Value)
	}
	if b := got(5).(*BinaryLit); b.Hex != "0aFF" {
		t.Errorf("binary: %+v", b)
	}
	if d := got(6).(*DateTimeLit); d.Type != "DATE" || d.Value != "2020-01-01" {
		t.Errorf("date: %+v", d)
	}
	if d := got(7).(*DateTimeLit); d.Type != "TIMESTAMP_LTZ" {
		t.Errorf("ltz: %+v", d)
	}
	if i := got(8).(*IntervalLit); i.Value != "10" || i.Qualifier.StartUnit != "MINUTE" || i.Qualifier.EndUnit != "" {
		t.Errorf("plural interval: %+v %+v", i, i.Qualifier)
	}
	if i := got(9).(*IntervalLit); i.Qualifier.StartUnit != "YEAR" || i.Qualifier.EndUnit != "MONTH" {
		t.Errorf("year to month: %+v", i.Qualifier)
	}
	if i := got(10).(*IntervalLit); i.Qualifier.StartUnit != "SECOND" || i.Qualifier.StartPrecision != 3 {
		t.Errorf("second(3): %+v", i.Qualifier)
	}
	if i := got(11).(*IntervalLit); i.Qualifier.StartPrecision != 2 || i.Qualifier.FracPrecision != 6 || i.Qualifier.EndUnit != "SECOND" {
		t.Errorf("day(2) to second(6): %+v", i.Qualifier)
	}
	if _, ok := got(12).(*NullLit); !ok {
		t.Errorf("null: %T", got(12))
	}
	if b := got(13).(*BoolLit); !b.Value {
		t.Errorf("true: %+v", b)
	}
}

func TestIdentifiersKeepCase(t *testing.T) {
	s := selectOf(t, "SELECT MyCol, `my``col`, t.`Select`, cat.db.T.c FROM cat.db.T")
	id := s.Items[0].Expr.(*Identifier)
	if id.Parts[0].Name != "MyCol" || id.Parts[0].Quoted {
		t.Errorf("case: %+v", id.Parts[0])
	}
	id = s.Items[1].Expr.(*Identifier)
	if id.Parts[0].Name != "my`col" || !id.Parts[0].Quoted {
		t.Errorf("escape: %+v", id.Parts[0])
	}
	id = s.Items[2].Expr.(*Identifier)
	if len(id.Parts) != 2 || id.Parts[1].Name != "Select" {
		t.Errorf("quoted keyword: %+v", id.Parts)
	}
	id = s.Items[3].Expr.(*Identifier)
	if len(id.Parts) != 4 {
		t.Errorf("4-part name: %d parts", len(id.Parts))
	}
	tr := s.From.(*TableRef)
	if len(tr.Name.Parts) != 3 || tr.Name.Parts[2].Name != "T" {
		t.Errorf("table name: %+v", tr.Name.Parts)
	}
}

func TestPositions(t *testing.T) {
	text := "SELECT price,\n  pric + 1 AS x\nFROM Orders"
	s := selectOf(t, text)
	bin := s.Items[1].Expr.(*BinaryExpr)
	id := bin.X.(*Identifier)
	if p := id.Pos(); p.Line != 2 || p.Column != 3 || p.Offset != 16 {
		t.Errorf("identifier position: %+v", p)
	}
	if got := text[bin.Pos().Offset:bin.End()]; got != "pric + 1" {
		t.Errorf("binary span %q", got)
	}
	if bin.OpPos.Column != 8 || bin.OpPos.Line != 2 {
		t.Errorf("op pos %+v", bin.OpPos)
	}
	tr := s.From.(*TableRef)
	if p := tr.Pos(); p.Line != 3 || p.Column != 6 {
		t.Errorf("table position %+v", p)
	}
	if got := text[s.Pos().Offset:s.End()]; got != text {
		t.Errorf("select span %q", got)
	}
	// columns count code points
	s = selectOf(t, "SELECT 'é€', `ü`.x FROM t")
	id = s.Items[1].Expr.(*Identifier)
	if p := id.Pos(); p.Column != 14 || p.Offset != 16 {
		t.Errorf("unicode column: %+v", p)
	}
	// every node inside a larger statement has a sane span
	st := mustParse(t, "INSERT INTO t SELECT f(a, b) OVER (PARTITION BY c) FROM u")
	ins := st.(*Insert)
	f := ins.Source.Body.(*Select).Items[0].Expr.(*FuncCall)
	if got := "INSERT INTO t SELECT f(a, b) OVER (PARTITION BY c) FROM u"[f.Pos().Offset:f.End()]; got != "f(a, b) OVER (PARTITION BY c)" {
		t.Errorf("func span %q", got)
	}
}

func TestParseAtOffsets(t *testing.T) {
	script := "SELECT 1;\nSELECT bad FROM WHERE;"
	spans := SplitStatements(script)
	if len(spans) != 2 {
		t.Fatalf("spans %d", len(spans))
	}
	_, err := spans[1].Parse()
	e, ok := err.(*Error)
	if !ok {
		t.Fatalf("want *Error, got %v", err)
	}
	if e.Line != 2 || e.Column != 17 || e.Offset != 26 {
		t.Errorf("error position %+v", e)
	}
	if !strings.Contains(e.Msg, "line 2, column 17") {
		t.Errorf("message %q", e.Msg)
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		in         string
		line, col  int
		msgPrefix  string
		msgContain string
	}{
		{"SELECT * FORM t", 1, 10, "Encountered \"FORM\" at line 1, column 10.\nWas expecting one of:", "\"FROM\" ..."},
		{"SELECT * FROM order", 1, 15, "Incorrect syntax near the keyword 'order' at line 1, column 15.", "<IDENTIFIER>"},
		{"SELECT 'abc", 1, 12, "Lexical error at line 1, column 12.  Encountered: <EOF> after : \"\\'abc\"", ""},
		{"SELECT a # b", 1, 10, "Lexical error at line 1, column 10.  Encountered: \"#\" (35), after : \"\"", ""},
		{"SELECT a\nFROM t\nWHERE", 3, 5, "Encountered \"<EOF>\" at line 3, column 5.", ""},
		{"SELECT (1", 1, 9, "Encountered \"<EOF>\" at line 1, column 9.", "\")\""},
		{"SELECT * FROM t /* x", 1, 21, "Lexical error at line 1, column 21.  Encountered: <EOF> after : \"/* x\"", ""},
		{"SELECT `a", 1, 10, "Lexical error at line 1, column 10.", ""},
		{"SELECT * FROM t MATCH_RECOGNIZE (PARTITION BY a)", 1, 48, "Encountered \")\" at line 1, column 48.", "\"PATTERN\" ..."},
		{"CREATE TABLE t (a INT,)", 1, 23, "Encountered \")\" at line 1, column 23.", ""},
		{"SELEC 1", 1, 1, "Encountered \"SELEC\" at line 1, column 1.", "\"SELECT\" ..."},
		{"SELECT 1 +", 1, 10, "Encountered \"<EOF>\" at line 1, column 10.", ""},
		{"SELECT CAST(a AS) FROM t", 1, 17, "Encountered \")\" at line 1, column 17.", ""},
		{"SELECT * FROM t WHERE a = 1 1", 1, 29, "Encountered \"1\" at line 1, column 29.", ""},
		{"INSERT t SELECT 1", 1, 8, "Encountered \"t\" at line 1, column 8.", "\"INTO\""},
		{"SELECT 'é' FROM t WHERE #", 1, 25, "Lexical error at line 1, column 25.", ""},
		{"SELECT 1; SELECT 2", 1, 11, "Encountered \"SELECT\" at line 1, column 11.", "<EOF>"},
		{"show catalogs likes", 1, 15, "Encountered \"likes\" at line 1, column 15.", ""},
		{"show tables db1", 1, 13, "Encountered \"db1\" at line 1, column 13.", ""},
		{"alter table t1 drop constraint", 1, 30, "Encountered \"<EOF>\" at line 1, column 30.", ""},
		{"alter table tbl1 add DISTRIBUTION BY RANDOM(a, h) INTO 6 BUCKETS", 1, 38, "Encountered \"RANDOM\" at line 1, column 38.", ""},
		{"CREATE TABLE t (a INT) DISTRIBUTED INTO -3 BUCKETS", 1, 41, "Encountered \"-\" at line 1, column 41.", ""},
		{"CREATE TABLE t (a INT) DISTRIBUTED INTO 3.2 BUCKETS", 1, 41, "Bucket count must be a positive integer at line 1, column 41.", ""},
		{"alter table t add (watermark for ts as ts, watermark for f1 as now())", 1, 44, "Multiple WATERMARK declarations are not supported yet", ""},
		{"CREATE VIEW V() AS SELECT * FROM TBL", 1, 15, "Encountered \")\" at line 1, column 15.\nWas expecting one of:", ""},
		{"create temporary system function catalog1.db1.function1 as 'x'", 1, 42, "Encountered \".\" at line 1, column 42.", ""},
		{"create system function f as 'x'", 1, 8, "CREATE SYSTEM FUNCTION is not supported", ""},
		{"create temporary function f as 'x' language python using jar 'a.jar'", 1, 45, "CREATE FUNCTION USING JAR/ARTIFACT syntax is not applicable to PYTHON language", ""},
		{"create temporary function f as 'x' language java using file 'a'", 1, 56, "Encountered \"file\" at line 1, column 56.\nWas expecting one of:\n    \"JAR\" ...\n    \"ARTIFACT\" ...", ""},
		{"load module 'core'", 1, 13, "Encountered \"\\'core\\'\" at line 1, column 13.", ""},
		{"use modules x,", 1, 14, "Encountered \"<EOF>\" at line 1, column 14.", ""},
		// at the end of input, the last character, blanks, comments and
		// newlines included, as Flink 2.3.0 reports it
		{"SELECT 1 FROM", 1, 13, "Encountered \"<EOF>\" at line 1, column 13.", ""},
		{"SELECT 1 FROM  ", 1, 15, "Encountered \"<EOF>\" at line 1, column 15.", ""},
		{"SELECT 1 FROM\n", 1, 14, "Encountered \"<EOF>\" at line 1, column 14.", ""},
		{"SELECT 1 FROM\n\n", 2, 1, "Encountered \"<EOF>\" at line 2, column 1.", ""},
		{"SELECT 1 FROM\r\n", 1, 15, "Encountered \"<EOF>\" at line 1, column 15.", ""},
		{"SELECT 1 FROM -- c", 1, 18, "Encountered \"<EOF>\" at line 1, column 18.", ""},
		{"SELECT 1 FROM /* c */\n  ", 2, 2, "Encountered \"<EOF>\" at line 2, column 2.", ""},
		{"SELECT 'é' FROM", 1, 15, "Encountered \"<EOF>\" at line 1, column 15.", ""},
		{"SELECT 1\nFROM", 2, 4, "Encountered \"<EOF>\" at line 2, column 4.", ""},
		{"UPSERT OVERWRITE t SELECT 1", 1, 8, "OVERWRITE expression is only used with INSERT statement", ""},
		{"INSERT INTO t1 SELECT * FROM t2 ON CONFLICT DO UPDATE", 1, 48, "Encountered \"UPDATE\" at line 1, column 48.", ""},
		{"explain changelog_mode, changelog_mode select * from emps", 1, 25, "Duplicate EXPLAIN DETAIL is not allowed", ""},
		{"EXPLAIN CREATE TABLE t (id int)", 1, 9, "Unsupported CREATE OR REPLACE statement for EXPLAIN", ""},
		{"CREATE TABLE t (col1 string) WITH ('test' = 'zm') like b AS SELECT col1 FROM b", 1, 58, "Encountered \"AS\" at line 1, column 58.", ""},
		{"CREATE TABLE t (col1, col2 int) AS SELECT col1 FROM b", 1, 28, "Encountered \"int\" at line 1, column 28.", ""},
		{"CREATE TABLE t (a, h) WITH ('connector' = 'kafka')", 1, 16, "Columns identifiers without types in the schema are supported on CTAS/RTAS statements only", ""},
		{"analyze table emps partition compute statistics", 1, 30, "Encountered \"compute\" at line 1, column 30.", ""},
		{"analyze table emps partition(x=, y) compute statistics", 1, 32, "Encountered \",\" at line 1, column 32.", ""},
	}
	for _, tc := range tests {
		_, err := Parse(tc.in)
		e, ok := err.(*Error)
		if !ok {
			t.Errorf("%q: want *Error, got %v", tc.in, err)
			continue
		}
		if e.Line != tc.line || e.Column != tc.col {
			t.Errorf("%q: position %d:%d, want %d:%d (%s)", tc.in, e.Line, e.Column, tc.line, tc.col, e.Msg)
		}
		if !strings.HasPrefix(e.Msg, tc.msgPrefix) {
			t.Errorf("%q: message\n%s\nwant prefix\n%s", tc.in, e.Msg, tc.msgPrefix)
		}
		if tc.msgContain != "" && !strings.Contains(e.Msg, tc.msgContain) {
			t.Errorf("%q: message\n%s\nlacks %s", tc.in, e.Msg, tc.msgContain)
		}
	}
}

func TestSetOpPrecedence(t *testing.T) {
	q := mustParse(t, "SELECT 1 UNION SELECT 2 INTERSECT SELECT 3 ORDER BY 1 LIMIT 2").(*Query)
	u := q.Body.(*SetOp)
	if u.Op != "UNION" {
		t.Fatalf("top op %s", u.Op)
	}
	if r, ok := u.Right.(*SetOp); !ok || r.Op != "INTERSECT" {
		t.Errorf("INTERSECT should bind tighter: %T", u.Right)
	}
	if len(q.OrderBy) != 1 || q.Limit == nil {
		t.Errorf("ORDER BY/LIMIT belong to the whole query")
	}
	q = mustParse(t, "SELECT 1 EXCEPT SELECT 2 MINUS ALL SELECT 3").(*Query)
	e := q.Body.(*SetOp)
	if e.Op != "EXCEPT" || !e.Minus || e.Quantifier != "ALL" {
		t.Errorf("minus: %+v", e)
	}
	if l, ok := e.Left.(*SetOp); !ok || l.Op != "EXCEPT" {
		t.Errorf("left-assoc: %T", e.Left)
	}
	// a parenthesised query with its own LIMIT stays a nested Query
	q = mustParse(t, "(SELECT a FROM t LIMIT 1) UNION ALL SELECT b FROM u").(*Query)
	if _, ok := q.Body.(*SetOp).Left.(*Query); !ok {
		t.Errorf("nested query lost")
	}
}

func TestWindowTVF(t *testing.T) {
	s := selectOf(t, "SELECT * FROM TABLE(SESSION(TABLE Bid PARTITION BY item, DESCRIPTOR(bidtime), INTERVAL '5' MINUTES))")
	tf := s.From.(*TableFunc)
	if tf.Call.Name.Parts[0].Name != "SESSION" || len(tf.Call.Args) != 3 {
		t.Fatalf("call %+v", tf.Call)
	}
	ta := tf.Call.Args[0].(*TableArg)
	if ta.Name.Parts[0].Name != "Bid" || len(ta.PartitionBy) != 1 {
		t.Errorf("table arg %+v", ta)
	}
	if d := tf.Call.Args[1].(*Descriptor); d.Columns[0].Name != "bidtime" {
		t.Errorf("descriptor %+v", d)
	}
	s = selectOf(t, "SELECT * FROM TABLE(TUMBLE(DATA => TABLE Bid, TIMECOL => DESCRIPTOR(bidtime), SIZE => INTERVAL '10' MINUTES))")
	na := s.From.(*TableFunc).Call.Args[2].(*NamedArg)
	if na.Name.Name != "SIZE" {
		t.Errorf("named arg %+v", na)
	}
	if _, ok := na.Value.(*IntervalLit); !ok {
		t.Errorf("named arg value %T", na.Value)
	}
}

func TestSpecialFunctions(t *testing.T) {
	f := firstExpr(t, "SELECT EXTRACT(DAYS FROM ts)").(*FuncCall)
	if f.Syntax != SyntaxExtract || f.Args[0].(*Symbol).Name != "DAY" {
		t.Errorf("extract %+v", f)
	}
	f = firstExpr(t, "SELECT TRIM(LEADING 'x' FROM s)").(*FuncCall)
	if f.Syntax != SyntaxTrim || f.Args[0].(*Symbol).Name != "LEADING" || len(f.Args) != 3 {
		t.Errorf("trim %+v", f)
	}
	f = firstExpr(t, "SELECT COUNT(DISTINCT a) FILTER (WHERE b > 1) OVER w").(*FuncCall)
	if f.Quantifier != "DISTINCT" || f.Filter == nil || f.Over == nil || !f.Over.Ref || f.Over.Name.Name != "w" {
		t.Errorf("count distinct filter over %+v", f)
	}
	f = firstExpr(t, "SELECT COUNT(*)").(*FuncCall)
	if _, ok := f.Args[0].(*Star); !ok {
		t.Errorf("count(*) %+v", f.Args)
	}
	f = firstExpr(t, "SELECT CURRENT_TIMESTAMP").(*FuncCall)
	if f.Syntax != SyntaxNiladic {
		t.Errorf("niladic %+v", f)
	}
	f = firstExpr(t, "SELECT JSON_VALUE(j, '$.a' RETURNING INT DEFAULT 0 ON EMPTY ERROR ON ERROR)").(*FuncCall)
	if f.JSON == nil || f.JSON.Returning.Name != "INT" || f.JSON.OnEmpty.Kind != "DEFAULT" || f.JSON.OnError.Kind != "ERROR" {
		t.Errorf("json_value %+v", f.JSON)
	}
	f = firstExpr(t, "SELECT JSON_OBJECT(KEY 'a' VALUE 1, 'b' VALUE 2 ABSENT ON NULL)").(*FuncCall)
	if len(f.Args) != 4 || f.JSON.OnNull != "ABSENT" {
		t.Errorf("json_object %+v", f)
	}
	c := firstExpr(t, "SELECT TRY_CAST(a AS DECIMAL(10, 2) NOT NULL)").(*CastExpr)
	if !c.Try || c.Type.Name != "DECIMAL" || len(c.Type.Params) != 2 || !c.Type.NotNull {
		t.Errorf("try_cast %+v", c.Type)
	}
}

func TestDataTypes(t *testing.T) {
	tests := []struct{ in, want string }{
		{"INTEGER", "INT"},
		{"DEC(5, 2)", "DECIMAL(5, 2)"},
		{"NUMERIC", "DECIMAL"},
		{"CHARACTER VARYING(3)", "VARCHAR(3)"},
		{"DOUBLE PRECISION NOT NULL", "DOUBLE NOT NULL"},
		{"TIMESTAMP(3) WITH LOCAL TIME ZONE", "TIMESTAMP(3) WITH LOCAL TIME ZONE"},
		{"INT ARRAY", "INT ARRAY"},
		{"ARRAY<INT NOT NULL>", "ARRAY<INT NOT NULL>"},
		{"MAP<STRING, ARRAY<BIGINT>>", "MAP<STRING, ARRAY<BIGINT>>"},
		{"ROW<a INT 'c', `b c` STRING>", "ROW<`a` INT 'c', `b c` STRING>"},
		{"ROW(a INT)", "ROW(`a` INT)"},
		{"RAW('cls', 'snap')", "RAW('cls', 'snap')"},
		{"INTERVAL DAY(2) TO SECOND(3)", "INTERVAL DAY(2) TO SECOND(3)"},
		{"my.udt", "`my`.`udt`"},
	}
	for _, tc := range tests {
		dt, err := ParseDataType(tc.in)
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		if got := dt.String(); got != tc.want {
			t.Errorf("%q: got %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestCreateTable(t *testing.T) {
	ct := mustParse(t, `CREATE TEMPORARY TABLE IF NOT EXISTS c.d.t (
  id BIGINT NOT NULL PRIMARY KEY NOT ENFORCED COMMENT 'key',
  cost AS price * qty,
  ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL,
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) COMMENT 'tbl' PARTITIONED BY (id) WITH ('connector' = 'kafka')`).(*CreateTable)
	if !ct.Temporary || !ct.IfNotExists || len(ct.Name.Parts) != 3 {
		t.Errorf("header %+v", ct)
	}
	if len(ct.Columns) != 3 || len(ct.Watermarks) != 1 {
		t.Fatalf("elements %d %d", len(ct.Columns), len(ct.Watermarks))
	}
	c0, c1, c2 := ct.Columns[0], ct.Columns[1], ct.Columns[2]
	if c0.Kind != ColumnPhysical || !c0.Type.NotNull || c0.Constraint == nil || c0.Constraint.Kind != "PRIMARY KEY" || !c0.Constraint.NotEnforced || *c0.Comment != "key" {
		t.Errorf("physical %+v", c0)
	}
	if c1.Kind != ColumnComputed || c1.Expr == nil {
		t.Errorf("computed %+v", c1)
	}
	if c2.Kind != ColumnMetadata || *c2.MetadataKey != "timestamp" || !c2.Virtual {
		t.Errorf("metadata %+v", c2)
	}
	if *ct.Comment != "tbl" || len(ct.PartitionBy) != 1 || ct.Options[0].Key != "connector" || ct.Options[0].Value != "kafka" {
		t.Errorf("tail %+v", ct)
	}
}

func TestScriptAndStatementSets(t *testing.T) {
	sts, err := ParseScript(`
SET 'execution.runtime-mode' = 'streaming';
BEGIN STATEMENT SET;
INSERT INTO a SELECT 1;
INSERT INTO b SELECT 2;
END;
EXECUTE STATEMENT SET BEGIN INSERT INTO a SELECT 1; INSERT INTO b SELECT 2; END;
;;
SELECT 1`)
	if err != nil {
		t.Fatal(err)
	}
	kinds := []string{}
	for _, s := range sts {
		kinds = append(kinds, strings.TrimPrefix(strings.TrimPrefix(typeName(s), "*sql."), "sql."))
	}
	want := "Set BeginStatementSet Insert Insert End Execute Query"
	if got := strings.Join(kinds, " "); got != want {
		t.Errorf("kinds %s, want %s", got, want)
	}
	ex := sts[5].(*Execute)
	if ss := ex.Stmt.(*StatementSet); len(ss.Statements) != 2 {
		t.Errorf("statement set %d", len(ss.Statements))
	}
	set := sts[0].(*Set)
	if set.Key != "execution.runtime-mode" || set.Value != "streaming" || !set.Quoted {
		t.Errorf("set %+v", set)
	}
	st := mustParse(t, "SET table.exec.mini-batch.enabled = true").(*Set)
	if st.Key != "table.exec.mini-batch.enabled" || st.Value != "true" {
		t.Errorf("unquoted set %+v", st)
	}
}

func typeName(v any) string {
	return strings.TrimPrefix(strings.TrimPrefix(strings.Split(strings.TrimPrefix(fmtType(v), "*"), "{")[0], "sql."), "*")
}

func fmtType(v any) string {
	switch v.(type) {
	case *Set:
		return "Set"
	case *BeginStatementSet:
		return "BeginStatementSet"
	case *Insert:
		return "Insert"
	case *End:
		return "End"
	case *Execute:
		return "Execute"
	case *Query:
		return "Query"
	}
	return "?"
}

func TestFormatSQL(t *testing.T) {
	in := "-- lead comment\nselect a, b from t where a > 1 group by a, b order by a limit 10;\ninsert into s select * from t; -- trailing\n"
	out, err := FormatSQL(in)
	if err != nil {
		t.Fatal(err)
	}
	want := `-- lead comment
SELECT
  a,
  b
FROM t
WHERE a > 1
GROUP BY a, b
ORDER BY a
LIMIT 10;

INSERT INTO s
SELECT *
FROM t;

-- trailing
`
	if out != want {
		t.Errorf("FormatSQL:\n%s\nwant:\n%s", out, want)
	}
	// idempotent
	out2, err := FormatSQL(out)
	if err != nil || out2 != out {
		t.Errorf("not idempotent:\n%s", out2)
	}
	// a comment inside a statement keeps the statement verbatim
	in = "SELECT a -- the a\nFROM t"
	out, _ = FormatSQL(in)
	if !strings.Contains(out, "-- the a") {
		t.Errorf("inner comment lost: %s", out)
	}
}
