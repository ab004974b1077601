package expr

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/riffle-sql/riffle/engine/types"
)

// ProcessTableKind is the kind of a process table function (Flink's
// FunctionKind.PROCESS_TABLE): a Function whose Process is set.
const ProcessTableKind FunctionKind = TableAggregateKind + 1

// PTFArg declares one argument of a process table function (Flink's
// StaticArgument with its ArgumentTraits). A table argument (Table) takes
// TABLE t, with row semantics (each row on its own: no state, no timers)
// or set semantics (SetSemantics: TABLE t PARTITION BY k, state and timers
// per partition key); a scalar argument takes a value of Type.
type PTFArg struct {
	// Name is the argument's name for named calls (name => value).
	Name string
	// Table marks a table argument; Type is ignored for it.
	Table bool
	// SetSemantics: the table is partitioned (ArgumentTrait
	// SET_SEMANTIC_TABLE); otherwise it has row semantics
	// (ROW_SEMANTIC_TABLE).
	SetSemantics bool
	// PassColumnsThrough puts all the input row's columns before the
	// function's output columns (ArgumentTrait.PASS_COLUMNS_THROUGH);
	// timers are not available then.
	PassColumnsThrough bool
	// SupportUpdates lets the table be an updating one: Eval sees every
	// change with its row kind (ArgumentTrait.SUPPORT_UPDATES).
	SupportUpdates bool
	// RequireOnTime makes the on_time argument mandatory
	// (ArgumentTrait.REQUIRE_ON_TIME).
	RequireOnTime bool
	// Type is a scalar argument's type; values are cast to it.
	Type *types.DataType
	// Optional scalar arguments may be left out (they are NULL then).
	Optional bool
	// Descriptor marks a scalar argument written DESCRIPTOR(name): its
	// value is the name, a string.
	Descriptor bool
}

// PTFState declares a state entry of a process table function (Flink's
// @StateHint): one value of Type per partition key, NULL until set. It is
// part of every checkpoint and savepoint.
type PTFState struct {
	Name string
	Type *types.DataType
}

// ProcessTableFunctionDef describes a process table function: its
// arguments, its output columns and its state; New returns a fresh
// instance for every parallel task.
type ProcessTableFunctionDef struct {
	Args   []PTFArg
	Output []types.Field
	State  []PTFState
	New    func() ProcessTableFunction
	// UpdatingOutput declares that the function emits changes (Flink's
	// ChangelogFunction, retract mode): rows of every kind through
	// CollectKind. It needs a table with set semantics (unless
	// UpdatingRowSemantics) and no on_time.
	UpdatingOutput bool
	// UpdatingRowSemantics lets a function with UpdatingOutput take a
	// table with row semantics: Flink's built-in FROM_CHANGELOG, whose
	// changelog mode comes from its own ChangelogModeStrategy, is not held
	// to the rule for user-defined ChangelogFunctions.
	UpdatingRowSemantics bool
	// Derive, when set, makes the output columns and the function of a
	// call from its table argument's columns, partition keys (indexes)
	// and scalar arguments (by name): for built-in PTFs whose output
	// follows their input, as TO_CHANGELOG's. Output and New are then
	// ignored; an error fails the call.
	Derive func(in []types.Field, keys []int, args map[string]any) ([]types.Field, func() ProcessTableFunction, error)
}

// ProcessTableFunction is the code of a PTF (Flink's
// ProcessTableFunction.eval): Eval runs for every row of the table
// argument (once in all for a PTF without table argument) and emits rows
// with ctx.Collect.
type ProcessTableFunction interface {
	Eval(ctx PTFContext, row *PTFRow) error
}

// PTFTimerFunction is implemented by a PTF with timers (Flink's onTimer):
// OnTimer runs when the watermark reaches a timer of the partition.
type PTFTimerFunction interface {
	OnTimer(ctx PTFTimerContext) error
}

// PTFRow is the row of the table argument Eval runs for (nil for a PTF
// without table argument): its change kind, column names and values (Go
// values as Riffle's types hold them: int32 for INT, string, time.Time
// for timestamps, ...).
type PTFRow struct {
	Kind   types.RowKind
	Names  []string
	Types  []*types.DataType
	Values []any
}

// Get returns the value of the named column (case-sensitive), or nil.
func (r *PTFRow) Get(name string) any {
	if r == nil {
		return nil
	}
	for i, n := range r.Names {
		if n == name {
			return r.Values[i]
		}
	}
	return nil
}

// String renders the row as Flink's Row.toString does: +I[Bob, 12].
func (r *PTFRow) String() string {
	if r == nil {
		return "null"
	}
	parts := make([]string, len(r.Values))
	for i, v := range r.Values {
		if i < len(r.Types) {
			parts[i] = types.FormatValueAs(v, r.Types[i])
		} else {
			parts[i] = types.FormatValue(v)
		}
	}
	return r.Kind.ShortString() + "[" + strings.Join(parts, ", ") + "]"
}

