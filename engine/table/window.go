package table

import (
	"fmt"

	"github.com/riffle-sql/riffle/engine/sql"
)

// GroupWindow is a group window specification (PyFlink's GroupWindow):
// a tumbling, sliding or session window over a time attribute, with an
// alias that Window(...).GroupBy must reference. Build it with
// TumbleOver, SlideOver or SessionWithGap; use it with Table.Window.
type GroupWindow struct {
	kind  string // TUMBLE, HOP, SESSION
	size  Expression
	slide Expression
	gap   Expression
	on    Expression
	alias string
	err   error
}

// TumbleWithSize is a tumbling window with its size, waiting for On
// (PyFlink's TumbleWithSize).
type TumbleWithSize struct{ w GroupWindow }

// TumbleWithSizeOnTime is a tumbling window with size and time attribute,
// waiting for Alias (PyFlink's TumbleWithSizeOnTime).
type TumbleWithSizeOnTime struct{ w GroupWindow }

// TumbleOver starts a tumbling window of the given size, a time interval
// such as Lit(10).Minutes() (PyFlink's Tumble.over). Tumbling windows are
// consecutive and do not overlap. A row-count size (RowInterval(n)) makes
// a count window of n rows per key (see WindowGroupedTable.Select).
func TumbleOver(size Expression) *TumbleWithSize {
	return &TumbleWithSize{GroupWindow{kind: "TUMBLE", size: size}}
}

// On sets the time attribute (rowtime or proctime) that windows are
// computed on (PyFlink's on).
func (t *TumbleWithSize) On(timeField Expression) *TumbleWithSizeOnTime {
	w := t.w
	w.on = timeField
	return &TumbleWithSizeOnTime{w}
}

// Alias names the window, completing it (PyFlink's alias).
func (t *TumbleWithSizeOnTime) Alias(alias string) *GroupWindow {
	w := t.w
	w.alias = alias
	return &w
}

// SlideWithSize is a sliding window with its size, waiting for Every
// (PyFlink's SlideWithSize).
type SlideWithSize struct{ w GroupWindow }

// SlideWithSizeAndSlide is a sliding window with size and slide, waiting
// for On (PyFlink's SlideWithSizeAndSlide).
type SlideWithSizeAndSlide struct{ w GroupWindow }

// SlideWithSizeAndSlideOnTime is a sliding window waiting for Alias
// (PyFlink's SlideWithSizeAndSlideOnTime).
type SlideWithSizeAndSlideOnTime struct{ w GroupWindow }

// SlideOver starts a sliding (hopping) window of the given size (PyFlink's
// Slide.over). With a size of 15 minutes and a slide of 5, each row falls
// into 3 windows. With row counts (RowInterval for size and slide) window
// k holds rows k*slide .. k*slide+size-1 of each key, emitted when full.
func SlideOver(size Expression) *SlideWithSize {
	return &SlideWithSize{GroupWindow{kind: "HOP", size: size}}
}

// Every sets the slide, the interval between window starts (PyFlink's
// every).
func (s *SlideWithSize) Every(slide Expression) *SlideWithSizeAndSlide {
	w := s.w
	w.slide = slide
	return &SlideWithSizeAndSlide{w}
}

// On sets the time attribute (PyFlink's on).
func (s *SlideWithSizeAndSlide) On(timeField Expression) *SlideWithSizeAndSlideOnTime {
	w := s.w
	w.on = timeField
	return &SlideWithSizeAndSlideOnTime{w}
}

// Alias names the window, completing it (PyFlink's alias).
func (s *SlideWithSizeAndSlideOnTime) Alias(alias string) *GroupWindow {
	w := s.w
	w.alias = alias
	return &w
}

// SessionWithGapSpec is a session window with its gap, waiting for On
// (PyFlink's SessionWithGap).
type SessionWithGapSpec struct{ w GroupWindow }

// SessionWithGapOnTime is a session window waiting for Alias (PyFlink's
// SessionWithGapOnTime).
type SessionWithGapOnTime struct{ w GroupWindow }

// SessionWithGap starts a session window: a window closes when no row
// arrives within gap, a time interval (PyFlink's Session.with_gap).
func SessionWithGap(gap Expression) *SessionWithGapSpec {
	return &SessionWithGapSpec{GroupWindow{kind: "SESSION", gap: gap}}
}

// On sets the time attribute (PyFlink's on).
func (s *SessionWithGapSpec) On(timeField Expression) *SessionWithGapOnTime {
	w := s.w
	w.on = timeField
	return &SessionWithGapOnTime{w}
}

// Alias names the window, completing it (PyFlink's alias).
func (s *SessionWithGapOnTime) Alias(alias string) *GroupWindow {
	w := s.w
	w.alias = alias
	return &w
}

