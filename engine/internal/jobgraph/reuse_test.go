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

func TestSourceReuse(t *testing.T) {
	s, l := types.StringType(), types.BigIntType()
	bid := types.RowType()
	bid.Fields = []types.Field{types.NewField("auction", l), types.NewField("url", s)}
	cols := []plan.Column{{Name: "id", Type: l}, {Name: "bid", Type: bid}}
	get := func(name string, t *types.DataType) expr.Expr {
		return &expr.Call{Name: "GET_FIELD", Args: []expr.Expr{&expr.InputRef{Index: 1, T: bid}, &expr.Literal{Value: name, T: s}}, T: t}
	}
	scan := func(hints map[string]string) *physical.Node {
		return &physical.Node{Op: &physical.TableSourceScan{Table: [3]string{"c", "d", "t"}, Hints: hints,
			Spec: connector.ReadSpec{Columns: []int{0, 1}}}, Cols: cols, Parallelism: 2}
	}
	calc := func(in *physical.Node, e expr.Expr) *physical.Node {
		return &physical.Node{Op: &physical.Calc{Projs: []expr.Expr{e}}, Inputs: []*physical.Node{in}, Parallelism: 2,
			Cols: []plan.Column{{Name: "c", Type: e.Type()}}}
	}
	hash := func(in *physical.Node) *physical.Node {
		return &physical.Node{Op: &physical.Exchange{Dist: opspec.Hash, Keys: []int{0}}, Inputs: []*physical.Node{in}, Cols: in.Cols, Parallelism: 2}
	}
	two := func(op string, a, b *physical.Node) *physical.Node {
		return &physical.Node{Op: textOp(op), Inputs: []*physical.Node{a, b}, Parallelism: 2}
	}
	for _, c := range []struct {
		name   string
		hints  map[string]string // of the second scan
		filter bool              // the second scan has a run-time row filter
		top    func(a, b *physical.Node) *physical.Node
		shared bool
		uses   string // the shared source's uses
	}{
		{name: "two branches", top: func(a, b *physical.Node) *physical.Node {
			return two("Union", calc(a, get("url", s)), calc(b, get("auction", l)))
		}, shared: true, uses: "-, {* *}"},
		{name: "a branch reads a row whole", top: func(a, b *physical.Node) *physical.Node {
			return two("Union", calc(a, get("url", s)), calc(b, &expr.InputRef{Index: 1, T: bid}))
		}, shared: true, uses: "-, *"},
		{name: "a branch reads every column whole", top: func(a, b *physical.Node) *physical.Node {
			return two("Union", calc(a, get("url", s)), &physical.Node{Op: textOp("Sort"), Inputs: []*physical.Node{b}, Parallelism: 2})
		}, shared: true, uses: "all whole"},
		{name: "through exchanges into two operators", top: func(a, b *physical.Node) *physical.Node {
			return two("Join", hash(calc(a, get("url", s))), hash(calc(b, get("url", s))))
		}, shared: true, uses: "-, {- *}"},
		{name: "two sides of a batch hash join", top: func(a, b *physical.Node) *physical.Node {
			return &physical.Node{Op: &physical.Join{}, Inputs: []*physical.Node{hash(calc(a, get("url", s))), hash(calc(b, get("url", s)))}, Parallelism: 2}
		}},
		{name: "two sides of a streaming join", top: func(a, b *physical.Node) *physical.Node {
			return &physical.Node{Op: &physical.Join{Streaming: true}, Inputs: []*physical.Node{hash(calc(a, get("url", s))), hash(calc(b, get("url", s)))}, Parallelism: 2}
		}, shared: true, uses: "-, {- *}"},
		{name: "a self-join", top: func(a, b *physical.Node) *physical.Node {
			return two("Join", hash(a), hash(b))
		}},
		{name: "a union of the table with itself", top: func(a, b *physical.Node) *physical.Node {
			return two("Union", a, b)
		}},
		{name: "other OPTIONS hints", hints: map[string]string{"scan.startup.mode": "latest-offset"}, top: func(a, b *physical.Node) *physical.Node {
			return two("Union", calc(a, get("url", s)), calc(b, get("auction", l)))
		}},
		{name: "a scan with a row filter", filter: true, top: func(a, b *physical.Node) *physical.Node {
			return two("Union", calc(a, get("url", s)), calc(b, get("auction", l)))
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			a, b := scan(nil), scan(c.hints)
			root := c.top(a, b)
			bl := &builder{scanFilters: map[*physical.Node]connector.RowFilter{}}
			if c.filter {
				bl.scanFilters[b] = keepAll{}
			}
			bl.planScanUses([]*physical.Node{root})
			bl.planReuse([]*physical.Node{root}, physical.DefaultReuse)
			got, shared := bl.alias[b]
			if shared != c.shared || (shared && got != a) {
				t.Fatalf("second scan shares the first's source: %v, want %v", shared, c.shared)
			}
			if !shared {
				return
			}
			if u := usesString(bl.scanUses[a]); u != c.uses {
				t.Errorf("shared source's uses %s, want %s", u, c.uses)
			}
		})
	}
}

