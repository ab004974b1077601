package table

import (
	"errors"
	"fmt"
	"reflect"
	goruntime "runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/types"
)

// ---------------------------------------------------------------- user function interfaces

// ScalarFunction maps zero or more values to one value (PyFlink's
// ScalarFunction). Eval receives the arguments in the engine's Go value
// conventions (nil for NULL; see package types) and returns a value of the
// declared result type (plain Go values are converted: an int for a BIGINT
// result, a []string for an ARRAY<STRING>, ...). Wrap it with UDF, giving
// its result type with WithResultType.
type ScalarFunction interface {
	Eval(args ...any) (any, error)
}

// TableFunction maps zero or more values to zero or more rows (PyFlink's
// TableFunction, whose eval is a generator): Eval emits each row with
// out.Collect. Wrap it with UDTF, giving the row's column types with
// WithResultTypes.
type TableFunction interface {
	Eval(out *Collector, args ...any) error
}

// AggregateFunction aggregates many rows' values into one value (PyFlink's
// AggregateFunction). CreateAccumulator returns a fresh accumulator, which
// Accumulate updates in place (so it must be a pointer or a reference
// type such as a map); GetValue computes the result from it, possibly
// several times (early results in streaming mode). Implement
// RetractableFunction to consume updating input and MergeableFunction for
// two-phase aggregation. Wrap it with UDAF.
type AggregateFunction interface {
	CreateAccumulator() any
	Accumulate(acc any, args ...any) error
	GetValue(acc any) (any, error)
}

// TableAggregateFunction aggregates many rows into zero or more rows per
// group (PyFlink's TableAggregateFunction): EmitValue emits the group's
// rows with out.Collect. In streaming mode a group's previous rows are
// retracted before the new ones are emitted. Wrap it with UDTAF.
type TableAggregateFunction interface {
	CreateAccumulator() any
	Accumulate(acc any, args ...any) error
	EmitValue(acc any, out *Collector) error
}

// RetractableFunction is implemented by aggregate functions that can
// withdraw a previously accumulated row (Flink's retract method), needed
// when the input is an updating table. As in Flink, a streaming
// aggregation (or FlatAggregate) of a function without it over an
// updating input fails when the plan is built (ExecuteSQL, Explain,
// Execute) with "No matching retract method found for AggregateFunction
// '<name>' with parameters '(<types>)'"; batch mode never retracts.
type RetractableFunction interface {
	Retract(acc any, args ...any) error
}

// MergeableFunction is implemented by aggregate functions whose
// accumulators can be merged (Flink's merge method).
type MergeableFunction interface {
	Merge(acc any, others []any) error
}

// ResettableFunction is implemented by aggregate functions that can reset
// an accumulator (Flink's resetAccumulator).
type ResettableFunction interface {
	ResetAccumulator(acc any) error
}

// OpenableFunction is implemented by functions that need set-up before
// the first call (PyFlink's UserDefinedFunction.open): Open is called once
// per job (per operator instance for aggregate functions) with the
// function's context.
type OpenableFunction interface {
	Open(ctx *FunctionContext) error
}

// ClosableFunction is implemented by functions that release resources
// when the job ends (PyFlink's UserDefinedFunction.close).
type ClosableFunction interface {
	Close() error
}

// DeterministicFunction is implemented by functions that tell whether
// they are deterministic (PyFlink's is_deterministic; the default is
// true). Non-deterministic functions are never evaluated at planning time.
type DeterministicFunction interface {
	IsDeterministic() bool
}

// ResultTypedFunction is implemented by functions that declare their
// result type (PyFlink's get_result_type); WithResultType overrides it.
type ResultTypedFunction interface {
	GetResultType() *types.DataType
}

// AccumulatorTypedFunction is implemented by aggregate functions that
// declare their accumulator type (PyFlink's get_accumulator_type). Riffle
// keeps accumulators as Go values, so the type is informational.
type AccumulatorTypedFunction interface {
	GetAccumulatorType() *types.DataType
}

// Collector receives the rows a TableFunction or TableAggregateFunction
// emits (the yield of a PyFlink generator). Collect takes the row's
// column values (a single value for a one-column result; a *types.Row or
// a struct is unboxed into its fields).
type Collector struct {
	rows [][]any
	n    int
}

