package datagen

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/riffle-sql/riffle/engine/connector/internal/columns"
	"github.com/riffle-sql/riffle/engine/types"
)

// genCtx is what generators see for one value.
type genCtx struct {
	r   *rand.Rand
	now time.Time
}

// generator produces the values of one column or nested position.
type generator interface {
	// emit appends one value to col (the column made for the type).
	emit(g *genCtx, col columns.Column)
	// value returns one value as a Go value (nested positions).
	value(g *genCtx) any
}

// field wraps a generator with its null rate.
type field struct {
	gen      generator
	nullRate float64
	seq      *sequence // non-nil for sequence fields
}

func (f *field) emit(g *genCtx, col columns.Column) {
	if f.nullRate > 0 && g.r.Float64() < f.nullRate {
		if f.seq != nil {
			f.seq.advance()
		}
		col.AppendNull()
		return
	}
	f.gen.emit(g, col)
}

func (f *field) value(g *genCtx) any {
	if f.nullRate > 0 && g.r.Float64() < f.nullRate {
		return nil
	}
	return f.gen.value(g)
}

// builder creates generators from the options of a spec.
type builder struct {
	s *spec
}

func (b *builder) errf(path, format string, args ...any) error {
	return fmt.Errorf("table %s: field '%s': %s", b.s.table, path, fmt.Sprintf(format, args...))
}

// build creates the generator of path with type t; top says whether it is
// a column (sequences are only supported there).
func (b *builder) build(path string, t *types.DataType, top bool) (*field, error) {
	o := b.s.fields[path]
	if o == nil {
		o = fieldOpts{}
	}
	nr, err := o.float(b.s.table, path, fNullRate, 0)
	if err != nil {
		return nil, err
	}
	if nr < 0 || nr > 1 {
		return nil, b.errf(path, "null-rate must be between 0 and 1, but was %v", nr)
	}
	f := &field{nullRate: nr}
	kind := o[fKind]
	if kind == "" {
		kind = KindRandom
		if _, hasStart := o[fStart]; hasStart {
			// Flink decides the generator by 'kind' only.
			kind = KindRandom
		}
	}
	switch kind {
	case KindSequence:
		if !top {
			return nil, b.errf(path, "a sequence generator is supported for top-level columns only")
		}
		if !sequenceable(t) {
			return nil, b.errf(path, "type %s does not support the sequence generator", t)
		}
		seq, err := b.sequence(path, t, o)
		if err != nil {
			return nil, err
		}
		f.gen, f.seq = seq, seq
		return f, nil
	case KindRandom:
		if _, ok := o[fStart]; ok {
			return nil, b.errf(path, "options 'start' and 'end' need 'fields.%s.kind' = 'sequence'", path)
		}
		if _, ok := o[fEnd]; ok {
			return nil, b.errf(path, "options 'start' and 'end' need 'fields.%s.kind' = 'sequence'", path)
		}
		g, err := b.random(path, t, o)
		if err != nil {
			return nil, err
		}
		f.gen = g
		return f, nil
	}
	return nil, b.errf(path, "unknown kind '%s'; use 'random' or 'sequence'", kind)
}

func intRange(t *types.DataType) (int64, int64) {
	switch t.Root {
	case types.TinyInt:
		return math.MinInt8, math.MaxInt8
	case types.SmallInt:
		return math.MinInt16, math.MaxInt16
	case types.Integer:
		return math.MinInt32, math.MaxInt32
	case types.IntervalYearMonthRoot:
		return 0, 120000
	case types.IntervalDayTimeRoot:
		return math.MinInt64 / 1_000_000, math.MaxInt64 / 1_000_000
	}
	return math.MinInt64, math.MaxInt64
}

