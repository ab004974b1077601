package runtime

import (
	"fmt"
	"math"
	"math/big"
	"sort"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
)

// Accumulators of the less common aggregates: STDDEV_POP, STDDEV_SAMP,
// VAR_POP, VAR_SAMP (VARIANCE), COLLECT, LISTAGG, FIRST_VALUE, LAST_VALUE,
// ARRAY_AGG, JSON_OBJECTAGG, JSON_ARRAYAGG and PERCENTILE. All support
// retraction, as Flink's *WithRetract variants do.

// ---- variance family

// varianceAcc computes the variance functions as Flink 2.3 plans them:
// a Welford aggregate ($WELFORD_M2: running mean and sum of squared
// deviations M2, in DOUBLE) and COUNT, then
//
//	VAR_POP  = CAST(M2 / COUNT(x) AS <type>)
//	VAR_SAMP = CAST(M2 / (COUNT(x) - 1) AS <type>), NULL for one row
//	STDDEV_* = CAST(POWER(M2 / ..., 0.5) AS <type>)
//
// (EXPLAIN of Flink 2.3.0 shows the Calc over Final_$WELFORD_M2), so an
// integer input's result is the DOUBLE value truncated (VAR_SAMP of INT
// 13 and 18 is 12, from 12.5; MathAggFunctionITCase: STDDEV_POP of INT
// 256, 512, 768 is 209) and M2 never goes negative (FLINK-38740).
// Decimal inputs keep exact sums (big.Rat) and round to the result scale.
type varianceAcc struct {
	fn    string // STDDEV_POP, STDDEV_SAMP, VAR_POP, VAR_SAMP
	in    *types.DataType
	out   *types.DataType
	cnt   []int64
	mean  []float64 // Welford running mean (kinds 0 and 1)
	m2    []float64 // Welford sum of squared deviations
	sumD  []*big.Rat
	sqD   []*big.Rat
	kind  int // 0 integral, 1 approximate, 2 decimal
	width uint
}

func newVarianceAcc(fn string, in, out *types.DataType) *varianceAcc {
	a := &varianceAcc{fn: fn, in: in, out: out}
	switch {
	case in.IsApproxNumeric():
		a.kind = 1
	case in.Root == types.DecimalRoot:
		a.kind = 2
	default:
		a.width = map[types.TypeRoot]uint{types.TinyInt: 8, types.SmallInt: 16, types.Integer: 32, types.BigInt: 64}[in.Root]
	}
	return a
}

// wrap narrows v to the input type's width, as Java arithmetic in that
// type would.
func (a *varianceAcc) wrap(v int64) int64 {
	if a.width == 0 || a.width == 64 {
		return v
	}
	s := 64 - a.width
	return v << s >> s
}

func (a *varianceAcc) resize(n int) {
	for len(a.cnt) < n {
		a.cnt = append(a.cnt, 0)
		switch a.kind {
		case 0, 1:
			a.mean = append(a.mean, 0)
			a.m2 = append(a.m2, 0)
		case 2:
			a.sumD = append(a.sumD, new(big.Rat))
			a.sqD = append(a.sqD, new(big.Rat))
		}
	}
}

func (a *varianceAcc) update(g int32, args []arrow.Array, i int, retract bool) {
	col := args[0]
	if col.IsNull(i) {
		return
	}
	sign := int64(1)
	if retract {
		sign = -1
	}
	a.cnt[g] += sign
	switch a.kind {
	case 0, 1:
		var x float64
		if a.kind == 0 {
			x = float64(int64Of(col, i))
		} else {
			x = float64Of(col, i)
		}
		n := float64(a.cnt[g])
		switch {
		case a.cnt[g] <= 0:
			a.mean[g], a.m2[g] = 0, 0
		case !retract:
			delta := x - a.mean[g]
			a.mean[g] += delta / n
			a.m2[g] += delta * (x - a.mean[g])
		default:
			// the inverse of the Welford step that added x
			delta := x - a.mean[g]
			a.mean[g] -= delta / n
			a.m2[g] -= delta * (x - a.mean[g])
		}
	case 2:
		d := types.Decimal{Unscaled: col.(*array.Decimal128).Value(i), Scale: int32(a.in.Scale)}
		r := d.Rat()
		sq := new(big.Rat).Mul(r, r)
		if retract {
			a.sumD[g].Sub(a.sumD[g], r)
			a.sqD[g].Sub(a.sqD[g], sq)
		} else {
			a.sumD[g].Add(a.sumD[g], r)
			a.sqD[g].Add(a.sqD[g], sq)
		}
	}
}

func (a *varianceAcc) accumulateBatch(gids []int32, args []arrow.Array) {
	for i, g := range gids {
		if g >= 0 {
			a.update(g, args, i, false)
		}
	}
}