// Collect emits one row.
func (c *Collector) Collect(values ...any) {
	if len(values) == 1 && c.n != 1 {
		if vals, _, err := rowValues(values[0]); err == nil {
			values = vals
		}
	}
	c.rows = append(c.rows, append([]any(nil), values...))
}

// ---------------------------------------------------------------- wrappers

// FunctionKind tells scalar, table, aggregate and table aggregate
// functions apart.
type FunctionKind = expr.FunctionKind

// Function kinds.
const (
	ScalarFunctionKind         = expr.ScalarKind
	TableFunctionKind          = expr.TableKind
	AggregateFunctionKind      = expr.AggregateKind
	TableAggregateFunctionKind = expr.TableAggregateKind
)

// UserDefinedFunction is a user function ready for registration or inline
// calls (PyFlink's UserDefinedFunctionWrapper, what udf, udtf, udaf and
// udtaf return). Call it on expressions with Call; register it with
// TableEnvironment.CreateTemporarySystemFunction and friends. A wrapper
// built from an invalid function reports the problem through Err and when
// it is used.
type UserDefinedFunction struct {
	name          string
	kind          FunctionKind
	impl          any
	inputTypes    []*types.DataType
	resultType    *types.DataType
	accType       *types.DataType
	deterministic bool
	err           error
	id            int64

	// goFn is set for functions built from plain Go funcs.
	goFn *goFunc

	once sync.Once
	fn   *expr.Function
}

var udfIDs atomic.Int64

// FunctionOption configures UDF, UDTF, UDAF and UDTAF.
type FunctionOption func(*UserDefinedFunction)

// WithName names the function (in plans, errors and SHOW FUNCTIONS before
// registration); the default is the Go type or func name.
func WithName(name string) FunctionOption {
	return func(f *UserDefinedFunction) { f.name = name }
}

// WithResultType declares the result type of a scalar or aggregate
// function (PyFlink's result_type), overriding what is derived from a Go
// func or declared by GetResultType. A nil type (or one holding nil, as an
// invalid datatypes constructor returns) makes the function fail with an
// error when it is used.
func WithResultType(t *types.DataType) FunctionOption {
	return func(f *UserDefinedFunction) {
		f.failType("WithResultType", t)
		f.resultType = t
	}
}

// failType records an error for an invalid declared type.
func (f *UserDefinedFunction) failType(option string, t *types.DataType) {
	if err := checkDataType(t); err != nil && f.err == nil {
		f.err = fmt.Errorf("%s: %w", option, err)
	}
}

// WithResultTypes declares the column types of a table function's or
// table aggregate function's rows (PyFlink's result_types); the columns
// are named f0, f1, ... unless the call is aliased.
func WithResultTypes(ts ...*types.DataType) FunctionOption {
	return func(f *UserDefinedFunction) {
		fields := make([]types.Field, len(ts))
		for i, t := range ts {
			f.failType("WithResultTypes", t)
			fields[i] = types.NewField(fmt.Sprintf("f%d", i), t)
		}
		f.resultType = types.RowType(fields...)
	}
}

// WithInputTypes declares the argument types (PyFlink's input_types);
// arguments are cast to them. Without it any arguments are accepted (a Go
// func's parameter types are used when it is one).
func WithInputTypes(ts ...*types.DataType) FunctionOption {
	return func(f *UserDefinedFunction) {
		for _, t := range ts {
			f.failType("WithInputTypes", t)
		}
		f.inputTypes = ts
	}
}

// WithAccumulatorType declares an aggregate function's accumulator type
// (PyFlink's accumulator_type; informational in Riffle).
func WithAccumulatorType(t *types.DataType) FunctionOption {
	return func(f *UserDefinedFunction) {
		if t != nil {
			f.failType("WithAccumulatorType", t)
		}
		f.accType = t
	}
}

// WithDeterministic declares whether the function is deterministic
// (PyFlink's deterministic); the default is true.
func WithDeterministic(d bool) FunctionOption {
	return func(f *UserDefinedFunction) { f.deterministic = d }
}

