package ui

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/workbench/persistence"
	"github.com/riffle-sql/riffle/workbench/ui/widgets"
)

// The connection switch in the toolbar, the line above the catalog tree,
// and what File ▸ Connections… (package connectionsdialog, through
// connectionsHost) does to gateway connections: save, rename, delete.

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
		if rt.conn == c && rt.IsRunning() {
			rt.Stop()
		}
	}
}
