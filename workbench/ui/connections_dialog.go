package ui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"net"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/engine/gateway"
	"github.com/riffle-sql/riffle/workbench/persistence"
	"github.com/riffle-sql/riffle/workbench/ui/widgets"
)

// The connection switch in the toolbar, the line above the catalog tree,
// and File ▸ Connections…, where gateway connections are added, edited and
// deleted.

// connectionSwitch builds the toolbar's connection switch: the current
// tab's connection, and a button opening the Connections dialog.
func (wb *Workbench) connectionSwitch() []fyne.CanvasObject {
	wb.connSel = widget.NewSelect(wb.conns.names(), func(name string) {
		if c := wb.conns.byName(name); c != nil {
			wb.setTabConnection(wb.editors.current(), c)
		}
	})
	wb.connSel.SetSelected(wb.currentConn().cfg.Name)
	manage := widget.NewButtonWithIcon("", theme.SettingsIcon(), wb.showConnectionsDialog)
	manage.Importance = widget.LowImportance
	// wide enough for "Embedded (this machine)", less in a narrow window
	return []fyne.CanvasObject{widget.NewLabel("Connection"), widgets.PrefWidth(230, wb.connSel), manage}
}

// catalogPane is the catalog tree under its connection's name and state.
func (wb *Workbench) catalogPane() fyne.CanvasObject {
	wb.connHeader = widget.NewLabel("")
	wb.connHeader.Truncation = fyne.TextTruncateEllipsis
	wb.connHeader.TextStyle = fyne.TextStyle{Bold: true}
	wb.connDetail = widget.NewLabel("")
	wb.connDetail.Truncation = fyne.TextTruncateEllipsis
	wb.connDetail.Importance = widget.LowImportance
	wb.updateConnHeader()
	head := container.New(layout.NewCustomPaddedVBoxLayout(-2*theme.Padding()), wb.connHeader, wb.connDetail)
	return container.NewBorder(head, nil, nil, nil, wb.catalog)
}

func (wb *Workbench) updateConnHeader() {
	if wb.connHeader == nil {
		return
	}
	c := wb.conns.shown
	name, detail := connHeaderText(c)
	imp := widget.LowImportance
	if _, st, _, _ := c.snapshot(); st == connFailed {
		imp = widget.DangerImportance
	}
	if wb.connHeader.Text != name {
		wb.connHeader.SetText(name)
	}
	if wb.connDetail.Text != detail || wb.connDetail.Importance != imp {
		wb.connDetail.Importance = imp
		wb.connDetail.SetText(detail)
	}
}

// refreshConnectionList shows the connections' names in the switch.
func (wb *Workbench) refreshConnectionList() {
	wb.connSel.Options = wb.conns.names()
	wb.connSel.Refresh()
	wb.updateStatus()
}

// saveConnection stores a gateway connection: a new one (old == "") or
// the one named old, perhaps renamed. A connection whose URL, token or
// properties changed is disconnected (its running queries stop) and
// connects again when next used.
func (wb *Workbench) saveConnection(old string, cfg persistence.Connection, runInit bool) (*connection, error) {
	ctx := context.Background()
	cfg.Kind = persistence.KindGateway
	if err := wb.store.SaveConnection(ctx, cfg); err != nil {
		return nil, err
	}
	if err := wb.store.SetSetting(ctx, settingConnInit+cfg.Name, fmt.Sprint(runInit)); err != nil {
		return nil, err
	}
	if cfg.Token != "" && !wb.store.ReadOnly() {
		if err := protectWorkspace(wb.store.Path()); err != nil {
			wb.messages.add(levelWarning, "The workspace holds a token but could not be made private: "+err.Error(), nil)
		}
	}
	c := wb.conns.byName(old)
	if old == "" || c == nil {
		c = wb.conns.add(cfg, runInit)
		wb.refreshConnectionList()
		return c, nil
	}
	if old != cfg.Name {
		if err := wb.store.DeleteConnection(ctx, old); err != nil {
			return nil, err
		}
		_ = wb.store.SetSetting(ctx, settingConnInit+old, "false")
		for id, tc := range wb.conns.byTab {
			if tc == c {
				_ = wb.store.SetSetting(ctx, settingTabConn+fmt.Sprint(id), cfg.Name)
			}
		}
	}
	c.mu.Lock()
	reconnect := c.cfg.URL != cfg.URL || c.cfg.Token != cfg.Token || !maps.Equal(c.cfg.Properties, cfg.Properties) ||
		c.cfg.ClusterREST != cfg.ClusterREST
	c.cfg, c.runInit = cfg, runInit
	c.mu.Unlock()
	wb.conns.sort()
	if reconnect {
		wb.stopResultsOn(c)
		c.drop(nil)
		c.esrc.Reset()
		if wb.conns.shown == c {
			wb.catalog.Reload()
		}
	}
	wb.refreshConnectionList()
	return c, nil
}