func newWrapper(kind FunctionKind, impl any, opts []FunctionOption) *UserDefinedFunction {
	f := &UserDefinedFunction{kind: kind, impl: impl, deterministic: true, id: udfIDs.Add(1)}
	if d, ok := impl.(DeterministicFunction); ok {
		f.deterministic = d.IsDeterministic()
	}
	if r, ok := impl.(ResultTypedFunction); ok {
		f.resultType = r.GetResultType()
	}
	if a, ok := impl.(AccumulatorTypedFunction); ok {
		f.accType = a.GetAccumulatorType()
	}
	for _, o := range opts {
		o(f)
	}
	if f.name == "" {
		f.name = defaultFuncName(impl)
	}
	return f
}

func defaultFuncName(impl any) string {
	if impl == nil {
		return "udf"
	}
	if n := funcName(impl); n != "" {
		return n
	}
	t := reflect.TypeOf(impl)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Name() != "" && t.Kind() != reflect.Func {
		return t.Name()
	}
	return "udf"
}

// UDF wraps a scalar function (PyFlink's udf): f is a ScalarFunction, or a
// plain Go func such as func(a, b int64) int64 whose parameter and result
// types give the function's types: bool BOOLEAN, int8 TINYINT, int16
// SMALLINT, int32 INT, int and int64 BIGINT, float32 FLOAT, float64
// DOUBLE, string STRING, []byte BYTES, types.Decimal DECIMAL(38, 18),
// types.Date DATE, types.LocalTime TIME(9), time.Time TIMESTAMP(9),
// time.Duration INTERVAL SECOND(3), types.Months INTERVAL YEAR TO MONTH,
// []T ARRAY<T>, map[K]V MAP<K, V>, a struct a ROW of its exported fields
// (named by a `table:"name"` tag or the field name). Basic types are NOT
// NULL; a pointer (*int64) is the nullable type, the way to accept or
// return NULL. A time.Time result must lie within TIMESTAMP(9)'s range,
// 1677-09-21 to 2262-04-11 (declare WithResultType(datatypes.Timestamp(6))
// for other dates); outside it the job fails. A func may return (R, error) and may be variadic. When a
// parameter that cannot hold NULL receives NULL, the result is NULL
// without a call. A ScalarFunction needs WithResultType or a
// GetResultType method.
//
// The function's name (in plans, errors and listings) is WithName's, else
// the Go func's or type's name, else "udf" for a closure. Errors in the
// wrapped function (a bad signature, an invalid declared type) are kept
// and reported when the function is called in a Table operation or
// registered; see Err. A panic inside the function fails the job with an
// error holding the panic value and stack instead of crashing the process.
//
//	add := table.UDF(func(i, j int64) int64 { return i + j }, table.WithName("add"))
//	tab.Select(add.Call(table.Col("a"), table.Col("b")))
func UDF(f any, opts ...FunctionOption) *UserDefinedFunction {
	w := newWrapper(ScalarFunctionKind, f, opts)
	switch impl := f.(type) {
	case ScalarFunction:
		if w.resultType == nil {
			w.err = fmt.Errorf("scalar function %s needs a result type (WithResultType)", w.name)
		}
		_ = impl
	default:
		g, err := newGoFunc(f, false)
		if err != nil {
			w.err = fmt.Errorf("UDF: %w", err)
			return w
		}
		w.goFn = g
		if w.inputTypes == nil {
			w.inputTypes = g.inTypes
			w.goFn.typedInputs = true
		}
		if w.resultType == nil {
			if g.outType == nil {
				w.err = fmt.Errorf("UDF %s: the result type of %s cannot be derived; use WithResultType", w.name, g.t)
				return w
			}
			w.resultType = g.outType
		}
	}
	return w
}

// funcName is the name of a named Go func ("" for closures).
func funcName(f any) string {
	rv := reflect.ValueOf(f)
	if rv.Kind() != reflect.Func || rv.IsNil() {
		return ""
	}
	fn := goruntime.FuncForPC(rv.Pointer())
	if fn == nil {
		return ""
	}
	name := fn.Name()
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	// Closures are named funcN, and closures nested in closures funcN.M,
	// whose last part is a bare number.
	if strings.HasPrefix(name, "func") || strings.Contains(name, "-") || name == "" || strings.Trim(name, "0123456789") == "" {
		return ""
	}
	return name
}

