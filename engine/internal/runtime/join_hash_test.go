package runtime

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
)

// The batch hash join against a nested loop over the same rows, for a
// single STRING key (the numbered-key table: short and long values, the
// empty string, NULLs, duplicates on both sides) and for a STRING + INT key
// (the generic byte-key table), for every join kind and with IS NOT
// DISTINCT FROM.
func TestHashJoinMatchesNestedLoop(t *testing.T) {
	strT := []*types.DataType{types.StringType(), types.IntType()}
	out := append(append([]*types.DataType(nil), strT...), strT...)
	keys := []any{"a", "bb", "", nil, "a key longer than seven bytes", "a key longer than seven bytez", "zzzzzzz", "zzzzzzzz"}
	var left, right [][2]any
	for i := 0; i < 60; i++ {
		left = append(left, [2]any{keys[(i*5)%len(keys)], int32(i % 3)})
		if i%2 == 0 {
			right = append(right, [2]any{keys[(i*3+1)%len(keys)], int32(i % 2)})
		}
	}
	right = append(right, [2]any{"only on the right", int32(0)})
	str := func(v any) string {
		if v == nil {
			return "null"
		}
		return fmt.Sprint(v)
	}
	for _, twoKeys := range []bool{false, true} {
		for _, nullSafe := range []bool{false, true} {
			for _, kind := range []opspec.JoinKind{opspec.InnerJoin, opspec.LeftJoin, opspec.RightJoin, opspec.FullJoin, opspec.SemiJoin, opspec.AntiJoin} {
				name := fmt.Sprintf("%v/twoKeys=%v/nullSafe=%v", kind, twoKeys, nullSafe)
				t.Run(name, func(t *testing.T) {
					spec := opspec.JoinSpec{Kind: kind, LeftKeys: []int{0}, RightKeys: []int{0}, LeftTypes: strT, RightTypes: strT}
					if twoKeys {
						spec.LeftKeys, spec.RightKeys = []int{0, 1}, []int{0, 1}
					}
					if nullSafe {
						spec.NullSafe = make([]bool, len(spec.LeftKeys))
						for k := range spec.NullSafe {
							spec.NullSafe[k] = true
						}
					}
					ts := out
					if spec.OutputsLeftOnly() {
						ts = strT
					}
					h := newHarness(t, &HashJoin{Spec: spec}, ts, true, nil)
					var rrows, lrows []*types.Row
					for _, r := range right {
						rrows = append(rrows, ins(r[0], r[1]))
					}
					for _, l := range left {
						lrows = append(lrows, ins(l[0], l[1]))
					}
					h.push(1, strT, rrows...)
					if err := h.op.EndInput(1); err != nil {
						t.Fatal(err)
					}
					h.push(0, strT, lrows[:25]...)
					h.push(0, strT, lrows[25:]...)
					if err := h.op.EndInput(0); err != nil {
						t.Fatal(err)
					}
					got := h.out.take()

					eq := func(a, b any) bool {
						if a == nil || b == nil {
							return nullSafe && a == nil && b == nil
						}
						return a == b
					}
					match := func(l, r [2]any) bool {
						return eq(l[0], r[0]) && (!twoKeys || eq(l[1], r[1]))
					}
					var want []string
					rightMatched := make([]bool, len(right))
					for _, l := range left {
						found := false
						for k, r := range right {
							if match(l, r) {
								found, rightMatched[k] = true, true
								if !spec.OutputsLeftOnly() {
									want = append(want, fmt.Sprintf("+I[%s, %s, %s, %s]", str(l[0]), str(l[1]), str(r[0]), str(r[1])))
								}
							}
						}
						switch {
						case kind == opspec.SemiJoin && found, kind == opspec.AntiJoin && !found:
							want = append(want, fmt.Sprintf("+I[%s, %s]", str(l[0]), str(l[1])))
						case (kind == opspec.LeftJoin || kind == opspec.FullJoin) && !found:
							want = append(want, fmt.Sprintf("+I[%s, %s, null, null]", str(l[0]), str(l[1])))
						}
					}
					if kind == opspec.RightJoin || kind == opspec.FullJoin {
						for k, r := range right {
							if !rightMatched[k] {
								want = append(want, fmt.Sprintf("+I[null, null, %s, %s]", str(r[0]), str(r[1])))
							}
						}
					}
					slices.Sort(got)
					slices.Sort(want)
					if strings.Join(got, "\n") != strings.Join(want, "\n") {
						t.Errorf("got %d rows, want %d\ngot:\n%s\nwant:\n%s", len(got), len(want), strings.Join(got, "\n"), strings.Join(want, "\n"))
					}
					if len(want) == 0 {
						t.Error("the case checks nothing")
					}
				})
			}
		}
	}
}

