// Package widgets holds the workbench's small Fyne building blocks that
// know nothing of the workbench: the toolbar row that fits narrow windows,
// a layout of rows of cells, a wheel catcher that lets a form of entries
// scroll, overlays (context menus, file dialogs) sized and placed to fit
// the window, a dialog's message box of a fixed height, and monospaced
// text measuring.
//
// It imports Fyne only; the workbench (package ui) and its rooms import
// it.
package widgets
