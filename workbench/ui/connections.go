package ui

// Connections: where an editor tab's statements run. "Embedded (this
// machine)" is the TableEnvironment of this process and always there; any
// number of "Flink SQL Gateway" connections (URL, optional bearer token,
// session properties) are kept in the workspace's connections table.
//
// As in DataGrip and DBeaver, the connection belongs to the editor tab
// (its console): the toolbar's connection switch shows and changes the
// current tab's, the catalog tree shows the current tab's connection, and
// a new tab starts on the connection shown. Two tabs on one gateway
// connection share its session, as two tabs on the embedded engine share
// its environment.
//
// A gateway connection connects when first used (a statement, or the
// catalog tree showing it), on a background goroutine; its statements run
// on their own worker, in order, so a slow or unreachable gateway never
// holds up the embedded engine or the UI. A session the gateway lost (it
// expired, or the gateway restarted) is reopened once and the statement
// sent again.

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/riffle-sql/riffle/engine/gateway"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/workbench/catalogbrowser"
	"github.com/riffle-sql/riffle/workbench/monitor"
	"github.com/riffle-sql/riffle/workbench/persistence"
)

// Settings keys of connections.
const (
	settingTabConn  = "workbench.tab-connection."  // + tab ID: the tab's connection name
	settingConnInit = "workbench.connection-init." // + connection name: "true" = run the init script on connect
)

// embeddedConnName names the built-in connection.
const embeddedConnName = "Embedded (this machine)"

// connectTimeout bounds opening a gateway session.
const connectTimeout = 15 * time.Second

// sessionName is the session name the workbench opens gateway sessions with.
const sessionName = "Riffle workbench"

// connState is a gateway connection's state.
type connState uint8

const (
	connIdle       connState = iota // not connected yet (or closed after an edit)
	connConnecting                  // opening a session
	connReady                       // a session is open
	connFailed                      // the last attempt failed (retried on next use)
)

// connection is one entry of the connection switch.
type connection struct {
	wb    *Workbench
	local bool // the embedded engine (never changes)

	// Fields of the UI goroutine.
	src    catalogbrowser.Source        // what the catalog tree reads
	esrc   *catalogbrowser.EngineSource // src of a gateway connection
	q      chan queued                  // a gateway connection's statement queue (nil: embedded, wb.runQ)
	opened bool                         // the tree opened its current database once

	mu      sync.Mutex
	cfg     persistence.Connection // Kind KindEmbedded for the built-in one
	runInit bool                   // run the workspace init script on connect
	eng     table.Engine           // the open session (embedded: always set)
	gen     int                    // bumped when the session is dropped
	state   connState
	err     error    // the last failure
	info    string   // "Riffle dev", the gateway's product and version
	pending *attempt // connecting
	deleted bool
}

// attempt is one try to connect; its waiters share its outcome.
type attempt struct {
	done chan struct{}
	eng  table.Engine
	err  error
}

// errConnChanged ends waits on an attempt whose connection was edited or
// deleted meanwhile.
var errConnChanged = errors.New("the connection was changed while connecting")

// name is the connection's name (any goroutine).
func (c *connection) name() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cfg.Name
}

func (c *connection) embedded() bool { return c.local }

// embeddedEnv returns the embedded TableEnvironment when this is the
// embedded connection, nil otherwise: what only the embedded engine offers
// (JobClient metrics, plans, the Table API) is reached through it.
func (c *connection) embeddedEnv() *table.TableEnvironment {
	if c != nil && c.embedded() {
		return c.wb.env
	}
	return nil
}

// hasOperatorMetrics reports whether jobs of this connection have
// per-operator metrics and live plan metrics (the embedded engine only).
func (c *connection) hasOperatorMetrics() bool { return c.embedded() }

// snapshot returns the connection's settings and state (any goroutine).
func (c *connection) snapshot() (persistence.Connection, connState, error, string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cfg, c.state, c.err, c.info
}

