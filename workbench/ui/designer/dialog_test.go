package designer

import (
	"errors"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	_ "github.com/riffle-sql/riffle/engine/connector/all" // the connectors the designer offers
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/workbench/authoring"
)

// fakeHost records what the designer asks of the workbench.
type fakeHost struct {
	win     fyne.Window
	created [][]string
	fail    error
	ran     []string
	tables  []string
}

func (h *fakeHost) Window() fyne.Window                                     { return h.win }
func (h *fakeHost) Do(f func())                                             { f() }
func (h *fakeHost) Go(f func())                                             { f() }
func (h *fakeHost) SetStatus(string)                                        {}
func (h *fakeHost) Catalog() authoring.Catalog                              { return nil }
func (h *fakeHost) Confirming(*dialog.ConfirmDialog)                        {}
func (h *fakeHost) Ran(msg string, stmts []string)                          { h.ran = append(h.ran, msg) }
func (h *fakeHost) Record(*authoring.Design, string, []string, bool) string { return "" }
func (h *fakeHost) Create(stmts []string, done func(error)) {
	h.created = append(h.created, stmts)
	done(h.fail)
}
func (h *fakeHost) Change(d *authoring.Design, stmts []string, done func(error)) {
	done(errors.New("not new"))
}
func (h *fakeHost) TableCreated(path []*sql.Ident) {
	var parts []string
	for _, p := range path {
		parts = append(parts, p.Name)
	}
	h.tables = append(h.tables, strings.Join(parts, "."))
}

func newDesign() *authoring.Design {
	d := authoring.NewDesign("")
	d.Columns = []authoring.ColumnDesign{{Name: "id", Type: authoring.TypeSpec{Name: "BIGINT"}}}
	d.SetConnector("datagen")
	return d
}

// Apply creates the table through the host; a failure stays in the
// dialog, which can apply again.
func TestApplyCreatesThroughTheHost(t *testing.T) {
	test.NewTempApp(t)
	w := test.NewWindow(widget.NewLabel(""))
	defer w.Close()
	w.Resize(fyne.NewSize(1400, 900))
	h := &fakeHost{win: w, fail: errors.New("no room")}
	dd := Show(h, newDesign())
	dd.Name.SetText("gen")
	if !strings.Contains(dd.Preview.Text(), "CREATE TABLE") || dd.Apply.Disabled() {
		t.Fatalf("preview %q, apply disabled %v, problems %q", dd.Preview.Text(), dd.Apply.Disabled(), dd.Problems.Text)
	}
	var done []error
	dd.Done = func(err error) { done = append(done, err) }
	dd.Apply.OnTapped()
	if len(h.created) != 1 || !strings.HasPrefix(h.created[0][0], "CREATE TABLE") || len(done) != 1 || done[0] == nil {
		t.Fatalf("created %q, done %v", h.created, done)
	}
	if !strings.Contains(dd.Problems.Text, "no room") || dd.Apply.Disabled() || len(h.ran) != 0 {
		t.Errorf("after a failure: problems %q, apply disabled %v, ran %q", dd.Problems.Text, dd.Apply.Disabled(), h.ran)
	}
	h.fail = nil
	dd.Apply.OnTapped()
	if len(h.ran) != 1 || !strings.HasPrefix(h.ran[0], "Table gen created.") || strings.Join(h.tables, "|") != "gen" {
		t.Errorf("ran %q, tables %q", h.ran, h.tables)
	}
}

// PathText quotes what needs quoting; SplitPath reads it back.
func TestPathTextRoundTrip(t *testing.T) {
	for _, p := range [][]string{{"t"}, {"my-sensors"}, {"c", "d", "t"}} {
		if got := SplitPath(PathText(p)); strings.Join(got, "|") != strings.Join(p, "|") {
			t.Errorf("%q -> %q -> %q", p, PathText(p), got)
		}
	}
}
