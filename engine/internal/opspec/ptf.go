package opspec

import (
	"github.com/riffle-sql/riffle/engine/expr"
)

// PTFSpec is a bound call of a process table function (Flink's
// StreamPhysicalProcessTableFunction): the definition, the table
// argument's partitioning and time column, and the scalar arguments'
// constant values.
type PTFSpec struct {
	// Name is the function's name as called.
	Name string
	Def  *expr.ProcessTableFunctionDef
	// HasTable is false for a PTF called with scalar arguments only (it
	// runs once).
	HasTable bool
	// TableArg is the name of the table argument.
	TableArg string
	// SetSemantics: state and timers per PartitionKeys (indexes of input
	// columns, prepended to the output).
	SetSemantics  bool
	PartitionKeys []int
	// PassThrough puts every input column before the function's output.
	PassThrough bool
	// TimeCol is the on_time column of the input, -1 without on_time.
	TimeCol int
	// UID is the uid argument, "" when not given.
	UID string
	// ScalarNames and Scalars are the scalar arguments' names and values
	// (nil when NULL or left out), in declaration order.
	ScalarNames []string
	Scalars     []any
	// Invocation is the call as EXPLAIN prints it (Flink's
	// invocation=[f(TABLE(#0) PARTITION BY($0), 1, DEFAULT(), DEFAULT())]).
	Invocation string
}