// engine returns the connection's engine, opening a gateway session first
// when there is none. Never call it on the UI goroutine.
func (c *connection) engine(ctx context.Context) (table.Engine, error) {
	c.mu.Lock()
	if c.deleted {
		c.mu.Unlock()
		return nil, fmt.Errorf("the connection %q was deleted", c.cfg.Name)
	}
	if c.eng != nil {
		e := c.eng
		c.mu.Unlock()
		return e, nil
	}
	a := c.pending
	if a == nil {
		a = &attempt{done: make(chan struct{})}
		c.pending = a
		c.state = connConnecting
		go c.dial(a, c.cfg, c.runInit, c.gen)
	}
	c.mu.Unlock()
	c.wb.do(func() { c.wb.connectionStateChanged(c) })
	select {
	case <-a.done:
		return a.eng, a.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// dial opens a session on the gateway and, when asked to, runs the
// workspace's init script in it before anything else does.
func (c *connection) dial(a *attempt, cfg persistence.Connection, runInit bool, gen int) {
	ctx, cancel := context.WithTimeout(context.Background(), connectTimeout)
	eng, err := gateway.Connect(ctx, cfg.URL, gateway.RemoteOptions{Token: cfg.Token, Properties: cfg.Properties, SessionName: sessionName,
		ClusterREST: cfg.ClusterREST})
	info := ""
	if err == nil {
		if i, ierr := eng.Client().Info(ctx); ierr == nil {
			info = strings.TrimSpace(i.ProductName + " " + i.Version)
		}
	} else {
		err = connectError(cfg, err)
	}
	cancel()
	if err == nil && runInit {
		c.wb.runInitOn(c, eng)
	}
	c.mu.Lock()
	if c.gen != gen {
		c.mu.Unlock()
		if eng != nil {
			go eng.Close()
		}
		a.err = errConnChanged
		close(a.done)
		return
	}
	c.pending = nil
	if err != nil {
		c.state, c.err = connFailed, err
	} else {
		c.eng, c.state, c.err, c.info = eng, connReady, nil, info
		a.eng = eng
	}
	a.err = err
	c.mu.Unlock()
	close(a.done)
	c.wb.do(func() { c.wb.connectionStateChanged(c) })
}

// connectError words a failure to connect for the user.
func connectError(cfg persistence.Connection, err error) error {
	var ge *gateway.Error
	if errors.As(err, &ge) && ge.StatusCode == 401 {
		return &connectErr{fmt.Errorf("%s refused the token (401): check the connection's token", cfg.URL)}
	}
	var ce *gateway.ConnectionError
	if errors.As(err, &ce) {
		return &connectErr{ce} // "cannot reach the SQL Gateway at host:port: connection refused"
	}
	var oe *net.OpError
	if errors.As(err, &oe) && oe.Err != nil {
		err = oe.Err // "connect: connection refused", without the request
	}
	return &connectErr{fmt.Errorf("connecting to %s: %w", cfg.URL, err)}
}

// unreachable reports an error that is no fault of the statement: the
// gateway could not be reached. Its message is worded for Messages.
func unreachable(err error) (string, bool) {
	var ce *gateway.ConnectionError
	if !errors.As(err, &ce) {
		return "", false
	}
	msg := ce.Error()
	return strings.ToUpper(msg[:1]) + msg[1:], true
}

// connectErr is a failure to open a session.
type connectErr struct{ err error }

func (e *connectErr) Error() string { return e.err.Error() }
func (e *connectErr) Unwrap() error { return e.err }

// open returns the open session's engine, nil when not connected.
func (c *connection) open() table.Engine {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.eng
}

// drop forgets the session eng (it was lost, or the connection changed)
// and closes it in the background; the next use connects again.
func (c *connection) drop(eng table.Engine) {
	c.mu.Lock()
	if eng != nil && c.eng != eng {
		c.mu.Unlock()
		return
	}
	old := c.eng
	c.eng = nil
	c.gen++
	c.pending = nil
	c.state, c.err, c.info = connIdle, nil, ""
	c.mu.Unlock()
	if old != nil {
		go old.Close()
	}
}

// execute runs one statement on the connection. A statement refused
// because the gateway lost the session is sent once more on a new one.
func (wb *Workbench) execute(ctx context.Context, c *connection, text string, pos sql.Pos) (table.StatementResult, error) {
	eng, err := c.engine(ctx)
	if err != nil {
		return nil, err
	}
	res, err := eng.ExecuteStatement(ctx, text, pos)
	if err != nil && gateway.SessionLost(err) {
		c.drop(eng)
		wb.post(levelWarning, fmt.Sprintf("%s: the gateway no longer knows the session (it expired, or the gateway restarted); "+
			"a new session is opened. What the old one defined (tables, SET options) is gone.", c.name()), nil)
		if eng, err = c.engine(ctx); err != nil {
			return nil, err
		}
		res, err = eng.ExecuteStatement(ctx, text, pos)
	}
	return res, err
}

// applyMode sets the session's runtime mode ("Streaming" or "Batch") when
// it differs.
func (wb *Workbench) applyMode(ctx context.Context, c *connection, mode string) error {
	want := strings.ToLower(mode)
	if c.embedded() {
		wb.env.Config().Set("execution.runtime-mode", want)
		return nil
	}
	if m, err := wb.sessionMode(ctx, c); err == nil && m == mode {
		return nil
	}
	res, err := wb.execute(ctx, c, "SET 'execution.runtime-mode' = '"+want+"'", sql.Pos{})
	var ce *connectErr
	if errors.As(err, &ce) {
		return err
	}
	if err != nil {
		return fmt.Errorf("setting the runtime mode on %s: %w", c.name(), err)
	}
	closeResult(res)
	return nil
}

// sessionMode returns the session's runtime mode as the mode switch names it.
func (wb *Workbench) sessionMode(ctx context.Context, c *connection) (string, error) {
	if c.embedded() {
		if wb.env.IsStreaming() {
			return modeStreaming, nil
		}
		return modeBatch, nil
	}
	re, ok := c.open().(*gateway.RemoteEngine)
	if !ok {
		return "", errors.New("not connected")
	}
	conf, err := re.Config(ctx)
	if err != nil {
		return "", err
	}
	if strings.EqualFold(conf["execution.runtime-mode"], "batch") {
		return modeBatch, nil
	}
	return modeStreaming, nil
}

// closeResult releases a result that is not shown.
func closeResult(res table.StatementResult) {
	if rows, err := res.Collect(); err == nil {
		rows.Close()
	}
}

// runInitOn runs the workspace's init script in a new gateway session
// (the connection's "Run the init script" option); errors are reported and
// the rest still runs, as on the embedded engine.
func (wb *Workbench) runInitOn(c *connection, eng table.Engine) {
	wb.mu.Lock()
	script := wb.initScript
	wb.mu.Unlock()
	name := c.name()
	failed := 0
	for _, sp := range sql.SplitStatements(script) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		res, err := eng.ExecuteStatement(ctx, sp.Text, sp.Start)
		cancel()
		if err != nil {
			failed++
			line := sp.Start.Line
			if l, _, ok := errPos(err); ok {
				line = l
			}
			wb.post(levelError, fmt.Sprintf("[ERROR] Init script on %s, line %d: %s", name, line, err), nil)
			continue
		}
		if res.IsQuery() {
			closeResult(res) // a query in an init script shows nothing
		}
	}
	if failed == 0 {
		wb.post(levelInfo, "Init script run on "+name+".", nil)
	} else {
		wb.post(levelWarning, fmt.Sprintf("Init script run on %s with %d error(s) (see above).", name, failed), nil)
	}
}

// jobsOf lists a connection's jobs for a job list (monitor.Jobs): the
// embedded session's JobClients, or a gateway session's jobs as SHOW JOBS
// reports them (without metrics). It may use the network: never call it
// on the UI goroutine.
func (wb *Workbench) jobsOf(ctx context.Context, c *connection) ([]monitor.Job, error) {
	if env := c.embeddedEnv(); env != nil {
		return monitor.SessionJobs(env), nil
	}
	eng, err := c.engine(ctx)
	if err != nil {
		return nil, err
	}
	re, ok := eng.(*gateway.RemoteEngine)
	if !ok {
		return nil, errors.New("not a gateway session")
	}
	jobs, err := re.RemoteJobs(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]monitor.Job, len(jobs))
	for i, j := range jobs {
		out[i] = j
	}
	return out, nil
}

