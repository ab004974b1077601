package expr

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/riffle-sql/riffle/engine/types"
)

// Ctx is what kernels see while evaluating: the session time zone and the
// statement's start time (CURRENT_TIMESTAMP in batch mode is fixed per
// query, as in Flink).
type Ctx struct {
	Zone  *time.Location
	Start time.Time
	// Streaming reports streaming mode (CURRENT_TIMESTAMP is evaluated per
	// row in streaming mode, per query in batch mode).
	Streaming bool
	// JobParams are the job's global parameters, read by user-defined
	// functions (FunctionContext.GetJobParameter).
	JobParams map[string]string
	// Now is the processing-time clock of PROCTIME() (nil: time.Now).
	Now func() time.Time
	// Watermark returns the current watermark (epoch ms) of the operator
	// evaluating the expression, for CURRENT_WATERMARK; ok is false
	// before the first watermark (nil: never one).
	Watermark func() (wm int64, ok bool)
	// Scratch, when set, recycles kernel result buffers between batches
	// (scratch.go); only the Calc that owns it sets it, on its own Ctx.
	Scratch *Scratch
}

// DefaultCtx returns a context in the local zone starting now.
func DefaultCtx() *Ctx { return &Ctx{Zone: time.Local, Start: time.Now()} }

// Kernel computes a function over n rows of argument columns.
type Kernel func(ctx *Ctx, args []*Vec, n int) (*Vec, error)

// FunctionKind classifies functions.
type FunctionKind uint8

// Function kinds.
const (
	ScalarKind FunctionKind = iota
	AggregateKind
	TableKind
	TableAggregateKind
)

func (k FunctionKind) String() string {
	return [...]string{"SCALAR", "AGGREGATE", "TABLE", "TABLE_AGGREGATE", "PROCESS_TABLE"}[k]
}

// InferCtx carries a call's argument types into type inference.
type InferCtx struct {
	Name string
	Args []*types.DataType
	// Literals[i] is the literal value of argument i when it is a literal
	// (some functions need constant arguments), else nil.
	Literals []*Literal
	// Casts, when set by Infer, gives the type each argument must be cast to
	// before the kernel runs (nil entries: leave as is).
	Casts []*types.DataType
}

// CastArg asks for argument i to be cast to t (when its type differs).
func (c *InferCtx) CastArg(i int, t *types.DataType) {
	if c.Casts == nil {
		c.Casts = make([]*types.DataType, len(c.Args))
	}
	c.Casts[i] = t
}

// Function is a built-in or user-defined function or operator.
type Function struct {
	Name     string
	Kind     FunctionKind
	Category string
	// Signatures document the accepted forms, e.g. "UPPER(STRING) -> STRING".
	Signatures  []string
	Description string
	// NonDeterministic functions (RAND, NOW in streaming, UUID) are never
	// constant-folded.
	NonDeterministic bool
	// MinArgs and MaxArgs bound the argument count (MaxArgs < 0: variadic).
	MinArgs, MaxArgs int
	// Infer returns the result type for the argument types (and may ask for
	// argument casts), or an error naming the function and the types.
	Infer func(c *InferCtx) (*types.DataType, error)
	// Build returns the kernel for resolved argument and result types.
	Build func(args []*types.DataType, ret *types.DataType) (Kernel, error)
	// Lazy functions get their arguments as evaluators so they can evaluate
	// branches only on the rows that need them (CASE, AND, OR, IF, COALESCE).
	Lazy func(ctx *Ctx, args *LazyArgs, argTypes []*types.DataType, ret *types.DataType) (*Vec, error)
	// UDF marks user-defined functions (SHOW USER FUNCTIONS).
	UDF bool
	// Aggregate is the implementation of a user-defined aggregate function
	// (Kind AggregateKind); nil for built-in aggregates, which the runtime
	// implements by name.
	Aggregate AggregateImpl
	// Table builds the evaluator of a table function (Kind TableKind) for
	// resolved argument types; Infer must return the output row type, a
	// ROW whose fields are the output columns. See TableFunction.
	Table func(args []*types.DataType, ret *types.DataType) (TableFunction, error)
	// Process is the definition of a process table function (Kind
	// ProcessTableKind). See ProcessTableFunctionDef.
	Process *ProcessTableFunctionDef
	// Internal functions are used by the planner and not listed by SHOW
	// FUNCTIONS.
	Internal bool
}

