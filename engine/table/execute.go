package table

import (
	"context"
	"fmt"
	"math"
	goruntime "runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/riffle-sql/riffle/engine/catalog"
	"github.com/riffle-sql/riffle/engine/config"
	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/jobgraph"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/internal/plan/binder"
	"github.com/riffle-sql/riffle/engine/internal/plan/physical"
	"github.com/riffle-sql/riffle/engine/internal/plan/rules"
	"github.com/riffle-sql/riffle/engine/internal/runtime"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/types"
)

// ExecuteSQLContext runs one statement (PyFlink's execute_sql): DDL, DML
// (INSERT, returns once the job is submitted), queries (return at once;
// rows stream through the result), SHOW, DESCRIBE, EXPLAIN, SET, RESET,
// USE and the other utility statements. ctx bounds planning; jobs outlive
// the call: cancel them through the result's JobClient. Errors carry the
// line and column of the fault (*sql.Error for syntax, *ValidationError
// for validation).
func (t *TableEnvironment) ExecuteSQLContext(ctx context.Context, statement string) (*TableResult, error) {
	stmts, err := sql.ParseScript(statement)
	if err != nil {
		return nil, err
	}
	if len(stmts) != 1 {
		return nil, errorf("Unsupported SQL query! executeSql() only accepts a single SQL statement, got %d", len(stmts))
	}
	return t.ExecuteParsed(ctx, stmts[0], statement, sql.Pos{})
}

// ExecuteParsed runs a parsed statement. text is the statement's source
// and base its position in a larger script (so errors point into the
// script).
func (t *TableEnvironment) ExecuteParsed(ctx context.Context, st sql.Statement, text string, base sql.Pos) (res *TableResult, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, fmt.Errorf("internal error while executing the statement: %v\n%s", r, debug.Stack())
		}
	}()
	x := &execution{env: t, ctx: ctx, text: text, base: base}
	return x.run(st)
}

type execution struct {
	env  *TableEnvironment
	ctx  context.Context
	text string
	base sql.Pos
}

// source returns the text of a node of this statement.
func (x *execution) source(n sql.Node) string {
	from := n.Pos().Offset - x.base.Offset
	to := n.End() - x.base.Offset
	if from < 0 || to > len(x.text) || from > to {
		return n.String()
	}
	return x.text[from:to]
}

