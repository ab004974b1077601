// Package columns builds Arrow arrays from typed Go values without boxing:
// each logical type has an accumulator that appends native values into Go
// slices (values, validity bitmap, offsets) and turns them into an Arrow
// array in one step. Formats (csv, json) and generators (datagen) share it.
//
// The accumulators are not safe for concurrent use. Build hands the
// accumulated memory to the returned array and starts a fresh, empty column
// of the same type, so a column is reused across batches.
package columns

import (
	"fmt"
	"slices"
	"time"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/riffle-sql/riffle/engine/types"
)

// Column accumulates the values of one column of a batch.
type Column interface {
	// Len is the number of values appended since the last Build.
	Len() int
	// AppendNull appends a SQL NULL.
	AppendNull()
	// Build returns the appended values as an Arrow array of the column's
	// Arrow type (types.ToArrow of its logical type) and resets the column.
	Build() arrow.Array
	// Type is the logical type of the column.
	Type() *types.DataType
}

// validity is a lazily allocated validity bitmap: nil while every value is
// valid, so columns without nulls carry no bitmap at all.
type validity struct {
	bits  []byte
	nulls int
}

// set records whether value i (0-based, appended in order) is valid.
func (v *validity) appendNull(i int) {
	if v.bits == nil {
		// All earlier values were valid.
		v.bits = make([]byte, (i+8)/8, (i+8)/8+64)
		for j := 0; j < i; j++ {
			v.bits[j>>3] |= 1 << (j & 7)
		}
	}
	for len(v.bits) <= i>>3 {
		v.bits = append(v.bits, 0)
	}
	v.nulls++
}

// appendNulls records n NULLs from value i on.
func (v *validity) appendNulls(i, n int) {
	if n == 0 {
		return
	}
	if v.bits == nil {
		v.bits = make([]byte, (i+8)/8, (i+n+7)/8+64)
		for j := 0; j < i; j++ {
			v.bits[j>>3] |= 1 << (j & 7)
		}
	}
	for len(v.bits) <= (i+n-1)>>3 {
		v.bits = append(v.bits, 0)
	}
	v.nulls += n
}

func (v *validity) appendValid(i int) {
	if v.bits == nil {
		return
	}
	for len(v.bits) <= i>>3 {
		v.bits = append(v.bits, 0)
	}
	v.bits[i>>3] |= 1 << (i & 7)
}

func (v *validity) buffer() *memory.Buffer {
	if v.bits == nil {
		return nil
	}
	return memory.NewBufferBytes(v.bits)
}

func (v *validity) reset() { v.bits, v.nulls = nil, 0 }

// IsNull reports whether value i is NULL.
func (v *validity) isNull(i int) bool {
	return v.bits != nil && v.bits[i>>3]&(1<<(i&7)) == 0
}

func bytesOf[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	var zero T
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(zero)))
}

func makeArray(dt arrow.DataType, n int, buffers []*memory.Buffer, children []arrow.ArrayData, nulls int) arrow.Array {
	data := array.NewData(dt, n, buffers, children, nulls, 0)
	arr := array.MakeFromData(data)
	data.Release()
	return arr
}

// Native lists the Go types stored in fixed-width columns.
type Native interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~float32 | ~float64
}

// Fixed is a fixed-width column: TINYINT..BIGINT, FLOAT, DOUBLE, DATE
// (int32 days), TIME (int32 ms or int64 ns), TIMESTAMP / TIMESTAMP_LTZ
// (int64 in the unit of types.TimestampUnit), INTERVAL YEAR TO MONTH
// (int32 months) and INTERVAL DAY TO SECOND (int64 ms).
type Fixed[T Native] struct {
	t    *types.DataType
	dt   arrow.DataType
	vals []T
	v    validity
	hint int
}

// NewFixed creates a fixed-width column; capacity is a size hint.
func NewFixed[T Native](t *types.DataType, capacity int) *Fixed[T] {
	return &Fixed[T]{t: t, dt: types.ToArrow(t), vals: make([]T, 0, capacity), hint: capacity}
}

