package querygen

import (
	"fmt"
	"math/rand"
	"strings"
)

// Mode is the runtime mode a query runs in (execution.runtime-mode).
type Mode string

// The two runtime modes.
const (
	Batch     Mode = "batch"
	Streaming Mode = "streaming"
)

// Query is one generated query.
type Query struct {
	// ID is "s<seed>-q<n>": QueryAt(seed, n) generates the query again.
	ID   string
	Seed int64
	N    int
	// Kind names the grammar rule: project, join, agg, window, topn,
	// dedup, setop, orderby, joinagg.
	Kind string
	Mode Mode
	SQL  string
	// Ordered reports an ORDER BY over every output column: the rows
	// must agree in order (ties are identical rows).
	Ordered bool
}

// Generate returns queries 0..n-1 of seed.
func Generate(seed int64, n int) []Query {
	qs := make([]Query, n)
	for i := range qs {
		qs[i] = QueryAt(seed, i)
	}
	return qs
}

// QueryAt returns query n of seed; it depends on nothing else.
func QueryAt(seed int64, n int) Query {
	g := &gen{r: rand.New(rand.NewSource(seed*1_000_003 + int64(n)*7919 + 1))}
	q := Query{ID: fmt.Sprintf("s%d-q%d", seed, n), Seed: seed, N: n, Mode: Batch}
	if g.r.Intn(2) == 0 {
		q.Mode = Streaming
	}
	kinds := []string{"project", "project", "join", "agg", "agg", "window", "topn", "dedup", "setop", "orderby", "joinagg",
		"subquery", "over", "groupingsets", "distinct", "windowtopn", "intervaljoin", "aggunion",
		"windowjoin", "windowdedup", "nestedagg", "rankfn", "limit", "aggjoin"}
	q.Kind = kinds[g.r.Intn(len(kinds))]
	if q.Kind == "orderby" || q.Kind == "rankfn" {
		// ORDER BY a non-time column is batch only in Flink
		q.Mode = Batch
	}
	switch q.Kind {
	case "project":
		q.SQL = g.project()
	case "orderby":
		q.SQL = g.orderBy()
		q.Ordered = true
	case "join":
		q.SQL = g.join()
	case "agg":
		q.SQL = g.agg()
	case "joinagg":
		q.SQL = g.joinAgg()
	case "window":
		q.SQL = g.window()
	case "topn":
		q.SQL = g.topN(q.Mode)
	case "dedup":
		q.SQL = g.dedup()
	case "setop":
		q.SQL = g.setOp(q.Mode)
	case "subquery":
		q.SQL = g.subquery()
	case "over":
		q.SQL = g.over(q.Mode)
	case "groupingsets":
		q.SQL = g.groupingSets()
	case "distinct":
		q.SQL = g.distinct()
	case "windowtopn":
		q.SQL = g.windowTopN()
	case "intervaljoin":
		q.SQL = g.intervalJoin()
	case "aggunion":
		q.SQL = g.aggUnion()
	case "windowjoin":
		q.SQL = g.windowJoin()
	case "windowdedup":
		q.SQL = g.windowDedup()
	case "nestedagg":
		q.SQL = g.nestedAgg()
	case "rankfn":
		q.SQL = g.rankFn()
	case "limit":
		q.SQL, q.Ordered = g.limit(q.Mode)
	case "aggjoin":
		q.SQL = g.aggJoin()
	}
	return q
}

// col is a column in scope: the text that names it and its type.
type col struct {
	ref string
	t   Type
}

type gen struct {
	r     *rand.Rand
	scope []col
}

func (g *gen) pick(options ...string) string { return options[g.r.Intn(len(options))] }

func (g *gen) chance(n int) bool { return g.r.Intn(n) == 0 }

// tableScope returns the columns of a test table, qualified by alias
// (none when alias is "").
func tableScope(alias string) []col {
	var out []col
	for _, c := range Columns {
		ref := c.Name
		if alias != "" {
			ref = alias + "." + c.Name
		}
		out = append(out, col{ref, c.Type})
	}
	return out
}

func (g *gen) table() string { return TableNames[g.r.Intn(len(TableNames))] }

func (g *gen) colOf(ts ...Type) (col, bool) {
	var cands []col
	for _, c := range g.scope {
		for _, t := range ts {
			if c.t == t {
				cands = append(cands, c)
			}
		}
	}
	if len(cands) == 0 {
		return col{}, false
	}
	return cands[g.r.Intn(len(cands))], true
}

// literal returns a literal of type t.
func (g *gen) literal(t Type) string {
	switch t {
	case Int:
		return fmt.Sprint(g.r.Intn(21) - 5)
	case BigInt:
		return fmt.Sprintf("CAST(%d AS BIGINT)", g.r.Intn(8))
	case Double:
		return fmt.Sprintf("CAST(%s AS DOUBLE)", g.pick("0.5", "2.25", "-1.5", "10", "0", "100.125"))
	case Decimal:
		return g.pick("1.50", "0.25", "100.00", "-3.10", "12.34")
	case Varchar:
		return g.pick("'apple'", "'x'", "''", "'Banana'", "'zz'", "'a'")
	case Boolean:
		return g.pick("TRUE", "FALSE")
	case Date:
		return fmt.Sprintf("DATE '2024-01-%02d'", 1+g.r.Intn(10))
	case Timestamp:
		return fmt.Sprintf("TIMESTAMP '2024-01-01 00:%02d:%02d'", g.r.Intn(5), g.r.Intn(60))
	}
	panic("literal of unknown type")
}

