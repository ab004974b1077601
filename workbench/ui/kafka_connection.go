package ui

// Kafka connections: the Kafka clusters the workbench browses (the
// "Kafka" tree under the catalog tree, topic_browser.go), kept in the
// workspace (persistence.KafkaConnection). They are apart from the
// SQL connections of connections.go: a cluster is something to look
// into and to create tables from, not somewhere statements run.
//
// The password of a SASL connection is kept for the session, and written
// to the workspace only when "Save password" is ticked; generated SQL
// shows it masked (kafkabrowser.PasswordMask) and runs with it.

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/workbench/kafkabrowser"
	"github.com/riffle-sql/riffle/workbench/persistence"
	"github.com/riffle-sql/riffle/workbench/ui/widgets"
)

// kafkaTestTimeout bounds "Test connection".
const kafkaTestTimeout = 10 * time.Second

// kafkaConn is one Kafka connection and what the tree read from it.
type kafkaConn struct {
	mu     sync.Mutex
	cfg    kafkabrowser.Config
	client *kafkabrowser.Client

	// UI goroutine fields.
	topics  []kafkabrowser.Topic
	loaded  bool // topics were read (or failed: err)
	loading bool
	err     string
	// lags per topic, read when the topic is opened
	lags        map[string][]kafkabrowser.GroupLag
	lagsLoading map[string]bool
	gen         int // bumped on refresh and edits
}

// config returns the connection's settings (any goroutine).
func (c *kafkaConn) config() kafkabrowser.Config {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cfg
}

// cli returns the connection's client, made on first use (any goroutine).
func (c *kafkaConn) cli() (*kafkabrowser.Client, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.client != nil {
		return c.client, nil
	}
	if c.cfg.Security == kafkabrowser.SASLPlaintext || c.cfg.Security == kafkabrowser.SASLSSL {
		if c.cfg.Password == "" {
			return nil, kafkabrowser.ErrNoPassword
		}
	}
	cl, err := kafkabrowser.Dial(c.cfg)
	if err != nil {
		return nil, err
	}
	c.client = cl
	return cl, nil
}

// setConfig replaces the settings and drops the client.
func (c *kafkaConn) setConfig(cfg kafkabrowser.Config) {
	c.mu.Lock()
	old := c.client
	c.cfg, c.client = cfg, nil
	c.mu.Unlock()
	if old != nil {
		go old.Close()
	}
}

func (c *kafkaConn) close() {
	c.mu.Lock()
	old := c.client
	c.client = nil
	c.mu.Unlock()
	if old != nil {
		old.Close()
	}
}

// kafkaUI is the workbench's Kafka side: connections, the topic tree,
// peek tabs.
type kafkaUI struct {
	wb    *Workbench
	conns []*kafkaConn // by name

	tree          *widget.Tree
	internalCheck *widget.Check
	showInternal  bool
	pane          fyne.CanvasObject
	split         *container.Split // the catalog above, the Kafka tree below
	peeks         []*topicPeek
	dlg           *kafkaConnDialog // the open dialog (tests)
}

func toConfig(p persistence.KafkaConnection) kafkabrowser.Config {
	return kafkabrowser.Config{Name: p.Name, Bootstrap: p.Bootstrap, Security: p.Security, Mechanism: p.Mechanism,
		Username: p.Username, Password: p.Password, SavePassword: p.SavePassword, CAFile: p.CAFile}
}

func fromConfig(c kafkabrowser.Config) persistence.KafkaConnection {
	return persistence.KafkaConnection{Name: c.Name, Bootstrap: c.Bootstrap, Security: c.Security, Mechanism: c.Mechanism,
		Username: c.Username, Password: c.Password, SavePassword: c.SavePassword, CAFile: c.CAFile}
}

// newKafkaUI loads the workspace's Kafka connections.
func newKafkaUI(wb *Workbench) *kafkaUI {
	k := &kafkaUI{wb: wb}
	list, problems, err := wb.store.KafkaConnections(context.Background())
	if err != nil {
		wb.startProblems = append(wb.startProblems, "Reading the Kafka connections: "+err.Error())
	}
	for _, p := range problems {
		wb.startProblems = append(wb.startProblems, p.Error())
	}
	for _, p := range list {
		k.conns = append(k.conns, &kafkaConn{cfg: toConfig(p)})
	}
	return k
}

