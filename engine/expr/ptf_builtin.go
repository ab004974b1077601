package expr

import (
	"fmt"
	"strings"

	"github.com/riffle-sql/riffle/engine/types"
)

// TO_CHANGELOG (Flink 2.3's built-in PTF, FLIP-564): every change of the
// input table becomes an insert with an operation code column,
//
//	SELECT * FROM TO_CHANGELOG(input => TABLE t,
//	    [op => DESCRIPTOR(op_column)], [op_mapping => MAP['INSERT', 'I', ...]])
//
// The input is a table with row semantics (as in Flink 2.3.0: no
// PARTITION BY). The output is the op column (named op by default), then
// the input's columns, in their order. The codes are the row
// kinds' names (INSERT, UPDATE_BEFORE, UPDATE_AFTER, DELETE), or those of
// op_mapping, which then also drops the kinds it does not map.
func init() {
	def := &ProcessTableFunctionDef{
		Args: []PTFArg{
			// Flink 2.3.0: {TABLE, ROW SEMANTIC TABLE, SUPPORT UPDATES,
			// REQUIRE UPDATE BEFORE, REQUIRE FULL DELETE}; Riffle's
			// changelogs always carry -U rows and full deletes
			{Name: "input", Table: true, SupportUpdates: true},
			{Name: "op", Descriptor: true, Optional: true},
			{Name: "op_mapping", Type: types.MapType(types.StringType(), types.StringType()), Optional: true},
		},
		Derive: deriveToChangelog,
	}
	Builtins.Register(&Function{Name: "TO_CHANGELOG", Kind: ProcessTableKind, Category: "Changelog", Process: def, MaxArgs: -1,
		Signatures:  []string{"TO_CHANGELOG(input => {TABLE, ROW SEMANTIC TABLE, SUPPORT UPDATES, REQUIRE UPDATE BEFORE, REQUIRE FULL DELETE}, op => DESCRIPTOR, op_mapping => MAP<STRING, STRING>, on_time => DESCRIPTOR, uid => STRING)"},
		Description: "Converts a dynamic table into an append-only stream with an operation code column.",
		Infer: func(c *InferCtx) (*types.DataType, error) {
			return nil, fmt.Errorf("TO_CHANGELOG is a process table function: call it in FROM, as in SELECT * FROM TO_CHANGELOG(input => TABLE t)")
		}})
}

var rowKindNames = []types.RowKind{types.Insert, types.UpdateBefore, types.UpdateAfter, types.Delete}

func deriveToChangelog(in []types.Field, keys []int, args map[string]any) ([]types.Field, func() ProcessTableFunction, error) {
	opName := "op"
	if s, ok := args["op"].(string); ok {
		opName = s
	}
	codes := map[types.RowKind]string{}
	for _, k := range rowKindNames {
		codes[k] = k.String()
	}
	if m, ok := args["op_mapping"].(*types.Map); ok {
		codes = map[types.RowKind]string{}
		for i, k := range m.Keys {
			ks, _ := k.(string)
			kind, err := types.ParseRowKind(ks)
			if err != nil || strings.HasPrefix(ks, "+") || strings.HasPrefix(ks, "-") {
				return nil, nil, fmt.Errorf("Invalid target mapping for argument 'op_mapping'. Unknown change operation: '%s'. Valid values are: [UPDATE_BEFORE, UPDATE_AFTER, INSERT, DELETE].", ks)
			}
			v, _ := m.Values[i].(string)
			codes[kind] = v
		}
	}
	isKey := map[int]bool{}
	for _, k := range keys {
		isKey[k] = true
	}
	out := []types.Field{{Name: opName, Type: types.StringType()}}
	var rest []int
	for i, f := range in {
		if isKey[i] {
			continue
		}
		if strings.EqualFold(f.Name, opName) {
			return nil, nil, fmt.Errorf("The op column name '%s' is already a column of the input table", opName)
		}
		out = append(out, types.Field{Name: f.Name, Type: f.Type.WithNullable(true).WithTimeAttr(types.NoTimeAttr)})
		rest = append(rest, i)
	}
	return out, func() ProcessTableFunction { return &toChangelog{codes: codes, rest: rest} }, nil
}

// toChangelog is TO_CHANGELOG's code.
type toChangelog struct {
	codes map[types.RowKind]string
	rest  []int
}

func (f *toChangelog) Eval(ctx PTFContext, row *PTFRow) error {
	code, ok := f.codes[row.Kind]
	if !ok {
		return nil
	}
	vals := make([]any, 0, 1+len(f.rest))
	vals = append(vals, code)
	for _, i := range f.rest {
		vals = append(vals, row.Values[i])
	}
	return ctx.Collect(vals...)
}

