package plan

import (
	"fmt"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
)

// WindowRank is window Top-N (Flink's docs/dev/table/sql/queries/
// window-topn.md) and, for a ROW_NUMBER Top-1 ordered by the window's
// time attribute without the row number, window deduplication
// (window-deduplication.md): rows are ranked within each window (its
// window_start and window_end are partition keys) when the window closes.
type WindowRank struct {
	Input         Node
	PartitionKeys []int // without the window columns
	Keys          []opspec.SortKey
	RankType      string
	RankStart     int64
	RankEnd       int64
	WithRankNum   bool
	StartCol      int
	EndCol        int
	Window        opspec.WindowSpec
	// TimeCol is the time attribute the window was assigned on (-1 when
	// unknown): ordering by it makes a Top-1 a deduplication.
	TimeCol int
	Cols    []Column
	win     map[int]WindowColumn
}

func (w *WindowRank) Columns() []Column { return w.Cols }
func (w *WindowRank) Inputs() []Node    { return []Node{w.Input} }
func (w *WindowRank) WithInputs(in []Node) Node {
	c := *w
	c.Input = in[0]
	return &c
}

// Describe renders the node in the logical plan's notation.
func (w *WindowRank) Describe() string {
	return fmt.Sprintf("LogicalWindowRank(partitionBy=%v, orderBy=%v, rankRange=[rankStart=%d, rankEnd=%d], window=[%s])",
		w.PartitionKeys, w.Keys, w.RankStart, w.RankEnd, w.Window)
}

// windowColumns keeps the input's window columns (a window Top-N's output
// is windowed).
func (w *WindowRank) windowColumns() map[int]WindowColumn { return w.win }

// NewWindowRank builds a WindowRank when an OVER ranking is partitioned by
// window_start and window_end of a windowed input; nil otherwise.
func NewWindowRank(over *Over, g opspec.OverGroup, call opspec.OverCall, start, end int64, cols []Column) *WindowRank {
	wc := WindowColumnsOf(over.Input)
	if len(wc) == 0 {
		return nil
	}
	w := &WindowRank{Input: over.Input, Keys: append([]opspec.SortKey(nil), g.Order...), RankType: call.Func, RankStart: start, RankEnd: end,
		WithRankNum: true, StartCol: -1, EndCol: -1, TimeCol: -1, Cols: cols, win: wc}
	for _, k := range g.PartitionKeys {
		if c, ok := wc[k]; ok && (c.Prop == opspec.PropStart || c.Prop == opspec.PropEnd) {
			w.Window = c.Window
			if c.Prop == opspec.PropStart {
				w.StartCol = k
			} else {
				w.EndCol = k
			}
			continue
		}
		w.PartitionKeys = append(w.PartitionKeys, k)
	}
	if w.StartCol < 0 || w.EndCol < 0 {
		return nil
	}
	// the time attribute the windows were assigned on, for deduplication
	base, exprs, _ := Flatten(over.Input)
	if tvf, ok := base.(*WindowTVF); ok {
		for i, e := range exprs {
			if r, ok := e.(*expr.InputRef); ok && r.Index == tvf.TimeCol {
				w.TimeCol = i
			}
		}
	}
	return w
}
