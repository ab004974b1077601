package table

import (
	"fmt"
	"reflect"
	"runtime/debug"
	"sync"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/types"
)

// ---------------------------------------------------------------- Go funcs

// goFunc describes a plain Go func used as a function.
type goFunc struct {
	v        reflect.Value
	t        reflect.Type
	params   []reflect.Type // value parameters (without the emit func)
	inTypes  []*types.DataType
	outType  *types.DataType
	variadic bool
	errOut   bool // returns error last
	hasOut   bool // returns a value
	// emit is the emit parameter of a table function.
	emit reflect.Type
	// typedInputs is set when inTypes came from the func's parameters.
	typedInputs bool
}

func newGoFunc(f any, table bool) (*goFunc, error) {
	rv := reflect.ValueOf(f)
	if rv.Kind() != reflect.Func || rv.IsNil() {
		return nil, fmt.Errorf("expected a function implementation or a Go func, got %T", f)
	}
	t := rv.Type()
	g := &goFunc{v: rv, t: t, variadic: t.IsVariadic()}
	nIn := t.NumIn()
	if table {
		if nIn == 0 || t.In(nIn-1).Kind() != reflect.Func || g.variadic {
			return nil, fmt.Errorf("a table function's last parameter must be an emit func, as in func(x int32, emit func(int32)), got %s", t)
		}
		g.emit = t.In(nIn - 1)
		if g.emit.NumOut() > 0 {
			return nil, fmt.Errorf("the emit func of %s must not return values", t)
		}
		nIn--
		var fields []types.Field
		for i := 0; i < g.emit.NumIn(); i++ {
			ft, err := typeOfGo(g.emit.In(i))
			if err != nil {
				return nil, fmt.Errorf("emit parameter %d: %w", i, err)
			}
			fields = append(fields, types.NewField(fmt.Sprintf("f%d", i), ft.AsNullable()))
		}
		if len(fields) == 1 && fields[0].Type.Root == types.RowRoot {
			fields = fields[0].Type.Fields
		}
		g.outType = types.RowType(fields...)
	}
	for i := 0; i < nIn; i++ {
		pt := t.In(i)
		g.params = append(g.params, pt)
		if g.variadic && i == nIn-1 {
			pt = pt.Elem()
		}
		it, err := typeOfGo(pt)
		if err != nil {
			if pt == rtAny || pt == rtRowPtr || pt == rtMapPtr {
				it = nil
			} else {
				return nil, fmt.Errorf("parameter %d: %w", i, err)
			}
		}
		g.inTypes = append(g.inTypes, it)
	}
	// inputs of type any accept anything: no declared input types then
	for _, it := range g.inTypes {
		if it == nil {
			g.inTypes = nil
			break
		}
	}
	switch t.NumOut() {
	case 0:
	case 1:
		if t.Out(0) == rtError {
			g.errOut = true
		} else {
			g.hasOut = true
		}
	case 2:
		if t.Out(1) != rtError {
			return nil, fmt.Errorf("a func returning two values must return (value, error), got %s", t)
		}
		g.hasOut, g.errOut = true, true
	default:
		return nil, fmt.Errorf("too many results in %s", t)
	}
	if table && g.hasOut {
		return nil, fmt.Errorf("a table function emits its rows and returns nothing or an error, got %s", t)
	}
	if !table {
		if !g.hasOut {
			return nil, fmt.Errorf("a scalar function must return a value, got %s", t)
		}
		ot, err := typeOfGo(t.Out(0))
		if err == nil {
			// results may always be NULL when the inputs are
			g.outType = ot.AsNullable()
		}
	}
	return g, nil
}

// args converts engine values to the func's parameters; ok is false when
// a NULL reached a parameter that cannot hold it.
func (g *goFunc) args(vals []any) ([]reflect.Value, bool, error) {
	out := make([]reflect.Value, 0, len(vals)+1)
	fixed := len(g.params)
	if g.variadic {
		fixed--
	}
	if len(vals) < fixed || (!g.variadic && len(vals) != fixed) {
		return nil, false, fmt.Errorf("called with %d arguments, expects %d", len(vals), fixed)
	}
	for i, v := range vals {
		pt := g.paramType(i)
		rv, ok, err := toGoValue(v, pt)
		if err != nil {
			return nil, false, fmt.Errorf("argument %d: %w", i, err)
		}
		if !ok {
			return nil, false, nil
		}
		out = append(out, rv)
	}
	return out, true, nil
}

func (g *goFunc) paramType(i int) reflect.Type {
	if g.variadic && i >= len(g.params)-1 {
		return g.params[len(g.params)-1].Elem()
	}
	return g.params[i]
}

