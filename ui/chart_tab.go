package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/charts"
	"github.com/riffle-sql/riffle/engine/results"
	"github.com/riffle-sql/riffle/ui/widgets"
)

// chartView is the Chart tab of a result: a settings bar (type, X, Y,
// series, last-N-minutes window, save) over the chart image. The image is
// rendered by a charts.Live on its own goroutine, at most four times a
// second and only while the tab is shown; finished images are swapped in
// on the UI goroutine.
type chartView struct {
	rt       *resultTab
	cols     []results.Column
	settings charts.Settings
	live     *charts.Live
	cancel   context.CancelFunc

	kindSel, xSel, seriesSel, windowSel *widget.Select
	yBtn                                *widget.Button
	yChecks                             *widget.CheckGroup
	info                                *widget.Label
	area                                *chartArea
	content                             fyne.CanvasObject

	visible bool
	setting bool // the selects are being set from code
	frame   charts.Frame
	frames  int // frames shown (for tests)

	// fitted: the detected Y columns were checked against the first
	// frame's values (charts.FitScales); scaleNote says what was left out
	fitted    bool
	scaleNote string
}

const (
	noSeries  = "(none)"
	allWindow = "All rows"
)

// chartWindows are the event-time windows offered.
var chartWindows = []time.Duration{time.Minute, 5 * time.Minute, 15 * time.Minute, time.Hour}

func windowTitle(d time.Duration) string {
	switch {
	case d <= 0:
		return allWindow
	case d%time.Hour == 0:
		return fmt.Sprintf("Last %d h", d/time.Hour)
	case d%time.Minute == 0:
		return fmt.Sprintf("Last %d min", d/time.Minute)
	}
	return "Last " + d.String()
}

// newChartView builds the chart tab of rt, with the settings kept for
// its statement or, failing that, charts.Detect's.
func newChartView(rt *resultTab) *chartView {
	cv := &chartView{rt: rt, cols: rt.res.Columns()}
	s, ok := rt.wb.savedChart(rt)
	if !ok || s.Validate(cv.cols) != nil {
		s, _ = charts.Detect(cv.cols)
	}
	s = cv.seriesOutOfY(s) // settings saved before a series left Y
	cv.settings = s

	names := make([]string, len(cv.cols))
	var numeric []string
	for i, c := range cv.cols {
		names[i] = c.Name
		if results.IsNumeric(c.Type) {
			numeric = append(numeric, c.Name)
		}
	}
	kinds := make([]string, len(charts.Kinds))
	for i, k := range charts.Kinds {
		kinds[i] = k.Title()
	}
	cv.kindSel = widget.NewSelect(kinds, func(string) { cv.changed() })
	cv.xSel = widget.NewSelect(names, func(string) { cv.changed() })
	cv.seriesSel = widget.NewSelect(append([]string{noSeries}, names...), func(string) { cv.changed() })
	wins := []string{allWindow}
	for _, d := range chartWindows {
		wins = append(wins, windowTitle(d))
	}
	cv.windowSel = widget.NewSelect(wins, func(string) { cv.changed() })
	cv.yChecks = widget.NewCheckGroup(numeric, func([]string) { cv.changed() })
	cv.yBtn = widget.NewButtonWithIcon("Y", theme.MenuDropDownIcon(), cv.showY)
	cv.yBtn.IconPlacement = widget.ButtonIconTrailingText
	cv.info = widget.NewLabel("")
	cv.info.Importance = widget.LowImportance
	cv.info.Truncation = fyne.TextTruncateEllipsis
	savePNG := widget.NewButtonWithIcon("PNG…", theme.DocumentSaveIcon(), func() { cv.showSave(".png") })
	saveSVG := widget.NewButtonWithIcon("SVG…", theme.DocumentSaveIcon(), func() { cv.showSave(".svg") })
	savePNG.Importance, saveSVG.Importance = widget.LowImportance, widget.LowImportance
	cv.show(s)

	lbl := func(s string) *widget.Label { return widget.NewLabel(s) }
	w := func(width float32, o fyne.CanvasObject) fyne.CanvasObject {
		return container.New(&minWidthLayout{width}, o)
	}
	bar := container.NewHBox(w(120, cv.kindSel), lbl("X"), w(150, cv.xSel), cv.yBtn, lbl("Series"), w(130, cv.seriesSel),
		w(124, cv.windowSel))
	save := container.NewHBox(widget.NewSeparator(), savePNG, saveSVG)
	cv.area = newChartArea(cv.resized)
	cv.content = container.NewBorder(container.NewBorder(nil, nil, nil, save, container.NewHScroll(bar)), cv.info, nil, nil, cv.area)

	cv.live = charts.NewLive(rt.res, s, charts.RenderOptions{Theme: chartTheme()}, func(f charts.Frame) {
		rt.wb.do(func() { cv.showFrame(f) })
	})
	ctx, cancel := context.WithCancel(context.Background())
	cv.cancel = cancel
	if !rt.wb.opts.NoTicker {
		go cv.live.Run(ctx)
	}
	return cv
}

