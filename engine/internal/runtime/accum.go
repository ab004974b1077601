package runtime

import (
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// accumulator is the per-group state of one aggregate, indexed by group id.
type accumulator interface {
	// resize grows the state to n groups.
	resize(n int)
	// update adds (or, if retract, removes) row i of the argument columns
	// to group g. args is nil for COUNT(*).
	update(g int32, args []arrow.Array, i int, retract bool)
	// accumulateBatch adds all rows with gids[i] >= 0 (insert-only input).
	accumulateBatch(gids []int32, args []arrow.Array)
	// result is the current value of group g as a Go value (nil = NULL).
	result(g int32) any
	// memory estimate in bytes.
	size() int64
}

// newAccumulator builds the accumulator for a call. retractable is set when
// the input may contain -U/-D rows (MIN/MAX then keep a multiset).
func newAccumulator(s opspec.AggSpec, retractable bool) (accumulator, error) {
	var acc accumulator
	var argT *types.DataType
	if len(s.ArgTypes) > 0 {
		argT = s.ArgTypes[0]
	}
	if s.Fn != nil && s.Fn.Aggregate != nil {
		// a user-defined aggregate function (udaf.go)
		acc = newUserAccumulator(s)
		if s.Distinct {
			acc = newDistinctAcc(acc, s)
		}
		return acc, nil
	}
	switch s.Func {
	case "COUNT":
		if len(s.Args) == 0 {
			acc = &countAcc{star: true}
		} else {
			acc = &countAcc{}
		}
	case "SUM", "SUM0":
		switch {
		case argT.Root == types.DecimalRoot:
			acc = &sumDecAcc{zero: s.Func == "SUM0", scale: int32(argT.Scale), out: s.Type}
		case argT.IsApproxNumeric():
			acc = &sumFloatAcc{zero: s.Func == "SUM0", out: s.Type}
		default:
			acc = &sumIntAcc{zero: s.Func == "SUM0", out: s.Type}
		}
	case "AVG":
		switch {
		case argT.Root == types.DecimalRoot:
			acc = &avgDecAcc{scale: int32(argT.Scale), out: s.Type}
		case argT.IsApproxNumeric():
			acc = &avgFloatAcc{out: s.Type}
		default:
			acc = &avgIntAcc{out: s.Type}
		}
	case "MIN", "MAX":
		if retractable {
			acc = &extremeRetractAcc{max: s.Func == "MAX", t: argT}
		} else {
			acc = newExtremeAcc(s.Func == "MAX", argT)
		}
	case "STDDEV_POP", "STDDEV_SAMP", "VAR_POP", "VAR_SAMP", "VARIANCE", "STDDEV":
		fn := s.Func
		switch fn {
		case "VARIANCE":
			fn = "VAR_SAMP"
		case "STDDEV":
			fn = "STDDEV_SAMP"
		}
		acc = newVarianceAcc(fn, argT, s.Type)
	default:
		if acc = newListAcc(s); acc == nil {
			return nil, fmt.Errorf("aggregate function %s is not supported", s.Func)
		}
	}
	if s.Distinct {
		acc = newDistinctAcc(acc, s)
	}
	return acc, nil
}

// ---- COUNT

type countAcc struct {
	star   bool
	counts []int64
}

func (a *countAcc) resize(n int) {
	for len(a.counts) < n {
		a.counts = append(a.counts, 0)
	}
}

func (a *countAcc) update(g int32, args []arrow.Array, i int, retract bool) {
	if !a.star && args[0].IsNull(i) {
		return
	}
	if retract {
		a.counts[g]--
	} else {
		a.counts[g]++
	}
}

func (a *countAcc) accumulateBatch(gids []int32, args []arrow.Array) {
	if a.star {
		countRows(a.counts, gids, nil, 0)
		return
	}
	bits, off := validityOf(args[0])
	countRows(a.counts, gids, bits, off)
}

func (a *countAcc) result(g int32) any { return a.counts[g] }
func (a *countAcc) size() int64        { return int64(len(a.counts)) * 8 }

// int64Of reads row i of an integral, date/time or interval column as int64.
func int64Of(arr arrow.Array, i int) int64 {
	switch a := arr.(type) {
	case *array.Int8:
		return int64(a.Value(i))
	case *array.Int16:
		return int64(a.Value(i))
	case *array.Int32:
		return int64(a.Value(i))
	case *array.Int64:
		return a.Value(i)
	case *array.Date32:
		return int64(a.Value(i))
	case *array.Time32:
		return int64(a.Value(i))
	case *array.Time64:
		return int64(a.Value(i))
	case *array.Timestamp:
		return int64(a.Value(i))
	case *array.Duration:
		return int64(a.Value(i))
	case *array.MonthInterval:
		return int64(a.Value(i))
	case *array.Boolean:
		if a.Value(i) {
			return 1
		}
		return 0
	}
	panic("runtime.int64Of: unsupported " + arr.DataType().String())
}

func float64Of(arr arrow.Array, i int) float64 {
	switch a := arr.(type) {
	case *array.Float32:
		return float64(a.Value(i))
	case *array.Float64:
		return a.Value(i)
	}
	return float64(int64Of(arr, i))
}

// int64Values converts an integral column to []int64 (batch fast path).
func int64Values(arr arrow.Array) []int64 {
	switch arr.DataType().ID() {
	case arrow.INT64, arrow.TIMESTAMP, arrow.TIME64, arrow.DURATION:
		return vector.Values[int64](arr)
	case arrow.INT32, arrow.DATE32, arrow.TIME32, arrow.INTERVAL_MONTHS:
		v := vector.Values[int32](arr)
		out := make([]int64, len(v))
		for i, x := range v {
			out[i] = int64(x)
		}
		return out
	}
	out := make([]int64, arr.Len())
	for i := range out {
		if arr.IsValid(i) {
			out[i] = int64Of(arr, i)
		}
	}
	return out
}

// fromInt64 converts the int64 form back to the Go value of type t.
func fromInt64(v int64, t *types.DataType) any {
	switch t.Root {
	case types.TinyInt:
		return int8(v)
	case types.SmallInt:
		return int16(v)
	case types.Integer:
		return int32(v)
	case types.BigInt:
		return v
	case types.DateRoot:
		return types.Date(v)
	case types.TimeRoot:
		if t.Precision <= 3 {
			return types.LocalTime(v * 1_000_000)
		}
		return types.LocalTime(v)
	case types.TimestampRoot, types.TimestampLTZRoot:
		return types.TimeFromUnits(v, types.TimestampUnit(t.Precision))
	case types.IntervalYearMonthRoot:
		return types.Months(v)
	case types.IntervalDayTimeRoot:
		return time.Duration(v) * time.Millisecond
	case types.Boolean:
		return v != 0
	}
	panic("runtime.fromInt64: unsupported " + t.String())
}

// ---- SUM

type sumIntAcc struct {
	zero bool // SUM0: 0, not NULL, for a group of no values
	out  *types.DataType
	intSumCount
}

func (a *sumIntAcc) result(g int32) any {
	if a.cnt[g] == 0 {
		if a.zero {
			return fromInt64(0, a.out)
		}
		return nil
	}
	return fromInt64(a.sums[g], a.out)
}

type sumFloatAcc struct {
	zero bool // SUM0
	out  *types.DataType
	floatSumCount
}

func (a *sumFloatAcc) result(g int32) any {
	if a.cnt[g] == 0 && !a.zero {
		return nil
	}
	if a.out.Root == types.Float {
		return float32(a.sums[g])
	}
	return a.sums[g]
}

type sumDecAcc struct {
	zero  bool // SUM0
	scale int32
	out   *types.DataType
	decSumCount
}

func (a *sumDecAcc) result(g int32) any {
	if a.cnt[g] == 0 && !a.zero {
		return nil
	}
	d, err := types.DecimalFromBig(a.sums[g], a.scale)
	if err != nil || !d.Unscaled.FitsInPrecision(int32(a.out.Precision)) {
		return nil // overflow: NULL, as Flink's DecimalData
	}
	return d
}

// ---- AVG

type avgIntAcc struct {
	out *types.DataType
	intSumCount
}

// result: integer average truncates toward zero (Java long division), as
// Flink's AVG over integral types does.
func (a *avgIntAcc) result(g int32) any {
	if a.cnt[g] == 0 {
		return nil
	}
	return fromInt64(a.sums[g]/a.cnt[g], a.out)
}

type avgFloatAcc struct {
	out *types.DataType
	floatSumCount
}

func (a *avgFloatAcc) result(g int32) any {
	if a.cnt[g] == 0 {
		return nil
	}
	v := a.sums[g] / float64(a.cnt[g])
	if a.out.Root == types.Float {
		return float32(v)
	}
	return v
}

type avgDecAcc struct {
	scale int32
	out   *types.DataType
	decSumCount
}

func (a *avgDecAcc) result(g int32) any {
	if a.cnt[g] == 0 {
		return nil
	}
	r := new(big.Rat).SetFrac(a.sums[g], new(big.Int).Mul(big.NewInt(a.cnt[g]), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(a.scale)), nil)))
	d, err := types.DecimalFromRat(r, int32(a.out.Scale))
	if err != nil || !d.Unscaled.FitsInPrecision(int32(a.out.Precision)) {
		return nil
	}
	return d
}

