// Package ui is Riffle's workbench window: the catalog tree on the left,
// SQL editor tabs in the centre, result tabs (live grids), Messages and
// History at the bottom, a toolbar and a status bar. It builds Fyne
// objects only; the fyne.App is created in package main, so this package
// is testable with Fyne's headless test driver.
//
// # Threading
//
// Every Fyne object is touched on the Fyne UI goroutine only. Statements
// run on a worker goroutine, and query results are read from the engine by
// one goroutine per query into an engine/results.Result; those goroutines
// never touch widgets: they post closures with Options.Do (fyne.Do). A
// ticker posts one Tick ten times a second, which redraws the visible
// result only when it changed, so a stream of any rate costs at most ten
// grid refreshes a second and the engine never waits for the UI (a slow
// grid drops frames, not rows).
//
// # Workspaces
//
// The workbench keeps everything in a SQLite workspace (package
// persistence): editor tabs (text, cursor, order, runtime mode), window
// size and split positions, query history, the init script (run at start;
// DDL run in the editor is recorded there so user tables come back) and
// export settings. Edits are autosaved within two seconds.
//
// # Rooms
//
// Package ui is the controller: the Workbench, its run queue,
// connections, jobs and the result tabs. The parts that need only a window
// and callbacks live in sub-packages that do not import ui; each declares
// what it needs (a Host interface or callback fields) and ui supplies it:
//
//   - resultgrid: the virtualised result grid (callback fields On…, Do)
//   - designer: the table designer (designer.Host, designerHost here)
//   - exportform: the Export dialog's form (read back with Options)
//   - history: the History panel (history.Store, history.Host)
//   - kafkapeek: the Kafka peek tab (a Connect function, kafkapeek.Host)
//   - planview: the plan graph, EXPLAIN text and live metrics (New, Tick)
//   - chartview: a result's Chart tab (chartview.Host, chartHost here)
//   - completionpopup: the editor's completion popup (Editor, Host)
//   - jobs: the Jobs panel: the job list, its columns, the lag sparkline
//     (jobs.Host, jobsPanel in jobs_panel.go)
//   - dialogs: the locked-workspace question, init script, rename, code
//   - widgets: toolbar, rows layout, wheel catcher, overlays, text sizes
package ui

import (
	"context"
	"errors"
	"log"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/workbench/persistence"
	"github.com/riffle-sql/riffle/workbench/ui/dialogs"
	"github.com/riffle-sql/riffle/workbench/ui/widgets"
)

// Options configure the workbench.
type Options struct {
	// Workspace is the SQLite workspace file; empty = the default workspace
	// (persistence.DefaultPath).
	Workspace string
	// DataDir is where the bundled sample data is extracted for a new
	// workspace; empty = assets.DefaultDataDir (the user cache directory).
	DataDir string

	// Do runs f on the Fyne UI goroutine; nil = fyne.Do. Tests pass a queue
	// they drain on the test goroutine.
	Do func(f func())
	// NoTicker, when set, starts no refresh ticker: the caller calls Tick
	// (tests do, to control frames).
	NoTicker bool
	// FlashDuration is how long the statement being run is highlighted;
	// 0 = 600 ms, < 0 = no highlight.
	FlashDuration time.Duration
	// MaxTableRows and MaxChangelogRows cap each result's views
	// (0 = engine/results' defaults: 1,000,000 and 10,000).
	MaxTableRows, MaxChangelogRows int
	// ReadOnly opens the workspace without its lock and never writes it
	// (persistence.OpenReadOnly): for a workspace another window has open.
	ReadOnly bool
	// NoWorkspaceCatalog, when set, keeps the workbench as it was before
	// workspaces had a persistent catalog (workspace_catalog.go): user
	// objects live in default_catalog and the editor's DDL is recorded in
	// the init script, which replays it at start. The tests of features
	// written against default_catalog set it.
	NoWorkspaceCatalog bool
	// IdleHeapLimit sets a soft memory limit just above the Go memory in
	// use while no query, job or statement runs (heap_limit.go); Run sets
	// it, tests that check it too.
	IdleHeapLimit bool
}

// windowClass is the workbench window's X11 class, the StartupWMClass
// of the desktop entry `make package` installs (FyneApp.toml's Name).
const windowClass = "Riffle"