// ---- the registry ------------------------------------------------------------

// connections are the workbench's connections: the embedded one first,
// then the gateway ones by name.
type connections struct {
	wb       *Workbench
	embedded *connection
	list     []*connection         // embedded first, then by name
	byTab    map[int64]*connection // editor tab ID -> its connection
	shown    *connection           // the connection the catalog tree and the switch show
}

// newConnections loads the workspace's connections and the tabs' choices.
func newConnections(wb *Workbench, ws *persistence.Workspace) *connections {
	cs := &connections{wb: wb, byTab: map[int64]*connection{}}
	cs.embedded = &connection{wb: wb, local: true, cfg: persistence.Connection{Name: embeddedConnName, Kind: persistence.KindEmbedded},
		eng: table.NewEmbeddedEngine(wb.env), state: connReady}
	cs.embedded.src = catalogbrowser.EnvSource{Env: wb.env}
	cs.list = []*connection{cs.embedded}
	for _, cfg := range ws.Connections {
		if cfg.Kind != persistence.KindGateway || cfg.Name == embeddedConnName {
			continue
		}
		cs.add(cfg, ws.Settings[settingConnInit+cfg.Name] == "true")
	}
	for k, v := range ws.Settings {
		if id, ok := strings.CutPrefix(k, settingTabConn); ok {
			var n int64
			if _, err := fmt.Sscan(id, &n); err == nil {
				if c := cs.byName(v); c != nil {
					cs.byTab[n] = c
				}
			}
		}
	}
	// Tabs that never chose run on the embedded engine (a new tab takes
	// the connection shown when it is made: see of).
	for _, t := range ws.Tabs {
		if cs.byTab[t.ID] == nil {
			cs.byTab[t.ID] = cs.embedded
		}
	}
	cs.shown = cs.embedded
	return cs
}

