package runtime

import (
	"testing"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
)

// Within one batch, key 1's row bridges two sessions (freeing one session
// id) and then key 2 opens a session: key 2's rows must not follow the
// merged id into key 1's session (regression: the freed id was reused in
// the same batch and its rows were redirected).
func TestSessionMergeThenNewKeyInOneBatch(t *testing.T) {
	op := &SessionWindows{
		Keys: []int{0}, KeyTypes: []*types.DataType{types.BigIntType()},
		Aggs:     []opspec.AggSpec{{Func: "COUNT", Filter: -1, Type: types.BigIntType().NotNull()}},
		Window:   opspec.WindowSpec{Kind: opspec.SessionWindow, Gap: 20},
		TimeCol:  1,
		Props:    []opspec.WindowProp{opspec.PropStart, opspec.PropEnd},
		OutTypes: []*types.DataType{types.BigIntType(), types.BigIntType().NotNull(), types.TimestampType(3), types.TimestampType(3)},
	}
	in := []*types.DataType{types.BigIntType(), types.TimestampType(3)}
	h := newHarness(t, op, op.OutTypes, false, nil)
	h.push(0, in, ins(int64(1), ms(0)), ins(int64(1), ms(30)))
	h.push(0, in, ins(int64(1), ms(15)), ins(int64(2), ms(100)), ins(int64(2), ms(101)))
	h.watermark(0, 1000)
	h.expect("+I[1, 3, 1970-01-01T00:00, 1970-01-01T00:00:00.050]", "+I[2, 2, 1970-01-01T00:00:00.100, 1970-01-01T00:00:00.121]", "WM(1000)")
}
