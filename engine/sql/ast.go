package sql

// This file defines the abstract syntax tree produced by Parse.
//
// Conventions shared by every node:
//
//   - Each node embeds Span, giving its start position (line, column, byte
//     offset of its first token) and the byte offset just past its last
//     token. Text[n.Pos().Offset:n.End()] is the node's source text.
//   - Optional parts are nil (pointers, interfaces) or empty (slices).
//   - Identifiers keep their case exactly as written; Quoted records whether
//     they were backquoted. Keywords stored as strings (operators, units,
//     flags) are upper case.
//   - Parentheses are not kept as nodes: (a + b) * c is a BinaryExpr whose X
//     is the BinaryExpr a + b.
//   - String() on any node renders canonical Flink SQL that parses back to
//     an equal tree (see Format).

// Node is implemented by every AST node.
type Node interface {
	// Pos returns the position of the node's first token.
	Pos() Pos
	// End returns the byte offset just past the node's last token.
	End() int
	// String renders the node as canonical Flink SQL.
	String() string
}

// Span records where a node lies in the source. It is embedded in every
// node and provides the Pos and End methods.
type Span struct {
	Start  Pos
	EndOff int
}

// Pos returns the position of the node's first token.
func (s Span) Pos() Pos { return s.Start }

// End returns the byte offset just past the node's last token.
func (s Span) End() int { return s.EndOff }

// Expr is a scalar (row) expression. Implemented by the *...Expr, *...Lit,
// *Identifier, *Star, *Symbol, *Descriptor, *TableArg and *NamedArg nodes.
type Expr interface {
	Node
	exprNode()
}

// Statement is a complete SQL statement. Implemented by *Query and all the
// DDL/DML/utility statement nodes.
type Statement interface {
	Node
	stmtNode()
}

// QueryExpr is the body of a query: *Select, *SetOp, *Values or a nested
// *Query (a parenthesised query that has its own WITH, ORDER BY, LIMIT,
// OFFSET or FETCH).
type QueryExpr interface {
	Node
	queryExprNode()
}

// TableExpr is an item of a FROM clause: *TableRef, *DerivedTable,
// *TableFunc, *Unnest or *Join.
type TableExpr interface {
	Node
	tableExprNode()
}

// ---------------------------------------------------------------------------
// Names

// Ident is one identifier: a name part, column name, alias, etc.
type Ident struct {
	Span
	// Name is the identifier as written (unquoted) or unescaped (quoted).
	Name string
	// Quoted reports whether it was written in backquotes.
	Quoted bool
}

// ObjectName is a possibly qualified object name such as cat.db.tbl; Parts
// holds 1 to 3 (or more, for nested names) identifiers in written order.
type ObjectName struct {
	Span
	Parts []*Ident
}

// Property is one 'key' = 'value' pair of a WITH (...) option list, a
// PARTITION (...) spec or similar. Keys and values are unescaped strings.
type Property struct {
	Span
	// Key is the option key; KeyPos is where it starts.
	Key    string
	KeyPos Pos
	// Value is the literal value. For option lists it is a string literal.
	// For PARTITION (k = v) specs it is any literal (see ValueExpr).
	Value string
	// ValueExpr is the literal as an expression (PARTITION specs may use
	// numbers); nil in option lists.
	ValueExpr Expr
}

// Hint is one hint of a /*+ ... */ comment, e.g. OPTIONS('k'='v') or
// BROADCAST(t1, t2).
type Hint struct {
	Span
	// Name is the hint name as written, e.g. "OPTIONS".
	Name *Ident
	// Options holds positional options: identifiers or string literals,
	// as written (unescaped). Empty for key/value hints.
	Options []string
	// KVOptions holds 'k' = 'v' options in order. Empty for positional
	// hints.
	KVOptions []*Property
}

// ---------------------------------------------------------------------------
// Expressions

// Identifier is a column reference or other name with 1 or more parts:
// a, t.a, db.t.a, cat.db.t.a, or a nested field path r.f.g.
type Identifier struct {
	Span
	Parts []*Ident
}

