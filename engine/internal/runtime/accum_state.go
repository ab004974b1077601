package runtime

import (
	"encoding"
	"fmt"
	"math/big"
	"reflect"

	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/internal/state"
)

// Snapshots of accumulators: writeAcc saves the state of groups 0..n-1 of
// an accumulator, readAcc restores it into a new accumulator of the same
// call (newAccumulator's, with a user-defined function's instance opened).
// What is saved per kind:
//
//	COUNT                       the counts
//	SUM, SUM0, AVG              the sums (int64, float64 or exact big.Int) and the counts
//	MIN, MAX                    whether a group has a value, and the value
//	MIN, MAX with retraction    each group's multiset (value key, value, count) and its best entry
//	variance family             the counts and Welford's mean and M2, or exact sums of decimals
//	COLLECT, LISTAGG, FIRST/LAST_VALUE, ARRAY_AGG, JSON_*AGG, SINGLE_VALUE, PERCENTILE
//	                            each group's argument rows in arrival order
//	DISTINCT                    the dictionary of distinct values, the (group, value)
//	                            multiplicities, each group's members, then the inner accumulator
//	user-defined                each group's accumulator: MarshalBinary's bytes when it
//	                            implements encoding.BinaryMarshaler, else the value itself
//	                            (state.Writer.Any: numbers, strings, SQL values, pointers to
//	                            numbers and strings); another accumulator is an error naming
//	                            the function

// Tags of a user-defined accumulator's saved form.
const (
	userAccBinary uint8 = 1 // MarshalBinary's bytes
	userAccValue  uint8 = 2 // state.Writer.Any
)

func writeAcc(w *state.Writer, acc accumulator, n int) {
	switch a := acc.(type) {
	case *countAcc:
		w.Int64s(a.counts[:n])
	case sumCountState: // SUM, SUM0 and AVG
		a.writeState(w, n)
	case *extremeAcc:
		w.Bools(a.has[:n])
		switch a.kind {
		case 0:
			w.Int64s(a.i64[:n])
		case 1:
			w.Float64s(a.f64[:n])
		case 2:
			for _, d := range a.dec[:n] {
				w.Int64(d.HighBits())
				w.Uint64(d.LowBits())
			}
		case 3:
			for _, s := range a.str[:n] {
				w.String(s)
			}
		default:
			for _, v := range a.any[:n] {
				w.Value(v, a.t)
			}
		}
	case *extremeRetractAcc:
		for g, m := range a.groups[:n] {
			w.Count(len(m))
			best := -1
			i := 0
			for k, e := range m {
				w.String(k)
				w.Value(e.val, a.t)
				w.Varint(e.count)
				if e == a.best[g] {
					best = i
				}
				i++
			}
			w.Varint(int64(best))
		}
	case *varianceAcc:
		w.Int64s(a.cnt[:n])
		switch a.kind {
		case 0, 1:
			w.Float64s(a.mean[:n])
			w.Float64s(a.m2[:n])
		case 2:
			for g := 0; g < n; g++ {
				w.BigRat(a.sumD[g])
				w.BigRat(a.sqD[g])
			}
		}
	case *listAcc:
		for _, rows := range a.rows[:n] {
			w.Count(len(rows))
			for _, row := range rows {
				w.Count(len(row))
				for k, v := range row {
					w.Value(v, a.argTypes[k])
				}
			}
		}
	case *distinctAcc:
		if a.intKey {
			w.Int64s(a.ints)
		} else {
			w.Count(len(a.keys))
			for _, k := range a.keys {
				w.String(k)
			}
		}
		writeU64Table(w, &a.pairs)
		for _, m := range a.members[:n] {
			w.Int32s(m)
		}
		writeAcc(w, a.inner, n)
	case *userAcc:
		scratch := state.NewWriter(64)
		for _, v := range a.accs[:n] {
			if m, ok := v.(encoding.BinaryMarshaler); ok {
				b, err := m.MarshalBinary()
				if err != nil {
					w.Fail(fmt.Errorf("accumulator of %s cannot be checkpointed: MarshalBinary: %w", a.spec.Func, err))
					return
				}
				w.Uint8(userAccBinary)
				w.Bytes(b)
				continue
			}
			scratch.Reset()
			scratch.Any(v)
			if scratch.Err() != nil {
				w.Fail(fmt.Errorf("accumulator of %s cannot be checkpointed: implement encoding.BinaryMarshaler (its %T is not a value a snapshot holds)", a.spec.Func, v))
				return
			}
			w.Uint8(userAccValue)
			w.Raw(scratch.Data())
		}
	default:
		w.Fail(fmt.Errorf("accumulator %T cannot be checkpointed", acc))
	}
}

