package connectionsdialog

import (
	"context"
	"errors"
	"fmt"
	"image/color"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/workbench/persistence"
)

// Dialog is File ▸ Connections…: the connections on the left, the
// selected one's settings on the right.
type Dialog struct {
	host    Host
	win     fyne.Window
	d       dialog.Dialog
	list    *widget.List
	names   []string
	editing string // the name of the connection in the form ("" = a new one)

	name, url, token, props *widget.Entry
	rest                    *widget.Entry // the cluster REST URL (optional)
	runInit                 *widget.Check
	status                  *widget.Label
	form, embeddedInfo      fyne.CanvasObject
	embeddedSettings        *widget.Label // the embedded engine's Entry.Info
	newBtn, delBtn, saveBtn *widget.Button
	testBtn, useBtn         *widget.Button
	split                   *container.Split
	settings                *container.Scroll // the form or the embedded panel
}

// leftMinWidth is the least width of the list of connections (New and
// Delete under it need less, with the default theme).
const leftMinWidth = 200

// Show shows the dialog on win, the current tab's connection selected
// (and returns it, for tests).
func Show(win fyne.Window, host Host) *Dialog {
	cd := &Dialog{host: host, win: win}
	cd.list = widget.NewList(func() int { return len(cd.names) },
		func() fyne.CanvasObject {
			return container.NewHBox(widget.NewIcon(theme.ComputerIcon()), widget.NewLabel("connection name"))
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			box := o.(*fyne.Container)
			icon := theme.ComputerIcon()
			if i > 0 {
				icon = theme.StorageIcon()
			}
			box.Objects[0].(*widget.Icon).SetResource(icon)
			box.Objects[1].(*widget.Label).SetText(cd.names[i])
		})
	cd.list.OnSelected = func(i widget.ListItemID) {
		if i >= 0 && i < len(cd.names) {
			cd.load(cd.names[i])
		}
	}
	cd.newBtn = widget.NewButtonWithIcon("New", theme.ContentAddIcon(), cd.newConnection)
	cd.delBtn = widget.NewButtonWithIcon("Delete", theme.DeleteIcon(), cd.confirmDelete)
	// the list's column is never narrower than its buttons (nor than
	// leftMinWidth): the split gives it that much however little the
	// settings panel gets
	leftWidth := canvas.NewRectangle(color.Transparent)
	leftWidth.SetMinSize(fyne.NewSize(leftMinWidth, 0))
	left := container.NewStack(leftWidth, container.NewBorder(nil, container.NewHBox(cd.newBtn, cd.delBtn), nil, nil, cd.list))

	cd.name = widget.NewEntry()
	cd.name.SetPlaceHolder("e.g. Flink staging")
	cd.url = widget.NewEntry()
	cd.url.SetPlaceHolder("e.g. http://127.0.0.1:8083")
	cd.token = widget.NewPasswordEntry()
	cd.token.SetPlaceHolder("optional bearer token")
	cd.rest = widget.NewEntry()
	cd.rest.SetPlaceHolder("optional, e.g. http://127.0.0.1:8081")
	cd.props = widget.NewMultiLineEntry()
	// an example, worded as one: the field starts empty (the gateway's defaults)
	cd.props.SetPlaceHolder("e.g. table.local-time-zone = UTC\n(one key = value a line; none: the gateway's defaults)")
	cd.props.SetMinRowsVisible(5)
	cd.runInit = widget.NewCheck("Run the workspace's init script in each new session", nil)
	cd.status = widget.NewLabel("")
	cd.status.Wrapping = fyne.TextWrapWord
	cd.saveBtn = widget.NewButtonWithIcon("Save", theme.DocumentSaveIcon(), cd.save)
	cd.saveBtn.Importance = widget.HighImportance
	cd.testBtn = widget.NewButtonWithIcon("Test", theme.MediaPlayIcon(), cd.test)
	cd.useBtn = widget.NewButtonWithIcon("Use in this tab", theme.ConfirmIcon(), cd.useInTab)
	note := widget.NewLabel("Cluster REST URL: the REST API of the Flink cluster the gateway submits to (its JobManager's rest.port, the web UI's address); " +
		"with it, jobs are listed with their end times and cancelled there. Session properties: key = value, one a line " +
		"(the tab's Mode switch sets execution.runtime-mode before each run). " +
		"The token is stored in the workspace file, like the rest of the connection.")
	note.Importance = widget.LowImportance
	note.Wrapping = fyne.TextWrapWord
	form := widget.NewForm(
		widget.NewFormItem("Name", cd.name),
		widget.NewFormItem("Gateway URL", cd.url),
		widget.NewFormItem("Token", cd.token),
		widget.NewFormItem("Cluster REST URL", cd.rest),
		widget.NewFormItem("Session properties", cd.props),
		widget.NewFormItem("", cd.runInit),
	)
	cd.form = container.NewVBox(widget.NewLabelWithStyle("Flink SQL Gateway", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		form, note, container.NewHBox(cd.saveBtn, cd.testBtn, cd.useBtn, layout.NewSpacer()), cd.status)
	info := widget.NewLabel("Runs statements in this process, on Riffle's embedded engine. It is always there, " +
		"and the only connection whose jobs show per-operator metrics and live plans.")
	info.Wrapping = fyne.TextWrapWord
	cd.embeddedSettings = widget.NewLabel("")
	cd.embeddedSettings.Wrapping = fyne.TextWrapWord
	cd.embeddedInfo = container.NewVBox(widget.NewLabelWithStyle(host.EmbeddedName(), fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		info, cd.embeddedSettings, container.NewHBox(cd.useBtnEmbedded()))

	// The settings scroll, both ways, so that the dialog's minimum size is
	// the same whichever panel is shown and however long the status is:
	// Fyne's dialog lays its content out from where its Close button was
	// before, so a dialog that shrank or grew after it was shown (the
	// gateway form's height counted at Show, the embedded panel's after)
	// kept its old content height, and New and Delete hung below its box.
	// Scrolling sideways too keeps the panel's minimum width out of the
	// split: a vertical-only scroll is as wide as its content at least,
	// so the split moved its divider to fit whichever panel was shown (a
	// different place per connection), and a window narrower than the
	// list plus the form cut the form off on the right (nothing scrolled
	// to it) and squeezed the list under its New and Delete buttons. Now
	// the divider sits at Offset or at the list's minimum width, whatever
	// is shown, and a narrow panel scrolls sideways. The dialog's size
	// fits the whole gateway form; a smaller window scrolls it.
	cd.settings = container.NewScroll(container.NewStack(cd.form, cd.embeddedInfo))
	cd.split = container.NewHSplit(left, cd.settings)
	cd.split.Offset = 0.3
	cd.d = dialog.NewCustom("Connections", "Close", cd.split, win)
	cd.d.Resize(fyne.NewSize(860, 680))
	cd.reloadNames()
	current := host.CurrentName()
	cd.d.Show()
	cd.selectName(current)
	return cd
}

func (cd *Dialog) useBtnEmbedded() *widget.Button {
	b := widget.NewButtonWithIcon("Use in this tab", theme.ConfirmIcon(), func() {
		cd.host.UseInTab(cd.host.EmbeddedName())
		cd.d.Hide()
	})
	return b
}

func (cd *Dialog) reloadNames() {
	cd.names = cd.host.Names()
	cd.list.Refresh()
}

func (cd *Dialog) selectName(name string) {
	for i, n := range cd.names {
		if n == name {
			cd.list.Select(i)
			return
		}
	}
	cd.list.Select(0)
}

// load shows a connection's settings.
func (cd *Dialog) load(name string) {
	c, ok := cd.host.Connection(name)
	if !ok {
		return
	}
	cd.status.SetText("")
	if c.Embedded {
		cd.editing = ""
		cd.embeddedSettings.SetText(c.Info)
		cd.form.Hide()
		cd.embeddedInfo.Show()
		cd.delBtn.Disable()
		cd.scrollToTop()
		return
	}
	cfg, runInit := c.Config, c.RunInit
	cd.editing = cfg.Name
	cd.name.SetText(cfg.Name)
	cd.url.SetText(cfg.URL)
	cd.token.SetText(cfg.Token)
	cd.rest.SetText(cfg.ClusterREST)
	cd.props.SetText(formatProperties(cfg.Properties))
	cd.runInit.SetChecked(runInit)
	switch {
	case c.Ready:
		cd.status.SetText("Connected to " + c.Info + ".")
	case c.Err != nil:
		cd.status.SetText("Not connected: " + c.Err.Error())
	}
	cd.embeddedInfo.Hide()
	cd.form.Show()
	cd.delBtn.Enable()
	cd.useBtn.Enable()
	cd.scrollToTop()
}

// scrollToTop shows the top of the settings panel, whose content has
// changed (another connection, a new one).
func (cd *Dialog) scrollToTop() {
	cd.settings.ScrollToTop()
	cd.settings.Refresh()
}

// clampScroll keeps the settings panel's scroll offset within its
// content after the content's height changed in place (the status line):
// the scroll container lays its content out at the old offset, so a
// panel scrolled down to a long error, which then shrank, showed blank
// space below its end and hid the form's top, with no scroll bar to get
// it back.
func (cd *Dialog) clampScroll() {
	cd.settings.Refresh()
}

// newConnection empties the form for a new connection.
func (cd *Dialog) newConnection() {
	cd.list.UnselectAll()
	cd.editing = ""
	n := 1
	name := "Gateway"
	for cd.exists(name) {
		n++
		name = fmt.Sprintf("Gateway %d", n)
	}
	cd.name.SetText(name)
	cd.url.SetText("")
	cd.token.SetText("")
	cd.rest.SetText("")
	cd.props.SetText("")
	cd.runInit.SetChecked(false)
	cd.status.SetText("")
	cd.embeddedInfo.Hide()
	cd.form.Show()
	cd.delBtn.Disable()
	cd.scrollToTop()
	cd.win.Canvas().Focus(cd.url)
}

// read checks the form.
func (cd *Dialog) read() (persistence.Connection, error) {
	name := strings.TrimSpace(cd.name.Text)
	switch {
	case name == "":
		return persistence.Connection{}, errors.New("the connection needs a name")
	case strings.EqualFold(name, cd.host.EmbeddedName()):
		return persistence.Connection{}, fmt.Errorf("%q is the embedded connection's name", name)
	case name != cd.editing && cd.exists(name):
		return persistence.Connection{}, fmt.Errorf("a connection named %q exists", name)
	}
	u, err := normalizeURL(cd.url.Text)
	if err != nil {
		return persistence.Connection{}, err
	}
	rest, err := normalizeRESTURL(cd.rest.Text)
	if err != nil {
		return persistence.Connection{}, err
	}
	props, err := parseProperties(cd.props.Text)
	if err != nil {
		return persistence.Connection{}, err
	}
	return persistence.Connection{Name: name, Kind: persistence.KindGateway, URL: u, Token: strings.TrimSpace(cd.token.Text),
		Properties: props, ClusterREST: rest}, nil
}

func (cd *Dialog) fail(err error) {
	cd.status.Importance = widget.DangerImportance
	cd.status.SetText(err.Error())
	cd.clampScroll()
}

func (cd *Dialog) say(s string) {
	cd.status.Importance = widget.MediumImportance
	cd.status.SetText(s)
	cd.clampScroll()
}

// save stores the form's connection.
func (cd *Dialog) save() {
	cfg, err := cd.read()
	if err != nil {
		cd.fail(err)
		return
	}
	if err := cd.host.Save(cd.editing, cfg, cd.runInit.Checked); err != nil {
		cd.fail(err)
		return
	}
	cd.editing = cfg.Name
	cd.url.SetText(cfg.URL)
	cd.rest.SetText(cfg.ClusterREST)
	cd.reloadNames()
	cd.selectName(cfg.Name)
	cd.say("Saved.")
}

// test opens and closes a session with the form's settings, off the UI
// goroutine.
func (cd *Dialog) test() {
	cfg, err := cd.read()
	if err != nil {
		cd.fail(err)
		return
	}
	cd.say("Connecting to " + cfg.URL + "…")
	host := cd.host
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), host.ConnectTimeout())
		defer cancel()
		msg := ""
		eng, err := host.OpenTestSession(ctx, cfg)
		if err == nil {
			msg = "Connected: a session opened"
			if i, ierr := eng.Client().Info(ctx); ierr == nil {
				msg = fmt.Sprintf("Connected to %s %s (REST API %s): a session opened and closed.", i.ProductName, i.Version, eng.Client().Version())
			}
			eng.Close()
			if cfg.ClusterREST != "" {
				if v, rerr := probeClusterREST(ctx, cfg.ClusterREST); rerr != nil {
					err = fmt.Errorf("%s But the cluster REST URL: %w", msg, rerr)
				} else {
					msg += " Cluster REST API: Flink " + v + "."
				}
			}
		}
		host.Do(func() {
			if err != nil {
				cd.fail(err)
			} else {
				cd.say(msg)
			}
		})
	}()
}

