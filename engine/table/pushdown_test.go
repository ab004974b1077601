package table

import (
	"context"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
)

// A test-only connector, 'test-pushdown', implementing the pushdown and
// lookup contracts over rows given in its options, and recording what the
// planner and runtime asked of it by table name:
//
//	'rows'          '1|a|10.0;2|b|'  (one value per physical column, '' is NULL)
//	'exact-columns' predicates on only these columns are taken exactly
//	'inexact'       'true': every filter is used but none exactly (row groups)
//	'limit'         'true': the source applies ReadSpec.Limit (LimitSource)
//	'lookup'        'true': a LookupSource; 'cache.max-rows',
//	                'cache.expire-after-write-ms', 'cache.missing' configure
//	                a partial cache
func init() { connector.Register(testPushFactory{}) }

type testPushFactory struct{}

func (testPushFactory) Identifier() string { return "test-pushdown" }

func (testPushFactory) Options() []connector.Option {
	return []connector.Option{{Key: "rows", Kind: "string"}, {Key: "exact-columns", Kind: "string"},
		{Key: "inexact", Kind: "bool"}, {Key: "limit", Kind: "bool"}, {Key: "lookup", Kind: "bool"},
		{Key: "cache.max-rows", Kind: "int"}, {Key: "cache.expire-after-write-ms", Kind: "int"}, {Key: "cache.missing", Kind: "bool"}}
}

// pushLog is what one table's sources were asked.
type pushLog struct {
	offered      []string // the predicates of each ApplyFilters call, ";"-joined
	valueTypes   []string // the Go types of the offered predicates' literals
	exact        []string // their answers
	readLimits   []int64  // ReadSpec.Limit of each reader
	lookupOpens  []string // the keys and columns of each OpenLookup
	lookedUp     []string // each key looked up
	applyFilters int
}

var pushLogs = struct {
	sync.Mutex
	m map[string]*pushLog
}{m: map[string]*pushLog{}}

func pushLogOf(table string) *pushLog {
	pushLogs.Lock()
	defer pushLogs.Unlock()
	l := pushLogs.m[table]
	if l == nil {
		l = &pushLog{}
		pushLogs.m[table] = l
	}
	return l
}

func resetPushLog(table string) {
	pushLogs.Lock()
	defer pushLogs.Unlock()
	delete(pushLogs.m, table)
}

func (f testPushFactory) CreateSource(ctx *connector.Context) (connector.Source, error) {
	if err := connector.ValidateOptions(ctx, f.Options()); err != nil {
		return nil, err
	}
	table := ctx.Table[strings.LastIndex(ctx.Table, ".")+1:]
	src := &testPushSource{table: strings.Trim(table, "`"), phys: ctx.Schema.Physical(), exactCols: map[string]bool{},
		inexact: ctx.Options["inexact"] == "true", limit: ctx.Options["limit"] == "true"}
	for _, c := range strings.Split(ctx.Options["exact-columns"], ",") {
		src.exactCols[strings.TrimSpace(c)] = true
	}
	for _, r := range strings.Split(ctx.Options["rows"], ";") {
		if strings.TrimSpace(r) == "" {
			continue
		}
		fields := strings.Split(strings.TrimSpace(r), "|")
		if len(fields) != len(src.phys) {
			return nil, fmt.Errorf("bad row %q", r)
		}
		vals := make([]any, len(fields))
		for i, c := range src.phys {
			v, err := parseTestValue(fields[i], c.Type)
			if err != nil {
				return nil, err
			}
			vals[i] = v
		}
		src.rows = append(src.rows, vals)
	}
	if ctx.Options["lookup"] != "true" {
		return src, nil
	}
	ls := &testLookupSource{testPushSource: src}
	if v, ok := ctx.Options["cache.max-rows"]; ok {
		n, _ := strconv.ParseInt(v, 10, 64)
		ms, _ := strconv.ParseInt(ctx.Options["cache.expire-after-write-ms"], 10, 64)
		ls.cache = &connector.LookupCacheConfig{MaxRows: n, ExpireAfterWriteMillis: ms, CacheMissingKey: ctx.Options["cache.missing"] == "true"}
	}
	return ls, nil
}

type testPushSource struct {
	table     string
	phys      []types.Column
	rows      [][]any
	exactCols map[string]bool
	inexact   bool
	limit     bool
	filters   []*connector.Predicate // kept exactly
	accepted  []bool
}

func (s *testPushSource) Bounded() bool                      { return true }
func (s *testPushSource) ChangelogMode() types.ChangelogMode { return types.InsertOnlyMode }
func (s *testPushSource) Splits(context.Context) ([]connector.Split, error) {
	return []connector.Split{testSplit{}}, nil
}

