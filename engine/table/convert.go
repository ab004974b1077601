package table

import (
	"fmt"
	"math"
	"math/big"
	"reflect"
	"sort"
	"strings"
	"time"

	"github.com/riffle-sql/riffle/engine/types"
)

// Conversions between plain Go values (elements of FromElements, values
// returned by user functions) and the engine's value conventions (see the
// package types: int32 for INT, int64 for BIGINT, []any for ARRAY, *Map
// for MAP, *Row for ROW, ...).

var (
	rtTime      = reflect.TypeOf(time.Time{})
	rtDuration  = reflect.TypeOf(time.Duration(0))
	rtDecimal   = reflect.TypeOf(types.Decimal{})
	rtDate      = reflect.TypeOf(types.Date(0))
	rtLocalTime = reflect.TypeOf(types.LocalTime(0))
	rtMonths    = reflect.TypeOf(types.Months(0))
	rtRowPtr    = reflect.TypeOf(&types.Row{})
	rtMapPtr    = reflect.TypeOf(&types.Map{})
	rtBytes     = reflect.TypeOf([]byte(nil))
	rtError     = reflect.TypeOf((*error)(nil)).Elem()
	rtAny       = reflect.TypeOf((*any)(nil)).Elem()
)

// typeOfGo returns the logical type Flink would extract for a Go type:
// bool BOOLEAN, int8 TINYINT, int16 SMALLINT, int32 INT, int and int64
// BIGINT, float32 FLOAT, float64 DOUBLE, string STRING, []byte BYTES,
// types.Decimal DECIMAL(38, 18), types.Date DATE, types.LocalTime TIME(9),
// time.Time TIMESTAMP(9), time.Duration INTERVAL SECOND(3), types.Months
// INTERVAL YEAR TO MONTH, []T ARRAY<T>, map[K]V MAP<K, V>, a struct ROW of
// its exported fields. Pointers make the type nullable (a pointer to a
// basic type is the way to accept or return NULL); non-pointer basic types
// are NOT NULL.
func typeOfGo(t reflect.Type) (*types.DataType, error) {
	nullable := false
	if t.Kind() == reflect.Pointer && t != rtRowPtr && t != rtMapPtr {
		nullable = true
		t = t.Elem()
	}
	var dt *types.DataType
	switch t {
	case rtTime:
		dt = types.TimestampType(9)
	case rtDuration:
		dt = types.IntervalDayTimeType(types.ResSecond, 2, 3)
	case rtDecimal:
		dt = types.DecimalType(38, 18)
	case rtDate:
		dt = types.DateType()
	case rtLocalTime:
		dt = types.TimeType(9)
	case rtMonths:
		dt = types.IntervalYearMonthType(types.ResYearToMonth, 2)
	case rtBytes:
		dt = types.BytesType()
	case rtRowPtr, rtMapPtr, rtAny:
		return nil, fmt.Errorf("the data type of Go type %s cannot be derived; declare it", t)
	}
	if dt == nil {
		switch t.Kind() {
		case reflect.Bool:
			dt = types.BooleanType()
		case reflect.Int8:
			dt = types.TinyIntType()
		case reflect.Int16:
			dt = types.SmallIntType()
		case reflect.Int32:
			dt = types.IntType()
		case reflect.Int, reflect.Int64:
			dt = types.BigIntType()
		case reflect.Uint8, reflect.Uint16:
			dt = types.IntType()
		case reflect.Uint32, reflect.Uint, reflect.Uint64:
			dt = types.BigIntType()
		case reflect.Float32:
			dt = types.FloatType()
		case reflect.Float64:
			dt = types.DoubleType()
		case reflect.String:
			dt = types.StringType()
		case reflect.Slice, reflect.Array:
			et, err := typeOfGo(t.Elem())
			if err != nil {
				return nil, err
			}
			dt = types.ArrayType(et)
			nullable = true
		case reflect.Map:
			kt, err := typeOfGo(t.Key())
			if err != nil {
				return nil, err
			}
			vt, err := typeOfGo(t.Elem())
			if err != nil {
				return nil, err
			}
			dt = types.MapType(kt, vt)
			nullable = true
		case reflect.Struct:
			var fields []types.Field
			for i := 0; i < t.NumField(); i++ {
				f := t.Field(i)
				if !f.IsExported() {
					continue
				}
				ft, err := typeOfGo(f.Type)
				if err != nil {
					return nil, fmt.Errorf("field %s: %w", f.Name, err)
				}
				fields = append(fields, types.NewField(fieldName(f), ft))
			}
			dt = types.RowType(fields...)
		default:
			return nil, fmt.Errorf("Go type %s has no SQL data type", t)
		}
	}
	return dt.WithNullable(nullable), nil
}

