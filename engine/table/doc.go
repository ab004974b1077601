// Package table is Riffle's public Go API, the counterpart of PyFlink's
// pyflink.table: a TableEnvironment runs Flink SQL statements and builds
// Tables; results come back as TableResults whose rows carry a RowKind.
//
//	env, _ := table.Create(table.InBatchMode())
//	env.ExecuteSQLContext(ctx, `CREATE TABLE t (a INT) WITH ('connector' = 'datagen', 'number-of-rows' = '3')`)
//	res, _ := env.ExecuteSQLContext(ctx, "SELECT COUNT(*) FROM t")
//	for row, err := range res.Rows(ctx) { ... }
//
// Engines embed it exactly as the Riffle workbench does: the workbench
// reaches the engine only through this package.
//
// # Two layers: Go first, PyFlink's names second
//
// The primary API is Go's: everything that runs a statement or a job, or
// waits for one, takes a context.Context first and returns an error;
// getters have no Get prefix (Table.Schema, TableResult.JobClient,
// TableConfig.IdleStateRetention); Python's keyword arguments are
// functional options (ExecuteInsertContext(ctx, "sink", Overwrite()));
// streamed rows are an iter.Seq2[*types.Row, error] (TableResult.Rows,
// Table.Rows).
//
// The rule for names: where PyFlink's name is kept with its Python-shaped
// signature (no context), the Go-first method is that name plus Context,
// as database/sql pairs Exec and ExecContext: Table.ExecuteContext and
// Execute, TableResult.WaitContext and Wait(timeout), CollectContext and
// Collect, ExecuteSQLContext and ExecuteSQL. The form without Context is
// the Context form called with context.Background() (Wait: with a
// deadline of timeout).
//
// The PyFlink-shaped names stay available as a thin compatibility layer
// in pyflink_names.go: get_* getters and context-free calls, each a
// one-line delegation to the Go-first method its doc comment names, and
// the planner switches PyFlink keeps as no-ops (UseBlinkPlanner,
// SetNullCheck, ...), so the seeds' examples read one to one
// (example_seed_test.go). docs/API.md maps every PyFlink class and method
// to both names. Methods a user implements (AggregateFunction.GetValue,
// Module.FunctionDefinition) keep the name their interface gives.
package table