// protectWorkspace makes the workspace file (and SQLite's WAL and
// shared-memory files beside it) readable and writable by its owner only:
// it holds a token.
func protectWorkspace(path string) error {
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		if err := os.Chmod(p, 0o600); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// deleteConnection removes a gateway connection: its tabs move to the
// embedded engine, its running queries stop and its session is closed.
func (wb *Workbench) deleteConnection(c *connection) error {
	if c.embedded() {
		return errors.New("the embedded connection cannot be deleted")
	}
	ctx := context.Background()
	if err := wb.store.DeleteConnection(ctx, c.cfg.Name); err != nil {
		return err
	}
	_ = wb.store.SetSetting(ctx, settingConnInit+c.cfg.Name, "false")
	for id, tc := range wb.conns.byTab {
		if tc == c {
			wb.conns.byTab[id] = wb.conns.embedded
			_ = wb.store.SetSetting(ctx, settingTabConn+fmt.Sprint(id), embeddedConnName)
		}
	}
	for i, x := range wb.conns.list {
		if x == c {
			wb.conns.list = append(wb.conns.list[:i], wb.conns.list[i+1:]...)
			break
		}
	}
	wb.stopResultsOn(c)
	c.mu.Lock()
	c.deleted = true
	c.mu.Unlock()
	c.drop(nil)
	close(c.q) // its worker ends after the scripts already queued (they fail)
	if wb.conns.shown == c {
		wb.conns.shown = nil // syncConnection shows the current tab's
	}
	wb.refreshConnectionList()
	return nil
}

// stopResultsOn stops the running queries of a connection.
func (wb *Workbench) stopResultsOn(c *connection) {
	for _, rt := range wb.results {
		if rt.conn == c && rt.isRunning() {
			rt.stop()
		}
	}
}

// parseProperties reads session properties, one "key = value" a line
// (quotes around either are dropped, so SET statements can be pasted; empty
// lines and lines starting with -- or # are skipped).
func parseProperties(text string) (map[string]string, error) {
	out := map[string]string{}
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "--") || strings.HasPrefix(line, "#") {
			continue
		}
		if l, ok := cutPrefixFold(line, "SET "); ok {
			line = strings.TrimSpace(l)
		}
		line = strings.TrimSpace(strings.TrimSuffix(line, ";"))
		k, v, ok := strings.Cut(line, "=")
		k, v = unquote(strings.TrimSpace(k)), unquote(strings.TrimSpace(v))
		if !ok || k == "" {
			return nil, fmt.Errorf("session properties, line %d: want key = value", i+1)
		}
		out[k] = v
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out, nil
}

func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return s, false
}

func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '\'' || s[0] == '"' || s[0] == '`') && s[len(s)-1] == s[0] {
		q := s[:1]
		return strings.ReplaceAll(s[1:len(s)-1], q+q, q)
	}
	return s
}

// formatProperties writes properties as parseProperties reads them, sorted.
func formatProperties(p map[string]string) string {
	keys := make([]string, 0, len(p))
	for k := range p {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%s = %s\n", k, p[k])
	}
	return b.String()
}

