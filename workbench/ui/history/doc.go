// Package history is the workbench's History panel: past statements of a
// workspace, newest first, with when they ran, how long, how many rows and
// whether they failed; Open puts one in a new editor tab, Insert at the
// cursor.
//
// It reads the workspace through Store (persistence.Store implements it)
// and reaches the editors and the Messages panel through Host, which the
// workbench implements; the workbench calls Put as statements start and
// end.
package history
