package openfile

import (
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/workbench/authoring"
)

// Host is what the review dialog asks of the workbench, on the UI
// goroutine.
type Host interface {
	// Catalog is the catalog the new table's name must be free in.
	Catalog() authoring.Catalog
	// ExecDDL runs stmt off the UI goroutine, History keeping shown for
	// it (stmt with a secret unmasked); done gets its error (the
	// statement's summary, then the engine's), on the UI goroutine.
	ExecDDL(stmt, shown string, done func(err error))
	// AddToInitScript puts the CREATE TABLE into the workspace's init
	// script, replacing an older CREATE of the same table.
	AddToInitScript(stmt string) error
	// Created reports the created table once the dialog has closed: msg
	// ("Table t created from f.csv. Added to the init script.") for
	// Messages and the status bar, name the table's path as written (one
	// to three parts).
	Created(msg string, name []*sql.Ident)
}
