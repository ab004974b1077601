package results

import (
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/riffle-sql/riffle/engine/types"
)

// AddRecord applies a batch: row i of rec with kinds[i] (kinds nil = all
// INSERT). The record's columns must match the Result's in number and
// order; their Arrow types are read as described by the Arrow schema (e.g.
// a timestamp's unit). Values are converted outside the lock and applied
// ingestRows at a time, so readers (the UI) never wait long for a big
// batch (see Result).
func (r *Result) AddRecord(rec arrow.RecordBatch, kinds []types.RowKind) error {
	if int(rec.NumCols()) != len(r.cols) {
		return fmt.Errorf("results: record has %d columns, result has %d", rec.NumCols(), len(r.cols))
	}
	n := int(rec.NumRows())
	if kinds != nil && len(kinds) != n {
		return fmt.Errorf("results: %d row kinds for %d rows", len(kinds), n)
	}
	r.stageMu.Lock()
	defer r.stageMu.Unlock()
	st := r.staging()
	fill := make([]func(i int) error, len(r.cols))
	for c := range r.cols {
		if f := fastAppender(rec.Column(c), st.cols[c], r.specs[c]); f != nil {
			fill[c] = func(i int) error { f(i); return nil }
			continue
		}
		g, err := arrowGetter(rec.Column(c))
		if err != nil {
			return fmt.Errorf("results: column %s: %w", r.cols[c].Name, err)
		}
		if t := r.cols[c].Type; hasVariant(t) {
			// the Arrow type (Binary) does not say VARIANT: the column's does
			col := rec.Column(c)
			g = func(i int) any { return types.ValueAt(col, i, t) }
		}
		dst := st.cols[c]
		fill[c] = func(i int) error {
			if err := dst.appendValue(g(i)); err != nil {
				dst.appendNull()
				return err
			}
			return nil
		}
	}
	var first error
	for lo := 0; lo < n; lo += ingestRows {
		hi := min(n, lo+ingestRows)
		st.reset()
		bad := 0
		for i := lo; i < hi; i++ {
			var rowErr error
			for _, f := range fill {
				if err := f(i); err != nil && rowErr == nil {
					rowErr = err
				}
			}
			if rowErr != nil {
				bad++
				if first == nil {
					first = rowErr
				}
			}
		}
		var ks []types.RowKind
		if kinds != nil {
			ks = kinds[lo:hi]
		}
		r.applyStaged(st, ks, bad)
	}
	return first
}