// useInTab saves the form and makes the current tab use the connection.
func (cd *Dialog) useInTab() {
	cd.save()
	if cd.editing != "" && cd.exists(cd.editing) {
		cd.host.UseInTab(cd.editing)
		cd.d.Hide()
	}
}

// confirmDelete asks, then deletes the selected connection.
func (cd *Dialog) confirmDelete() {
	c, ok := cd.host.Connection(cd.editing)
	if !ok || c.Embedded {
		return
	}
	name := c.Config.Name
	tabs := cd.host.TabsUsing(name)
	msg := fmt.Sprintf("Delete the connection %q?", name)
	if tabs > 0 {
		msg += fmt.Sprintf("\n%d editor tab(s) using it move to %s.", tabs, cd.host.EmbeddedName())
	}
	msg += "\nIts session is closed: its running queries and jobs stop."
	dialog.ShowConfirm("Delete connection", msg, func(ok bool) {
		if ok {
			cd.delete(name)
		}
	}, cd.win)
}

func (cd *Dialog) delete(name string) {
	if err := cd.host.Delete(name); err != nil {
		cd.fail(err)
		return
	}
	cd.reloadNames()
	cd.selectName(cd.host.EmbeddedName())
}

// exists says whether a connection is named name.
func (cd *Dialog) exists(name string) bool {
	_, ok := cd.host.Connection(name)
	return ok
}