// UDTF wraps a table function (PyFlink's udtf): f is a TableFunction, or a
// plain Go func whose last parameter is an emit func, e.g.
//
//	split := table.UDTF(func(x int32, s string, emit func(int32, string)) {
//		for _, p := range strings.Split(s, ",") {
//			emit(x, p)
//		}
//	})
//
// The emit func's parameter types are the result columns (named f0, f1,
// ...). A TableFunction needs WithResultTypes.
func UDTF(f any, opts ...FunctionOption) *UserDefinedFunction {
	w := newWrapper(TableFunctionKind, f, opts)
	if _, ok := f.(TableFunction); ok {
		if w.resultType == nil {
			w.err = fmt.Errorf("table function %s needs result types (WithResultTypes)", w.name)
		}
		return w
	}
	g, err := newGoFunc(f, true)
	if err != nil {
		w.err = fmt.Errorf("UDTF: %w", err)
		return w
	}
	w.goFn = g
	if w.inputTypes == nil {
		w.inputTypes = g.inTypes
		w.goFn.typedInputs = true
	}
	if w.resultType == nil {
		w.resultType = g.outType
	}
	return w
}

// UDAF wraps an aggregate function (PyFlink's udaf). The result type comes
// from WithResultType or the function's GetResultType.
func UDAF(f AggregateFunction, opts ...FunctionOption) *UserDefinedFunction {
	w := newWrapper(AggregateFunctionKind, f, opts)
	if f == nil {
		w.err = errors.New("UDAF: nil function")
	} else if w.resultType == nil {
		w.err = fmt.Errorf("aggregate function %s needs a result type (WithResultType or GetResultType)", w.name)
	}
	return w
}

// UDTAF wraps a table aggregate function (PyFlink's udtaf). The row type
// comes from WithResultType (a ROW type), WithResultTypes or
// GetResultType; a non-ROW result type is one column named f0.
func UDTAF(f TableAggregateFunction, opts ...FunctionOption) *UserDefinedFunction {
	w := newWrapper(TableAggregateFunctionKind, f, opts)
	if f == nil {
		w.err = errors.New("UDTAF: nil function")
	} else if w.resultType == nil {
		w.err = fmt.Errorf("table aggregate function %s needs a result type (WithResultType or GetResultType)", w.name)
	} else if w.resultType.Root != types.RowRoot {
		w.resultType = types.RowType(types.NewField("f0", w.resultType))
	}
	return w
}

// Name returns the function's name.
func (f *UserDefinedFunction) Name() string { return f.name }

// Kind returns the function's kind.
func (f *UserDefinedFunction) Kind() FunctionKind { return f.kind }

// Err reports why the function cannot be used, or nil.
func (f *UserDefinedFunction) Err() error {
	if f == nil {
		return errors.New("nil user-defined function")
	}
	return f.err
}

// ResultType returns the declared or derived result type (for table and
// table aggregate functions, the ROW of their columns).
func (f *UserDefinedFunction) ResultType() *types.DataType { return f.resultType }

// IsDeterministic reports whether the function is deterministic.
func (f *UserDefinedFunction) IsDeterministic() bool { return f.deterministic }

// inlineKey is the name under which an inline call resolves.
func (f *UserDefinedFunction) inlineKey() string { return fmt.Sprintf("%s$inline%d", f.name, f.id) }

// Call applies the function to arguments (PyFlink's calling a wrapper:
// add(tab.a, tab.b)). The call resolves to this function without
// registration. Col("*") as the only argument passes all columns of the
// input as one ROW value (in Map, FlatMap, Aggregate, FlatAggregate and
// JoinLateral).
func (f *UserDefinedFunction) Call(args ...any) Expression {
	if err := f.Err(); err != nil {
		return failed(err)
	}
	key := f.inlineKey()
	if len(args) == 1 {
		if e, ok := args[0].(Expression); ok && e.x != nil && e.x.kind == kindStar {
			return Expression{&exprData{kind: kindUDFRow, udf: f, deps: &exprDeps{funcs: map[string]*UserDefinedFunction{key: f}}}}
		}
	}
	x := derive(func(n []sql.Expr) sql.Expr { return &sql.FuncCall{Name: objName(key), Args: n} }, args...)
	if x.x.err != nil {
		return x
	}
	x.x.udf = f
	x.x.deps = x.x.deps.merge(&exprDeps{funcs: map[string]*UserDefinedFunction{key: f}})
	return x
}