// normalizeURL checks a gateway URL, adding http:// when no scheme is given.
func normalizeURL(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", errors.New("the URL is empty (e.g. http://127.0.0.1:8083)")
	}
	if !strings.Contains(s, "://") {
		s = "http://" + s
	}
	u, err := url.Parse(s)
	if err != nil {
		return "", fmt.Errorf("the URL: %w", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", fmt.Errorf("the URL must start with http:// or https://, not %s://", u.Scheme)
	}
	if u.Host == "" {
		return "", errors.New("the URL names no host")
	}
	if u.User != nil {
		return "", errors.New("put the token in the Token field, not in the URL")
	}
	return strings.TrimRight(s, "/"), nil
}

// normalizeRESTURL checks the optional cluster REST URL ("" is none),
// adding http:// when no scheme is given.
func normalizeRESTURL(s string) (string, error) {
	if strings.TrimSpace(s) == "" {
		return "", nil
	}
	u, err := normalizeURL(s)
	if err != nil {
		return "", fmt.Errorf("cluster REST URL: %w", err)
	}
	return u, nil
}

// probeClusterREST asks a Flink cluster's REST API for its version (GET
// /config, whose "flink-version" the web UI shows), to tell the user that
// the URL is one.
func probeClusterREST(ctx context.Context, base string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(base, "/")+"/config", nil)
	if err != nil {
		return "", err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		var oe *net.OpError
		if errors.As(err, &oe) && oe.Err != nil {
			err = oe.Err
		}
		return "", fmt.Errorf("cannot reach %s: %w", base, err)
	}
	defer resp.Body.Close()
	var conf struct {
		Version string `json:"flink-version"`
	}
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("%s is not a Flink cluster's REST API (GET /config: %s)", base, resp.Status)
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&conf); err != nil || conf.Version == "" {
		return "", fmt.Errorf("%s is not a Flink cluster's REST API (GET /config has no flink-version)", base)
	}
	return conf.Version, nil
}

// ---- the dialog ----------------------------------------------------------------

// connDialog is File ▸ Connections…: the connections on the left, the
// selected one's settings on the right.
type connDialog struct {
	wb      *Workbench
	d       dialog.Dialog
	list    *widget.List
	names   []string
	editing string // the name of the connection in the form ("" = a new one)

	name, url, token, props *widget.Entry
	rest                    *widget.Entry // the cluster REST URL (optional)
	runInit                 *widget.Check
	status                  *widget.Label
	form, embeddedInfo      fyne.CanvasObject
	newBtn, delBtn, saveBtn *widget.Button
	testBtn, useBtn         *widget.Button
}

func (wb *Workbench) showConnectionsDialog() { wb.openConnectionsDialog() }

