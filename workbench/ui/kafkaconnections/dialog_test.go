package kafkaconnections

import (
	"errors"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/riffle-sql/riffle/workbench/kafkabrowser"
)

// fakeHost keeps connections in a slice.
type fakeHost struct {
	conns  []kafkabrowser.Config
	closed int
}

func (h *fakeHost) Names() []string {
	out := make([]string, len(h.conns))
	for i, c := range h.conns {
		out[i] = c.Name
	}
	return out
}

func (h *fakeHost) Config(name string) (kafkabrowser.Config, bool) {
	for _, c := range h.conns {
		if c.Name == name {
			return c, true
		}
	}
	return kafkabrowser.Config{}, false
}

func (h *fakeHost) Save(old string, cfg kafkabrowser.Config) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	for i, c := range h.conns {
		if c.Name == old {
			h.conns[i] = cfg
			return nil
		}
	}
	h.conns = append(h.conns, cfg)
	return nil
}

func (h *fakeHost) Remove(name string) error { return errors.New("not in this test") }
func (h *fakeHost) Do(f func())              { f() }
func (h *fakeHost) Closed(*Dialog)           { h.closed++ }

func TestDialogShowsEditsAndSaves(t *testing.T) {
	test.NewTempApp(t)
	win := test.NewTempWindow(t, nil)
	h := &fakeHost{conns: []kafkabrowser.Config{{Name: "local", Bootstrap: "127.0.0.1:9092",
		Security: kafkabrowser.SASLPlaintext, Mechanism: kafkabrowser.MechPlain, Username: "alice"}}}
	cd := Show(win, h, "local")
	if cd.NameEntry().Text != "local" || cd.UserEntry().Text != "alice" || cd.UserEntry().Disabled() {
		t.Fatalf("shows %q %q (disabled %v)", cd.NameEntry().Text, cd.UserEntry().Text, cd.UserEntry().Disabled())
	}
	// plaintext: the SASL fields are off and not saved
	cd.SecuritySelect().SetSelected(kafkabrowser.Plaintext)
	if !cd.UserEntry().Disabled() {
		t.Error("the user field is enabled for PLAINTEXT")
	}
	test.Tap(cd.SaveButton())
	if cd.Status() != "Saved local." || h.conns[0].Username != "" || len(h.conns) != 1 {
		t.Fatalf("status %q, stored %+v", cd.Status(), h.conns)
	}
	// a new one without servers is refused with the host's reason
	cd = Show(win, h, "")
	cd.NameEntry().SetText("bad")
	test.Tap(cd.SaveButton())
	if !strings.Contains(cd.Status(), "bootstrap servers") || len(h.conns) != 1 {
		t.Errorf("status %q, stored %+v", cd.Status(), h.conns)
	}
	cd.Hide()
	if h.closed != 1 {
		t.Errorf("closed %d times", h.closed)
	}
}