func (b *builder) random(path string, t *types.DataType, o fieldOpts) (generator, error) {
	tb := b.s.table
	switch t.Root {
	case types.Boolean:
		return boolGen{}, nil
	case types.TinyInt, types.SmallInt, types.Integer, types.BigInt, types.IntervalYearMonthRoot, types.IntervalDayTimeRoot:
		lo, hi := intRange(t)
		mn, err := o.int(tb, path, fMin, lo)
		if err != nil {
			return nil, err
		}
		mx, err := o.int(tb, path, fMax, hi)
		if err != nil {
			return nil, err
		}
		if mn < lo || mx > hi {
			return nil, b.errf(path, "min and max must be within the range of %s [%d, %d]", t, lo, hi)
		}
		if mn > mx {
			return nil, b.errf(path, "min %d is greater than max %d", mn, mx)
		}
		return &intGen{t: t, min: mn, max: mx}, nil
	case types.Float, types.Double, types.DecimalRoot:
		lo, hi := math.SmallestNonzeroFloat64, math.MaxFloat64
		if t.Root == types.Float {
			lo, hi = math.SmallestNonzeroFloat32, math.MaxFloat32
		}
		if t.Root == types.DecimalRoot {
			lim := math.Pow(10, float64(t.Precision-t.Scale)) - math.Pow(10, -float64(t.Scale))
			lo, hi = -lim, lim
		}
		mn, err := o.float(tb, path, fMin, lo)
		if err != nil {
			return nil, err
		}
		mx, err := o.float(tb, path, fMax, hi)
		if err != nil {
			return nil, err
		}
		if mn > mx {
			return nil, b.errf(path, "min %v is greater than max %v", mn, mx)
		}
		if t.Root == types.DecimalRoot {
			return &decimalGen{t: t, min: mn, max: mx}, nil
		}
		return &floatGen{t: t, min: mn, max: mx}, nil
	case types.Char, types.VarChar, types.Binary, types.VarBinary:
		def := int64(100)
		fixed := t.Root == types.Char || t.Root == types.Binary
		if t.Length < types.MaxLength && (fixed || t.Length < 100) {
			def = int64(t.Length)
		}
		n, err := o.int(tb, path, fLength, def)
		if err != nil {
			return nil, err
		}
		if n < 0 || n > math.MaxInt32 {
			return nil, b.errf(path, "length must be between 0 and 2147483647, but was %d", n)
		}
		if t.Length < types.MaxLength && n > int64(t.Length) {
			return nil, b.errf(path, "length %d exceeds the length %d of %s", n, t.Length, t)
		}
		if fixed && n != int64(t.Length) {
			return nil, b.errf(path, "length of %s must be %d", t, t.Length)
		}
		vl, err := o.bool(tb, path, fVarLen)
		if err != nil {
			return nil, err
		}
		return &textGen{binary: t.IsBinary(), length: int(n), varLen: vl}, nil
	case types.DateRoot:
		return dateGen{}, nil
	case types.TimeRoot:
		return timeGen{t: t}, nil
	case types.TimestampRoot, types.TimestampLTZRoot:
		d, err := o.duration(tb, path, fMaxPast)
		if err != nil {
			return nil, err
		}
		return &timestampGen{t: t, maxPastMs: d.Milliseconds()}, nil
	case types.ArrayRoot, types.MultisetRoot, types.MapRoot:
		n, err := o.int(tb, path, fLength, 3)
		if err != nil {
			return nil, err
		}
		if n < 0 || n > 1<<20 {
			return nil, b.errf(path, "length must be between 0 and 1048576, but was %d", n)
		}
		switch t.Root {
		case types.ArrayRoot:
			e, err := b.build(path+".element", t.Elem, false)
			if err != nil {
				return nil, err
			}
			return &arrayGen{elem: e, n: int(n)}, nil
		case types.MultisetRoot:
			e, err := b.build(path+".element", t.Elem, false)
			if err != nil {
				return nil, err
			}
			return &mapGen{key: e, val: &field{gen: &intGen{t: types.IntType(), min: 0, max: 10}}, n: int(n)}, nil
		default:
			k, err := b.build(path+".key", t.Key, false)
			if err != nil {
				return nil, err
			}
			v, err := b.build(path+".value", t.Value, false)
			if err != nil {
				return nil, err
			}
			return &mapGen{key: k, val: v, n: int(n), notNullKey: true}, nil
		}
	case types.RowRoot:
		rg := &rowGen{}
		for _, f := range t.Fields {
			g, err := b.build(path+"."+f.Name, f.Type, false)
			if err != nil {
				return nil, err
			}
			rg.fields = append(rg.fields, g)
		}
		return rg, nil
	}
	return nil, b.errf(path, "unsupported type: %s", t)
}

// boxed appends a Go value: the slow path for nested types.
func boxed(col columns.Column, v any) {
	if err := columns.AppendValue(col, v); err != nil {
		col.AppendNull()
	}
}