// show sets the selects to s without reacting to the changes.
func (cv *chartView) show(s charts.Settings) {
	cv.setting = true
	defer func() { cv.setting = false }()
	cv.kindSel.SetSelected(s.Kind.Title())
	cv.xSel.SetSelected(s.X)
	cv.yChecks.SetSelected(slices.Clone(s.Y))
	if s.Series == "" {
		cv.seriesSel.SetSelected(noSeries)
	} else {
		cv.seriesSel.SetSelected(s.Series)
	}
	w := time.Duration(s.Window)
	if t := windowTitle(w); !slices.Contains(cv.windowSel.Options, t) {
		cv.windowSel.Options = append(cv.windowSel.Options, t)
	}
	cv.windowSel.SetSelected(windowTitle(w))
	cv.setYLabel(s)
}

func (cv *chartView) setYLabel(s charts.Settings) {
	t := "Y: " + strings.Join(s.Y, ", ")
	if len(s.Y) == 0 {
		t = "Y: choose…"
	}
	if r := []rune(t); len(r) > 32 {
		t = string(r[:31]) + "…"
	}
	cv.yBtn.SetText(t)
	if s.Kind == charts.Histogram {
		cv.yBtn.Disable()
	} else {
		cv.yBtn.Enable()
	}
}

// current reads the settings from the selects.
func (cv *chartView) current() charts.Settings {
	s := cv.settings
	s.Auto = false
	for _, k := range charts.Kinds {
		if k.Title() == cv.kindSel.Selected {
			s.Kind = k
		}
	}
	s.X = cv.xSel.Selected
	// keep the result's column order
	s.Y = nil
	for _, c := range cv.cols {
		if slices.Contains(cv.yChecks.Selected, c.Name) {
			s.Y = append(s.Y, c.Name)
		}
	}
	s.Series = cv.seriesSel.Selected
	if s.Series == noSeries {
		s.Series = ""
	}
	s = cv.seriesOutOfY(s)
	s.Window = 0
	for _, d := range chartWindows {
		if windowTitle(d) == cv.windowSel.Selected {
			s.Window = charts.Duration(d)
		}
	}
	if cv.windowSel.Selected != allWindow && s.Window == 0 {
		s.Window = cv.settings.Window // a restored window not in the list
	}
	return s
}

// seriesOutOfY takes the Series column out of Y (it splits the lines, it
// is not one); when it was the only Y column, the first other number
// takes its place.
func (cv *chartView) seriesOutOfY(s charts.Settings) charts.Settings {
	if s.Series == "" || !slices.Contains(s.Y, s.Series) {
		return s
	}
	s = s.WithoutSeriesInY()
	if len(s.Y) == 0 {
		for _, c := range cv.cols {
			if c.Name != s.Series && c.Name != s.X && charts.AxisKindOf(c.Type) == charts.NumberAxis {
				s.Y = []string{c.Name}
				break
			}
		}
	}
	return s
}

// changed applies what the user chose: a new frame follows at once, and
// the settings are kept in the workspace for the statement.
func (cv *chartView) changed() {
	if cv.setting {
		return
	}
	cv.apply(cv.current())
}

// apply makes s the chart's settings and saves them.
func (cv *chartView) apply(s charts.Settings) {
	if s.Kind == "" {
		return
	}
	cv.settings = s
	cv.show(s)
	cv.live.SetSettings(s)
	cv.rt.wb.saveChart(cv.rt, s)
}

func (cv *chartView) showY() {
	c := fyne.CurrentApp().Driver().CanvasForObject(cv.yBtn)
	if c == nil {
		return
	}
	var pop *widget.PopUp
	done := widget.NewButton("Done", func() { pop.Hide() })
	body := container.NewBorder(widget.NewLabelWithStyle("Y columns", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), done, nil, nil,
		container.NewVScroll(cv.yChecks))
	pop = widget.NewPopUp(body, c)
	pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(cv.yBtn)
	pop.ShowAtPosition(pos.Add(fyne.NewPos(0, cv.yBtn.Size().Height)))
	h := min(float32(len(cv.yChecks.Options))*36+90, 360)
	pop.Resize(fyne.NewSize(max(cv.yBtn.Size().Width, 220), h))
}

// setVisible starts (or stops) rendering: a hidden chart draws nothing.
func (cv *chartView) setVisible(v bool) {
	if v == cv.visible {
		return
	}
	cv.visible = v
	cv.resized(cv.area.Size())
}