// Star is * or qualifier.* in a select list, or the * of COUNT(*).
type Star struct {
	Span
	// Qualifier holds the parts before ".*"; empty for a bare *.
	Qualifier []*Ident
}

// NumberKind distinguishes numeric literal forms.
type NumberKind uint8

// Numeric literal kinds.
const (
	// NumInteger is an exact integer (42).
	NumInteger NumberKind = iota
	// NumDecimal is an exact decimal (1.5, .5, 1.).
	NumDecimal
	// NumApprox is an approximate number with exponent (1e10, 1.5E-3).
	NumApprox
)

// NumberLit is an unsigned numeric literal. A leading minus sign is a
// UnaryExpr around it.
type NumberLit struct {
	Span
	Kind NumberKind
	// Text is the literal exactly as written, e.g. "1.50", "1e10".
	Text string
}

// StringLit is a character string literal. Adjacent literals 'a' 'b' are
// concatenated into one StringLit, as in Calcite.
type StringLit struct {
	Span
	// Value is the unescaped content.
	Value string
	// Unicode reports a U&'...' literal; Value then holds the raw body with
	// its \XXXX escapes unresolved.
	Unicode bool
}

// BinaryLit is a binary string literal X'0AFF'.
type BinaryLit struct {
	Span
	// Hex holds the hex digits as written (possibly concatenated from
	// adjacent literals).
	Hex string
}

// BoolLit is TRUE or FALSE.
type BoolLit struct {
	Span
	Value bool
}

// NullLit is NULL.
type NullLit struct {
	Span
}

// UnknownLit is the UNKNOWN boolean literal.
type UnknownLit struct {
	Span
}

// DateTimeLit is a typed literal DATE '...', TIME '...', TIMESTAMP '...'
// or TIMESTAMP_LTZ '...'.
type DateTimeLit struct {
	Span
	// Type is "DATE", "TIME", "TIMESTAMP" or "TIMESTAMP_LTZ".
	Type string
	// Value is the unescaped string content.
	Value string
}

// IntervalQualifier is the unit part of an interval literal or type:
// DAY, DAY(3), YEAR TO MONTH, SECOND(3), DAY(2) TO SECOND(6).
type IntervalQualifier struct {
	Span
	// StartUnit is the leading unit in singular upper case: YEAR, QUARTER,
	// MONTH, WEEK, DAY, HOUR, MINUTE, SECOND, MILLISECOND, MICROSECOND or
	// NANOSECOND. Plural forms (MINUTES) are normalised to the singular.
	StartUnit string
	// StartPrecision is the leading field precision, or -1 when absent.
	StartPrecision int
	// EndUnit is the trailing unit of a "TO" range, or "" for a single unit.
	EndUnit string
	// FracPrecision is the fractional second precision of a trailing (or
	// sole) SECOND unit, or -1 when absent.
	FracPrecision int
}

// IntervalLit is INTERVAL [+|-] 'value' qualifier, e.g. INTERVAL '10'
// MINUTES or INTERVAL '1-2' YEAR TO MONTH.
type IntervalLit struct {
	Span
	// Negative is set for INTERVAL - '1' DAY (a sign inside the literal
	// string is part of Value).
	Negative bool
	// Value is the unescaped string content.
	Value string
	// Qualifier gives the units.
	Qualifier *IntervalQualifier
}

// ParamExpr is a dynamic parameter "?"; Index counts from 0 in text order.
type ParamExpr struct {
	Span
	Index int
}

// UnaryExpr is a prefix operator application: -x, +x, NOT x.
type UnaryExpr struct {
	Span
	// Op is "-", "+" or "NOT".
	Op string
	X  Expr
}

// BinaryExpr is an infix operator application.
type BinaryExpr struct {
	Span
	// Op is one of: OR AND = <> < > <= >= <=> + - * / % ||
	// ("!=" is normalised to "<>"). OpPos is the operator's position.
	Op    string
	OpPos Pos
	X, Y  Expr
}

