package chartview

import (
	"context"
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
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/engine/results"
	"github.com/riffle-sql/riffle/workbench/charts"
	"github.com/riffle-sql/riffle/workbench/ui/widgets"
)

// Host is what the chart view needs of the workbench. Do runs f on the
// UI goroutine (the view's own goroutines call it); the other methods are
// called on the UI goroutine.
type Host interface {
	// Do runs f on the Fyne UI goroutine.
	Do(f func())
	// Window is the window the Save dialogs open over.
	Window() fyne.Window
	// SavedSettings returns the settings kept for the result's statement.
	SavedSettings() (charts.Settings, bool)
	// KeepSettings keeps the settings chosen for the result's statement.
	KeepSettings(s charts.Settings)
	// TabClosed reports that the result's tab was closed (frames that
	// arrive later are dropped).
	TabClosed() bool
	// FileName is the file name offered for the result (the chart adds
	// "-chart" and the extension).
	FileName() string
	// LastDir is where the last export went ("" for the home folder).
	LastDir() string
	// ChartSaved reports the outcome of a Save (err nil when written).
	ChartSaved(path string, err error)
}

// View is the Chart tab of a result: a settings bar (type, X, Y,
// series, last-N-minutes window, save) over the chart image. The image is
// rendered by a charts.Live on its own goroutine, at most four times a
// second and only while the tab is shown; finished images are swapped in
// on the UI goroutine.
type View struct {
	host     Host
	res      *results.Result
	cols     []results.Column
	settings charts.Settings
	live     *charts.Live
	cancel   context.CancelFunc

	// the settings bar and the line under the chart, exported for the
	// workbench's tests
	Kind, X, Series, Window *widget.Select
	YButton                 *widget.Button
	YChecks                 *widget.CheckGroup
	Info                    *widget.Label
	area                    *chartArea
	content                 fyne.CanvasObject

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
	// NoSeries is the Series choice of no series column.
	NoSeries  = "(none)"
	allWindow = "All rows"
)

// chartWindows are the event-time windows offered.
var chartWindows = []time.Duration{time.Minute, 5 * time.Minute, 15 * time.Minute, time.Hour}

