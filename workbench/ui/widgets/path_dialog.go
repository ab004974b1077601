package widgets

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// A path dialog asks for a file by its path: an entry to type or paste it
// in (Fyne's file dialog has none), Browse… for Fyne's file dialog, which
// fills the entry, and the confirm button (or Enter in the entry). The
// path is checked before the dialog closes: to open, an existing file; to
// save, a name whose folder exists and that is not a folder.

// PathSpec describes a path dialog.
type PathSpec struct {
	// Title is the dialog's title ("Open data file").
	Title string
	// Confirm is the confirm button's label ("Open", "Save").
	Confirm string
	// Save asks for a file to write (it may not exist yet); otherwise the
	// file must exist.
	Save bool
	// Path is the entry's initial text.
	Path string
	// Dir is the folder a relative path is taken from and where Browse…
	// starts; empty: the home folder.
	Dir string
	// Extensions filter what Browse… lists (".csv"); they do not restrict
	// a typed path.
	Extensions []string
	// OnPath receives the checked, absolute path when the user confirms.
	OnPath func(path string)
}

// PathForm is the content of a path dialog: the entry, the error line and
// the buttons. It is built by NewPathForm so that tests can drive it
// without a window system.
type PathForm struct {
	spec PathSpec
	win  fyne.Window
	// Entry holds the path; Enter confirms.
	Entry *widget.Entry
	// Problem says why the typed path cannot be used (hidden when empty).
	Problem *widget.Label
	// OnDone is called after OnPath, or on Cancel (to close the dialog).
	OnDone func()
	// ConfirmButton and CancelButton close the form.
	ConfirmButton, CancelButton *widget.Button
	browse                      *widget.Button
	content                     fyne.CanvasObject
}

// NewPathForm makes the form of spec; win is the parent of Browse…'s file
// dialog.
func NewPathForm(win fyne.Window, spec PathSpec) *PathForm {
	f := &PathForm{spec: spec, win: win}
	f.Entry = widget.NewEntry()
	f.Entry.SetPlaceHolder("type or paste a path, or Browse…")
	f.Entry.SetText(spec.Path)
	f.Entry.CursorColumn = utf8.RuneCountInString(spec.Path) // type on at the end
	f.Entry.OnSubmitted = func(string) { f.Submit() }
	f.Entry.OnChanged = func(string) { f.setProblem("") }
	f.Problem = widget.NewLabel("")
	f.Problem.Wrapping = fyne.TextWrapWord
	f.Problem.Importance = widget.DangerImportance
	f.Problem.Hide()
	f.browse = widget.NewButtonWithIcon("Browse…", theme.FolderOpenIcon(), f.showBrowser)
	label := spec.Confirm
	if label == "" {
		label = "Open"
		if spec.Save {
			label = "Save"
		}
	}
	f.ConfirmButton = widget.NewButton(label, f.Submit)
	f.ConfirmButton.Importance = widget.HighImportance
	f.CancelButton = widget.NewButton("Cancel", func() {
		if f.OnDone != nil {
			f.OnDone()
		}
	})
	buttons := container.NewHBox(layout.NewSpacer(), f.CancelButton, f.ConfirmButton)
	f.content = container.NewVBox(
		container.NewBorder(nil, nil, widget.NewLabel("Path"), f.browse, f.Entry),
		f.Problem,
		buttons,
	)
	return f
}

// Content is the form's canvas object.
func (f *PathForm) Content() fyne.CanvasObject { return f.content }

// Submit checks the entry's path and, when it can be used, passes it to
// OnPath and closes the form; otherwise it shows why.
func (f *PathForm) Submit() {
	p, err := f.Resolve(f.Entry.Text)
	if err != nil {
		f.setProblem(err.Error())
		return
	}
	if f.OnDone != nil {
		f.OnDone()
	}
	if f.spec.OnPath != nil {
		f.spec.OnPath(p)
	}
}

func (f *PathForm) setProblem(s string) {
	f.Problem.SetText(s)
	if s == "" {
		f.Problem.Hide()
	} else {
		f.Problem.Show()
	}
}

