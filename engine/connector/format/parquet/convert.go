package parquet

import (
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/riffle-sql/riffle/engine/types"
)

// Conversions between Riffle's Arrow columns (types.ToArrow) and the Arrow
// types pqarrow writes and reads. Nested arrays are rebuilt around their
// converted children without copying buffers; leaves are copied only when
// their representation differs.

// localIsUTC is true when the process's local zone never leaves UTC, so
// that 'parquet.utc-timezone' = 'false' needs no shifting.
var localIsUTC = func() bool {
	for _, y := range []int{1900, 1950, 1970, 2000, 2024, 2050} {
		for _, m := range []time.Month{time.January, time.July} {
			if _, off := time.Date(y, m, 1, 12, 0, 0, 0, time.Local).Zone(); off != 0 {
				return false
			}
		}
	}
	return true
}()

// shiftsTimestamps says whether TIMESTAMP values are shifted between the
// wall clock and the stored instant through the local zone.
func (o Options) shiftsTimestamps() bool { return !o.UTC && !localIsUTC }

// wallToInstant reads a wall-clock time (held as UTC) in the local zone.
func wallToInstant(t time.Time) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.Local).UTC()
}

// instantToWall renders an instant as the local zone's wall clock (as UTC).
func instantToWall(t time.Time) time.Time {
	l := t.In(time.Local)
	return time.Date(l.Year(), l.Month(), l.Day(), l.Hour(), l.Minute(), l.Second(), l.Nanosecond(), time.UTC)
}

// writeType is the Arrow type a column of t is handed to pqarrow in, which
// decides its Parquet type (Flink's ParquetSchemaConverter): TIME as
// INT32 TIME_MILLIS, timestamps as INT96 or INT64 in the configured unit,
// lists with an "element" field.
func writeType(t *types.DataType, o Options) arrow.DataType {
	switch t.Root {
	case types.TimeRoot:
		return arrow.FixedWidthTypes.Time32ms
	case types.TimestampRoot, types.TimestampLTZRoot:
		tz := ""
		if t.Root == types.TimestampLTZRoot {
			tz = "UTC"
		}
		if o.Int64Timestamp {
			return &arrow.TimestampType{Unit: o.TimeUnit, TimeZone: tz}
		}
		// pqarrow writes INT96 from nanoseconds only.
		return &arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: tz}
	case types.ArrayRoot:
		return arrow.ListOfField(arrow.Field{Name: "element", Type: writeType(t.Elem, o), Nullable: t.Elem.Nullable})
	case types.MultisetRoot:
		return arrow.MapOf(writeType(t.Elem, o), arrow.PrimitiveTypes.Int32)
	case types.MapRoot:
		return arrow.MapOf(writeType(t.Key, o), writeType(t.Value, o))
	case types.RowRoot:
		fields := make([]arrow.Field, len(t.Fields))
		for i, f := range t.Fields {
			fields[i] = arrow.Field{Name: f.Name, Type: writeType(f.Type, o), Nullable: f.Type.Nullable}
		}
		return arrow.StructOf(fields...)
	}
	return types.ToArrow(t)
}

// writeSchema is the Arrow schema of the written columns. A NOT NULL
// column is REQUIRED, as Flink writes it.
func writeSchema(names []string, ts []*types.DataType, o Options) *arrow.Schema {
	fields := make([]arrow.Field, len(names))
	for i := range names {
		fields[i] = arrow.Field{Name: names[i], Type: writeType(ts[i], o), Nullable: ts[i].Nullable}
	}
	return arrow.NewSchema(fields, nil)
}

// rebuild wraps d's buffers with another type and children.
func rebuild(d arrow.ArrayData, dt arrow.DataType, children []arrow.ArrayData) arrow.Array {
	nd := array.NewData(dt, d.Len(), d.Buffers(), children, d.NullN(), d.Offset())
	defer nd.Release()
	return array.MakeFromData(nd)
}