func predicateColumns(p *connector.Predicate, out map[string]bool) {
	if p.Op == connector.OpAnd || p.Op == connector.OpOr || p.Op == connector.OpNot {
		for _, a := range p.Args {
			predicateColumns(a, out)
		}
		return
	}
	out[p.Name] = true
}

// ApplyFilters implements connector.FilterSource.
func (s *testPushSource) ApplyFilters(filters []*connector.Predicate) []bool {
	l := pushLogOf(s.table)
	pushLogs.Lock()
	defer pushLogs.Unlock()
	l.applyFilters++
	exact := make([]bool, len(filters))
	s.accepted = make([]bool, len(filters))
	var offered, answers []string
	for i, f := range filters {
		offered = append(offered, f.String())
		l.valueTypes = append(l.valueTypes, literalTypes(f))
		if s.inexact {
			s.accepted[i] = true
		} else {
			cols := map[string]bool{}
			predicateColumns(f, cols)
			ok := true
			for c := range cols {
				ok = ok && s.exactCols[c]
			}
			if ok {
				exact[i], s.accepted[i] = true, true
				s.filters = append(s.filters, f)
			}
		}
		answers = append(answers, strconv.FormatBool(exact[i]))
	}
	l.offered = append(l.offered, strings.Join(offered, "; "))
	l.exact = append(l.exact, strings.Join(answers, " "))
	return exact
}

// literalTypes lists the Go types of a predicate's literals.
func literalTypes(p *connector.Predicate) string {
	var out []string
	if p.Value != nil {
		out = append(out, fmt.Sprintf("%T", p.Value))
	}
	for _, v := range p.Values {
		out = append(out, fmt.Sprintf("%T", v))
	}
	for _, a := range p.Args {
		out = append(out, literalTypes(a))
	}
	return strings.Join(out, ",")
}

// AcceptedFilters implements connector.FilterAccepter.
func (s *testPushSource) AcceptedFilters() []bool { return s.accepted }

// AppliesLimit implements connector.LimitSource.
func (s *testPushSource) AppliesLimit() bool { return s.limit }

func (s *testPushSource) Open(_ context.Context, _ connector.Split, spec connector.ReadSpec) (connector.Reader, error) {
	l := pushLogOf(s.table)
	pushLogs.Lock()
	l.readLimits = append(l.readLimits, spec.Limit)
	pushLogs.Unlock()
	var rows [][]any
	for _, r := range s.rows {
		if s.matches(r) {
			rows = append(rows, r)
		}
	}
	if spec.Limit > 0 && int64(len(rows)) > spec.Limit {
		rows = rows[:spec.Limit]
	}
	b, err := s.batchOf(rows, spec.Columns)
	if err != nil {
		return nil, err
	}
	return &testChangelogReader{b: b}, nil
}

func (s *testPushSource) batchOf(rows [][]any, cols []int) (*types.Batch, error) {
	var ts []*types.DataType
	for _, c := range cols {
		ts = append(ts, s.phys[c].Type)
	}
	bb := types.NewBatchBuilder(ts)
	for _, r := range rows {
		vals := make([]any, len(cols))
		for i, c := range cols {
			vals[i] = r[c]
		}
		if err := bb.Append(types.Insert, vals); err != nil {
			return nil, err
		}
	}
	return bb.Build(), nil
}

func (s *testPushSource) matches(r []any) bool {
	for _, f := range s.filters {
		if evalPredicate(f, r) != true {
			return false
		}
	}
	return true
}

// evalPredicate evaluates p over a row with SQL's three-valued logic (nil
// is UNKNOWN).
func evalPredicate(p *connector.Predicate, r []any) any {
	switch p.Op {
	case connector.OpAnd, connector.OpOr:
		var out any = p.Op == connector.OpAnd
		for _, a := range p.Args {
			v := evalPredicate(a, r)
			if v == !(p.Op == connector.OpAnd) {
				return v
			}
			if v == nil {
				out = nil
			}
		}
		return out
	case connector.OpNot:
		if v := evalPredicate(p.Args[0], r); v != nil {
			return !v.(bool)
		}
		return nil
	case connector.OpIsNull:
		return r[p.Column] == nil
	case connector.OpIsNotNull:
		return r[p.Column] != nil
	}
	v := r[p.Column]
	if v == nil {
		return nil
	}
	switch p.Op {
	case connector.OpIn:
		for _, x := range p.Values {
			if compareAny(v, x) == 0 {
				return true
			}
		}
		return false
	case connector.OpLike:
		re := "^" + strings.NewReplacer("%", ".*", "_", ".").Replace(regexp.QuoteMeta(p.Value.(string))) + "$"
		return regexp.MustCompile(re).MatchString(v.(string))
	}
	c := compareAny(v, p.Value)
	switch p.Op {
	case connector.OpEq:
		return c == 0
	case connector.OpNotEq:
		return c != 0
	case connector.OpLess:
		return c < 0
	case connector.OpLessEq:
		return c <= 0
	case connector.OpGreater:
		return c > 0
	}
	return c >= 0
}

