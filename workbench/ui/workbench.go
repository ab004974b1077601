package ui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/assets"
	_ "github.com/riffle-sql/riffle/engine/connector/all" // every connector and format
	"github.com/riffle-sql/riffle/engine/results"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/workbench/catalogbrowser"
	"github.com/riffle-sql/riffle/workbench/editor"
	"github.com/riffle-sql/riffle/workbench/persistence"
	"github.com/riffle-sql/riffle/workbench/ui/history"
	"github.com/riffle-sql/riffle/workbench/ui/resumejobs"
	"github.com/riffle-sql/riffle/workbench/ui/widgets"
)

// Settings keys of the workspace.
const (
	settingInitialized = "workbench.initialized"
	settingRecordDDL   = "workbench.record-ddl"
	settingTabMode     = "workbench.tab-mode." // + tab ID
)

// Split names in persistence.Window.Splits.
const (
	splitCatalog = "catalog"
	splitResults = "results"
)

// Runtime modes as the mode switch shows them.
const (
	modeStreaming = "Streaming"
	modeBatch     = "Batch"
)

// defaultResultsSplit is the editor's share of the height above the
// results in a new workspace: results get the larger part (in a 1400×900
// window 11 grid rows and a plan graph ~330 px high, against 8 rows and
// ~230 px at an even split) while the editor still shows a demo tab's 15
// lines.
const defaultResultsSplit = 0.4

func init() {
	// Ctrl+Enter finds statements with the engine's own splitter, so the
	// editor and the engine always agree on where a statement starts.
	editor.DefaultSplitter = func(script string) []editor.Statement {
		spans := sql.SplitStatements(script)
		out := make([]editor.Statement, len(spans))
		for i, s := range spans {
			out[i] = editor.Statement{Text: s.Text, Start: s.Start.Offset, End: s.End}
		}
		return out
	}
}

// Workbench is the main window's content and state. Create it with New;
// all methods are called on the Fyne UI goroutine.
type Workbench struct {
	opts Options
	win  fyne.Window
	do   func(func())

	env   *table.TableEnvironment // the embedded engine (connections.go: where tabs run)
	conns *connections
	store *persistence.Store
	saver *persistence.Autosaver

	mu         sync.Mutex // guards initScript, recordDDL and runCancels
	initScript string
	recordDDL  bool
	runCancels map[int]context.CancelFunc
	// heap is the idle memory limit (heap_limit.go; nil unless
	// Options.IdleHeapLimit)
	heap    *heapLimit
	nextRun int

	catalog  *catalogbrowser.Browser
	editors  *editorTabs
	bottom   *container.DocTabs
	messages *messagesPanel
	history  *history.Panel
	results  []*resultTab
	resultN  int
	mon      monitorState        // monitoring hook: Jobs panel, chart settings, job tabs (monitoring.go)
	replayed replayedTemporaries // temporary tables and views the init script made (replayed_temporaries.go)

	hsplit, vsplit *container.Split
	modeSel        *widget.Select
	statusLeft     *widget.Label
	statusRight    *widget.Label
	stopBtn        *widget.Button
	stopWaits      []func() bool  // what Stop cancelled: true while it has not ended
	stopSince      time.Time      // when Stop was last pressed
	connSel        *widget.Select // the current tab's connection
	connHeader     *widget.Label  // the catalog's connection
	connDetail     *widget.Label  // where it is, its state
	catalogErr     string         // the catalog error reported last
	content        fyne.CanvasObject

	runQ        chan queued    // scripts for the worker, in submission order
	collectors  sync.WaitGroup // goroutines reading query results
	running     atomic.Int32   // scripts submitted and not finished
	idleMu      sync.Mutex
	idleWaiters []chan struct{}

	closed    bool
	closeOnce sync.Once
	// resumeOffer is the offer to resume the jobs a crashed workbench ran
	// (resume_jobs.go), nil when none was shown.
	resumeOffer *resumejobs.Dialog
	quit        chan struct{}
	tickPending atomic.Bool
	lastLayout  persistence.Window
	layoutCheck time.Time
	tabFit      tabFit // the result tabs' titles fit the strip (tabfit.go)

	startProblems []string // what went wrong while opening, for Messages
	startNotes    []string // what opening did that the user should know, for Messages

	wsCatalog *workspaceCatalog // the workspace's persistent catalog (workspace_catalog.go)

	exports     []*exportJob
	fileRuns    []*fileRun
	exportPrefs persistence.ExportSettings

	auth *authoringUI // authoring hook: builder, designer, completion, open file (authoring.go)

	kafka *kafkaUI // Kafka hook: connections, topic tree, peek tabs (kafka_connection.go)

	alertsUI *alertsUI // alerts hook: the alert rules, their runners and dialog (alerts.go)

	dashboards *dashboardsUI // dashboard hook: the Dashboards window (dashboard.go)

	// exportCSV writes an export (results.ExportCSV; tests wrap it).
	exportCSV func(ctx context.Context, rows results.Rows, path string, opts results.CSVOptions, progress func(written, total int)) error
}

