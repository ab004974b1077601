package expr

import (
	"fmt"
	"strings"

	"github.com/riffle-sql/riffle/engine/types"
)

// SQL/JSON functions (Flink's "json" list): IS JSON, JSON_EXISTS,
// JSON_VALUE, JSON_QUERY, JSON_STRING, JSON_OBJECT and JSON_ARRAY.
//
// The binder passes the SQL/JSON clauses as trailing arguments:
//
//	JSON_EXISTS(json, path, <on error>)
//	JSON_VALUE(json, path, <returning>, <on empty>, <empty default>, <on error>, <error default>)
//	JSON_QUERY(json, path, <returning>, <wrapper>, <on empty>, <on error>)
//	JSON_OBJECT(<on null>, <raw mask>, key1, value1, ...)
//	JSON_ARRAY(<on null>, <raw mask>, value1, ...)
//
// where <on ...>, <wrapper> and <on null> are symbols (NULL, ERROR,
// DEFAULT, TRUE, FALSE, UNKNOWN, EMPTY ARRAY, EMPTY OBJECT; WITHOUT ARRAY,
// WITH CONDITIONAL ARRAY, WITH UNCONDITIONAL ARRAY; NULL, ABSENT),
// <returning> is a NULL literal of the RETURNING type and <raw mask> a
// symbol of 0/1 flags marking values that are JSON text produced by a
// nested JSON constructor (inserted as JSON, not as a string). Missing
// trailing arguments take Flink's defaults: FALSE ON ERROR for
// JSON_EXISTS, NULL ON EMPTY / NULL ON ERROR and RETURNING STRING for
// JSON_VALUE and JSON_QUERY, WITHOUT ARRAY WRAPPER, NULL ON NULL for
// JSON_OBJECT and ABSENT ON NULL for JSON_ARRAY.

func symbolAt(v []any, i int, def string) string {
	if i < len(v) {
		if s, ok := v[i].(string); ok && s != "" {
			return strings.ToUpper(s)
		}
	}
	return def
}

func symbolLit(c *InferCtx, i int, def string) string {
	if s, ok := symbolArg(c, i); ok && s != "" {
		return s
	}
	return def
}

