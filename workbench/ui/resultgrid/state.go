package resultgrid

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/engine/results"
)

// What the result tab (and the workbench's tests) read of a grid and its
// cells, and the few settings they change.

// Result is the result the grid shows.
func (g *Grid) Result() *results.Result { return g.res }

// Columns are the result's columns (the grid's data columns, in order).
func (g *Grid) Columns() []results.Column { return g.cols }

// View is the view shown: results.TableView or results.ChangelogView.
func (g *Grid) View() results.View { return g.view }

// Total is the number of rows of the current frame (all pages).
func (g *Grid) Total() int { return g.total }

// Version is the result's version the current frame was read at (see
// results.Result.NeedsRefresh).
func (g *Grid) Version() uint64 { return g.version }

// Page is the page shown, from 0; PageSize is the rows a page holds.
func (g *Grid) Page() int { return g.page }

// PageSize is the number of rows a page holds (DefaultPageSize).
func (g *Grid) PageSize() int { return g.pageSize }

// SetPageSize sets the rows a page holds (n > 0; tests use small pages).
func (g *Grid) SetPageSize(n int) { g.pageSize = n }

// SetAsyncSortRows sets how many rows a sort may have before it runs off
// the UI goroutine (when Do is set; 50,000 by default).
func (g *Grid) SetAsyncSortRows(n int) { g.asyncSortRows = n }

// Frozen reports whether the grid shows a frozen frame (paused).
func (g *Grid) Frozen() bool { return g.frozen != nil }

// Thaw drops the frozen frame: the next RefreshFrame reads the live
// result (a query that ended while paused shows its final rows).
func (g *Grid) Thaw() { g.frozen = nil }

// SortColumn is the data column the grid is sorted on (-1: none) and
// whether descending.
func (g *Grid) SortColumn() (col int, desc bool) { return g.sortCol, g.desc }

// Sorting reports whether a sort runs off the UI goroutine.
func (g *Grid) Sorting() bool { return g.sort.cancel != nil }

// DataWidths are the widths (px) the grid gave the data columns;
// WidthsSet reports whether it has set them yet.
func (g *Grid) DataWidths() []float32 { return g.dataWidths }

// WidthsSet reports whether the column widths were set from rows.
func (g *Grid) WidthsSet() bool { return g.widthsSet }

// DrawnRows are the absolute rows [from, to) drawn by the last refresh.
func (g *Grid) DrawnRows() (from, to int) { return g.visFrom, g.visTo }

// Fetches counts the snapshot reads (for tests and benchmarks).
func (g *Grid) Fetches() int { return g.fetches }

// Selection is the selection's cursor cell and whether there is a
// selection.
func (g *Grid) Selection() (cursor widget.TableCellID, ok bool) { return g.cursor, g.hasSel }

// ID is the grid cell a Cell shows now.
func (c *Cell) ID() widget.TableCellID { return c.id }

// Text is the text a Cell holds (before it is fitted to its width).
func (c *Cell) Text() string { return c.text }

// Align is how a Cell aligns its text (numbers to the trailing edge).
func (c *Cell) Align() fyne.TextAlign { return c.align }

// Kind is how a Cell is drawn.
func (c *Cell) Kind() CellKind { return c.kind }

// Column is the grid column of a header.
func (h *HeaderCell) Column() int { return h.col }

// Name is the column name a header shows.
func (h *HeaderCell) Name() string { return h.name }

// TypeName is the Flink type a header shows (dimmed), e.g. "INT NOT NULL".
func (h *HeaderCell) TypeName() string { return h.typ }