// IsExpr is x IS [NOT] NULL|TRUE|FALSE|UNKNOWN|JSON [VALUE|SCALAR|ARRAY|OBJECT].
type IsExpr struct {
	Span
	X   Expr
	Not bool
	// What is "NULL", "TRUE", "FALSE", "UNKNOWN", "JSON VALUE",
	// "JSON SCALAR", "JSON ARRAY" or "JSON OBJECT" (IS JSON alone is
	// "JSON VALUE").
	What string
}

// IsDistinctFromExpr is x IS [NOT] DISTINCT FROM y.
type IsDistinctFromExpr struct {
	Span
	X, Y Expr
	Not  bool
}

// LikeExpr is x [NOT] LIKE|ILIKE|SIMILAR TO pattern [ESCAPE esc].
type LikeExpr struct {
	Span
	X   Expr
	Not bool
	// Op is "LIKE", "ILIKE" or "SIMILAR TO".
	Op      string
	Pattern Expr
	// Escape is nil unless ESCAPE was given.
	Escape Expr
}

// InExpr is x [NOT] IN (list) or x [NOT] IN (subquery). Exactly one of List
// and Query is set.
type InExpr struct {
	Span
	X     Expr
	Not   bool
	List  []Expr
	Query *Query
}

// QuantifiedExpr is a quantified comparison x op SOME|ANY|ALL (subquery),
// op one of = <> < <= > >=. Quantifier is "SOME", "ANY" or "ALL" as
// written (ANY is SOME).
type QuantifiedExpr struct {
	Span
	X          Expr
	Op         string
	Quantifier string
	Query      *Query
}

// BetweenExpr is x [NOT] BETWEEN [ASYMMETRIC|SYMMETRIC] low AND high.
type BetweenExpr struct {
	Span
	X   Expr
	Not bool
	// Symmetric is "", "ASYMMETRIC" or "SYMMETRIC" as written.
	Symmetric string
	Low, High Expr
}

// ExistsExpr is EXISTS (subquery).
type ExistsExpr struct {
	Span
	Query *Query
}

// SubqueryExpr is a scalar subquery (SELECT ...) used as an expression.
type SubqueryExpr struct {
	Span
	Query *Query
}

// CastExpr is CAST(x AS type) or TRY_CAST(x AS type).
type CastExpr struct {
	Span
	Try  bool
	X    Expr
	Type *DataType
}

// When is one WHEN ... THEN ... arm of a CASE expression.
type When struct {
	Span
	Cond, Result Expr
	// More holds the further values of a simple CASE's WHEN v1, v2, ...
	// (Calcite's grammar): the branch is taken when the operand equals any.
	More []Expr
}

// CaseExpr is CASE [operand] WHEN ... THEN ... [ELSE ...] END. Operand is
// nil for a searched CASE.
type CaseExpr struct {
	Span
	Operand Expr
	Whens   []*When
	Else    Expr
}

// Symbol is a keyword used as a function argument: a time unit in
// EXTRACT(DAY FROM x), FLOOR(x TO HOUR), TIMESTAMPADD(DAY, ...), or a TRIM
// side (BOTH, LEADING, TRAILING). Name is upper case; time units are
// normalised to the singular.
type Symbol struct {
	Span
	Name string
}

// FuncSyntax tells how a FuncCall was written, for unparsing. The binder
// can ignore it: the arguments are always in Args, in the order given in
// each constant's comment.
type FuncSyntax uint8