// toWrite converts a Riffle column of type t to writeType(t, o). A
// timestamp outside the range of INT96 via nanoseconds (1677-09-21 to
// 2262-04-11) is an error.
func toWrite(arr arrow.Array, t *types.DataType, o Options) (arrow.Array, error) {
	want := writeType(t, o)
	shift := t.Root == types.TimestampRoot && o.shiftsTimestamps()
	if !shift && arrow.TypeEqual(arr.DataType(), want) {
		return arr, nil
	}
	d := arr.Data()
	switch t.Root {
	case types.TimeRoot:
		a, ok := arr.(*array.Time64)
		if !ok {
			return rebuild(d, want, nil), nil
		}
		b := array.NewTime32Builder(memory.DefaultAllocator, want.(*arrow.Time32Type))
		b.Reserve(a.Len())
		for i := 0; i < a.Len(); i++ {
			if a.IsNull(i) {
				b.AppendNull()
			} else {
				b.UnsafeAppend(arrow.Time32(int64(a.Value(i)) / 1_000_000))
			}
		}
		return b.NewArray(), nil
	case types.TimestampRoot, types.TimestampLTZRoot:
		a := arr.(*array.Timestamp)
		from := a.DataType().(*arrow.TimestampType).Unit
		to := want.(*arrow.TimestampType).Unit
		b := array.NewTimestampBuilder(memory.DefaultAllocator, want.(*arrow.TimestampType))
		b.Reserve(a.Len())
		for i := 0; i < a.Len(); i++ {
			if a.IsNull(i) {
				b.AppendNull()
				continue
			}
			v := int64(a.Value(i))
			orig := types.TimeFromUnits(v, from)
			tm := orig
			if shift {
				tm = wallToInstant(tm)
				v = types.TimeToUnits(tm, from)
			}
			if to == arrow.Nanosecond && (tm.Year() < 1678 || tm.Year() > 2261) {
				b.Release()
				return nil, fmt.Errorf("timestamp %s is out of the range Parquet's nanosecond timestamps hold (1678-2261)", orig.Format("2006-01-02 15:04:05.999999999"))
			}
			b.UnsafeAppend(arrow.Timestamp(convertUnit(v, from, to)))
		}
		return b.NewArray(), nil
	case types.ArrayRoot:
		child, err := toWrite(array.MakeFromData(d.Children()[0]), t.Elem, o)
		if err != nil {
			return nil, err
		}
		return rebuild(d, want, []arrow.ArrayData{child.Data()}), nil
	case types.MapRoot, types.MultisetRoot:
		kt, vt := t.Key, t.Value
		if t.Root == types.MultisetRoot {
			kt, vt = t.Elem, types.IntType()
		}
		entries := d.Children()[0]
		k, err := toWrite(array.MakeFromData(entries.Children()[0]), kt, o)
		if err != nil {
			return nil, err
		}
		v, err := toWrite(array.MakeFromData(entries.Children()[1]), vt, o)
		if err != nil {
			return nil, err
		}
		e := rebuild(entries, want.(*arrow.MapType).Elem(), []arrow.ArrayData{k.Data(), v.Data()})
		return rebuild(d, want, []arrow.ArrayData{e.Data()}), nil
	case types.RowRoot:
		children := make([]arrow.ArrayData, len(t.Fields))
		for i, f := range t.Fields {
			c, err := toWrite(array.MakeFromData(d.Children()[i]), f.Type, o)
			if err != nil {
				return nil, err
			}
			children[i] = c.Data()
		}
		return rebuild(d, want, children), nil
	}
	return rebuild(d, want, d.Children()), nil
}

// convertUnit changes an epoch count from one unit to another, flooring
// (as Flink does for values between two units before 1970).
func convertUnit(v int64, from, to arrow.TimeUnit) int64 {
	f, t := types.UnitsPerSecond(from), types.UnitsPerSecond(to)
	switch {
	case f == t:
		return v
	case f < t:
		return v * (t / f)
	default:
		q := f / t
		r := v / q
		if v%q < 0 {
			r--
		}
		return r
	}
}

// typeError is the error of a stored column whose type cannot be read as
// the declared one.
type typeError struct {
	path string
	got  arrow.DataType
	want *types.DataType
}

func (e *typeError) Error() string {
	return fmt.Sprintf("column '%s' is stored as %s, which cannot be read as %s", e.path, e.got, e.want)
}