// add registers a gateway connection and starts its worker.
func (cs *connections) add(cfg persistence.Connection, runInit bool) *connection {
	c := &connection{wb: cs.wb, cfg: cfg, runInit: runInit, q: make(chan queued, 1024)}
	c.esrc = catalogbrowser.NewEngineSource(c.engine, cs.wb.do, func() {
		if cs.shown != c {
			return
		}
		if !c.opened {
			// first shown: open the session's current database
			if cat, db := c.esrc.Current(); cat != "" {
				c.opened = true
				cs.wb.catalog.OpenPath(cat, db)
			}
		}
		cs.wb.catalog.Reload()
	})
	c.src = c.esrc
	go cs.wb.worker(c.q)
	cs.list = append(cs.list, c)
	cs.sort()
	return c
}

func (cs *connections) sort() {
	rest := cs.list[1:]
	sort.Slice(rest, func(i, j int) bool { return strings.ToLower(rest[i].cfg.Name) < strings.ToLower(rest[j].cfg.Name) })
}

func (cs *connections) byName(name string) *connection {
	for _, c := range cs.list {
		if c.cfg.Name == name {
			return c
		}
	}
	return nil
}

func (cs *connections) names() []string {
	out := make([]string, len(cs.list))
	for i, c := range cs.list {
		out[i] = c.cfg.Name
	}
	return out
}

// of returns a tab's connection; a tab seen for the first time (a new
// tab) takes the connection shown.
func (cs *connections) of(t *editorTab) *connection {
	if t == nil {
		return cs.shown
	}
	if c := cs.byTab[t.id]; c != nil {
		return c
	}
	c := cs.shown
	if t.id != 0 {
		cs.set(t, c)
	}
	return c
}

// set stores a tab's connection.
func (cs *connections) set(t *editorTab, c *connection) {
	if t.id == 0 {
		return
	}
	cs.byTab[t.id] = c
	_ = cs.wb.store.SetSetting(context.Background(), settingTabConn+fmt.Sprint(t.id), c.cfg.Name)
}

// closeAll closes the gateway sessions (in the background, waiting at most
// a little while: the gateway expires sessions it is not told about) and
// stops their workers.
func (cs *connections) closeAll(wait time.Duration) {
	var wg sync.WaitGroup
	for _, c := range cs.list {
		if c.embedded() {
			continue
		}
		close(c.q)
		c.mu.Lock()
		eng := c.eng
		c.eng = nil
		c.gen++
		c.mu.Unlock()
		if eng != nil {
			wg.Add(1)
			go func() {
				defer wg.Done()
				eng.Close()
			}()
		}
	}
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(wait):
	}
}