// Function call syntaxes.
const (
	// SyntaxFunction is name(args...).
	SyntaxFunction FuncSyntax = iota
	// SyntaxNiladic is a function written without parentheses:
	// CURRENT_TIMESTAMP, CURRENT_DATE, LOCALTIMESTAMP, USER, ...
	SyntaxNiladic
	// SyntaxExtract is EXTRACT(unit FROM x): Args = [Symbol unit, x].
	SyntaxExtract
	// SyntaxTrim is TRIM([side] [chars] FROM s): Args = [Symbol side
	// (BOTH when omitted), chars (StringLit ' ' when omitted), s]. A TRIM(s)
	// without FROM keeps SyntaxFunction and Args = [s].
	SyntaxTrim
	// SyntaxPosition is POSITION(a IN b [FROM c]): Args = [a, b] or [a, b, c].
	SyntaxPosition
	// SyntaxSubstring is SUBSTRING(s FROM a [FOR b]): Args = [s, a] or [s, a, b].
	SyntaxSubstring
	// SyntaxOverlay is OVERLAY(s PLACING r FROM a [FOR b]): Args = [s, r, a]
	// or [s, r, a, b].
	SyntaxOverlay
	// SyntaxFloorCeil is FLOOR(x TO unit) / CEIL(x TO unit): Args = [x,
	// Symbol unit].
	SyntaxFloorCeil
	// SyntaxTimestampAdd is TIMESTAMPADD(unit, n, t) or TIMESTAMPDIFF(unit,
	// a, b): Args = [Symbol unit, ...].
	SyntaxTimestampAdd
	// SyntaxJSONObject is JSON_OBJECT([KEY] k VALUE v, ...) and
	// JSON_OBJECTAGG([KEY] k VALUE v): Args alternate key, value.
	SyntaxJSONObject
	// SyntaxTranslate is TRANSLATE(s USING name): Args = [s, Identifier].
	SyntaxTranslate
)

// JSONBehavior is an ON EMPTY / ON ERROR clause of a JSON function.
type JSONBehavior struct {
	Span
	// Kind is one of NULL, ERROR, DEFAULT, TRUE, FALSE, UNKNOWN,
	// EMPTY ARRAY, EMPTY OBJECT.
	Kind string
	// Default is the expression of DEFAULT expr.
	Default Expr
}

// JSONClauses holds the clauses specific to SQL/JSON functions. Fields that
// were not written are zero.
type JSONClauses struct {
	// Returning is the type of RETURNING type (JSON_VALUE, JSON_QUERY...).
	Returning *DataType
	// Wrapper is JSON_QUERY's wrapper: "WITHOUT ARRAY", "WITH CONDITIONAL
	// ARRAY", "WITH UNCONDITIONAL ARRAY" (the optional ARRAY keyword and a
	// bare WITH are normalised: WITH → WITH UNCONDITIONAL ARRAY).
	Wrapper string
	// OnEmpty and OnError are the ON EMPTY / ON ERROR behaviours.
	OnEmpty *JSONBehavior
	OnError *JSONBehavior
	// OnNull is "NULL" or "ABSENT" for JSON_OBJECT/JSON_ARRAY[AGG] ... ON NULL.
	OnNull string
}

// FuncCall is a function call, including aggregate and window function
// calls and the special syntaxes listed under FuncSyntax.
type FuncCall struct {
	Span
	// Name is the function name (possibly qualified: cat.db.f). Names are
	// kept as written; built-in names are case-insensitive in Flink.
	Name *ObjectName
	// Syntax tells how the call was written.
	Syntax FuncSyntax
	// Quantifier is "", "DISTINCT" or "ALL" (COUNT(DISTINCT x)).
	Quantifier string
	// Args are the arguments. COUNT(*) has one *Star argument.
	Args []Expr
	// OrderBy is the in-call ORDER BY of JSON_ARRAYAGG/ARRAY_AGG(x ORDER BY y).
	OrderBy []*OrderItem
	// NullTreatment is "", "IGNORE NULLS" or "RESPECT NULLS".
	NullTreatment string
	// WithinGroup is the ORDER BY of WITHIN GROUP (ORDER BY ...).
	WithinGroup []*OrderItem
	// Filter is the condition of FILTER (WHERE cond).
	Filter Expr
	// Over is the window of OVER (...) or OVER name; nil when absent.
	Over *WindowSpec
	// JSON holds SQL/JSON clauses; nil for other functions.
	JSON *JSONClauses
}

