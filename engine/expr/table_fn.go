package expr

import (
	"fmt"

	"github.com/riffle-sql/riffle/engine/types"
)

// Table functions: functions of Kind TableKind that produce zero or more
// rows for each input row (Flink's TableFunction / UDTF). SQL calls them
// in FROM:
//
//	SELECT t.a, s.word FROM t, LATERAL TABLE(split(t.text)) AS s(word)
//	SELECT t.a, s.word FROM t LEFT JOIN LATERAL TABLE(split(t.text)) AS s(word) ON TRUE
//	SELECT t.a, e FROM t CROSS JOIN UNNEST(t.arr) AS u(e)
//	SELECT * FROM TABLE(split('a b'))
//
// and the planner runs them in a Correlate operator, which evaluates the
// argument expressions over each input batch, calls the function once per
// input row and appends the function's columns to the input row (INNER:
// input rows without output are dropped; LEFT: they are kept once with
// NULLs).
//
// To add a table function, register a *Function with Kind TableKind whose
// Infer returns the output row type (a ROW whose fields name and type the
// output columns; a function with one output column conventionally names
// it f0) and whose Table returns the TableFunction for the resolved
// argument types:
//
//	reg.Register(&expr.Function{Name: "SPLIT_WORDS", Kind: expr.TableKind,
//	    MinArgs: 1, MaxArgs: 1,
//	    Infer: func(c *expr.InferCtx) (*types.DataType, error) {
//	        return types.RowType(types.NewField("word", types.StringType())), nil
//	    },
//	    Table: func(args []*types.DataType, ret *types.DataType) (expr.TableFunction, error) {
//	        return expr.TableFunctionFunc(func(ctx *expr.Ctx, args []any, emit func([]any) error) error {
//	            for _, w := range strings.Fields(args[0].(string)) {
//	                if err := emit([]any{w}); err != nil {
//	                    return err
//	                }
//	            }
//	            return nil
//	        }), nil
//	    }})

// TableFunction evaluates a table function.
type TableFunction interface {
	// Eval is called once per input row with the argument values (Go
	// values as described in package types; nil is NULL; arguments are
	// not NULL-checked, a function decides what NULL means). It calls emit
	// once per output row with one value per output column of the row type
	// (emit copies the slice, so it may be reused). An error fails the job
	// with the function's name.
	Eval(ctx *Ctx, args []any, emit func(row []any) error) error
}

// TableFunctionFunc adapts a function to TableFunction.
type TableFunctionFunc func(ctx *Ctx, args []any, emit func(row []any) error) error

// Eval implements TableFunction.
func (f TableFunctionFunc) Eval(ctx *Ctx, args []any, emit func(row []any) error) error {
	return f(ctx, args, emit)
}

// TableCall is a resolved table function call: the function, its
// arguments (over the correlated input row) and its output row type.
type TableCall struct {
	Name string
	Fn   *Function
	Args []Expr
	// T is the output row type (ROW with one field per output column).
	T *types.DataType
}

// String renders the call as Flink's plans do: "UNNEST($2)".
func (c *TableCall) String() string {
	s := c.Name + "("
	for i, a := range c.Args {
		if i > 0 {
			s += ", "
		}
		s += a.String()
	}
	return s + ")"
}

// ResolveTableCall type-checks a call of table function f.
func ResolveTableCall(f *Function, name string, args []Expr) (*TableCall, error) {
	if f.Kind != TableKind || f.Table == nil {
		return nil, typeErrorf("Function '%s' is not a table function", name)
	}
	c, err := ResolveCall(f, name, args)
	if err != nil {
		return nil, err
	}
	if c.T.Root != types.RowRoot {
		return nil, fmt.Errorf("table function %s must return a ROW type, got %s", name, c.T)
	}
	return &TableCall{Name: c.Name, Fn: f, Args: c.Args, T: c.T}, nil
}