func (x *execution) run(st sql.Statement) (*TableResult, error) {
	t := x.env
	switch s := st.(type) {
	case *sql.Query:
		return x.query(s)
	case *sql.Insert:
		return x.inserts([]*sql.Insert{s})
	case *sql.Execute:
		switch inner := s.Stmt.(type) {
		case *sql.Insert:
			return x.inserts([]*sql.Insert{inner})
		case *sql.StatementSet:
			return x.inserts(inner.Statements)
		case *sql.Query:
			return x.query(inner)
		}
	case *sql.StatementSet:
		return x.inserts(s.Statements)
	case *sql.Explain:
		return x.explain(s)
	case *sql.CompilePlan:
		return x.compilePlan(s)
	case *sql.ExecutePlan:
		return x.executePlan(s)
	case *sql.CreateTable:
		return x.createTable(s)
	case *sql.CreateView:
		return x.createView(s)
	case *sql.CreateMaterializedTable:
		return x.createMaterializedTable(s)
	case *sql.AlterMaterializedTable:
		return x.alterMaterializedTable(s)
	case *sql.Drop:
		return x.drop(s)
	case *sql.AlterTable:
		return x.alterTable(s)
	case *sql.AlterView:
		return x.alterView(s)
	case *sql.CreateDatabase:
		return x.createDatabase(s)
	case *sql.AlterCatalog:
		return x.alterCatalog(s)
	case *sql.AlterDatabase:
		return x.alterDatabase(s)
	case *sql.CreateCatalog:
		return x.createCatalog(s)
	case *sql.CreateFunction:
		return x.createFunction(s)
	case *sql.Use:
		if s.Catalog {
			if err := t.UseCatalog(s.Name.Parts[0].Name); err != nil {
				return nil, err
			}
			return okResult(), nil
		}
		parts := identNames(s.Name.Parts)
		if len(parts) == 2 {
			if err := t.UseCatalog(parts[0]); err != nil {
				return nil, err
			}
		}
		if err := t.UseDatabase(parts[len(parts)-1]); err != nil {
			return nil, err
		}
		return okResult(), nil
	case *sql.Set:
		return x.set(s)
	case *sql.Reset:
		// back to the reset base (the settings' configuration, or a
		// gateway session's defaults), as Flink's SessionContext.reset
		if s.Key == "" {
			t.config.conf.Clear()
			t.config.conf.AddAll(t.resetBase)
			t.setImpliedMode(t.resetStreaming)
		} else if v, ok := t.resetBase.Get(s.Key); ok {
			t.config.conf.Set(s.Key, v)
			if s.Key == config.RuntimeMode.Key {
				t.impliedMode = ""
			}
		} else {
			t.config.conf.Remove(s.Key)
			if s.Key == config.RuntimeMode.Key {
				t.setImpliedMode(t.resetStreaming)
			}
		}
		return okResult(), nil
	case *sql.Show:
		return x.show(s)
	case *sql.ShowCreate:
		return x.showCreate(s)
	case *sql.Describe:
		return x.describe(s)
	case *sql.StopJob:
		j, ok := t.JobByID(s.JobID)
		if !ok {
			return nil, errorf("Could not stop job %s: no such job in this session", s.JobID)
		}
		if s.WithSavepoint {
			return t.stopWithSavepoint(x.ctx, j, s.WithDrain)
		}
		if st := j.Status(); st.IsTerminal() {
			// Flink's dispatcher refuses to cancel an ended job.
			return nil, errorf("Could not stop job %s: the job is not running (it is %s)", s.JobID, st)
		}
		if err := j.Cancel(); err != nil {
			return nil, err
		}
		return okResult(), nil
	case *sql.LoadModule:
		if err := t.loadModuleSQL(s.Name.Name, props(s.Options)); err != nil {
			return nil, err
		}
		return okResult(), nil
	case *sql.UnloadModule:
		if err := t.UnloadModule(s.Name.Name); err != nil {
			return nil, err
		}
		return okResult(), nil
	case *sql.UseModules:
		if err := t.UseModules(identNames(s.Names)...); err != nil {
			return nil, err
		}
		return okResult(), nil
	case *sql.Jar:
		return nil, errorf("%s JAR is not supported: Riffle runs Go functions registered by the embedding program", s.Verb)
	case *sql.BeginStatementSet, *sql.End:
		return nil, errorf("BEGIN STATEMENT SET / END are SQL Client commands; use EXECUTE STATEMENT SET BEGIN ... END")
	case *sql.ClientCommand:
		return nil, errorf("%s is a SQL Client command", s.Command)
	}
	return nil, &ValidationError{Line: st.Pos().Line, Column: st.Pos().Column, Msg: fmt.Sprintf("Unsupported statement: %s", firstWords(x.source(st)))}
}

func firstWords(s string) string {
	f := strings.Fields(s)
	if len(f) > 3 {
		f = f[:3]
	}
	return strings.Join(f, " ")
}

func identNames(ids []*sql.Ident) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = id.Name
	}
	return out
}