// ---- MIN / MAX over insert-only input

type extremeAcc struct {
	max  bool
	t    *types.DataType
	kind int // 0 int64, 1 float64, 2 decimal, 3 string, 4 other
	i64  []int64
	f64  []float64
	dec  []decimal128.Num
	str  []string
	any  []any
	has  []bool
}

func newExtremeAcc(isMax bool, t *types.DataType) *extremeAcc {
	a := &extremeAcc{max: isMax, t: t}
	switch {
	case t.IsApproxNumeric():
		a.kind = 1
	case t.Root == types.DecimalRoot:
		a.kind = 2
	case t.IsString() || t.IsBinary():
		a.kind = 3
	case t.IsIntegral() || t.IsDatetime() || t.IsInterval() || t.Root == types.Boolean:
		a.kind = 0
	default:
		a.kind = 4
	}
	return a
}

func (a *extremeAcc) resize(n int) {
	for len(a.has) < n {
		a.has = append(a.has, false)
		switch a.kind {
		case 0:
			a.i64 = append(a.i64, 0)
		case 1:
			a.f64 = append(a.f64, 0)
		case 2:
			a.dec = append(a.dec, decimal128.Num{})
		case 3:
			a.str = append(a.str, "")
		default:
			a.any = append(a.any, nil)
		}
	}
}