// fieldName is a struct field's column name: its `table:"name"` tag, or
// the field name.
func fieldName(f reflect.StructField) string {
	if tag, ok := f.Tag.Lookup("table"); ok && tag != "" && tag != "-" {
		return tag
	}
	return f.Name
}

// inferValueType infers the type of a Go value for FromElements, as
// PyFlink infers Python values: int and int64 BIGINT, int32 INT, float64
// DOUBLE, string STRING, bool BOOLEAN, []byte BYTES, types.Decimal
// DECIMAL(38, 18), time.Time TIMESTAMP(9), types.Date DATE,
// types.LocalTime TIME(9), time.Duration INTERVAL, []any ARRAY (of the
// common element type), maps MAP, *types.Row ROW. nil has no type (it is
// returned as NULL type and merged with other rows).
func inferValueType(v any) (*types.DataType, error) {
	switch x := v.(type) {
	case nil:
		return types.NullType(), nil
	case *types.Row:
		fields := make([]types.Field, len(x.Values))
		for i, fv := range x.Values {
			ft, err := inferValueType(fv)
			if err != nil {
				return nil, err
			}
			name := fmt.Sprintf("_%d", i+1)
			if i < len(x.Names) {
				name = x.Names[i]
			}
			fields[i] = types.NewField(name, ft)
		}
		return types.RowType(fields...), nil
	case *types.Map:
		var kts, vts []*types.DataType
		for i := range x.Keys {
			kt, err := inferValueType(x.Keys[i])
			if err != nil {
				return nil, err
			}
			vt, err := inferValueType(x.Values[i])
			if err != nil {
				return nil, err
			}
			kts, vts = append(kts, kt), append(vts, vt)
		}
		return types.MapType(mergeTypes(kts), mergeTypes(vts)), nil
	case []any:
		var ets []*types.DataType
		for _, e := range x {
			et, err := inferValueType(e)
			if err != nil {
				return nil, err
			}
			ets = append(ets, et)
		}
		return types.ArrayType(mergeTypes(ets)), nil
	case types.Decimal:
		return types.DecimalType(38, 18), nil
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Pointer:
		if rv.IsNil() {
			return types.NullType(), nil
		}
		return inferValueType(rv.Elem().Interface())
	case reflect.Slice, reflect.Array:
		if rv.Type() == rtBytes {
			return types.BytesType(), nil
		}
		items := make([]any, rv.Len())
		for i := range items {
			items[i] = rv.Index(i).Interface()
		}
		return inferValueType(items)
	case reflect.Map:
		m := &types.Map{}
		for _, k := range rv.MapKeys() {
			m.Keys = append(m.Keys, k.Interface())
			m.Values = append(m.Values, rv.MapIndex(k).Interface())
		}
		return inferValueType(m)
	}
	t, err := typeOfGo(rv.Type())
	if err != nil {
		return nil, err
	}
	return t.AsNullable(), nil
}

// mergeTypes is the common type of inferred types (NULL types are
// ignored); NULL when all are NULL, nil when they do not merge.
func mergeTypes(ts []*types.DataType) *types.DataType {
	var out *types.DataType
	for _, t := range ts {
		if t == nil || t.Root == types.Null {
			continue
		}
		if out == nil {
			out = t
			continue
		}
		m := types.CommonType(out, t)
		if m == nil {
			return nil
		}
		out = m
	}
	if out == nil {
		return types.NullType()
	}
	return out
}

