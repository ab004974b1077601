package connectionsdialog

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"github.com/riffle-sql/riffle/engine/gateway"
	"github.com/riffle-sql/riffle/workbench/persistence"
)

const embedded = "Embedded (this machine)"

// fakeHost keeps connections in a slice, the embedded one first.
type fakeHost struct {
	conns   []Entry
	current string
	used    []string
	saved   []string
	posted  chan func() // what Do posts to the UI goroutine
}

func (h *fakeHost) Names() []string {
	out := make([]string, len(h.conns))
	for i, c := range h.conns {
		out[i] = c.Config.Name
	}
	return out
}
func (h *fakeHost) EmbeddedName() string          { return embedded }
func (h *fakeHost) CurrentName() string           { return h.current }
func (h *fakeHost) TabsUsing(string) int          { return 0 }
func (h *fakeHost) UseInTab(name string)          { h.used = append(h.used, name) }
func (h *fakeHost) ConnectTimeout() time.Duration { return time.Second }
func (h *fakeHost) Do(f func())                   { h.posted <- f }
func (h *fakeHost) Connection(name string) (Entry, bool) {
	for _, c := range h.conns {
		if c.Config.Name == name {
			return c, true
		}
	}
	return Entry{}, false
}
func (h *fakeHost) Save(old string, cfg persistence.Connection, runInit bool) error {
	h.saved = append(h.saved, old+"→"+cfg.Name)
	for i, c := range h.conns {
		if old != "" && c.Config.Name == old {
			h.conns[i] = Entry{Config: cfg, RunInit: runInit}
			return nil
		}
	}
	h.conns = append(h.conns, Entry{Config: cfg, RunInit: runInit})
	return nil
}
func (h *fakeHost) Delete(name string) error {
	for i, c := range h.conns {
		if c.Config.Name == name {
			h.conns = append(h.conns[:i], h.conns[i+1:]...)
			return nil
		}
	}
	return errors.New("no such connection")
}
func (h *fakeHost) OpenTestSession(context.Context, persistence.Connection) (*gateway.RemoteEngine, error) {
	return nil, errors.New("cannot reach the SQL Gateway")
}

func TestDialogNewSaveUseDelete(t *testing.T) {
	test.NewTempApp(t)
	win := test.NewTempWindow(t, nil)
	h := &fakeHost{current: "gw", posted: make(chan func(), 1), conns: []Entry{
		{Config: persistence.Connection{Name: embedded}, Embedded: true},
		{Config: persistence.Connection{Name: "gw", URL: "http://h:8083", Properties: map[string]string{"a": "b"}},
			Ready: true, Info: "Apache Flink 1.20"},
	}}
	cd := Show(win, h)
	if cd.Editing() != "gw" || cd.URLEntry().Text != "http://h:8083" || cd.PropsEntry().Text != "a = b\n" ||
		cd.Status() != "Connected to Apache Flink 1.20." {
		t.Fatalf("shows %q %q %q %q", cd.Editing(), cd.URLEntry().Text, cd.PropsEntry().Text, cd.Status())
	}
	// a new one is named after the ones there are; bad input is refused
	test.Tap(cd.NewButton())
	if cd.Editing() != "" || cd.NameEntry().Text != "Gateway" {
		t.Fatalf("new: %q %q", cd.Editing(), cd.NameEntry().Text)
	}
	cd.NameEntry().SetText("gw")
	cd.URLEntry().SetText("h2:8083")
	test.Tap(cd.SaveButton())
	if !strings.Contains(cd.Status(), "exists") || len(h.saved) != 0 {
		t.Fatalf("status %q, saved %q", cd.Status(), h.saved)
	}
	cd.NameEntry().SetText("second")
	test.Tap(cd.UseButton())
	if cd.Status() != "Saved." || cd.URLEntry().Text != "http://h2:8083" || strings.Join(h.used, ",") != "second" ||
		strings.Join(h.saved, ",") != "→second" {
		t.Fatalf("status %q, URL %q, used %q, saved %q", cd.Status(), cd.URLEntry().Text, h.used, h.saved)
	}
	// Test reports the host's failure
	test.Tap(cd.TestButton())
	(<-h.posted)()
	if !strings.Contains(cd.Status(), "cannot reach") {
		t.Errorf("test: %q", cd.Status())
	}
	cd.Delete("second")
	if strings.Join(h.Names(), ",") != embedded+",gw" || cd.Editing() != "" {
		t.Errorf("after delete: %q, editing %q", h.Names(), cd.Editing())
	}
	cd.Hide()
}