// RowExpr is a row constructor: ROW(a, b) (Explicit) or (a, b).
type RowExpr struct {
	Span
	Explicit bool
	Items    []Expr
}

// ArrayExpr is the array constructor ARRAY[a, b, ...], or ARRAY(subquery)
// when Query is set.
type ArrayExpr struct {
	Span
	Items []Expr
	Query *Query
}

// MapExpr is the map constructor MAP[k1, v1, k2, v2, ...]; Items alternate
// keys and values. MAP(subquery) sets Query instead.
type MapExpr struct {
	Span
	Items []Expr
	Query *Query
}

// IndexExpr is element access x[index]: arrays (1-based) and maps.
type IndexExpr struct {
	Span
	X, Index Expr
}

// FieldExpr is field access on a non-name expression: (expr).field,
// f(x).field, a[1].field. Plain dotted names are Identifiers instead.
type FieldExpr struct {
	Span
	X     Expr
	Field *Ident
}

// Descriptor is DESCRIPTOR(col, ...), used by window table functions.
type Descriptor struct {
	Span
	Columns []*Ident
}

// TableArg is a table argument of a table function: TABLE t [PARTITION BY
// k, ...] [ORDER BY ...], or TABLE(subquery) when Query is set.
type TableArg struct {
	Span
	Name        *ObjectName
	Query       *Query
	PartitionBy []Expr
	OrderBy     []*OrderItem
}

// NamedArg is a named argument name => value, e.g. SIZE => INTERVAL '1'
// HOUR.
type NamedArg struct {
	Span
	Name  *Ident
	Value Expr
}

// ---------------------------------------------------------------------------
// Data types

// DataType is a data type as written in CAST or DDL. The lead's binder
// converts it to types.DataType.
//
// Name is canonical upper case; synonyms are normalised: INTEGER → INT,
// DEC/NUMERIC → DECIMAL, CHARACTER → CHAR, CHARACTER VARYING / CHAR VARYING
// → VARCHAR, DOUBLE PRECISION → DOUBLE, TIMESTAMP ... WITH LOCAL TIME ZONE
// stays TIMESTAMP with TimeZone set. Other names: BOOLEAN TINYINT SMALLINT
// BIGINT FLOAT REAL STRING BINARY VARBINARY BYTES DATE TIME TIMESTAMP
// TIMESTAMP_LTZ INTERVAL ARRAY MULTISET MAP ROW RAW VARIANT NULL. A user-defined
// (named) type has Name "" and UserType set.
type DataType struct {
	Span
	Name string
	// Params are the numeric parameters in parentheses: VARCHAR(10) → [10],
	// DECIMAL(10, 2) → [10, 2], TIMESTAMP(3) → [3]. Nil when absent.
	Params []int
	// TimeZone is "", "WITHOUT TIME ZONE", "WITH LOCAL TIME ZONE" or
	// "WITH TIME ZONE" for TIME/TIMESTAMP.
	TimeZone string
	// Interval is the qualifier of an INTERVAL type.
	Interval *IntervalQualifier
	// Elem is the element type of ARRAY and MULTISET.
	Elem *DataType
	// Postfix reports the postfix form "T ARRAY" / "T MULTISET".
	Postfix bool
	// Key and Value are the MAP key and value types.
	Key, Value *DataType
	// Fields are the ROW fields.
	Fields []*RowField
	// Parens reports ROW(...) rather than ROW<...> syntax.
	Parens bool
	// RawClass and RawSnapshot are the strings of RAW('class', 'snapshot');
	// RawSnapshot may be empty.
	RawClass, RawSnapshot string
	// NotNull is set by a trailing NOT NULL.
	NotNull bool
	// ExplicitNull is set by a trailing NULL (nullable, the default).
	ExplicitNull bool
	// UserType names a user-defined type when Name is "".
	UserType *ObjectName
}

// RowField is one field of a ROW type.
type RowField struct {
	Span
	Name *Ident
	Type *DataType
	// Comment is the field description, or nil.
	Comment *string
}