// A HashJoin with Out emits exactly the chosen columns of the rows the
// whole join emits, for every join kind: with a unique build key, a probe
// batch whose every row matches once (its columns are shared, not
// copied), and one with NULL keys and unmatched rows; also with a
// duplicate build key and with no column at all.
func TestHashJoinOutColumns(t *testing.T) {
	strT := []*types.DataType{types.StringType(), types.IntType()}
	out := append(append([]*types.DataType(nil), strT...), strT...)
	uniqueRight := [][2]any{{"a", int32(1)}, {"bb", int32(2)}, {"a key longer than seven bytes", int32(3)}, {"unmatched", int32(4)}, {nil, int32(5)}}
	dupRight := append(append([][2]any(nil), uniqueRight...), [2]any{"bb", int32(6)})
	allMatch := [][2]any{{"bb", int32(10)}, {"a", int32(11)}, {"a key longer than seven bytes", int32(12)}, {"a", int32(13)}}
	someMatch := [][2]any{{nil, int32(20)}, {"a", int32(21)}, {"nowhere", int32(22)}, {"bb", int32(23)}}
	run := func(t *testing.T, spec opspec.JoinSpec, right [][2]any, cols []int) []string {
		ts := out
		if spec.OutputsLeftOnly() {
			ts = strT
		}
		if cols != nil {
			var pts []*types.DataType
			for _, c := range cols {
				pts = append(pts, ts[c])
			}
			ts = pts
		}
		h := newHarness(t, &HashJoin{Spec: spec, Out: cols}, ts, true, nil)
		rows := func(rs [][2]any) (out []*types.Row) {
			for _, r := range rs {
				out = append(out, ins(r[0], r[1]))
			}
			return out
		}
		h.push(1, strT, rows(right)...)
		if err := h.op.EndInput(1); err != nil {
			t.Fatal(err)
		}
		h.push(0, strT, rows(allMatch)...)
		h.push(0, strT, rows(someMatch)...)
		if err := h.op.EndInput(0); err != nil {
			t.Fatal(err)
		}
		got := h.out.take()
		slices.Sort(got)
		return got
	}
	// project keeps the fields cols of rows printed as +I[f0, f1, ...]
	project := func(rows []string, cols []int) []string {
		var out []string
		for _, r := range rows {
			fields := strings.Split(strings.TrimSuffix(strings.TrimPrefix(r, "+I["), "]"), ", ")
			var keep []string
			for _, c := range cols {
				keep = append(keep, fields[c])
			}
			out = append(out, "+I["+strings.Join(keep, ", ")+"]")
		}
		slices.Sort(out)
		return out
	}
	for _, kind := range []opspec.JoinKind{opspec.InnerJoin, opspec.LeftJoin, opspec.RightJoin, opspec.FullJoin, opspec.SemiJoin, opspec.AntiJoin} {
		for _, dup := range []bool{false, true} {
			t.Run(fmt.Sprintf("%v/duplicateBuildKey=%v", kind, dup), func(t *testing.T) {
				right := uniqueRight
				if dup {
					right = dupRight
				}
				spec := opspec.JoinSpec{Kind: kind, LeftKeys: []int{0}, RightKeys: []int{0}, LeftTypes: strT, RightTypes: strT}
				cols := []int{3, 1}
				if spec.OutputsLeftOnly() {
					cols = []int{1}
				}
				whole := run(t, spec, right, nil)
				if len(whole) == 0 {
					t.Fatal("the case checks nothing")
				}
				if got, want := run(t, spec, right, cols), project(whole, cols); !slices.Equal(got, want) {
					t.Errorf("Out %v:\ngot  %s\nwant %s", cols, strings.Join(got, " "), strings.Join(want, " "))
				}
				if got := run(t, spec, right, []int{}); len(got) != len(whole) {
					t.Errorf("Out []: %d rows, want %d", len(got), len(whole))
				}
			})
		}
	}
}