// AliasName returns the window's alias.
func (w *GroupWindow) AliasName() string { return w.alias }

// String renders the window, e.g. "TUMBLE(`rowtime`, INTERVAL '10' MINUTE) AS w".
func (w *GroupWindow) String() string {
	if cw, err := w.rowCount(); err == nil && cw != nil {
		on, _ := w.on.sqlNode()
		if on == nil {
			on = colRef("?")
		}
		if w.kind == "TUMBLE" {
			return fmt.Sprintf("TUMBLE(%s, %d ROWS) AS %s", sql.Format(on), cw.size, sql.QuoteIdent(w.alias))
		}
		return fmt.Sprintf("HOP(%s, %d ROWS, %d ROWS) AS %s", sql.Format(on), cw.slide, cw.size, sql.QuoteIdent(w.alias))
	}
	args, err := w.args(nil)
	if err != nil {
		return "<invalid window: " + err.Error() + ">"
	}
	f := &sql.FuncCall{Name: objName(w.kind), Args: args}
	return sql.Format(f) + " AS " + sql.QuoteIdent(w.alias)
}

// args returns the window function's arguments resolved over an input
// (r may be nil for display).
func (w *GroupWindow) args(r *resolver) ([]sql.Expr, error) {
	if w.err != nil {
		return nil, w.err
	}
	if w.alias == "" {
		return nil, fmt.Errorf("a group window needs an alias")
	}
	var parts []Expression
	switch w.kind {
	case "TUMBLE":
		parts = []Expression{w.on, w.size}
	case "HOP":
		parts = []Expression{w.on, w.slide, w.size}
	case "SESSION":
		parts = []Expression{w.on, w.gap}
	}
	out := make([]sql.Expr, len(parts))
	for i, p := range parts {
		if p.x != nil && p.x.kind == kindOverBound && p.x.bound == "ROWS" {
			return nil, fmt.Errorf("row-count group windows (%s over RowInterval) are not supported: use a time interval", w.kind)
		}
		n, err := p.sqlNode()
		if err != nil {
			return nil, fmt.Errorf("group window %s: %w", w.alias, err)
		}
		if r != nil {
			if n, err = r.one(n); err != nil {
				return nil, err
			}
		}
		out[i] = n
	}
	return out, nil
}

// windowRewriter maps window properties of the alias to the window's
// auxiliary functions (TUMBLE_START, HOP_END, SESSION_ROWTIME, ...).
func (w *GroupWindow) windowRewriter(args []sql.Expr) func(mark string, arg sql.Expr) (sql.Expr, error) {
	return func(mark string, arg sql.Expr) (sql.Expr, error) {
		id, ok := arg.(*sql.Identifier)
		if !ok || len(id.Parts) != 1 || id.Parts[0].Name != w.alias {
			return nil, fmt.Errorf("window properties apply to the window alias %q, not to %s", w.alias, sql.Format(arg))
		}
		suffix := map[string]string{markStart: "_START", markEnd: "_END", markRowtime: "_ROWTIME", markProctime: "_PROCTIME"}[mark]
		return &sql.FuncCall{Name: objName(w.kind + suffix), Args: args}, nil
	}
}

// OverWindow is an over window specification (PyFlink's OverWindow):
// partitioning, ordering on a time attribute, a preceding and a following
// bound, and an alias that aggregates reference with Over. Build it with
// OverPartitionBy or OverOrderBy; use it with Table.OverWindow.
type OverWindow struct {
	partitionBy []Expression
	orderBy     Expression
	preceding   Expression
	following   Expression
	alias       string
}

// OverWindowPartitioned is an over window with its partitioning, waiting
// for OrderBy (PyFlink's OverWindowPartitioned).
type OverWindowPartitioned struct{ w OverWindow }

// OverWindowPartitionedOrdered is an over window with partitioning and
// order, waiting for Preceding or Alias (PyFlink's
// OverWindowPartitionedOrdered).
type OverWindowPartitionedOrdered struct{ w OverWindow }

// OverWindowPartitionedOrderedPreceding is an over window with its
// preceding bound, waiting for Following or Alias (PyFlink's
// OverWindowPartitionedOrderedPreceding).
type OverWindowPartitionedOrderedPreceding struct{ w OverWindow }

// OverPartitionBy starts an over window partitioned by fields (PyFlink's
// Over.partition_by): each partition is ordered and aggregated on its own.
func OverPartitionBy(fields ...Expression) *OverWindowPartitioned {
	return &OverWindowPartitioned{OverWindow{partitionBy: fields}}
}

// OverOrderBy starts an unpartitioned over window ordered by a time
// attribute (PyFlink's Over.order_by); on a stream it runs with
// parallelism 1.
func OverOrderBy(field Expression) *OverWindowPartitionedOrdered {
	return &OverWindowPartitionedOrdered{OverWindow{orderBy: field}}
}