func compareAny(a, b any) int {
	switch x := a.(type) {
	case int32:
		return cmpOrdered(int64(x), int64(b.(int32)))
	case int64:
		return cmpOrdered(x, b.(int64))
	case float64:
		return cmpOrdered(x, b.(float64))
	case string:
		return strings.Compare(x, b.(string))
	case time.Time:
		return x.Compare(b.(time.Time))
	}
	panic(fmt.Sprintf("test-pushdown: cannot compare %T", a))
}

func cmpOrdered[T int64 | float64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

type testLookupSource struct {
	*testPushSource
	cache *connector.LookupCacheConfig
}

// LookupCache implements connector.CachingLookupSource.
func (s *testLookupSource) LookupCache() *connector.LookupCacheConfig { return s.cache }

// OpenLookup implements connector.LookupSource.
func (s *testLookupSource) OpenLookup(_ context.Context, keys []int, spec connector.ReadSpec) (connector.Lookuper, error) {
	l := pushLogOf(s.table)
	pushLogs.Lock()
	l.lookupOpens = append(l.lookupOpens, fmt.Sprintf("keys=%v columns=%v", keys, spec.Columns))
	pushLogs.Unlock()
	return &testLookuper{s: s, keys: keys, cols: spec.Columns}, nil
}

type testLookuper struct {
	s    *testLookupSource
	keys []int
	cols []int
}

func (l *testLookuper) Lookup(_ context.Context, key []any) (*types.Batch, error) {
	lg := pushLogOf(l.s.table)
	pushLogs.Lock()
	lg.lookedUp = append(lg.lookedUp, fmt.Sprint(key...))
	pushLogs.Unlock()
	var rows [][]any
	for _, r := range l.s.rows {
		match := l.s.matches(r) // filters taken exactly
		if !match {
			continue
		}
		for i, k := range l.keys {
			if key[i] == nil {
				return nil, fmt.Errorf("test-pushdown: NULL key %v looked up", key)
			}
			match = match && r[k] != nil && compareAny(r[k], key[i]) == 0
		}
		if match {
			rows = append(rows, r)
		}
	}
	return l.s.batchOf(rows, l.cols)
}

func (l *testLookuper) Close() error { return nil }

var _ io.Closer = (*testLookuper)(nil)

// ---------------------------------------------------------------- tests

const pushRows = "1|apple|1.5;2|banana|2.5;3|cherry|;4||4.5;5|avocado|5.5"

func pushEnv(t *testing.T, batch bool) *TableEnvironment {
	t.Helper()
	settings := InStreamingMode()
	if batch {
		settings = InBatchMode()
	}
	env := MustCreate(settings)
	for _, ddl := range []string{
		"CREATE TABLE fx (a INT, b STRING, c DOUBLE) WITH ('connector'='test-pushdown', 'exact-columns'='a,b', 'limit'='true', 'rows'='" + pushRows + "')",
		"CREATE TABLE fi (a INT, b STRING, c DOUBLE) WITH ('connector'='test-pushdown', 'inexact'='true', 'rows'='" + pushRows + "')",
		"CREATE TABLE fn (a INT, b STRING, c DOUBLE) WITH ('connector'='test-pushdown', 'exact-columns'='none', 'rows'='" + pushRows + "')",
		"CREATE TABLE plain (a INT, b STRING, c DOUBLE) WITH ('connector'='test-changelog', 'changelog-mode'='I', 'rows'='" + inserts(pushRows) + "')",
	} {
		mustExec(t, env, ddl)
	}
	return env
}

// inserts turns test-pushdown rows into test-changelog inserts.
func inserts(rows string) string {
	parts := strings.Split(rows, ";")
	for i, p := range parts {
		parts[i] = "+I|" + p
	}
	return strings.Join(parts, ";")
}

func optimizedPlan(t *testing.T, env *TableEnvironment, stmt string) string {
	t.Helper()
	text, err := env.ExplainSQL(stmt)
	if err != nil {
		t.Fatalf("%s: %v", stmt, err)
	}
	_, after, _ := strings.Cut(text, "== Optimized Physical Plan ==\n")
	plan, _, _ := strings.Cut(after, "\n\n== Optimized Execution Plan ==")
	return plan
}

func sortedRows(t *testing.T, env *TableEnvironment, q string) string {
	t.Helper()
	res, err := env.ExecuteSQL(q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	it, err := res.Collect()
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	var out []string
	for it.Next() {
		out = append(out, it.Row().String())
	}
	if err := it.Err(); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

// Filters over a source implementing FilterSource: which conjuncts are
// offered (columns against constants, either order, IS NULL, IN, LIKE,
// AND/OR/NOT of those), which the source takes exactly, the Filter that
// stays, EXPLAIN's filter=[...] (Flink's PushFilterIntoTableSourceScanRule
// plans), and the rows, the same as over a source without pushdown.
func TestFilterPushdown(t *testing.T) {
	scan := func(table, extra, fields string) string {
		return "TableSourceScan(table=[[default_catalog, default_database, " + table + extra + "]], fields=[" + fields + "])"
	}
	for _, c := range []struct {
		name, table, where, offered, exact, plan string
	}{
		{"a comparison taken exactly: no Calc", "fx", "a > 2", ">(a, 2)", "true",
			scan("fx", ", filter=[>(a, 2)]", "a, b, c")},
		{"constant first: the operator flips", "fx", "2 >= a", "<=(a, 2)", "true",
			scan("fx", ", filter=[>=(2, a)]", "a, b, c")},
		{"a conjunct on another column stays in the Calc", "fx", "a > 1 AND c < 3", ">(a, 1); <(c, 3)", "true false",
			"Calc(select=[a, b, c], where=[<(c, 3.0)])\n+- " + scan("fx", ", filter=[>(a, 1)]", "a, b, c")},
		{"IN, LIKE, IS NULL, OR and NOT", "fx", "a IN (1, 2, 5) AND b LIKE 'a%' AND (b IS NULL OR NOT (a = 3))",
			"IN(a, 1, 2, 5); LIKE(b, 'a%'); OR(IS NULL(b), NOT(=(a, 3)))", "true true true",
			scan("fx", ", filter=[AND(IN(a, 1, 2, 5), LIKE(b, _UTF-16LE'a%'), OR(IS NULL(b), NOT(=(a, 3))))]", "a, b, c")},
		{"NOT LIKE", "fx", "b NOT LIKE '%an%'", "NOT(LIKE(b, '%an%'))", "true",
			scan("fx", ", filter=[NOT LIKE(b, _UTF-16LE'%an%')]", "a, b, c")},
		{"expressions of a column are not offered", "fx", "UPPER(b) = 'APPLE' OR a + 1 = 3", "", "",
			"Calc(select=[a, b, c], where=[OR(=(UPPER(b), _UTF-16LE'APPLE'), =(+(a, 1), 3))])\n+- " + scan("fx", "", "a, b, c")},
		{"a constant outside the column's type is not offered", "fx", "a < 2.5", "", "",
			"Calc(select=[a, b, c], where=[<(CAST(a AS DECIMAL(11, 1)), 2.5)])\n+- " + scan("fx", "", "a, b, c")},
		{"inexact filters are shown and kept", "fi", "a > 2 AND b IS NOT NULL", ">(a, 2); IS NOT NULL(b)", "false false",
			"Calc(select=[a, b, c], where=[AND(>(a, 2), IS NOT NULL(b))])\n+- " + scan("fi", ", filter=[AND(>(a, 2), IS NOT NULL(b))]", "a, b, c")},
		{"none accepted: filter=[] as Flink prints it", "fn", "a > 2", ">(a, 2)", "false",
			"Calc(select=[a, b, c], where=[>(a, 2)])\n+- " + scan("fn", ", filter=[]", "a, b, c")},
	} {
		t.Run(c.name, func(t *testing.T) {
			env := pushEnv(t, true)
			q := "SELECT * FROM " + c.table + " WHERE " + c.where
			resetPushLog(c.table)
			if got := optimizedPlan(t, env, q); got != c.plan {
				t.Errorf("plan:\n%s\nwant:\n%s", got, c.plan)
			}
			l := pushLogOf(c.table)
			if c.offered == "" {
				if l.applyFilters != 0 {
					t.Errorf("offered %v, want nothing", l.offered)
				}
			} else if l.applyFilters != 1 || l.offered[0] != c.offered || l.exact[0] != c.exact {
				t.Errorf("ApplyFilters ×%d offered %q answered %q, want once %q / %q", l.applyFilters, l.offered, l.exact, c.offered, c.exact)
			}
			want := sortedRows(t, env, "SELECT * FROM plain WHERE "+c.where)
			if got := sortedRows(t, env, q); got != want {
				t.Errorf("rows %s, want %s", got, want)
			}
		})
	}
}

// A table read twice in one query, with different filters or a limit on
// one side only, gives each read its own source and its own rows.
func TestPushdownSharedScan(t *testing.T) {
	env := pushEnv(t, true)
	for _, q := range []string{
		"WITH v AS (SELECT * FROM %s) SELECT * FROM v WHERE a > 3 UNION ALL SELECT * FROM v WHERE a < 2 UNION ALL SELECT * FROM v",
		"WITH v AS (SELECT * FROM %s) (SELECT * FROM v LIMIT 1) UNION ALL (SELECT * FROM v WHERE a = 3 LIMIT 1) UNION ALL (SELECT * FROM v)",
		"SELECT * FROM %[1]s x JOIN %[1]s y ON x.a = y.a + 1 WHERE x.a > 2 AND y.a < 4",
	} {
		want := sortedRows(t, env, fmt.Sprintf(q, "plain"))
		if got := sortedRows(t, env, fmt.Sprintf(q, "fx")); got != want {
			t.Errorf("%s:\n%s\nwant\n%s", q, got, want)
		}
	}
}

// Literals are offered as the Go values of their column's type, whatever
// the literal's own type; a constant that the column's type cannot hold
// exactly, a NULL, a CHAR column (padding) or a cast that could lose
// values is not offered.
func TestFilterPushdownLiteralTypes(t *testing.T) {
	env := MustCreate(InBatchMode())
	mustExec(t, env, "CREATE TABLE typed (i BIGINT, s SMALLINT, d DATE, ts TIMESTAMP(3), dm DECIMAL(10, 2), f BOOLEAN, v VARCHAR(5), ch CHAR(3), x DOUBLE) "+
		"WITH ('connector'='test-pushdown', 'inexact'='true')")
	for _, c := range []struct{ where, offered, types string }{
		{"i > 5", ">(i, 5)", "int64"},
		{"5 < i", ">(i, 5)", "int64"},
		{"i > 3000000000", ">(i, 3000000000)", "int64"},
		{"s = 3", "=(s, 3)", "int16"},
		{"s > 100000", "", ""},
		{"d >= DATE '2024-01-01'", ">=(d, 2024-01-01)", "types.Date"},
		{"ts < TIMESTAMP '2024-01-01 10:00:00'", "<(ts, 2024-01-01 10:00:00 +0000 UTC)", "time.Time"},
		{"dm > 1.5", ">(dm, 1.50)", "types.Decimal"},
		{"dm > 1.555", "", ""},
		{"f = TRUE", "=(f, true)", "bool"},
		{"v = 'abc'", "=(v, 'abc')", "string"},
		{"v = 'abcdefg'", "", ""},
		{"v IN ('a', 'b')", "IN(v, 'a', 'b')", "string,string"},
		{"ch = 'ab'", "", ""},
		{"i IN (1, 2, CAST(NULL AS BIGINT))", "", ""},
		{"i = CAST(NULL AS BIGINT)", "", ""},
		{"x > 2", ">(x, 2)", "float64"},
		{"CAST(x AS INT) > 2", "", ""},
		{"i + 0 > 2", "", ""},
		{"i > RAND_INTEGER(10)", "", ""},
	} {
		resetPushLog("typed")
		optimizedPlan(t, env, "SELECT * FROM typed WHERE "+c.where)
		l := pushLogOf("typed")
		got, types := strings.Join(l.offered, " | "), strings.Join(l.valueTypes, " | ")
		if got != c.offered || types != c.types {
			t.Errorf("%s: offered %q (%s), want %q (%s)", c.where, got, types, c.offered, c.types)
		}
	}
}

// LIMIT over a scan: ReadSpec.Limit reaches the source as
// offset + fetch, through projections and exactly pushed filters, and
// EXPLAIN shows limit=[n] only for a LimitSource; the Limit stays above.
func TestLimitPushdown(t *testing.T) {
	env := pushEnv(t, true)
	for _, c := range []struct {
		table, q, plan string
		readLimit      int64
	}{
		{"fx", "SELECT * FROM fx LIMIT 2", `Limit(offset=[0], fetch=[2])
+- Exchange(distribution=[single])
   +- TableSourceScan(table=[[default_catalog, default_database, fx, limit=[2]]], fields=[a, b, c])`, 2},
		{"fx", "SELECT b FROM fx WHERE a > 1 LIMIT 2 OFFSET 1", `Limit(offset=[1], fetch=[2])
+- Exchange(distribution=[single])
   +- TableSourceScan(table=[[default_catalog, default_database, fx, filter=[>(a, 1)], project=[b], limit=[3]]], fields=[b])`, 3},
		{"fi", "SELECT * FROM fi WHERE a > 1 LIMIT 2", `Limit(offset=[0], fetch=[2])
+- Exchange(distribution=[single])
   +- Calc(select=[a, b, c], where=[>(a, 1)])
      +- TableSourceScan(table=[[default_catalog, default_database, fi, filter=[>(a, 1)]]], fields=[a, b, c])`, -1},
		{"fi", "SELECT * FROM fi LIMIT 2", `Limit(offset=[0], fetch=[2])
+- Exchange(distribution=[single])
   +- TableSourceScan(table=[[default_catalog, default_database, fi]], fields=[a, b, c])`, 2},
	} {
		if got := optimizedPlan(t, env, c.q); got != c.plan {
			t.Errorf("%s:\n%s\nwant:\n%s", c.q, got, c.plan)
		}
		name := c.table
		resetPushLog(name)
		rows := sortedRows(t, env, c.q)
		if n := len(strings.Fields(rows)); rows == "" || n == 0 {
			t.Errorf("%s: no rows", c.q)
		}
		if l := pushLogOf(name); len(l.readLimits) != 1 || l.readLimits[0] != c.readLimit {
			t.Errorf("%s: read limits %v, want [%d]", c.q, l.readLimits, c.readLimit)
		}
	}
	// the rows are those of the query without pushdown
	if got, want := sortedRows(t, env, "SELECT b FROM fx WHERE a > 1 LIMIT 2 OFFSET 1"), "+I[cherry] +I[null]"; got != want {
		t.Errorf("rows %s, want %s", got, want)
	}
	// streaming: pushed too (PushLimitIntoTableSourceScanRule is in
	// Flink's stream rule set), but not into a changelog source
	senv := pushEnv(t, false)
	if got := optimizedPlan(t, senv, "SELECT * FROM fx LIMIT 2"); !strings.Contains(got, "TableSourceScan(table=[[default_catalog, default_database, fx, limit=[2]]]") {
		t.Errorf("streaming plan:\n%s", got)
	}
	if got := sortedRows(t, senv, "SELECT a FROM fx WHERE b IS NOT NULL LIMIT 2"); got != "+I[1] +I[2]" {
		t.Errorf("streaming rows %s", got)
	}
}

func lookupEnv(t *testing.T, cache string) *TableEnvironment {
	t.Helper()
	env := MustCreate(InStreamingMode())
	mustExec(t, env,
		"CREATE TABLE ords (id INT, k INT, pt AS PROCTIME()) WITH ('connector'='test-changelog', 'changelog-mode'='I', 'source.batch-size'='1', "+
			"'rows'='+I|1|2;+I|2|5;+I|3|2;+I|4|;+I|5|9;+I|6|5;+I|7|2')",
		"CREATE TABLE dim (a INT, b STRING, c DOUBLE) WITH ('connector'='test-pushdown', 'lookup'='true'"+cache+", 'rows'='"+pushRows+";2|blueberry|7.5')")
	return env
}

// A processing-time temporal join against a LookupSource looks up each
// distinct key (never a NULL one) instead of reading the table; the cache
// answers repeated keys; left joins pad with NULLs; residual conditions
// and the calc on the temporal table apply to the looked-up rows.
func TestSourceLookupJoin(t *testing.T) {
	const dim = "dim"
	env := lookupEnv(t, ", 'cache.max-rows'='100', 'cache.missing'='true'")
	q := "SELECT o.id, d.b, d.c FROM ords o JOIN dim FOR SYSTEM_TIME AS OF o.pt AS d ON o.k = d.a"
	plan := optimizedPlan(t, env, q)
	if want := "LookupJoin(table=[default_catalog.default_database.dim], joinType=[InnerJoin], lookup=[a=k], select=[id, k, pt, a, b, c])"; !strings.Contains(plan, want) {
		t.Errorf("plan:\n%s\nwant %s", plan, want)
	}
	resetPushLog(dim)
	got := sortedRows(t, env, q)
	want := "+I[1, banana, 2.5] +I[1, blueberry, 7.5] +I[2, avocado, 5.5] +I[3, banana, 2.5] +I[3, blueberry, 7.5] " +
		"+I[6, avocado, 5.5] +I[7, banana, 2.5] +I[7, blueberry, 7.5]"
	if got != want {
		t.Errorf("rows %s\nwant %s", got, want)
	}
	l := pushLogOf(dim)
	// one batch per left row: keys 2, 5, 9 are loaded once each, the
	// repeated 2 and 5 come from the cache, the NULL key is never asked
	if strings.Join(l.lookedUp, " ") != "2 5 9" || len(l.lookupOpens) != 1 || l.lookupOpens[0] != "keys=[0] columns=[0 1 2]" {
		t.Errorf("looked up %q, opened %q", l.lookedUp, l.lookupOpens)
	}
	if len(l.readLimits) != 0 {
		t.Errorf("the lookup table was scanned: %v", l.readLimits)
	}

	// without a cache every row is a lookup (the NULL key still none)
	env = lookupEnv(t, "")
	resetPushLog(dim)
	if got := sortedRows(t, env, q); got != want {
		t.Errorf("rows without cache %s", got)
	}
	if l := pushLogOf(dim); strings.Join(l.lookedUp, " ") != "2 5 2 9 5 2" {
		t.Errorf("looked up without cache %q", l.lookedUp)
	}

	// left join, a residual condition, a projection of the temporal table
	lq := "SELECT o.id, d.b FROM ords o LEFT JOIN dim FOR SYSTEM_TIME AS OF o.pt AS d ON o.k = d.a AND d.c > 3"
	resetPushLog(dim)
	got = sortedRows(t, env, lq)
	want = "+I[1, blueberry] +I[2, avocado] +I[3, blueberry] +I[4, null] +I[5, null] +I[6, avocado] +I[7, blueberry]"
	if got != want {
		t.Errorf("left join rows %s\nwant %s", got, want)
	}
	// the condition on the temporal table alone is offered to the source
	if l := pushLogOf(dim); strings.Join(l.offered, " | ") != ">(c, 3)" {
		t.Errorf("offered to the lookup source: %q", l.offered)
	}
	// a source that takes it exactly answers only matching rows: the same
	mustExec(t, env, "CREATE TABLE dimx (a INT, b STRING, c DOUBLE) WITH ('connector'='test-pushdown', 'lookup'='true', 'exact-columns'='c', 'rows'='"+pushRows+";2|blueberry|7.5')")
	resetPushLog("dimx") // the log is the process's: a run before (-count) wrote to it
	if got := sortedRows(t, env, strings.Replace(lq, "JOIN dim ", "JOIN dimx ", 1)); got != want {
		t.Errorf("left join rows with the filter in the lookups %s\nwant %s", got, want)
	}
	if l := pushLogOf("dimx"); strings.Join(l.exact, " | ") != "true" {
		t.Errorf("dimx answered %q", l.exact)
	}
	// Flink's attributes: where=[...] for conditions on the temporal
	// table alone, joinCondition=[...] for the others
	if plan := optimizedPlan(t, env, lq); !strings.Contains(plan, "LookupJoin(table=[default_catalog.default_database.dim], joinType=[LeftOuterJoin], lookup=[a=k], where=[>(c, 3.0)], select=[id, k, pt, a, b, c])") {
		t.Errorf("left join plan:\n%s", plan)
	}
	// a WHERE above an inner lookup join: the left side's conditions go
	// below it, the temporal table's into its where=[...] (as Flink)
	wq := "SELECT o.id, d.b FROM ords o JOIN dim FOR SYSTEM_TIME AS OF o.pt AS d ON o.k = d.a WHERE d.c > 3 AND o.id > 1 AND d.c > o.id"
	resetPushLog(dim)
	if got, want := sortedRows(t, env, wq), "+I[2, avocado] +I[3, blueberry] +I[7, blueberry]"; got != want {
		t.Errorf("where rows %s, want %s", got, want)
	}
	if l := pushLogOf(dim); strings.Join(l.offered, " | ") != ">(c, 3)" {
		t.Errorf("offered to the lookup source: %q", l.offered)
	}
	wantPlan := `Calc(select=[id, b])
+- LookupJoin(table=[default_catalog.default_database.dim], joinType=[InnerJoin], lookup=[a=k], where=[>(c, 3.0)], joinCondition=[>(c, CAST(id AS DOUBLE))], select=[id, k, pt, a, b, c])
   +- Calc(select=[id, k, PROCTIME() AS pt], where=[>(id, 1)])
      +- TableSourceScan(table=[[default_catalog, default_database, ords]], fields=[id, k])`
	if plan := optimizedPlan(t, env, wq); plan != wantPlan {
		t.Errorf("where plan:\n%s\nwant:\n%s", plan, wantPlan)
	}
	jq := "SELECT o.id, d.b FROM ords o JOIN dim FOR SYSTEM_TIME AS OF o.pt AS d ON o.k = d.a AND d.c > o.id AND d.b <> 'x'"
	if plan := optimizedPlan(t, env, jq); !strings.Contains(plan, "lookup=[a=k], where=[<>(b, _UTF-16LE'x')], joinCondition=[>(c, CAST(id AS DOUBLE))], select=[") {
		t.Errorf("join condition plan:\n%s", plan)
	}
	if got, want := sortedRows(t, env, jq), "+I[1, banana] +I[1, blueberry] +I[2, avocado] +I[3, blueberry] +I[7, blueberry]"; got != want {
		t.Errorf("join condition rows %s, want %s", got, want)
	}
}

// The calc on the temporal table (a computed column) runs on the rows
// looked up; a key on a computed column cannot be looked up, and the
// join reads the whole table instead (the path of sources without
// lookups), with the same rows.
func TestSourceLookupJoinComputed(t *testing.T) {
	env := lookupEnv(t, "")
	mustExec(t, env, "CREATE TABLE dimc (a INT, b STRING, c DOUBLE, twice AS c * 2, k2 AS a * 10) WITH ('connector'='test-pushdown', 'lookup'='true', 'rows'='"+pushRows+";2|blueberry|7.5')")
	resetPushLog("dimc")
	q := "SELECT o.id, d.b, d.twice FROM ords o JOIN dimc FOR SYSTEM_TIME AS OF o.pt AS d ON o.k = d.a WHERE d.twice > 6"
	want := "+I[1, blueberry, 15.0] +I[2, avocado, 11.0] +I[3, blueberry, 15.0] +I[6, avocado, 11.0] +I[7, blueberry, 15.0]"
	if got := sortedRows(t, env, q); got != want {
		t.Errorf("rows %s\nwant %s", got, want)
	}
	if l := pushLogOf("dimc"); len(l.lookedUp) != 6 || len(l.readLimits) != 0 {
		t.Errorf("looked up %q, read %v", l.lookedUp, l.readLimits)
	}
	resetPushLog("dimc")
	q = "SELECT o.id, d.b FROM ords o JOIN dimc FOR SYSTEM_TIME AS OF o.pt AS d ON o.k * 10 = d.k2"
	want = "+I[1, banana] +I[1, blueberry] +I[2, avocado] +I[3, banana] +I[3, blueberry] +I[6, avocado] +I[7, banana] +I[7, blueberry]"
	if got := sortedRows(t, env, q); got != want {
		t.Errorf("rows %s\nwant %s", got, want)
	}
	if l := pushLogOf("dimc"); len(l.lookedUp) != 0 || len(l.readLimits) != 1 {
		t.Errorf("key on a computed column: looked up %q, read %v", l.lookedUp, l.readLimits)
	}
}

// In batch mode a processing-time temporal join against a LookupSource is
// a lookup join too (Flink's BatchPhysicalLookupJoin); against another
// source it stays refused.
func TestSourceLookupJoinBatch(t *testing.T) {
	env := MustCreate(InBatchMode())
	mustExec(t, env,
		"CREATE TABLE ords (id INT, k INT, pt AS PROCTIME()) WITH ('connector'='test-changelog', 'changelog-mode'='I', 'rows'='+I|1|2;+I|2|5;+I|3|;+I|4|9')",
		"CREATE TABLE dim (a INT, b STRING, c DOUBLE) WITH ('connector'='test-pushdown', 'lookup'='true', 'rows'='"+pushRows+"')",
		"CREATE TABLE dimw (a INT, b STRING, c DOUBLE) WITH ('connector'='test-changelog', 'changelog-mode'='I', 'rows'='"+inserts(pushRows)+"')")
	q := "SELECT o.id, d.b FROM ords o LEFT JOIN dim FOR SYSTEM_TIME AS OF o.pt AS d ON o.k = d.a"
	if plan := optimizedPlan(t, env, q); !strings.Contains(plan, "LookupJoin(table=[default_catalog.default_database.dim], joinType=[LeftOuterJoin], lookup=[a=k], select=[id, k, pt, a, b, c])") {
		t.Errorf("plan:\n%s", plan)
	}
	if got, want := sortedRows(t, env, q), "+I[1, banana] +I[2, avocado] +I[3, null] +I[4, null]"; got != want {
		t.Errorf("rows %s, want %s", got, want)
	}
	if _, err := env.ExplainSQL(strings.Replace(q, "JOIN dim", "JOIN dimw", 1)); err == nil || !strings.Contains(err.Error(), "only supported in streaming mode") {
		t.Errorf("batch temporal join without lookups: %v", err)
	}
}