// fastAppender returns a function appending element i of arr to v without
// boxing it, when arr's Arrow type maps straight onto v's storage; nil
// otherwise (arrowGetter and appendValue then do it).
func fastAppender(arr arrow.Array, v vec, s colSpec) func(i int) {
	withNulls := func(f func(i int)) func(i int) {
		if arr.NullN() == 0 {
			return f
		}
		return func(i int) {
			if arr.IsNull(i) {
				v.appendNull()
				return
			}
			f(i)
		}
	}
	switch s.store {
	case storeInt8:
		if a, ok := arr.(*array.Int8); ok {
			d := v.(*fixedVec[int8])
			return withNulls(func(i int) { d.vals = append(d.vals, a.Value(i)) })
		}
	case storeInt16:
		if a, ok := arr.(*array.Int16); ok {
			d := v.(*fixedVec[int16])
			return withNulls(func(i int) { d.vals = append(d.vals, a.Value(i)) })
		}
	case storeInt32, storeDate, storeMonths:
		d := v.(*fixedVec[int32])
		switch a := arr.(type) {
		case *array.Int32:
			return withNulls(func(i int) { d.vals = append(d.vals, a.Value(i)) })
		case *array.Date32:
			if s.store == storeDate {
				return withNulls(func(i int) { d.vals = append(d.vals, int32(a.Value(i))) })
			}
		case *array.MonthInterval:
			if s.store == storeMonths {
				return withNulls(func(i int) { d.vals = append(d.vals, int32(a.Value(i))) })
			}
		}
	case storeInt64:
		if a, ok := arr.(*array.Int64); ok {
			d := v.(*fixedVec[int64])
			return withNulls(func(i int) { d.vals = append(d.vals, a.Value(i)) })
		}
	case storeFloat32:
		if a, ok := arr.(*array.Float32); ok {
			d := v.(*fixedVec[float32])
			return withNulls(func(i int) { d.vals = append(d.vals, a.Value(i)) })
		}
	case storeFloat64:
		if a, ok := arr.(*array.Float64); ok {
			d := v.(*fixedVec[float64])
			return withNulls(func(i int) { d.vals = append(d.vals, a.Value(i)) })
		}
	case storeBool:
		if a, ok := arr.(*array.Boolean); ok {
			d := v.(*fixedVec[bool])
			return withNulls(func(i int) { d.vals = append(d.vals, a.Value(i)) })
		}
	case storeDecimal:
		if a, ok := arr.(*array.Decimal128); ok && a.DataType().(*arrow.Decimal128Type).Scale == int32(s.typ.Scale) {
			d := v.(*fixedVec[decimal128.Num])
			return withNulls(func(i int) { d.vals = append(d.vals, a.Value(i)) })
		}
	case storeTime:
		d := v.(*fixedVec[int64])
		switch a := arr.(type) {
		case *array.Time32:
			m := int64(a.DataType().(*arrow.Time32Type).Unit.Multiplier())
			return withNulls(func(i int) { d.vals = append(d.vals, int64(a.Value(i))*m) })
		case *array.Time64:
			m := int64(a.DataType().(*arrow.Time64Type).Unit.Multiplier())
			return withNulls(func(i int) { d.vals = append(d.vals, int64(a.Value(i))*m) })
		}
	case storeDuration:
		if a, ok := arr.(*array.Duration); ok {
			d := v.(*fixedVec[int64])
			m := int64(a.DataType().(*arrow.DurationType).Unit.Multiplier())
			return withNulls(func(i int) { d.vals = append(d.vals, int64(a.Value(i))*m) })
		}
	case storeTsMicros:
		if a, ok := arr.(*array.Timestamp); ok {
			d := v.(*fixedVec[int64])
			var micros func(x int64) int64
			switch a.DataType().(*arrow.TimestampType).Unit {
			case arrow.Second:
				micros = func(x int64) int64 { return x * 1e6 }
			case arrow.Millisecond:
				micros = func(x int64) int64 { return x * 1e3 }
			case arrow.Microsecond:
				micros = func(x int64) int64 { return x }
			default: // nanoseconds, rounded down as time.Time's Nanosecond()/1000 is
				micros = func(x int64) int64 {
					q := x / 1000
					if x%1000 < 0 {
						q--
					}
					return q
				}
			}
			return withNulls(func(i int) { d.vals = append(d.vals, micros(int64(a.Value(i)))) })
		}
	case storeBytes:
		d := v.(*bytesVec)
		switch a := arr.(type) {
		case *array.String:
			return withNulls(func(i int) { d.appendBytes(a.Value(i)) })
		case *array.LargeString:
			return withNulls(func(i int) { d.appendBytes(a.Value(i)) })
		case *array.Binary:
			return withNulls(func(i int) { d.appendRaw(a.Value(i)) })
		case *array.LargeBinary:
			return withNulls(func(i int) { d.appendRaw(a.Value(i)) })
		}
	}
	return nil
}

// hasVariant reports a VARIANT in t, at any depth.
func hasVariant(t *types.DataType) bool {
	if t == nil {
		return false
	}
	switch t.Root {
	case types.VariantRoot:
		return true
	case types.ArrayRoot, types.MultisetRoot:
		return hasVariant(t.Elem)
	case types.MapRoot:
		return hasVariant(t.Key) || hasVariant(t.Value)
	case types.RowRoot:
		for _, f := range t.Fields {
			if hasVariant(f.Type) {
				return true
			}
		}
	}
	return false
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