// nullOf is a typed NULL.
func nullOf(t Type) string { return "CAST(NULL AS " + t.SQL() + ")" }

// expr returns an expression of type t of at most depth nested operators
// over the columns in scope.
func (g *gen) expr(t Type, depth int) string {
	if depth <= 0 || g.chance(3) {
		if c, ok := g.colOf(t); ok && !g.chance(4) {
			return c.ref
		}
		if g.chance(12) {
			return nullOf(t)
		}
		if t == Timestamp {
			if c, ok := g.colOf(Timestamp); ok {
				return c.ref
			}
		}
		return g.literal(t)
	}
	d := depth - 1
	// each case lists its forms; a form returning "" falls through to the
	// generic forms below
	var forms []func() string
	switch t {
	case Int:
		forms = []func() string{
			func() string {
				return fmt.Sprintf("(%s %s %s)", g.expr(Int, d), g.pick("+", "-", "*"), g.expr(Int, d))
			},
			func() string { return fmt.Sprintf("CHAR_LENGTH(%s)", g.expr(Varchar, d)) },
			func() string { return fmt.Sprintf("MOD(%s, %d)", g.expr(Int, d), g.pick2(2, 3, -4)) },
			func() string { return fmt.Sprintf("ABS(%s)", g.expr(Int, d)) },
			func() string {
				return fmt.Sprintf("CAST(%s AS INT)", g.expr(g.pickType(Double, Decimal, BigInt), d))
			},
			func() string { return fmt.Sprintf("(%s / %d)", g.expr(Int, d), g.pick2(2, 3, -4)) },
			func() string { return fmt.Sprintf("POSITION(%s IN %s)", g.literal(Varchar), g.expr(Varchar, d)) },
			func() string { return fmt.Sprintf("CAST(EXTRACT(DAY FROM %s) AS INT)", g.expr(Date, d)) },
			func() string { return fmt.Sprintf("ASCII(%s)", g.expr(Varchar, d)) },
			func() string { return fmt.Sprintf("SIGN(%s)", g.expr(Int, d)) },
		}
	case BigInt:
		forms = []func() string{
			func() string {
				return fmt.Sprintf("(%s %s %s)", g.expr(BigInt, d), g.pick("+", "-", "*"), g.expr(g.pickType(Int, BigInt), d))
			},
			func() string { return fmt.Sprintf("CAST(%s AS BIGINT)", g.expr(Int, d)) },
			func() string {
				return fmt.Sprintf("EXTRACT(%s FROM %s)", g.pick("SECOND", "MINUTE", "DAY", "HOUR", "DOW", "DOY", "QUARTER"), g.expr(Timestamp, d))
			},
			func() string { return fmt.Sprintf("(%s / NULLIF(%s, 0))", g.expr(BigInt, d), g.expr(BigInt, d)) },
			func() string { return fmt.Sprintf("COALESCE(%s, %s)", g.expr(Int, d), g.expr(BigInt, d)) },
			func() string {
				return fmt.Sprintf("CAST(TIMESTAMPDIFF(%s, %s, %s) AS BIGINT)", g.pick("SECOND", "MINUTE", "DAY"), g.expr(Timestamp, d), g.literal(Timestamp))
			},
			func() string { return fmt.Sprintf("MOD(%s, %s)", g.expr(BigInt, d), g.pick("CAST(3 AS BIGINT)", "-2")) },
		}
	case Double:
		forms = []func() string{
			func() string {
				return fmt.Sprintf("(%s %s %s)", g.expr(Double, d), g.pick("+", "-", "*"), g.expr(g.pickType(Double, Int, Decimal), d))
			},
			func() string {
				return fmt.Sprintf("(%s / %s)", g.expr(Double, d), g.pick("4", "CAST(2.5 AS DOUBLE)", "-8", "NULLIF("+g.expr(Int, 0)+", 0)"))
			},
			func() string { return fmt.Sprintf("ABS(%s)", g.expr(Double, d)) },
			func() string {
				return fmt.Sprintf("CAST(%s AS DOUBLE)", g.expr(g.pickType(Int, BigInt, Decimal), d))
			},
			func() string { return fmt.Sprintf("%s(%s)", g.pick("FLOOR", "CEIL"), g.expr(Double, d)) },
			func() string { return fmt.Sprintf("ROUND(%s, %d)", g.expr(Double, d), g.r.Intn(3)) },
			func() string { return fmt.Sprintf("SQRT(ABS(%s))", g.expr(Double, d)) },
			func() string { return fmt.Sprintf("POWER(%s, 2)", g.expr(Double, d)) },
			func() string { return fmt.Sprintf("LN(ABS(%s) + 1)", g.expr(Double, d)) },
		}
	case Decimal:
		forms = []func() string{
			func() string {
				return fmt.Sprintf("(%s %s %s)", g.expr(Decimal, d), g.pick("+", "-"), g.expr(g.pickType(Decimal, Int), d))
			},
			func() string {
				return fmt.Sprintf("(%s * %s)", g.expr(Decimal, d), g.pick("2", "0.5", "-1", g.expr(Decimal, 0)))
			},
			func() string { return fmt.Sprintf("ABS(%s)", g.expr(Decimal, d)) },
			func() string {
				return fmt.Sprintf("CAST(%s AS DECIMAL(10, 2))", g.expr(g.pickType(Int, BigInt, Double), d))
			},
			func() string { return fmt.Sprintf("ROUND(%s, %d)", g.expr(Decimal, d), g.r.Intn(2)) },
			func() string {
				return fmt.Sprintf("(%s / %s)", g.expr(Decimal, d), g.pick("3", "7.0", "NULLIF("+g.expr(BigInt, 0)+", 0)", "-0.25"))
			},
			func() string { return fmt.Sprintf("%s(%s)", g.pick("FLOOR", "CEIL"), g.expr(Decimal, d)) },
			func() string { return fmt.Sprintf("TRUNCATE(%s, 1)", g.expr(Decimal, d)) },
		}
	case Varchar:
		forms = []func() string{
			func() string { return fmt.Sprintf("UPPER(%s)", g.expr(Varchar, d)) },
			func() string { return fmt.Sprintf("LOWER(%s)", g.expr(Varchar, d)) },
			func() string { return fmt.Sprintf("%s(%s)", g.pick("TRIM", "LTRIM", "RTRIM"), g.expr(Varchar, d)) },
			func() string { return fmt.Sprintf("(%s || %s)", g.expr(Varchar, d), g.expr(Varchar, d)) },
			func() string {
				return fmt.Sprintf("SUBSTRING(%s FROM %d FOR %d)", g.expr(Varchar, d), 1+g.r.Intn(3), 1+g.r.Intn(4))
			},
			func() string {
				return fmt.Sprintf("CAST(%s AS VARCHAR)", g.expr(g.pickType(Int, BigInt, Decimal, Boolean, Date, Double, Timestamp), d))
			},
			func() string { return fmt.Sprintf("REPLACE(%s, 'a', 'A')", g.expr(Varchar, d)) },
			func() string { return fmt.Sprintf("CONCAT(%s, '-', %s)", g.expr(Varchar, d), g.expr(Varchar, d)) },
			func() string { return fmt.Sprintf("INITCAP(%s)", g.expr(Varchar, d)) },
			func() string {
				return fmt.Sprintf("%s(%s, %d, '*')", g.pick("LPAD", "RPAD"), g.expr(Varchar, d), g.r.Intn(7))
			},
			func() string {
				return fmt.Sprintf("%s(%s, %d)", g.pick("LEFT", "RIGHT"), g.expr(Varchar, d), g.r.Intn(4))
			},
			func() string { return fmt.Sprintf("REVERSE(%s)", g.expr(Varchar, d)) },
			func() string {
				return fmt.Sprintf("REGEXP_REPLACE(%s, '%s', '_')", g.expr(Varchar, d), g.pick("[aeiou]", "^.", "a+", " "))
			},
			func() string { return fmt.Sprintf("SPLIT_INDEX(%s, ' ', %d)", g.expr(Varchar, d), g.r.Intn(2)) },
			func() string {
				return fmt.Sprintf("DATE_FORMAT(%s, '%s')", g.expr(Timestamp, d), g.pick("yyyy-MM-dd HH:mm", "HH:mm:ss", "yyyyMMdd"))
			},
		}
	case Boolean:
		return "(" + g.pred(d) + ")"
	case Date:
		forms = []func() string{
			func() string { return fmt.Sprintf("CAST(%s AS DATE)", g.expr(Timestamp, d)) },
			func() string { return fmt.Sprintf("(%s + INTERVAL '%d' DAY)", g.expr(Date, d), g.r.Intn(40)) },
		}
	case Timestamp:
		forms = []func() string{
			func() string { return fmt.Sprintf("(%s + INTERVAL '%d' SECOND)", g.expr(Timestamp, d), g.r.Intn(100)) },
			func() string {
				return fmt.Sprintf("TIMESTAMPADD(MINUTE, %d, %s)", g.r.Intn(10)-5, g.expr(Timestamp, d))
			},
			func() string { return fmt.Sprintf("%s(%s TO MINUTE)", g.pick("FLOOR", "CEIL"), g.expr(Timestamp, d)) },
			func() string { return fmt.Sprintf("CAST(%s AS TIMESTAMP(3))", g.expr(Date, d)) },
		}
	}
	if len(forms) > 0 && !g.chance(4) {
		return forms[g.r.Intn(len(forms))]()
	}
	// mixed types: the result type is the common type of the branches
	if g.chance(8) {
		switch t {
		case Double:
			return fmt.Sprintf("CASE WHEN %s THEN %s ELSE %s END", g.pred(d), g.expr(Int, d), g.expr(Double, d))
		case Decimal:
			return fmt.Sprintf("COALESCE(%s, %s)", g.expr(Decimal, d), g.expr(Int, d))
		case BigInt:
			return fmt.Sprintf("CASE WHEN %s THEN %s ELSE %s END", g.pred(d), g.expr(Int, d), g.expr(BigInt, d))
		case Int:
			return fmt.Sprintf("COALESCE(TRY_CAST(%s AS INT), %s)", g.expr(Varchar, d), g.literal(Int))
		case Varchar:
			return fmt.Sprintf("CONCAT_WS('-', %s, %s)", g.expr(Varchar, d), g.expr(Varchar, d))
		}
	}
	// the generic forms, of any type
	switch g.r.Intn(3) {
	case 0:
		return fmt.Sprintf("COALESCE(%s, %s)", g.expr(t, d), g.literal(t))
	case 1:
		return fmt.Sprintf("CASE WHEN %s THEN %s ELSE %s END", g.pred(d), g.expr(t, d), g.expr(t, d))
	}
	return fmt.Sprintf("NULLIF(%s, %s)", g.expr(t, d), g.literal(t))
}