func (x *execution) set(s *sql.Set) (*TableResult, error) {
	t := x.env
	if s.Key == "" {
		// what was configured, as Flink's SQL Gateway lists a session's
		// configuration: not the runtime mode the environment implies,
		// key and value nullable STRINGs
		m := t.config.conf.ToMap()
		if t.impliedMode != "" && m[config.RuntimeMode.Key] == t.impliedMode {
			delete(m, config.RuntimeMode.Key)
		}
		// the parallelism jobs run at, also when the session does not set
		// it (then the number of cores), as the SQL Client of a Flink
		// distribution lists the parallelism.default of its configuration
		// file; RESET 'parallelism.default' lists the cores again
		if _, ok := m[config.Parallelism.Key]; !ok {
			m[config.Parallelism.Key] = strconv.Itoa(t.config.conf.Parallelism())
		}
		var rows []*types.Row
		for _, k := range physical.SortedKeys(m) {
			rows = append(rows, types.NewRow(k, m[k]))
		}
		return &TableResult{kind: SuccessWithContent, schema: NewTableSchema([]string{"key", "value"}, []*types.DataType{types.StringType(), types.StringType()}), static: rows}, nil
	}
	switch s.Key {
	case config.RuntimeMode.Key:
		v := strings.ToLower(s.Value)
		if v != "streaming" && v != "batch" {
			return nil, errorf("Could not parse value '%s' for key '%s': expected STREAMING or BATCH", s.Value, s.Key)
		}
	case "table.sql-dialect":
		// Flink reads the value as its SqlDialect enum, upper-cased
		if v := strings.ToUpper(s.Value); v != "DEFAULT" && v != "HIVE" {
			return nil, errorf("No enum constant org.apache.flink.table.api.SqlDialect.%s", v)
		}
	case config.LocalTimeZone.Key:
		if s.Value != "default" {
			if _, err := config.ParseTimeZone(s.Value); err != nil {
				return nil, errorf("Invalid time zone '%s' for %s: %v", s.Value, s.Key, err)
			}
		}
	}
	if err := t.checkOption(s.Key, s.Value); err != nil {
		return nil, err
	}
	t.config.conf.Set(s.Key, s.Value)
	if s.Key == config.RuntimeMode.Key {
		t.impliedMode = ""
	}
	return okResult(), nil
}

// checkConfig reports a value of a known option, set through
// TableConfig.GetConfiguration, that the option cannot take; a job is not
// started with it (Flink fails reading such a value rather than falling
// back to the default).
func (t *TableEnvironment) checkConfig() error {
	m := t.config.conf.ToMap()
	for _, k := range physical.SortedKeys(m) {
		if err := t.checkOption(k, m[k]); err != nil {
			return err
		}
	}
	return nil
}

func (t *TableEnvironment) resultZone() *time.Location {
	z, err := t.config.conf.TimeZone()
	if err != nil {
		return time.Local
	}
	return z
}

// maxWidth is the session's maximum column width; runQuery's checkConfig
// has refused a value that is not one.
func (t *TableEnvironment) maxWidth() int {
	n, err := config.DisplayMaxColumnWidth(t.config.conf.Get)
	if err != nil {
		return 30
	}
	return n
}

// bindQuery binds a query AST.
func (x *execution) bindQuery(q *sql.Query) (plan.Node, error) {
	return binder.BindQuery(x.env.bindContext(), q, x.text, x.base)
}

// query plans and starts a SELECT.
func (x *execution) query(q *sql.Query) (*TableResult, error) {
	n, err := x.bindQuery(q)
	if err != nil {
		return nil, err
	}
	return x.env.runQuery(x.ctx, n, x.source(q))
}

// resultBufferBytes is the byte bound of a query's result buffer: twice
// collect-sink.batch-size.max (default 2 MB), as Flink's collect sink
// buffers up to two batches before it waits for the client. checkConfig
// has validated the value.
func (t *TableEnvironment) resultBufferBytes() int64 {
	n, err := config.ParseMemorySize(t.config.conf.GetString(config.CollectSinkBatchSizeMax.Key, config.CollectSinkBatchSizeMax.Default))
	if err != nil || n < 1 {
		n = 2 << 20
	}
	if n > math.MaxInt64/2 {
		return math.MaxInt64
	}
	return 2 * n
}

