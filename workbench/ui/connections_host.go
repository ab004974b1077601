package ui

import (
	"context"
	"time"

	"github.com/riffle-sql/riffle/engine/gateway"
	"github.com/riffle-sql/riffle/workbench/persistence"
	"github.com/riffle-sql/riffle/workbench/ui/connectionsdialog"
)

// connectionsHost is what File ▸ Connections… (connectionsdialog) asks of
// the workbench: its connections, read and changed on the UI goroutine.
type connectionsHost struct{ wb *Workbench }

var _ connectionsdialog.Host = connectionsHost{}

func (wb *Workbench) showConnectionsDialog() { wb.openConnectionsDialog() }

// openConnectionsDialog shows the dialog (and returns it, for tests).
func (wb *Workbench) openConnectionsDialog() *connectionsdialog.Dialog {
	return connectionsdialog.Show(wb.win, connectionsHost{wb})
}

func (h connectionsHost) Names() []string      { return h.wb.conns.names() }
func (h connectionsHost) EmbeddedName() string { return embeddedConnName }
func (h connectionsHost) CurrentName() string  { return h.wb.currentConn().cfg.Name }

func (h connectionsHost) Connection(name string) (connectionsdialog.Entry, bool) {
	c := h.wb.conns.byName(name)
	if c == nil {
		return connectionsdialog.Entry{}, false
	}
	if c.embedded() {
		return connectionsdialog.Entry{Config: c.cfg, Embedded: true, Info: h.wb.env.Config().Configuration().DescribeParallelism()}, true
	}
	cfg, st, err, info := c.snapshot()
	c.mu.Lock()
	runInit := c.runInit
	c.mu.Unlock()
	e := connectionsdialog.Entry{Config: cfg, RunInit: runInit}
	switch st {
	case connReady:
		e.Ready, e.Info = true, info
	case connFailed:
		e.Err = err
	}
	return e, true
}

func (h connectionsHost) TabsUsing(name string) int {
	c := h.wb.conns.byName(name)
	n := 0
	for _, tc := range h.wb.conns.byTab {
		if c != nil && tc == c {
			n++
		}
	}
	return n
}

func (h connectionsHost) Save(old string, cfg persistence.Connection, runInit bool) error {
	_, err := h.wb.saveConnection(old, cfg, runInit)
	return err
}

func (h connectionsHost) Delete(name string) error {
	c := h.wb.conns.byName(name)
	if c == nil {
		return nil
	}
	return h.wb.deleteConnection(c)
}

func (h connectionsHost) UseInTab(name string) {
	if c := h.wb.conns.byName(name); c != nil {
		h.wb.setTabConnection(h.wb.editors.current(), c)
	}
}

func (h connectionsHost) ConnectTimeout() time.Duration { return connectTimeout }

// OpenTestSession opens a session the way a connection does, named as a
// test's and without heartbeats.
func (h connectionsHost) OpenTestSession(ctx context.Context, cfg persistence.Connection) (*gateway.RemoteEngine, error) {
	eng, err := gateway.Connect(ctx, cfg.URL, gateway.RemoteOptions{Token: cfg.Token, Properties: cfg.Properties,
		SessionName: sessionName + " (test)", Heartbeat: -1, ClusterREST: cfg.ClusterREST})
	if err != nil {
		return nil, connectError(cfg, err)
	}
	return eng, nil
}

func (h connectionsHost) Do(f func()) { h.wb.do(f) }