func (g *gen) pick2(opts ...int) int { return opts[g.r.Intn(len(opts))] }

func (g *gen) pickType(ts ...Type) Type { return ts[g.r.Intn(len(ts))] }

// comparable types: both sides of a comparison have one of them.
var cmpTypes = []Type{Int, BigInt, Double, Decimal, Varchar, Date, Timestamp, Boolean}

// pred returns a BOOLEAN expression.
func (g *gen) pred(depth int) string {
	if depth <= 0 {
		t := cmpTypes[g.r.Intn(len(cmpTypes))]
		if g.chance(5) {
			return fmt.Sprintf("%s IS %sNULL", g.expr(t, 0), g.pick("", "NOT "))
		}
		if t == Boolean {
			return g.expr(Boolean, 0)
		}
		return fmt.Sprintf("%s %s %s", g.expr(t, 0), g.pick("=", "<>", "<", "<=", ">", ">="), g.expr(t, 0))
	}
	d := depth - 1
	switch g.r.Intn(10) {
	case 0:
		return fmt.Sprintf("(%s AND %s)", g.pred(d), g.pred(d))
	case 1:
		return fmt.Sprintf("(%s OR %s)", g.pred(d), g.pred(d))
	case 2:
		return fmt.Sprintf("NOT (%s)", g.pred(d))
	case 3:
		return fmt.Sprintf("%s LIKE '%s'", g.expr(Varchar, d), g.pick("a%", "%e%", "_", "%", "B%"))
	case 4:
		t := g.pickType(Int, BigInt, Double, Decimal)
		return fmt.Sprintf("%s %sBETWEEN %s AND %s", g.expr(t, d), g.pick("", "NOT "), g.literal(t), g.literal(t))
	case 5:
		t := g.pickType(Int, BigInt, Varchar)
		return fmt.Sprintf("%s %sIN (%s, %s, %s)", g.expr(t, d), g.pick("", "NOT "), g.literal(t), g.literal(t), g.literal(t))
	case 6:
		return fmt.Sprintf("(%s) IS %s", g.pred(d), g.pick("TRUE", "FALSE", "NOT TRUE", "NOT FALSE", "UNKNOWN"))
	case 8:
		t := cmpTypes[g.r.Intn(len(cmpTypes))]
		return fmt.Sprintf("%s IS %sDISTINCT FROM %s", g.expr(t, d), g.pick("", "NOT "), g.expr(t, d))
	case 7:
		// comparisons with NULL: three-valued logic
		t := cmpTypes[g.r.Intn(len(cmpTypes)-1)]
		return fmt.Sprintf("%s %s %s", g.expr(t, d), g.pick("=", "<>", "<"), nullOf(t))
	}
	if g.chance(5) {
		// numeric comparisons across types (INT vs DOUBLE, DECIMAL vs
		// BIGINT ...): both sides go to the common type
		t1, t2 := g.pickType(Int, BigInt, Double, Decimal), g.pickType(Int, BigInt, Double, Decimal)
		return fmt.Sprintf("%s %s %s", g.expr(t1, d), g.pick("=", "<>", "<", ">="), g.expr(t2, d))
	}
	t := cmpTypes[g.r.Intn(len(cmpTypes))]
	return fmt.Sprintf("%s %s %s", g.expr(t, d), g.pick("=", "<>", "<", "<=", ">", ">="), g.expr(t, d))
}