// openConnectionsDialog shows the dialog (and returns it, for tests).
func (wb *Workbench) openConnectionsDialog() *connDialog {
	cd := &connDialog{wb: wb}
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
	left := container.NewBorder(nil, container.NewHBox(cd.newBtn, cd.delBtn), nil, nil, cd.list)

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
	cd.embeddedInfo = container.NewVBox(widget.NewLabelWithStyle(embeddedConnName, fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		info, container.NewHBox(cd.useBtnEmbedded()))

	split := container.NewHSplit(left, container.NewStack(cd.form, cd.embeddedInfo))
	split.Offset = 0.3
	cd.d = dialog.NewCustom("Connections", "Close", split, wb.win)
	cd.d.Resize(fyne.NewSize(860, 540))
	cd.reloadNames()
	current := wb.currentConn().cfg.Name
	cd.d.Show()
	cd.selectName(current)
	return cd
}

func (cd *connDialog) useBtnEmbedded() *widget.Button {
	b := widget.NewButtonWithIcon("Use in this tab", theme.ConfirmIcon(), func() {
		cd.wb.setTabConnection(cd.wb.editors.current(), cd.wb.conns.embedded)
		cd.d.Hide()
	})
	return b
}

func (cd *connDialog) reloadNames() {
	cd.names = cd.wb.conns.names()
	cd.list.Refresh()
}

func (cd *connDialog) selectName(name string) {
	for i, n := range cd.names {
		if n == name {
			cd.list.Select(i)
			return
		}
	}
	cd.list.Select(0)
}

// load shows a connection's settings.
func (cd *connDialog) load(name string) {
	c := cd.wb.conns.byName(name)
	if c == nil {
		return
	}
	cd.status.SetText("")
	if c.embedded() {
		cd.editing = ""
		cd.form.Hide()
		cd.embeddedInfo.Show()
		cd.delBtn.Disable()
		return
	}
	cfg, st, err, info := c.snapshot()
	c.mu.Lock()
	runInit := c.runInit
	c.mu.Unlock()
	cd.editing = cfg.Name
	cd.name.SetText(cfg.Name)
	cd.url.SetText(cfg.URL)
	cd.token.SetText(cfg.Token)
	cd.rest.SetText(cfg.ClusterREST)
	cd.props.SetText(formatProperties(cfg.Properties))
	cd.runInit.SetChecked(runInit)
	switch st {
	case connReady:
		cd.status.SetText("Connected to " + info + ".")
	case connFailed:
		cd.status.SetText("Not connected: " + err.Error())
	}
	cd.embeddedInfo.Hide()
	cd.form.Show()
	cd.delBtn.Enable()
	cd.useBtn.Enable()
}

// newConnection empties the form for a new connection.
func (cd *connDialog) newConnection() {
	cd.list.UnselectAll()
	cd.editing = ""
	n := 1
	name := "Gateway"
	for cd.wb.conns.byName(name) != nil {
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
	cd.wb.win.Canvas().Focus(cd.url)
}

// read checks the form.
func (cd *connDialog) read() (persistence.Connection, error) {
	name := strings.TrimSpace(cd.name.Text)
	switch {
	case name == "":
		return persistence.Connection{}, errors.New("the connection needs a name")
	case strings.EqualFold(name, embeddedConnName):
		return persistence.Connection{}, fmt.Errorf("%q is the embedded connection's name", name)
	case name != cd.editing && cd.wb.conns.byName(name) != nil:
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

func (cd *connDialog) fail(err error) {
	cd.status.Importance = widget.DangerImportance
	cd.status.SetText(err.Error())
}

func (cd *connDialog) say(s string) {
	cd.status.Importance = widget.MediumImportance
	cd.status.SetText(s)
}

// save stores the form's connection.
func (cd *connDialog) save() {
	cfg, err := cd.read()
	if err != nil {
		cd.fail(err)
		return
	}
	if _, err := cd.wb.saveConnection(cd.editing, cfg, cd.runInit.Checked); err != nil {
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
func (cd *connDialog) test() {
	cfg, err := cd.read()
	if err != nil {
		cd.fail(err)
		return
	}
	cd.say("Connecting to " + cfg.URL + "…")
	wb := cd.wb
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), connectTimeout)
		defer cancel()
		msg := ""
		eng, err := gateway.Connect(ctx, cfg.URL, gateway.RemoteOptions{Token: cfg.Token, Properties: cfg.Properties,
			SessionName: sessionName + " (test)", Heartbeat: -1, ClusterREST: cfg.ClusterREST})
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
		} else {
			err = connectError(cfg, err)
		}
		wb.do(func() {
			if err != nil {
				cd.fail(err)
			} else {
				cd.say(msg)
			}
		})
	}()
}

// useInTab saves the form and makes the current tab use the connection.
func (cd *connDialog) useInTab() {
	cd.save()
	if c := cd.wb.conns.byName(cd.editing); c != nil && cd.editing != "" {
		cd.wb.setTabConnection(cd.wb.editors.current(), c)
		cd.d.Hide()
	}
}

// confirmDelete asks, then deletes the selected connection.
func (cd *connDialog) confirmDelete() {
	c := cd.wb.conns.byName(cd.editing)
	if c == nil || c.embedded() {
		return
	}
	tabs := 0
	for _, tc := range cd.wb.conns.byTab {
		if tc == c {
			tabs++
		}
	}
	msg := fmt.Sprintf("Delete the connection %q?", c.cfg.Name)
	if tabs > 0 {
		msg += fmt.Sprintf("\n%d editor tab(s) using it move to %s.", tabs, embeddedConnName)
	}
	msg += "\nIts session is closed: its running queries and jobs stop."
	dialog.ShowConfirm("Delete connection", msg, func(ok bool) {
		if ok {
			cd.delete(c)
		}
	}, cd.wb.win)
}

func (cd *connDialog) delete(c *connection) {
	if err := cd.wb.deleteConnection(c); err != nil {
		cd.fail(err)
		return
	}
	cd.reloadNames()
	cd.selectName(embeddedConnName)
}