// ---------------------------------------------------------------------------
// Windows, ordering

// OrderItem is one ORDER BY item.
type OrderItem struct {
	Span
	Expr Expr
	// Desc is set by DESC; ASC and absence leave it false. Asc records an
	// explicit ASC.
	Desc bool
	Asc  bool
	// Nulls is "", "FIRST" or "LAST" (NULLS FIRST / NULLS LAST).
	Nulls string
}

// FrameBound is one bound of a window frame.
type FrameBound struct {
	Span
	// Kind is "UNBOUNDED PRECEDING", "PRECEDING", "CURRENT ROW",
	// "FOLLOWING" or "UNBOUNDED FOLLOWING".
	Kind string
	// Offset is the n of "n PRECEDING" / "n FOLLOWING".
	Offset Expr
}

// WindowFrame is ROWS|RANGE [BETWEEN start AND end] | start.
type WindowFrame struct {
	Span
	// Unit is "ROWS" or "RANGE".
	Unit string
	// From is the first (or only) bound.
	From *FrameBound
	// To is the second bound of BETWEEN ... AND ...; nil when the frame has
	// a single bound.
	To *FrameBound
}

// WindowSpec is a window specification: OVER (...), OVER name, or the
// definition in WINDOW name AS (...).
type WindowSpec struct {
	Span
	// Name is the referenced window for OVER w, or the base window of
	// (w PARTITION BY ...); nil otherwise.
	Name        *Ident
	Ref         bool // true for OVER w (no parentheses)
	PartitionBy []Expr
	OrderBy     []*OrderItem
	Frame       *WindowFrame
}

// NamedWindow is one entry of a WINDOW clause: name AS (spec).
type NamedWindow struct {
	Span
	Name *Ident
	Spec *WindowSpec
}

// ---------------------------------------------------------------------------
// Queries

// CTE is one WITH item: name [(cols)] AS (query).
type CTE struct {
	Span
	Name    *Ident
	Columns []*Ident
	Query   *Query
}

// With is a WITH clause.
type With struct {
	Span
	Recursive bool
	CTEs      []*CTE
}

// Query is a complete query expression: [WITH ...] body [ORDER BY ...]
// [LIMIT n | FETCH FIRST n ROWS ONLY] [OFFSET n ROWS]. It is a Statement
// and can also appear as a QueryExpr, in subqueries and in DDL/DML.
type Query struct {
	Span
	With    *With
	Body    QueryExpr
	OrderBy []*OrderItem
	// Limit is the row count of LIMIT n or FETCH FIRST|NEXT n ROWS ONLY;
	// Fetch records the FETCH form. LimitAll records LIMIT ALL.
	Limit    Expr
	Fetch    bool
	LimitAll bool
	// Offset is the n of OFFSET n [ROWS].
	Offset Expr
}

// SelectItem is one item of a select list: an expression with an optional
// alias, or a Star.
type SelectItem struct {
	Span
	Expr  Expr
	Alias *Ident
}

// GroupingKind distinguishes grouping elements.
type GroupingKind uint8

// Grouping element kinds.
const (
	// GroupExpr is a plain expression (Exprs has one element; an empty
	// grouping set "()" has none).
	GroupExpr GroupingKind = iota
	// GroupRollup is ROLLUP(e, ...).
	GroupRollup
	// GroupCube is CUBE(e, ...).
	GroupCube
	// GroupSets is GROUPING SETS (elem, ...), with Sets holding the nested
	// elements.
	GroupSets
	// GroupEmpty is the empty grouping set ().
	GroupEmpty
)

// GroupingElement is one element of GROUP BY.
type GroupingElement struct {
	Span
	Kind GroupingKind
	// Exprs are the expressions of GroupExpr, GroupRollup and GroupCube.
	// A parenthesised list (a, b) inside ROLLUP/CUBE/GROUPING SETS is a
	// RowExpr.
	Exprs []Expr
	// Sets are the nested elements of GroupSets.
	Sets []*GroupingElement
}