// selectList returns n expressions AS c0..c(n-1), and their types.
func (g *gen) selectList(n int) (string, []Type) {
	var parts []string
	var types []Type
	for i := 0; i < n; i++ {
		t := cmpTypes[g.r.Intn(len(cmpTypes))]
		parts = append(parts, fmt.Sprintf("%s AS c%d", g.expr(t, 2), i))
		types = append(types, t)
	}
	return strings.Join(parts, ", "), types
}

func (g *gen) where() string {
	if g.chance(3) {
		return ""
	}
	return " WHERE " + g.pred(2)
}

func (g *gen) project() string {
	t := g.table()
	g.scope = tableScope("")
	sel, _ := g.selectList(1 + g.r.Intn(4))
	return fmt.Sprintf("SELECT %s FROM %s%s", sel, t, g.where())
}

func (g *gen) orderBy() string {
	t := g.table()
	g.scope = tableScope("")
	n := 1 + g.r.Intn(3)
	sel, _ := g.selectList(n)
	var keys []string
	for i := 0; i < n; i++ {
		keys = append(keys, fmt.Sprintf("c%d %s", i, g.pick("", "ASC", "DESC", "ASC NULLS LAST", "DESC NULLS FIRST")))
	}
	// id and ts make the order total (only identical rows tie)
	sel += ", id, ts"
	keys = append(keys, "id", "ts")
	limit := ""
	if g.chance(2) {
		limit = fmt.Sprintf(" LIMIT %d", 1+g.r.Intn(10))
	}
	return fmt.Sprintf("SELECT %s FROM %s%s ORDER BY %s%s", sel, t, g.where(), strings.Join(keys, ", "), limit)
}

func (g *gen) joinClause() string {
	typ := g.pick("JOIN", "LEFT JOIN", "FULL JOIN", "JOIN", "LEFT JOIN")
	on := g.pick("a.k = b.k", "a.id = b.id", "a.g = b.g AND a.k = b.k", "a.k = b.k AND a.dt = b.dt", "a.s = b.s",
		// residual (non-equi) conditions in ON: an outer join keeps the
		// unmatched rows whatever they say
		"a.k = b.k AND a.d > b.d", "a.g = b.g AND a.id < 20", "a.k = b.k AND b.m IS NOT NULL", "a.k = b.k AND (a.b OR b.b)")
	return fmt.Sprintf("t1 AS a %s t2 AS b ON %s", typ, on)
}