// Run opens the main window on a and blocks until it is closed or ctx is
// cancelled (SIGINT/SIGTERM). Either way the workspace is saved first. After
// ctx ends the window has four seconds to save and close; if the UI
// goroutine is stuck, the pending edits are saved from the watchdog and the
// process exits, so a SIGTERM always ends the process within five seconds.
//
// When another Riffle window has the workspace open (persistence.ErrLocked),
// a dialog says so and offers to open it read-only or to quit.
// A workspace that cannot be opened (a damaged file) is explained in the
// window, which offers to open another workspace file, to start a new one
// or to quit; Run returns the error when none was opened.
func Run(ctx context.Context, a fyne.App, opts Options) error {
	opts.IdleHeapLimit = true
	w := a.NewWindow("Riffle")
	var current atomic.Pointer[Workbench] // set on the UI goroutine, read by the signal watcher
	start := func(o Options) error {
		wb, err := New(w, o)
		if err != nil {
			return err
		}
		current.Store(wb)
		w.SetCloseIntercept(func() {
			wb.Close()
			a.Quit()
		})
		return nil
	}
	// startErr is why the workspace could not be opened, while no other
	// was opened instead (Run returns it)
	var startErr error
	var failed func(err error)
	failed = func(err error) {
		startErr = err
		w.SetContent(startupErrorContent(w, err, func(path string) {
			o := opts
			o.Workspace, o.ReadOnly = path, false
			if err := start(o); err != nil {
				failed(err)
				return
			}
			startErr = nil
		}, a.Quit))
		w.Resize(fyne.NewSize(680, 280))
	}
	if err := start(opts); err != nil {
		if !errors.Is(err, persistence.ErrLocked) {
			failed(err)
		} else {
			w.Resize(fyne.NewSize(760, 420))
			dialogs.ShowWorkspaceLocked(w, err, func() {
				o := opts
				o.ReadOnly = true
				if err := start(o); err != nil {
					failed(err)
				}
			}, a.Quit)
		}
	}
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-ctx.Done():
		case <-done:
			return
		}
		wb := current.Load()
		if wb == nil { // still asking about a locked workspace
			fyne.Do(a.Quit)
			return
		}
		// Save what the autosaver holds at once (safe off the UI
		// goroutine), then close on the UI goroutine.
		wb.flushPending()
		fyne.Do(func() {
			wb.Close()
			a.Quit()
		})
		select {
		case <-done:
		case <-time.After(4 * time.Second):
			log.Print("riffle: the window did not close in time; exiting")
			wb.flushPending()
			os.Exit(0)
		}
	}()
	// GLFW names the X11 window class (WM_CLASS) after the title the
	// window is made with, and Fyne makes it in ShowAndRun: made as
	// "Riffle", the window's class is the desktop entry's StartupWMClass
	// and a dock groups it with its launcher; the workspace's title comes
	// back once the app runs.
	title := w.Title()
	w.SetTitle(windowClass)
	a.Lifecycle().SetOnStarted(func() { w.SetTitle(title) })
	w.ShowAndRun()
	if wb := current.Load(); wb != nil {
		wb.Close()
	}
	return startErr
}

// showStartupError shows why the workspace could not be opened and waits
// for the window to be closed.
// startupErrorContent says why the workspace could not be opened and
// offers a way on: open another workspace file (or a new one) with open,
// or quit.
func startupErrorContent(w fyne.Window, err error, open func(path string), quit func()) fyne.CanvasObject {
	l := widget.NewLabel("Riffle could not open the workspace:\n\n" + err.Error())
	l.Wrapping = fyne.TextWrapWord
	// the small error window grows to hold a file dialog
	grow := func() { w.Resize(w.Canvas().Size().Max(fyne.NewSize(960, 680))) }
	home, _ := os.UserHomeDir()
	other := widget.NewButtonWithIcon("Open another workspace…", theme.FolderOpenIcon(), func() {
		grow()
		widgets.ShowPathDialog(w, widgets.PathSpec{Title: "Open workspace", Dir: home, Extensions: []string{".riffle"}, OnPath: open})
	})
	fresh := widget.NewButtonWithIcon("New workspace…", theme.ContentAddIcon(), func() {
		grow()
		widgets.ShowPathDialog(w, widgets.PathSpec{
			Title: "New workspace", Confirm: "Create", Save: true, Dir: home,
			Path: filepath.Join(home, "workspace.riffle"),
			OnPath: func(path string) {
				if filepath.Ext(path) == "" {
					path += ".riffle"
				}
				open(path)
			},
		})
	})
	quitBtn := widget.NewButtonWithIcon("Quit", theme.CancelIcon(), quit)
	quitBtn.Importance = widget.HighImportance
	buttons := container.NewHBox(layout.NewSpacer(), other, fresh, quitBtn)
	return container.NewPadded(container.NewBorder(nil, buttons, nil, nil, container.NewVScroll(l)))
}