// Append appends a valid value.
func (c *Fixed[T]) Append(x T) {
	c.v.appendValid(len(c.vals))
	c.vals = append(c.vals, x)
}

// AppendNull appends NULL (a zero value slot marked invalid).
func (c *Fixed[T]) AppendNull() {
	c.v.appendNull(len(c.vals))
	c.vals = append(c.vals, 0)
}

// AppendNulls appends n NULLs.
func (c *Fixed[T]) AppendNulls(n int) {
	l := len(c.vals)
	c.v.appendNulls(l, n)
	c.vals = slices.Grow(c.vals, n)[:l+n]
	clear(c.vals[l:])
}

// Len is the number of values.
func (c *Fixed[T]) Len() int { return len(c.vals) }

// Type is the logical type.
func (c *Fixed[T]) Type() *types.DataType { return c.t }

// Values exposes the appended values (tests, generators).
func (c *Fixed[T]) Values() []T { return c.vals }

// Build returns the Arrow array and resets the column.
func (c *Fixed[T]) Build() arrow.Array {
	n := len(c.vals)
	arr := makeArray(c.dt, n, []*memory.Buffer{c.v.buffer(), memory.NewBufferBytes(bytesOf(c.vals))}, nil, c.v.nulls)
	if n > c.hint {
		c.hint = n
	}
	c.vals = make([]T, 0, c.hint)
	c.v.reset()
	return arr
}

// Bool is a BOOLEAN column (bit-packed values).
type Bool struct {
	t    *types.DataType
	bits []byte
	n    int
	v    validity
}

// NewBool creates a BOOLEAN column.
func NewBool(t *types.DataType, capacity int) *Bool {
	return &Bool{t: t, bits: make([]byte, 0, (capacity+7)/8)}
}

// Append appends a valid value.
func (c *Bool) Append(x bool) {
	c.v.appendValid(c.n)
	if c.n&7 == 0 {
		c.bits = append(c.bits, 0)
	}
	if x {
		c.bits[c.n>>3] |= 1 << (c.n & 7)
	}
	c.n++
}

// AppendNull appends NULL.
func (c *Bool) AppendNull() {
	c.v.appendNull(c.n)
	if c.n&7 == 0 {
		c.bits = append(c.bits, 0)
	}
	c.n++
}

// Len is the number of values.
func (c *Bool) Len() int { return c.n }

// Type is the logical type.
func (c *Bool) Type() *types.DataType { return c.t }

// Build returns the Arrow array and resets the column.
func (c *Bool) Build() arrow.Array {
	arr := makeArray(arrow.FixedWidthTypes.Boolean, c.n, []*memory.Buffer{c.v.buffer(), memory.NewBufferBytes(c.bits)}, nil, c.v.nulls)
	c.bits, c.n = make([]byte, 0, cap(c.bits)), 0
	c.v.reset()
	return arr
}

// Bytes is a variable-width column: CHAR/VARCHAR/STRING (Arrow String) or
// BINARY/VARBINARY/BYTES/RAW (Arrow Binary). Values are copied.
type Bytes struct {
	t       *types.DataType
	dt      arrow.DataType
	offsets []int32
	data    []byte
	v       validity
	hintN   int
	hintB   int
}

// NewBytes creates a string or binary column; capacity is a row hint.
func NewBytes(t *types.DataType, capacity int) *Bytes {
	c := &Bytes{t: t, dt: types.ToArrow(t), hintN: capacity, hintB: capacity * 16}
	c.offsets = make([]int32, 1, capacity+1)
	c.data = make([]byte, 0, c.hintB)
	return c
}

// Append appends a copy of b.
func (c *Bytes) Append(b []byte) {
	c.v.appendValid(len(c.offsets) - 1)
	c.data = append(c.data, b...)
	c.offsets = append(c.offsets, int32(len(c.data)))
}

// AppendString appends a copy of s.
func (c *Bytes) AppendString(s string) {
	c.v.appendValid(len(c.offsets) - 1)
	c.data = append(c.data, s...)
	c.offsets = append(c.offsets, int32(len(c.data)))
}

// Extend exposes the data buffer for in-place appends: the caller appends
// bytes to the returned slice and passes it back to Commit. This lets
// decoders unescape straight into the column.
func (c *Bytes) Extend() []byte { return c.data }