// OrderBy sets the time attribute that orders each partition (PyFlink's
// order_by).
func (o *OverWindowPartitioned) OrderBy(field Expression) *OverWindowPartitionedOrdered {
	w := o.w
	w.orderBy = field
	return &OverWindowPartitionedOrdered{w}
}

// Preceding sets the preceding bound: a time interval (Lit(10).Seconds()),
// RowInterval(n), UnboundedRange or UnboundedRow (PyFlink's preceding).
func (o *OverWindowPartitionedOrdered) Preceding(bound Expression) *OverWindowPartitionedOrderedPreceding {
	w := o.w
	w.preceding = bound
	return &OverWindowPartitionedOrderedPreceding{w}
}

// Alias names the window with the default bounds, UNBOUNDED PRECEDING to
// CURRENT ROW over a range (PyFlink's alias).
func (o *OverWindowPartitionedOrdered) Alias(alias string) *OverWindow {
	w := o.w
	w.alias = alias
	return &w
}

// Following sets the following bound: CurrentRow or CurrentRange
// (PyFlink's following).
func (o *OverWindowPartitionedOrderedPreceding) Following(bound Expression) *OverWindowPartitionedOrderedPreceding {
	w := o.w
	w.following = bound
	return &OverWindowPartitionedOrderedPreceding{w}
}

// Alias names the window, completing it (PyFlink's alias).
func (o *OverWindowPartitionedOrderedPreceding) Alias(alias string) *OverWindow {
	w := o.w
	w.alias = alias
	return &w
}

// AliasName returns the window's alias.
func (w *OverWindow) AliasName() string { return w.alias }

// spec builds the window specification resolved over an input.
func (w *OverWindow) spec(r *resolver) (*sql.WindowSpec, error) {
	if w.alias == "" {
		return nil, fmt.Errorf("an over window needs an alias")
	}
	spec := &sql.WindowSpec{}
	for _, p := range w.partitionBy {
		n, err := p.sqlNode()
		if err != nil {
			return nil, err
		}
		xs, err := r.exprs([]sql.Expr{n})
		if err != nil {
			return nil, err
		}
		spec.PartitionBy = append(spec.PartitionBy, xs...)
	}
	if w.orderBy.x == nil {
		return nil, fmt.Errorf("over window %s needs OrderBy on a time attribute", w.alias)
	}
	on, err := w.orderBy.sqlNode()
	if err != nil {
		return nil, err
	}
	if on, err = r.one(on); err != nil {
		return nil, err
	}
	spec.OrderBy = []*sql.OrderItem{{Expr: on}}
	frame := &sql.WindowFrame{Unit: "RANGE", From: &sql.FrameBound{Kind: "UNBOUNDED PRECEDING"}}
	if p := w.preceding; p.x != nil {
		if err := p.Err(); err != nil {
			return nil, err
		}
		switch {
		case p.x.kind == kindOverBound && p.x.bound == "UNBOUNDED_ROW":
			frame = &sql.WindowFrame{Unit: "ROWS", From: &sql.FrameBound{Kind: "UNBOUNDED PRECEDING"}}
		case p.x.kind == kindOverBound && p.x.bound == "UNBOUNDED_RANGE":
		case p.x.kind == kindOverBound && p.x.bound == "ROWS":
			frame = &sql.WindowFrame{Unit: "ROWS", From: &sql.FrameBound{Kind: "PRECEDING", Offset: intLit(p.x.rows)}}
		case p.x.kind == kindOverBound:
			return nil, fmt.Errorf("over window %s: %s is not a preceding bound", w.alias, p)
		default:
			n, err := p.sqlNode()
			if err != nil {
				return nil, err
			}
			frame = &sql.WindowFrame{Unit: "RANGE", From: &sql.FrameBound{Kind: "PRECEDING", Offset: n}}
		}
	}
	to := &sql.FrameBound{Kind: "CURRENT ROW"}
	if f := w.following; f.x != nil {
		if err := f.Err(); err != nil {
			return nil, err
		}
		switch {
		case f.x.kind == kindOverBound && (f.x.bound == "CURRENT_ROW" || f.x.bound == "CURRENT_RANGE"):
			want := "ROWS"
			if f.x.bound == "CURRENT_RANGE" {
				want = "RANGE"
			}
			if want != frame.Unit {
				return nil, fmt.Errorf("over window %s: the preceding and following bounds must both be row counts or both time ranges", w.alias)
			}
		default:
			return nil, fmt.Errorf("over window %s: only CurrentRow and CurrentRange are supported as following bounds, got %s", w.alias, f)
		}
	}
	frame.To = to
	spec.Frame = frame
	return spec, nil
}
