package openfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/riffle-sql/riffle/engine/connector/infer"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/workbench/authoring"
)

// fakeCatalog has the tables named in it.
type fakeCatalog map[string]bool

func (c fakeCatalog) Table(path []string) (*authoring.TableInfo, error) {
	if c[path[len(path)-1]] {
		return &authoring.TableInfo{}, nil
	}
	return nil, errors.New("no such table")
}

func (c fakeCatalog) Streaming() bool { return true }

// fakeHost records what the dialog asks; ExecDDL fails with execErr.
type fakeHost struct {
	cat     fakeCatalog
	execErr error
	ran     []string
	init    []string
	msg     string
	created []*sql.Ident
}

func (h *fakeHost) Catalog() authoring.Catalog { return h.cat }

func (h *fakeHost) ExecDDL(stmt, shown string, done func(error)) {
	h.ran = append(h.ran, stmt)
	done(h.execErr)
}

func (h *fakeHost) AddToInitScript(stmt string) error {
	h.init = append(h.init, stmt)
	return nil
}

func (h *fakeHost) Created(msg string, name []*sql.Ident) { h.msg, h.created = msg, name }

func inferred(t *testing.T) *infer.Result {
	t.Helper()
	path := filepath.Join(t.TempDir(), "flights.csv")
	data := "origin,delay,ts\nSFO,12,2024-01-01 10:00:00\nLAX,3,2024-01-01 10:01:00\n"
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := infer.File(path, infer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func showReview(t *testing.T, h *fakeHost) *Review {
	t.Helper()
	a := test.NewTempApp(t)
	w := a.NewWindow("riffle")
	w.Resize(fyne.NewSize(1200, 900))
	t.Cleanup(w.Close)
	return Show(w, inferred(t), h)
}

// The name is free in the catalog, the statement follows the form, and
// Create table runs it, adds it to the init script and reports the table.
func TestReviewCreatesTheTable(t *testing.T) {
	h := &fakeHost{cat: fakeCatalog{"flights": true}}
	r := showReview(t, h)
	if r.NameEntry().Text != "flights_2" {
		t.Fatalf("name %q, want flights_2 (flights exists)", r.NameEntry().Text)
	}
	r.NameEntry().SetText("trips")
	if stmt := r.DDL().Text(); !strings.HasPrefix(stmt, "CREATE TABLE trips") || stmt != r.Statement() {
		t.Fatalf("statement:\n%s", stmt)
	}
	if r.CreateButton().Disabled() || !strings.HasPrefix(r.StatusLabel().Text, "Ready to create trips") {
		t.Fatalf("status %q, Create disabled %v", r.StatusLabel().Text, r.CreateButton().Disabled())
	}
	test.Tap(r.CreateButton())
	if len(h.ran) != 1 || len(h.init) != 1 || h.ran[0] != h.init[0] {
		t.Fatalf("ran %q, init script %q", h.ran, h.init)
	}
	if r.Created() != "trips" || len(h.created) != 1 || h.created[0].Name != "trips" {
		t.Errorf("created %q, reported %v", r.Created(), h.created)
	}
	if want := "Table trips created from flights.csv. Added to the init script."; h.msg != want {
		t.Errorf("message %q, want %q", h.msg, want)
	}
}

// A statement that is not a CREATE TABLE cannot be run; the engine's
// error stays in the dialog with Create table enabled again.
func TestReviewRefusesAndShowsErrors(t *testing.T) {
	h := &fakeHost{cat: fakeCatalog{}, execErr: errors.New("CREATE TABLE trips\nboom")}
	r := showReview(t, h)
	r.DDL().SetText("SELECT 1")
	if !r.CreateButton().Disabled() || r.StatusLabel().Text != "The statement must be a CREATE TABLE" {
		t.Fatalf("status %q, Create disabled %v", r.StatusLabel().Text, r.CreateButton().Disabled())
	}
	r.Apply()
	if len(h.ran) != 0 {
		t.Fatalf("ran %q", h.ran)
	}
	r.InitCheck().SetChecked(false)
	r.NameEntry().SetText("trips") // the form rewrites the statement
	r.Apply()
	if len(h.ran) != 1 || len(h.init) != 0 || r.Created() != "" || h.created != nil {
		t.Fatalf("ran %q, init %q, created %q", h.ran, h.init, r.Created())
	}
	if r.StatusLabel().Text != "CREATE TABLE trips\nboom" || r.CreateButton().Disabled() {
		t.Errorf("status %q, Create disabled %v", r.StatusLabel().Text, r.CreateButton().Disabled())
	}
}