func writeBigInts(w *state.Writer, vs []*big.Int) {
	for _, v := range vs {
		w.BigInt(v)
	}
}

func readBigInts(r *state.Reader, n int) []*big.Int {
	out := make([]*big.Int, 0, min(n, r.Remaining()))
	for i := 0; i < n && r.Err() == nil; i++ {
		out = append(out, r.BigInt())
	}
	return out
}

// readN reads a slice of n elements with read; a saved slice of another
// length is a failure.
func readN[T any](r *state.Reader, n int, read func() []T, what string) []T {
	vs := read()
	if r.Err() == nil && len(vs) != n {
		r.Failf("want %d %s, found %d", n, what, len(vs))
	}
	if vs == nil {
		vs = []T{}
	}
	return vs
}

// readAcc restores groups 0..n-1 of acc, an accumulator just built for
// the same call. Its state is only valid when r has no error.
func readAcc(r *state.Reader, acc accumulator, n int) {
	// counts and sums are read whole; on a failure the slices may be short,
	// but then the accumulator is dropped
	switch a := acc.(type) {
	case *countAcc:
		a.counts = readN(r, n, r.Int64s, "counts")
	case sumCountState: // SUM, SUM0 and AVG
		a.readState(r, n)
	case *extremeAcc:
		a.has = readN(r, n, r.Bools, "flags")
		switch a.kind {
		case 0:
			a.i64 = readN(r, n, r.Int64s, "values")
		case 1:
			a.f64 = readN(r, n, r.Float64s, "values")
		case 2:
			a.dec = make([]decimal128.Num, 0, min(n, r.Remaining()/16))
			for g := 0; g < n && r.Err() == nil; g++ {
				hi := r.Int64()
				a.dec = append(a.dec, decimal128.New(hi, r.Uint64()))
			}
		case 3:
			a.str = make([]string, 0, min(n, r.Remaining()))
			for g := 0; g < n && r.Err() == nil; g++ {
				a.str = append(a.str, r.String())
			}
		default:
			a.any = make([]any, 0, min(n, r.Remaining()))
			for g := 0; g < n && r.Err() == nil; g++ {
				a.any = append(a.any, r.Value(a.t))
			}
		}
	case *extremeRetractAcc:
		a.groups = make([]map[string]*multiEntry, n)
		a.best = make([]*multiEntry, n)
		for g := 0; g < n && r.Err() == nil; g++ {
			cnt := r.Count(3)
			if cnt == 0 {
				r.Varint() // best: none
				continue
			}
			m := make(map[string]*multiEntry, cnt)
			entries := make([]*multiEntry, cnt)
			for i := 0; i < cnt && r.Err() == nil; i++ {
				k := r.String()
				e := &multiEntry{val: r.Value(a.t), count: r.Varint()}
				m[k], entries[i] = e, e
			}
			best := r.Varint()
			if best < -1 || best >= int64(cnt) {
				r.Failf("want the index of a group's best value (-1 to %d), found %d", cnt-1, best)
				return
			}
			a.groups[g] = m
			if best >= 0 {
				a.best[g] = entries[best]
			}
		}
	case *varianceAcc:
		a.cnt = readN(r, n, r.Int64s, "counts")
		switch a.kind {
		case 0, 1:
			a.mean = readN(r, n, r.Float64s, "means")
			a.m2 = readN(r, n, r.Float64s, "M2 sums")
		case 2:
			a.sumD = make([]*big.Rat, 0, min(n, r.Remaining()))
			a.sqD = make([]*big.Rat, 0, min(n, r.Remaining()))
			for g := 0; g < n && r.Err() == nil; g++ {
				a.sumD = append(a.sumD, r.BigRat())
				a.sqD = append(a.sqD, r.BigRat())
			}
		}
	case *listAcc:
		a.rows = make([][][]any, n)
		for g := 0; g < n && r.Err() == nil; g++ {
			cnt := r.Count(1)
			if cnt == 0 {
				continue
			}
			rows := make([][]any, cnt)
			for i := range rows {
				width := r.Count(1)
				if width > len(a.argTypes) {
					r.Failf("want rows of at most %d arguments, found %d", len(a.argTypes), width)
					return
				}
				row := make([]any, width)
				for k := range row {
					row[k] = r.Value(a.argTypes[k])
				}
				rows[i] = row
			}
			a.rows[g] = rows
		}
	case *distinctAcc:
		var dict int
		if a.intKey {
			a.ints = r.Int64s()
			for id, v := range a.ints {
				a.intIDs.put(v, int32(id))
			}
			dict = len(a.ints)
		} else {
			cnt := r.Count(1)
			a.keys = make([]string, 0, cnt)
			for i := 0; i < cnt && r.Err() == nil; i++ {
				a.keys = append(a.keys, r.String())
			}
			// the same maps keyID and stringID build: short keys of a
			// string argument by shortKey, the others by the string
			for id, k := range a.keys {
				if s, short := shortKeyOf(k); a.strKey && short {
					p, _ := a.shortIDs.slot(s)
					*p = int64(id)
				} else {
					a.ids[k] = int32(id)
				}
			}
			dict = len(a.keys)
		}
		readU64Table(r, &a.pairs, func(k uint64, v int64) bool {
			g, id := int64(k>>32), int64(uint32(k))
			return g < int64(n) && id < int64(dict)
		})
		a.members = make([][]int32, n)
		for g := 0; g < n && r.Err() == nil; g++ {
			a.members[g] = readIDs(r, int32(dict), "a distinct value's number")
		}
		readAcc(r, a.inner, n)
	case *userAcc:
		inst := a.instance()
		a.accs = make([]any, 0, min(n, r.Remaining()))
		for g := 0; g < n && r.Err() == nil; g++ {
			fresh, err := inst.CreateAccumulator()
			if err != nil {
				r.Failf("accumulator of %s: CreateAccumulator: %v", a.spec.Func, err)
				return
			}
			switch tag := r.Uint8(); tag {
			case userAccBinary:
				b := r.Bytes()
				u, ok := fresh.(encoding.BinaryUnmarshaler)
				if !ok {
					r.Failf("accumulator of %s was saved with MarshalBinary, but its %T has no UnmarshalBinary", a.spec.Func, fresh)
					return
				}
				if err := u.UnmarshalBinary(b); err != nil {
					r.Failf("accumulator of %s: UnmarshalBinary: %v", a.spec.Func, err)
					return
				}
			case userAccValue:
				v := r.Any()
				if r.Err() == nil && v != nil && fresh != nil && reflect.TypeOf(v) != reflect.TypeOf(fresh) {
					r.Failf("accumulator of %s was saved as a %T, but the function creates a %T", a.spec.Func, v, fresh)
					return
				}
				fresh = v
			default:
				if r.Err() == nil {
					r.Failf("want the form of a user-defined accumulator (1 or 2), found %d", tag)
				}
				return
			}
			a.accs = append(a.accs, fresh)
		}
	default:
		r.Failf("accumulator %T cannot be restored", acc)
	}
}

// freshAccumulators builds new accumulators for the calls of accs (which
// are opened: a user-defined function's instance is shared), to restore a
// snapshot into without touching accs.
func freshAccumulators(accs []accumulator, specs []opspec.AggSpec, retractable bool) ([]accumulator, error) {
	out := make([]accumulator, len(accs))
	for k, s := range specs {
		acc, err := newAccumulator(s, retractable)
		if err != nil {
			return nil, err
		}
		if u, ok := userOf(acc); ok && k < len(accs) {
			if old, ok := userOf(accs[k]); ok {
				u.inst = old.inst
			}
		}
		out[k] = acc
	}
	return out, nil
}

// userOf returns the user-defined accumulator of acc (also under DISTINCT).
func userOf(acc accumulator) (*userAcc, bool) {
	if d, ok := acc.(*distinctAcc); ok {
		acc = d.inner
	}
	u, ok := acc.(*userAcc)
	return u, ok
}
