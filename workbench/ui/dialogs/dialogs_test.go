package dialogs

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/workbench/persistence"
)

func newWindow(t *testing.T) fyne.Window {
	t.Helper()
	test.NewTempApp(t)
	w := test.NewWindow(widget.NewLabel(""))
	w.Resize(fyne.NewSize(1400, 900))
	t.Cleanup(w.Close)
	return w
}

// Enter in the Rename tab dialog confirms it (issue 21).
func TestRenameTabEnterConfirms(t *testing.T) {
	w := newWindow(t)
	c := w.Canvas()
	var got []string
	ShowRenameTab(w, "Query 1", func(title string) { got = append(got, title) })
	e, ok := c.Focused().(*widget.Entry)
	if !ok || c.Overlays().Top() == nil {
		t.Fatalf("no rename dialog with a focused entry (focused %T)", c.Focused())
	}
	if e.Text != "Query 1" {
		t.Errorf("the entry starts with %q", e.Text)
	}
	e.SetText("")
	test.Type(e, "Top airports")
	e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if strings.Join(got, "|") != "Top airports" {
		t.Errorf("renamed to %q", got)
	}
	if top := c.Overlays().Top(); top != nil {
		t.Errorf("the dialog is still open: %T", top)
	}
}

// Save hands the edited text to save; an error save returns is shown.
func TestInitScriptSave(t *testing.T) {
	w := newWindow(t)
	var saved []string
	d := ShowInitScript(w, "SET 'a' = 'b';", func(text string) error { saved = append(saved, text); return nil })
	if w.Canvas().Overlays().Top() == nil {
		t.Fatal("no dialog shown")
	}
	d.Confirm()
	if strings.Join(saved, "|") != "SET 'a' = 'b';" {
		t.Errorf("saved %q", saved)
	}

	d = ShowInitScript(w, "", func(string) error { return errors.New("disk full") })
	d.Confirm()
	// Fyne's error dialog capitalises the message
	if top := w.Canvas().Overlays().Top(); top == nil || !strings.Contains(test.RenderObjectToMarkup(top), "Disk full") {
		t.Errorf("no error dialog after a failed save")
	}
}

// The locked-workspace text names the file and the process holding it.
func TestWorkspaceLockedMessage(t *testing.T) {
	err := &persistence.LockedError{Path: "/tmp/x/shared.riffle", PID: os.Getpid(), Since: time.Date(2026, 1, 2, 15, 4, 0, 0, time.Local)}
	msg := WorkspaceLockedMessage(err)
	if !strings.HasPrefix(msg, "shared.riffle is already open in another Riffle window (process "+strconv.Itoa(os.Getpid())+", opened at 15:04).") {
		t.Errorf("dialog text %q", msg)
	}
	if msg := WorkspaceLockedMessage(errors.New("other")); !strings.HasPrefix(msg, "The workspace is already open") {
		t.Errorf("without a LockedError: %q", msg)
	}
}
