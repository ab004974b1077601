package connectionsdialog

import (
	"context"
	"time"

	"github.com/riffle-sql/riffle/engine/gateway"
	"github.com/riffle-sql/riffle/workbench/persistence"
)

// Host is what the connections dialog asks of the workbench. It is called
// on the UI goroutine, except OpenTestSession.
type Host interface {
	// Names lists the connections' names as the switch shows them, the
	// embedded connection first.
	Names() []string
	// EmbeddedName is the embedded connection's name (a gateway
	// connection may not take it, in any case).
	EmbeddedName() string
	// Connection returns the named connection's settings and state; false
	// when there is none.
	Connection(name string) (Entry, bool)
	// CurrentName is the name of the current editor tab's connection.
	CurrentName() string
	// TabsUsing counts the editor tabs that run on the named connection.
	TabsUsing(name string) int
	// Save stores a gateway connection: a new one (old == "") or the one
	// named old, perhaps renamed.
	Save(old string, cfg persistence.Connection, runInit bool) error
	// Delete removes the named gateway connection (its tabs move to the
	// embedded one).
	Delete(name string) error
	// UseInTab makes the current editor tab run on the named connection.
	UseInTab(name string)
	// ConnectTimeout bounds a test: opening the session and probing the
	// cluster REST API.
	ConnectTimeout() time.Duration
	// OpenTestSession opens a session with cfg's settings (any
	// goroutine); its error is worded for the user.
	OpenTestSession(ctx context.Context, cfg persistence.Connection) (*gateway.RemoteEngine, error)
	// Do runs f on the UI goroutine.
	Do(f func())
}

// Entry is a connection as the dialog shows it.
type Entry struct {
	Config   persistence.Connection
	RunInit  bool   // new sessions run the workspace's init script
	Embedded bool   // the embedded engine (not editable)
	Ready    bool   // a session is open
	Info     string // when Ready: what it is connected to; for the embedded engine, its settings (the parallelism jobs run at and where it comes from)
	Err      error  // when not Ready: the last failure to connect, or nil
}