type boolGen struct{}

func (boolGen) value(g *genCtx) any { return g.r.Uint64()&1 == 1 }
func (boolGen) emit(g *genCtx, col columns.Column) {
	col.(*columns.Bool).Append(g.r.Uint64()&1 == 1)
}

type intGen struct {
	t        *types.DataType
	min, max int64
}

func (i *intGen) draw(r *rand.Rand) int64 {
	span := uint64(i.max - i.min)
	if span == math.MaxUint64 {
		return int64(r.Uint64())
	}
	return i.min + int64(r.Uint64N(span+1))
}

func (i *intGen) value(g *genCtx) any {
	v := i.draw(g.r)
	switch i.t.Root {
	case types.TinyInt:
		return int8(v)
	case types.SmallInt:
		return int16(v)
	case types.Integer:
		return int32(v)
	case types.IntervalYearMonthRoot:
		return types.Months(v)
	case types.IntervalDayTimeRoot:
		return time.Duration(v) * time.Millisecond
	}
	return v
}

func (i *intGen) emit(g *genCtx, col columns.Column) {
	v := i.draw(g.r)
	switch c := col.(type) {
	case *columns.Fixed[int8]:
		c.Append(int8(v))
	case *columns.Fixed[int16]:
		c.Append(int16(v))
	case *columns.Fixed[int32]:
		c.Append(int32(v))
	case *columns.Fixed[int64]:
		c.Append(v)
	}
}

type floatGen struct {
	t        *types.DataType
	min, max float64
}

func (f *floatGen) draw(r *rand.Rand) float64 {
	v := f.min + r.Float64()*(f.max-f.min)
	if math.IsInf(v, 0) {
		v = f.max
	}
	return v
}

func (f *floatGen) value(g *genCtx) any {
	if f.t.Root == types.Float {
		return float32(f.draw(g.r))
	}
	return f.draw(g.r)
}

func (f *floatGen) emit(g *genCtx, col columns.Column) {
	switch c := col.(type) {
	case *columns.Fixed[float32]:
		c.Append(float32(f.draw(g.r)))
	case *columns.Fixed[float64]:
		c.Append(f.draw(g.r))
	}
}

type decimalGen struct {
	t        *types.DataType
	min, max float64
}

func (d *decimalGen) draw(r *rand.Rand) decimal128.Num {
	v := d.min + r.Float64()*(d.max-d.min)
	n, err := decimal128.FromFloat64(v, int32(d.t.Precision), int32(d.t.Scale))
	if err != nil {
		n, _ = decimal128.FromFloat64(d.max, int32(d.t.Precision), int32(d.t.Scale))
	}
	return n
}

func (d *decimalGen) value(g *genCtx) any {
	return types.Decimal{Unscaled: d.draw(g.r), Scale: int32(d.t.Scale)}
}

func (d *decimalGen) emit(g *genCtx, col columns.Column) { col.(*columns.Decimal).Append(d.draw(g.r)) }

const hexChars = "0123456789abcdef"

type textGen struct {
	binary bool
	length int
	varLen bool
}

func (t *textGen) fill(r *rand.Rand, dst []byte) []byte {
	n := t.length
	if t.varLen && n > 0 {
		n = 1 + r.IntN(n)
	}
	for n > 0 {
		u := r.Uint64()
		k := 16
		if t.binary {
			k = 8
		}
		if k > n {
			k = n
		}
		for j := 0; j < k; j++ {
			if t.binary {
				dst = append(dst, byte(u))
				u >>= 8
			} else {
				dst = append(dst, hexChars[u&15])
				u >>= 4
			}
		}
		n -= k
	}
	return dst
}

func (t *textGen) value(g *genCtx) any {
	b := t.fill(g.r, nil)
	if t.binary {
		if b == nil {
			b = []byte{}
		}
		return b
	}
	return string(b)
}

func (t *textGen) emit(g *genCtx, col columns.Column) {
	c := col.(*columns.Bytes)
	c.Commit(t.fill(g.r, c.Extend()))
}

type dateGen struct{}

func localDays(now time.Time) int32 {
	y, m, d := now.Local().Date()
	return int32(types.DateOf(y, m, d))
}

