package binder

import (
	"strings"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/types"
)

// groupWindow is a legacy group window of a GROUP BY: TUMBLE(time_attr,
// size), HOP(time_attr, slide, size) or SESSION(time_attr, gap) (Flink's
// "Group Window Aggregation", deprecated in favour of window TVFs). It is
// bound as a window TVF over the FROM clause, grouped by window_start,
// window_end and window_time; the windowAggregateRule then plans it like
// the TVF form. TUMBLE_START/_END/_ROWTIME/_PROCTIME (and the HOP_ and
// SESSION_ variants) read those columns.
type groupWindow struct {
	call *sql.FuncCall
	name string // TUMBLE, HOP, SESSION
	// key positions of window_start, window_end and window_time among the
	// group expressions (filled when appended)
	start, end, time int
	timeCol          int // index of window_time in the TVF output
	proctime         bool
}

// isGroupWindowCall reports whether e is TUMBLE/HOP/SESSION(...) with at
// least a time argument (the legacy group window syntax).
func isGroupWindowCall(e sql.Expr) (*sql.FuncCall, string, bool) {
	f, ok := e.(*sql.FuncCall)
	if !ok || len(f.Name.Parts) != 1 || len(f.Args) < 2 {
		return nil, "", false
	}
	name := strings.ToUpper(f.Name.Parts[0].Name)
	switch name {
	case "TUMBLE", "HOP", "SESSION":
		if _, isTable := f.Args[0].(*sql.TableArg); isTable {
			return nil, "", false
		}
		return f, name, true
	}
	return nil, "", false
}

// bindGroupWindow looks for a group window in the GROUP BY clause; when
// there is one it wraps n in the equivalent window TVF and returns the
// new input and scope.
func (b *binder) bindGroupWindow(n plan.Node, sc *scope, s *sql.Select) (plan.Node, *scope, *groupWindow) {
	var gw *groupWindow
	for _, g := range s.GroupBy {
		for _, ge := range g.Exprs {
			f, name, ok := isGroupWindowCall(ge)
			if !ok {
				continue
			}
			if gw != nil {
				b.failAt(ge, "Multiple group window functions are not supported in one GROUP BY")
			}
			gw = &groupWindow{call: f, name: name}
		}
	}
	if gw == nil {
		return n, sc, nil
	}
	f := gw.call
	ts := b.expr(f.Args[0], sc)
	ref, ok := ts.(*expr.InputRef)
	if !ok || !ts.Type().IsTimestamp() || (b.ctx.Streaming && ts.Type().TimeAttr == types.NoTimeAttr) {
		b.failAt(f.Args[0], "Window aggregate can only be defined over a time attribute column, but %s encountered.", ts.Type())
	}
	spec := opspec.WindowSpec{}
	switch gw.name {
	case "TUMBLE":
		if len(f.Args) > 3 {
			b.failAt(f, "TUMBLE group window takes a time attribute, a size and an optional offset")
		}
		spec.Kind = opspec.TumbleWindow
		spec.Size = b.windowInterval(f.Args[1], gw.name, "SIZE", f)
		if len(f.Args) == 3 {
			spec.Offset = b.windowInterval(f.Args[2], gw.name, "OFFSET", f)
		}
	case "HOP":
		if len(f.Args) < 3 || len(f.Args) > 4 {
			b.failAt(f, "HOP group window takes a time attribute, a slide, a size and an optional offset")
		}
		spec.Kind = opspec.HopWindow
		spec.Slide = b.windowInterval(f.Args[1], gw.name, "SLIDE", f)
		spec.Size = b.windowInterval(f.Args[2], gw.name, "SIZE", f)
		if len(f.Args) == 4 {
			spec.Offset = b.windowInterval(f.Args[3], gw.name, "OFFSET", f)
		}
	case "SESSION":
		if len(f.Args) != 2 {
			b.failAt(f, "SESSION group window takes a time attribute and a gap")
		}
		spec.Kind = opspec.SessionWindow
		spec.Gap = b.windowInterval(f.Args[1], gw.name, "GAP", f)
	}
	timeType := ts.Type()
	spec.Proctime = timeType.IsProctime()
	if spec.Proctime || timeType.Root == types.TimestampLTZRoot {
		if z := b.zone(); z != nil && z.String() != "UTC" {
			spec.Zone = z
		}
	}
	if err := spec.Validate(); err != nil {
		b.failAt(f, "%v", err)
	}
	gw.proctime = spec.Proctime
	cols := append([]plan.Column(nil), n.Columns()...)
	cols[ref.Index] = plan.Column{Name: cols[ref.Index].Name, Type: cols[ref.Index].Type.WithTimeAttr(types.NoTimeAttr)}
	nIn := len(cols)
	cols = append(cols, plan.WindowColumns(timeType)...)
	tvf := &plan.WindowTVF{Input: n, Window: spec, TimeCol: ref.Index, Cols: cols, GroupWindow: true}
	out := &scope{rels: sc.rels, fields: append([]field(nil), sc.fields...)}
	out.fields[ref.Index].typ = cols[ref.Index].Type
	for _, c := range cols[nIn:] {
		out.fields = append(out.fields, field{name: "$" + c.Name, rel: -1, typ: c.Type})
	}
	gw.timeCol = nIn + 2
	return tvf, out, gw
}

// windowKeys are the group expressions a group window adds: window_start,
// window_end and window_time of the TVF built by bindGroupWindow.
func (gw *groupWindow) windowKeys(sc *scope) []expr.Expr {
	var out []expr.Expr
	for i := gw.timeCol - 2; i <= gw.timeCol; i++ {
		f := sc.fields[i]
		out = append(out, &expr.InputRef{Index: i, Name: strings.TrimPrefix(f.name, "$"), T: f.typ})
	}
	return out
}

// windowPropertyRef maps TUMBLE_START(...) and friends to the aggregate's
// window key columns; nil when e is not such a call.
func (b *binder) windowPropertyRef(e sql.Expr, as *aggScope) expr.Expr {
	f, ok := e.(*sql.FuncCall)
	if !ok || len(f.Name.Parts) != 1 {
		return nil
	}
	name := strings.ToUpper(f.Name.Parts[0].Name)
	fam, prop, ok := strings.Cut(name, "_")
	if !ok {
		return nil
	}
	switch fam {
	case "TUMBLE", "HOP", "SESSION":
	default:
		return nil
	}
	var pos int
	switch prop {
	case "START":
		pos = 0
	case "END":
		pos = 1
	case "ROWTIME", "PROCTIME":
		pos = 2
	default:
		return nil
	}
	gw := as.window
	if gw == nil || gw.name != fam {
		b.failAt(f, "%s must be used with a corresponding GROUP BY %s(...) group window", name, fam)
	}
	if prop == "ROWTIME" && gw.proctime {
		b.failAt(f, "%s is not allowed on a processing-time group window; use %s_PROCTIME", name, fam)
	}
	if prop == "PROCTIME" && !gw.proctime {
		b.failAt(f, "%s is not allowed on an event-time group window; use %s_ROWTIME", name, fam)
	}
	idx := gw.start + pos
	return &expr.InputRef{Index: idx, Name: as.outNames[idx], T: as.outTypes[idx]}
}
