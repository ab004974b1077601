package expr

import (
	"fmt"
	"strings"

	"github.com/riffle-sql/riffle/engine/types"
)

// TO_CHANGELOG (Flink 2.3's built-in PTF, FLIP-564): every change of the
// input table becomes an insert with an operation code column,
//
//	SELECT * FROM TO_CHANGELOG(input => TABLE t [PARTITION BY k],
//	    [op => DESCRIPTOR(op_column)], [op_mapping => MAP['INSERT', 'I', ...]])
//
// The output is the partition keys, the op column (named op by default)
// and the input's other columns, in their order. The codes are the row
// kinds' names (INSERT, UPDATE_BEFORE, UPDATE_AFTER, DELETE), or those of
// op_mapping, which then also drops the kinds it does not map.
func init() {
	def := &ProcessTableFunctionDef{
		Args: []PTFArg{
			{Name: "input", Table: true, SetSemantics: true, OptionalPartitionBy: true, SupportUpdates: true},
			{Name: "op", Descriptor: true, Optional: true},
			{Name: "op_mapping", Type: types.MapType(types.StringType(), types.StringType()), Optional: true},
		},
		Derive: deriveToChangelog,
	}
	Builtins.Register(&Function{Name: "TO_CHANGELOG", Kind: ProcessTableKind, Category: "Changelog", Process: def,
		Signatures:  []string{"TO_CHANGELOG(input => TABLE t [PARTITION BY k], [op => DESCRIPTOR(name)], [op_mapping => MAP<STRING, STRING>])"},
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
				return nil, nil, fmt.Errorf("Invalid op_mapping key '%s'. Supported keys are: [INSERT, UPDATE_BEFORE, UPDATE_AFTER, DELETE]", ks)
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