// WindowTitle is the Window choice of the last d of event time ("Last 5
// min"; "All rows" for d <= 0).
func WindowTitle(d time.Duration) string {
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

// New builds the chart tab of res, with the settings the host kept for
// its statement or, failing that, charts.Detect's. render starts the
// rendering goroutine (tests render with Step instead).
func New(res *results.Result, host Host, render bool) *View {
	cv := &View{host: host, res: res, cols: res.Columns()}
	s, ok := host.SavedSettings()
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
	cv.Kind = widget.NewSelect(kinds, func(string) { cv.changed() })
	cv.X = widget.NewSelect(names, func(string) { cv.changed() })
	cv.Series = widget.NewSelect(append([]string{NoSeries}, names...), func(string) { cv.changed() })
	wins := []string{allWindow}
	for _, d := range chartWindows {
		wins = append(wins, WindowTitle(d))
	}
	cv.Window = widget.NewSelect(wins, func(string) { cv.changed() })
	cv.YChecks = widget.NewCheckGroup(numeric, func([]string) { cv.changed() })
	cv.YButton = widget.NewButtonWithIcon("Y", theme.MenuDropDownIcon(), cv.showY)
	cv.YButton.IconPlacement = widget.ButtonIconTrailingText
	cv.Info = widget.NewLabel("")
	cv.Info.Importance = widget.LowImportance
	cv.Info.Truncation = fyne.TextTruncateEllipsis
	savePNG := widget.NewButtonWithIcon("PNG…", theme.DocumentSaveIcon(), func() { cv.showSave(".png") })
	saveSVG := widget.NewButtonWithIcon("SVG…", theme.DocumentSaveIcon(), func() { cv.showSave(".svg") })
	savePNG.Importance, saveSVG.Importance = widget.LowImportance, widget.LowImportance
	cv.show(s)

	lbl := func(s string) *widget.Label { return widget.NewLabel(s) }
	w := func(width float32, o fyne.CanvasObject) fyne.CanvasObject {
		return container.New(&minWidthLayout{width}, o)
	}
	bar := container.NewHBox(w(120, cv.Kind), lbl("X"), w(150, cv.X), cv.YButton, lbl("Series"), w(130, cv.Series),
		w(124, cv.Window))
	save := container.NewHBox(widget.NewSeparator(), savePNG, saveSVG)
	cv.area = newChartArea(cv.resized)
	cv.content = container.NewBorder(container.NewBorder(nil, nil, nil, save, container.NewHScroll(bar)), cv.Info, nil, nil, cv.area)

	cv.live = charts.NewLive(res, s, charts.RenderOptions{Theme: chartTheme()}, func(f charts.Frame) {
		host.Do(func() { cv.showFrame(f) })
	})
	ctx, cancel := context.WithCancel(context.Background())
	cv.cancel = cancel
	if render {
		go cv.live.Run(ctx)
	}
	return cv
}

// show sets the selects to s without reacting to the changes.
func (cv *View) show(s charts.Settings) {
	cv.setting = true
	defer func() { cv.setting = false }()
	cv.Kind.SetSelected(s.Kind.Title())
	cv.X.SetSelected(s.X)
	cv.YChecks.SetSelected(slices.Clone(s.Y))
	if s.Series == "" {
		cv.Series.SetSelected(NoSeries)
	} else {
		cv.Series.SetSelected(s.Series)
	}
	w := time.Duration(s.Window)
	if t := WindowTitle(w); !slices.Contains(cv.Window.Options, t) {
		cv.Window.Options = append(cv.Window.Options, t)
	}
	cv.Window.SetSelected(WindowTitle(w))
	cv.setYLabel(s)
}

func (cv *View) setYLabel(s charts.Settings) {
	t := "Y: " + strings.Join(s.Y, ", ")
	if len(s.Y) == 0 {
		t = "Y: choose…"
	}
	if r := []rune(t); len(r) > 32 {
		t = string(r[:31]) + "…"
	}
	cv.YButton.SetText(t)
	if s.Kind == charts.Histogram {
		cv.YButton.Disable()
	} else {
		cv.YButton.Enable()
	}
}

// current reads the settings from the selects.
func (cv *View) current() charts.Settings {
	s := cv.settings
	s.Auto = false
	for _, k := range charts.Kinds {
		if k.Title() == cv.Kind.Selected {
			s.Kind = k
		}
	}
	s.X = cv.X.Selected
	// keep the result's column order
	s.Y = nil
	for _, c := range cv.cols {
		if slices.Contains(cv.YChecks.Selected, c.Name) {
			s.Y = append(s.Y, c.Name)
		}
	}
	s.Series = cv.Series.Selected
	if s.Series == NoSeries {
		s.Series = ""
	}
	s = cv.seriesOutOfY(s)
	s.Window = 0
	for _, d := range chartWindows {
		if WindowTitle(d) == cv.Window.Selected {
			s.Window = charts.Duration(d)
		}
	}
	if cv.Window.Selected != allWindow && s.Window == 0 {
		s.Window = cv.settings.Window // a restored window not in the list
	}
	return s
}

// seriesOutOfY takes the Series column out of Y (it splits the lines, it
// is not one); when it was the only Y column, the first other number
// takes its place.
func (cv *View) seriesOutOfY(s charts.Settings) charts.Settings {
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
func (cv *View) changed() {
	if cv.setting {
		return
	}
	cv.apply(cv.current())
}

// apply makes s the chart's settings and saves them.
func (cv *View) apply(s charts.Settings) {
	if s.Kind == "" {
		return
	}
	cv.settings = s
	cv.show(s)
	cv.live.SetSettings(s)
	cv.host.KeepSettings(s)
}

func (cv *View) showY() {
	c := fyne.CurrentApp().Driver().CanvasForObject(cv.YButton)
	if c == nil {
		return
	}
	var pop *widget.PopUp
	done := widget.NewButton("Done", func() { pop.Hide() })
	body := container.NewBorder(widget.NewLabelWithStyle("Y columns", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), done, nil, nil,
		container.NewVScroll(cv.YChecks))
	pop = widget.NewPopUp(body, c)
	pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(cv.YButton)
	pop.ShowAtPosition(pos.Add(fyne.NewPos(0, cv.YButton.Size().Height)))
	h := min(float32(len(cv.YChecks.Options))*36+90, 360)
	pop.Resize(fyne.NewSize(max(cv.YButton.Size().Width, 220), h))
}

// SetVisible starts (or stops) rendering: a hidden chart draws nothing.
func (cv *View) SetVisible(v bool) {
	if v == cv.visible {
		return
	}
	cv.visible = v
	cv.resized(cv.area.Size())
}

// resized passes the area's size in pixels to the renderer.
func (cv *View) resized(s fyne.Size) {
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
func (cv *View) showFrame(f charts.Frame) {
	if cv.host.TabClosed() {
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
	cv.Info.SetText(s)
}

// Step renders a frame now on the calling goroutine (tests, which run
// without the render goroutine).
func (cv *View) Step() bool { return cv.live.Step() }

// Close stops the rendering goroutine.
func (cv *View) Close() {
	if cv.cancel != nil {
		cv.cancel()
	}
}

// showSave asks for a file (a path to type or paste, or Browse…) and
// writes the chart there as PNG or SVG.
func (cv *View) showSave(ext string) {
	name := cv.host.FileName()
	name = strings.TrimSuffix(name, filepath.Ext(name)) + "-chart" + ext
	// where the last export went, else the home folder (never the
	// process's working directory)
	dir := cv.host.LastDir()
	if dir == "" {
		dir, _ = os.UserHomeDir()
	}
	widgets.ShowPathDialog(cv.host.Window(), widgets.PathSpec{
		Title:      "Save chart as " + strings.ToUpper(strings.TrimPrefix(ext, ".")),
		Save:       true,
		Path:       filepath.Join(dir, name),
		Dir:        dir,
		Extensions: []string{ext},
		OnPath: func(path string) {
			if !strings.EqualFold(filepath.Ext(path), ext) {
				path += ext
			}
			cv.Save(path, nil)
		},
	})
}

// Save renders the chart from the result's current rows at the shown
// size (at least 800×500) and writes it, off the UI goroutine; the host's
// ChartSaved and then done, when set, receive the outcome on the UI
// goroutine.
func (cv *View) Save(path string, done func(error)) {
	host := cv.host
	s := cv.settings
	o := charts.RenderOptions{Theme: chartTheme(), Width: max(int(cv.area.Size().Width), 800), Height: max(int(cv.area.Size().Height), 500)}
	src := cv.res
	go func() {
		m, err := charts.Build(src, s)
		if err == nil {
			err = charts.Save(path, m, o)
		}
		host.Do(func() {
			host.ChartSaved(path, err)
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

// Content is the view's canvas object: the settings bar over the chart.
func (cv *View) Content() fyne.CanvasObject { return cv.content }

// Settings are the chart's settings.
func (cv *View) Settings() charts.Settings { return cv.settings }

// Visible reports whether the chart is rendered (SetVisible).
func (cv *View) Visible() bool { return cv.visible }

// Frames counts the frames shown; Frame is the last one.
func (cv *View) Frames() int { return cv.frames }

// Frame is the last frame shown.
func (cv *View) Frame() charts.Frame { return cv.frame }

// HasImage reports whether the chart area shows an image.
func (cv *View) HasImage() bool { return cv.area.img.Image != nil }
