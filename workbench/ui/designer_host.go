package ui

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"

	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/workbench/authoring"
	"github.com/riffle-sql/riffle/workbench/catalogbrowser"
	"github.com/riffle-sql/riffle/workbench/ui/designer"
)

// showTableDesignerFor opens the designer on an existing table of the
// catalog tree (the embedded engine's; a gateway's tables are changed
// with DDL in an editor tab on that connection).
func (wb *Workbench) showTableDesignerFor(r catalogbrowser.Ref) {
	if wb.conns != nil && wb.conns.shown != nil && !wb.conns.shown.embedded() {
		dialog.ShowInformation("Edit table", "The table designer changes tables of the embedded engine.\n"+
			r.Object+" belongs to "+wb.conns.shown.name()+": change it with ALTER TABLE in a tab on that connection.", wb.win)
		return
	}
	wb.showTableDesigner(&r)
}

// showTableDesigner opens the designer: on a new table (nil) or on the
// table r.
func (wb *Workbench) showTableDesigner(r *catalogbrowser.Ref) *designer.Dialog {
	var d *authoring.Design
	if r == nil {
		d = authoring.NewDesign("")
		d.Columns = []authoring.ColumnDesign{{Name: "id", Type: authoring.TypeSpec{Name: "BIGINT"}}}
		d.SetConnector("filesystem")
		d.SetFormat("csv")
	} else {
		info, err := wb.authoringCatalog().Table([]string{r.Catalog, r.Database, r.Object})
		if err == nil {
			d, err = authoring.DesignFromTable(info)
		}
		if err != nil {
			dialog.ShowError(err, wb.win)
			return nil
		}
	}
	dd := designer.Show(designerHost{wb}, d)
	wb.authoring().designer = dd
	return dd
}

// designerHost is the table designer's way to the workbench
// (designer.Host): DDL on the embedded engine, the init script,
// Messages and the status bar.
type designerHost struct{ wb *Workbench }

func (h designerHost) Window() fyne.Window  { return h.wb.win }
func (h designerHost) Do(f func())          { h.wb.do(f) }
func (h designerHost) SetStatus(msg string) { h.wb.setStatus(msg) }

func (h designerHost) Catalog() authoring.Catalog { return h.wb.authoringCatalog() }

// Go runs f in the background; closing the workbench waits for it.
func (h designerHost) Go(f func()) {
	a := h.wb.authoring()
	a.bg.Add(1)
	go func() {
		defer a.bg.Done()
		f()
	}()
}

func (h designerHost) Create(stmts []string, done func(err error)) { h.wb.execDDL(stmts, done) }

func (h designerHost) Change(d *authoring.Design, stmts []string, done func(err error)) {
	h.wb.applyChange(d, stmts, done)
}

func (h designerHost) Record(d *authoring.Design, create string, stmts []string, recreate bool) string {
	return h.wb.recordDesign(d, create, stmts, recreate)
}

// Ran puts msg and the statements in Messages, msg's first line in the
// status bar.
func (h designerHost) Ran(msg string, stmts []string) {
	h.wb.messages.add(levelInfo, msg+"\n"+strings.Join(stmts, ";\n")+";", nil)
	h.wb.setStatus(firstLine(msg))
}

func (h designerHost) TableCreated(path []*sql.Ident) { h.wb.tableCreated(path) }

func (h designerHost) Confirming(c *dialog.ConfirmDialog) { h.wb.authoring().confirm = c }
