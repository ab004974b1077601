package designer

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"

	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/workbench/authoring"
)

// Host is what the table designer asks of the workbench.
type Host interface {
	// Window is the window the dialog and its questions show on.
	Window() fyne.Window
	// Do runs f on the UI goroutine; Go runs f in the background as work
	// the workbench waits for when it closes.
	Do(f func())
	Go(f func())
	// SetStatus shows a passing message in the status bar.
	SetStatus(msg string)
	// Catalog resolves the tables of the embedded engine.
	Catalog() authoring.Catalog
	// Create runs the statements that create a new table; Change those
	// that change d's existing table, all or nothing. Both call done
	// with the outcome on the UI goroutine.
	Create(stmts []string, done func(err error))
	Change(d *authoring.Design, stmts []string, done func(err error))
	// Record keeps the init script in step with the design (create is its
	// CREATE TABLE, stmts what ran, recreate whether the table was dropped
	// and created); it returns a sentence saying what it did.
	Record(d *authoring.Design, create string, stmts []string, recreate bool) string
	// Ran reports statements that ran: msg (its first line for a status
	// line) and the statements.
	Ran(msg string, stmts []string)
	// TableCreated says a table was created or changed (the catalog tree
	// and the query builder refresh).
	TableCreated(path []*sql.Ident)
	// Confirming is the drop-and-create question the dialog asks (tests
	// answer it).
	Confirming(c *dialog.ConfirmDialog)
}