// New opens the workspace and builds the workbench into w (content, main
// menu, shortcuts and size). A new workspace gets the demo: the bundled
// data, an init script registering it and three tabs. The init script then
// runs in the background.
func New(w fyne.Window, opts Options) (*Workbench, error) {
	wb := &Workbench{opts: opts, win: w, do: opts.Do, quit: make(chan struct{}), runCancels: map[int]context.CancelFunc{},
		exportCSV: results.ExportCSV}
	if wb.do == nil {
		wb.do = fyne.Do
	}
	if opts.IdleHeapLimit {
		wb.heap = newHeapLimit()
	}
	path := opts.Workspace
	if path == "" {
		p, err := persistence.DefaultPath()
		if err != nil {
			return nil, err
		}
		path = p
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("creating the workspace folder: %w", err)
	}
	ctx := context.Background()
	open := persistence.Open
	if opts.ReadOnly {
		open = persistence.OpenReadOnly
	}
	store, err := open(ctx, path)
	if err != nil {
		return nil, err
	}
	wb.store = store
	ws, err := store.Load(ctx)
	if err != nil {
		store.Close()
		return nil, err
	}
	if ws.Settings[settingInitialized] == "" {
		if ws, err = wb.seedDemo(ctx, ws); err != nil {
			store.Close()
			return nil, err
		}
	}
	wb.initScript = ws.InitScript
	wb.exportPrefs = ws.Export
	wb.recordDDL = ws.Settings[settingRecordDDL] != "false"
	wb.saver = store.NewAutosaver(0, func(err error) {
		wb.do(func() { wb.messages.add(levelError, "Saving the workspace failed: "+err.Error(), nil) })
	})
	env, err := table.Create(table.InStreamingMode())
	if err != nil {
		store.Close()
		return nil, err
	}
	wb.env = env
	wb.openWorkspaceCatalog(ctx, path, ws) // workspace_catalog.go: the catalog `workspace`, current
	wb.conns = newConnections(wb, ws)
	wb.runQ = make(chan queued, 1024)
	go wb.worker(wb.runQ)

	title := "Riffle — " + strings.TrimSuffix(filepath.Base(path), ".riffle")
	if store.ReadOnly() {
		title += " (read-only)"
		wb.startProblems = append(wb.startProblems, "Read-only: "+filepath.Base(path)+
			" is open in another Riffle window, so nothing changed here is saved.")
	}
	w.SetTitle(title)
	wb.build(ws)
	for _, p := range ws.Problems {
		wb.messages.add(levelWarning, "A damaged workspace entry was skipped: "+p.Error(), nil)
	}
	for _, p := range wb.startProblems {
		wb.messages.add(levelWarning, p, nil)
	}
	for _, n := range wb.startNotes {
		wb.messages.add(levelInfo, n, nil)
	}
	wb.restoreWindow(ws.Window)
	if t := wb.editors.current(); t != nil {
		w.Canvas().Focus(t.ed)
	}
	wb.runInit()
	wb.offerResume() // resume_jobs.go: the jobs a crashed workbench ran
	if !opts.NoTicker {
		wb.startAlerts() // alerts hook: the workspace's alert rules (alerts.go)
	}
	if !opts.NoTicker {
		go wb.tickLoop()
	}
	return wb, nil
}