// Select is one SELECT block.
type Select struct {
	Span
	// Hints are the /*+ ... */ hints right after SELECT.
	Hints []*Hint
	// Quantifier is "", "DISTINCT" or "ALL".
	Quantifier string
	Items      []*SelectItem
	// From is nil for SELECT without FROM. Comma-separated FROM items are
	// Joins of type JoinComma.
	From    TableExpr
	Where   Expr
	GroupBy []*GroupingElement
	// GroupByQuantifier is "", "ALL" or "DISTINCT" (GROUP BY DISTINCT ...).
	GroupByQuantifier string
	Having            Expr
	Windows           []*NamedWindow
	// Qualify is the QUALIFY condition (Calcite syntax; Flink's planner
	// may reject it).
	Qualify Expr
}

// SetOp is a set operation: UNION, INTERSECT, EXCEPT (MINUS is normalised
// to EXCEPT, with Minus set for unparsing).
type SetOp struct {
	Span
	// Op is "UNION", "INTERSECT" or "EXCEPT".
	Op    string
	Minus bool
	// Quantifier is "", "ALL" or "DISTINCT".
	Quantifier  string
	Left, Right QueryExpr
}

// Values is VALUES (row), (row), ...; each row is a RowExpr (or a single
// expression for VALUES 1, 2).
type Values struct {
	Span
	Rows []Expr
}

// ---------------------------------------------------------------------------
// FROM items

// TableRef is a named table in FROM: name [hints] [FOR SYSTEM_TIME AS OF
// expr] [[AS] alias [(cols)]].
type TableRef struct {
	Span
	Name  *ObjectName
	Hints []*Hint
	// SystemTime is the expression of FOR SYSTEM_TIME AS OF expr.
	SystemTime Expr
	Alias      *Ident
	Columns    []*Ident
}

// DerivedTable is [LATERAL] (query) [AS] alias [(cols)] in FROM.
type DerivedTable struct {
	Span
	Lateral bool
	Query   *Query
	Alias   *Ident
	Columns []*Ident
}

// TableFunc is a table function call in FROM: TABLE(f(args)) (for example
// a window TVF: TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '10'
// MINUTES))) or LATERAL TABLE(f(args)), with optional alias.
type TableFunc struct {
	Span
	Lateral bool
	// Bare is a call written without TABLE(...): FROM f(TABLE t PARTITION
	// BY k, arg => 1), Flink 2's form for process table functions.
	Bare    bool
	Call    *FuncCall
	Alias   *Ident
	Columns []*Ident
}

// Unnest is UNNEST(expr, ...) [WITH ORDINALITY] [AS] alias [(cols)].
type Unnest struct {
	Span
	Args           []Expr
	WithOrdinality bool
	Alias          *Ident
	Columns        []*Ident
}

// JoinType is the kind of a Join.
type JoinType uint8

// Join types.
const (
	// JoinInner is [INNER] JOIN.
	JoinInner JoinType = iota
	// JoinLeft is LEFT [OUTER] JOIN.
	JoinLeft
	// JoinRight is RIGHT [OUTER] JOIN.
	JoinRight
	// JoinFull is FULL [OUTER] JOIN.
	JoinFull
	// JoinCross is CROSS JOIN.
	JoinCross
	// JoinComma is a comma in the FROM list (an implicit cross join).
	JoinComma
	// JoinCrossApply is CROSS APPLY (Calcite conformance extension).
	JoinCrossApply
	// JoinOuterApply is OUTER APPLY.
	JoinOuterApply
)

var joinTypeNames = [...]string{"INNER", "LEFT", "RIGHT", "FULL", "CROSS", "COMMA", "CROSS APPLY", "OUTER APPLY"}

// String names the join type: INNER, LEFT, RIGHT, FULL, CROSS, COMMA.
func (t JoinType) String() string {
	if int(t) < len(joinTypeNames) {
		return joinTypeNames[t]
	}
	return "JOIN?"
}