// fromFile converts a column read by pqarrow to the Riffle column of the
// declared type want (types.ToArrow(want)). path names the column in
// errors.
func fromFile(arr arrow.Array, want *types.DataType, o Options, path string) (arrow.Array, error) {
	wantArrow := types.ToArrow(want)
	shift := want.Root == types.TimestampRoot && o.shiftsTimestamps()
	got := arr.DataType()
	if !shift && arrow.TypeEqual(got, wantArrow) {
		return arr, nil
	}
	d := arr.Data()
	fail := func() (arrow.Array, error) { return nil, &typeError{path: path, got: got, want: want} }
	switch want.Root {
	case types.Boolean:
		if got.ID() == arrow.BOOL {
			return arr, nil
		}
	case types.TinyInt, types.SmallInt, types.Integer, types.BigInt:
		if isInteger(got.ID()) {
			return convertInts(arr, want, path)
		}
	case types.Float:
		if got.ID() == arrow.FLOAT32 {
			return arr, nil
		}
	case types.Double:
		if got.ID() == arrow.FLOAT32 {
			a := arr.(*array.Float32)
			b := array.NewFloat64Builder(memory.DefaultAllocator)
			b.Reserve(a.Len())
			for i := 0; i < a.Len(); i++ {
				if a.IsNull(i) {
					b.AppendNull()
				} else {
					b.UnsafeAppend(float64(a.Value(i)))
				}
			}
			return b.NewArray(), nil
		}
	case types.DecimalRoot:
		switch got.ID() {
		case arrow.DECIMAL128, arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.UINT8, arrow.UINT16, arrow.UINT32:
			return convertDecimal(arr, want, path)
		}
	case types.Char, types.VarChar, types.Binary, types.VarBinary:
		switch got.ID() {
		case arrow.STRING, arrow.BINARY:
			return rebuild(d, wantArrow, nil), nil
		case arrow.LARGE_STRING, arrow.LARGE_BINARY:
			if n := narrowLarge(arr, wantArrow); n != nil {
				return n, nil
			}
			return copyBytes(arr, wantArrow), nil
		case arrow.FIXED_SIZE_BINARY, arrow.STRING_VIEW, arrow.BINARY_VIEW:
			return copyBytes(arr, wantArrow), nil
		}
	case types.DateRoot:
		if got.ID() == arrow.DATE32 {
			return arr, nil
		}
	case types.TimeRoot:
		if got.ID() == arrow.TIME32 || got.ID() == arrow.TIME64 {
			return convertTime(arr, wantArrow), nil
		}
	case types.TimestampRoot, types.TimestampLTZRoot:
		if got.ID() == arrow.TIMESTAMP {
			return convertTimestamp(arr.(*array.Timestamp), wantArrow.(*arrow.TimestampType), shift), nil
		}
	case types.ArrayRoot:
		if got.ID() == arrow.LIST {
			child, err := fromFile(array.MakeFromData(d.Children()[0]), want.Elem, o, path+"[]")
			if err != nil {
				return nil, err
			}
			return rebuild(d, wantArrow, []arrow.ArrayData{child.Data()}), nil
		}
	case types.MapRoot, types.MultisetRoot:
		if got.ID() == arrow.MAP {
			kt, vt := want.Key, want.Value
			if want.Root == types.MultisetRoot {
				kt, vt = want.Elem, types.IntType()
			}
			entries := d.Children()[0]
			k, err := fromFile(array.MakeFromData(entries.Children()[0]), kt, o, path+".key")
			if err != nil {
				return nil, err
			}
			v, err := fromFile(array.MakeFromData(entries.Children()[1]), vt, o, path+".value")
			if err != nil {
				return nil, err
			}
			e := rebuild(entries, wantArrow.(*arrow.MapType).Elem(), []arrow.ArrayData{k.Data(), v.Data()})
			return rebuild(d, wantArrow, []arrow.ArrayData{e.Data()}), nil
		}
	case types.RowRoot:
		if got.ID() == arrow.STRUCT {
			st := got.(*arrow.StructType)
			children := make([]arrow.ArrayData, len(want.Fields))
			for i, f := range want.Fields {
				j := fieldIndex(st.Fields(), f.Name)
				if j < 0 {
					children[i] = array.MakeArrayOfNull(memory.DefaultAllocator, types.ToArrow(f.Type), d.Offset()+d.Len()).Data()
					continue
				}
				c, err := fromFile(array.MakeFromData(d.Children()[j]), f.Type, o, path+"."+f.Name)
				if err != nil {
					return nil, err
				}
				children[i] = c.Data()
			}
			return rebuild(d, wantArrow, children), nil
		}
	}
	return fail()
}

// fieldIndex finds a field by name: exactly, else ignoring case.
func fieldIndex(fields []arrow.Field, name string) int {
	for i, f := range fields {
		if f.Name == name {
			return i
		}
	}
	for i, f := range fields {
		if equalFold(f.Name, name) {
			return i
		}
	}
	return -1
}

func equalFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

func isInteger(id arrow.Type) bool {
	switch id {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64:
		return true
	}
	return false
}

// intAt returns element i of an integer array as int64 (ok false for a
// UINT64 beyond int64).
func intAt(arr arrow.Array, i int) (int64, bool) {
	switch a := arr.(type) {
	case *array.Int8:
		return int64(a.Value(i)), true
	case *array.Int16:
		return int64(a.Value(i)), true
	case *array.Int32:
		return int64(a.Value(i)), true
	case *array.Int64:
		return a.Value(i), true
	case *array.Uint8:
		return int64(a.Value(i)), true
	case *array.Uint16:
		return int64(a.Value(i)), true
	case *array.Uint32:
		return int64(a.Value(i)), true
	case *array.Uint64:
		v := a.Value(i)
		return int64(v), v <= 1<<63-1
	}
	return 0, false
}

