// Package dashboard holds the parts of the workbench's live dashboards
// (issue 21) that know nothing of the workbench: the grid layout of tiles
// with spans, the moves that rearrange them, and the single-value and
// changelog-rate readings of a live result with their widgets. The
// workbench (workbench/ui, dashboard*.go) runs the tiles' queries and
// builds the Dashboards window from them.
package dashboard