// Join is a join of two FROM items.
type Join struct {
	Span
	Type    JoinType
	Natural bool
	Left    TableExpr
	Right   TableExpr
	// On is the ON condition; Using the USING column list; both empty for
	// CROSS, comma and NATURAL joins.
	On    Expr
	Using []*Ident
}

// ---------------------------------------------------------------------------
// marker methods

func (*Identifier) exprNode()         {}
func (*Star) exprNode()               {}
func (*NumberLit) exprNode()          {}
func (*StringLit) exprNode()          {}
func (*BinaryLit) exprNode()          {}
func (*BoolLit) exprNode()            {}
func (*NullLit) exprNode()            {}
func (*UnknownLit) exprNode()         {}
func (*DateTimeLit) exprNode()        {}
func (*IntervalLit) exprNode()        {}
func (*ParamExpr) exprNode()          {}
func (*UnaryExpr) exprNode()          {}
func (*BinaryExpr) exprNode()         {}
func (*IsExpr) exprNode()             {}
func (*IsDistinctFromExpr) exprNode() {}
func (*LikeExpr) exprNode()           {}
func (*InExpr) exprNode()             {}
func (*BetweenExpr) exprNode()        {}
func (*QuantifiedExpr) exprNode()     {}
func (*ExistsExpr) exprNode()         {}
func (*SubqueryExpr) exprNode()       {}
func (*CastExpr) exprNode()           {}
func (*CaseExpr) exprNode()           {}
func (*Symbol) exprNode()             {}
func (*FuncCall) exprNode()           {}
func (*RowExpr) exprNode()            {}
func (*ArrayExpr) exprNode()          {}
func (*MapExpr) exprNode()            {}
func (*IndexExpr) exprNode()          {}
func (*FieldExpr) exprNode()          {}
func (*Descriptor) exprNode()         {}
func (*TableArg) exprNode()           {}
func (*NamedArg) exprNode()           {}

func (*Query) stmtNode()             {}
func (*Insert) stmtNode()            {}
func (*StatementSet) stmtNode()      {}
func (*Execute) stmtNode()           {}
func (*BeginStatementSet) stmtNode() {}
func (*End) stmtNode()               {}
func (*CreateTable) stmtNode()       {}
func (*CreateView) stmtNode()        {}
func (*CreateDatabase) stmtNode()    {}
func (*CreateCatalog) stmtNode()     {}
func (*CreateFunction) stmtNode()    {}
func (*Drop) stmtNode()              {}
func (*AlterTable) stmtNode()        {}
func (*AlterView) stmtNode()         {}
func (*AlterDatabase) stmtNode()     {}
func (*AlterCatalog) stmtNode()      {}
func (*AlterFunction) stmtNode()     {}
func (*Use) stmtNode()               {}
func (*UseModules) stmtNode()        {}
func (*LoadModule) stmtNode()        {}
func (*UnloadModule) stmtNode()      {}
func (*Show) stmtNode()              {}
func (*ShowCreate) stmtNode()        {}
func (*Describe) stmtNode()          {}
func (*Explain) stmtNode()           {}
func (*Set) stmtNode()               {}
func (*Reset) stmtNode()             {}
func (*StopJob) stmtNode()           {}
func (*Jar) stmtNode()               {}
func (*Analyze) stmtNode()           {}
func (*Truncate) stmtNode()          {}
func (*ClientCommand) stmtNode()     {}
func (*CompilePlan) stmtNode()       {}
func (*Delete) stmtNode()            {}
func (*Update) stmtNode()            {}
func (*Call) stmtNode()              {}
func (*ExecutePlan) stmtNode()       {}

func (*Query) queryExprNode()  {}
func (*Select) queryExprNode() {}
func (*SetOp) queryExprNode()  {}
func (*Values) queryExprNode() {}

func (*TableRef) tableExprNode()     {}
func (*DerivedTable) tableExprNode() {}
func (*TableFunc) tableExprNode()    {}
func (*Unnest) tableExprNode()       {}
func (*Join) tableExprNode()         {}