// keepAll is a run-time row filter that keeps every row.
type keepAll struct{}

func (keepAll) Columns() []bool                                      { return nil }
func (keepAll) Keep(*types.Batch) (sel []int32, all bool, err error) { return nil, true, nil }

// Equal subtrees above the scans are one runtime node (Flink's sub-plan
// reuse); the options turn the sharing of scans, or of everything, off.
func TestSubPlanReuse(t *testing.T) {
	s, l := types.StringType(), types.BigIntType()
	cols := []plan.Column{{Name: "id", Type: l}, {Name: "url", Type: s}}
	scan := func() *physical.Node {
		return &physical.Node{Op: &physical.TableSourceScan{Table: [3]string{"c", "d", "t"},
			Spec: connector.ReadSpec{Columns: []int{0, 1}}}, Cols: cols, Parallelism: 2}
	}
	calc := func(in *physical.Node, e expr.Expr) *physical.Node {
		return &physical.Node{Op: &physical.Calc{Projs: []expr.Expr{e}}, Inputs: []*physical.Node{in}, Parallelism: 2,
			Cols: []plan.Column{{Name: "c", Type: e.Type()}}}
	}
	one := func(op string, in *physical.Node) *physical.Node {
		return &physical.Node{Op: textOp(op), Inputs: []*physical.Node{in}, Cols: in.Cols, Parallelism: 2}
	}
	url := func() expr.Expr { return &expr.InputRef{Index: 1, T: s} }
	for _, c := range []struct {
		name       string
		reuse      physical.Reuse
		secondCalc func() expr.Expr // the second branch's Calc
		union      bool             // the Calcs are the Union's inputs, with no operator between
		calcShared bool
		scanShared bool
	}{
		{name: "equal Calcs", reuse: physical.DefaultReuse, secondCalc: url, calcShared: true, scanShared: true},
		{name: "equal Calcs, no source reuse", reuse: physical.Reuse{SubPlan: true}, secondCalc: url, calcShared: true},
		{name: "equal Calcs, no sub-plan reuse", reuse: physical.Reuse{}, secondCalc: url},
		{name: "other Calcs", reuse: physical.DefaultReuse, secondCalc: func() expr.Expr { return &expr.InputRef{Index: 0, T: l} }, scanShared: true},
		{name: "equal Calcs into one Union", reuse: physical.DefaultReuse, secondCalc: url, union: true, scanShared: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			a, b := scan(), scan()
			ca, cb := calc(a, url()), calc(b, c.secondCalc())
			root := &physical.Node{Op: textOp("Union"), Inputs: []*physical.Node{one("Sort", ca), one("Limit", cb)}, Parallelism: 2}
			if c.union {
				root.Inputs = []*physical.Node{ca, cb}
			}
			bl := &builder{scanFilters: map[*physical.Node]connector.RowFilter{}}
			bl.planScanUses([]*physical.Node{root})
			bl.planReuse([]*physical.Node{root}, c.reuse)
			if got, ok := bl.alias[cb]; ok != c.calcShared || ok && got != ca {
				t.Errorf("second Calc is the first: %v, want %v", ok, c.calcShared)
			}
			if got, ok := bl.alias[b]; ok != c.scanShared || ok && got != a {
				t.Errorf("second scan is the first: %v, want %v", ok, c.scanShared)
			}
		})
	}
}