// runQuery plans a bound query into a collect job and starts it.
func (t *TableEnvironment) runQuery(ctx context.Context, n plan.Node, statement string) (*TableResult, error) {
	if err := t.checkConfig(); err != nil {
		return nil, err
	}
	cols := n.Columns()
	root := rules.Optimize(&plan.Sink{Input: n, Collect: true})
	coll := runtime.NewBoundedCollector(64, t.resultBufferBytes())
	phys, err := physical.Plan(root, t.planEnv())
	if err != nil {
		return nil, err
	}
	jc, err := t.submit(ctx, "", statement, phys, coll)
	if err != nil {
		return nil, err
	}
	coll.Attach(jc.job)
	names := make([]string, len(cols))
	ts := make([]*types.DataType, len(cols))
	for i, c := range cols {
		names[i] = c.Name
		ts[i] = c.Type.WithTimeAttr(types.NoTimeAttr)
		if c.Type.IsProctime() {
			ts[i] = c.Type.WithTimeAttr(types.NoTimeAttr)
		}
	}
	return &TableResult{kind: SuccessWithContent, schema: NewTableSchema(names, ts), collector: coll, job: jc,
		query: true, streaming: t.IsStreaming(), zone: t.resultZone(), maxWidth: t.maxWidth(),
		converters: min(t.config.conf.Parallelism(), goruntime.GOMAXPROCS(0))}, nil
}

// insertPlan binds one INSERT into a logical sink.
func (x *execution) insertPlan(ins *sql.Insert) (*plan.Sink, error) {
	t := x.env
	parts := identNames(ins.Table.Parts)
	id, err := t.catalogs.Qualify(parts)
	if err != nil {
		return nil, err
	}
	rt, ok, err := t.catalogs.GetTable(id)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, &ValidationError{Line: ins.Table.Pos().Line, Column: ins.Table.Pos().Column, Msg: fmt.Sprintf("Object '%s' not found", strings.Join(parts, "."))}
	}
	tbl, ok := rt.Table.(*catalog.Table)
	if !ok {
		return nil, &ValidationError{Line: ins.Table.Pos().Line, Column: ins.Table.Pos().Column, Msg: fmt.Sprintf("View '%s' cannot be the target of an INSERT", id.Summary())}
	}
	src, err := x.bindQuery(ins.Source)
	if err != nil {
		return nil, err
	}
	static := map[string]string{}
	for _, p := range ins.Partition {
		static[p.Key] = p.Value
	}
	input, err := mapInsertColumns(src, tbl, ins, static, id.Summary())
	if err != nil {
		return nil, err
	}
	return &plan.Sink{Input: input, ID: id, Table: tbl, Overwrite: ins.Overwrite, Static: static}, nil
}

