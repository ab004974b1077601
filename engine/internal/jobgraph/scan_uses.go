package jobgraph

import (
	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/plan/physical"
	"github.com/riffle-sql/riffle/engine/types"
)

// planScanUses gives each table scan how the job reads its columns
// (connector.ReadSpec.Uses), so that a source may skip decoding the
// fields of a ROW column that no operator reads: the Nexmark table's
// person, auction and bid ROWs, of which a query reads a few fields
// (r.f, GET_FIELD) and the computed dateTime one each.
//
// A column's use is followed through the operators that read it field
// by field or pass it on unchanged: a Calc (its condition and
// projections; a projection of the bare column passes it on), a
// WatermarkAssigner (its watermark expression; it passes every column
// on) and an exchange that does not hash on it. Any other reader (a
// sink, a join, an aggregate, a key, an expression taking the whole
// value) reads it whole. The plan and EXPLAIN are unchanged (Flink's
// Kafka source decodes every field).
func (b *builder) planScanUses(roots []*physical.Node) {
	consumers, seen := planParents(roots)
	a := &useAnalysis{consumers: consumers, root: map[*physical.Node]bool{}}
	for _, r := range roots {
		a.root[r] = true
	}
	b.scanUses = map[*physical.Node][]*connector.FieldUse{}
	for p := range seen {
		x, ok := p.Op.(*physical.TableSourceScan)
		if !ok || len(x.Spec.Columns) > len(p.Cols) {
			continue
		}
		uses := make([]*connector.FieldUse, len(x.Spec.Columns))
		partial := false
		for i := range uses {
			uses[i] = a.colUse(p, i, 0)
			partial = partial || !uses[i].Whole()
		}
		if partial {
			b.scanUses[p] = uses
		}
	}
}

type useAnalysis struct {
	consumers map[*physical.Node][]*physical.Node
	root      map[*physical.Node]bool
}

// maxUseDepth bounds how many operators a use is followed through.
const maxUseDepth = 64

// colUse is how the consumers of n read n's column col.
func (a *useAnalysis) colUse(n *physical.Node, col, depth int) *connector.FieldUse {
	if a.root[n] || depth > maxUseDepth {
		return connector.WholeUse
	}
	var u *connector.FieldUse
	for _, c := range a.consumers[n] {
		u = connector.MergeUses(u, a.useIn(c, col, depth+1))
		if u.Whole() {
			break
		}
	}
	return u
}

// useIn is how consumer c (and what it passes the column on to) reads
// column col of its input.
func (a *useAnalysis) useIn(c *physical.Node, col, depth int) *connector.FieldUse {
	if len(c.Inputs) != 1 {
		return connector.WholeUse
	}
	switch x := c.Op.(type) {
	case *physical.Calc:
		var u *connector.FieldUse
		if x.Where != nil {
			u = exprUse(x.Where, col)
		}
		if x.Projs == nil {
			return connector.MergeUses(u, a.colUse(c, col, depth))
		}
		for j, e := range x.Projs {
			if r, ok := e.(*expr.InputRef); ok {
				if r.Index == col {
					u = connector.MergeUses(u, a.colUse(c, j, depth))
				}
				continue
			}
			u = connector.MergeUses(u, exprUse(e, col))
		}
		return u
	case *physical.WatermarkAssigner:
		if x.Rowtime == col {
			return connector.WholeUse
		}
		return connector.MergeUses(exprUse(x.Watermark, col), a.colUse(c, col, depth))
	case *physical.Exchange:
		for _, k := range x.Keys {
			if k == col {
				return connector.WholeUse
			}
		}
		return a.colUse(c, col, depth)
	}
	return connector.WholeUse
}

// exprUse is how e reads input column col: field accesses (GET_FIELD
// chains on the column) read their fields, any other reference the whole
// value.
func exprUse(e expr.Expr, col int) *connector.FieldUse {
	var u *connector.FieldUse
	expr.Walk(e, func(x expr.Expr) bool {
		switch y := x.(type) {
		case *expr.InputRef:
			if y.Index == col {
				u = connector.WholeUse
			}
		case *expr.Literal:
		case *expr.Call:
			if ref, names, ok := fieldPath(y); ok {
				if ref.Index == col {
					u = connector.MergeUses(u, pathUse(ref.T, names))
				}
				return false
			}
		default:
			// an expression whose inputs Walk does not show
			u = connector.WholeUse
		}
		return !u.Whole()
	})
	return u
}

// fieldPath unwinds a ROW field access chain on a column (r.a.b:
// GET_FIELD(GET_FIELD(r, 'a'), 'b')) into the column and the field names.
func fieldPath(c *expr.Call) (*expr.InputRef, []string, bool) {
	if c.Name != "GET_FIELD" || len(c.Args) != 2 || (c.Fn != nil && c.Fn.UDF) {
		return nil, nil, false
	}
	l, ok := c.Args[1].(*expr.Literal)
	if !ok {
		return nil, nil, false
	}
	name, ok := l.Value.(string)
	if !ok {
		return nil, nil, false
	}
	switch x := c.Args[0].(type) {
	case *expr.InputRef:
		return x, []string{name}, true
	case *expr.Call:
		ref, names, ok := fieldPath(x)
		if !ok {
			return nil, nil, false
		}
		return ref, append(names, name), true
	}
	return nil, nil, false
}

// pathUse is the use of a value of type t of which the field at the path
// of names is read whole.
func pathUse(t *types.DataType, names []string) *connector.FieldUse {
	if len(names) == 0 || t.Root != types.RowRoot {
		return connector.WholeUse
	}
	i := t.FieldIndex(names[0])
	if i < 0 {
		return connector.WholeUse
	}
	u := &connector.FieldUse{Fields: make([]*connector.FieldUse, len(t.Fields))}
	u.Fields[i] = pathUse(t.Fields[i].Type, names[1:])
	return u
}