// call calls the func with converted arguments; the returned value is the
// Go result (nil for none).
func (g *goFunc) call(args []reflect.Value, emit reflect.Value) (any, error) {
	if emit.IsValid() {
		args = append(args, emit)
	}
	res := g.v.Call(args)
	if g.errOut {
		if e := res[len(res)-1]; !e.IsNil() {
			return nil, e.Interface().(error)
		}
	}
	if g.hasOut {
		r := res[0]
		if (r.Kind() == reflect.Pointer || r.Kind() == reflect.Interface || r.Kind() == reflect.Slice || r.Kind() == reflect.Map) && r.IsNil() {
			return nil, nil
		}
		return r.Interface(), nil
	}
	return nil, nil
}

// ---------------------------------------------------------------- instances

// funcInstance is a user function opened for a job.
type funcInstance struct {
	f      *UserDefinedFunction
	mu     sync.Mutex
	ctx    *FunctionContext
	opened bool
}

func (i *funcInstance) open(params map[string]string) (err error) {
	defer recoverUDF(i.f.name, &err)
	i.ctx = &FunctionContext{params: params, metrics: newMetricGroup(i.f.name)}
	if o, ok := i.f.impl.(OpenableFunction); ok {
		if err := o.Open(i.ctx); err != nil {
			return fmt.Errorf("open of function %s failed: %w", i.f.name, err)
		}
	}
	i.opened = true
	return nil
}

func (i *funcInstance) close() (err error) {
	defer recoverUDF(i.f.name, &err)
	if !i.opened {
		return nil
	}
	i.opened = false
	if c, ok := i.f.impl.(ClosableFunction); ok {
		if err := c.Close(); err != nil {
			return fmt.Errorf("close of function %s failed: %w", i.f.name, err)
		}
	}
	return nil
}

// recoverUDF turns a panic of user code into an error naming the
// function, with the stack.
func recoverUDF(name string, err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("user-defined function %s panicked: %v\n%s", name, r, debug.Stack())
	}
}

// evalScalar calls the scalar function on one row.
func (i *funcInstance) evalScalar(vals []any) (out any, err error) {
	defer recoverUDF(i.f.name, &err)
	f := i.f
	if f.goFn != nil {
		args, ok, err := f.goFn.args(vals)
		if err != nil || !ok {
			return nil, err
		}
		return f.goFn.call(args, reflect.Value{})
	}
	return f.impl.(ScalarFunction).Eval(vals...)
}

// evalTable calls the table function on one row and returns the rows it
// emitted.
func (i *funcInstance) evalTable(vals []any) (rows [][]any, err error) {
	defer recoverUDF(i.f.name, &err)
	f := i.f
	out := &Collector{n: len(f.resultType.Fields)}
	if f.goFn != nil {
		args, ok, err := f.goFn.args(vals)
		if err != nil || !ok {
			return nil, err
		}
		emit := reflect.MakeFunc(f.goFn.emit, func(in []reflect.Value) []reflect.Value {
			row := make([]any, len(in))
			for k, v := range in {
				if (v.Kind() == reflect.Pointer || v.Kind() == reflect.Slice || v.Kind() == reflect.Map || v.Kind() == reflect.Interface) && v.IsNil() {
					row[k] = nil
				} else {
					row[k] = v.Interface()
				}
			}
			out.Collect(row...)
			return nil
		})
		if _, err := f.goFn.call(args, emit); err != nil {
			return nil, err
		}
		return out.rows, nil
	}
	if err := f.impl.(TableFunction).Eval(out, vals...); err != nil {
		return nil, err
	}
	return out.rows, nil
}

// instanceSet tracks the functions opened by each running job (keyed by
// the job's expression context) so that they are closed when it ends.
type instanceSet struct {
	mu   sync.Mutex
	jobs map[*expr.Ctx]map[*UserDefinedFunction]*funcInstance
}

var instances = &instanceSet{jobs: map[*expr.Ctx]map[*UserDefinedFunction]*funcInstance{}}

// register starts tracking a job's context.
func (s *instanceSet) register(ctx *expr.Ctx) {
	s.mu.Lock()
	s.jobs[ctx] = map[*UserDefinedFunction]*funcInstance{}
	s.mu.Unlock()
}

// release closes the functions a job opened.
func (s *instanceSet) release(ctx *expr.Ctx) error {
	s.mu.Lock()
	m := s.jobs[ctx]
	delete(s.jobs, ctx)
	s.mu.Unlock()
	var first error
	for _, inst := range m {
		inst.mu.Lock()
		if err := inst.close(); err != nil && first == nil {
			first = err
		}
		inst.mu.Unlock()
	}
	return first
}