// dataDir is where the sample data is extracted.
func (wb *Workbench) dataDir() (string, error) {
	if wb.opts.DataDir != "" {
		return wb.opts.DataDir, nil
	}
	return assets.DefaultDataDir()
}

// seedDemo fills a new workspace with the demo: init script and tabs. When
// the sample data cannot be extracted, the workspace starts with an empty
// tab and says why (startProblems).
func (wb *Workbench) seedDemo(ctx context.Context, ws *persistence.Workspace) (*persistence.Workspace, error) {
	dir, err := wb.dataDir()
	var paths assets.DataPaths
	if err == nil {
		paths, err = assets.ExtractDataTo(dir)
	}
	if err != nil {
		wb.startProblems = append(wb.startProblems, "The demo's sample data could not be extracted, so the workspace starts empty: "+err.Error())
	} else if ws.InitScript == "" && len(ws.Tabs) == 0 {
		demo := assets.DemoWorkspace(paths)
		if err := wb.store.SaveInitScript(ctx, demo.InitScript); err != nil {
			return nil, err
		}
		tabs := make([]persistence.Tab, len(demo.Tabs))
		for i, t := range demo.Tabs {
			line, col := firstQueryPosition(t.SQL) // the cursor on the query, so Ctrl+Enter shows a result
			tabs[i] = persistence.Tab{Title: t.Title, Text: t.SQL, Order: i, CursorLine: line, CursorCol: col}
		}
		saved, err := wb.store.SaveTabs(ctx, tabs, 0)
		if err != nil {
			return nil, err
		}
		for i, t := range saved {
			if err := wb.store.SetSetting(ctx, settingTabMode+fmt.Sprint(t.ID), demoMode(demo.Tabs[i].SQL)); err != nil {
				return nil, err
			}
		}
		if err := wb.store.SetSelectedTab(ctx, saved[0].ID); err != nil {
			return nil, err
		}
		if err := wb.seedDemoAlert(ctx, paths); err != nil { // alerts hook (alerts_demo.go)
			return nil, err
		}
		if err := wb.seedDemoDashboard(ctx, paths); err != nil { // dashboard hook (dashboard_demo.go)
			return nil, err
		}
	}
	if err == nil {
		if err := wb.store.SetSetting(ctx, settingInitialized, time.Now().UTC().Format(time.RFC3339)); err != nil {
			return nil, err
		}
	}
	return wb.store.Load(ctx)
}

// demoMode reads the runtime mode a demo tab sets.
func demoMode(script string) string {
	for _, s := range sql.SplitStatements(script) {
		if st, err := s.Parse(); err == nil {
			if set, ok := st.(*sql.Set); ok && set.Key == "execution.runtime-mode" {
				if set.Value == "batch" {
					return modeBatch
				}
				return modeStreaming
			}
		}
	}
	return modeStreaming
}

