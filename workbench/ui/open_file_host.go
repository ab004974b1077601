package ui

import (
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/workbench/authoring"
)

// openFileHost is what the review dialog of an opened file
// (openfile.Review) reaches of the workbench.
type openFileHost struct{ wb *Workbench }

func (h openFileHost) Catalog() authoring.Catalog { return h.wb.authoringCatalog() }

func (h openFileHost) ExecDDL(stmt, shown string, done func(err error)) {
	h.wb.execDDLAs([]string{stmt}, []string{shown}, done)
}

func (h openFileHost) AddToInitScript(stmt string) error { return h.wb.addToInitScript(stmt) }

// Created logs the new table, says so in the status bar and shows it in
// the catalog tree and the query builder (tableCreated).
func (h openFileHost) Created(msg string, name []*sql.Ident) {
	h.wb.messages.add(levelInfo, msg, nil)
	h.wb.setStatus(msg)
	h.wb.tableCreated(name)
}