// acquire returns the function's instance for a job, opening it on first
// use, locked for the caller until done is called (user functions need not
// be safe for concurrent use). Outside a job (constant folding at planning
// time) a fresh instance is opened and closed around the call.
func (s *instanceSet) acquire(ctx *expr.Ctx, f *UserDefinedFunction) (*funcInstance, func(), error) {
	s.mu.Lock()
	m, tracked := s.jobs[ctx]
	var inst *funcInstance
	if tracked {
		inst = m[f]
		if inst == nil {
			inst = &funcInstance{f: f}
			m[f] = inst
		}
	}
	s.mu.Unlock()
	var params map[string]string
	if ctx != nil {
		params = ctx.JobParams
	}
	if !tracked {
		inst = &funcInstance{f: f}
		if err := inst.open(params); err != nil {
			return nil, nil, err
		}
		return inst, func() { _ = inst.close() }, nil
	}
	inst.mu.Lock()
	if !inst.opened {
		if err := inst.open(params); err != nil {
			inst.mu.Unlock()
			return nil, nil, err
		}
	}
	return inst, inst.mu.Unlock, nil
}

// ---------------------------------------------------------------- aggregate adapter

// aggImpl implements expr.AggregateImpl for AggregateFunction and
// TableAggregateFunction.
type aggImpl struct{ f *UserDefinedFunction }

func (a *aggImpl) Open(ctx *expr.Ctx) (expr.AggregateInstance, error) {
	inst := &funcInstance{f: a.f}
	var params map[string]string
	if ctx != nil {
		params = ctx.JobParams
	}
	if err := inst.open(params); err != nil {
		return nil, err
	}
	return &aggInstance{inst: inst}, nil
}

// SupportsRetraction reports whether the user's function implements
// RetractableFunction, so the planner can reject an updating input before
// the job runs (expr.RetractionSupport).
func (a *aggImpl) SupportsRetraction() bool {
	_, ok := a.f.impl.(RetractableFunction)
	return ok
}

type aggInstance struct{ inst *funcInstance }

func (a *aggInstance) CreateAccumulator() (acc any, err error) {
	defer recoverUDF(a.inst.f.name, &err)
	switch impl := a.inst.f.impl.(type) {
	case AggregateFunction:
		return impl.CreateAccumulator(), nil
	case TableAggregateFunction:
		return impl.CreateAccumulator(), nil
	}
	return nil, fmt.Errorf("%s is not an aggregate function", a.inst.f.name)
}

func (a *aggInstance) Accumulate(acc any, args []any) (err error) {
	defer recoverUDF(a.inst.f.name, &err)
	switch impl := a.inst.f.impl.(type) {
	case AggregateFunction:
		return impl.Accumulate(acc, args...)
	case TableAggregateFunction:
		return impl.Accumulate(acc, args...)
	}
	return nil
}

func (a *aggInstance) Retract(acc any, args []any) (err error) {
	defer recoverUDF(a.inst.f.name, &err)
	if r, ok := a.inst.f.impl.(RetractableFunction); ok {
		return r.Retract(acc, args...)
	}
	return fmt.Errorf("function %s cannot consume an updating input: it does not implement Retract", a.inst.f.name)
}

func (a *aggInstance) Merge(acc any, others []any) (err error) {
	defer recoverUDF(a.inst.f.name, &err)
	if m, ok := a.inst.f.impl.(MergeableFunction); ok {
		return m.Merge(acc, others)
	}
	return fmt.Errorf("function %s does not implement Merge", a.inst.f.name)
}

func (a *aggInstance) GetValue(acc any) (v any, err error) {
	defer recoverUDF(a.inst.f.name, &err)
	f := a.inst.f
	switch impl := f.impl.(type) {
	case AggregateFunction:
		v, err := impl.GetValue(acc)
		if err != nil {
			return nil, err
		}
		return convertValue(v, f.resultType)
	case TableAggregateFunction:
		out := &Collector{n: len(f.resultType.Fields)}
		if err := impl.EmitValue(acc, out); err != nil {
			return nil, err
		}
		rows := make([]any, len(out.rows))
		for i, r := range out.rows {
			cv, err := convertValue(r, f.resultType)
			if err != nil {
				return nil, fmt.Errorf("emitted row %v: %w", r, err)
			}
			rows[i] = cv
		}
		return rows, nil
	}
	return nil, nil
}

func (a *aggInstance) Close() error { return a.inst.close() }
