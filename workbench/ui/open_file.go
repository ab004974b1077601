package ui

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"fyne.io/fyne/v2/dialog"

	"github.com/riffle-sql/riffle/engine/connector/infer"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/workbench/authoring"
	"github.com/riffle-sql/riffle/workbench/ui/openfile"
	"github.com/riffle-sql/riffle/workbench/ui/widgets"
)

// Opening data: File ▸ Open data file… (Ctrl+O) and files dropped on the
// window. The file is read off the UI goroutine by engine/connector/infer;
// a review dialog shows what it found (columns, types, notes), the rowtime
// offer and the generated CREATE TABLE, which stays editable. Creating the
// table runs the statement, adds it to the workspace's init script (so the
// table is there when the workspace opens again) and shows it in the
// catalog tree. The dialog is package openfile (openFileHost in
// open_file_host.go).

// showOpenFileDialog is File ▸ Open data file…: a path to type or paste,
// or Browse… for Fyne's file dialog (widgets.ShowPathDialog).
func (wb *Workbench) showOpenFileDialog() {
	dir, path := wb.authoring().lastOpenDir, ""
	if dir != "" {
		path = dir + string(filepath.Separator) // the last folder, to type a name after
	}
	widgets.ShowPathDialog(wb.win, widgets.PathSpec{
		Title:      "Open data file",
		Confirm:    "Open",
		Path:       path,
		Dir:        dir,
		Extensions: dataFileExtensions,
		OnPath:     wb.openDataFile,
	})
}

// dataFileExtensions are the files File ▸ Open's Browse… lists.
var dataFileExtensions = []string{".csv", ".tsv", ".txt", ".tab", ".json", ".jsonl", ".ndjson", ".parquet", ".avro"}

// openDataFile infers a table for path in the background and shows the
// review dialog (or why the file cannot be opened).
func (wb *Workbench) openDataFile(path string) {
	a := wb.authoring()
	a.lastOpenDir = filepath.Dir(path)
	wb.setStatus("Reading " + filepath.Base(path) + "…")
	a.bg.Add(1)
	go func() {
		defer a.bg.Done()
		started := time.Now()
		res, err := infer.File(path, infer.Options{})
		d := time.Since(started)
		wb.do(func() {
			if err != nil {
				wb.setStatus("Cannot open " + filepath.Base(path))
				msg := err.Error()
				if errors.Is(err, infer.ErrUnsupported) {
					msg = strings.TrimPrefix(msg, infer.ErrUnsupported.Error()+": ")
				}
				wb.messages.add(levelError, "Open "+path+": "+msg, nil)
				dialog.ShowError(fmt.Errorf("%s cannot be opened as a table:\n%s", filepath.Base(path), msg), wb.win)
				return
			}
			wb.setStatus(fmt.Sprintf("Read %s rows of %s in %s", widgets.GroupDigits(int(res.Records)), filepath.Base(path), widgets.FormatDuration(d)))
			wb.showOpenReview(res)
		})
	}()
}

// showOpenReview shows the review dialog for an inference result
// (package openfile; openFileHost in open_file_host.go).
func (wb *Workbench) showOpenReview(res *infer.Result) *openfile.Review {
	r := openfile.Show(wb.win, res, openFileHost{wb})
	wb.authoring().review = r
	return r
}

// tableCreated refreshes the catalog tree, shows the new table there and
// offers it to the query builder.
func (wb *Workbench) tableCreated(path []*sql.Ident) {
	src := wb.env.Catalogs()
	cat, db := src.CurrentCatalog(), src.CurrentDatabase()
	obj := path[len(path)-1].Name
	if len(path) >= 2 {
		db = path[len(path)-2].Name
	}
	if len(path) == 3 {
		cat = path[0].Name
	}
	wb.catalogChanged(wb.conns.embedded)
	if wb.conns.shown == wb.conns.embedded {
		wb.catalog.OpenPath(cat, db, obj)
	}
	wb.builderTableCreated([]string{cat, db, obj})
}

// execDDL runs statements in order off the UI goroutine (each recorded in
// History); done gets the first error, on the UI goroutine.
func (wb *Workbench) execDDL(stmts []string, done func(err error)) {
	wb.execDDLAs(stmts, stmts, done)
}

// execDDLAs is execDDL recording shown[i] in History for stmts[i] (a
// statement run with a secret that History must not keep).
func (wb *Workbench) execDDLAs(stmts, shown []string, done func(err error)) {
	a := wb.authoring()
	a.bg.Add(1)
	go func() {
		defer a.bg.Done()
		var err error
		for i, s := range stmts {
			started := time.Now()
			_, err = wb.env.ExecuteSQL(s)
			errText := ""
			if err != nil {
				errText = err.Error()
			}
			wb.addHistory(shown[i], started, time.Since(started), 0, errText)
			if err != nil {
				err = fmt.Errorf("%s\n%w", summary(shown[i]), err)
				break
			}
		}
		wb.do(func() { done(err) })
	}()
}

// addToInitScript puts a CREATE statement into the init script (replacing
// an older CREATE of the same object) or appends another statement.
func (wb *Workbench) addToInitScript(stmt string) error {
	wb.mu.Lock()
	defer wb.mu.Unlock()
	script, err := authoring.AddToInitScript(wb.initScript, stmt)
	if err != nil {
		return err
	}
	if err := wb.store.SaveInitScript(context.Background(), script); err != nil {
		return err
	}
	wb.initScript = script
	return nil
}
