package table

import (
	"fmt"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/types"
)

// Process table functions (Flink 2's PTFs, ProcessTableFunction): a table
// function that takes a table, row by row or partitioned by keys (TABLE t
// PARTITION BY k), with typed state per partition key and event-time
// timers, both kept in checkpoints and savepoints. Define one with a
// ProcessTableFunctionDef, wrap it with PTF, register it with
// CreateTemporarySystemFunction (or CreateTemporaryFunction) and call it
// in FROM:
//
//	SELECT * FROM f(r => TABLE t PARTITION BY name, threshold => 10,
//	                on_time => DESCRIPTOR(ts), uid => 'f1')
//
// See docs/ptf.md.
type (
	// ProcessTableFunctionDef declares a PTF's arguments, output columns
	// and state, and builds its instances (one per parallel task).
	ProcessTableFunctionDef = expr.ProcessTableFunctionDef
	// PTFArg declares a table or scalar argument with Flink's traits.
	PTFArg = expr.PTFArg
	// PTFState declares a state entry (Flink's @StateHint).
	PTFState = expr.PTFState
	// ProcessTableFunction is a PTF's code: Eval per input row.
	ProcessTableFunction = expr.ProcessTableFunction
	// PTFTimerFunction is implemented by a PTF with timers: OnTimer.
	PTFTimerFunction = expr.PTFTimerFunction
	// PTFContext gives Eval state, timers, time and Collect.
	PTFContext = expr.PTFContext
	// PTFTimerContext is OnTimer's context.
	PTFTimerContext = expr.PTFTimerContext
	// PTFRow is the input row Eval runs for.
	PTFRow = expr.PTFRow
)

// ProcessTableFunctionKind is the kind of a PTF (Flink's PROCESS_TABLE).
const ProcessTableFunctionKind = expr.ProcessTableKind

// SetSemanticTable declares a table argument with set semantics (Flink's
// ArgumentTrait.SET_SEMANTIC_TABLE): called as TABLE t PARTITION BY k.
func SetSemanticTable(name string) PTFArg { return PTFArg{Name: name, Table: true, SetSemantics: true} }

// RowSemanticTable declares a table argument with row semantics (Flink's
// ArgumentTrait.ROW_SEMANTIC_TABLE): each row on its own, no state or
// timers.
func RowSemanticTable(name string) PTFArg { return PTFArg{Name: name, Table: true} }

// ScalarArg declares a scalar argument of type t.
func ScalarArg(name string, t *types.DataType) PTFArg { return PTFArg{Name: name, Type: t} }

// PTFEvalFunc adapts a func to ProcessTableFunction (a PTF without
// timers).
type PTFEvalFunc func(ctx PTFContext, row *PTFRow) error

// Eval implements ProcessTableFunction.
func (f PTFEvalFunc) Eval(ctx PTFContext, row *PTFRow) error { return f(ctx, row) }

// PTF wraps a process table function definition for registration. The
// options WithName and WithDeterministic apply; a definition Flink would
// reject (reserved argument names on_time and uid, an optional table
// argument, pass-through with updates, more than one table argument)
// makes the wrapper's Err report it.
func PTF(def *ProcessTableFunctionDef, opts ...FunctionOption) *UserDefinedFunction {
	f := &UserDefinedFunction{name: "ptf", kind: expr.ProcessTableKind, impl: def, deterministic: true, id: udfIDs.Add(1)}
	for _, o := range opts {
		o(f)
	}
	if err := def.Validate(); err != nil {
		f.err = err
	}
	return f
}

// attachProcess makes fn a process table function: SQL calls it in FROM;
// called as a scalar it fails saying so.
func (f *UserDefinedFunction) attachProcess(fn *expr.Function) {
	fn.Process = f.impl.(*ProcessTableFunctionDef)
	fn.Infer = func(c *expr.InferCtx) (*types.DataType, error) {
		return nil, fmt.Errorf("%s is a process table function: call it in FROM, as in SELECT * FROM %s(TABLE t PARTITION BY k, ...)", c.Name, c.Name)
	}
}

// StateValue returns a PTF state entry as a T; ok is false while it is
// unset (NULL) or holds another Go type.
func StateValue[T any](ctx PTFContext, name string) (v T, ok bool) {
	v, ok = ctx.State(name).(T)
	return v, ok
}
