package history

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/workbench/persistence"
)

type fakeStore struct {
	entries []persistence.HistoryEntry
	err     error
}

func (s *fakeStore) History(_ context.Context, limit int) ([]persistence.HistoryEntry, []error, error) {
	return s.entries[:min(limit, len(s.entries))], nil, s.err
}

func (s *fakeStore) ClearHistory(context.Context) error { s.entries = nil; return nil }

type fakeHost struct{ opened, inserted, errs []string }

func (h *fakeHost) OpenInNewTab(text string)   { h.opened = append(h.opened, text) }
func (h *fakeHost) InsertAtCursor(text string) { h.inserted = append(h.inserted, text) }
func (h *fakeHost) Error(msg string)           { h.errs = append(h.errs, msg) }

func newPanel(t *testing.T, s *fakeStore) (*Panel, *fakeHost) {
	t.Helper()
	test.NewTempApp(t)
	w := test.NewWindow(widget.NewLabel(""))
	t.Cleanup(w.Close)
	h := &fakeHost{}
	p := New(w, s, h)
	w.SetContent(p.Item().Content)
	return p, h
}

// Put lists a new statement first and updates a listed one in place (an
// update without a statement keeps the statement and its start).
func TestPutAddsNewestFirstAndUpdates(t *testing.T) {
	start := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	p, _ := newPanel(t, &fakeStore{entries: []persistence.HistoryEntry{{ID: 1, Statement: "SELECT 1", Started: start}}})
	p.Reload()
	p.Put(persistence.HistoryEntry{ID: 2, Statement: "SELECT 2", Started: start.Add(time.Minute)})
	p.Put(persistence.HistoryEntry{ID: 2, Rows: 7, Duration: time.Second})
	p.Put(persistence.HistoryEntry{ID: 3}) // not listed, no statement: ignored
	var got []string
	for _, e := range p.Entries() {
		got = append(got, e.Statement)
	}
	if strings.Join(got, "|") != "SELECT 2|SELECT 1" {
		t.Fatalf("entries %q", got)
	}
	if e := p.Entries()[0]; e.Rows != 7 || !e.Started.Equal(start.Add(time.Minute)) {
		t.Errorf("updated entry %+v", e)
	}
}

// Open ends the statement with a semicolon and a line break; Insert
// passes it as it is; a failed read is reported to the host.
func TestOpenInsertAndReadErrors(t *testing.T) {
	s := &fakeStore{entries: []persistence.HistoryEntry{{ID: 1, Statement: "SELECT 1"}, {ID: 2, Statement: "SELECT 2;"}}}
	p, h := newPanel(t, s)
	p.Reload()
	p.Open(0)
	p.Open(1)
	p.Open(5) // out of range: nothing
	p.Insert(0)
	if strings.Join(h.opened, "|") != "SELECT 1;\n|SELECT 2;\n" || strings.Join(h.inserted, "|") != "SELECT 1" {
		t.Errorf("opened %q, inserted %q", h.opened, h.inserted)
	}
	s.err = errors.New("locked")
	p.Reload()
	if strings.Join(h.errs, "|") != "Reading the history: locked" || len(p.Entries()) != 2 {
		t.Errorf("errors %q, entries %d", h.errs, len(p.Entries()))
	}
}