// build creates the widgets.
func (wb *Workbench) build(ws *persistence.Workspace) {
	wb.messages = newMessagesPanel(wb)
	wb.history = history.New(wb.win, wb.store, historyHost{wb})
	wb.initMonitoring(ws) // monitoring hook
	wb.catalog = catalogbrowser.New(catalogbrowser.EnvSource{Env: wb.env})
	wb.catalog.OnInsert = func(s string) {
		if t := wb.editors.current(); t != nil {
			t.ed.InsertAtCursor(s)
			wb.win.Canvas().Focus(t.ed)
		}
	}
	wb.catalog.OnPreview = wb.preview
	wb.catalog.OnShowDDL = func(r catalogbrowser.Ref) {
		kind := "TABLE"
		if r.Kind == catalogbrowser.KindView {
			kind = "VIEW"
		}
		wb.runDetached("SHOW CREATE "+kind+" "+r.QualifiedName(), "DDL of "+r.Object)
	}
	wb.catalog.OnError = wb.reportCatalogError

	wb.editors = newEditorTabs(wb, ws)

	wb.bottom = container.NewDocTabs(wb.messages.item, wb.history.Item(), wb.mon.jobs.Item()) // monitoring hook: Jobs
	wb.bottom.CloseIntercept = func(it *container.TabItem) {
		switch {
		case wb.isFixedPanel(it): // monitoring hook: Messages, History, Jobs
			// The fixed panels only hide; View ▸ Messages / History (or
			// a new message) brings them back.
			wb.bottom.Remove(it)
		default:
			if rt := wb.resultFor(it); rt != nil {
				wb.askCloseResult(rt) // result_tabs.go: a running query asks first
			} else if !wb.closeJobTab(it) { // monitoring hook
				wb.closeKafkaTab(it) // Kafka hook: peek tabs
			}
		}
	}
	wb.bottom.OnSelected = func(it *container.TabItem) {
		if rt := wb.resultFor(it); rt != nil {
			rt.Refresh(true)
		}
	}

	wb.hsplit = container.NewHSplit(wb.kafkaPane(wb.catalogPane()), container.NewVSplit(wb.editors.tabs, wb.bottom)) // Kafka hook: the topic tree under the catalog
	wb.vsplit = wb.hsplit.Trailing.(*container.Split)
	wb.hsplit.Trailing = wb.builderArea(wb.vsplit) // authoring hook: the query builder at the right
	wb.hsplit.Offset = 0.2
	wb.vsplit.Offset = defaultResultsSplit

	wb.statusLeft = widget.NewLabel("Ready")
	wb.statusLeft.Truncation = fyne.TextTruncateEllipsis
	wb.statusRight = widget.NewLabel("")
	status := container.NewBorder(nil, nil, nil, wb.statusRight, wb.statusLeft)

	wb.content = container.NewBorder(wb.buildToolbar(), status, nil, nil, wb.hsplit)
	wb.win.SetContent(wb.content)
	wb.win.SetMainMenu(wb.gateMenu(wb.buildMenu())) // modal.go: no shortcuts behind a dialog
	wb.addShortcuts()
	wb.setupAuthoring() // authoring hook (authoring.go)
	wb.editors.selectStored(ws.SelectedTab)
	wb.history.Reload()
	wb.updateStatus()
}

func (wb *Workbench) buildToolbar() fyne.CanvasObject {
	run := widget.NewButtonWithIcon("Run", theme.MediaPlayIcon(), wb.runCurrentStatement)
	run.Importance = widget.HighImportance
	runAll := widget.NewButtonWithIcon("Run all", theme.MediaFastForwardIcon(), wb.runCurrentScript)
	wb.stopBtn = widget.NewButtonWithIcon("Stop", theme.MediaStopIcon(), wb.Stop)
	explain := widget.NewButtonWithIcon("Explain", theme.InfoIcon(), wb.explainCurrent)
	format := widget.NewButtonWithIcon("Format", theme.ContentRedoIcon(), wb.formatCurrent)
	export := widget.NewButtonWithIcon("Export…", theme.DownloadIcon(), func() {
		if rt := wb.selectedResult(); rt != nil {
			wb.showExportDialog(rt)
		} else {
			dialog.ShowInformation("Export", "Run a query first: the export writes the selected result tab.", wb.win)
		}
	})
	wb.modeSel = widget.NewSelect([]string{modeStreaming, modeBatch}, nil)
	if t := wb.editors.current(); t != nil {
		wb.modeSel.SetSelected(t.mode)
	}
	wb.modeSel.OnChanged = func(m string) {
		if t := wb.editors.current(); t != nil && t.mode != m {
			t.mode = m
			wb.editors.saveMode(t)
		}
		wb.updateStatus()
	}
	for _, b := range []*widget.Button{runAll, explain, format, export} {
		b.Importance = widget.LowImportance
	}
	wb.stopBtn.Importance = widget.LowImportance
	items := []fyne.CanvasObject{
		run, runAll, wb.stopBtn,
		widget.NewSeparator(),
		explain, format, wb.builderButton(), // authoring hook: query builder toggle
		widget.NewSeparator(),
		widget.NewLabel("Mode"), wb.modeSel,
		widget.NewSeparator(),
	}
	items = append(items, wb.connectionSwitch()...)
	items = append(items, widget.NewSeparator(), export)
	return container.NewVBox(widgets.NewToolbar(items...), widget.NewSeparator()) // toolbar.go: fits narrow windows
}

