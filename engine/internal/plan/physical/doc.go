// Package physical translates an optimised logical plan (engine/internal/plan
// nodes, after engine/internal/plan/rules) into the typed physical plan: a tree of
// *Node whose Op is one operator struct per Flink operator
// (TableSourceScan, Calc, Exchange, GroupAggregate, Join, WindowAggregate,
// Sink, ...) with its fields, Flink's name and EXPLAIN attributes. Plan infers each node's changelog mode
// and upsert keys, creates the connectors' sources and sinks (option
// errors surface at planning time), pushes filters, limits and partition
// filters into sources that take them, and rejects what Flink rejects.
// Explain renders EXPLAIN's physical and execution plans (text or
// JSON); engine/internal/jobgraph builds runtime jobs from the operators' fields.
// It imports engine/internal/plan, never the binder, the rules or the runtime.
package physical