func (k *kafkaUI) byName(name string) *kafkaConn {
	for _, c := range k.conns {
		if c.config().Name == name {
			return c
		}
	}
	return nil
}

func (k *kafkaUI) sort() {
	sort.Slice(k.conns, func(i, j int) bool {
		return strings.ToLower(k.conns[i].config().Name) < strings.ToLower(k.conns[j].config().Name)
	})
}

// save stores a connection: a new one (old == "") or the one named old,
// perhaps renamed.
func (k *kafkaUI) save(old string, cfg kafkabrowser.Config) (*kafkaConn, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if other := k.byName(cfg.Name); other != nil && cfg.Name != old {
		return nil, fmt.Errorf("a Kafka connection named %q exists already", cfg.Name)
	}
	ctx := context.Background()
	if err := k.wb.store.SaveKafkaConnection(ctx, fromConfig(cfg)); err != nil {
		return nil, err
	}
	if cfg.SavePassword && cfg.Password != "" && !k.wb.store.ReadOnly() {
		if err := protectWorkspace(k.wb.store.Path()); err != nil {
			k.wb.messages.add(levelWarning, "The workspace holds a Kafka password but could not be made private: "+err.Error(), nil)
		}
	}
	c := k.byName(old)
	if old == "" || c == nil {
		c = &kafkaConn{cfg: cfg}
		k.conns = append(k.conns, c)
		if len(k.conns) == 1 && k.split != nil && k.split.Offset > 0.7 {
			k.split.SetOffset(0.62) // the first cluster: room for its topics
		}
	} else {
		if old != cfg.Name {
			if err := k.wb.store.DeleteKafkaConnection(ctx, old); err != nil {
				return nil, err
			}
		}
		c.setConfig(cfg)
	}
	c.loaded, c.loading, c.topics, c.err, c.lags = false, false, nil, "", nil
	c.gen++
	k.sort()
	k.refreshTree()
	return c, nil
}

// remove deletes a connection.
func (k *kafkaUI) remove(name string) error {
	if err := k.wb.store.DeleteKafkaConnection(context.Background(), name); err != nil {
		return err
	}
	for i, c := range k.conns {
		if c.config().Name == name {
			k.conns = append(k.conns[:i], k.conns[i+1:]...)
			go c.close()
			break
		}
	}
	k.refreshTree()
	return nil
}

// closeAll closes the clients (Workbench.Close).
func (k *kafkaUI) closeAll() {
	for _, c := range k.conns {
		c.close()
	}
}

// ---- File ▸ Kafka connections… ---------------------------------------------------

// kafkaConnDialog is the Kafka connections dialog: the list at the left,
// the selected connection's form at the right.
type kafkaConnDialog struct {
	k   *kafkaUI
	d   dialog.Dialog
	sel string // the connection shown ("" = a new one)

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
	saveBtn   *widget.Button
	testBtn   *widget.Button
	deleteBtn *widget.Button
	testing   int // bumped per test: a late answer of an old one is dropped
}

// showKafkaConnectionsDialog is File ▸ Kafka connections….
func (wb *Workbench) showKafkaConnectionsDialog() { wb.openKafkaConnectionsDialog("") }