// convertInts converts an integer column to the declared integer type; a
// value out of the type's range is an error.
func convertInts(arr arrow.Array, want *types.DataType, path string) (arrow.Array, error) {
	var lo, hi int64
	switch want.Root {
	case types.TinyInt:
		lo, hi = -1<<7, 1<<7-1
	case types.SmallInt:
		lo, hi = -1<<15, 1<<15-1
	case types.Integer:
		lo, hi = -1<<31, 1<<31-1
	default:
		lo, hi = -1<<63, 1<<63-1
	}
	b := array.NewBuilder(memory.DefaultAllocator, types.ToArrow(want))
	b.Reserve(arr.Len())
	for i := 0; i < arr.Len(); i++ {
		if arr.IsNull(i) {
			b.AppendNull()
			continue
		}
		v, ok := intAt(arr, i)
		if !ok || v < lo || v > hi {
			b.Release()
			return nil, fmt.Errorf("column '%s': value %s of type %s does not fit %s", path, arr.ValueStr(i), arr.DataType(), want)
		}
		switch bb := b.(type) {
		case *array.Int8Builder:
			bb.UnsafeAppend(int8(v))
		case *array.Int16Builder:
			bb.UnsafeAppend(int16(v))
		case *array.Int32Builder:
			bb.UnsafeAppend(int32(v))
		case *array.Int64Builder:
			bb.UnsafeAppend(v)
		}
	}
	return b.NewArray(), nil
}

// convertDecimal converts a decimal or integer column to DECIMAL(p,s); a
// value that does not fit the precision is an error (as Flink's reader
// would fail to represent it).
func convertDecimal(arr arrow.Array, want *types.DataType, path string) (arrow.Array, error) {
	wt := types.ToArrow(want).(*arrow.Decimal128Type)
	if a, ok := arr.(*array.Decimal128); ok {
		gt := a.DataType().(*arrow.Decimal128Type)
		if gt.Scale == wt.Scale && gt.Precision <= wt.Precision {
			return rebuild(arr.Data(), wt, nil), nil
		}
	}
	b := array.NewDecimal128Builder(memory.DefaultAllocator, wt)
	b.Reserve(arr.Len())
	for i := 0; i < arr.Len(); i++ {
		if arr.IsNull(i) {
			b.AppendNull()
			continue
		}
		var n decimal128.Num
		var scale int32
		if a, ok := arr.(*array.Decimal128); ok {
			n, scale = a.Value(i), a.DataType().(*arrow.Decimal128Type).Scale
		} else {
			v, ok := intAt(arr, i)
			if !ok {
				b.Release()
				return nil, fmt.Errorf("column '%s': value %s does not fit %s", path, arr.ValueStr(i), want)
			}
			n = decimal128.FromI64(v)
		}
		r, err := n.Rescale(scale, wt.Scale)
		if err != nil || !r.FitsInPrecision(wt.Precision) {
			b.Release()
			return nil, fmt.Errorf("column '%s': value %s does not fit %s", path, arr.ValueStr(i), want)
		}
		b.UnsafeAppend(r)
	}
	return b.NewArray(), nil
}

// narrowLarge turns a LargeString/LargeBinary column (a file whose stored
// Arrow schema says large_utf8, as Polars writes) into a String/Binary
// one sharing its value bytes: only the offsets are narrowed to int32, in
// one pass. It returns nil when the values exceed int32 offsets.
func narrowLarge(arr arrow.Array, want arrow.DataType) arrow.Array {
	d := arr.Data()
	bufs := d.Buffers()
	if len(bufs) < 3 || bufs[1] == nil {
		return nil
	}
	offs := arrow.Int64Traits.CastFromBytes(bufs[1].Bytes())
	first, n := d.Offset(), d.Len()
	if len(offs) < first+n+1 {
		return nil
	}
	offs = offs[first : first+n+1]
	base := offs[0]
	if offs[n]-base > 1<<31-1 {
		return nil
	}
	out := make([]int32, n+1)
	for i, o := range offs {
		out[i] = int32(o - base)
	}
	var values *memory.Buffer
	if bufs[2] != nil {
		values = memory.NewBufferBytes(bufs[2].Bytes()[base:offs[n]])
	} else {
		values = memory.NewBufferBytes(nil)
	}
	var valid *memory.Buffer
	nulls := d.NullN()
	if bufs[0] != nil && nulls > 0 {
		if first%8 == 0 {
			valid = memory.NewBufferBytes(bufs[0].Bytes()[first/8:])
		} else {
			return nil
		}
	} else {
		nulls = 0
	}
	nd := array.NewData(want, n, []*memory.Buffer{valid, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(out)), values}, nil, nulls, 0)
	defer nd.Release()
	return array.MakeFromData(nd)
}