// convertValue converts a Go value to the engine's value of type t,
// accepting the usual Go forms (any integer kind for integer types, int
// for DOUBLE, string for DECIMAL or dates, []T for ARRAY, map[K]V and
// *types.Map for MAP, structs and []any for ROW, any JSON-marshalable
// value or a types.Variant for VARIANT, ...). It fails when the
// value does not fit the type (a string for INT, an out-of-range number).
func convertValue(v any, t *types.DataType) (any, error) {
	if v == nil {
		return nil, nil
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Pointer && rv.Type() != rtRowPtr && rv.Type() != rtMapPtr {
		if rv.IsNil() {
			return nil, nil
		}
		return convertValue(rv.Elem().Interface(), t)
	}
	bad := func() (any, error) {
		return nil, fmt.Errorf("value %v of Go type %T does not match %s", v, v, t)
	}
	switch t.Root {
	case types.VariantRoot:
		// a types.Variant as it is; other Go values (maps, slices, strings,
		// numbers, booleans) as encoding/json writes them
		if x, ok := v.(types.Variant); ok {
			return x, nil
		}
		x, err := types.VariantFromGo(v)
		if err != nil {
			return nil, fmt.Errorf("value %v of Go type %T does not match %s: %v", v, v, t, err)
		}
		return x, nil
	case types.Boolean:
		if b, ok := v.(bool); ok {
			return b, nil
		}
		return bad()
	case types.TinyInt, types.SmallInt, types.Integer, types.BigInt:
		var n int64
		switch rv.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			n = rv.Int()
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			u := rv.Uint()
			if u > math.MaxInt64 {
				return bad()
			}
			n = int64(u)
		case reflect.Float32, reflect.Float64:
			f := rv.Float()
			if f != math.Trunc(f) || math.IsInf(f, 0) || math.IsNaN(f) {
				return bad()
			}
			n = int64(f)
		default:
			return bad()
		}
		switch t.Root {
		case types.TinyInt:
			if n < math.MinInt8 || n > math.MaxInt8 {
				return nil, fmt.Errorf("value %d is out of the TINYINT range", n)
			}
			return int8(n), nil
		case types.SmallInt:
			if n < math.MinInt16 || n > math.MaxInt16 {
				return nil, fmt.Errorf("value %d is out of the SMALLINT range", n)
			}
			return int16(n), nil
		case types.Integer:
			if n < math.MinInt32 || n > math.MaxInt32 {
				return nil, fmt.Errorf("value %d is out of the INT range", n)
			}
			return int32(n), nil
		}
		return n, nil
	case types.Float, types.Double:
		var f float64
		switch rv.Kind() {
		case reflect.Float32, reflect.Float64:
			f = rv.Float()
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			f = float64(rv.Int())
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			f = float64(rv.Uint())
		default:
			if d, ok := v.(types.Decimal); ok {
				f = d.Float64()
				break
			}
			return bad()
		}
		if t.Root == types.Float {
			return float32(f), nil
		}
		return f, nil
	case types.DecimalRoot:
		var d types.Decimal
		var err error
		switch x := v.(type) {
		case types.Decimal:
			d = x
		case string:
			d, err = types.ParseDecimal(x)
		case *big.Rat:
			d, err = types.DecimalFromRat(x, int32(t.Scale))
		default:
			switch rv.Kind() {
			case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
				d = types.DecimalFromInt64(rv.Int(), 0)
			case reflect.Float32, reflect.Float64:
				r := new(big.Rat)
				if r.SetFloat64(rv.Float()) == nil {
					return bad()
				}
				d, err = types.DecimalFromRat(r, int32(t.Scale))
			default:
				return bad()
			}
		}
		if err != nil {
			return nil, err
		}
		r, err := d.Rescale(int32(t.Scale), int32(t.Precision))
		if err != nil {
			return nil, fmt.Errorf("value %s does not fit %s: %v", d, t, err)
		}
		return r, nil
	case types.Char, types.VarChar:
		switch x := v.(type) {
		case string:
			return x, nil
		case []byte:
			return string(x), nil
		}
		if rv.Kind() == reflect.String {
			return rv.String(), nil
		}
		return bad()
	case types.Binary, types.VarBinary, types.Raw:
		switch x := v.(type) {
		case []byte:
			return x, nil
		case string:
			return []byte(x), nil
		}
		return bad()
	case types.DateRoot:
		switch x := v.(type) {
		case types.Date:
			return x, nil
		case time.Time:
			return types.DateOf(x.Year(), x.Month(), x.Day()), nil
		case string:
			return types.ParseDate(x)
		}
		return bad()
	case types.TimeRoot:
		switch x := v.(type) {
		case types.LocalTime:
			return x, nil
		case time.Duration:
			return types.LocalTime(x), nil
		case time.Time:
			return types.TimeOf(x.Hour(), x.Minute(), x.Second(), x.Nanosecond()), nil
		case string:
			return types.ParseTime(x)
		}
		return bad()
	case types.TimestampRoot:
		switch x := v.(type) {
		case time.Time:
			if x.Location() != time.UTC {
				x = time.Date(x.Year(), x.Month(), x.Day(), x.Hour(), x.Minute(), x.Second(), x.Nanosecond(), time.UTC)
			}
			x = types.TruncateTime(x, t.Precision)
			// a TIMESTAMP(7..9) holds 1677-09-21 to 2262-04-11 only
			if err := types.CheckValue(x, t); err != nil {
				return nil, err
			}
			return x, nil
		case types.Date:
			return x.Time(), nil
		case string:
			ts, err := types.ParseTimestamp(x)
			if err != nil {
				return nil, err
			}
			return types.TruncateTime(ts, t.Precision), nil
		}
		return bad()
	case types.TimestampLTZRoot:
		switch x := v.(type) {
		case time.Time:
			x = types.TruncateTime(x.UTC(), t.Precision)
			if err := types.CheckValue(x, t); err != nil {
				return nil, err
			}
			return x, nil
		}
		if rv.Kind() == reflect.Int64 || rv.Kind() == reflect.Int {
			return time.UnixMilli(rv.Int()).UTC(), nil
		}
		return bad()
	case types.IntervalYearMonthRoot:
		switch x := v.(type) {
		case types.Months:
			return x, nil
		}
		if rv.Kind() >= reflect.Int && rv.Kind() <= reflect.Int64 {
			return types.Months(rv.Int()), nil
		}
		return bad()
	case types.IntervalDayTimeRoot:
		if d, ok := v.(time.Duration); ok {
			return d, nil
		}
		return bad()
	case types.ArrayRoot:
		if rv.Kind() != reflect.Slice && rv.Kind() != reflect.Array {
			return bad()
		}
		out := make([]any, rv.Len())
		for i := range out {
			e, err := convertValue(rv.Index(i).Interface(), t.Elem)
			if err != nil {
				return nil, fmt.Errorf("element %d: %w", i+1, err)
			}
			out[i] = e
		}
		return out, nil
	case types.MapRoot, types.MultisetRoot:
		kt, vt := t.Key, t.Value
		if t.Root == types.MultisetRoot {
			kt, vt = t.Elem, types.IntType()
		}
		out := &types.Map{}
		add := func(k, val any) error {
			ck, err := convertValue(k, kt)
			if err != nil {
				return fmt.Errorf("key: %w", err)
			}
			cv, err := convertValue(val, vt)
			if err != nil {
				return fmt.Errorf("value of key %v: %w", k, err)
			}
			out.Keys = append(out.Keys, ck)
			out.Values = append(out.Values, cv)
			return nil
		}
		if m, ok := v.(*types.Map); ok {
			for i := range m.Keys {
				if err := add(m.Keys[i], m.Values[i]); err != nil {
					return nil, err
				}
			}
			return out, nil
		}
		if rv.Kind() != reflect.Map {
			return bad()
		}
		keys := rv.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return fmt.Sprint(keys[i].Interface()) < fmt.Sprint(keys[j].Interface()) })
		for _, k := range keys {
			if err := add(k.Interface(), rv.MapIndex(k).Interface()); err != nil {
				return nil, err
			}
		}
		return out, nil
	case types.RowRoot:
		vals, names, err := rowValues(v)
		if err != nil {
			return bad()
		}
		if names != nil {
			// map named values onto the fields by name
			byName := map[string]any{}
			for i, n := range names {
				byName[n] = vals[i]
			}
			vals = make([]any, len(t.Fields))
			for i, f := range t.Fields {
				vals[i] = byName[f.Name]
			}
		}
		if len(vals) != len(t.Fields) {
			return nil, fmt.Errorf("row %v has %d fields, %s has %d", v, len(vals), t, len(t.Fields))
		}
		out := &types.Row{Kind: types.Insert, Values: make([]any, len(vals))}
		if r, ok := v.(*types.Row); ok {
			out.Kind = r.Kind
		}
		for i, fv := range vals {
			c, err := convertValue(fv, t.Fields[i].Type)
			if err != nil {
				return nil, fmt.Errorf("field %s: %w", t.Fields[i].Name, err)
			}
			out.Values[i] = c
		}
		return out, nil
	case types.Null:
		return nil, nil
	}
	return bad()
}