func (g *gen) join() string {
	from := g.joinClause()
	g.scope = append(tableScope("a"), tableScope("b")...)
	// the time attribute of a regular join's input is no rowtime after it:
	// compare it as a plain timestamp
	sel, _ := g.selectList(1 + g.r.Intn(4))
	return fmt.Sprintf("SELECT %s FROM %s%s", sel, from, g.where())
}

// aggCall returns an aggregate call over the scope.
func (g *gen) aggCall() string {
	call := ""
	switch g.r.Intn(11) {
	case 0:
		call = "COUNT(*)"
	case 1:
		call = fmt.Sprintf("COUNT(%s)", g.expr(cmpTypes[g.r.Intn(len(cmpTypes))], 1))
	case 2:
		call = fmt.Sprintf("SUM(%s)", g.expr(g.pickType(Int, BigInt, Double, Decimal), 1))
	case 3:
		call = fmt.Sprintf("MIN(%s)", g.expr(g.pickType(Int, BigInt, Double, Decimal, Varchar, Date, Boolean, Timestamp), 1))
	case 4:
		call = fmt.Sprintf("MAX(%s)", g.expr(g.pickType(Int, BigInt, Double, Decimal, Varchar, Date, Boolean, Timestamp), 1))
	case 5:
		call = fmt.Sprintf("AVG(%s)", g.expr(g.pickType(Int, BigInt, Double, Decimal), 1))
	case 6:
		call = fmt.Sprintf("COUNT(DISTINCT %s)", g.expr(g.pickType(Int, BigInt, Varchar, Date, Decimal), 1))
	case 7:
		// over a (nullable) column only: Flink 2.3.0 types VAR_SAMP and
		// STDDEV_SAMP of a NOT NULL argument (a literal) as NOT NULL, so
		// a one-row group's NULL becomes -1 in batch mode or fails the
		// NOT NULL enforcer (CALCITE-7656, fixed after Flink's Calcite)
		arg, ok := g.colOf(g.pickType(Int, Double, Decimal, BigInt))
		if !ok {
			return "COUNT(*)"
		}
		call = fmt.Sprintf("%s(%s)", g.pick("STDDEV_POP", "STDDEV_SAMP", "VAR_POP", "VAR_SAMP"), arg.ref)
	case 8:
		call = fmt.Sprintf("%s(DISTINCT %s)", g.pick("SUM", "AVG", "MAX"), g.expr(g.pickType(Int, BigInt, Decimal), 0))
	case 9:
		// not SUM0: Riffle accepts it (Calcite's $SUM0, the Table API's
		// sum0) but Flink 2.3.0's SQL has no such function ("No match
		// found for function signature SUM0(<NUMERIC>)")
		call = fmt.Sprintf("SUM(%s)", g.expr(g.pickType(Int, Double, Decimal), 0))
	default:
		call = fmt.Sprintf("SUM(DISTINCT %s)", g.expr(g.pickType(Int, BigInt), 0))
	}
	if g.chance(6) {
		call += " FILTER (WHERE " + g.pred(1) + ")"
	}
	return call
}

