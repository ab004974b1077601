package runtime

import (
	"fmt"
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/types"
)

// A batch aggregation given a change (-U/+U/-D) fails with a clear error,
// whether the change comes in the first batch or after insert-only ones
// (which once panicked: index out of range [0] with length 0), and with or
// without group keys; it never gives an answer counting a retraction.
func TestGroupAggBatchRefusesChanges(t *testing.T) {
	ts := []*types.DataType{types.StringType(), types.BigIntType()}
	for _, keys := range [][]int{{0}, nil} {
		for _, inserts := range []int{0, 1, 4096} {
			for _, kind := range []types.RowKind{types.Delete, types.UpdateBefore, types.UpdateAfter} {
				name := fmt.Sprintf("keys %v, %d inserts, then %s", keys, inserts, kind)
				t.Run(name, func(t *testing.T) {
					op := &GroupAgg{Keys: keys, Aggs: nil, Final: true}
					for _, k := range keys {
						op.KeyTypes = append(op.KeyTypes, ts[k])
						op.OutTypes = append(op.OutTypes, ts[k])
					}
					cnt := aggCall("COUNT", false, types.BigIntType())
					op.Aggs = append(op.Aggs, cnt)
					op.OutTypes = append(op.OutTypes, cnt.Type)
					newHarness(t, op, op.OutTypes, true, nil)
					if inserts > 0 {
						bb := types.NewBatchBuilder(ts)
						for i := 0; i < inserts; i++ {
							if err := bb.AppendRow(ins("n", int64(i))); err != nil {
								t.Fatal(err)
							}
						}
						if err := op.ProcessBatch(0, bb.Build()); err != nil {
							t.Fatal(err)
						}
					}
					bb := types.NewBatchBuilder(ts)
					for _, r := range []*types.Row{ins("x", int64(1)), row(kind, "n", int64(0))} {
						if err := bb.AppendRow(r); err != nil {
							t.Fatal(err)
						}
					}
					var err error
					func() {
						defer func() {
							if r := recover(); r != nil {
								err = fmt.Errorf("PANIC: %v", r)
							}
						}()
						err = op.ProcessBatch(0, bb.Build())
					}()
					want := "A batch aggregation consumes only INSERT rows, but its input produced a row of kind " + kind.String()
					if err == nil || !strings.HasPrefix(err.Error(), want) {
						t.Fatalf("got %v, want %s…", err, want)
					}
				})
			}
		}
	}
}