// mapInsertColumns arranges the query's columns in the order of the
// table's persisted columns (honouring an explicit column list and static
// partition values) and casts them to the column types.
func mapInsertColumns(src plan.Node, tbl *catalog.Table, ins *sql.Insert, static map[string]string, sinkName string) (plan.Node, error) {
	var target []types.Column
	for _, c := range tbl.TableSchema.Columns {
		if c.IsPersisted() {
			target = append(target, c)
		}
	}
	srcCols := src.Columns()
	// which target columns the query supplies, in query order
	var supplied []int
	if len(ins.Columns) > 0 {
		for _, c := range ins.Columns {
			idx := -1
			for i, tc := range target {
				if tc.Name == c.Name {
					idx = i
				}
			}
			if idx < 0 {
				return nil, &ValidationError{Line: c.Pos().Line, Column: c.Pos().Column, Msg: fmt.Sprintf("Unknown target column '%s'", c.Name)}
			}
			supplied = append(supplied, idx)
		}
	} else {
		for i, tc := range target {
			if _, ok := static[tc.Name]; ok {
				continue
			}
			supplied = append(supplied, i)
		}
	}
	// Flink's DynamicSinkUtils.validateSchemaAndApplyImplicitCast: the
	// cause, then both schemas in full
	mismatch := func(cause string) error {
		q := make([]string, len(srcCols))
		for i, c := range srcCols {
			q[i] = c.Name + ": " + c.Type.String()
		}
		k := make([]string, len(target))
		for i, c := range target {
			k[i] = c.Name + ": " + c.Type.String()
		}
		return &ValidationError{Line: ins.Pos().Line, Column: ins.Pos().Column, Msg: fmt.Sprintf(
			"Column types of query result and sink for '%s' do not match.\nCause: %s\n\nQuery schema: [%s]\nSink schema:  [%s]",
			sinkName, cause, strings.Join(q, ", "), strings.Join(k, ", "))}
	}
	if len(supplied) != len(srcCols) {
		return nil, mismatch("Different number of columns.")
	}
	exprs := make([]expr.Expr, len(target))
	cols := make([]plan.Column, len(target))
	for k, ti := range supplied {
		tc := target[ti]
		var e expr.Expr = &expr.InputRef{Index: k, Name: srcCols[k].Name, T: srcCols[k].Type}
		st := srcCols[k].Type
		if !st.EqualsIgnoreNull(tc.Type) && st.Root != types.Null {
			if !expr.SupportsImplicitCast(st, tc.Type) && !(st.IsString() && tc.Type.IsString()) {
				return nil, mismatch(fmt.Sprintf("Incompatible types for sink column '%s' at position %d.", tc.Name, ti+1))
			}
		}
		if !st.EqualsIgnoreNull(tc.Type) && !avoidsCast(st, tc.Type) {
			e = expr.ImplicitCast(e, tc.Type.WithNullable(st.Nullable))
		}
		exprs[ti] = e
		cols[ti] = plan.Column{Name: tc.Name, Type: e.Type()}
	}
	for i, tc := range target {
		if exprs[i] != nil {
			continue
		}
		var v any
		t := tc.Type.WithNullable(true)
		if sv, ok := static[tc.Name]; ok {
			cv, err := expr.CastValue(sv, types.StringType(), tc.Type, time.UTC)
			if err != nil {
				return nil, err
			}
			v = cv
		} else if !tc.Type.Nullable {
			return nil, errorf("Column '%s' has no default value and does not allow NULLs", tc.Name)
		}
		exprs[i] = &expr.Literal{Value: v, T: t}
		cols[i] = plan.Column{Name: tc.Name, Type: t}
	}
	// the query's columns as they are need no projection, and the sink
	// keeps their names (Flink's LogicalSink(fields=[EXPR$0, ...]))
	identity := len(exprs) == len(srcCols)
	for i, e := range exprs {
		r, ok := e.(*expr.InputRef)
		if !identity || !ok || r.Index != i || !srcCols[i].Type.Equals(cols[i].Type) {
			identity = false
			break
		}
	}
	if identity {
		return src, nil
	}
	return &plan.Project{Input: src, Exprs: exprs, Cols: cols}, nil
}

// inserts plans INSERT statements into one job (a statement set).
func (x *execution) inserts(ins []*sql.Insert) (*TableResult, error) {
	t := x.env
	if len(ins) == 0 {
		return nil, errorf("A statement set must contain at least one INSERT")
	}
	var sinks []plan.Node
	for _, i := range ins {
		s, err := x.insertPlan(i)
		if err != nil {
			return nil, err
		}
		sinks = append(sinks, s)
	}
	return t.runInserts(x.ctx, sinks, x.text)
}

