package kafkaconnections

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/workbench/kafkabrowser"
	"github.com/riffle-sql/riffle/workbench/ui/widgets"
)

// testTimeout bounds "Test connection".
const testTimeout = 10 * time.Second

// Dialog is the Kafka connections dialog: the list at the left, the
// selected connection's form at the right.
type Dialog struct {
	host  Host
	win   fyne.Window
	names []string // the connections listed
	d     dialog.Dialog
	sel   string // the connection shown ("" = a new one)

	list      *widget.List
	form      *widget.Form
	name      *widget.Entry
	bootstrap *widget.Entry
	security  *widget.Select
	mechanism *widget.Select
	user      *widget.Entry
	password  *widget.Entry
	savePass  *widget.Check
	caFile    *widget.Entry
	caBrowse  *widget.Button
	status    *widget.Label
	settings  *container.Scroll // the form and the status line
	saveBtn   *widget.Button
	testBtn   *widget.Button
	deleteBtn *widget.Button
	testing   int // bumped per test: a late answer of an old one is dropped
}

// Show opens the dialog on win, on a connection ("" = a new one).
func Show(win fyne.Window, host Host, name string) *Dialog {
	cd := &Dialog{host: host, win: win, names: host.Names()}
	cd.list = widget.NewList(func() int { return len(cd.names) + 1 },
		func() fyne.CanvasObject { return widget.NewLabel("") },
		func(i widget.ListItemID, o fyne.CanvasObject) {
			if i == len(cd.names) {
				o.(*widget.Label).SetText("+ New Kafka connection")
				return
			}
			o.(*widget.Label).SetText(cd.names[i])
		})
	cd.list.OnSelected = func(i widget.ListItemID) {
		if i == len(cd.names) {
			cd.show("")
		} else if i < len(cd.names) {
			cd.show(cd.names[i])
		}
	}
	cd.name = widget.NewEntry()
	cd.name.SetPlaceHolder("e.g. local")
	cd.bootstrap = widget.NewEntry()
	cd.bootstrap.SetPlaceHolder("e.g. 127.0.0.1:9092 (host:port, comma-separated)")
	cd.mechanism = widget.NewSelect(kafkabrowser.Mechanisms, nil)
	cd.user = widget.NewEntry()
	cd.password = widget.NewPasswordEntry()
	cd.savePass = widget.NewCheck("Save password in the workspace (else asked again after a restart)", nil)
	cd.caFile = widget.NewEntry()
	cd.caFile.SetPlaceHolder("PEM file of trusted CAs (empty: the system's)")
	cd.caBrowse = widget.NewButton("Browse…", func() {
		fd := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
			if err == nil && r != nil {
				cd.caFile.SetText(r.URI().Path())
				r.Close()
			}
		}, win)
		fd.Resize(widgets.FileDialogSize(win))
		fd.Show()
	})
	cd.security = widget.NewSelect(kafkabrowser.Protocols, func(string) { cd.enableFields() })
	cd.status = widget.NewLabel("")
	cd.status.Wrapping = fyne.TextWrapWord
	cd.saveBtn = widget.NewButtonWithIcon("Save", theme.DocumentSaveIcon(), cd.save)
	cd.saveBtn.Importance = widget.HighImportance
	cd.testBtn = widget.NewButton("Test connection", cd.test)
	cd.deleteBtn = widget.NewButtonWithIcon("Delete", theme.DeleteIcon(), cd.remove)
	cd.form = widget.NewForm(
		widget.NewFormItem("Name", cd.name),
		widget.NewFormItem("Bootstrap servers", cd.bootstrap),
		widget.NewFormItem("Security", cd.security),
		widget.NewFormItem("SASL mechanism", cd.mechanism),
		widget.NewFormItem("User", cd.user),
		widget.NewFormItem("Password", cd.password),
		widget.NewFormItem("", cd.savePass),
		widget.NewFormItem("CA file (TLS)", container.NewBorder(nil, nil, nil, cd.caBrowse, cd.caFile)),
	)
	buttons := container.NewBorder(nil, nil, cd.deleteBtn, container.NewHBox(cd.testBtn, cd.saveBtn))
	// The status line scrolls with the form, so that the dialog's minimum
	// size never changes after Show: Fyne's dialog lays its content out
	// from where its Close button was before, so when a long error grew
	// the dialog past its size and a shorter status shrank it again, the
	// content kept the long error's height, and Delete, Test connection
	// and Save hung below the box, over Close. say scrolls the status
	// into view.
	cd.settings = container.NewVScroll(container.NewVBox(cd.form, cd.status))
	right := container.NewBorder(nil, buttons, nil, nil, cd.settings)
	split := container.NewHSplit(cd.list, right)
	split.Offset = 0.28
	cd.d = dialog.NewCustom("Kafka connections", "Close", split, win)
	cd.d.SetOnClosed(func() { host.Closed(cd) })
	cd.d.Resize(fyne.NewSize(min(900, win.Canvas().Size().Width-40), min(640, win.Canvas().Size().Height-40)))
	cd.show(name)
	cd.d.Show()
	return cd
}