func (a *varianceAcc) result(g int32) any {
	n := a.cnt[g]
	samp := strings.HasSuffix(a.fn, "SAMP") || a.fn == "VARIANCE"
	std := strings.HasPrefix(a.fn, "STDDEV")
	if n <= 0 || (samp && n == 1) {
		return nil
	}
	div := n
	if samp {
		div = n - 1
	}
	if a.kind != 2 {
		m2 := a.m2[g]
		if m2 < 0 {
			m2 = 0
		}
		v := m2 / float64(div)
		if std {
			v = math.Pow(v, 0.5)
		}
		switch {
		case a.kind == 0:
			// CAST(DOUBLE AS <integer type>): truncation toward zero
			return fromInt64(a.wrap(int64(math.Trunc(v))), a.out)
		case a.out.Root == types.Float:
			return float32(v)
		}
		return v
	}
	sum, sq := a.sumD[g], a.sqD[g]
	num := new(big.Rat).Sub(sq, new(big.Rat).Quo(new(big.Rat).Mul(sum, sum), new(big.Rat).SetInt64(n)))
	v := num.Quo(num, new(big.Rat).SetInt64(div))
	if v.Sign() < 0 {
		v.SetInt64(0)
	}
	if std {
		f, _ := v.Float64()
		v = new(big.Rat)
		v.SetFloat64(math.Pow(f, 0.5))
	}
	d, err := types.DecimalFromRat(v, int32(a.out.Scale))
	if err != nil || !d.Unscaled.FitsInPrecision(int32(a.out.Precision)) {
		return nil
	}
	return d
}

func (a *varianceAcc) size() int64 { return int64(len(a.cnt)) * 24 }

// ---- list-based accumulators

// listAcc keeps, per group, the argument rows in arrival order (a
// retraction removes the first equal row) and computes its result from
// them. It serves the aggregates whose result depends on all values.
type listAcc struct {
	argTypes []*types.DataType
	rows     [][][]any // group -> rows -> argument values
	finish   func(rows [][]any) (any, error)
	// skipNull drops rows whose first argument is NULL.
	skipNull bool
	err      error
}

func (a *listAcc) resize(n int) {
	for len(a.rows) < n {
		a.rows = append(a.rows, nil)
	}
}

func (a *listAcc) rowAt(args []arrow.Array, i int) []any {
	r := make([]any, len(args))
	for k, c := range args {
		r[k] = types.ValueAt(c, i, a.argTypes[k])
	}
	return r
}

func (a *listAcc) update(g int32, args []arrow.Array, i int, retract bool) {
	if a.skipNull && args[0].IsNull(i) {
		return
	}
	r := a.rowAt(args, i)
	if !retract {
		a.rows[g] = append(a.rows[g], r)
		return
	}
	rows := a.rows[g]
	for k, x := range rows {
		if rowValuesEqual(x, r) {
			a.rows[g] = append(rows[:k:k], rows[k+1:]...)
			return
		}
	}
}

func (a *listAcc) accumulateBatch(gids []int32, args []arrow.Array) {
	for i, g := range gids {
		if g >= 0 {
			a.update(g, args, i, false)
		}
	}
}

func (a *listAcc) result(g int32) any {
	v, err := a.finish(a.rows[g])
	if err != nil && a.err == nil {
		a.err = err
	}
	return v
}

func (a *listAcc) size() int64 {
	var n int64
	for _, r := range a.rows {
		n += int64(len(r)) * 32
	}
	return n
}

// resultErr implements accumulatorErr.
func (a *listAcc) resultErr() error { return a.err }

// accumulatorErr is implemented by accumulators whose result can fail
// (JSON_OBJECTAGG with a duplicate key).
type accumulatorErr interface{ resultErr() error }