// PTFContext is what Eval and OnTimer see (Flink's
// ProcessTableFunction.Context with its TimeContext). Times are epoch
// milliseconds.
type PTFContext interface {
	// Collect emits one output row: a value per declared output column.
	// The framework adds the partition keys before them (set semantics)
	// or all input columns (PassColumnsThrough), and the rowtime column
	// after them when on_time is given.
	Collect(values ...any) error
	// CollectKind emits one output row of a change kind (+I, -U, +U, -D):
	// only for functions declaring UpdatingOutput (Flink's
	// ChangelogFunction); Collect emits inserts.
	CollectKind(kind types.RowKind, values ...any) error
	// Arg returns a scalar argument's value (nil when NULL or left out).
	Arg(name string) any
	// PartitionKey returns the values of the PARTITION BY columns.
	PartitionKey() []any
	// State returns the partition's value of a declared state entry (nil
	// until set); SetState replaces it (an error for an undeclared name or
	// a value not of the declared type); ClearState resets it to nil.
	State(name string) any
	SetState(name string, v any) error
	ClearState(name string)
	// ClearAllState resets all state entries of the partition,
	// ClearAllTimers deletes its timers, ClearAll both.
	ClearAllState()
	ClearAllTimers()
	ClearAll()
	// Time is the on_time of the current row (the timer's time in
	// OnTimer); ok is false without on_time.
	Time() (ms int64, ok bool)
	// CurrentWatermark is the input's watermark; ok is false before the
	// first one (Flink's null).
	CurrentWatermark() (ms int64, ok bool)
	// RegisterOnTime sets the named timer of the partition to fire at ms
	// (replacing an earlier time of that name); RegisterOnTimeUnnamed adds
	// a timer that can only be cleared with ClearAllTimers; ClearTimer
	// deletes a named timer. Timers fire, in time order, once the
	// watermark reaches their time; a timer at or before the current
	// watermark is dropped, as Flink drops late timers. Timers need a
	// table with set semantics (without pass-through), not on_time.
	RegisterOnTime(name string, ms int64) error
	RegisterOnTimeUnnamed(ms int64) error
	ClearTimer(name string)
}

// PTFTimerContext is OnTimer's context: CurrentTimer is the firing
// timer's name ("" for an unnamed one).
type PTFTimerContext interface {
	PTFContext
	CurrentTimer() string
}

// PTFReservedArgs are the implicit arguments of every PTF with a table
// argument (on_time) and with a set-semantic one (uid).
var PTFReservedArgs = []string{"on_time", "uid"}

var ptfUIDPattern = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z\-_0-9]*$`)

// ValidPTFUID reports whether s is a valid uid argument.
func ValidPTFUID(s string) bool { return ptfUIDPattern.MatchString(s) }

// Validate checks a definition as Flink checks a PTF's signature.
func (d *ProcessTableFunctionDef) Validate() error {
	if d == nil {
		return fmt.Errorf("nil process table function definition")
	}
	if d.New == nil && d.Derive == nil {
		return fmt.Errorf("a process table function needs New")
	}
	if len(d.Output) == 0 && d.Derive == nil {
		return fmt.Errorf("a process table function needs at least one output column")
	}
	seen := map[string]bool{}
	tables := 0
	for _, a := range d.Args {
		l := strings.ToLower(a.Name)
		for _, r := range PTFReservedArgs {
			if l == r {
				return fmt.Errorf("Function signature must not declare system arguments. Reserved argument names are: [on_time, uid]")
			}
		}
		if a.Name == "" || seen[l] {
			return fmt.Errorf("invalid or duplicate argument name '%s'", a.Name)
		}
		seen[l] = true
		if a.Table {
			tables++
			if a.Optional {
				return fmt.Errorf("Table arguments must not be optional.")
			}
			if a.SupportUpdates && a.PassColumnsThrough {
				return fmt.Errorf("Signatures with updating inputs must not pass columns through.")
			}
		} else if a.Type == nil && !a.Descriptor {
			return fmt.Errorf("scalar argument '%s' needs a type", a.Name)
		}
	}
	if tables > 1 {
		return fmt.Errorf("process table functions with more than one table argument are not supported yet")
	}
	states := map[string]bool{}
	for _, s := range d.State {
		if s.Name == "" || s.Type == nil || states[s.Name] {
			return fmt.Errorf("invalid or duplicate state entry '%s'", s.Name)
		}
		states[s.Name] = true
	}
	for _, f := range d.Output {
		if f.Type == nil || f.Name == "" {
			return fmt.Errorf("output column '%s' needs a name and a type", f.Name)
		}
	}
	return nil
}

// TableArg returns the index of the table argument, or -1.
func (d *ProcessTableFunctionDef) TableArg() int {
	for i, a := range d.Args {
		if a.Table {
			return i
		}
	}
	return -1
}
