// Package dialogs holds the workbench's small modal dialogs that need
// nothing of the workbench but a window and callbacks: the
// locked-workspace question, the init script editor, the tab rename form
// and a read-only code viewer (Copy as Go).
//
// Each Show function builds the dialog, shows it on the window it is
// given and returns it; what the user decides comes back through the
// callbacks the caller passes (package ui keeps the state they change).
package dialogs