func (wb *Workbench) buildMenu() *fyne.MainMenu {
	ctrl := fyne.KeyModifierShortcutDefault
	item := func(label string, key fyne.KeyName, mod fyne.KeyModifier, f func()) *fyne.MenuItem {
		it := fyne.NewMenuItem(label, f)
		if key != "" {
			it.Shortcut = &desktop.CustomShortcut{KeyName: key, Modifier: mod}
		}
		return it
	}
	recordItem := fyne.NewMenuItem("Record DDL in the init script", nil)
	recordItem.Checked = wb.recordDDL
	recordItem.Action = func() {
		wb.mu.Lock()
		wb.recordDDL = !wb.recordDDL
		on := wb.recordDDL
		wb.mu.Unlock()
		recordItem.Checked = on
		_ = wb.store.SetSetting(context.Background(), settingRecordDDL, fmt.Sprint(on))
	}
	file := fyne.NewMenu("File",
		item("New tab", fyne.KeyT, ctrl, func() { wb.editors.newTab("", "") }),
		item("Close tab", fyne.KeyW, ctrl, func() { wb.editors.closeCurrent() }),
		item("Rename tab…", fyne.KeyF2, 0, func() { wb.editors.renameCurrent() }),
		fyne.NewMenuItemSeparator(),
		fyne.NewMenuItem("Export result as CSV…", func() {
			if rt := wb.selectedResult(); rt != nil {
				wb.showExportDialog(rt)
			}
		}),
		fyne.NewMenuItemSeparator(),
		fyne.NewMenuItem("Connections…", wb.showConnectionsDialog),
		fyne.NewMenuItem("Kafka connections…", wb.showKafkaConnectionsDialog), // Kafka hook
		fyne.NewMenuItem("Edit init script…", wb.showInitScriptDialog),
		recordItem,
	)
	run := fyne.NewMenu("Run",
		item("Run statement", fyne.KeyReturn, ctrl, wb.runCurrentStatement),
		item("Run all", fyne.KeyReturn, ctrl|fyne.KeyModifierShift, wb.runCurrentScript),
		item("Stop", fyne.KeyEscape, 0, wb.Stop),
		item("Explain", fyne.KeyE, ctrl, wb.explainCurrent),
		fyne.NewMenuItem("Run to CSV file…", func() { wb.runToFileCurrent() }),
		item("Format SQL", fyne.KeyF, ctrl|fyne.KeyModifierShift, wb.formatCurrent),
	)
	view := fyne.NewMenu("View",
		fyne.NewMenuItem("Messages", func() { wb.showPanel(wb.messages.item) }),
		fyne.NewMenuItem("History", func() { wb.showPanel(wb.history.Item()) }),
		item("Jobs", fyne.KeyJ, ctrl|fyne.KeyModifierShift, wb.showJobs), // monitoring hook
		fyne.NewMenuItem("Alerts…", wb.showAlerts),                       // alerts hook (alerts_dialog.go)
		item("Dashboards", fyne.KeyD, ctrl|fyne.KeyModifierShift, wb.showDashboards),
		fyne.NewMenuItemSeparator(),
		item("Previous tab", fyne.KeyPageUp, ctrl, func() { wb.editors.step(-1) }),
		item("Next tab", fyne.KeyPageDown, ctrl, func() { wb.editors.step(1) }),
		item("Move tab left", fyne.KeyPageUp, ctrl|fyne.KeyModifierShift, func() { wb.editors.moveCurrent(-1) }),
		item("Move tab right", fyne.KeyPageDown, ctrl|fyne.KeyModifierShift, func() { wb.editors.moveCurrent(1) }),
		fyne.NewMenuItem("Refresh catalog", wb.refreshCatalog),
	)
	wb.extendMenus(file, view) // authoring hook: Open data file…, New table…, Query builder
	return fyne.NewMainMenu(file, run, view)
}