// rowValues returns the values of a composite Go value: *types.Row,
// []any (a tuple), a struct or a pointer to one (exported fields in
// order), map[string]any (fields sorted by name). names is set when the
// values are identified by name (structs, maps and named rows with names
// that should be matched by name).
func rowValues(v any) (vals []any, names []string, err error) {
	switch x := v.(type) {
	case *types.Row:
		return x.Values, nil, nil
	case []any:
		return x, nil, nil
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			vals = append(vals, x[k])
		}
		return vals, keys, nil
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Pointer && !rv.IsNil() {
		rv = rv.Elem()
	}
	if rv.Kind() == reflect.Struct && rv.Type() != rtTime && rv.Type() != rtDecimal {
		t := rv.Type()
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			vals = append(vals, rv.Field(i).Interface())
			names = append(names, fieldName(f))
		}
		return vals, names, nil
	}
	return nil, nil, fmt.Errorf("%T is not a composite value", v)
}

// isComposite reports whether a FromElements element is unboxed into
// columns.
func isComposite(v any) bool {
	switch v.(type) {
	case *types.Row, []any, map[string]any:
		return true
	case []byte, time.Time, types.Decimal:
		return false
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Pointer && !rv.IsNil() {
		rv = rv.Elem()
	}
	return rv.Kind() == reflect.Struct
}

// toGoValue converts an engine value to a Go value assignable to target
// (for calling plain Go functions): numbers convert between kinds, []any
// to []T, *types.Map to map[K]V, *types.Row to structs. A NULL becomes the
// zero value; ok is false when target cannot hold NULL.
func toGoValue(v any, target reflect.Type) (reflect.Value, bool, error) {
	if v == nil {
		switch target.Kind() {
		case reflect.Pointer, reflect.Interface, reflect.Slice, reflect.Map:
			return reflect.Zero(target), true, nil
		}
		return reflect.Zero(target), false, nil
	}
	rv := reflect.ValueOf(v)
	if rv.Type().AssignableTo(target) {
		return rv, true, nil
	}
	if target.Kind() == reflect.Pointer && target != rtRowPtr && target != rtMapPtr {
		inner, ok, err := toGoValue(v, target.Elem())
		if err != nil || !ok {
			return reflect.Value{}, ok, err
		}
		p := reflect.New(target.Elem())
		p.Elem().Set(inner)
		return p, true, nil
	}
	switch target.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		if rv.CanConvert(target) && rv.Kind() != reflect.String {
			return rv.Convert(target), true, nil
		}
		if d, ok := v.(types.Decimal); ok && (target.Kind() == reflect.Float64 || target.Kind() == reflect.Float32) {
			return reflect.ValueOf(d.Float64()).Convert(target), true, nil
		}
	case reflect.String:
		if s, ok := v.(string); ok {
			return reflect.ValueOf(s).Convert(target), true, nil
		}
	case reflect.Slice:
		if items, ok := v.([]any); ok {
			out := reflect.MakeSlice(target, len(items), len(items))
			for i, it := range items {
				ev, _, err := toGoValue(it, target.Elem())
				if err != nil {
					return reflect.Value{}, false, err
				}
				out.Index(i).Set(ev)
			}
			return out, true, nil
		}
	case reflect.Map:
		if m, ok := v.(*types.Map); ok {
			out := reflect.MakeMapWithSize(target, len(m.Keys))
			for i := range m.Keys {
				kv, _, err := toGoValue(m.Keys[i], target.Key())
				if err != nil {
					return reflect.Value{}, false, err
				}
				vv, _, err := toGoValue(m.Values[i], target.Elem())
				if err != nil {
					return reflect.Value{}, false, err
				}
				out.SetMapIndex(kv, vv)
			}
			return out, true, nil
		}
	case reflect.Struct:
		if r, ok := v.(*types.Row); ok {
			out := reflect.New(target).Elem()
			k := 0
			for i := 0; i < target.NumField(); i++ {
				if !target.Field(i).IsExported() {
					continue
				}
				if k < len(r.Values) {
					fv, _, err := toGoValue(r.Values[k], target.Field(i).Type)
					if err != nil {
						return reflect.Value{}, false, err
					}
					out.Field(i).Set(fv)
				}
				k++
			}
			return out, true, nil
		}
	case reflect.Interface:
		if rv.Type().Implements(target) {
			out := reflect.New(target).Elem()
			out.Set(rv)
			return out, true, nil
		}
	}
	return reflect.Value{}, false, fmt.Errorf("cannot pass %v (%T) as %s", v, v, target)
}

// goTypeName is a short description for error messages.
func goTypeName(t reflect.Type) string { return strings.TrimPrefix(t.String(), "*") }
