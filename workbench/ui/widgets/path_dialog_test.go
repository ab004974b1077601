package widgets

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
)

// TestPathDialogTakesATypedPath: a path typed or pasted in the entry (with
// quotes, ~, relative to the dialog's folder) is checked and confirmed
// with Enter; a missing file, a folder or a save into a missing folder
// says why and keeps the dialog open.
func TestPathDialogTakesATypedPath(t *testing.T) {
	test.NewTempApp(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "data.csv")
	if err := os.WriteFile(file, []byte("a\n1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	if err := os.WriteFile(filepath.Join(home, "h.csv"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	win := test.NewWindow(nil)
	defer win.Close()

	var got []string
	done := 0
	open := func(save bool) *PathForm {
		f := NewPathForm(win, PathSpec{Title: "Open", Save: save, Dir: dir, OnPath: func(p string) { got = append(got, p) }})
		f.OnDone = func() { done++ }
		return f
	}
	enter := func(f *PathForm, text string) {
		f.Entry.SetText(text)
		f.Entry.OnSubmitted(f.Entry.Text)
	}

	for _, c := range []struct{ text, want string }{
		{"  '" + file + "'  ", file},
		{"\"" + file + "\"", file},
		{"file://" + file, file},
		{"data.csv", file},
		{"~/h.csv", filepath.Join(home, "h.csv")},
	} {
		got, done = nil, 0
		f := open(false)
		enter(f, c.text)
		if len(got) != 1 || got[0] != c.want || done != 1 || f.Problem.Visible() {
			t.Errorf("open %q: got %q, closed %d times, problem %q", c.text, got, done, f.Problem.Text)
		}
	}

	for _, c := range []struct {
		save       bool
		text, says string
	}{
		{false, "", "enter the path"},
		{false, filepath.Join(dir, "missing.csv"), "no file " + filepath.Join(dir, "missing.csv")},
		{false, dir, "is a folder"},
		{true, dir, "is a folder"},
		{true, filepath.Join(dir, "nope", "out.csv"), "no folder " + filepath.Join(dir, "nope")},
	} {
		got, done = nil, 0
		f := open(c.save)
		enter(f, c.text)
		if len(got) != 0 || done != 0 || !f.Problem.Visible() || !strings.Contains(f.Problem.Text, c.says) {
			t.Errorf("save=%v %q: got %q, closed %d, problem %q (visible %v), want %q", c.save, c.text, got, done, f.Problem.Text, f.Problem.Visible(), c.says)
		}
		// typing again clears the complaint
		test.Type(f.Entry, "x")
		if f.Problem.Visible() {
			t.Errorf("the problem stays while the path is edited")
		}
	}

	// to save, a new file in an existing folder is fine (the confirm
	// button does what Enter does)
	got, done = nil, 0
	f := open(true)
	f.Entry.SetText(filepath.Join(dir, "new.png"))
	test.Tap(f.ConfirmButton)
	if len(got) != 1 || got[0] != filepath.Join(dir, "new.png") || done != 1 {
		t.Errorf("save a new file: got %q, closed %d, problem %q", got, done, f.Problem.Text)
	}
	// an initial path leaves the cursor at its end, to type a name after it
	f = NewPathForm(win, PathSpec{Path: dir + "/"})
	test.Type(f.Entry, "data.csv")
	if f.Entry.Text != dir+"/data.csv" {
		t.Errorf("typed after the initial path: %q", f.Entry.Text)
	}
	// Cancel closes without a path
	got, done = nil, 0
	f = open(false)
	f.Entry.SetText(file)
	test.Tap(f.CancelButton)
	if len(got) != 0 || done != 1 {
		t.Errorf("cancel: got %q, closed %d", got, done)
	}
}
