// Package chartview is the Chart tab of a workbench result: a settings
// bar (chart type, X, Y columns, series, last-N-minutes window, Save as
// PNG or SVG) over the chart image, which package charts renders from an
// engine/results.Result on its own goroutine (charts.Live) while the tab
// is shown.
//
// It knows nothing of the workbench: it reaches it through Host (the UI
// goroutine, the window, the settings kept per statement, the tab's
// closing, the file name and folder offered, the outcome of a Save),
// which chartHost in package ui implements. The workbench builds a View
// with New, shows Content, calls SetVisible as the tab is shown or hidden
// and Close when the result goes.
package chartview