// addShortcuts registers the window-wide keys for when no editor has the
// focus (an editor handles its own, and the tab keys through sqlEditor).
func (wb *Workbench) addShortcuts() {
	c := wb.win.Canvas()
	ctrl := fyne.KeyModifierShortcutDefault
	shift := fyne.KeyModifierShift
	for _, k := range []*desktop.CustomShortcut{
		{KeyName: fyne.KeyReturn, Modifier: ctrl}, {KeyName: fyne.KeyReturn, Modifier: ctrl | shift},
		{KeyName: fyne.KeyE, Modifier: ctrl}, {KeyName: fyne.KeyT, Modifier: ctrl}, {KeyName: fyne.KeyW, Modifier: ctrl},
		{KeyName: fyne.KeyPageUp, Modifier: ctrl}, {KeyName: fyne.KeyPageDown, Modifier: ctrl},
		{KeyName: fyne.KeyPageUp, Modifier: ctrl | shift}, {KeyName: fyne.KeyPageDown, Modifier: ctrl | shift},
	} {
		c.AddShortcut(k, func(s fyne.Shortcut) { wb.globalShortcut(s) })
	}
	c.SetOnTypedKey(func(ev *fyne.KeyEvent) {
		if wb.overlayOpen() { // modal.go: Esc closes the dialog
			if ev.Name == fyne.KeyEscape {
				wb.dismissOverlay()
			}
			return
		}
		switch ev.Name {
		case fyne.KeyEscape:
			wb.Stop()
		case fyne.KeyF2:
			wb.editors.renameCurrent()
		}
	})
}

// tabShortcut handles the keys that manage editor tabs; it reports whether
// s was one.
func (wb *Workbench) tabShortcut(s fyne.Shortcut) bool {
	sc, ok := s.(*desktop.CustomShortcut)
	if !ok || sc.Modifier&(fyne.KeyModifierControl|fyne.KeyModifierSuper) == 0 || sc.Modifier&fyne.KeyModifierAlt != 0 {
		return false
	}
	shift := sc.Modifier&fyne.KeyModifierShift != 0
	switch sc.KeyName {
	case fyne.KeyT:
		wb.editors.newTab("", "")
	case fyne.KeyW:
		wb.editors.closeCurrent()
	case fyne.KeyPageUp:
		if shift {
			wb.editors.moveCurrent(-1)
		} else {
			wb.editors.step(-1)
		}
	case fyne.KeyPageDown:
		if shift {
			wb.editors.moveCurrent(1)
		} else {
			wb.editors.step(1)
		}
	default:
		return false
	}
	return true
}

// globalShortcut handles the window's keys wherever the focus is (the
// grid passes on those it does not use); it reports whether s was one.
func (wb *Workbench) globalShortcut(s fyne.Shortcut) bool {
	if wb.overlayOpen() { // modal.go
		if sc, ok := s.(*desktop.CustomShortcut); ok && sc.KeyName == fyne.KeyEscape && sc.Modifier == 0 {
			return wb.dismissOverlay()
		}
		return false
	}
	if wb.tabShortcut(s) {
		return true
	}
	sc, ok := s.(*desktop.CustomShortcut)
	if ok && sc.KeyName == fyne.KeyEscape && sc.Modifier == 0 {
		wb.Stop()
		return true
	}
	if !ok || sc.Modifier&(fyne.KeyModifierControl|fyne.KeyModifierSuper) == 0 {
		return false
	}
	switch sc.KeyName {
	case fyne.KeyReturn, fyne.KeyEnter:
		if sc.Modifier&fyne.KeyModifierShift != 0 {
			wb.runCurrentScript()
		} else {
			wb.runCurrentStatement()
		}
	case fyne.KeyE:
		wb.explainCurrent()
	default:
		return false
	}
	return true
}

// showPanel shows (re-adding if closed) and selects a bottom panel.
func (wb *Workbench) showPanel(it *container.TabItem) {
	for _, x := range wb.bottom.Items {
		if x == it {
			wb.bottom.Select(it)
			return
		}
	}
	items := append([]*container.TabItem{}, wb.bottom.Items...)
	// Messages, History and Jobs stay left of the results, in that order.
	pos := 0
	if it == wb.history.Item() || it == wb.mon.jobs.Item() {
		for i, x := range items {
			if x == wb.messages.item || (it == wb.mon.jobs.Item() && x == wb.history.Item()) {
				pos = i + 1
			}
		}
	}
	items = append(items[:pos], append([]*container.TabItem{it}, items[pos:]...)...)
	wb.bottom.SetItems(items)
	wb.bottom.Select(it)
}