func init() {
	for _, what := range []string{"VALUE", "SCALAR", "ARRAY", "OBJECT"} {
		kind := what
		registerRowFn(rowFn{name: "IS JSON " + kind, category: "JSON", args: []argKind{kString},
			sig: "string IS JSON " + kind + " -> BOOLEAN NOT NULL, whether the string is valid JSON" +
				map[string]string{"VALUE": "", "SCALAR": " of a scalar", "ARRAY": " of an array", "OBJECT": " of an object"}[kind],
			ret: types.BooleanType().NotNull(), exactNull: true, nullSafe: true,
			eval: func(_ *Ctx, v []any) (any, error) {
				if v[0] == nil {
					return false, nil
				}
				doc, err := parseJSON(v[0].(string))
				if err != nil {
					return false, nil
				}
				switch kind {
				case "SCALAR":
					switch doc.(type) {
					case []any, *jsonObject:
						return false, nil
					}
				case "ARRAY":
					_, ok := doc.([]any)
					return ok, nil
				case "OBJECT":
					_, ok := doc.(*jsonObject)
					return ok, nil
				}
				return true, nil
			}})
	}

	Builtins.Register(&Function{Name: "JSON_EXISTS", Category: "JSON", MinArgs: 2, MaxArgs: 3,
		Signatures: []string{"JSON_EXISTS(jsonValue, path [ { TRUE | FALSE | UNKNOWN | ERROR } ON ERROR ]) -> BOOLEAN"},
		Infer: func(c *InferCtx) (*types.DataType, error) {
			if err := jsonDocArgs(c); err != nil {
				return nil, err
			}
			c.CastArg(0, types.StringType())
			c.CastArg(1, types.StringType())
			return types.BooleanType(), nil
		},
		Build: func(args []*types.DataType, ret *types.DataType) (Kernel, error) {
			return func(_ *Ctx, a []*Vec, n int) (*Vec, error) {
				onError := "FALSE"
				if len(a) == 3 {
					onError = symbolAt([]any{a[2].Val}, 0, "FALSE")
				}
				return rowWise(a[:2], n, ret, false, func(v []any) (any, error) {
					fail := func(err error) (any, error) {
						switch onError {
						case "TRUE":
							return true, nil
						case "UNKNOWN":
							return nil, nil
						case "ERROR":
							return nil, &EvalError{Func: "JSON_EXISTS", Msg: err.Error()}
						}
						return false, nil
					}
					doc, err := parseJSON(v[0].(string))
					if err != nil {
						return fail(err)
					}
					p, err := parseJSONPath(v[1].(string))
					if err != nil {
						return fail(err)
					}
					vals, _, err := p.eval(doc)
					if err != nil {
						return fail(err)
					}
					return len(vals) > 0, nil
				})
			}, nil
		}})

	Builtins.Register(&Function{Name: "JSON_VALUE", Category: "JSON", MinArgs: 2, MaxArgs: 7,
		Signatures: []string{"JSON_VALUE(jsonValue, path [RETURNING type] [ { NULL | ERROR | DEFAULT expr } ON EMPTY ] [ { NULL | ERROR | DEFAULT expr } ON ERROR ]) -> the scalar at path (STRING by default)"},
		Infer: func(c *InferCtx) (*types.DataType, error) {
			if err := jsonDocArgs(c); err != nil {
				return nil, err
			}
			c.CastArg(0, types.StringType())
			c.CastArg(1, types.StringType())
			ret := types.StringType()
			if len(c.Args) > 2 && c.Args[2].Root != types.Null {
				ret = c.Args[2]
			}
			switch {
			case ret.IsString(), ret.IsNumeric(), ret.Root == types.Boolean, ret.IsDatetime():
			default:
				return nil, typeErrorf("Unsupported RETURNING type %s for JSON_VALUE", ret)
			}
			for _, i := range []int{4, 6} {
				if i < len(c.Args) && c.Args[i].Root != types.Null && !ret.IsString() {
					if !SupportsImplicitCast(c.Args[i], ret) {
						return nil, typeErrorf("Illegal default value of type %s for JSON_VALUE RETURNING %s", c.Args[i], ret)
					}
					c.CastArg(i, ret.WithNullable(c.Args[i].Nullable))
				}
			}
			return ret.WithNullable(true), nil
		},
		Build: func(args []*types.DataType, ret *types.DataType) (Kernel, error) {
			return func(ctx *Ctx, a []*Vec, n int) (*Vec, error) {
				return rowWise(a, n, ret, true, func(v []any) (any, error) {
					if v[0] == nil || v[1] == nil {
						return nil, nil
					}
					onEmpty, onError := symbolAt(v, 3, "NULL"), symbolAt(v, 5, "NULL")
					behave := func(kind string, def any, err error, which string) (any, error) {
						switch kind {
						case "ERROR":
							if err == nil {
								err = fmt.Errorf("Empty result of JSON_VALUE function is not allowed")
							}
							return nil, &EvalError{Func: "JSON_VALUE", Msg: err.Error()}
						case "DEFAULT":
							if def != nil && ret.IsString() {
								// the default becomes a string as String.valueOf
								// does (sql_functions.yml: DEFAULT FALSE gives "false")
								if _, ok := def.(string); !ok {
									def = types.FormatValue(def)
								}
							}
							return def, nil
						}
						return nil, nil
					}
					var emptyDef, errDef any
					if len(v) > 4 {
						emptyDef = v[4]
					}
					if len(v) > 6 {
						errDef = v[6]
					}
					doc, err := parseJSON(v[0].(string))
					if err != nil {
						return behave(onError, errDef, err, "error")
					}
					p, err := parseJSONPath(v[1].(string))
					if err != nil {
						return behave(onError, errDef, err, "error")
					}
					vals, multi, err := p.eval(doc)
					if err != nil {
						return behave(onError, errDef, err, "error")
					}
					if len(vals) == 0 || (len(vals) == 1 && vals[0] == nil && !multi) {
						return behave(onEmpty, emptyDef, nil, "empty")
					}
					if multi || len(vals) != 1 {
						return behave(onError, errDef, fmt.Errorf("Strict jsonpath mode requires scalar value, and the actual value is: '%s'", jsonText(vals)), "error")
					}
					var text string
					switch x := vals[0].(type) {
					case []any, *jsonObject:
						return behave(onError, errDef, fmt.Errorf("Strict jsonpath mode requires scalar value, and the actual value is: '%s'", jsonText(x)), "error")
					case string:
						text = x
					case bool:
						text = fmt.Sprint(x)
					case jsonNumber:
						text = normalizeJSONNumber(string(x))
					}
					if ret.IsString() {
						return fitString(text, nil, ret), nil
					}
					out, err := CastValue(text, types.StringType(), ret, zoneOf(ctx))
					if err != nil {
						return behave(onError, errDef, err, "error")
					}
					return out, nil
				})
			}, nil
		}})

	Builtins.Register(&Function{Name: "JSON_QUERY", Category: "JSON", MinArgs: 2, MaxArgs: 6,
		Signatures: []string{"JSON_QUERY(jsonValue, path [RETURNING STRING | ARRAY<STRING>] [ { WITHOUT | WITH CONDITIONAL | WITH UNCONDITIONAL } [ ARRAY ] WRAPPER ] [ { NULL | EMPTY ARRAY | EMPTY OBJECT | ERROR } ON EMPTY ] [ { NULL | EMPTY ARRAY | EMPTY OBJECT | ERROR } ON ERROR ]) -> the JSON value at path"},
		Infer: func(c *InferCtx) (*types.DataType, error) {
			if err := jsonDocArgs(c); err != nil {
				return nil, err
			}
			c.CastArg(0, types.StringType())
			c.CastArg(1, types.StringType())
			ret := types.StringType()
			if len(c.Args) > 2 && c.Args[2].Root != types.Null {
				ret = c.Args[2]
				if !ret.IsString() && !(ret.Root == types.ArrayRoot && ret.Elem.IsString()) {
					return nil, typeErrorf("Unsupported RETURNING type %s for JSON_QUERY; STRING or ARRAY<STRING> is supported", ret)
				}
			}
			return ret.WithNullable(true), nil
		},
		Build: func(args []*types.DataType, ret *types.DataType) (Kernel, error) {
			asArray := ret.Root == types.ArrayRoot
			return func(_ *Ctx, a []*Vec, n int) (*Vec, error) {
				var syms []any
				for _, x := range a[2:] {
					syms = append(syms, x.Val)
				}
				wrapper := symbolAt(syms, 1, "WITHOUT ARRAY")
				onEmpty, onError := symbolAt(syms, 2, "NULL"), symbolAt(syms, 3, "NULL")
				return rowWise(a[:2], n, ret, false, func(v []any) (any, error) {
					behave := func(kind string, err error) (any, error) {
						switch kind {
						case "ERROR":
							if err == nil {
								err = fmt.Errorf("Empty result of JSON_QUERY function is not allowed")
							}
							return nil, &EvalError{Func: "JSON_QUERY", Msg: err.Error()}
						case "EMPTY ARRAY":
							if asArray {
								return []any{}, nil
							}
							return "[]", nil
						case "EMPTY OBJECT":
							if asArray {
								return nil, nil
							}
							return "{}", nil
						}
						return nil, nil
					}
					doc, err := parseJSON(v[0].(string))
					if err != nil {
						return behave(onError, err)
					}
					p, err := parseJSONPath(v[1].(string))
					if err != nil {
						return behave(onError, err)
					}
					vals, multi, err := p.eval(doc)
					if err != nil {
						return behave(onError, err)
					}
					if len(vals) == 0 {
						return behave(onEmpty, nil)
					}
					var val any
					if multi {
						val = vals
					} else {
						val = vals[0]
					}
					if val == nil {
						return behave(onEmpty, nil)
					}
					_, isArr := val.([]any)
					_, isObj := val.(*jsonObject)
					switch wrapper {
					case "WITH UNCONDITIONAL ARRAY":
						val = []any{val}
					case "WITH CONDITIONAL ARRAY":
						if !isArr {
							val = []any{val}
						}
					default:
						if !isArr && !isObj {
							return behave(onError, fmt.Errorf("Strict jsonpath mode requires array or object value, and the actual value is: '%s'", jsonText(val)))
						}
					}
					if asArray {
						arr, ok := val.([]any)
						if !ok {
							return behave(onError, fmt.Errorf("JSON_QUERY RETURNING ARRAY needs an array, got '%s'", jsonText(val)))
						}
						out := make([]any, len(arr))
						for i, e := range arr {
							switch x := e.(type) {
							case nil:
								out[i] = nil
							case string:
								out[i] = x
							default:
								out[i] = jsonText(x)
							}
						}
						return out, nil
					}
					return jsonText(val), nil
				})
			}, nil
		}})

	registerRowFn(rowFn{name: "JSON_STRING", category: "JSON", args: []argKind{kAny},
		sig: "JSON_STRING(value) -> STRING, the value serialised as JSON; NULL for NULL",
		ret: types.StringType(),
		retFn: func(c *InferCtx) (*types.DataType, error) {
			return types.StringType(), nil
		},
		eval: func(ctx *Ctx, v []any) (any, error) {
			if x, ok := v[0].(types.Variant); ok {
				return x.String(), nil // a VARIANT is JSON already (as in Flink)
			}
			return jsonText(sqlToJSON(v[0], nil, zoneOf(ctx))), nil
		}})

	jsonBuild := func(name string, object bool) {
		Builtins.Register(&Function{Name: name, Category: "JSON", MinArgs: 2, MaxArgs: -1,
			Signatures: map[bool][]string{
				true:  {"JSON_OBJECT([[KEY] key VALUE value]* [ { NULL | ABSENT } ON NULL ]) -> STRING NOT NULL"},
				false: {"JSON_ARRAY([value]* [ { NULL | ABSENT } ON NULL ]) -> STRING NOT NULL"}}[object],
			Infer: func(c *InferCtx) (*types.DataType, error) {
				if object {
					for i := 2; i < len(c.Args); i += 2 {
						if !c.Args[i].IsString() {
							return nil, typeErrorf("The key of JSON_OBJECT must be a string, got %s", c.Args[i])
						}
						if c.Args[i].Nullable {
							return nil, typeErrorf("The key of JSON_OBJECT must not be nullable")
						}
					}
				}
				return types.StringType().NotNull(), nil
			},
			Build: func(args []*types.DataType, ret *types.DataType) (Kernel, error) {
				return func(ctx *Ctx, a []*Vec, n int) (*Vec, error) {
					def := "ABSENT"
					if object {
						def = "NULL"
					}
					onNull := symbolAt([]any{a[0].Val}, 0, def)
					mask, _ := a[1].Val.(string)
					zone := zoneOf(ctx)
					return rowWise(a[2:], n, ret, true, func(v []any) (any, error) {
						conv := func(i int) any {
							if i < len(mask) && mask[i] == '1' && v[i] != nil {
								return jsonRaw(v[i].(string))
							}
							return sqlToJSON(v[i], args[i+2], zone)
						}
						if object {
							o := &jsonObject{}
							for i := 0; i+1 < len(v); i += 2 {
								if v[i+1] == nil && onNull == "ABSENT" {
									continue
								}
								o.keys = append(o.keys, v[i].(string))
								o.vals = append(o.vals, conv(i+1))
							}
							return jsonText(o), nil
						}
						arr := []any{}
						for i := range v {
							if v[i] == nil && onNull == "ABSENT" {
								continue
							}
							arr = append(arr, conv(i))
						}
						return jsonText(arr), nil
					})
				}, nil
			}})
	}
	jsonBuild("JSON_OBJECT", true)
	jsonBuild("JSON_ARRAY", false)
}

// jsonDocArgs checks the JSON document and path arguments of JSON_EXISTS,
// JSON_VALUE and JSON_QUERY: character strings, or for the document also
// a VARIANT (Flink reads its JSON text).
func jsonDocArgs(c *InferCtx) error {
	if c.Args[0].Root == types.VariantRoot {
		return stringArgs(c, 1)
	}
	return stringArgs(c, 0, 1)
}