// show fills the form with a connection ("" = an empty one).
func (cd *Dialog) show(name string) {
	cd.sel = name
	cfg := kafkabrowser.Config{Security: kafkabrowser.Plaintext, Mechanism: kafkabrowser.MechPlain}
	if c, ok := cd.host.Config(name); ok {
		cfg = c
		if cfg.Security == "" {
			cfg.Security = kafkabrowser.Plaintext
		}
		if cfg.Mechanism == "" {
			cfg.Mechanism = kafkabrowser.MechPlain
		}
	} else {
		cd.sel = ""
	}
	cd.name.SetText(cfg.Name)
	cd.bootstrap.SetText(cfg.Bootstrap)
	cd.security.SetSelected(cfg.Security)
	cd.mechanism.SetSelected(cfg.Mechanism)
	cd.user.SetText(cfg.Username)
	cd.password.SetText(cfg.Password)
	cd.savePass.SetChecked(cfg.SavePassword)
	cd.caFile.SetText(cfg.CAFile)
	cd.status.Importance = widget.MediumImportance
	cd.status.SetText("")
	if cd.settings != nil {
		cd.settings.ScrollToTop()
		cd.settings.Refresh() // clamps the offset to the content
	}
	if cd.sel == "" {
		cd.deleteBtn.Disable()
	} else {
		cd.deleteBtn.Enable()
	}
	cd.enableFields()
}

func (cd *Dialog) enableFields() {
	s := cd.security.Selected
	sasl := s == kafkabrowser.SASLPlaintext || s == kafkabrowser.SASLSSL
	tls := s == kafkabrowser.SSL || s == kafkabrowser.SASLSSL
	for _, w := range []fyne.Disableable{cd.mechanism, cd.user, cd.password, cd.savePass} {
		if sasl {
			w.Enable()
		} else {
			w.Disable()
		}
	}
	for _, w := range []fyne.Disableable{cd.caFile, cd.caBrowse} {
		if tls {
			w.Enable()
		} else {
			w.Disable()
		}
	}
	if cd.form != nil {
		cd.form.Refresh() // the labels of disabled fields are dimmed
	}
}

// config reads the form.
func (cd *Dialog) config() kafkabrowser.Config {
	cfg := kafkabrowser.Config{Name: strings.TrimSpace(cd.name.Text), Bootstrap: strings.TrimSpace(cd.bootstrap.Text),
		Security: cd.security.Selected}
	if cfg.Security == kafkabrowser.SASLPlaintext || cfg.Security == kafkabrowser.SASLSSL {
		cfg.Mechanism, cfg.Username, cfg.Password, cfg.SavePassword = cd.mechanism.Selected, strings.TrimSpace(cd.user.Text), cd.password.Text, cd.savePass.Checked
	}
	if cfg.Security == kafkabrowser.SSL || cfg.Security == kafkabrowser.SASLSSL {
		cfg.CAFile = strings.TrimSpace(cd.caFile.Text)
	}
	return cfg
}

func (cd *Dialog) say(text string, imp widget.Importance) {
	cd.status.Importance = imp
	cd.status.SetText(text)
	cd.revealStatus()
}

// revealStatus scrolls the settings so that the status line, just
// changed, is in view (its top, if it is taller than the pane). The
// refresh first lays the content out at its new height and clamps the
// offset to it: a scroll keeps its offset when its content shrinks in
// place, which left blank space below a short status that replaced a
// long error.
func (cd *Dialog) revealStatus() {
	s := cd.settings
	s.Refresh()
	top, h, view := cd.status.Position().Y, cd.status.Size().Height, s.Size().Height
	y := s.Offset.Y
	if top+h > y+view {
		y = top + h - view
	}
	if top < y {
		y = top
	}
	s.ScrollToOffset(fyne.NewPos(0, fyne.Max(y, 0)))
}

func (cd *Dialog) save() {
	cfg := cd.config()
	if err := cd.host.Save(cd.sel, cfg); err != nil {
		cd.say(err.Error(), widget.DangerImportance)
		return
	}
	cd.sel = cfg.Name
	cd.reloadNames()
	cd.deleteBtn.Enable()
	msg := "Saved " + cfg.Name + "."
	if cfg.Password != "" && !cfg.SavePassword {
		msg += " The password is kept until the workbench closes (not saved)."
	}
	cd.say(msg, widget.SuccessImportance)
}

func (cd *Dialog) remove() {
	name := cd.sel
	if name == "" {
		return
	}
	dialog.ShowConfirm("Delete Kafka connection", "Delete the connection "+name+"? (Tables created from its topics stay.)", func(ok bool) {
		if !ok {
			return
		}
		if err := cd.host.Remove(name); err != nil {
			cd.say(err.Error(), widget.DangerImportance)
			return
		}
		cd.reloadNames()
		cd.show("")
	}, cd.win)
}

// reloadNames lists the connections as they are now.
func (cd *Dialog) reloadNames() {
	cd.names = cd.host.Names()
	cd.list.Refresh()
}

// test contacts the cluster with the form's settings, bounded by
// testTimeout.
func (cd *Dialog) test() {
	cfg := cd.config()
	if cfg.Name == "" {
		cfg.Name = "test"
	}
	if err := cfg.Validate(); err != nil {
		cd.say(err.Error(), widget.DangerImportance)
		return
	}
	cd.testing++
	n := cd.testing
	cd.say("Connecting to "+cfg.Bootstrap+"…", widget.MediumImportance)
	cd.testBtn.Disable()
	host := cd.host
	go func() {
		started := time.Now()
		info, err := kafkabrowser.Test(context.Background(), cfg, testTimeout)
		took := time.Since(started)
		host.Do(func() {
			if n != cd.testing {
				return
			}
			cd.testBtn.Enable()
			if err != nil {
				var msg = err.Error()
				if errors.Is(err, context.DeadlineExceeded) {
					msg = fmt.Sprintf("No answer from %s within %s.", cfg.Bootstrap, testTimeout)
				}
				// "connecting: " says nothing more than "Failed" here
				cd.say("Failed: "+strings.TrimPrefix(msg, "connecting: "), widget.DangerImportance)
				return
			}
			cd.say(fmt.Sprintf("Connected to %s: %s (%s).", cfg.Bootstrap, info, widgets.FormatDuration(took)), widget.SuccessImportance)
		})
	}()
}