// restoreWindow applies the saved window size and split positions.
func (wb *Workbench) restoreWindow(w persistence.Window) {
	size := fyne.NewSize(1400, 900)
	if w.Width >= 400 && w.Height >= 300 {
		size = fyne.NewSize(w.Width, w.Height)
	}
	wb.win.Resize(size)
	if v, ok := w.Splits[splitCatalog]; ok && v > 0 && v < 1 {
		wb.hsplit.SetOffset(v)
	}
	if v, ok := w.Splits[splitResults]; ok && v > 0 && v < 1 {
		wb.vsplit.SetOffset(v)
	}
	if v, ok := w.Splits[splitKafka]; ok && v > 0 && v < 1 && wb.kafka != nil && wb.kafka.split != nil {
		wb.kafka.split.SetOffset(v) // Kafka hook: catalog above, Kafka tree below
	}
	wb.lastLayout = wb.layoutState()
}

func (wb *Workbench) layoutState() persistence.Window {
	s := wb.win.Canvas().Size()
	l := persistence.Window{Width: s.Width, Height: s.Height, Splits: map[string]float64{
		splitCatalog: wb.hsplit.Offset, splitResults: wb.vsplit.Offset,
	}}
	if wb.kafka != nil && wb.kafka.split != nil {
		l.Splits[splitKafka] = wb.kafka.split.Offset // Kafka hook
	}
	return l
}

// saveLayoutIfChanged writes the window size and splits when they changed.
func (wb *Workbench) saveLayoutIfChanged() {
	l := wb.layoutState()
	if l.Width < 100 || l.Height < 100 {
		return
	}
	if l.Width == wb.lastLayout.Width && l.Height == wb.lastLayout.Height &&
		l.Splits[splitCatalog] == wb.lastLayout.Splits[splitCatalog] && l.Splits[splitResults] == wb.lastLayout.Splits[splitResults] &&
		l.Splits[splitKafka] == wb.lastLayout.Splits[splitKafka] {
		return
	}
	if err := wb.store.SaveWindow(context.Background(), l); err == nil {
		wb.lastLayout = l
	}
}

// tickLoop posts Tick ten times a second; a tick is not queued while the
// previous one has not run (a busy UI drops frames).
func (wb *Workbench) tickLoop() {
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-wb.quit:
			return
		case <-t.C:
			if wb.tickPending.CompareAndSwap(false, true) {
				wb.do(func() {
					wb.tickPending.Store(false)
					wb.Tick()
				})
			}
		}
	}
}

// Tick redraws what changed since the last tick: the visible result's
// grid when its result changed (at most once per tick), the state and
// elapsed time of every result tab, and saves the window layout every few
// seconds when it changed. The ticker calls it ten times a second.
func (wb *Workbench) Tick() {
	if wb.closed {
		return
	}
	wb.tickMonitoring() // monitoring hook
	if wb.heap != nil {
		wb.heap.tick(wb.busyForHeap(), time.Now())
	}
	// dashboard hook: the tiles of the open dashboard
	wb.dashboards.tick()
	// "Canceled" in the status bar before the result tabs draw their
	// states: a job that ends between the two is then drawn CANCELED in
	// the same tick (drawn after, its tab would say STOPPING beside the
	// status bar's "Canceled" until the next tick)
	wb.tickStopping()
	sel := wb.bottom.Selected()
	for _, rt := range wb.results {
		rt.Tick(rt.Item() == sel)
	}
	wb.tickExports()
	wb.tickFileRuns()
	wb.fitTabTitles()
	if now := time.Now(); now.Sub(wb.layoutCheck) > 3*time.Second {
		wb.layoutCheck = now
		wb.saveLayoutIfChanged()
	}
}