// openKafkaConnectionsDialog opens the dialog on a connection ("" = new).
func (wb *Workbench) openKafkaConnectionsDialog(name string) *kafkaConnDialog {
	k := wb.kafka
	cd := &kafkaConnDialog{k: k}
	k.dlg = cd
	cd.list = widget.NewList(func() int { return len(k.conns) + 1 },
		func() fyne.CanvasObject { return widget.NewLabel("") },
		func(i widget.ListItemID, o fyne.CanvasObject) {
			if i == len(k.conns) {
				o.(*widget.Label).SetText("+ New Kafka connection")
				return
			}
			o.(*widget.Label).SetText(k.conns[i].config().Name)
		})
	cd.list.OnSelected = func(i widget.ListItemID) {
		if i == len(k.conns) {
			cd.show("")
		} else if i < len(k.conns) {
			cd.show(k.conns[i].config().Name)
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
		}, wb.win)
		fd.Resize(widgets.FileDialogSize(wb.win))
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
	right := container.NewBorder(nil, container.NewVBox(cd.status, buttons), nil, nil, container.NewVScroll(cd.form))
	split := container.NewHSplit(cd.list, right)
	split.Offset = 0.28
	cd.d = dialog.NewCustom("Kafka connections", "Close", split, wb.win)
	cd.d.SetOnClosed(func() {
		if k.dlg == cd {
			k.dlg = nil
		}
	})
	cd.d.Resize(fyne.NewSize(min(900, wb.win.Canvas().Size().Width-40), min(640, wb.win.Canvas().Size().Height-40)))
	cd.show(name)
	cd.d.Show()
	return cd
}

// show fills the form with a connection ("" = an empty one).
func (cd *kafkaConnDialog) show(name string) {
	cd.sel = name
	cfg := kafkabrowser.Config{Security: kafkabrowser.Plaintext, Mechanism: kafkabrowser.MechPlain}
	if c := cd.k.byName(name); c != nil {
		cfg = c.config()
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
	cd.status.SetText("")
	cd.status.Importance = widget.MediumImportance
	if cd.sel == "" {
		cd.deleteBtn.Disable()
	} else {
		cd.deleteBtn.Enable()
	}
	cd.enableFields()
}

func (cd *kafkaConnDialog) enableFields() {
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
func (cd *kafkaConnDialog) config() kafkabrowser.Config {
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

func (cd *kafkaConnDialog) say(text string, imp widget.Importance) {
	cd.status.Importance = imp
	cd.status.SetText(text)
}

func (cd *kafkaConnDialog) save() {
	cfg := cd.config()
	c, err := cd.k.save(cd.sel, cfg)
	if err != nil {
		cd.say(err.Error(), widget.DangerImportance)
		return
	}
	cd.sel = c.config().Name
	cd.list.Refresh()
	cd.deleteBtn.Enable()
	msg := "Saved " + cfg.Name + "."
	if cfg.Password != "" && !cfg.SavePassword {
		msg += " The password is kept until the workbench closes (not saved)."
	}
	cd.say(msg, widget.SuccessImportance)
}

func (cd *kafkaConnDialog) remove() {
	name := cd.sel
	if name == "" {
		return
	}
	dialog.ShowConfirm("Delete Kafka connection", "Delete the connection "+name+"? (Tables created from its topics stay.)", func(ok bool) {
		if !ok {
			return
		}
		if err := cd.k.remove(name); err != nil {
			cd.say(err.Error(), widget.DangerImportance)
			return
		}
		cd.list.Refresh()
		cd.show("")
	}, cd.k.wb.win)
}

// test contacts the cluster with the form's settings, bounded by
// kafkaTestTimeout.
func (cd *kafkaConnDialog) test() {
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
	wb := cd.k.wb
	go func() {
		started := time.Now()
		info, err := kafkabrowser.Test(context.Background(), cfg, kafkaTestTimeout)
		took := time.Since(started)
		wb.do(func() {
			if wb.closed {
				return
			}
			if n != cd.testing {
				return
			}
			cd.testBtn.Enable()
			if err != nil {
				var msg = err.Error()
				if errors.Is(err, context.DeadlineExceeded) {
					msg = fmt.Sprintf("No answer from %s within %s.", cfg.Bootstrap, kafkaTestTimeout)
				}
				// "connecting: " says nothing more than "Failed" here
				cd.say("Failed: "+strings.TrimPrefix(msg, "connecting: "), widget.DangerImportance)
				return
			}
			cd.say(fmt.Sprintf("Connected to %s: %s (%s).", cfg.Bootstrap, info, widgets.FormatDuration(took)), widget.SuccessImportance)
		})
	}()
}
