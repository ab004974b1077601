// Package resultgrid is the workbench's virtualised result grid: a Fyne
// table over an engine/results.Result with typed, sortable headers, a
// rectangular selection copied as TSV, pages of DefaultPageSize rows, a
// frozen frame while paused and a wheel that moves several rows a notch.
//
// It knows nothing of the workbench. The result tab (package ui) creates
// a Grid with New, calls RefreshFrame on its tick, and hears back through
// the Grid's callback fields: OnChanged, OnStatus, OnSortError, OnMenu,
// OnCellMenu, OnHeaderMenu, OnShortcut, and Do (run on the UI goroutine,
// for sorts done off it).
package resultgrid