func (t *TableEnvironment) runInserts(ctx context.Context, sinks []plan.Node, statement string) (*TableResult, error) {
	if err := t.checkConfig(); err != nil {
		return nil, err
	}
	var roots []*physical.Node
	var names []string
	for _, s := range sinks {
		names = append(names, s.(*plan.Sink).ID.Summary())
	}
	for _, s := range mergeSameSinks(sinks, t.IsStreaming()) {
		opt := rules.Optimize(s)
		p, err := physical.Plan(opt, t.planEnv())
		if err != nil {
			return nil, err
		}
		roots = append(roots, p)
	}
	g, nodes, err := jobgraph.Build(nil, t.reuse(), roots...)
	if err != nil {
		return nil, err
	}
	name := t.config.conf.GetString(config.PipelineName.Key, "")
	if name == "" {
		name = "insert-into_" + strings.Join(names, ",")
	}
	job, err := t.startJob(ctx, name, g)
	if err != nil {
		return nil, err
	}
	jc := &JobClient{job: job, statement: statement, plan: roots[0], nodes: nodes}
	t.mu.Lock()
	t.jobs = append(t.jobs, jc)
	t.mu.Unlock()
	ts := make([]*types.DataType, len(names))
	vals := make([]any, len(names))
	for i := range names {
		// Flink declares the affected-row-count columns nullable BIGINT.
		ts[i] = types.BigIntType()
		vals[i] = int64(-1)
	}
	res := &TableResult{kind: SuccessWithContent, schema: NewTableSchema(names, ts), static: []*types.Row{types.NewRow(vals...)}, job: jc,
		message: "[INFO] Submitting SQL update statement to the cluster...\n[INFO] SQL update statement has been successfully submitted to the cluster:\nJob ID: " + job.ID}
	if t.config.conf.GetBoolean(config.DMLSync.Key, false) {
		if err := jc.Wait(ctx); err != nil {
			if ctx.Err() != nil {
				// the statement was cancelled (Ctrl+C, Stop): its job
				// with it, as riffle gateway does for a synchronous INSERT
				_ = jc.Cancel()
			}
			return nil, err
		}
		res.message = "[INFO] Complete execution of the SQL update statement."
	}
	return res, nil
}

// explain renders EXPLAIN output.
func (x *execution) explain(e *sql.Explain) (*TableResult, error) {
	logical, d, err := x.explainLogical(e)
	if err != nil {
		return nil, err
	}
	text, err := x.env.explainNodes(logical, d)
	if err != nil {
		return nil, err
	}
	return &TableResult{kind: SuccessWithContent, schema: NewTableSchema([]string{"result"}, []*types.DataType{types.StringType()}), static: []*types.Row{types.NewRow(text)}}, nil
}

// explainLogical binds the statement of an EXPLAIN into logical sinks.
func (x *execution) explainLogical(e *sql.Explain) ([]plan.Node, physical.ExplainDetail, error) {
	var d physical.ExplainDetail
	for _, det := range e.Details {
		switch det {
		case "ESTIMATED_COST":
			d.EstimatedCost = true
		case "CHANGELOG_MODE":
			d.ChangelogMode = true
		case "JSON_EXECUTION_PLAN":
			d.JSONPlan = true
		}
	}
	var logical []plan.Node
	switch s := e.Stmt.(type) {
	case *sql.Query:
		n, err := x.bindQuery(s)
		if err != nil {
			return nil, d, err
		}
		logical = append(logical, &plan.Sink{Input: n, Collect: true})
	case *sql.Insert:
		p, err := x.insertPlan(s)
		if err != nil {
			return nil, d, err
		}
		logical = append(logical, p)
	case *sql.StatementSet:
		for _, i := range s.Statements {
			p, err := x.insertPlan(i)
			if err != nil {
				return nil, d, err
			}
			logical = append(logical, p)
		}
	case *sql.Execute:
		return x.explainLogical(&sql.Explain{Span: e.Span, Details: e.Details, Stmt: s.Stmt})
	default:
		return nil, d, errorf("EXPLAIN of %T is not supported", e.Stmt)
	}
	return logical, d, nil
}