func (a *extremeAcc) better(c int) bool {
	if a.max {
		return c > 0
	}
	return c < 0
}

func (a *extremeAcc) update(g int32, args []arrow.Array, i int, _ bool) {
	col := args[0]
	if col.IsNull(i) {
		return
	}
	switch a.kind {
	case 0:
		v := int64Of(col, i)
		if !a.has[g] || a.better(cmp64(v, a.i64[g])) {
			a.i64[g] = v
		}
	case 1:
		v := float64Of(col, i)
		if !a.has[g] || a.better(cmpF(v, a.f64[g])) {
			a.f64[g] = v
		}
	case 2:
		v := col.(*array.Decimal128).Value(i)
		if !a.has[g] || a.better(v.Cmp(a.dec[g])) {
			a.dec[g] = v
		}
	case 3:
		var s string
		if sa, ok := col.(*array.String); ok {
			s = sa.Value(i)
		} else {
			s = string(col.(*array.Binary).Value(i))
		}
		if !a.has[g] || a.better(strings.Compare(s, a.str[g])) {
			a.str[g] = strings.Clone(s)
		}
	default:
		v := types.ValueAt(col, i, a.t)
		if !a.has[g] || a.better(CompareValues(v, a.any[g])) {
			a.any[g] = v
		}
	}
	a.has[g] = true
}

func (a *extremeAcc) accumulateBatch(gids []int32, args []arrow.Array) {
	col := args[0]
	bits, off := validityOf(col)
	switch id := col.DataType().ID(); {
	case a.kind == 0 && (id == arrow.INT64 || id == arrow.TIMESTAMP || id == arrow.TIME64 || id == arrow.DURATION):
		extremeInts(a.i64, a.has, a.max, gids, vector.Values[int64](col), bits, off)
		return
	case a.kind == 0 && (id == arrow.INT32 || id == arrow.DATE32 || id == arrow.TIME32 || id == arrow.INTERVAL_MONTHS):
		extremeInts(a.i64, a.has, a.max, gids, vector.Values[int32](col), bits, off)
		return
	case a.kind == 0 && id == arrow.INT16:
		extremeInts(a.i64, a.has, a.max, gids, vector.Values[int16](col), bits, off)
		return
	case a.kind == 0 && id == arrow.INT8:
		extremeInts(a.i64, a.has, a.max, gids, vector.Values[int8](col), bits, off)
		return
	case a.kind == 1 && id == arrow.FLOAT64:
		extremeFloats(a.f64, a.has, a.max, gids, vector.Values[float64](col), bits, off)
		return
	case a.kind == 1 && id == arrow.FLOAT32:
		extremeFloats(a.f64, a.has, a.max, gids, vector.Values[float32](col), bits, off)
		return
	}
	for i, g := range gids {
		if g >= 0 {
			a.update(g, args, i, false)
		}
	}
}

func (a *extremeAcc) result(g int32) any {
	if !a.has[g] {
		return nil
	}
	switch a.kind {
	case 0:
		return fromInt64(a.i64[g], a.t)
	case 1:
		if a.t.Root == types.Float {
			return float32(a.f64[g])
		}
		return a.f64[g]
	case 2:
		return types.Decimal{Unscaled: a.dec[g], Scale: int32(a.t.Scale)}
	case 3:
		if a.t.IsBinary() {
			return []byte(a.str[g])
		}
		return a.str[g]
	}
	return a.any[g]
}

func (a *extremeAcc) size() int64 {
	n := int64(len(a.has)) * 17
	for _, s := range a.str {
		n += int64(len(s))
	}
	return n
}