// Alias is the function applied to all columns of the input as one ROW,
// with names for its result columns (PyFlink's wrapper.alias, as in
// tab.FlatMap(split.Alias("a", "b")) or tab.FlatAggregate(top2.Alias("a", "b"))).
func (f *UserDefinedFunction) Alias(name string, extraNames ...string) Expression {
	return f.Call(Col("*")).As(name, extraNames...)
}

// ---------------------------------------------------------------- expr.Function

// function returns the planner's view of the function.
func (f *UserDefinedFunction) function() (*expr.Function, error) {
	if err := f.Err(); err != nil {
		return nil, err
	}
	f.once.Do(func() { f.fn = f.buildFunction() })
	return f.fn, nil
}

func (f *UserDefinedFunction) buildFunction() *expr.Function {
	fn := &expr.Function{Name: f.name, Kind: f.kind, Category: "User-defined", UDF: true,
		NonDeterministic: !f.deterministic, MinArgs: 0, MaxArgs: -1,
		Description: fmt.Sprintf("user-defined %s function", strings.ToLower(f.kind.String()))}
	if f.inputTypes != nil {
		fn.MinArgs, fn.MaxArgs = len(f.inputTypes), len(f.inputTypes)
		if f.goFn != nil && f.goFn.variadic {
			fn.MinArgs, fn.MaxArgs = len(f.inputTypes)-1, -1
		}
	}
	ret := f.resultType
	switch f.kind {
	case TableAggregateFunctionKind:
		// a table aggregate is planned as an aggregate whose value is the
		// array of the rows it emits; FlatAggregate unnests it
		ret = types.ArrayType(f.resultType.NotNull()).NotNull()
		fn.Kind = expr.AggregateKind
	}
	fn.Infer = func(c *expr.InferCtx) (*types.DataType, error) {
		if f.inputTypes != nil {
			for i, a := range c.Args {
				want := f.argType(i)
				if want == nil || a.EqualsIgnoreNull(want) {
					continue
				}
				if a.Root != types.Null && !expr.SupportsImplicitCast(a, want) && !(a.IsString() && want.IsString()) {
					return nil, fmt.Errorf("Invalid argument type at position %d of function %s: expected %s, got %s", i, f.name, want, a)
				}
				c.CastArg(i, want.WithNullable(a.Nullable))
			}
		}
		return ret, nil
	}
	switch f.kind {
	case ScalarFunctionKind:
		fn.Build = func(args []*types.DataType, rt *types.DataType) (expr.Kernel, error) {
			return f.scalarKernel(args, rt), nil
		}
	case AggregateFunctionKind, TableAggregateFunctionKind:
		fn.Aggregate = &aggImpl{f: f}
	case TableFunctionKind:
		f.attachTable(fn)
	case ProcessTableFunctionKind:
		f.attachProcess(fn)
	}
	return fn
}

func (f *UserDefinedFunction) argType(i int) *types.DataType {
	if i < len(f.inputTypes) {
		return f.inputTypes[i]
	}
	if f.goFn != nil && f.goFn.variadic && len(f.inputTypes) > 0 {
		return f.inputTypes[len(f.inputTypes)-1]
	}
	return nil
}

// scalarKernel evaluates the function row by row.
func (f *UserDefinedFunction) scalarKernel(argTypes []*types.DataType, ret *types.DataType) expr.Kernel {
	return func(ctx *expr.Ctx, a []*expr.Vec, n int) (*expr.Vec, error) {
		inst, done, err := instances.acquire(ctx, f)
		if err != nil {
			return nil, err
		}
		defer done()
		b := array.NewBuilder(memory.DefaultAllocator, types.ToArrow(ret))
		defer b.Release()
		b.Reserve(n)
		vals := make([]any, len(a))
		for i := 0; i < n; i++ {
			for k, v := range a {
				vals[k] = v.Value(i)
			}
			out, err := inst.evalScalar(vals)
			if err != nil {
				return nil, &expr.EvalError{Func: f.name, Msg: err.Error()}
			}
			cv, err := convertValue(out, ret)
			if err != nil {
				return nil, &expr.EvalError{Func: f.name, Msg: fmt.Sprintf("result: %v", err)}
			}
			types.AppendValue(b, cv, ret)
		}
		return expr.ArrVec(b.NewArray(), ret), nil
	}
}