func init() {
	Builtins.Register(&Function{Name: "UNNEST", Kind: TableKind, Category: "Collection", MinArgs: 1, MaxArgs: 2,
		Signatures: []string{"UNNEST(array or map or multiset) [WITH ORDINALITY] -> one row per element (ROW elements expand into columns; MAP gives key and value columns)"},
		Infer: func(c *InferCtx) (*types.DataType, error) {
			t := c.Args[0]
			var fields []types.Field
			switch t.Root {
			case types.ArrayRoot, types.MultisetRoot:
				et := t.Elem
				if et.Root == types.RowRoot {
					for _, f := range et.Fields {
						ft := f.Type
						if et.Nullable {
							ft = ft.WithNullable(true)
						}
						fields = append(fields, types.Field{Name: f.Name, Type: ft})
					}
				} else {
					fields = append(fields, types.Field{Name: "EXPR$0", Type: et})
				}
			case types.MapRoot:
				fields = append(fields, types.Field{Name: "KEY", Type: t.Key}, types.Field{Name: "VALUE", Type: t.Value})
			default:
				return nil, typeErrorf("UNNEST requires an ARRAY, MAP or MULTISET argument, got %s", t)
			}
			if len(c.Args) == 2 {
				fields = append(fields, types.Field{Name: "ORDINALITY", Type: types.IntType().NotNull()})
			}
			return types.RowType(fields...), nil
		},
		Table: func(args []*types.DataType, ret *types.DataType) (TableFunction, error) {
			t := args[0]
			ordinality := len(args) == 2
			rowElems := (t.Root == types.ArrayRoot || t.Root == types.MultisetRoot) && t.Elem.Root == types.RowRoot
			nFields := 0
			if rowElems {
				nFields = len(t.Elem.Fields)
			}
			return TableFunctionFunc(func(ctx *Ctx, a []any, emit func([]any) error) error {
				row := make([]any, len(ret.Fields))
				out := func(pos int, vals ...any) error {
					copy(row, vals)
					if ordinality {
						row[len(row)-1] = int32(pos)
					}
					return emit(row)
				}
				elem := func(pos int, e any) error {
					if !rowElems {
						return out(pos, e)
					}
					vals := make([]any, nFields)
					if r, ok := e.(*types.Row); ok {
						copy(vals, r.Values)
					}
					return out(pos, vals...)
				}
				switch x := a[0].(type) {
				case []any:
					for i, e := range x {
						if err := elem(i+1, e); err != nil {
							return err
						}
					}
				case *types.Map:
					pos := 0
					for i, k := range x.Keys {
						if t.Root == types.MultisetRoot {
							n, _ := toInt64(x.Values[i])
							for c := int64(0); c < n; c++ {
								pos++
								if err := elem(pos, k); err != nil {
									return err
								}
							}
							continue
						}
						pos++
						if err := out(pos, k, x.Values[i]); err != nil {
							return err
						}
					}
				}
				return nil
			}), nil
		}})
	// REPLICATE_ROWS(n, v1, v2, ...) emits (v1, v2, ...) n times; the
	// planner uses it for INTERSECT ALL and EXCEPT ALL, as Flink does.
	Builtins.Register(&Function{Name: "REPLICATE_ROWS", Kind: TableKind, Category: "Internal", Internal: true,
		MinArgs: 2, MaxArgs: -1,
		Infer: func(c *InferCtx) (*types.DataType, error) {
			if !c.Args[0].IsIntegral() {
				return nil, invalidArgs(c)
			}
			fields := make([]types.Field, len(c.Args)-1)
			for i, t := range c.Args[1:] {
				fields[i] = types.Field{Name: fmt.Sprintf("f%d", i), Type: t}
			}
			return types.RowType(fields...), nil
		},
		Table: func(args []*types.DataType, ret *types.DataType) (TableFunction, error) {
			return TableFunctionFunc(func(ctx *Ctx, a []any, emit func([]any) error) error {
				n, _ := toInt64(a[0])
				for i := int64(0); i < n; i++ {
					if err := emit(a[1:]); err != nil {
						return err
					}
				}
				return nil
			}), nil
		}})
}