// groupKeys picks 0..2 grouping keys among simple columns and expressions.
func (g *gen) groupKeys() []string {
	cands := []string{"k", "g", "b", "dt", "MOD(id, 3)", "UPPER(s)", "m > 0"}
	n := g.r.Intn(3)
	var keys []string
	seen := map[string]bool{}
	for len(keys) < n {
		k := cands[g.r.Intn(len(cands))]
		if !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	return keys
}

func (g *gen) aggSelect(keys []string) string {
	var parts []string
	for i, k := range keys {
		parts = append(parts, fmt.Sprintf("%s AS k%d", k, i))
	}
	for i := 0; i < 1+g.r.Intn(3); i++ {
		parts = append(parts, fmt.Sprintf("%s AS a%d", g.aggCall(), i))
	}
	return strings.Join(parts, ", ")
}

func (g *gen) having() string {
	if !g.chance(3) {
		return ""
	}
	return fmt.Sprintf(" HAVING %s", g.pick("COUNT(*) > 1", "SUM(k) >= 6", "MIN(id) < 20", "MAX(d) > 10", "COUNT(DISTINCT g) = 2", "AVG(m) > 0"))
}

func (g *gen) agg() string {
	t := g.table()
	g.scope = tableScope("")
	keys := g.groupKeys()
	gb := ""
	if len(keys) > 0 {
		gb = " GROUP BY " + strings.Join(keys, ", ")
	}
	return fmt.Sprintf("SELECT %s FROM %s%s%s%s", g.aggSelect(keys), t, g.where(), gb, g.having())
}

func (g *gen) joinAgg() string {
	from := g.joinClause()
	g.scope = append(tableScope("a"), tableScope("b")...)
	keys := []string{g.pick("a.k", "b.g", "a.g", "b.b")}
	parts := []string{keys[0] + " AS k0"}
	for i := 0; i < 1+g.r.Intn(3); i++ {
		parts = append(parts, fmt.Sprintf("%s AS a%d", g.aggCall(), i))
	}
	return fmt.Sprintf("SELECT %s FROM %s%s GROUP BY %s", strings.Join(parts, ", "), from, g.where(), keys[0])
}

func (g *gen) window() string {
	t := g.table()
	var tvf string
	switch g.r.Intn(3) {
	case 0:
		tvf = fmt.Sprintf("TUMBLE(TABLE %s, DESCRIPTOR(ts), %s)", t, g.pick("INTERVAL '1' MINUTE", "INTERVAL '30' SECOND", "INTERVAL '2' MINUTE"))
	case 1:
		tvf = fmt.Sprintf("HOP(TABLE %s, DESCRIPTOR(ts), %s, %s)", t, g.pick("INTERVAL '30' SECOND", "INTERVAL '1' MINUTE"), g.pick("INTERVAL '2' MINUTE", "INTERVAL '3' MINUTE"))
	default:
		tvf = fmt.Sprintf("CUMULATE(TABLE %s, DESCRIPTOR(ts), %s, %s)", t, g.pick("INTERVAL '30' SECOND", "INTERVAL '1' MINUTE"), g.pick("INTERVAL '2' MINUTE", "INTERVAL '3' MINUTE"))
	}
	g.scope = tableScope("")
	keys := []string{"window_start", "window_end"}
	if g.chance(2) {
		keys = append(keys, g.pick("g", "k", "b"))
	}
	var parts []string
	parts = append(parts, keys...)
	for i := 0; i < 1+g.r.Intn(3); i++ {
		parts = append(parts, fmt.Sprintf("%s AS a%d", g.aggCall(), i))
	}
	return fmt.Sprintf("SELECT %s FROM TABLE(%s)%s GROUP BY %s", strings.Join(parts, ", "), tvf, g.where(), strings.Join(keys, ", "))
}

func (g *gen) topN(m Mode) string {
	t := g.table()
	g.scope = tableScope("")
	part := g.pick("g", "k", "b", "")
	over := ""
	if part != "" {
		over = "PARTITION BY " + part + " "
	}
	key := g.pick("d", "m", "s", "dt", "k", "id")
	// id and ts break ties: only identical rows tie, so rn is determined
	over += fmt.Sprintf("ORDER BY %s %s, id, ts", key, g.pick("ASC", "DESC"))
	cols := "id, " + key + ", ts"
	if part != "" {
		cols = part + ", " + cols
	}
	rnCol := ""
	if g.chance(2) {
		rnCol = ", rn"
	}
	n := 1 + g.r.Intn(4)
	if m == Streaming && n == 1 {
		// Flink 2.3.0 plans a streaming Top-1 ordered by several columns
		// as insert-only (EXPLAIN CHANGELOG_MODE shows changelogMode=[I])
		// while the operator emits +U rows without -U, so its changelog
		// keeps every former top row: FLINK-40368 (open; FLINK-39966
		// fixed the single-column case). Riffle's -U/+U is right; the
		// generator keeps streaming Top-N at N >= 2.
		n = 2
	}
	return fmt.Sprintf("SELECT %s%s FROM (SELECT *, ROW_NUMBER() OVER (%s) AS rn FROM %s%s) WHERE rn <= %d",
		cols, rnCol, over, t, g.where(), n)
}

func (g *gen) dedup() string {
	t := g.table()
	g.scope = tableScope("")
	part := g.pick("g", "k", "b", "g, k", "id")
	return fmt.Sprintf("SELECT %s, id, d, s, ts FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY %s ORDER BY ts %s) AS rn FROM %s%s) WHERE rn = 1",
		part, part, g.pick("ASC", "DESC"), t, g.where())
}

func (g *gen) setOp(m Mode) string {
	g.scope = tableScope("")
	n := 1 + g.r.Intn(2)
	var cols []string
	for i := 0; i < n; i++ {
		t := g.pickType(Int, BigInt, Varchar, Decimal, Date, Boolean)
		cols = append(cols, fmt.Sprintf("%s AS c%d", g.expr(t, 1), i))
	}
	sel := strings.Join(cols, ", ")
	op := g.pick("UNION ALL", "UNION", "INTERSECT", "EXCEPT", "INTERSECT ALL", "EXCEPT ALL")
	return fmt.Sprintf("SELECT %s FROM t1%s %s SELECT %s FROM t2%s", sel, g.where(), op, sel, g.where())
}

// subquery: IN / NOT IN / EXISTS / NOT EXISTS / a scalar subquery in WHERE
// (NOT IN over a set with NULLs is never TRUE).
func (g *gen) subquery() string {
	g.scope = tableScope("a")
	sel, _ := g.selectList(1 + g.r.Intn(3))
	inner := func() string {
		g.scope = tableScope("b")
		w := ""
		if !g.chance(3) {
			w = " WHERE " + g.pred(1)
		}
		g.scope = tableScope("a")
		return w
	}
	var cond string
	switch g.r.Intn(4) {
	case 0:
		col := g.pick("k", "g", "id", "dt")
		cond = fmt.Sprintf("a.%s %sIN (SELECT b.%s FROM t2 AS b%s)", col, g.pick("", "NOT "), col, inner())
	case 1:
		w := inner()
		link := g.pick("b.k = a.k", "b.g = a.g", "b.id = a.id")
		if w == "" {
			w = " WHERE " + link
		} else {
			w += " AND " + link
		}
		cond = fmt.Sprintf("%sEXISTS (SELECT 1 FROM t2 AS b%s)", g.pick("", "NOT "), w)
	case 2:
		cond = fmt.Sprintf("a.k %s (SELECT %s(b.k) FROM t2 AS b%s)", g.pick("=", "<", ">="), g.pick("MAX", "MIN", "COUNT"), inner())
	default:
		cond = fmt.Sprintf("(a.k, a.g) IN (SELECT b.k, b.g FROM t2 AS b%s)", inner())
	}
	return fmt.Sprintf("SELECT %s FROM t1 AS a WHERE %s", sel, cond)
}

// over: an OVER window ordered by the event time (ts is unique but for
// identical duplicate rows, so ROWS frames are deterministic).
func (g *gen) over(m Mode) string {
	t := g.table()
	g.scope = tableScope("")
	part := g.pick("PARTITION BY g ", "PARTITION BY k ", "PARTITION BY b ", "")
	frame := g.pick("ROWS BETWEEN 2 PRECEDING AND CURRENT ROW", "ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW",
		"RANGE BETWEEN INTERVAL '1' MINUTE PRECEDING AND CURRENT ROW", "RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW")
	if m == Batch && strings.HasPrefix(frame, "RANGE BETWEEN INTERVAL") {
		// Flink 2.3.0's batch OVER with a RANGE interval bound over a
		// TIMESTAMP column fails to compile ("Cannot cast TimestampData
		// to java.lang.Long"): FLINK-25802, fixed after 2.3.0
		frame = "ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING"
	}
	var aggs []string
	for i := 0; i < 1+g.r.Intn(3); i++ {
		var call string
		switch g.r.Intn(5) {
		case 0:
			call = "COUNT(*)"
		case 1:
			call = fmt.Sprintf("SUM(%s)", g.expr(g.pickType(Int, BigInt, Decimal, Double), 0))
		case 2:
			call = fmt.Sprintf("MIN(%s)", g.expr(g.pickType(Int, Varchar, Decimal, Date), 0))
		case 3:
			call = fmt.Sprintf("MAX(%s)", g.expr(g.pickType(Int, Varchar, Decimal, Double), 0))
		default:
			call = fmt.Sprintf("AVG(%s)", g.expr(g.pickType(Int, Decimal, Double), 0))
		}
		aggs = append(aggs, fmt.Sprintf("%s OVER w AS o%d", call, i))
	}
	return fmt.Sprintf("SELECT id, g, ts, %s FROM %s%s WINDOW w AS (%sORDER BY ts %s)",
		strings.Join(aggs, ", "), t, g.where(), part, frame)
}

func (g *gen) groupingSets() string {
	t := g.table()
	g.scope = tableScope("")
	var gb, cols string
	switch g.r.Intn(3) {
	case 0:
		gb, cols = "GROUPING SETS ((g, k), (g), ())", "g, k, GROUPING(k) AS gk"
	case 1:
		gb, cols = "ROLLUP (g, b)", "g, b"
	default:
		gb, cols = "CUBE (k, b)", "k, b, GROUPING(k) AS gk, GROUPING(b) AS gb"
	}
	var parts []string
	for i := 0; i < 1+g.r.Intn(2); i++ {
		parts = append(parts, fmt.Sprintf("%s AS a%d", g.aggCall(), i))
	}
	return fmt.Sprintf("SELECT %s, %s FROM %s%s GROUP BY %s", cols, strings.Join(parts, ", "), t, g.where(), gb)
}

func (g *gen) distinct() string {
	t := g.table()
	g.scope = tableScope("")
	n := 1 + g.r.Intn(2)
	var cols []string
	for i := 0; i < n; i++ {
		t := g.pickType(Int, BigInt, Varchar, Boolean, Date, Decimal)
		cols = append(cols, fmt.Sprintf("%s AS c%d", g.expr(t, 1), i))
	}
	return fmt.Sprintf("SELECT DISTINCT %s FROM %s%s", strings.Join(cols, ", "), t, g.where())
}

// windowTopN: Top-N of the groups of each window (the group key g breaks
// ties, so the rank is determined).
func (g *gen) windowTopN() string {
	t := g.table()
	g.scope = tableScope("")
	tvf := fmt.Sprintf("TUMBLE(TABLE %s, DESCRIPTOR(ts), %s)", t, g.pick("INTERVAL '1' MINUTE", "INTERVAL '2' MINUTE"))
	if g.chance(2) {
		tvf = fmt.Sprintf("HOP(TABLE %s, DESCRIPTOR(ts), INTERVAL '30' SECOND, INTERVAL '1' MINUTE)", t)
	}
	agg := g.pick("COUNT(*)", "SUM(k)", "MAX(d)", "MIN(m)")
	return fmt.Sprintf("SELECT window_start, window_end, g, v, rn FROM ("+
		"SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY v %s, g %s) AS rn FROM ("+
		"SELECT window_start, window_end, g, %s AS v FROM TABLE(%s) GROUP BY window_start, window_end, g)) WHERE rn <= %d",
		g.pick("DESC", "ASC"), g.pick("ASC", "DESC"), agg, tvf, 1+g.r.Intn(3))
}

// intervalJoin: an equi-join bounded in event time.
func (g *gen) intervalJoin() string {
	g.scope = append(tableScope("a"), tableScope("b")...)
	sel, _ := g.selectList(1 + g.r.Intn(3))
	lo, hi := g.pick("30", "10", "0"), g.pick("30", "60", "5")
	key := g.pick("k", "g")
	return fmt.Sprintf("SELECT %s FROM t1 AS a, t2 AS b WHERE a.%s = b.%s AND a.ts BETWEEN b.ts - INTERVAL '%s' SECOND AND b.ts + INTERVAL '%s' SECOND",
		sel, key, key, lo, hi)
}

// aggUnion: an aggregate over the union of both tables.
func (g *gen) aggUnion() string {
	g.scope = tableScope("")
	w1, w2 := g.where(), g.where()
	g.scope = []col{{"x", Varchar}, {"y", BigInt}, {"z", Decimal}}
	var parts []string
	for i := 0; i < 1+g.r.Intn(2); i++ {
		parts = append(parts, fmt.Sprintf("%s AS a%d", g.pick("COUNT(*)", "SUM(y)", "MAX(z)", "COUNT(DISTINCT y)", "AVG(z)", "MIN(x)"), i))
	}
	return fmt.Sprintf("SELECT x, %s FROM (SELECT g AS x, k AS y, m AS z FROM t1%s UNION ALL SELECT s, k, m FROM t2%s) GROUP BY x",
		strings.Join(parts, ", "), w1, w2)
}

// windowJoin: two tumbling-window aggregations joined on their window and
// key (a window join in streaming mode).
func (g *gen) windowJoin() string {
	size := g.pick("INTERVAL '1' MINUTE", "INTERVAL '2' MINUTE")
	key := g.pick("g", "k")
	side := func(t string) string {
		return fmt.Sprintf("SELECT window_start, window_end, %s, %s AS v FROM TABLE(TUMBLE(TABLE %s, DESCRIPTOR(ts), %s)) GROUP BY window_start, window_end, %s",
			key, g.pick("COUNT(*)", "SUM(id)", "MAX(d)", "MIN(s)"), t, size, key)
	}
	typ := g.pick("JOIN", "LEFT JOIN", "FULL JOIN")
	return fmt.Sprintf("SELECT L.window_start, L.window_end, L.%s, L.v, R.v AS rv FROM (%s) L %s (%s) R "+
		"ON L.window_start = R.window_start AND L.window_end = R.window_end AND L.%s = R.%s",
		key, side("t1"), typ, side("t2"), key, key)
}

// windowDedup: the first or last row of each window and key by event time.
func (g *gen) windowDedup() string {
	t := g.table()
	g.scope = tableScope("")
	return fmt.Sprintf("SELECT window_start, window_end, %s, id, ts FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end, %s ORDER BY ts %s) AS rn "+
		"FROM TABLE(TUMBLE(TABLE %s, DESCRIPTOR(ts), %s))%s) WHERE rn = 1",
		"g", "g", g.pick("ASC", "DESC"), t, g.pick("INTERVAL '1' MINUTE", "INTERVAL '30' SECOND"), g.where())
}

// nestedAgg: an aggregate over an aggregate (the inner one updates in
// streaming mode, so the outer one retracts).
func (g *gen) nestedAgg() string {
	t := g.table()
	g.scope = tableScope("")
	inner := fmt.Sprintf("SELECT %s AS x, %s AS y FROM %s%s GROUP BY %s",
		"k", g.pick("COUNT(*)", "SUM(id)", "MAX(d)", "COUNT(DISTINCT g)", "MIN(m)"), t, g.where(), "k")
	g.scope = []col{{"x", BigInt}, {"y", BigInt}}
	outer := g.pick("COUNT(*)", "SUM(x)", "MAX(x)", "MIN(x)", "COUNT(DISTINCT x)", "AVG(x)")
	return fmt.Sprintf("SELECT y, %s AS a0 FROM (%s) GROUP BY y", outer, inner)
}

// rankFn: ranking and offset functions in batch mode (RANK and DENSE_RANK
// are deterministic with ties; ROW_NUMBER, LAG and LEAD get a total order).
func (g *gen) rankFn() string {
	t := g.table()
	g.scope = tableScope("")
	part := g.pick("PARTITION BY g ", "PARTITION BY b ", "")
	key := g.pick("k", "d", "m", "dt", "s")
	fn := g.pick("RANK() OVER (%sORDER BY %s)", "DENSE_RANK() OVER (%sORDER BY %s DESC)",
		"ROW_NUMBER() OVER (%sORDER BY %s, id, ts)", "LAG(id) OVER (%sORDER BY %s, id, ts)",
		"LEAD(d, 2) OVER (%sORDER BY %s, id, ts)", "SUM(id) OVER (%sORDER BY %s)", "COUNT(*) OVER (%sORDER BY %s RANGE UNBOUNDED PRECEDING)")
	return fmt.Sprintf("SELECT id, g, %s, "+fn+" AS r FROM %s%s", key, part, key, t, g.where())
}

// limit: ORDER BY with LIMIT / OFFSET (batch), or the first rows by event
// time (streaming: ORDER BY the time attribute only).
func (g *gen) limit(m Mode) (string, bool) {
	t := g.table()
	g.scope = tableScope("")
	if m == Streaming {
		return fmt.Sprintf("SELECT id, g, ts FROM %s%s ORDER BY ts LIMIT %d", t, g.where(), 1+g.r.Intn(8)), false
	}
	sel, _ := g.selectList(1 + g.r.Intn(2))
	off := ""
	if g.chance(2) {
		off = fmt.Sprintf(" OFFSET %d", g.r.Intn(5))
	}
	return fmt.Sprintf("SELECT %s, id, ts FROM %s%s ORDER BY c0 %s, id, ts LIMIT %d%s", sel, t, g.where(), g.pick("ASC", "DESC"), 1+g.r.Intn(8), off), true
}

// aggJoin: a join of two aggregations (updating inputs on both sides in
// streaming mode).
func (g *gen) aggJoin() string {
	key := g.pick("k", "g")
	typ := g.pick("JOIN", "LEFT JOIN", "FULL JOIN")
	return fmt.Sprintf("SELECT L.%s, L.c, R.c AS rc, L.s + COALESCE(R.s, 0) AS total FROM "+
		"(SELECT %s, COUNT(*) AS c, SUM(id) AS s FROM t1 GROUP BY %s) L %s "+
		"(SELECT %s, COUNT(*) AS c, SUM(id) AS s FROM t2 GROUP BY %s) R ON L.%s = R.%s",
		key, key, key, typ, key, key, key, key)
}