func (dateGen) value(g *genCtx) any { return types.Date(localDays(g.now)) }
func (dateGen) emit(g *genCtx, col columns.Column) {
	col.(*columns.Fixed[int32]).Append(localDays(g.now))
}

type timeGen struct{ t *types.DataType }

func localMillisOfDay(now time.Time) int64 {
	l := now.Local()
	return int64(((l.Hour()*60+l.Minute())*60+l.Second())*1000 + l.Nanosecond()/1_000_000)
}

func (tg timeGen) value(g *genCtx) any {
	return types.LocalTime(localMillisOfDay(g.now) * 1_000_000)
}

func (tg timeGen) emit(g *genCtx, col columns.Column) {
	ms := localMillisOfDay(g.now)
	switch c := col.(type) {
	case *columns.Fixed[int32]:
		c.Append(int32(ms))
	case *columns.Fixed[int64]:
		c.Append(ms * 1_000_000)
	}
}

type timestampGen struct {
	t         *types.DataType
	maxPastMs int64
}

func (ts *timestampGen) millis(g *genCtx) int64 {
	past := int64(0)
	if ts.maxPastMs > 0 {
		past = g.r.Int64N(ts.maxPastMs)
	}
	return g.now.UnixMilli() - past
}

func (ts *timestampGen) value(g *genCtx) any { return time.UnixMilli(ts.millis(g)).UTC() }

func (ts *timestampGen) emit(g *genCtx, col columns.Column) {
	ms := ts.millis(g)
	col.(*columns.Fixed[int64]).Append(ms * (types.UnitsPerSecond(types.TimestampUnit(ts.t.Precision)) / 1000))
}

type arrayGen struct {
	elem *field
	n    int
}

func (a *arrayGen) value(g *genCtx) any {
	out := make([]any, a.n)
	for i := range out {
		out[i] = a.elem.value(g)
	}
	return out
}

func (a *arrayGen) emit(g *genCtx, col columns.Column) { boxed(col, a.value(g)) }

type mapGen struct {
	key, val   *field
	n          int
	notNullKey bool
}

// value draws n entries; duplicate (and, for MAP, NULL) keys collapse as
// in the Java HashMap Flink fills.
func (m *mapGen) value(g *genCtx) any {
	out := &types.Map{}
	for i := 0; i < m.n; i++ {
		k := m.key.value(g)
		v := m.val.value(g)
		if k == nil && m.notNullKey {
			continue
		}
		dup := false
		for j, old := range out.Keys {
			if types.ValuesEqual(old, k) {
				out.Values[j] = v
				dup = true
				break
			}
		}
		if !dup {
			out.Keys = append(out.Keys, k)
			out.Values = append(out.Values, v)
		}
	}
	return out
}

func (m *mapGen) emit(g *genCtx, col columns.Column) { boxed(col, m.value(g)) }

type rowGen struct{ fields []*field }

func (r *rowGen) value(g *genCtx) any {
	vals := make([]any, len(r.fields))
	for i, f := range r.fields {
		vals[i] = f.value(g)
	}
	return types.NewRow(vals...)
}

func (r *rowGen) emit(g *genCtx, col columns.Column) { boxed(col, r.value(g)) }

// sequence yields start, start+1, ..., end (inclusive) of one split's part.
type sequence struct {
	t        *types.DataType
	start    *big.Int // of the whole range, in units of the type (unscaled for DECIMAL)
	step     int64
	end      *big.Int
	cur, lim int64 // offsets within the range for this split: [cur, lim)
	base     int64 // start as int64 when it fits
	fstart   float64
}

