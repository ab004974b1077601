package jobgraph

import (
	"testing"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/internal/plan/physical"
	"github.com/riffle-sql/riffle/engine/types"
)

// useString renders a use: "-" not read, "*" whole, "{...}" per field.
func useString(u *connector.FieldUse) string {
	switch {
	case u == nil:
		return "-"
	case u.Whole():
		return "*"
	}
	s := "{"
	for i, f := range u.Fields {
		if i > 0 {
			s += " "
		}
		s += useString(f)
	}
	return s + "}"
}

func usesString(us []*connector.FieldUse) string {
	if us == nil {
		return "all whole"
	}
	s := ""
	for i, u := range us {
		if i > 0 {
			s += ", "
		}
		s += useString(u)
	}
	return s
}

// The Nexmark shape: a scan of (event_type, person ROW<id, name, ts>,
// bid ROW<auction, url, ts, inner ROW<a, b>>), a Calc computing the
// event time from the ROWs' ts fields and passing bid on, a
// WatermarkAssigner, and a Calc reading bid's fields: the scan learns
// which fields are read (connector.ReadSpec.Uses).
func TestScanUses(t *testing.T) {
	s, l, ts := types.StringType(), types.BigIntType(), types.TimestampType(3)
	row := func(fs ...any) *types.DataType {
		t := types.RowType()
		for i := 0; i < len(fs); i += 2 {
			t.Fields = append(t.Fields, types.NewField(fs[i].(string), fs[i+1].(*types.DataType)))
		}
		return t
	}
	inner := row("a", l, "b", s)
	person := row("id", l, "name", s, "ts", ts)
	bid := row("auction", l, "url", s, "ts", ts, "inner", inner)
	ref := func(i int, t *types.DataType) *expr.InputRef { return &expr.InputRef{Index: i, T: t} }
	get := func(e expr.Expr, name string, t *types.DataType) expr.Expr {
		return &expr.Call{Name: "GET_FIELD", Args: []expr.Expr{e, &expr.Literal{Value: name, T: s}}, T: t}
	}
	call := func(name string, t *types.DataType, args ...expr.Expr) expr.Expr {
		return &expr.Call{Name: name, Args: args, T: t}
	}
	cols := []plan.Column{{Name: "event_type", Type: types.IntType()}, {Name: "person", Type: person}, {Name: "bid", Type: bid}}
	// each case builds the consumers of a fresh scan and returns the root
	for _, c := range []struct {
		name string
		top  func(scan *physical.Node) *physical.Node
		want string
	}{
		{"nexmark", func(scan *physical.Node) *physical.Node {
			rowtime := call("CASE", ts, call("=", types.BooleanType(), ref(0, types.IntType()), &expr.Literal{Value: int32(0), T: types.IntType()}),
				get(ref(1, person), "ts", ts), get(ref(2, bid), "ts", ts))
			calc1 := &physical.Node{Op: &physical.Calc{Projs: []expr.Expr{ref(0, types.IntType()), ref(2, bid), rowtime}}, Inputs: []*physical.Node{scan},
				Cols: []plan.Column{cols[0], cols[2], {Name: "rt", Type: ts}}, Parallelism: 1}
			wm := &physical.Node{Op: &physical.WatermarkAssigner{Rowtime: 2, Watermark: ref(2, ts)}, Inputs: []*physical.Node{calc1}, Cols: calc1.Cols, Parallelism: 1}
			return &physical.Node{Op: &physical.Calc{
				Where: call("=", types.BooleanType(), ref(0, types.IntType()), &expr.Literal{Value: int32(2), T: types.IntType()}),
				Projs: []expr.Expr{get(ref(1, bid), "auction", l), get(get(ref(1, bid), "inner", inner), "b", s), ref(2, ts)}},
				Inputs: []*physical.Node{wm}, Parallelism: 1}
		}, "*, {- - *}, {* - * {- *}}"},
		{"a row passed to the root whole", func(scan *physical.Node) *physical.Node {
			return &physical.Node{Op: &physical.Calc{Projs: []expr.Expr{get(ref(1, person), "id", l), ref(2, bid)}}, Inputs: []*physical.Node{scan}, Parallelism: 1}
		}, "-, {* - -}, *"},
		{"a row in an expression", func(scan *physical.Node) *physical.Node {
			return &physical.Node{Op: &physical.Calc{Projs: []expr.Expr{call("IS NULL", types.BooleanType(), ref(1, person)), get(ref(2, bid), "url", s)}},
				Inputs: []*physical.Node{scan}, Parallelism: 1}
		}, "-, *, {- * - -}"},
		{"two readers", func(scan *physical.Node) *physical.Node {
			a := &physical.Node{Op: &physical.Calc{Projs: []expr.Expr{get(ref(2, bid), "url", s)}}, Inputs: []*physical.Node{scan}, Parallelism: 1}
			b := &physical.Node{Op: &physical.Calc{Projs: []expr.Expr{get(ref(2, bid), "auction", l)}}, Inputs: []*physical.Node{scan}, Parallelism: 1}
			return &physical.Node{Op: textOp("Union"), Inputs: []*physical.Node{a, b}, Parallelism: 1}
		}, "-, -, {* * - -}"},
		{"hashed on a row", func(scan *physical.Node) *physical.Node {
			x := &physical.Node{Op: &physical.Exchange{Dist: opspec.Hash, Keys: []int{2}}, Inputs: []*physical.Node{scan}, Cols: cols, Parallelism: 1}
			return &physical.Node{Op: &physical.Calc{Projs: []expr.Expr{get(ref(1, person), "name", s), get(ref(2, bid), "url", s)}}, Inputs: []*physical.Node{x}, Parallelism: 1}
		}, "-, {- * -}, *"},
		{"any other reader", func(scan *physical.Node) *physical.Node {
			return &physical.Node{Op: textOp("Join"), Inputs: []*physical.Node{scan}, Parallelism: 1}
		}, "all whole"},
	} {
		t.Run(c.name, func(t *testing.T) {
			scan := &physical.Node{Op: &physical.TableSourceScan{Spec: connector.ReadSpec{Columns: []int{0, 1, 2}}}, Cols: cols, Parallelism: 1}
			root := c.top(scan)
			b := &builder{}
			b.planScanUses([]*physical.Node{root})
			if got := usesString(b.scanUses[scan]); got != c.want {
				t.Errorf("uses %s, want %s", got, c.want)
			}
		})
	}
}

type textOp string

func (o textOp) Name() string                         { return string(o) }
func (textOp) Explain(*physical.Node) []physical.Attr { return nil }