// ---- the workbench's side ----------------------------------------------------

// currentConn is the current editor tab's connection.
func (wb *Workbench) currentConn() *connection { return wb.conns.of(wb.editors.current()) }

// EmbeddedEnv returns the embedded TableEnvironment when the current
// editor tab runs on the embedded engine, nil when it runs on a SQL
// Gateway (what needs the environment, such as per-operator metrics, is
// then unavailable).
func (wb *Workbench) EmbeddedEnv() *table.TableEnvironment { return wb.currentConn().embeddedEnv() }

// syncConnection shows the current tab's connection in the switch and the
// catalog tree (called whenever the status is updated: tab switches).
func (wb *Workbench) syncConnection() {
	if wb.conns == nil || wb.connSel == nil {
		return
	}
	c := wb.currentConn()
	if wb.conns.shown != c {
		wb.conns.shown = c
		wb.catalogErr = ""
		wb.catalog.SetSource(c.src)
	}
	if wb.connSel.Selected != c.cfg.Name {
		wb.connSel.SetSelected(c.cfg.Name)
	}
	wb.updateConnHeader()
}

// setTabConnection moves a tab to connection c (the connection switch).
func (wb *Workbench) setTabConnection(t *editorTab, c *connection) {
	if t == nil || c == nil {
		return
	}
	if wb.conns.byTab[t.id] != c {
		wb.conns.set(t, c)
	}
	wb.updateStatus()
}

// connectionStateChanged redraws what shows a connection's state.
func (wb *Workbench) connectionStateChanged(c *connection) {
	if wb.closed {
		return
	}
	if wb.conns.shown == c {
		wb.updateConnHeader()
		if _, st, _, _ := c.snapshot(); st == connReady && c.esrc != nil {
			// A new session: what was read from an old one is stale.
			c.esrc.Invalidate()
			wb.catalog.Reload()
		}
	}
	wb.updateStatus()
}

// catalogChanged refreshes what a script may have changed in c's catalogs.
func (wb *Workbench) catalogChanged(c *connection) {
	if c != nil && c.esrc != nil {
		c.esrc.Invalidate()
	}
	if c == nil || c == wb.conns.shown {
		wb.catalog.Reload()
	}
}

// refreshCatalog re-reads the shown connection's catalogs (View ▸ Refresh catalog).
func (wb *Workbench) refreshCatalog() { wb.catalogChanged(wb.conns.shown) }

// reportCatalogError reports a failure to read the catalog once (the tree
// keeps showing it).
func (wb *Workbench) reportCatalogError(err error) {
	if err.Error() == wb.catalogErr {
		return
	}
	wb.catalogErr = err.Error()
	if msg, ok := unreachable(err); ok {
		// said already when a statement just failed for the same reason
		if n := len(wb.messages.msgs); n > 0 && strings.HasSuffix(wb.messages.msgs[n-1].text, msg) {
			return
		}
	}
	wb.messages.add(levelError, "Reading the catalog of "+wb.conns.shown.cfg.Name+": "+err.Error(), nil)
}

// connStatus is the connection part of the status bar.
func (wb *Workbench) connStatus() string {
	c := wb.currentConn()
	cfg, st, _, _ := c.snapshot()
	switch st {
	case connConnecting:
		return cfg.Name + " (connecting…)"
	case connFailed:
		return cfg.Name + " (not connected)"
	}
	return cfg.Name
}

// connHeaderText is what the two lines above the catalog tree say: the
// connection's name, and where it is and its state.
func connHeaderText(c *connection) (name, detail string) {
	cfg, st, err, info := c.snapshot()
	if cfg.Kind == persistence.KindEmbedded {
		return cfg.Name, "Riffle's engine in this process"
	}
	host := cfg.URL
	if u, perr := url.Parse(cfg.URL); perr == nil && u.Host != "" {
		host = u.Host
	}
	switch st {
	case connConnecting:
		return cfg.Name, "connecting to " + host + "…"
	case connReady:
		if info != "" {
			return cfg.Name, info + " at " + host
		}
		return cfg.Name, host
	case connFailed:
		return cfg.Name, "not connected: " + firstLine(err.Error())
	}
	return cfg.Name, "SQL Gateway at " + host
}
