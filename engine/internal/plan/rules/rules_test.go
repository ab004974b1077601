package rules

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"

	"github.com/riffle-sql/riffle/engine/catalog"
	"github.com/riffle-sql/riffle/engine/config"
	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/internal/plan/binder"
	"github.com/riffle-sql/riffle/engine/sql"
)

// TestRules runs the data-driven tests of the logical rewrite rules in
// testdata (CockroachDB's datadriven format, as its opt/testdata):
// each case binds a query over the fixed catalog of rulesCatalogDDL,
// prints the logical plan, applies one rule and prints the plan again.
// The directive names the rule (see rulesUnderTest); arguments:
//
//	batch    bind in batch mode (default: streaming, Flink's default)
//	set=k=v  a configuration option for binding (repeatable as set=(a=1,b=2))
//
// Regenerate the expected output with
//
//	go test -tags migrated_fynedo ./engine/internal/plan/rules/ -run TestRules -rewrite
//
// and read the diff: every expected plan is a claim about the rule.
func TestRules(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		if !strings.HasSuffix(path, ".txt") {
			return
		}
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			return runRuleCase(t, d)
		})
	})
}

// rulesUnderTest maps a directive to the rewrite it applies to the
// query's plan (a Sink over the bound query, as engine/table optimises
// it). optimize runs them all, as Optimize does.
var rulesUnderTest = map[string]func(plan.Node) plan.Node{
	"push-filters":            pushFilters,
	"reduce-empty-aggregates": reduceEmptyAggregates,
	"push-partition-filters":  pushPartitionFilters,
	"prune": func(n plan.Node) plan.Node {
		out, _ := prune(n, allUsed(n))
		return out
	},
	"window-aggregate":  onlyStreamingRule(windowAggregateRule),
	"rank":              onlyStreamingRule(rankRule),
	"window-join":       onlyStreamingRule(windowJoinRule),
	"rewrite-streaming": rewriteStreaming,
	"optimize":          Optimize,
}

// onlyStreamingRule applies rewriteStreaming's bottom-up walk with one
// of its rules alone.
func onlyStreamingRule(rule func(plan.Node) plan.Node) func(plan.Node) plan.Node {
	return func(n plan.Node) plan.Node {
		saved := streamingRules
		streamingRules = []func(plan.Node) plan.Node{rule}
		defer func() { streamingRules = saved }()
		return rewriteStreaming(n)
	}
}

// rulesCatalogDDL is the fixed catalog of the rule tests (all tables in
// default_catalog.default_database).
var rulesCatalogDDL = []string{
	// a plain table without keys
	`CREATE TABLE t (a INT, b BIGINT, c STRING, d DOUBLE) WITH ('connector' = 'datagen')`,
	`CREATE TABLE u (x INT, y BIGINT, z STRING) WITH ('connector' = 'datagen')`,
	// orders and customers, with primary keys and a rowtime attribute
	`CREATE TABLE orders (
		o_id BIGINT, cust_id INT, amount DECIMAL(10, 2), status STRING, ts TIMESTAMP(3),
		proc AS PROCTIME(),
		WATERMARK FOR ts AS ts - INTERVAL '5' SECOND,
		PRIMARY KEY (o_id) NOT ENFORCED
	) WITH ('connector' = 'datagen')`,
	`CREATE TABLE customers (c_id INT, name STRING, region STRING, PRIMARY KEY (c_id) NOT ENFORCED)
		WITH ('connector' = 'datagen')`,
	// a versioned table (primary key and rowtime) for event-time temporal joins
	`CREATE TABLE rates (currency STRING, rate DECIMAL(10, 4), rts TIMESTAMP(3),
		WATERMARK FOR rts AS rts,
		PRIMARY KEY (currency) NOT ENFORCED
	) WITH ('connector' = 'datagen')`,
	// two event-time streams for window aggregates and window joins
	`CREATE TABLE bids (item STRING, price DECIMAL(10, 2), bidder STRING, bidtime TIMESTAMP(3),
		WATERMARK FOR bidtime AS bidtime - INTERVAL '1' SECOND
	) WITH ('connector' = 'datagen')`,
	`CREATE TABLE asks (item STRING, price DECIMAL(10, 2), asktime TIMESTAMP(3),
		WATERMARK FOR asktime AS asktime - INTERVAL '1' SECOND
	) WITH ('connector' = 'datagen')`,
	// a table with metadata columns
	`CREATE TABLE events (id INT, payload STRING, part INT METADATA FROM 'partition' VIRTUAL, off BIGINT METADATA FROM 'offset' VIRTUAL)
		WITH ('connector' = 'kafka', 'topic' = 'events', 'properties.bootstrap.servers' = '127.0.0.1:9', 'format' = 'json')`,
	// a partitioned table
	`CREATE TABLE logs (id INT, msg STRING, dt STRING, hr INT) PARTITIONED BY (dt, hr)
		WITH ('connector' = 'filesystem', 'path' = '/nonexistent/logs', 'format' = 'csv')`,
}

