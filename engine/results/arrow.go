package results

import (
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/riffle-sql/riffle/engine/types"
)

// AddRecord applies a batch: row i of rec with kinds[i] (kinds nil = all
// INSERT), under one lock. The record's columns must match the Result's in
// number and order; their Arrow types are read as described by the Arrow
// schema (e.g. a timestamp's unit).
func (r *Result) AddRecord(rec arrow.RecordBatch, kinds []types.RowKind) error {
	if int(rec.NumCols()) != len(r.cols) {
		return fmt.Errorf("results: record has %d columns, result has %d", rec.NumCols(), len(r.cols))
	}
	n := int(rec.NumRows())
	if kinds != nil && len(kinds) != n {
		return fmt.Errorf("results: %d row kinds for %d rows", len(kinds), n)
	}
	get := make([]func(i int) any, len(r.cols))
	for c := range r.cols {
		g, err := arrowGetter(rec.Column(c))
		if err != nil {
			return fmt.Errorf("results: column %s: %w", r.cols[c].Name, err)
		}
		get[c] = g
	}
	values := make([]any, len(r.cols))
	r.mu.Lock()
	defer r.mu.Unlock()
	var first error
	for i := 0; i < n; i++ {
		for c := range values {
			values[c] = get[c](i)
		}
		kind := types.Insert
		if kinds != nil {
			kind = kinds[i]
		}
		if err := r.addLocked(kind, values); err != nil && first == nil {
			first = err
		}
	}
	r.changed()
	return first
}

// arrowGetter returns a function giving element i of arr as a Go value of
// engine/types' conventions (nil for null).
func arrowGetter(arr arrow.Array) (func(i int) any, error) {
	var get func(i int) any
	switch a := arr.(type) {
	case *array.Boolean:
		get = func(i int) any { return a.Value(i) }
	case *array.Int8:
		get = func(i int) any { return a.Value(i) }
	case *array.Int16:
		get = func(i int) any { return a.Value(i) }
	case *array.Int32:
		get = func(i int) any { return a.Value(i) }
	case *array.Int64:
		get = func(i int) any { return a.Value(i) }
	case *array.Float32:
		get = func(i int) any { return a.Value(i) }
	case *array.Float64:
		get = func(i int) any { return a.Value(i) }
	case *array.String:
		get = func(i int) any { return a.Value(i) }
	case *array.LargeString:
		get = func(i int) any { return a.Value(i) }
	case *array.StringView:
		get = func(i int) any { return a.Value(i) }
	case *array.Binary:
		get = func(i int) any { return a.Value(i) }
	case *array.LargeBinary:
		get = func(i int) any { return a.Value(i) }
	case *array.FixedSizeBinary:
		get = func(i int) any { return a.Value(i) }
	case *array.Decimal128:
		scale := a.DataType().(*arrow.Decimal128Type).Scale
		get = func(i int) any { return types.Decimal{Unscaled: a.Value(i), Scale: scale} }
	case *array.Date32:
		get = func(i int) any { return types.Date(a.Value(i)) }
	case *array.Time32:
		unit := a.DataType().(*arrow.Time32Type).Unit
		get = func(i int) any { return types.LocalTime(int64(a.Value(i)) * int64(unit.Multiplier())) }
	case *array.Time64:
		unit := a.DataType().(*arrow.Time64Type).Unit
		get = func(i int) any { return types.LocalTime(int64(a.Value(i)) * int64(unit.Multiplier())) }
	case *array.Timestamp:
		unit := a.DataType().(*arrow.TimestampType).Unit
		get = func(i int) any { return a.Value(i).ToTime(unit).UTC() }
	case *array.Duration:
		unit := a.DataType().(*arrow.DurationType).Unit
		get = func(i int) any { return time.Duration(int64(a.Value(i)) * int64(unit.Multiplier())) }
	case *array.MonthInterval:
		get = func(i int) any { return types.Months(a.Value(i)) }
	case *array.List:
		elem, err := arrowGetter(a.ListValues())
		if err != nil {
			return nil, err
		}
		get = func(i int) any {
			start, end := a.ValueOffsets(i)
			out := make([]any, 0, end-start)
			for j := start; j < end; j++ {
				out = append(out, elem(int(j)))
			}
			return out
		}
	case *array.Map:
		keys, err := arrowGetter(a.Keys())
		if err != nil {
			return nil, err
		}
		items, err := arrowGetter(a.Items())
		if err != nil {
			return nil, err
		}
		get = func(i int) any {
			start, end := a.ValueOffsets(i)
			m := &types.Map{}
			for j := start; j < end; j++ {
				m.Keys = append(m.Keys, keys(int(j)))
				m.Values = append(m.Values, items(int(j)))
			}
			return m
		}
	case *array.Struct:
		fields := make([]func(int) any, a.NumField())
		for f := range fields {
			g, err := arrowGetter(a.Field(f))
			if err != nil {
				return nil, err
			}
			fields[f] = g
		}
		get = func(i int) any {
			row := &types.Row{Kind: types.Insert, Values: make([]any, len(fields))}
			for f, g := range fields {
				row.Values[f] = g(i)
			}
			return row
		}
	case *array.Null:
		return func(int) any { return nil }, nil
	default:
		return nil, fmt.Errorf("unsupported Arrow type %s", arr.DataType())
	}
	return func(i int) any {
		if arr.IsNull(i) {
			return nil
		}
		return get(i)
	}, nil
}