// Commit ends a value appended in place via Extend.
func (c *Bytes) Commit(data []byte) {
	c.v.appendValid(len(c.offsets) - 1)
	c.data = data
	c.offsets = append(c.offsets, int32(len(c.data)))
}

// AppendNull appends NULL.
func (c *Bytes) AppendNull() {
	c.v.appendNull(len(c.offsets) - 1)
	c.offsets = append(c.offsets, int32(len(c.data)))
}

// AppendNulls appends n NULLs.
func (c *Bytes) AppendNulls(n int) {
	c.v.appendNulls(len(c.offsets)-1, n)
	end := int32(len(c.data))
	for range n {
		c.offsets = append(c.offsets, end)
	}
}

// Len is the number of values.
func (c *Bytes) Len() int { return len(c.offsets) - 1 }

// Type is the logical type.
func (c *Bytes) Type() *types.DataType { return c.t }

// Build returns the Arrow array and resets the column.
func (c *Bytes) Build() arrow.Array {
	n := len(c.offsets) - 1
	arr := makeArray(c.dt, n, []*memory.Buffer{c.v.buffer(), memory.NewBufferBytes(bytesOf(c.offsets)), memory.NewBufferBytes(c.data)}, nil, c.v.nulls)
	if n > c.hintN {
		c.hintN = n
	}
	if n > 0 {
		// the next batch's bytes at this one's bytes per row (a hint that
		// only grew kept 16 bytes a row for 3-byte codes: 5× the bytes)
		c.hintB = int(int64(len(c.data)) * int64(c.hintN) / int64(n))
	}
	c.offsets = make([]int32, 1, c.hintN+1)
	c.data = make([]byte, 0, c.hintB+c.hintB/8)
	c.v.reset()
	return arr
}

// Decimal is a DECIMAL(p, s) column of unscaled 128-bit values at the
// column's scale.
type Decimal struct {
	t    *types.DataType
	vals []decimal128.Num
	v    validity
	hint int
}

// NewDecimal creates a DECIMAL column.
func NewDecimal(t *types.DataType, capacity int) *Decimal {
	return &Decimal{t: t, vals: make([]decimal128.Num, 0, capacity), hint: capacity}
}

// Append appends an unscaled value already at the column's scale.
func (c *Decimal) Append(x decimal128.Num) {
	c.v.appendValid(len(c.vals))
	c.vals = append(c.vals, x)
}

// AppendNull appends NULL.
func (c *Decimal) AppendNull() {
	c.v.appendNull(len(c.vals))
	c.vals = append(c.vals, decimal128.Num{})
}

// Len is the number of values.
func (c *Decimal) Len() int { return len(c.vals) }

// Type is the logical type.
func (c *Decimal) Type() *types.DataType { return c.t }

// Build returns the Arrow array and resets the column.
func (c *Decimal) Build() arrow.Array {
	n := len(c.vals)
	arr := makeArray(types.ToArrow(c.t), n, []*memory.Buffer{c.v.buffer(), memory.NewBufferBytes(bytesOf(c.vals))}, nil, c.v.nulls)
	if n > c.hint {
		c.hint = n
	}
	c.vals = make([]decimal128.Num, 0, c.hint)
	c.v.reset()
	return arr
}

// List is an ARRAY<T> column: append the elements to Elem, then call
// Append to close the row's list (or AppendNull).
type List struct {
	t       *types.DataType
	Elem    Column
	offsets []int32
	v       validity
}

// Append closes one list value holding the elements appended to Elem
// since the previous row.
func (c *List) Append() {
	c.v.appendValid(len(c.offsets) - 1)
	c.offsets = append(c.offsets, int32(c.Elem.Len()))
}

// AppendNull appends a NULL list (no elements).
func (c *List) AppendNull() {
	c.v.appendNull(len(c.offsets) - 1)
	c.offsets = append(c.offsets, int32(c.Elem.Len()))
}

// Len is the number of lists.
func (c *List) Len() int { return len(c.offsets) - 1 }

