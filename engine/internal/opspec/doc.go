// Package opspec is the vocabulary the planner and the runtime share:
// the specs of what an operator computes, with no planning or execution
// in them. It holds aggregate calls (AggSpec), join kinds and equi-join
// specs (JoinKind, JoinSpec), ORDER BY keys (SortKey), OVER windows
// (OverGroup, OverCall, OverFrame), time windows and their properties
// (WindowSpec, WindowProp) and how an edge distributes rows to the
// parallel instances of its consumer (Partitioning).
//
// engine/internal/plan builds these values while planning and renders them in
// EXPLAIN (Flink's names: "COUNT(DISTINCT $1)", "TUMBLE(size=[10 s])",
// "InnerJoin"); engine/internal/runtime executes them. The package imports only
// engine/expr and engine/types, never plan or runtime (CockroachDB's
// execinfrapb plays the same role between its optimizer and its flows).
package opspec