// rulesContext builds the catalog of rulesCatalogDDL and a binding
// context over it.
func rulesContext(t *testing.T, streaming bool, conf *config.Configuration) *plan.Context {
	t.Helper()
	ctx := &plan.Context{
		Catalogs: catalog.NewManager(),
		Functions: func(parts []string) (*expr.Function, error) {
			if len(parts) == 1 {
				if f, ok := expr.Builtins.Lookup(parts[0]); ok {
					return f, nil
				}
			}
			return nil, nil
		},
		Config:    conf,
		Streaming: streaming,
		Zone:      time.UTC,
	}
	for _, ddl := range rulesCatalogDDL {
		st, err := sql.Parse(ddl)
		if err != nil {
			t.Fatalf("%s: %v", ddl, err)
		}
		ct := st.(*sql.CreateTable)
		schema, err := binder.ResolveSchema(ctx, ct, ddl, sql.Pos{})
		if err != nil {
			t.Fatalf("%s: %v", ddl, err)
		}
		opts := map[string]string{}
		for _, p := range ct.Options {
			opts[p.Key] = p.Value
		}
		var partKeys []string
		for _, p := range ct.PartitionBy {
			partKeys = append(partKeys, p.Name)
		}
		id, err := ctx.Catalogs.Qualify([]string{ct.Name.Parts[len(ct.Name.Parts)-1].Name})
		if err != nil {
			t.Fatal(err)
		}
		c, err := ctx.Catalogs.Catalog(id.Catalog)
		if err != nil {
			t.Fatal(err)
		}
		tbl := &catalog.Table{TableSchema: schema, TableOptions: opts, PartitionKeys: partKeys}
		if err := c.CreateTable(id.Path(), tbl, false); err != nil {
			t.Fatal(err)
		}
	}
	return ctx
}

func runRuleCase(t *testing.T, d *datadriven.TestData) string {
	rule, ok := rulesUnderTest[d.Cmd]
	if !ok {
		d.Fatalf(t, "unknown directive %q", d.Cmd)
	}
	conf := config.New()
	for _, a := range d.CmdArgs {
		if a.Key == "set" {
			for _, v := range a.Vals {
				k, val, ok := strings.Cut(v, "=")
				if !ok {
					d.Fatalf(t, "set=%s: want key=value", v)
				}
				conf.Set(k, val)
			}
		}
	}
	ctx := rulesContext(t, !d.HasArg("batch"), conf)
	text := strings.TrimSpace(d.Input)
	st, err := sql.Parse(text)
	if err != nil {
		return "parse error: " + err.Error() + "\n"
	}
	q, ok := st.(*sql.Query)
	if !ok {
		d.Fatalf(t, "not a query: %T", st)
	}
	n, err := binder.BindQuery(ctx, q, text, sql.Pos{})
	if err != nil {
		return "bind error: " + err.Error() + "\n"
	}
	root := &plan.Sink{Input: n, Collect: true}
	before := explainRule(root.Input)
	var out plan.Node
	func() {
		defer func() {
			if r := recover(); r != nil {
				// a panic is a bug whatever the expected output says
				d.Fatalf(t, "%s panicked: %v", d.Cmd, r)
			}
		}()
		out = rule(root)
	}()
	s, ok := out.(*plan.Sink)
	if !ok {
		d.Fatalf(t, "the rule replaced the sink by %T", out)
	}
	after := explainRule(s.Input)
	if after == before {
		return before + "no change\n"
	}
	return before + "=>\n" + after
}

// explainRule renders a plan as Explain does, adding what Describe leaves
// out and the rules change: the output fields of nodes that do not name
// them (scans, joins, aggregates, windows, ...), a scan's pushed partition
// filter and a Rank's kind and number column.
func explainRule(n plan.Node) string {
	var b strings.Builder
	var rec func(n plan.Node, depth int)
	rec = func(n plan.Node, depth int) {
		b.WriteString(strings.Repeat("  ", depth))
		b.WriteString(n.Describe())
		switch x := n.(type) {
		case *plan.Project, *plan.Filter, *plan.Sort, *plan.WatermarkAssigner:
		case *plan.Scan:
			if x.PartFilter != nil {
				fmt.Fprintf(&b, " partitions=[%s]", plan.RefString(x.PartFilter))
			}
			fmt.Fprintf(&b, " fields=[%s]", strings.Join(plan.Names(n.Columns()), ", "))
		case *plan.Rank:
			if x.RankType != "" && x.RankType != "ROW_NUMBER" {
				fmt.Fprintf(&b, " type=[%s]", x.RankType)
			}
			fmt.Fprintf(&b, " fields=[%s]", strings.Join(plan.Names(n.Columns()), ", "))
		default:
			fmt.Fprintf(&b, " fields=[%s]", strings.Join(plan.Names(n.Columns()), ", "))
		}
		b.WriteByte('\n')
		for _, c := range n.Inputs() {
			rec(c, depth+1)
		}
	}
	rec(n, 0)
	return b.String()
}