// Type is the logical type.
func (c *List) Type() *types.DataType { return c.t }

// Build returns the Arrow array and resets the column.
func (c *List) Build() arrow.Array {
	n := len(c.offsets) - 1
	elems := c.Elem.Build()
	arr := makeArray(types.ToArrow(c.t), n, []*memory.Buffer{c.v.buffer(), memory.NewBufferBytes(bytesOf(c.offsets))}, []arrow.ArrayData{elems.Data()}, c.v.nulls)
	elems.Release()
	c.offsets = make([]int32, 1, cap(c.offsets))
	c.v.reset()
	return arr
}

// Map is a MAP<K, V> or MULTISET<T> (element -> INT count) column: append
// one key and one value per entry, then Append to close the row's map.
type Map struct {
	t       *types.DataType
	Keys    Column
	Items   Column
	offsets []int32
	v       validity
}

// Append closes one map value holding the entries appended since the
// previous row.
func (c *Map) Append() {
	c.v.appendValid(len(c.offsets) - 1)
	c.offsets = append(c.offsets, int32(c.Keys.Len()))
}

// AppendNull appends a NULL map.
func (c *Map) AppendNull() {
	c.v.appendNull(len(c.offsets) - 1)
	c.offsets = append(c.offsets, int32(c.Keys.Len()))
}

// Len is the number of maps.
func (c *Map) Len() int { return len(c.offsets) - 1 }

// Type is the logical type.
func (c *Map) Type() *types.DataType { return c.t }

// Build returns the Arrow array and resets the column.
func (c *Map) Build() arrow.Array {
	n := len(c.offsets) - 1
	mt := types.ToArrow(c.t).(*arrow.MapType)
	keys, items := c.Keys.Build(), c.Items.Build()
	entries := array.NewData(mt.Elem(), keys.Len(), []*memory.Buffer{nil}, []arrow.ArrayData{keys.Data(), items.Data()}, 0, 0)
	arr := makeArray(mt, n, []*memory.Buffer{c.v.buffer(), memory.NewBufferBytes(bytesOf(c.offsets))}, []arrow.ArrayData{entries}, c.v.nulls)
	entries.Release()
	keys.Release()
	items.Release()
	c.offsets = make([]int32, 1, cap(c.offsets))
	c.v.reset()
	return arr
}

// Struct is a ROW column: append one value to every field, then Append;
// AppendNull appends NULL to every field itself. AppendNulls and
// AppendNullDeferred leave the fields' NULLs pending: a writer using them
// calls SyncFields before it appends the fields of a valid row (Build
// syncs too), so that runs of NULL rows cost one append per field.
type Struct struct {
	t      *types.DataType
	Fields []Column
	n      int
	v      validity
	// pending NULL rows not yet appended to the fields
	pending int
}

// Append closes one valid row value (every field must have one more value).
func (c *Struct) Append() {
	c.v.appendValid(c.n)
	c.n++
}

// AppendNull appends a NULL row (and NULL to each field).
func (c *Struct) AppendNull() {
	c.SyncFields()
	for _, f := range c.Fields {
		f.AppendNull()
	}
	c.v.appendNull(c.n)
	c.n++
}

// AppendNullDeferred appends a NULL row whose fields' NULLs stay pending
// until SyncFields or Build.
func (c *Struct) AppendNullDeferred() { c.AppendNulls(1) }

// AppendNulls appends n NULL rows, their fields' NULLs pending until
// SyncFields or Build.
func (c *Struct) AppendNulls(n int) {
	c.v.appendNulls(c.n, n)
	c.n += n
	c.pending += n
}

// SyncFields appends the pending NULLs to every field.
func (c *Struct) SyncFields() {
	if c.pending == 0 {
		return
	}
	for _, f := range c.Fields {
		AppendNulls(f, c.pending)
	}
	c.pending = 0
}

// AppendNulls appends n NULLs to any column, in one call where the column
// has AppendNulls.
func AppendNulls(c Column, n int) {
	if b, ok := c.(interface{ AppendNulls(int) }); ok {
		b.AppendNulls(n)
		return
	}
	for range n {
		c.AppendNull()
	}
}