// resized passes the area's size in pixels to the renderer.
func (cv *chartView) resized(s fyne.Size) {
	o := charts.RenderOptions{Theme: chartTheme()}
	if cv.visible && s.Width >= 20 && s.Height >= 20 {
		scale := float32(1)
		if c := fyne.CurrentApp().Driver().CanvasForObject(cv.area); c != nil && c.Scale() > 0 {
			scale = c.Scale()
		}
		o.Width, o.Height = int(s.Width*scale), int(s.Height*scale)
		o.DPI = 96 * float64(scale)
	}
	cv.live.SetOptions(o)
}

// showFrame swaps in a rendered frame (UI goroutine).
func (cv *chartView) showFrame(f charts.Frame) {
	if cv.rt.mon.closed {
		return
	}
	cv.frame = f
	cv.frames++
	if !cv.fitted && f.Model != nil && f.Model.Rows > 0 && slices.Equal(f.Model.Settings.Y, cv.settings.Y) {
		cv.fitted = true
		if s, out := charts.FitScales(cv.settings, f.Model); len(out) > 0 {
			cv.settings = s
			cv.show(s)
			cv.live.SetSettings(s) // a frame of the narrowed chart follows
			them := "it"
			if len(out) > 1 {
				them = "them"
			}
			cv.scaleNote = fmt.Sprintf(" · %s left out: on another scale than %s (Y adds %s back)", strings.Join(out, ", "), s.Y[0], them)
		}
	}
	cv.area.img.Image = f.Image
	cv.area.img.Refresh()
	var s string
	switch {
	case f.Err != nil:
		s = f.Err.Error()
	case f.Model != nil:
		m := f.Model
		s = fmt.Sprintf("%s points, %d series from %s rows", widgets.GroupDigits(m.Points()), len(m.Series), widgets.GroupDigits(m.Rows))
		if m.Skipped > 0 {
			s += fmt.Sprintf(" (%s left out: NULL or outside the window)", widgets.GroupDigits(m.Skipped))
		}
		if m.HiddenSeries > 0 {
			s += fmt.Sprintf(" · %d more series not drawn", m.HiddenSeries)
		}
	}
	s += fmt.Sprintf(" · drawn in %d ms", f.Elapsed.Milliseconds())
	if cv.settings.Auto {
		s += cv.scaleNote
	}
	cv.info.SetText(s)
}

// step renders a frame now on the calling goroutine (tests, which run
// without the render goroutine).
func (cv *chartView) step() bool { return cv.live.Step() }

func (cv *chartView) close() {
	if cv.cancel != nil {
		cv.cancel()
	}
}

// showSave asks for a file and writes the chart there as PNG or SVG.
func (cv *chartView) showSave(ext string) {
	win := cv.rt.wb.win
	d := dialog.NewFileSave(func(w fyne.URIWriteCloser, err error) {
		if err != nil || w == nil {
			return
		}
		path := w.URI().Path()
		w.Close()
		if !strings.EqualFold(filepath.Ext(path), ext) {
			path += ext
		}
		cv.save(path, nil)
	}, win)
	name := fileNameFor(cv.rt)
	name = strings.TrimSuffix(name, filepath.Ext(name)) + "-chart" + ext
	d.SetFileName(name)
	d.SetFilter(storage.NewExtensionFileFilter([]string{ext}))
	// where the last export went, else the home folder (never the
	// process's working directory)
	dir := cv.rt.wb.exportSettings().LastDir
	if dir == "" {
		dir, _ = os.UserHomeDir()
	}
	if dir != "" {
		if l, err := storage.ListerForURI(storage.NewFileURI(dir)); err == nil {
			d.SetLocation(l)
		}
	}
	d.Resize(widgets.FileDialogSize(win))
	d.Show()
}

// save renders the chart from the result's current rows at the shown
// size (at least 800×500) and writes it, off the UI goroutine; done, when
// set, receives the outcome on the UI goroutine.
func (cv *chartView) save(path string, done func(error)) {
	wb := cv.rt.wb
	s := cv.settings
	o := charts.RenderOptions{Theme: chartTheme(), Width: max(int(cv.area.Size().Width), 800), Height: max(int(cv.area.Size().Height), 500)}
	src := cv.rt.res
	go func() {
		m, err := charts.Build(src, s)
		if err == nil {
			err = charts.Save(path, m, o)
		}
		wb.do(func() {
			if err != nil {
				wb.messages.add(levelError, "Saving the chart failed: "+err.Error(), nil)
				wb.showPanel(wb.messages.item)
			} else {
				wb.messages.add(levelInfo, "Chart saved to "+path, nil)
				wb.setStatus("Chart saved to " + filepath.Base(path))
			}
			if done != nil {
				done(err)
			}
		})
	}()
}

