// Package planview is the workbench's plan view: the operator graph of a
// plan (package plangraph's layout drawn with Fyne canvas objects, one
// box per operator, one arrow per edge labelled with its exchange) beside
// EXPLAIN's text, with zoom and Fit, and while a job runs its live
// metrics (package monitor's samples: rates, watermarks, state,
// back-pressure) refreshed about once a second.
//
// It knows nothing of the workbench: it reads the engine only through
// engine/table's public plan view (table.PlanNode) and a monitor.Job's
// NodeMetrics. The workbench (package ui) builds a View with New or
// NewOf, puts Content in a tab, calls Tick from its ticker (on the UI
// goroutine) and sets the status line of a remote EXPLAIN with SetStatus.
package planview