// Len is the number of rows.
func (c *Struct) Len() int { return c.n }

// Type is the logical type.
func (c *Struct) Type() *types.DataType { return c.t }

// Build returns the Arrow array and resets the column.
func (c *Struct) Build() arrow.Array {
	c.SyncFields()
	children := make([]arrow.ArrayData, len(c.Fields))
	arrs := make([]arrow.Array, len(c.Fields))
	for i, f := range c.Fields {
		arrs[i] = f.Build()
		children[i] = arrs[i].Data()
	}
	arr := makeArray(types.ToArrow(c.t), c.n, []*memory.Buffer{c.v.buffer()}, children, c.v.nulls)
	for _, a := range arrs {
		a.Release()
	}
	c.n = 0
	c.v.reset()
	return arr
}

// Null is a column of the NULL type.
type Null struct {
	t *types.DataType
	n int
}

// AppendNull appends NULL.
func (c *Null) AppendNull() { c.n++ }

// Len is the number of values.
func (c *Null) Len() int { return c.n }

// Type is the logical type.
func (c *Null) Type() *types.DataType { return c.t }

// Build returns the Arrow array and resets the column.
func (c *Null) Build() arrow.Array {
	arr := array.NewNull(c.n)
	c.n = 0
	return arr
}

// Nulls is a column of any type that holds only NULLs: a decoder uses it
// for a value nobody reads (connector.FieldUse), so that the value is
// neither copied nor kept. Build makes an all-NULL array of the type.
type Nulls struct {
	t  *types.DataType
	dt arrow.DataType
	n  int
}

// NewNulls creates an all-NULL column of type t.
func NewNulls(t *types.DataType) *Nulls { return &Nulls{t: t, dt: types.ToArrow(t)} }

// AppendNull appends NULL.
func (c *Nulls) AppendNull() { c.n++ }

// AppendNulls appends n NULLs.
func (c *Nulls) AppendNulls(n int) { c.n += n }

// Len is the number of values.
func (c *Nulls) Len() int { return c.n }

// Type is the logical type.
func (c *Nulls) Type() *types.DataType { return c.t }

// Build returns an all-NULL array of the column's Arrow type and resets
// the column.
func (c *Nulls) Build() arrow.Array {
	arr := array.MakeArrayOfNull(memory.DefaultAllocator, c.dt, c.n)
	c.n = 0
	return arr
}

// New creates the column accumulator for a logical type: *Bool,
// *Fixed[int8|int16|int32|int64|float32|float64], *Bytes, *Decimal, *List,
// *Map, *Struct or *Null. DATE, TIME(p<=3) and INTERVAL YEAR TO MONTH are
// Fixed[int32]; TIME(p>3), TIMESTAMP, TIMESTAMP_LTZ and INTERVAL DAY TO
// SECOND are Fixed[int64].
func New(t *types.DataType, capacity int) (Column, error) {
	switch t.Root {
	case types.Boolean:
		return NewBool(t, capacity), nil
	case types.TinyInt:
		return NewFixed[int8](t, capacity), nil
	case types.SmallInt:
		return NewFixed[int16](t, capacity), nil
	case types.Integer, types.DateRoot, types.IntervalYearMonthRoot:
		return NewFixed[int32](t, capacity), nil
	case types.BigInt, types.TimestampRoot, types.TimestampLTZRoot, types.IntervalDayTimeRoot:
		return NewFixed[int64](t, capacity), nil
	case types.TimeRoot:
		if t.Precision <= 3 {
			return NewFixed[int32](t, capacity), nil
		}
		return NewFixed[int64](t, capacity), nil
	case types.Float:
		return NewFixed[float32](t, capacity), nil
	case types.Double:
		return NewFixed[float64](t, capacity), nil
	case types.DecimalRoot:
		return NewDecimal(t, capacity), nil
	case types.Char, types.VarChar, types.Binary, types.VarBinary, types.Raw:
		return NewBytes(t, capacity), nil
	case types.ArrayRoot:
		elem, err := New(t.Elem, capacity)
		if err != nil {
			return nil, err
		}
		return &List{t: t, Elem: elem, offsets: make([]int32, 1, capacity+1)}, nil
	case types.MapRoot, types.MultisetRoot:
		kt, vt := t.Key, t.Value
		if t.Root == types.MultisetRoot {
			kt, vt = t.Elem, types.IntType().NotNull()
		}
		k, err := New(kt, capacity)
		if err != nil {
			return nil, err
		}
		v, err := New(vt, capacity)
		if err != nil {
			return nil, err
		}
		return &Map{t: t, Keys: k, Items: v, offsets: make([]int32, 1, capacity+1)}, nil
	case types.RowRoot:
		s := &Struct{t: t}
		for _, f := range t.Fields {
			c, err := New(f.Type, capacity)
			if err != nil {
				return nil, err
			}
			s.Fields = append(s.Fields, c)
		}
		return s, nil
	case types.Null:
		return &Null{t: t}, nil
	}
	return nil, fmt.Errorf("unsupported type %s", t)
}