// newListAcc builds the list-based accumulator of s, or nil when s is not
// one of them.
func newListAcc(s opspec.AggSpec) accumulator {
	a := &listAcc{argTypes: s.ArgTypes}
	switch s.Func {
	case "COLLECT":
		a.skipNull = true
		a.finish = func(rows [][]any) (any, error) {
			m := &types.Map{}
			for _, r := range rows {
				found := false
				for i, k := range m.Keys {
					if types.ValuesEqual(k, r[0]) {
						m.Values[i] = m.Values[i].(int32) + 1
						found = true
						break
					}
				}
				if !found {
					m.Keys = append(m.Keys, r[0])
					m.Values = append(m.Values, int32(1))
				}
			}
			return m, nil
		}
	case "LISTAGG":
		a.skipNull = true
		sep := ","
		if len(s.Params) > 0 {
			if p, ok := s.Params[0].(string); ok {
				sep = p
			}
		}
		a.finish = func(rows [][]any) (any, error) {
			if len(rows) == 0 {
				return nil, nil
			}
			parts := make([]string, len(rows))
			for i, r := range rows {
				parts[i] = r[0].(string)
			}
			return strings.Join(parts, sep), nil
		}
	case "FIRST_VALUE", "LAST_VALUE":
		a.skipNull = true
		last := s.Func == "LAST_VALUE"
		a.finish = func(rows [][]any) (any, error) {
			if len(rows) == 0 {
				return nil, nil
			}
			if last {
				return rows[len(rows)-1][0], nil
			}
			return rows[0][0], nil
		}
	case "ARRAY_AGG":
		a.skipNull = s.Flags == "IGNORE NULLS"
		a.finish = func(rows [][]any) (any, error) {
			if len(rows) == 0 {
				return nil, nil
			}
			out := make([]any, len(rows))
			for i, r := range rows {
				out[i] = r[0]
			}
			return out, nil
		}
	case "JSON_ARRAYAGG":
		absent := s.Flags != "NULL ON NULL"
		a.skipNull = absent
		a.finish = func(rows [][]any) (any, error) {
			vals := make([]any, len(rows))
			for i, r := range rows {
				vals[i] = r[0]
			}
			return expr.JSONArrayText(vals, a.argTypes[0], s.Raw), nil
		}
	case "JSON_OBJECTAGG":
		absent := s.Flags == "ABSENT ON NULL"
		a.finish = func(rows [][]any) (any, error) {
			var keys []string
			var vals []any
			seen := map[string]bool{}
			for _, r := range rows {
				if r[1] == nil && absent {
					continue
				}
				k, _ := r[0].(string)
				if seen[k] {
					return nil, &expr.EvalError{Func: "JSON_OBJECTAGG", Msg: fmt.Sprintf("Key '%s' is already present. Duplicate keys are not allowed in JSON_OBJECTAGG. Please ensure that keys are unique.", k)}
				}
				seen[k] = true
				keys = append(keys, k)
				vals = append(vals, r[1])
			}
			return expr.JSONObjectText(keys, vals, a.argTypes[1], s.Raw), nil
		}
	case "SINGLE_VALUE":
		a.finish = func(rows [][]any) (any, error) {
			switch len(rows) {
			case 0:
				return nil, nil
			case 1:
				return rows[0][0], nil
			}
			return nil, &expr.EvalError{Msg: "Cannot create a scalar value from a subquery that returns more than one row"}
		}
	case "PERCENTILE":
		a.skipNull = true
		a.finish = func(rows [][]any) (any, error) { return percentile(rows, s) }
	default:
		return nil
	}
	return a
}

// percentile computes PERCENTILE(expr, percentage[, frequency]) with
// linear interpolation between the two nearest values (Flink's
// PercentileAggFunction): rows with a NULL or non-positive frequency are
// ignored.
func percentile(rows [][]any, s opspec.AggSpec) (any, error) {
	type wv struct {
		v float64
		f int64
	}
	var vals []wv
	var total int64
	for _, r := range rows {
		x, ok := expr.NumberAsFloat64(r[0])
		if !ok {
			continue
		}
		f := int64(1)
		if len(r) > 1 {
			if r[1] == nil {
				continue
			}
			f, _ = numberAsInt(r[1])
			if f <= 0 {
				continue
			}
		}
		vals = append(vals, wv{x, f})
		total += f
	}
	var ps []float64
	single := true
	if len(s.Params) > 0 {
		switch p := s.Params[0].(type) {
		case []any:
			single = false
			for _, e := range p {
				f, _ := expr.NumberAsFloat64(e)
				ps = append(ps, f)
			}
		default:
			f, _ := expr.NumberAsFloat64(p)
			ps = append(ps, f)
		}
	}
	if !single && len(ps) == 0 {
		return nil, nil
	}
	if total == 0 {
		return nil, nil
	}
	sort.Slice(vals, func(i, j int) bool { return vals[i].v < vals[j].v })
	at := func(pos int64) float64 {
		var seen int64
		for _, x := range vals {
			seen += x.f
			if pos < seen {
				return x.v
			}
		}
		return vals[len(vals)-1].v
	}
	compute := func(p float64) float64 {
		pos := p * float64(total-1)
		lo := int64(math.Floor(pos))
		hi := int64(math.Ceil(pos))
		lv, hv := at(lo), at(hi)
		return lv + (pos-float64(lo))*(hv-lv)
	}
	if single {
		return compute(ps[0]), nil
	}
	out := make([]any, len(ps))
	for i, p := range ps {
		out[i] = compute(p)
	}
	return out, nil
}

func numberAsInt(v any) (int64, bool) {
	switch x := v.(type) {
	case int8:
		return int64(x), true
	case int16:
		return int64(x), true
	case int32:
		return int64(x), true
	case int64:
		return x, true
	}
	return 0, false
}