// updateStatus refreshes the status bar and the mode switch.
func (wb *Workbench) updateStatus() {
	if wb.editors == nil || wb.statusRight == nil || wb.modeSel == nil || wb.conns == nil {
		return // still building
	}
	wb.syncConnection()
	t := wb.editors.current()
	right := ""
	if t != nil {
		line, col := t.ed.CursorPosition()
		right = fmt.Sprintf("Ln %d, Col %d · %s", line+1, col+1, t.mode)
		if wb.modeSel.Selected != t.mode {
			wb.modeSel.SetSelected(t.mode)
		}
	}
	if n := wb.runningJobs(); n > 0 {
		right += fmt.Sprintf(" · %d running", n)
	}
	right += " · " + wb.connStatus() + " · " + filepath.Base(wb.store.Path())
	if wb.store.ReadOnly() {
		right += " (read-only)"
	}
	wb.statusRight.SetText(right)
}

func (wb *Workbench) setStatus(s string) { wb.statusLeft.SetText(s) }

// runningJobs counts result tabs whose query still runs (or the Jobs
// panel's running jobs, INSERT jobs included, when more).
func (wb *Workbench) runningJobs() int {
	n := 0
	for _, rt := range wb.results {
		if rt.IsRunning() {
			n++
		}
	}
	return max(n, wb.mon.jobs.Running()) // monitoring hook: INSERT jobs run too
}

// flushPending saves autosaver edits now; safe on any goroutine.
func (wb *Workbench) flushPending() {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	_ = wb.saver.Flush(ctx)
}

// Close saves the workspace (tabs, cursor positions, layout), cancels the
// running jobs and closes the workspace file. It is idempotent.
func (wb *Workbench) Close() {
	wb.closeOnce.Do(func() {
		if !wb.closed {
			wb.editors.snapshotAll()
			wb.saveLayoutIfChanged()
		}
		wb.closed = true
		close(wb.quit)
		if wb.dashboards != nil {
			wb.dashboards.close() // dashboard hook: its tiles' queries stop
		}
		close(wb.runQ)
		wb.stopAlerts() // alerts hook: the rules' queries stop
		wb.mu.Lock()
		for _, c := range wb.runCancels {
			c()
		}
		wb.mu.Unlock()
		var cancelled []*table.JobClient
		for _, rt := range wb.results {
			rt.Stop() // recorded as canceled, not failed
			if rt.Job != nil {
				cancelled = append(cancelled, rt.Job)
			}
		}
		for _, j := range wb.env.Jobs() {
			if !j.Status().IsTerminal() {
				_ = j.Cancel()
				cancelled = append(cancelled, j)
			}
		}
		wb.awaitStopped(cancelled, closeWaitLimit)
		wb.conns.closeAll(2 * time.Second)
		if wb.kafka != nil {
			wb.kafka.closeAll() // Kafka hook
		}
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		if err := wb.saver.Close(ctx); err != nil && !errors.Is(err, context.Canceled) {
			fmt.Fprintln(os.Stderr, "riffle: saving the workspace:", err)
		}
		wb.forgetRunningJobs() // resume_jobs.go: its jobs were cancelled
		wb.store.Close()
		wb.closeWorkspaceCatalog()
	})
}

// closeWaitLimit bounds how long Close waits for the stopped queries'
// readers and jobs to end. The wait ends as soon as they have (a few
// milliseconds on an idle machine); the bound only matters for a job that
// does not stop, whose end then goes unrecorded.
const closeWaitLimit = 5 * time.Second

// awaitStopped waits, at most limit, for the result readers to record their
// end in the history and for the cancelled jobs to reach a terminal status,
// so that the tabs and the history say CANCELED, not STOPPING, once the
// workspace is closed.
func (wb *Workbench) awaitStopped(jobs []*table.JobClient, limit time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	done := make(chan struct{})
	go func() {
		wb.collectors.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
		return
	}
	for _, j := range jobs {
		_ = j.Wait(ctx) // returns at once once ctx is done
	}
}

// Env returns the workbench's embedded TableEnvironment (whatever the
// current tab's connection; see EmbeddedEnv).
func (wb *Workbench) Env() *table.TableEnvironment { return wb.env }

// Content returns the window content (for tests).
func (wb *Workbench) Content() fyne.CanvasObject { return wb.content }