// MustNew is New for types known to be supported; it panics otherwise.
func MustNew(t *types.DataType, capacity int) Column {
	c, err := New(t, capacity)
	if err != nil {
		panic(err)
	}
	return c
}

// AppendValue appends a Go value (see types' value conventions; nil is
// NULL) to any column. It is the slow, boxed path for tests, nested values
// and rarely used types; hot paths use the typed Append methods.
func AppendValue(c Column, v any) error {
	if v == nil {
		c.AppendNull()
		return nil
	}
	t := c.Type()
	if err := types.CheckValue(v, t); err != nil {
		return err
	}
	switch col := c.(type) {
	case *Bool:
		col.Append(v.(bool))
	case *Fixed[int8]:
		col.Append(v.(int8))
	case *Fixed[int16]:
		col.Append(v.(int16))
	case *Fixed[int32]:
		switch x := v.(type) {
		case int32:
			col.Append(x)
		case types.Date:
			col.Append(int32(x))
		case types.Months:
			col.Append(int32(x))
		case types.LocalTime:
			col.Append(int32(int64(x) / 1_000_000))
		}
	case *Fixed[int64]:
		switch x := v.(type) {
		case int64:
			col.Append(x)
		case types.LocalTime:
			col.Append(int64(x))
		case time.Time:
			col.Append(timeUnits(x.Unix(), x.Nanosecond(), t.Precision))
		case time.Duration:
			col.Append(x.Milliseconds())
		}
	case *Fixed[float32]:
		col.Append(v.(float32))
	case *Fixed[float64]:
		col.Append(v.(float64))
	case *Decimal:
		d := v.(types.Decimal)
		r, err := d.Rescale(int32(t.Scale), int32(t.Precision))
		if err != nil {
			return err
		}
		col.Append(r.Unscaled)
	case *Bytes:
		switch x := v.(type) {
		case string:
			col.AppendString(x)
		case []byte:
			col.Append(x)
		}
	case *List:
		for _, e := range v.([]any) {
			if err := AppendValue(col.Elem, e); err != nil {
				return err
			}
		}
		col.Append()
	case *Map:
		m := v.(*types.Map)
		for i := range m.Keys {
			if err := AppendValue(col.Keys, m.Keys[i]); err != nil {
				return err
			}
			if err := AppendValue(col.Items, m.Values[i]); err != nil {
				return err
			}
		}
		col.Append()
	case *Struct:
		r := v.(*types.Row)
		for i, f := range col.Fields {
			var fv any
			if i < len(r.Values) {
				fv = r.Values[i]
			}
			if err := AppendValue(f, fv); err != nil {
				return err
			}
		}
		col.Append()
	default:
		return fmt.Errorf("columns: cannot append %T to %T", v, c)
	}
	return nil
}

// timeUnits converts seconds+nanos to the storage unit of precision p.
func timeUnits(sec int64, nsec int, p int) int64 {
	switch types.TimestampUnit(p) {
	case arrow.Millisecond:
		return sec*1000 + int64(nsec)/1_000_000
	case arrow.Microsecond:
		return sec*1_000_000 + int64(nsec)/1000
	default:
		return sec*1_000_000_000 + int64(nsec)
	}
}