// Resolve turns the typed text into an absolute, cleaned path and checks
// it: surrounding blanks and quotes (as a pasted path may have) are
// dropped, a leading ~ is the home folder, a file:// URI its path, and a
// relative path is taken from the spec's Dir (else the home folder). To
// open, the path must name an existing file; to save, its folder must
// exist and it must not be a folder.
func (f *PathForm) Resolve(text string) (string, error) {
	p := strings.TrimSpace(text)
	if len(p) >= 2 && (p[0] == '"' && p[len(p)-1] == '"' || p[0] == '\'' && p[len(p)-1] == '\'') {
		p = p[1 : len(p)-1]
	}
	p = strings.TrimPrefix(p, "file://")
	if p == "" {
		return "", errors.New("enter the path of a file")
	}
	home, _ := os.UserHomeDir()
	if p == "~" || strings.HasPrefix(p, "~/") {
		if home == "" {
			return "", errors.New("no home folder to expand ~ to")
		}
		p = filepath.Join(home, strings.TrimPrefix(p, "~"))
	}
	if !filepath.IsAbs(p) {
		base := f.spec.Dir
		if base == "" {
			base = home
		}
		p = filepath.Join(base, p)
	}
	p = filepath.Clean(p)
	st, err := os.Stat(p)
	switch {
	case err == nil && st.IsDir():
		return "", fmt.Errorf("%s is a folder: name a file in it", p)
	case err == nil:
		return p, nil
	case !errors.Is(err, os.ErrNotExist):
		return "", err
	case !f.spec.Save:
		return "", fmt.Errorf("no file %s", p)
	}
	if dst, err := os.Stat(filepath.Dir(p)); err != nil || !dst.IsDir() {
		return "", fmt.Errorf("no folder %s", filepath.Dir(p))
	}
	return p, nil
}

// startDir is where Browse… starts: the typed path's folder when it
// exists, else the spec's Dir, else the home folder.
func (f *PathForm) startDir() string {
	if t := strings.TrimSpace(f.Entry.Text); t != "" {
		d := t
		if st, err := os.Stat(t); err != nil || !st.IsDir() {
			d = filepath.Dir(t)
		}
		if st, err := os.Stat(d); err == nil && st.IsDir() && filepath.IsAbs(d) {
			return d
		}
	}
	if f.spec.Dir != "" {
		return f.spec.Dir
	}
	home, _ := os.UserHomeDir()
	return home
}

// showBrowser opens Fyne's file dialog; the file chosen fills the entry.
func (f *PathForm) showBrowser() {
	if f.win == nil {
		return
	}
	var d interface {
		SetFilter(storage.FileFilter)
		SetLocation(fyne.ListableURI)
		Resize(fyne.Size)
		Show()
	}
	if f.spec.Save {
		sd := dialog.NewFileSave(func(w fyne.URIWriteCloser, err error) {
			if err != nil || w == nil {
				return
			}
			p := w.URI().Path()
			_ = w.Close()
			f.Entry.SetText(p)
			f.Submit()
		}, f.win)
		if name := filepath.Base(strings.TrimSpace(f.Entry.Text)); name != "." && name != string(filepath.Separator) {
			sd.SetFileName(name)
		}
		d = sd
	} else {
		d = dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
			if err != nil || r == nil {
				return
			}
			p := r.URI().Path()
			_ = r.Close()
			f.Entry.SetText(p)
			f.Submit() // a file picked is the answer
		}, f.win)
	}
	if len(f.spec.Extensions) > 0 {
		d.SetFilter(storage.NewExtensionFileFilter(f.spec.Extensions))
	}
	if dir := f.startDir(); dir != "" {
		if l, err := storage.ListerForURI(storage.NewFileURI(dir)); err == nil {
			d.SetLocation(l)
		}
	}
	d.Resize(FileDialogSize(f.win))
	d.Show()
}

// ShowPathDialog shows a path dialog over win with the entry focused.
func ShowPathDialog(win fyne.Window, spec PathSpec) *PathForm {
	f := NewPathForm(win, spec)
	d := dialog.NewCustomWithoutButtons(spec.Title, f.Content(), win)
	f.OnDone = d.Hide
	w := float32(640)
	if c := win.Canvas(); c != nil && c.Size().Width > 0 {
		w = min(w, c.Size().Width-40)
	}
	d.Resize(fyne.NewSize(w, d.MinSize().Height))
	d.Show()
	win.Canvas().Focus(f.Entry)
	return f
}