// explainNodes renders Flink's three EXPLAIN sections for logical sinks.
func (t *TableEnvironment) explainNodes(logical []plan.Node, d physical.ExplainDetail) (string, error) {
	text, _, err := t.explainPlans(logical, d)
	return text, err
}

// explainPlans renders the EXPLAIN sections and returns the physical
// plans they print.
func (t *TableEnvironment) explainPlans(logical []plan.Node, d physical.ExplainDetail) (string, []*physical.Node, error) {
	// the plans of a statement set's sinks are separated by a blank line
	// in each section, as Flink prints them
	var ast, phys []string
	var roots, shownRoots []*physical.Node
	for _, l := range logical {
		if s, ok := l.(*plan.Sink); ok && s.Collect {
			// a query is explained without its collect sink, as Flink does
			ast = append(ast, plan.Explain(s.Input))
		} else {
			ast = append(ast, plan.Explain(l))
		}
	}
	// the optimized plans write each table once (mergeSameSinks)
	for _, l := range mergeSameSinks(logical, t.IsStreaming()) {
		p, err := physical.Plan(rules.Optimize(l), t.planEnv())
		if err != nil {
			return "", nil, err
		}
		roots = append(roots, p)
		shown := p
		if s, ok := l.(*plan.Sink); ok && s.Collect {
			shown = physical.QueryRoot(p)
		}
		shownRoots = append(shownRoots, shown)
		phys = append(phys, physical.Explain(shown, d, t.IsStreaming()))
	}
	exec := physical.ExplainExecution(shownRoots, t.IsStreaming(), t.reuse())
	out := "== Abstract Syntax Tree ==\n" + strings.Join(ast, "\n") + "\n== Optimized Physical Plan ==\n" + strings.Join(phys, "\n") + "\n== Optimized Execution Plan ==\n" + exec
	if d.JSONPlan {
		for _, r := range roots {
			out += "\n== Physical Execution Plan ==\n" + physical.JSONPlan(r) + "\n"
		}
	}
	return out, roots, nil
}

// ExplainSQL returns the plan of a statement (PyFlink's explain_sql).
//
// It fails for syntax and validation errors (a *sql.Error or *ValidationError
// with line and column) and for a detail that is not one of the
// ExplainDetail constants.
func (t *TableEnvironment) ExplainSQL(statement string, details ...ExplainDetail) (string, error) {
	if _, err := explainDetails(details); err != nil {
		return "", err
	}
	st, err := sql.Parse(statement)
	if err != nil {
		return "", err
	}
	var names []string
	for _, d := range details {
		names = append(names, string(d))
	}
	res, err := t.ExecuteParsed(context.Background(), &sql.Explain{Span: spanOf(st), Details: names, Stmt: st}, statement, sql.Pos{})
	if err != nil {
		return "", err
	}
	return res.static[0].Values[0].(string), nil
}

func spanOf(n sql.Node) sql.Span { return sql.Span{Start: n.Pos(), EndOff: n.End()} }

// ExplainDetail asks EXPLAIN for extra information (PyFlink's ExplainDetail).
type ExplainDetail string

// Explain details.
const (
	EstimatedCost     ExplainDetail = "ESTIMATED_COST"
	ChangelogMode     ExplainDetail = "CHANGELOG_MODE"
	JSONExecutionPlan ExplainDetail = "JSON_EXECUTION_PLAN"
	PlanAdvice        ExplainDetail = "PLAN_ADVICE"
)

// avoidsCast reports a query column type the sink takes without a cast
// (Flink's LogicalTypeCasts.supportsAvoidingCast): a character or binary
// string into a VARCHAR / VARBINARY at least as long.
func avoidsCast(from, to *types.DataType) bool {
	switch {
	case from.IsString() && to.Root == types.VarChar:
		return from.Length <= to.Length
	case from.IsBinary() && to.Root == types.VarBinary:
		return from.Length <= to.Length
	}
	return false
}
