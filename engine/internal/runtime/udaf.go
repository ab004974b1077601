package runtime

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
)

// userAcc adapts a user-defined aggregate function (expr.AggregateImpl) to
// the accumulator interface of the aggregate operators: one accumulator
// object per group, fed row by row with Go values. Errors of the user's
// code cannot travel through the accumulator interface; they panic with a
// UDFError, which the task turns into a job failure naming the function.
type userAcc struct {
	spec opspec.AggSpec
	impl expr.AggregateImpl
	inst expr.AggregateInstance
	accs []any
	args []any
}

// UDFError is the failure of a user-defined function, with its name.
type UDFError struct {
	Func string
	Err  error
}

func (e *UDFError) Error() string {
	return fmt.Sprintf("user-defined function %s failed: %v", e.Func, e.Err)
}

func (e *UDFError) Unwrap() error { return e.Err }

func (a *userAcc) fail(err error) {
	panic(&UDFError{Func: a.spec.Func, Err: err})
}

// open creates the function instance for an operator instance.
func (a *userAcc) open(ctx *OpContext) error {
	var ev *expr.Ctx
	if ctx != nil {
		ev = ctx.Eval
	}
	inst, err := a.impl.Open(ev)
	if err != nil {
		return &UDFError{Func: a.spec.Func, Err: err}
	}
	a.inst = inst
	return nil
}

func (a *userAcc) instance() expr.AggregateInstance {
	if a.inst == nil {
		// operators that do not open accumulators explicitly
		if err := a.open(nil); err != nil {
			panic(err)
		}
	}
	return a.inst
}

func (a *userAcc) close() error {
	if a.inst == nil {
		return nil
	}
	err := a.inst.Close()
	a.inst = nil
	if err != nil {
		return &UDFError{Func: a.spec.Func, Err: err}
	}
	return nil
}

func (a *userAcc) resize(n int) {
	inst := a.instance()
	for len(a.accs) < n {
		acc, err := inst.CreateAccumulator()
		if err != nil {
			a.fail(err)
		}
		a.accs = append(a.accs, acc)
	}
}

func (a *userAcc) rowArgs(args []arrow.Array, i int) []any {
	if cap(a.args) < len(args) {
		a.args = make([]any, len(args))
	}
	vals := a.args[:len(args)]
	for k, col := range args {
		vals[k] = types.ValueAt(col, i, a.spec.ArgTypes[k])
	}
	// the function may keep the slice: give it its own copy
	return append([]any(nil), vals...)
}

func (a *userAcc) update(g int32, args []arrow.Array, i int, retract bool) {
	inst := a.instance()
	vals := a.rowArgs(args, i)
	var err error
	if retract {
		err = inst.Retract(a.accs[g], vals)
	} else {
		err = inst.Accumulate(a.accs[g], vals)
	}
	if err != nil {
		a.fail(err)
	}
}

func (a *userAcc) accumulateBatch(gids []int32, args []arrow.Array) {
	for i, g := range gids {
		if g >= 0 {
			a.update(g, args, i, false)
		}
	}
}

func (a *userAcc) result(g int32) any {
	v, err := a.instance().GetValue(a.accs[g])
	if err != nil {
		a.fail(err)
	}
	return v
}

func (a *userAcc) size() int64 { return int64(len(a.accs)) * 64 }

// newUserAccumulator builds the adapter for a user-defined aggregate call.
func newUserAccumulator(s opspec.AggSpec) accumulator {
	return &userAcc{spec: s, impl: s.Fn.Aggregate}
}

// OpenAccumulators opens the user-defined aggregate functions among an
// operator's accumulators; aggregate operators call it from Open.
func openAccumulators(accs []accumulator, ctx *OpContext) error {
	for _, acc := range accs {
		if u, ok := acc.(*userAcc); ok {
			if err := u.open(ctx); err != nil {
				return err
			}
		}
	}
	return nil
}

// closeAccumulators closes the user-defined aggregate functions among an
// operator's accumulators; aggregate operators call it from Close.
func closeAccumulators(accs []accumulator) error {
	var first error
	for _, acc := range accs {
		if u, ok := acc.(*userAcc); ok {
			if err := u.close(); err != nil && first == nil {
				first = err
			}
		}
	}
	return first
}