// Registry holds functions by upper-case name.
type Registry struct {
	mu    sync.RWMutex
	funcs map[string]*Function
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{funcs: map[string]*Function{}} }

// Register adds (or replaces) a function under its upper-cased name and
// any aliases.
func (r *Registry) Register(f *Function, aliases ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.funcs[strings.ToUpper(f.Name)] = f
	for _, a := range aliases {
		r.funcs[strings.ToUpper(a)] = f
	}
}

// Lookup finds a function by name, case-insensitively.
func (r *Registry) Lookup(name string) (*Function, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	f, ok := r.funcs[strings.ToUpper(name)]
	return f, ok
}

// Remove deletes a function; it reports whether one existed.
func (r *Registry) Remove(name string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, ok := r.funcs[strings.ToUpper(name)]
	delete(r.funcs, strings.ToUpper(name))
	return ok
}

// Names lists registered names, sorted, excluding operator symbols.
func (r *Registry) Names() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	var out []string
	for n, f := range r.funcs {
		if isWordName(n) && !f.Internal {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

func isWordName(n string) bool {
	for _, c := range n {
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z') {
			return false
		}
	}
	return n != ""
}

// Builtins is the registry of Flink's built-in functions and operators.
// It is filled by the init functions of this package's fn_*.go files.
var Builtins = NewRegistry()

// TypeError is a type-inference failure; the binder adds the position.
type TypeError struct{ Msg string }

func (e *TypeError) Error() string { return e.Msg }

// typeErrorf builds a TypeError.
func typeErrorf(format string, args ...any) error {
	return &TypeError{Msg: fmt.Sprintf(format, args...)}
}

// invalidArgs is Flink's message for arguments no signature accepts:
// "Invalid function call:\nUPPER(INT NOT NULL)".
func invalidArgs(c *InferCtx) error {
	parts := make([]string, len(c.Args))
	for i, a := range c.Args {
		parts[i] = a.String()
	}
	f, _ := Builtins.Lookup(c.Name)
	msg := fmt.Sprintf("Invalid function call:\n%s(%s)", c.Name, strings.Join(parts, ", "))
	if f != nil && len(f.Signatures) > 0 {
		msg += "\nSupported signatures are:\n" + strings.Join(f.Signatures, "\n")
	}
	return &TypeError{Msg: msg}
}

// ResolveCall type-checks a call of f on args and returns the call node
// with argument casts inserted.
func ResolveCall(f *Function, name string, args []Expr) (*Call, error) {
	if len(args) < f.MinArgs || (f.MaxArgs >= 0 && len(args) > f.MaxArgs) {
		want := fmt.Sprintf("%d", f.MinArgs)
		if f.MaxArgs != f.MinArgs {
			if f.MaxArgs < 0 {
				want = fmt.Sprintf("at least %d", f.MinArgs)
			} else {
				want = fmt.Sprintf("%d to %d", f.MinArgs, f.MaxArgs)
			}
		}
		display := strings.ToUpper(name)
		if _, _, inline := strings.Cut(display, "$INLINE"); inline && f.UDF {
			// A Table API call of an unregistered user function goes
			// through an internal "<name>$inline<n>" key, which the user
			// never wrote: show the function's own name.
			display = f.Name
		}
		return nil, typeErrorf("Invalid number of arguments to function '%s'. Was expecting %s arguments, got %d", display, want, len(args))
	}
	ic := &InferCtx{Name: strings.ToUpper(f.Name), Args: make([]*types.DataType, len(args)), Literals: make([]*Literal, len(args))}
	for i, a := range args {
		ic.Args[i] = a.Type()
		if l, ok := a.(*Literal); ok {
			ic.Literals[i] = l
		}
	}
	ret, err := f.Infer(ic)
	if err != nil {
		return nil, err
	}
	out := make([]Expr, len(args))
	copy(out, args)
	for i, t := range ic.Casts {
		if t != nil && !out[i].Type().EqualsIgnoreNull(t) {
			out[i] = ImplicitCast(out[i], t)
		}
	}
	return &Call{Name: strings.ToUpper(f.Name), Fn: f, Args: out, T: ret}, nil
}

// anyNullable reports whether any type is nullable.
func anyNullable(ts []*types.DataType) bool {
	for _, t := range ts {
		if t.Nullable {
			return true
		}
	}
	return false
}
