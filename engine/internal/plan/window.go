package plan

import (
	"fmt"
	"strings"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
)

// WindowTVF is a windowing table-valued function (TUMBLE, HOP, CUMULATE,
// SESSION): its output is the input's columns (the time attribute becomes
// a plain timestamp) followed by window_start, window_end and window_time.
type WindowTVF struct {
	Input   Node
	Window  opspec.WindowSpec
	TimeCol int
	// PartitionKeys are SESSION's PARTITION BY columns.
	PartitionKeys []int
	Cols          []Column
	// GroupWindow marks the window of a legacy group window (GROUP BY
	// TUMBLE/HOP/SESSION(...)) rather than a window table function.
	GroupWindow bool
	// At is the position of the window function call (for errors found
	// after binding; its Msg is empty).
	At *Error
}

func (w *WindowTVF) Columns() []Column { return w.Cols }
func (w *WindowTVF) Inputs() []Node    { return []Node{w.Input} }
func (w *WindowTVF) WithInputs(in []Node) Node {
	c := *w
	c.Input = in[0]
	return &c
}

// Describe renders Calcite's LogicalTableFunctionScan.
func (w *WindowTVF) Describe() string {
	var args []string
	args = append(args, fmt.Sprintf("DESCRIPTOR($%d)", w.TimeCol))
	switch w.Window.Kind {
	case opspec.TumbleWindow:
		args = append(args, intervalString(w.Window.Size))
	case opspec.HopWindow, opspec.CumulateWindow:
		args = append(args, intervalString(w.Window.Slide), intervalString(w.Window.Size))
	case opspec.SessionWindow:
		args = append(args, intervalString(w.Window.Gap))
	}
	if w.Window.Offset != 0 {
		args = append(args, intervalString(w.Window.Offset))
	}
	var row []string
	for _, c := range w.Cols {
		row = append(row, c.Type.String()+" "+c.Name)
	}
	return fmt.Sprintf("LogicalTableFunctionScan(invocation=[%s(%s)], rowType=[RecordType(%s)])", w.Window.Kind, strings.Join(args, ", "), strings.Join(row, ", "))
}

// intervalString renders a millisecond interval as Calcite prints interval
// literals: "600000:INTERVAL MINUTE".
func intervalString(ms int64) string {
	unit := "SECOND"
	switch {
	case ms != 0 && ms%86_400_000 == 0:
		unit = "DAY"
	case ms != 0 && ms%3_600_000 == 0:
		unit = "HOUR"
	case ms != 0 && ms%60_000 == 0:
		unit = "MINUTE"
	}
	return fmt.Sprintf("%d:INTERVAL %s", ms, unit)
}

// WindowColumns are the columns a window TVF appends.
func WindowColumns(timeType *types.DataType) []Column {
	start := types.TimestampType(3).NotNull()
	wt := types.TimestampType(3).NotNull().WithTimeAttr(types.Rowtime)
	switch {
	case timeType.IsProctime():
		wt = types.TimestampLTZType(3).NotNull().WithTimeAttr(types.Proctime)
	case timeType.Root == types.TimestampLTZRoot:
		wt = types.TimestampLTZType(3).NotNull().WithTimeAttr(types.Rowtime)
	}
	return []Column{{Name: "window_start", Type: start}, {Name: "window_end", Type: start}, {Name: "window_time", Type: wt}}
}

// WindowAggregate is a group aggregation per window (Flink's
// StreamPhysicalWindowAggregate): rows are grouped by GroupKeys within
// each window of Window over the TimeCol attribute; one insert-only row
// per group and window is produced when the window closes. Output: the
// key columns, one column per aggregate, then Props.
//
// With Attached set, the windows are those of an upstream window operator
// whose window_start and window_end are the input columns StartCol and
// EndCol (cascading window aggregation).
type WindowAggregate struct {
	Input     Node
	GroupKeys []int
	Aggs      []opspec.AggSpec
	Window    opspec.WindowSpec
	TimeCol   int
	Attached  bool
	StartCol  int
	EndCol    int
	Props     []opspec.WindowProp
	Cols      []Column
	// SizeErr is set for a HOP window table function aggregate whose size
	// is not an integral multiple of its slide, which Flink's streaming
	// slicing window aggregate rejects.
	SizeErr *Error
}

func (w *WindowAggregate) Columns() []Column { return w.Cols }
func (w *WindowAggregate) Inputs() []Node    { return []Node{w.Input} }
func (w *WindowAggregate) WithInputs(in []Node) Node {
	c := *w
	c.Input = in[0]
	return &c
}

// Describe renders the node in the logical plan's notation.
func (w *WindowAggregate) Describe() string {
	keys := make([]string, len(w.GroupKeys))
	for i, k := range w.GroupKeys {
		keys[i] = fmt.Sprint(k)
	}
	parts := []string{"group=[{" + strings.Join(keys, ", ") + "}]"}
	for i, ag := range w.Aggs {
		parts = append(parts, fmt.Sprintf("%s=[%s]", w.Cols[len(w.GroupKeys)+i].Name, AggString(ag, nil)))
	}
	return fmt.Sprintf("LogicalWindowAggregate(%s, window=[%s])", strings.Join(parts, ", "), w.Window)
}

// WindowString renders a window as Flink's physical plans do:
// "TUMBLE(time_col=[bidtime], size=[10 min])".
func WindowString(w opspec.WindowSpec, timeCol string, attached bool, startCol, endCol string) string {
	var parts []string
	if attached {
		parts = append(parts, fmt.Sprintf("win_start=[%s]", startCol), fmt.Sprintf("win_end=[%s]", endCol))
	} else {
		parts = append(parts, fmt.Sprintf("time_col=[%s]", timeCol))
	}
	switch w.Kind {
	case opspec.TumbleWindow:
		parts = append(parts, fmt.Sprintf("size=[%s]", opspec.FormatMillis(w.Size)))
	case opspec.HopWindow:
		parts = append(parts, fmt.Sprintf("size=[%s]", opspec.FormatMillis(w.Size)), fmt.Sprintf("slide=[%s]", opspec.FormatMillis(w.Slide)))
	case opspec.CumulateWindow:
		parts = append(parts, fmt.Sprintf("max_size=[%s]", opspec.FormatMillis(w.Size)), fmt.Sprintf("step=[%s]", opspec.FormatMillis(w.Slide)))
	case opspec.SessionWindow:
		parts = append(parts, fmt.Sprintf("gap=[%s]", opspec.FormatMillis(w.Gap)))
	}
	if w.Offset != 0 {
		parts = append(parts, fmt.Sprintf("offset=[%s]", opspec.FormatMillis(w.Offset)))
	}
	return fmt.Sprintf("%s(%s)", w.Kind, strings.Join(parts, ", "))
}

// PropName is the window property's expression in Flink's plans.
func PropName(p opspec.WindowProp) string {
	switch p {
	case opspec.PropStart:
		return "start('w$)"
	case opspec.PropEnd:
		return "end('w$)"
	case opspec.PropTime:
		return "rowtime('w$)"
	}
	return "proctime('w$)"
}
