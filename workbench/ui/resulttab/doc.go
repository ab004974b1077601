// Package resulttab is the workbench's result tab: the bottom tab of one
// executed query (or SHOW, DESCRIBE, EXPLAIN) with a state badge
// (RUNNING, PAUSED, STOPPING, FINISHED, CANCELED, FAILED), the Table /
// Changelog view switch with Follow, Pause, Stop, Export, the result grid
// (resultgrid) or the statement's text, the pager, the status line (rows,
// changes not shown while paused, elapsed time), the grid's context menu
// and a close button in the header.
//
// The tab reads its rows from an engine/results Result the workbench
// fills; what it needs of the workbench — stopping the query, exporting,
// closing, the grid actions' menu items, the Data / Chart / Plan views
// around it, the status bar — it asks through Host (resultTabHost in
// package ui), which keeps the list of result tabs.
package resulttab
