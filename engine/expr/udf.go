package expr

// User-defined functions as the planner and runtime see them. The public
// Go API (engine/table: ScalarFunction, AggregateFunction, ...) turns a
// user's implementation into a *Function: scalar functions get an Infer
// and a Build (a kernel that loops over the rows), aggregate and table
// aggregate functions an AggregateImpl that the runtime's aggregate
// operators drive through the accumulator adapter of engine/internal/runtime.

// AggregateImpl is the runtime side of a user-defined aggregate function
// (Flink's ImperativeAggregateFunction). The aggregate operator opens one
// instance per parallel subtask when it opens and closes it when it
// closes.
type AggregateImpl interface {
	// Open returns a new instance for an operator of a job (ctx carries
	// the job's parameters).
	Open(ctx *Ctx) (AggregateInstance, error)
}

// RetractionSupport is implemented by an AggregateImpl that can tell the
// planner, before a job runs, whether its function retracts (Flink's
// retract method). An implementation without it is taken to retract.
type RetractionSupport interface {
	SupportsRetraction() bool
}

// CanRetract reports whether the user-defined aggregate function f can
// consume an updating input (-U/-D rows): the planner rejects a streaming
// aggregation over such input when it cannot, as Flink's code generation
// does (ImperativeAggCodeGen.checkNeededMethods). Built-in aggregates
// (f.Aggregate nil) all retract.
func CanRetract(f *Function) bool {
	if f == nil || f.Aggregate == nil {
		return true
	}
	if r, ok := f.Aggregate.(RetractionSupport); ok {
		return r.SupportsRetraction()
	}
	return true
}

// AggregateInstance is an opened user-defined aggregate function. Every
// method may return an error (or panic); the job then fails with the
// function's name in its error.
type AggregateInstance interface {
	// CreateAccumulator returns an empty accumulator for a new group.
	CreateAccumulator() (any, error)
	// Accumulate adds one input row (argument values in the engine's Go
	// value conventions, nil for NULL) to an accumulator. Accumulators are
	// updated in place, so they must be pointers or reference types.
	Accumulate(acc any, args []any) error
	// Retract withdraws an input row; functions that cannot retract return
	// an error saying so.
	Retract(acc any, args []any) error
	// Merge merges other accumulators into acc.
	Merge(acc any, others []any) error
	// GetValue returns the current result of a group, a value of the
	// function's result type.
	GetValue(acc any) (any, error)
	// Close releases the instance.
	Close() error
}

// JobParameter returns a global job parameter of the job evaluating with
// ctx (Flink's FunctionContext.getJobParameter), or def.
func (c *Ctx) JobParameter(key, def string) string {
	if c == nil || c.JobParams == nil {
		return def
	}
	if v, ok := c.JobParams[key]; ok {
		return v
	}
	return def
}