func (b *builder) sequence(path string, t *types.DataType, o fieldOpts) (*sequence, error) {
	sv, ok1 := o[fStart]
	ev, ok2 := o[fEnd]
	if !ok1 {
		return nil, fmt.Errorf("table %s: could not find required property 'fields.%s.start' for sequence generator", b.s.table, path)
	}
	if !ok2 {
		return nil, fmt.Errorf("table %s: could not find required property 'fields.%s.end' for sequence generator", b.s.table, path)
	}
	scale := 0
	if t.Root == types.DecimalRoot {
		scale = t.Scale
	}
	parse := func(name, v string) (*big.Int, error) {
		switch t.Root {
		case types.Float, types.Double:
			f, err := strconv.ParseFloat(v, 64)
			if err != nil || f != math.Trunc(f) {
				return nil, fmt.Errorf("table %s: option 'fields.%s.%s' must be a whole number, but was: %s", b.s.table, path, name, v)
			}
			bi, _ := new(big.Float).SetFloat64(f).Int(nil)
			return bi, nil
		case types.DecimalRoot:
			d, err := types.ParseDecimal(v)
			if err != nil {
				return nil, fmt.Errorf("table %s: option 'fields.%s.%s' must be a number, but was: %s", b.s.table, path, name, v)
			}
			r, err := d.Rescale(int32(scale), int32(t.Precision))
			if err != nil {
				return nil, fmt.Errorf("table %s: option 'fields.%s.%s': %v", b.s.table, path, name, err)
			}
			return r.Unscaled.BigInt(), nil
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("table %s: option 'fields.%s.%s' must be an integer, but was: %s", b.s.table, path, name, v)
		}
		lo, hi := intRange(t)
		if t.IsString() {
			lo, hi = math.MinInt64, math.MaxInt64
		}
		if n < lo || n > hi {
			return nil, fmt.Errorf("table %s: option 'fields.%s.%s' = %d is out of the range of %s", b.s.table, path, name, n, t)
		}
		return big.NewInt(n), nil
	}
	s, err := parse(fStart, sv)
	if err != nil {
		return nil, err
	}
	e, err := parse(fEnd, ev)
	if err != nil {
		return nil, err
	}
	if s.Cmp(e) > 0 {
		return nil, b.errf(path, "sequence start %s is greater than end %s", sv, ev)
	}
	step := int64(1)
	for i := 0; i < scale; i++ {
		step *= 10
	}
	count := new(big.Int).Sub(e, s)
	count.Quo(count, big.NewInt(step))
	count.Add(count, big.NewInt(1))
	if !count.IsInt64() || !s.IsInt64() || !e.IsInt64() {
		return nil, b.errf(path, "sequence range %s..%s is too large", sv, ev)
	}
	return &sequence{t: t, start: s, end: e, step: step, lim: count.Int64(), base: s.Int64()}, nil
}

// total is the number of values of the whole range.
func (s *sequence) total() int64 { return s.lim }

// restrict keeps the part of split i of n.
func (s *sequence) restrict(i, n int) {
	lo, cnt := share(s.total(), i, n)
	s.cur, s.lim = lo, lo+cnt
}

func (s *sequence) remaining() int64 { return s.lim - s.cur }

func (s *sequence) advance() { s.cur++ }

func (s *sequence) next() int64 {
	v := s.base + s.cur*s.step
	s.cur++
	return v
}

func (s *sequence) value(g *genCtx) any {
	v := s.next()
	switch s.t.Root {
	case types.TinyInt:
		return int8(v)
	case types.SmallInt:
		return int16(v)
	case types.Integer:
		return int32(v)
	case types.Float:
		return float32(v)
	case types.Double:
		return float64(v)
	case types.DecimalRoot:
		return types.Decimal{Unscaled: decimal128.FromI64(v), Scale: int32(s.t.Scale)}
	case types.Char, types.VarChar:
		return strconv.FormatInt(v, 10)
	}
	return v
}

func (s *sequence) emit(g *genCtx, col columns.Column) {
	v := s.next()
	switch c := col.(type) {
	case *columns.Fixed[int8]:
		c.Append(int8(v))
	case *columns.Fixed[int16]:
		c.Append(int16(v))
	case *columns.Fixed[int32]:
		c.Append(int32(v))
	case *columns.Fixed[int64]:
		c.Append(v)
	case *columns.Fixed[float32]:
		c.Append(float32(v))
	case *columns.Fixed[float64]:
		c.Append(float64(v))
	case *columns.Decimal:
		c.Append(decimal128.FromI64(v))
	case *columns.Bytes:
		c.Commit(strconv.AppendInt(c.Extend(), v, 10))
	}
}

// share splits total items among n parts: part i starts at offset lo and
// has cnt items (contiguous; the first total%n parts get one more).
func share(total int64, i, n int) (lo, cnt int64) {
	q, r := total/int64(n), total%int64(n)
	lo = int64(i)*q + min(int64(i), r)
	cnt = q
	if int64(i) < r {
		cnt++
	}
	return lo, cnt
}