// FROM_CHANGELOG (Flink 2.3's built-in PTF, FLIP-564): the reverse of
// TO_CHANGELOG. Each row of an append-only table carries an operation
// code; the output is the row without the op column, as a change of that
// kind,
//
//	SELECT * FROM FROM_CHANGELOG(input => TABLE t,
//	    [op => DESCRIPTOR(op_column)],
//	    [op_mapping => MAP['c, r', 'INSERT', 'ub', 'UPDATE_BEFORE', ...]])
//
// The input is a table with row semantics, as in Flink 2.3.0: PARTITION
// BY is refused ("Only tables with set semantics may be partitioned").
// The default codes are the row kinds' names; an op_mapping key may list
// several codes separated by commas. A NULL or unknown code fails the job
// ("Received invalid op code 'x'"), as in Flink 2.3.
func init() {
	def := &ProcessTableFunctionDef{
		Args: []PTFArg{
			// Flink 2.3.0: {TABLE, ROW SEMANTIC TABLE}
			{Name: "input", Table: true},
			{Name: "op", Descriptor: true, Optional: true},
			{Name: "op_mapping", Type: types.MapType(types.StringType(), types.StringType()), Optional: true},
		},
		UpdatingOutput:       true,
		UpdatingRowSemantics: true,
		Derive:               deriveFromChangelog,
	}
	Builtins.Register(&Function{Name: "FROM_CHANGELOG", Kind: ProcessTableKind, Category: "Changelog", Process: def, MaxArgs: -1,
		Signatures:  []string{"FROM_CHANGELOG(input => {TABLE, ROW SEMANTIC TABLE}, op => DESCRIPTOR, op_mapping => MAP<STRING, STRING>)"},
		Description: "Converts an append-only stream with an operation code column into a dynamic table.",
		Infer: func(c *InferCtx) (*types.DataType, error) {
			return nil, fmt.Errorf("FROM_CHANGELOG is a process table function: call it in FROM, as in SELECT * FROM FROM_CHANGELOG(input => TABLE t)")
		}})
}

func deriveFromChangelog(in []types.Field, _ []int, args map[string]any) ([]types.Field, func() ProcessTableFunction, error) {
	opName := "op"
	if s, ok := args["op"].(string); ok {
		opName = s
	}
	kinds := map[string]types.RowKind{}
	for _, k := range rowKindNames {
		kinds[k.String()] = k
	}
	if m, ok := args["op_mapping"].(*types.Map); ok {
		kinds = map[string]types.RowKind{}
		for i, k := range m.Keys {
			v, _ := m.Values[i].(string)
			kind, err := types.ParseRowKind(v)
			if err != nil || strings.HasPrefix(v, "+") || strings.HasPrefix(v, "-") {
				return nil, nil, fmt.Errorf("Invalid target mapping for argument 'op_mapping'. Unknown change operation: '%s'. Valid values are: [UPDATE_BEFORE, UPDATE_AFTER, INSERT, DELETE].", v)
			}
			ks, _ := k.(string)
			for _, code := range strings.Split(ks, ",") {
				kinds[strings.TrimSpace(code)] = kind
			}
		}
	}
	opCol := -1
	var out []types.Field
	var rest []int
	for i, f := range in {
		if f.Name == opName {
			opCol = i
			continue
		}
		out = append(out, types.Field{Name: f.Name, Type: f.Type.WithTimeAttr(types.NoTimeAttr)})
		rest = append(rest, i)
	}
	if opCol < 0 {
		return nil, nil, fmt.Errorf("The op column '%s' is not a column of the input table", opName)
	}
	if !in[opCol].Type.IsString() {
		return nil, nil, fmt.Errorf("The op column '%s' must be a string, but is %s", opName, in[opCol].Type)
	}
	return out, func() ProcessTableFunction { return &fromChangelog{kinds: kinds, op: opCol, rest: rest} }, nil
}

// fromChangelog is FROM_CHANGELOG's code.
type fromChangelog struct {
	kinds map[string]types.RowKind
	op    int
	rest  []int
}

func (f *fromChangelog) Eval(ctx PTFContext, row *PTFRow) error {
	code, ok := row.Values[f.op].(string)
	if !ok {
		return fmt.Errorf("Received NULL op code")
	}
	kind, ok := f.kinds[code]
	if !ok {
		return fmt.Errorf("Received invalid op code '%s'", code)
	}
	vals := make([]any, len(f.rest))
	for i, c := range f.rest {
		vals[i] = row.Values[c]
	}
	return ctx.CollectKind(kind, vals...)
}
