// Package widgets holds the workbench's small Fyne building blocks that
// know nothing of the workbench: a layout of rows of cells, a wheel
// catcher that lets a form of entries scroll, and overlays (context menus,
// file dialogs) sized and placed to fit the window.
//
// It imports Fyne only; the workbench (package ui) and its rooms import
// it.
package widgets