func cmp64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func cmpF(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// ---- MIN / MAX with retraction: a multiset of values per group
// (Flink's MinWithRetractAggFunction keeps a MapView of value counts).

type extremeRetractAcc struct {
	max    bool
	t      *types.DataType
	groups []map[string]*multiEntry
	best   []*multiEntry
}

type multiEntry struct {
	val   any
	count int64
}

func (a *extremeRetractAcc) resize(n int) {
	for len(a.groups) < n {
		a.groups = append(a.groups, nil)
		a.best = append(a.best, nil)
	}
}

func (a *extremeRetractAcc) update(g int32, args []arrow.Array, i int, retract bool) {
	col := args[0]
	if col.IsNull(i) {
		return
	}
	key := string(AppendKey(nil, col, i))
	m := a.groups[g]
	if m == nil {
		m = map[string]*multiEntry{}
		a.groups[g] = m
	}
	e := m[key]
	if retract {
		if e == nil {
			return // retraction of an unknown value: ignore, as Flink does
		}
		e.count--
		if e.count <= 0 {
			delete(m, key)
			if a.best[g] == e {
				a.best[g] = nil
				for _, x := range m {
					if a.best[g] == nil || a.better(CompareValues(x.val, a.best[g].val)) {
						a.best[g] = x
					}
				}
			}
		}
		return
	}
	if e == nil {
		e = &multiEntry{val: types.ValueAt(col, i, a.t)}
		m[key] = e
	}
	e.count++
	if a.best[g] == nil || a.better(CompareValues(e.val, a.best[g].val)) {
		a.best[g] = e
	}
}

func (a *extremeRetractAcc) better(c int) bool {
	if a.max {
		return c > 0
	}
	return c < 0
}

func (a *extremeRetractAcc) accumulateBatch(gids []int32, args []arrow.Array) {
	for i, g := range gids {
		if g >= 0 {
			a.update(g, args, i, false)
		}
	}
}

func (a *extremeRetractAcc) result(g int32) any {
	if a.best[g] == nil {
		return nil
	}
	return a.best[g].val
}

func (a *extremeRetractAcc) size() int64 {
	var n int64
	for _, m := range a.groups {
		n += int64(len(m)) * 64
	}
	return n
}

// CompareValues orders two Go values of the same logical type; NULL sorts
// first. It is the slow, general comparison used by sorting and MIN/MAX
// over unusual types.
func CompareValues(a, b any) int {
	if a == nil || b == nil {
		switch {
		case a == nil && b == nil:
			return 0
		case a == nil:
			return -1
		}
		return 1
	}
	switch x := a.(type) {
	case int8:
		return cmp64(int64(x), int64(b.(int8)))
	case int16:
		return cmp64(int64(x), int64(b.(int16)))
	case int32:
		return cmp64(int64(x), int64(b.(int32)))
	case int64:
		return cmp64(x, b.(int64))
	case float32:
		return cmpF(float64(x), float64(b.(float32)))
	case float64:
		return cmpF(x, b.(float64))
	case string:
		return strings.Compare(x, b.(string))
	case []byte:
		return strings.Compare(string(x), string(b.([]byte)))
	case bool:
		y := b.(bool)
		switch {
		case x == y:
			return 0
		case !x:
			return -1
		}
		return 1
	case types.Decimal:
		return x.Cmp(b.(types.Decimal))
	case types.Date:
		return cmp64(int64(x), int64(b.(types.Date)))
	case types.LocalTime:
		return cmp64(int64(x), int64(b.(types.LocalTime)))
	case types.Months:
		return cmp64(int64(x), int64(b.(types.Months)))
	case time.Time:
		return x.Compare(b.(time.Time))
	case time.Duration:
		return cmp64(int64(x), int64(b.(time.Duration)))
	}
	return strings.Compare(fmt.Sprint(a), fmt.Sprint(b))
}

// resultArray builds the output column of an accumulator for groups 0..n-1.
func resultArray(acc accumulator, n int, t *types.DataType) arrow.Array {
	switch a := acc.(type) {
	case *countAcc:
		return vector.FromValues(arrow.PrimitiveTypes.Int64, append([]int64(nil), a.counts[:n]...), nil, 0)
	case *sumIntAcc:
		if t.Root == types.BigInt && !a.zero {
			valid := make([]byte, (n+7)/8)
			for g := 0; g < n; g++ {
				if a.cnt[g] > 0 {
					vector.SetBit(valid, g)
				}
			}
			return vector.FromValues(arrow.PrimitiveTypes.Int64, append([]int64(nil), a.sums[:n]...), valid, -1)
		}
	}
	b := array.NewBuilder(memory.DefaultAllocator, types.ToArrow(t))
	b.Reserve(n)
	for g := 0; g < n; g++ {
		types.AppendValue(b, acc.result(int32(g)), t)
	}
	return b.NewArray()
}