// chartTheme is the chart palette for the workbench theme.
func chartTheme() charts.Theme {
	a := fyne.CurrentApp()
	if a == nil {
		return charts.DarkTheme()
	}
	v := a.Settings().ThemeVariant()
	th := a.Settings().Theme()
	t := charts.DarkTheme()
	if v == theme.VariantLight {
		t = charts.LightTheme()
	}
	t.Background = th.Color(theme.ColorNameBackground, v)
	t.Foreground = th.Color(theme.ColorNameForeground, v)
	if r, g, b, _ := t.Background.RGBA(); r+g+b > 3*0x8000 {
		t.Grid = color.NRGBA{0, 0, 0, 0x18}
	}
	return t
}

// chartArea shows the chart image and reports its size.
type chartArea struct {
	widget.BaseWidget
	img      *canvas.Image
	onResize func(fyne.Size)
}

func newChartArea(onResize func(fyne.Size)) *chartArea {
	a := &chartArea{img: canvas.NewImageFromImage(nil), onResize: onResize}
	a.img.FillMode = canvas.ImageFillContain
	a.img.ScaleMode = canvas.ImageScaleSmooth
	a.ExtendBaseWidget(a)
	return a
}

func (a *chartArea) Resize(s fyne.Size) {
	old := a.Size()
	a.BaseWidget.Resize(s)
	if s != old && a.onResize != nil {
		a.onResize(s)
	}
}

func (a *chartArea) MinSize() fyne.Size { return fyne.NewSize(160, 100) }

func (a *chartArea) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(a.img) }

// ---- chart settings in the workspace ----------------------------------------

// chartDoc is what the workspace keeps per editor tab (persistence's
// chart settings blob): the chart settings of each statement the tab ran
// (by its text with whitespace collapsed), the newest last.
type chartDoc struct {
	V       int              `json:"v"`
	Results []chartDocResult `json:"results"`
}

type chartDocResult struct {
	Statement string          `json:"statement"`
	Settings  json.RawMessage `json:"settings"`
}

// maxChartDocResults bounds the statements remembered per editor tab.
const maxChartDocResults = 32

func chartKey(stmt string) string { return strings.Join(strings.Fields(stmt), " ") }

func parseChartDoc(b []byte) *chartDoc {
	d := &chartDoc{V: 1}
	if len(b) > 0 {
		_ = json.Unmarshal(b, d)
	}
	return d
}

func (d *chartDoc) get(stmt string) (charts.Settings, bool) {
	k := chartKey(stmt)
	for i := len(d.Results) - 1; i >= 0; i-- {
		if d.Results[i].Statement == k {
			s, err := charts.ParseSettings(d.Results[i].Settings)
			return s, err == nil && s.Kind != ""
		}
	}
	return charts.Settings{}, false
}

func (d *chartDoc) put(stmt string, s charts.Settings) error {
	b, err := s.Marshal()
	if err != nil {
		return err
	}
	k := chartKey(stmt)
	d.Results = slices.DeleteFunc(d.Results, func(r chartDocResult) bool { return r.Statement == k })
	d.Results = append(d.Results, chartDocResult{Statement: k, Settings: b})
	if n := len(d.Results); n > maxChartDocResults {
		d.Results = d.Results[n-maxChartDocResults:]
	}
	return nil
}

// savedChart returns the chart settings kept for rt's statement in its
// editor tab.
func (wb *Workbench) savedChart(rt *resultTab) (charts.Settings, bool) {
	if rt.editorTab < 0 {
		return charts.Settings{}, false
	}
	d := wb.mon.charts[rt.editorTab]
	if d == nil {
		return charts.Settings{}, false
	}
	return d.get(rt.stmt)
}

// saveChart keeps s for rt's statement in the workspace.
func (wb *Workbench) saveChart(rt *resultTab, s charts.Settings) {
	if rt.editorTab < 0 || wb.closed {
		return
	}
	d := wb.mon.charts[rt.editorTab]
	if d == nil {
		d = &chartDoc{V: 1}
		wb.mon.charts[rt.editorTab] = d
	}
	if err := d.put(rt.stmt, s); err != nil {
		return
	}
	b, err := json.Marshal(d)
	if err != nil {
		return
	}
	if err := wb.store.SaveChart(context.Background(), rt.editorTab, b); err != nil {
		wb.messages.add(levelWarning, "Could not keep the chart settings: "+err.Error(), nil)
	}
}

// minWidthLayout gives its one object at least a width (a Select sizes
// itself for its placeholder, not its options).
type minWidthLayout struct{ width float32 }

func (l *minWidthLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
}

func (l *minWidthLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	s := fyne.NewSize(l.width, 0)
	for _, o := range objs {
		m := o.MinSize()
		s = fyne.NewSize(max(s.Width, m.Width), max(s.Height, m.Height))
	}
	return s
}
