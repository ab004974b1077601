package types

import (
	"fmt"
	"math"
	"sync"
	"time"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Batch is the unit of data between operators: Arrow columns of equal
// length plus one RowKind per row. Kinds is nil when every row is an
// INSERT (insert-only streams omit it). Columns are never mutated after a
// batch is built: operators that change data build new arrays.
type Batch struct {
	Cols  []arrow.Array
	Kinds []RowKind
	Len   int
}

// NewBatch builds a batch; n is the row count (needed when there are no
// columns, e.g. COUNT(*) over a projection of nothing).
func NewBatch(cols []arrow.Array, kinds []RowKind, n int) *Batch {
	return &Batch{Cols: cols, Kinds: kinds, Len: n}
}

// Kind returns the RowKind of row i.
func (b *Batch) Kind(i int) RowKind {
	if b.Kinds == nil {
		return Insert
	}
	return b.Kinds[i]
}

// InsertOnly reports whether every row is an INSERT.
func (b *Batch) InsertOnly() bool {
	if b.Kinds == nil {
		return true
	}
	for _, k := range b.Kinds {
		if k != Insert {
			return false
		}
	}
	return true
}

// Row extracts row i as a Row of Go values (slow path: tests, collect, UI).
func (b *Batch) Row(i int, ts []*DataType) *Row {
	vals := make([]any, len(b.Cols))
	for c, col := range b.Cols {
		vals[c] = ValueAt(col, i, ts[c])
	}
	return &Row{Kind: b.Kind(i), Values: vals}
}

// Rows extracts all rows as Go values (the values ValueAt returns). It
// converts column by column and allocates the rows and their value slices
// in one block each, so it is cheaper than calling Row per row; every row
// is still a separate *Row with its own Values (capacity limited to its
// columns, so appending to one row never overwrites the next).
func (b *Batch) Rows(ts []*DataType) []*Row { return NewRowConverter(ts).Rows(b) }

// RowConverter converts batches of one schema to rows as Batch.Rows does,
// keeping its caches of boxed values from batch to batch, so values that
// repeat across batches (keys, codes) are boxed once. The rows it returns
// may share interface values, and through them, string memory of earlier
// batches (at most a few hundred values per column). Not safe for
// concurrent use.
type RowConverter struct {
	types  []*DataType
	caches []columnCache
}

// NewRowConverter returns a converter for columns of types ts.
func NewRowConverter(ts []*DataType) *RowConverter {
	return &RowConverter{types: ts, caches: make([]columnCache, len(ts))}
}

// Rows converts every row of b (see Batch.Rows).
func (rc *RowConverter) Rows(b *Batch) []*Row {
	rows := rc.RowBlock(b)
	out := make([]*Row, len(rows))
	for i := range rows {
		out[i] = &rows[i]
	}
	return out
}

// RowBlock converts every row of b as Rows does, into one slice of rows
// (row i is &RowBlock(b)[i]): no slice of pointers to them.
func (rc *RowConverter) RowBlock(b *Batch) []Row {
	return BlockRows(b, rc.ValueBlock(b, nil), nil)
}

// ValueBlock converts every row of b to Go values as Rows does, row-major
// into one block: row i's value of column c is block[i*len(b.Cols)+c]
// (len(block) = b.Len × len(b.Cols)). It reuses reuse's memory when its
// capacity is enough (a block of an earlier batch no row refers to any
// more: every element is overwritten, NULLs with nil), else it allocates.
func (rc *RowConverter) ValueBlock(b *Batch, reuse []any) []any {
	n, k := b.Len, len(b.Cols)
	var vals []any
	if cap(reuse) >= n*k {
		vals = reuse[:n*k]
		// fill leaves a NULL's element as it is: nil it first
		for c, col := range b.Cols {
			if col.NullN() > 0 {
				for i := c; i < len(vals); i += k {
					vals[i] = nil
				}
			}
		}
	} else {
		vals = make([]any, n*k)
	}
	for c, col := range b.Cols {
		rc.caches[c].fill(vals, k, c, col, rc.types[c])
	}
	return vals
}

// BlockRows returns b's rows over a block of their values made by
// ValueBlock: row i's Values is block[i*k:(i+1)*k] (k = len(b.Cols),
// capacity limited to it), its Kind b's, its Names names (shared by every
// row; nil for rows without names).
func BlockRows(b *Batch, block []any, names []string) []Row {
	n, k := b.Len, len(b.Cols)
	rows := make([]Row, n)
	for i := range rows {
		rows[i] = Row{Kind: b.Kind(i), Values: block[i*k : (i+1)*k : (i+1)*k], Names: names}
	}
	return rows
}

// columnCache holds a column's cache of boxed values, made on first use
// for the column's Arrow type.
type columnCache struct {
	i32 *boxCache[int32]
	i64 *boxCache[int64]
	str *boxCache[string]
	ts  *boxCache[arrow.Timestamp]
}

// fill stores the Go value of every element of arr into dst[i*stride+c]
// (NULL stays nil), with a loop per common Arrow type and ValueAt for the
// others. Strings, integers and timestamps go through a small cache of
// recently boxed values (the slot picked by a hash of the value), so
// repeated values, common in keys and sorted output, share one interface
// value instead of allocating one each.
func (cc *columnCache) fill(dst []any, stride, c int, arr arrow.Array, t *DataType) {
	n := arr.Len()
	if arr.NullN() == n {
		return
	}
	nulls := arr.NullN() > 0
	switch a := arr.(type) {
	case *array.Boolean:
		for i := 0; i < n; i++ {
			if !nulls || a.IsValid(i) {
				dst[i*stride+c] = a.Value(i)
			}
		}
	case *array.Int32:
		if cc.i32 == nil {
			cc.i32 = new(boxCache[int32])
		}
		cache := cc.i32
		for i, x := range a.Int32Values() {
			if !nulls || a.IsValid(i) {
				dst[i*stride+c] = cache.box(x, uint(x))
			}
		}
	case *array.Int64:
		if cc.i64 == nil {
			cc.i64 = new(boxCache[int64])
		}
		cache := cc.i64
		vals := a.Int64Values()
		// values missing from the cache are boxed in place in slabs
		// instead of one allocation each (a ROW_NUMBER column holds a
		// new value in every row); a full slab is followed by one twice
		// its size (at most the rest of the batch), never grown in place
		// since the boxes point into it, so a column of few misses (a
		// sorted delay) does not pay a slab for the rest of the batch
		var slab []int64
		var prev int64
		var prevV any
		small := smallInt64s()
		for i, x := range vals {
			if nulls && a.IsNull(i) {
				continue
			}
			if prevV == nil || x != prev {
				if uint64(x) < uint64(len(small)) {
					// ranks, counts and other small numbers: boxed in
					// the shared table, no slab and no cache entry
					prev, prevV = x, boxInt64At(&small[x])
					dst[i*stride+c] = prevV
					continue
				}
				e := &cache[uint(x)%boxSlots]
				if e.v == nil || e.x != x {
					if len(slab) == cap(slab) {
						slab = make([]int64, 0, min(max(2*cap(slab), 256), len(vals)-i))
					}
					slab = append(slab, x) // within capacity: never moves
					e.x, e.v = x, boxInt64At(&slab[len(slab)-1])
				}
				prev, prevV = x, e.v
			}
			dst[i*stride+c] = prevV
		}
	case *array.Float64:
		v := a.Float64Values()
		for i, x := range v {
			if !nulls || a.IsValid(i) {
				dst[i*stride+c] = x
			}
		}
	case *array.String:
		if cc.str == nil {
			cc.str = new(boxCache[string])
		}
		cache := cc.str
		// a value equal to the previous row's (runs in sorted output)
		// reuses its box without hashing
		var prev string
		var prevV any
		for i := 0; i < n; i++ {
			if !nulls || a.IsValid(i) {
				s := a.Value(i)
				if prevV == nil || s != prev {
					prev, prevV = s, cache.box(s, strSlot(s))
				}
				dst[i*stride+c] = prevV
			}
		}
	case *array.Timestamp:
		unit := a.DataType().(*arrow.TimestampType).Unit
		if cc.ts == nil {
			cc.ts = new(boxCache[arrow.Timestamp])
		}
		cache := cc.ts
		for i, x := range a.TimestampValues() {
			if !nulls || a.IsValid(i) {
				e := &cache[uint(x)%boxSlots]
				if e.v == nil || e.x != x {
					e.x, e.v = x, TimeFromUnits(int64(x), unit)
				}
				dst[i*stride+c] = e.v
			}
		}
	default:
		for i := 0; i < n; i++ {
			dst[i*stride+c] = ValueAt(arr, i, t)
		}
	}
}

// boxSlots is the size of fillColumn's caches of boxed values.
const boxSlots = 256

// boxCache remembers the interface value last made for each slot.
type boxCache[T comparable] [boxSlots]struct {
	x T
	v any
}

// box returns x as an interface value, reusing the cached one when slot
// (a hash of x) last held x.
func (c *boxCache[T]) box(x T, slot uint) any {
	e := &c[slot%boxSlots]
	if e.v == nil || e.x != x {
		e.x, e.v = x, x
	}
	return e.v
}

// eface is the layout of an interface value of an empty interface type: the
// dynamic type's descriptor and a pointer to the value.
type eface struct {
	typ, data unsafe.Pointer
}

// int64Type is the type descriptor of int64 in an interface value.
var int64Type = func() unsafe.Pointer {
	var v any = int64(1 << 40)
	return (*eface)(unsafe.Pointer(&v)).typ
}()

// smallInt64s returns the table of the int64s 0 to 65,535 (each at its
// own index, 512 KiB made at the first use) that boxInt64At boxes small
// values in: the boxes of a batch's ROW_NUMBERs and small counts share
// it instead of being allocated. Its values never change.
var smallInt64s = sync.OnceValue(func() *[1 << 16]int64 {
	t := new([1 << 16]int64)
	for i := range t {
		t[i] = int64(i)
	}
	return t
})

// boxInt64At returns an interface value holding the int64 at p without
// copying it to a new allocation: the interface points at *p, which must
// not change afterwards (the value stays alive as long as the interface).
func boxInt64At(p *int64) any {
	var v any
	e := (*eface)(unsafe.Pointer(&v))
	e.typ, e.data = int64Type, unsafe.Pointer(p)
	return v
}

// strSlot hashes the first 8 bytes and the length of s (FNV-1a).
func strSlot(s string) uint {
	h := uint32(2166136261) ^ uint32(len(s))
	for j := 0; j < len(s) && j < 8; j++ {
		h = (h ^ uint32(s[j])) * 16777619
	}
	return uint(h ^ h>>16)
}

// Record returns the batch as an Arrow record with the given schema (the
// RowKinds are not part of the record).
func (b *Batch) Record(schema *arrow.Schema) arrow.RecordBatch {
	return array.NewRecordBatch(schema, b.Cols, int64(b.Len))
}

// Slice returns rows [from, to) sharing memory with b.
func (b *Batch) Slice(from, to int) *Batch {
	cols := make([]arrow.Array, len(b.Cols))
	for i, c := range b.Cols {
		cols[i] = array.NewSlice(c, int64(from), int64(to))
	}
	var kinds []RowKind
	if b.Kinds != nil {
		kinds = b.Kinds[from:to]
	}
	return &Batch{Cols: cols, Kinds: kinds, Len: to - from}
}

// ValueAt converts element i of an Arrow column of logical type t to its Go
// value (see values.go); nil for NULL.
func ValueAt(arr arrow.Array, i int, t *DataType) any {
	if arr.IsNull(i) {
		return nil
	}
	switch a := arr.(type) {
	case *array.Boolean:
		return a.Value(i)
	case *array.Int8:
		return a.Value(i)
	case *array.Int16:
		return a.Value(i)
	case *array.Int32:
		return a.Value(i)
	case *array.Int64:
		return a.Value(i)
	case *array.Float32:
		return a.Value(i)
	case *array.Float64:
		return a.Value(i)
	case *array.Decimal128:
		return Decimal{Unscaled: a.Value(i), Scale: a.DataType().(*arrow.Decimal128Type).Scale}
	case *array.String:
		return a.Value(i)
	case *array.Binary:
		if t != nil && t.Root == VariantRoot {
			return Variant(a.Value(i))
		}
		return append([]byte(nil), a.Value(i)...)
	case *array.Date32:
		return Date(a.Value(i))
	case *array.Time32:
		return LocalTime(int64(a.Value(i)) * 1_000_000)
	case *array.Time64:
		return LocalTime(int64(a.Value(i)))
	case *array.Timestamp:
		unit := a.DataType().(*arrow.TimestampType).Unit
		return TimeFromUnits(int64(a.Value(i)), unit)
	case *array.MonthInterval:
		return Months(a.Value(i))
	case *array.Duration:
		return time.Duration(a.Value(i)) * time.Millisecond
	case *array.Map:
		kt, vt := t.Key, t.Value
		if t.Root == MultisetRoot {
			kt, vt = t.Elem, IntType()
		}
		start, end := a.ValueOffsets(i)
		m := &Map{}
		keys, items := a.Keys(), a.Items()
		for j := int(start); j < int(end); j++ {
			m.Keys = append(m.Keys, ValueAt(keys, j, kt))
			m.Values = append(m.Values, ValueAt(items, j, vt))
		}
		return m
	case *array.List:
		start, end := a.ValueOffsets(i)
		vals := a.ListValues()
		out := make([]any, 0, end-start)
		for j := int(start); j < int(end); j++ {
			out = append(out, ValueAt(vals, j, t.Elem))
		}
		return out
	case *array.Struct:
		vals := make([]any, a.NumField())
		names := make([]string, a.NumField())
		for f := 0; f < a.NumField(); f++ {
			vals[f] = ValueAt(a.Field(f), i, t.Fields[f].Type)
			names[f] = t.Fields[f].Name
		}
		return &Row{Kind: Insert, Values: vals, Names: names}
	case *array.Null:
		return nil
	}
	panic(fmt.Sprintf("types.ValueAt: unsupported arrow array %T", arr))
}

// TimeFromUnits converts an epoch count in unit u to a UTC time.Time.
func TimeFromUnits(v int64, u arrow.TimeUnit) time.Time {
	switch u {
	case arrow.Second:
		return time.Unix(v, 0).UTC()
	case arrow.Millisecond:
		return time.UnixMilli(v).UTC()
	case arrow.Microsecond:
		return time.UnixMicro(v).UTC()
	default:
		return time.Unix(0, v).UTC()
	}
}

// TimeToUnits converts a time.Time to an epoch count in unit u (truncating
// finer digits).
func TimeToUnits(t time.Time, u arrow.TimeUnit) int64 {
	switch u {
	case arrow.Second:
		return t.Unix()
	case arrow.Millisecond:
		return t.UnixMilli()
	case arrow.Microsecond:
		return t.UnixMicro()
	default:
		return t.UnixNano()
	}
}

// BatchBuilder builds a Batch row by row from Go values (slow path:
// literals, VALUES, FromElements, tests). Columnar sources should use Arrow
// builders directly.
type BatchBuilder struct {
	types    []*DataType
	builders []array.Builder
	kinds    []RowKind
	hasKinds bool
	n        int
}

// NewBatchBuilder creates a builder for columns of the given types.
func NewBatchBuilder(ts []*DataType) *BatchBuilder {
	bb := &BatchBuilder{types: ts, builders: make([]array.Builder, len(ts))}
	for i, t := range ts {
		bb.builders[i] = array.NewBuilder(memory.DefaultAllocator, ToArrow(t))
	}
	return bb
}

// Len is the number of rows appended since the last Build.
func (bb *BatchBuilder) Len() int { return bb.n }

// Append adds one row. It returns an error when a value does not match its
// column type (e.g. a string for an INT column); the row is then not added.
func (bb *BatchBuilder) Append(kind RowKind, values []any) error {
	if len(values) != len(bb.builders) {
		return fmt.Errorf("row has %d fields, expected %d", len(values), len(bb.builders))
	}
	for i, v := range values {
		if err := checkValue(v, bb.types[i]); err != nil {
			return fmt.Errorf("field %d: %w", i, err)
		}
	}
	for i, v := range values {
		AppendValue(bb.builders[i], v, bb.types[i])
	}
	if kind != Insert {
		bb.hasKinds = true
	}
	bb.kinds = append(bb.kinds, kind)
	bb.n++
	return nil
}

// AppendRow adds a Row (its kind and values).
func (bb *BatchBuilder) AppendRow(r *Row) error { return bb.Append(r.Kind, r.Values) }

// Build returns the batch of appended rows and resets the builder.
func (bb *BatchBuilder) Build() *Batch {
	cols := make([]arrow.Array, len(bb.builders))
	for i, b := range bb.builders {
		cols[i] = b.NewArray()
	}
	var kinds []RowKind
	if bb.hasKinds {
		kinds = bb.kinds
	}
	out := &Batch{Cols: cols, Kinds: kinds, Len: bb.n}
	bb.kinds, bb.hasKinds, bb.n = nil, false, 0
	return out
}

// The range of a TIMESTAMP(7..9) value, an int64 of nanoseconds.
var (
	minNanosTime = time.Unix(0, math.MinInt64).UTC()
	maxNanosTime = time.Unix(0, math.MaxInt64).UTC()
)

// CheckTimestampRange reports an error when t cannot be held by a column of
// type dt: a TIMESTAMP(7..9) or TIMESTAMP_LTZ(7..9) is stored in int64
// nanoseconds since the epoch, 1677-09-21 00:12:43.145224192 to
// 2262-04-11 23:47:16.854775807 UTC, where Flink's range is 0000-01-01 to
// 9999-12-31 at every precision. Riffle fails (or TRY_CAST gives NULL)
// rather than wrapping to a wrong date. Other types and precisions up to 6
// always pass (nil).
func CheckTimestampRange(t time.Time, dt *DataType) error {
	if dt == nil || (dt.Root != TimestampRoot && dt.Root != TimestampLTZRoot) ||
		TimestampUnit(dt.Precision) != arrow.Nanosecond {
		return nil
	}
	if t.Before(minNanosTime) || t.After(maxNanosTime) {
		const layout = "2006-01-02 15:04:05.999999999"
		return fmt.Errorf("value %s is out of the range of %s: precisions above 6 are stored in int64 nanoseconds, from %s to %s; use a precision of at most 6 for other dates",
			t.Format(layout), dt.WithNullable(true), minNanosTime.Format(layout), maxNanosTime.Format(layout))
	}
	return nil
}

func checkValue(v any, t *DataType) error {
	if v == nil {
		return nil
	}
	ok := true
	switch t.Root {
	case Boolean:
		_, ok = v.(bool)
	case TinyInt:
		_, ok = v.(int8)
	case SmallInt:
		_, ok = v.(int16)
	case Integer:
		_, ok = v.(int32)
	case BigInt:
		_, ok = v.(int64)
	case Float:
		_, ok = v.(float32)
	case Double:
		_, ok = v.(float64)
	case DecimalRoot:
		_, ok = v.(Decimal)
	case Char, VarChar:
		_, ok = v.(string)
	case Binary, VarBinary, Raw:
		_, ok = v.([]byte)
	case VariantRoot:
		_, ok = v.(Variant)
	case DateRoot:
		_, ok = v.(Date)
	case TimeRoot:
		_, ok = v.(LocalTime)
	case TimestampRoot, TimestampLTZRoot:
		var x time.Time
		if x, ok = v.(time.Time); ok {
			if err := CheckTimestampRange(x, t); err != nil {
				return err
			}
		}
	case IntervalYearMonthRoot:
		_, ok = v.(Months)
	case IntervalDayTimeRoot:
		_, ok = v.(time.Duration)
	case ArrayRoot:
		_, ok = v.([]any)
	case MapRoot, MultisetRoot:
		_, ok = v.(*Map)
	case RowRoot:
		_, ok = v.(*Row)
	case Null:
		ok = false
	}
	if !ok {
		return fmt.Errorf("value %v (%T) does not match type %s", v, v, t)
	}
	return nil
}

// AppendValue appends a Go value (or nil) of logical type t to an Arrow
// builder made for ToArrow(t). It panics on a mismatched value; callers
// validate first (BatchBuilder.Append does).
func AppendValue(b array.Builder, v any, t *DataType) {
	if v == nil {
		b.AppendNull()
		return
	}
	switch bb := b.(type) {
	case *array.BooleanBuilder:
		bb.Append(v.(bool))
	case *array.Int8Builder:
		bb.Append(v.(int8))
	case *array.Int16Builder:
		bb.Append(v.(int16))
	case *array.Int32Builder:
		bb.Append(v.(int32))
	case *array.Int64Builder:
		bb.Append(v.(int64))
	case *array.Float32Builder:
		bb.Append(v.(float32))
	case *array.Float64Builder:
		bb.Append(v.(float64))
	case *array.Decimal128Builder:
		d := v.(Decimal)
		if d.Scale != int32(t.Scale) {
			r, err := d.Rescale(int32(t.Scale), 0)
			if err != nil {
				bb.AppendNull()
				return
			}
			d = r
		}
		bb.Append(d.Unscaled)
	case *array.StringBuilder:
		bb.Append(v.(string))
	case *array.BinaryBuilder:
		if x, ok := v.(Variant); ok {
			bb.Append([]byte(x))
			return
		}
		bb.Append(v.([]byte))
	case *array.Date32Builder:
		bb.Append(arrow.Date32(v.(Date)))
	case *array.Time32Builder:
		bb.Append(arrow.Time32(int64(v.(LocalTime)) / 1_000_000))
	case *array.Time64Builder:
		bb.Append(arrow.Time64(v.(LocalTime)))
	case *array.TimestampBuilder:
		unit := bb.Type().(*arrow.TimestampType).Unit
		bb.Append(arrow.Timestamp(TimeToUnits(v.(time.Time), unit)))
	case *array.MonthIntervalBuilder:
		bb.Append(arrow.MonthInterval(v.(Months)))
	case *array.DurationBuilder:
		bb.Append(arrow.Duration(v.(time.Duration) / time.Millisecond))
	case *array.MapBuilder:
		m := v.(*Map)
		kt, vt := t.Key, t.Value
		if t.Root == MultisetRoot {
			kt, vt = t.Elem, IntType()
		}
		bb.Append(true)
		for i := range m.Keys {
			AppendValue(bb.KeyBuilder(), m.Keys[i], kt)
			AppendValue(bb.ItemBuilder(), m.Values[i], vt)
		}
	case *array.ListBuilder:
		l := v.([]any)
		bb.Append(true)
		for _, e := range l {
			AppendValue(bb.ValueBuilder(), e, t.Elem)
		}
	case *array.StructBuilder:
		r := v.(*Row)
		bb.Append(true)
		for f := 0; f < bb.NumField(); f++ {
			var fv any
			if f < len(r.Values) {
				fv = r.Values[f]
			}
			AppendValue(bb.FieldBuilder(f), fv, t.Fields[f].Type)
		}
	case *array.NullBuilder:
		bb.AppendNull()
	default:
		panic(fmt.Sprintf("types.AppendValue: unsupported builder %T", b))
	}
}

// CheckValue validates that v is a Go value of logical type t (nil allowed).
func CheckValue(v any, t *DataType) error { return checkValue(v, t) }