// copyBytes copies a large or fixed-size binary/string column into a
// Binary or String column.
func copyBytes(arr arrow.Array, want arrow.DataType) arrow.Array {
	b := array.NewBuilder(memory.DefaultAllocator, want)
	for i := 0; i < arr.Len(); i++ {
		if arr.IsNull(i) {
			b.AppendNull()
			continue
		}
		var v []byte
		switch a := arr.(type) {
		case *array.LargeString:
			if sb, ok := b.(*array.StringBuilder); ok {
				sb.Append(a.Value(i))
				continue
			}
			v = []byte(a.Value(i))
		case *array.LargeBinary:
			v = a.Value(i)
		case *array.FixedSizeBinary:
			v = a.Value(i)
		case *array.StringView:
			v = []byte(a.Value(i))
		case *array.BinaryView:
			v = a.Value(i)
		}
		switch bb := b.(type) {
		case *array.StringBuilder:
			bb.Append(string(v))
		case *array.BinaryBuilder:
			bb.Append(v)
		}
	}
	return b.NewArray()
}

// convertTime converts TIME32/TIME64 of any unit to Riffle's TIME column.
func convertTime(arr arrow.Array, want arrow.DataType) arrow.Array {
	nanos := func(i int) int64 {
		switch a := arr.(type) {
		case *array.Time32:
			return int64(a.Value(i)) * (1_000_000_000 / types.UnitsPerSecond(a.DataType().(*arrow.Time32Type).Unit))
		case *array.Time64:
			return int64(a.Value(i)) * (1_000_000_000 / types.UnitsPerSecond(a.DataType().(*arrow.Time64Type).Unit))
		}
		return 0
	}
	b := array.NewBuilder(memory.DefaultAllocator, want)
	b.Reserve(arr.Len())
	for i := 0; i < arr.Len(); i++ {
		if arr.IsNull(i) {
			b.AppendNull()
			continue
		}
		switch bb := b.(type) {
		case *array.Time32Builder:
			bb.UnsafeAppend(arrow.Time32(nanos(i) / 1_000_000))
		case *array.Time64Builder:
			bb.UnsafeAppend(arrow.Time64(nanos(i)))
		}
	}
	return b.NewArray()
}

// convertTimestamp converts a timestamp column of any unit (INT96 reads as
// nanoseconds) to the declared precision's unit, flooring, and shifts
// instants to local wall-clock time when asked.
func convertTimestamp(a *array.Timestamp, want *arrow.TimestampType, shift bool) arrow.Array {
	from := a.DataType().(*arrow.TimestampType).Unit
	if from == want.Unit && !shift {
		return rebuild(a.Data(), want, nil)
	}
	if d := a.Data(); !shift && d.Offset() == 0 {
		// Vectorized: new values beside the same validity bitmap.
		in := a.TimestampValues()
		out := make([]arrow.Timestamp, len(in))
		f, t := types.UnitsPerSecond(from), types.UnitsPerSecond(want.Unit)
		if f < t {
			m := arrow.Timestamp(t / f)
			for i, v := range in {
				out[i] = v * m
			}
		} else {
			q := int64(f / t)
			for i, v := range in {
				r := int64(v) / q
				if int64(v)%q < 0 {
					r--
				}
				out[i] = arrow.Timestamp(r)
			}
		}
		bufs := []*memory.Buffer{d.Buffers()[0], memory.NewBufferBytes(arrow.TimestampTraits.CastToBytes(out))}
		nd := array.NewData(want, d.Len(), bufs, nil, d.NullN(), 0)
		defer nd.Release()
		return array.NewTimestampData(nd)
	}
	b := array.NewTimestampBuilder(memory.DefaultAllocator, want)
	b.Reserve(a.Len())
	for i := 0; i < a.Len(); i++ {
		if a.IsNull(i) {
			b.AppendNull()
			continue
		}
		v := int64(a.Value(i))
		if shift {
			v = types.TimeToUnits(instantToWall(types.TimeFromUnits(v, from)), from)
		}
		b.UnsafeAppend(arrow.Timestamp(convertUnit(v, from, want.Unit)))
	}
	return b.NewArray()
}
