// Package querybuilder is the workbench's query builder: a panel beside
// the editor (View ▸ Query builder, Ctrl+Shift+B, the toolbar's Builder
// button) that follows the statement under the editor's cursor. A query
// the builder can express (authoring.Query: columns and aggregates,
// filters, joins, a window TVF, ORDER BY and LIMIT) is shown in its form,
// and every click rewrites that statement in the editor
// (authoring.Query.SQL); SQL it cannot show is named in the panel and left
// alone, and choosing a table then starts a new query at the end of the
// tab. Tables come from the list or are dragged from the catalog tree
// (Dragged, Dropped). Run runs the statement in its tab; Copy as Go shows
// it as Table API code and copies it.
//
// It keeps no editor tabs nor catalogs itself: it reaches them through
// Host (builderHost in package ui), and the tab it follows through Tab.
package querybuilder
