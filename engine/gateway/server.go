package gateway

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	_ "github.com/riffle-sql/riffle/engine/connector/all" // sessions use every connector and format
	jsonformat "github.com/riffle-sql/riffle/engine/connector/format/json"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/table"
)

// Config configures a Server. The zero value serves with Flink's defaults.
type Config struct {
	// Token, when set, is the bearer token every request must present
	// ("Authorization: Bearer <token>"); others get 401. ListenAndServe
	// refuses one shorter than MinTokenLength. Empty means no
	// authentication, which ListenAndServe allows on loopback only.
	Token string
	// TLSCertFile and TLSKeyFile, when set, make ListenAndServe serve
	// HTTPS with that PEM certificate chain and key.
	TLSCertFile, TLSKeyFile string
	// Insecure lets ListenAndServe bind a non-loopback address without
	// TLS (the token then crosses the network in clear text).
	Insecure bool
	// AllowedOrigins lists web origins ("https://host:port", or "*")
	// whose browser requests are answered; requests from any other
	// origin than the gateway's own get 403 (see crossOrigin).
	AllowedOrigins []string
	// ReadHeaderTimeout, ReadTimeout and ConnIdleTimeout bound how long
	// ListenAndServe waits for a request's headers (default 10 s), its
	// whole body (60 s) and the next request on a kept-alive connection
	// (2 minutes), so that slow or silent clients cannot hold connections.
	ReadHeaderTimeout, ReadTimeout, ConnIdleTimeout time.Duration
	// AllowPaths, when set, limits the files tables may reach to these
	// directories (symbolic links resolved; see PathPolicy). NewServer
	// panics on a directory that does not exist: check it first with
	// PathPolicy, as ListenAndServe does.
	AllowPaths []string
	// IdleTimeout closes sessions without a request for this long
	// (sql-gateway.session.idle-timeout, default 10 minutes); negative
	// means never.
	IdleTimeout time.Duration
	// CheckInterval is how often idle sessions are looked for
	// (sql-gateway.session.check-interval, default 1 minute).
	CheckInterval time.Duration
	// MaxSessions caps open sessions (sql-gateway.session.max-num, default
	// 1,000,000).
	MaxSessions int
	// MaxSessionQueries caps the open queries of one session (Riffle's
	// sql-gateway.session.max-open-queries, default 16): queries whose
	// operation is not closed and whose results were not fetched to the
	// end. Each holds a running job and a result buffer of up to twice
	// collect-sink.batch-size.max bytes; one more fails with an error
	// naming the option.
	MaxSessionQueries int
	// MaxQueries caps the open queries of all sessions together (Riffle's
	// sql-gateway.max-open-queries, default 256).
	MaxQueries int
	// PageRows caps the rows of one fetched page (default 4096).
	PageRows int
	// FetchWait is how long a fetch waits for the first rows of a page, or
	// for a statement still being executed, before answering with an empty
	// PAYLOAD or NOT_READY (default 200 ms). Clients then fetch again.
	FetchWait time.Duration
	// MaxRequestBytes caps request bodies (default 16 MiB).
	MaxRequestBytes int64
	// CloseWait bounds how long closing a session waits for its cancelled
	// jobs to stop (default 10 s).
	CloseWait time.Duration
	// JobStoreExpiration is how long SHOW JOBS still lists a job of a
	// closed session after it ended (Flink's jobstore.expiration-time;
	// 0 means DefaultJobStoreExpiration, one hour).
	JobStoreExpiration time.Duration
	// JobStoreMaxCapacity caps the ended jobs of closed sessions SHOW JOBS
	// lists; past it the ones that ended first are forgotten (Flink's
	// jobstore.max-capacity; 0 means DefaultJobStoreMaxCapacity, 1000).
	// Running jobs are always listed.
	JobStoreMaxCapacity int
	// Defaults are session properties every new session starts with
	// (a session's own properties override them).
	Defaults map[string]string
	// ProductName and Version answer GET /info (default "Riffle" and
	// "dev").
	ProductName, Version string
	// PrintOutput receives the rows of the print connector (default the
	// process's standard output).
	PrintOutput io.Writer
	// Now is the clock of session expiry (default time.Now).
	Now func() time.Time
	// Ticks, when set, replaces the CheckInterval ticker (tests drive
	// expiry with it).
	Ticks <-chan time.Time
	// Logf, when set, receives one line per closed or expired session and
	// per job resumed or not resumed.
	Logf func(format string, args ...any)
	// ResumeDir, when set, is the folder where the server keeps what its
	// sessions' checkpointed streaming INSERT jobs need to run again
	// (riffle gateway --resume-jobs; resume.go): NewServer runs the jobs
	// recorded there by an earlier server again, each from its latest
	// checkpoint, and Close stops the recorded jobs with a savepoint
	// there instead of cancelling them. NewServer creates the folder; when
	// it cannot, it logs why and keeps no jobs.
	ResumeDir string
}

// The defaults of Config.MaxSessionQueries and Config.MaxQueries.
const (
	DefaultMaxSessionQueries = 16
	DefaultMaxQueries        = 256
)

func (c *Config) setDefaults() {
	if c.IdleTimeout == 0 {
		c.IdleTimeout = 10 * time.Minute
	}
	if c.CheckInterval <= 0 {
		c.CheckInterval = time.Minute
	}
	if c.MaxSessions <= 0 {
		c.MaxSessions = 1_000_000
	}
	if c.MaxSessionQueries <= 0 {
		c.MaxSessionQueries = DefaultMaxSessionQueries
	}
	if c.MaxQueries <= 0 {
		c.MaxQueries = DefaultMaxQueries
	}
	if c.PageRows <= 0 {
		c.PageRows = 4096
	}
	if c.FetchWait <= 0 {
		c.FetchWait = 200 * time.Millisecond
	}
	if c.MaxRequestBytes <= 0 {
		c.MaxRequestBytes = 16 << 20
	}
	if c.CloseWait <= 0 {
		c.CloseWait = 10 * time.Second
	}
	if c.ProductName == "" {
		c.ProductName = "Riffle"
	}
	if c.Version == "" {
		c.Version = "dev"
	}
	if c.Now == nil {
		c.Now = time.Now
	}
}

// Server serves the SQL Gateway REST API over Riffle's embedded engine.
// Each session owns a table.TableEnvironment. It is an http.Handler; Close
// ends every session.
type Server struct {
	cfg       Config
	handler   http.Handler
	tokenHash [32]byte
	checkPath func(string) error

	// openQueries counts the open queries of every session
	// (session.admitQuery).
	openQueries atomic.Int64

	mu       sync.Mutex
	sessions map[string]*session
	closed   bool

	// detached holds the jobs of closed sessions: those still running and,
	// for a while, those that ended (jobs.go).
	detached jobRegistry

	// keeper records jobs for resuming (Config.ResumeDir), or is nil.
	keeper *jobKeeper

	stop     chan struct{}
	loopDone chan struct{}
}

// NewServer creates a server and starts its session-expiry loop.
func NewServer(cfg Config) *Server {
	cfg.setDefaults()
	s := &Server{cfg: cfg, sessions: map[string]*session{}, stop: make(chan struct{}), loopDone: make(chan struct{})}
	s.detached.expiration, s.detached.capacity = cfg.JobStoreExpiration, cfg.JobStoreMaxCapacity
	if cfg.Token != "" {
		s.tokenHash = sha256.Sum256([]byte(cfg.Token))
	}
	if len(cfg.AllowPaths) > 0 {
		check, err := PathPolicy(cfg.AllowPaths)
		if err != nil {
			panic(err)
		}
		s.checkPath = check
	}
	s.handler = s.routes()
	go s.expiryLoop()
	if cfg.ResumeDir != "" {
		if err := os.MkdirAll(cfg.ResumeDir, 0o700); err != nil {
			s.logf("jobs are not kept for resuming: %v", err)
		} else {
			s.keeper = &jobKeeper{dir: cfg.ResumeDir, running: map[string]*keptJob{}}
			s.resumeJobs()
		}
	}
	return s
}

func (s *Server) now() time.Time { return s.cfg.Now() }

// ServeHTTP implements http.Handler: it checks the bearer token, then
// routes the request.
//
// Without a token the server is meant for this machine only: it refuses
// (403) requests whose Host header names anything but a loopback address,
// so that a web page cannot reach it through DNS rebinding. With or
// without one, it refuses (403) browser requests from another web origin
// than its own (Config.AllowedOrigins), so that a page cannot drive it
// with a cross-origin POST that needs no preflight.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if why := crossOrigin(r, s.cfg.AllowedOrigins); why != "" {
		writeJSON(w, http.StatusForbidden, ErrorResponse{Errors: []string{"Forbidden: a request from another web origin (" + why + ")."}})
		return
	}
	if s.cfg.Token != "" {
		if !s.authorized(r) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="riffle"`)
			writeJSON(w, http.StatusUnauthorized, ErrorResponse{Errors: []string{"Unauthorized."}})
			return
		}
	} else if !IsLoopback(r.Host) {
		writeJSON(w, http.StatusForbidden, ErrorResponse{Errors: []string{"Forbidden: without a token the gateway only answers requests addressed to a loopback host."}})
		return
	}
	s.handler.ServeHTTP(w, r)
}

// authorized compares the bearer token in constant time (of the digests,
// so the token's length does not leak either).
func (s *Server) authorized(r *http.Request) bool {
	h := r.Header.Get("Authorization")
	const prefix = "Bearer "
	if len(h) < len(prefix) || !strings.EqualFold(h[:len(prefix)], prefix) {
		return false
	}
	got := sha256.Sum256([]byte(strings.TrimSpace(h[len(prefix):])))
	return subtle.ConstantTimeCompare(got[:], s.tokenHash[:]) == 1
}

// Close closes every session, cancels every job (those kept after their
// session closed too) and stops the expiry loop. The server answers later
// requests with errors.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	sessions := s.sessions
	s.sessions = map[string]*session{}
	s.mu.Unlock()
	if s.keeper != nil {
		s.keeper.stopForResume(s, s.cfg.CloseWait)
	}
	close(s.stop)
	<-s.loopDone
	var wg sync.WaitGroup
	for _, ss := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ss.close(s.cfg.CloseWait)
		}()
	}
	wg.Wait()
	deadline, cancel := context.WithTimeout(context.Background(), s.cfg.CloseWait)
	defer cancel()
	s.detached.cancelAll(deadline.Done())
	return nil
}

// SessionCount returns the number of open sessions.
func (s *Server) SessionCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.sessions)
}

func (s *Server) expiryLoop() {
	defer close(s.loopDone)
	if s.cfg.IdleTimeout < 0 {
		<-s.stop
		return
	}
	ticks := s.cfg.Ticks
	if ticks == nil {
		t := time.NewTicker(s.cfg.CheckInterval)
		defer t.Stop()
		ticks = t.C
	}
	for {
		select {
		case <-s.stop:
			return
		case <-ticks:
			s.expireIdle()
		}
	}
}

// expireIdle closes the sessions idle for longer than IdleTimeout.
func (s *Server) expireIdle() {
	now := s.now()
	var expired []*session
	s.mu.Lock()
	for id, ss := range s.sessions {
		if now.Sub(ss.idleSince()) > s.cfg.IdleTimeout {
			expired = append(expired, ss)
			delete(s.sessions, id)
		}
	}
	s.mu.Unlock()
	for _, ss := range expired {
		runOn := ss.close(s.cfg.CloseWait)
		s.logf("session %s (%q) expired after %s idle%s", ss.id, ss.name, s.cfg.IdleTimeout, runOnText(runOn))
	}
}

func (s *Server) logf(format string, args ...any) {
	if s.cfg.Logf != nil {
		s.cfg.Logf(format, args...)
	}
}

// session finds an open session and marks it used.
func (s *Server) session(id string) (*session, error) { return s.sessionFor(id, "getSessionConfig") }

// sessionFor finds an open session and marks it used. op names the service
// call for the error, as Flink's handlers do ("Failed to getSessionConfig."
// caused by "Session '<id>' does not exist.").
func (s *Server) sessionFor(id, op string) (*session, error) {
	if !isUUID(id) {
		return nil, badHandle("session_handle", id)
	}
	s.mu.Lock()
	ss, ok := s.sessions[id]
	s.mu.Unlock()
	if !ok {
		return nil, opError(op, &causeError{class: classGatewayException, msg: fmt.Sprintf("Session '%s' does not exist.", id)})
	}
	ss.touch()
	return ss, nil
}

// badHandle is Flink's 400 for a path parameter that is not a UUID.
func badHandle(param, value string) *httpError {
	return badRequest(fmt.Sprintf("Bad request, could not parse parameters: Cannot resolve path parameter (%s) from value \"%s\": not a UUID.", param, value))
}

// ---- routing ----------------------------------------------------------------

type versionedHandler func(w http.ResponseWriter, r *http.Request, v APIVersion) error

func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	paths := map[string]bool{}
	add := func(method, path string, minVersion APIVersion, h versionedHandler) {
		for _, v := range []APIVersion{0, V1, V2, V3, V4} {
			version, prefix := v, "/"+v.Prefix()
			if v == 0 {
				version, prefix = DefaultVersion, ""
			}
			if version < minVersion {
				continue
			}
			mux.HandleFunc(method+" "+prefix+path, func(w http.ResponseWriter, r *http.Request) {
				if err := h(w, r, version); err != nil {
					writeError(w, err)
				}
			})
			paths[prefix+path] = true
		}
	}
	add("GET", "/api_versions", V1, s.handleAPIVersions)
	add("GET", "/info", V1, s.handleInfo)
	add("POST", "/sessions", V1, s.handleOpenSession)
	add("GET", "/sessions/{session_handle}", V1, s.handleGetSession)
	add("DELETE", "/sessions/{session_handle}", V1, s.handleCloseSession)
	add("POST", "/sessions/{session_handle}/heartbeat", V1, s.handleHeartbeat)
	add("POST", "/sessions/{session_handle}/configure-session", V2, s.handleConfigureSession)
	add("GET", "/sessions/{session_handle}/complete-statement", V2, s.handleCompleteStatement)
	add("POST", "/sessions/{session_handle}/statements", V1, s.handleExecuteStatement)
	add("GET", "/sessions/{session_handle}/operations/{operation_handle}/status", V1, s.handleOperationStatus)
	add("POST", "/sessions/{session_handle}/operations/{operation_handle}/cancel", V1, s.handleCancelOperation)
	add("DELETE", "/sessions/{session_handle}/operations/{operation_handle}/close", V1, s.handleCloseOperation)
	add("GET", "/sessions/{session_handle}/operations/{operation_handle}/result/{token}", V1, s.handleFetchResults)
	notFound := func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusNotFound, ErrorResponse{Errors: []string{"Not found: " + r.URL.Path}})
	}
	for p := range paths {
		mux.HandleFunc(p, notFound) // other methods on a known path: 404, as Flink's router
	}
	mux.HandleFunc("/", notFound)
	return mux
}

// writeJSON writes v with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		b = []byte(`{"errors":["Internal server error."]}`)
	}
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

func writeError(w http.ResponseWriter, err error) {
	var he *httpError
	if !errors.As(err, &he) {
		he = serviceError(err.Error(), nil)
	}
	writeJSON(w, he.status, ErrorResponse{Errors: he.msgs})
}

// readBody decodes an optional JSON request body into v; an empty body is
// {}.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request, v any, name string) error {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.cfg.MaxRequestBytes))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return &httpError{status: http.StatusRequestEntityTooLarge, msgs: []string{fmt.Sprintf("Request body exceeds %d bytes.", mbe.Limit)}}
		}
		return badRequest("Could not read the request body.")
	}
	if len(strings.TrimSpace(string(body))) == 0 {
		return nil
	}
	if err := json.Unmarshal(body, v); err != nil {
		return badRequest(fmt.Sprintf("Request did not match expected format %s.", name))
	}
	return nil
}

var emptyBody = struct{}{}

// ---- handlers -----------------------------------------------------------------

func (s *Server) handleAPIVersions(w http.ResponseWriter, _ *http.Request, _ APIVersion) error {
	writeJSON(w, http.StatusOK, GetAPIVersionResponse{Versions: []string{V1.String(), V2.String()}})
	return nil
}

func (s *Server) handleInfo(w http.ResponseWriter, _ *http.Request, _ APIVersion) error {
	writeJSON(w, http.StatusOK, GetInfoResponse{ProductName: s.cfg.ProductName, Version: s.cfg.Version})
	return nil
}

func (s *Server) handleOpenSession(w http.ResponseWriter, r *http.Request, _ APIVersion) error {
	var req OpenSessionRequest
	if err := s.readBody(w, r, &req, "OpenSessionRequestBody"); err != nil {
		return err
	}
	s.mu.Lock()
	closed, n := s.closed, len(s.sessions)
	s.mu.Unlock()
	if closed {
		return serviceError("Failed to openSession.", errors.New("The gateway is shutting down."))
	}
	if n >= s.cfg.MaxSessions {
		return serviceError("Failed to openSession.", fmt.Errorf("Failed to create session, the count of active sessions exceeds the max count: %d", s.cfg.MaxSessions))
	}
	ss, err := s.newSession(req.SessionName, req.Properties)
	if err != nil {
		return serviceError("Failed to openSession.", err)
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		ss.close(0)
		return serviceError("Failed to openSession.", errors.New("The gateway is shutting down."))
	}
	s.sessions[ss.id] = ss
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, OpenSessionResponse{SessionHandle: ss.id})
	return nil
}

func (s *Server) handleGetSession(w http.ResponseWriter, r *http.Request, _ APIVersion) error {
	ss, err := s.sessionFor(r.PathValue("session_handle"), "getSessionConfig")
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, GetSessionConfigResponse{Properties: ss.env.Config().Configuration().ToMap()})
	return nil
}

func (s *Server) handleCloseSession(w http.ResponseWriter, r *http.Request, _ APIVersion) error {
	ss, err := s.sessionFor(r.PathValue("session_handle"), "closeSession")
	if err != nil {
		return err
	}
	s.mu.Lock()
	delete(s.sessions, ss.id)
	s.mu.Unlock()
	runOn := ss.close(s.cfg.CloseWait)
	// one line for the session, naming the INSERT jobs that run on
	s.logf("session %s (%q) closed%s", ss.id, ss.name, runOnText(runOn))
	writeJSON(w, http.StatusOK, CloseSessionResponse{Status: string(StatusClosed)})
	return nil
}

func (s *Server) handleHeartbeat(w http.ResponseWriter, r *http.Request, _ APIVersion) error {
	if _, err := s.sessionFor(r.PathValue("session_handle"), "getSessionConfig"); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, emptyBody)
	return nil
}

func (s *Server) handleConfigureSession(w http.ResponseWriter, r *http.Request, _ APIVersion) error {
	ss, err := s.sessionFor(r.PathValue("session_handle"), "configure session")
	if err != nil {
		return err
	}
	var req ConfigureSessionRequest
	if err := s.readBody(w, r, &req, "ConfigureSessionRequestBody"); err != nil {
		return err
	}
	stmts, err := sql.ParseScript(req.Statement)
	if err != nil {
		return serviceError("Failed to configure session.", err)
	}
	if len(stmts) != 1 {
		return serviceError("Failed to configure session.", errors.New("Unsupported SQL statement! Configure session only accepts a single SQL statement."))
	}
	if !configureAllowed(stmts[0]) {
		return serviceError("Failed to configure session.", fmt.Errorf("Unsupported statement for configuring session:%s\n"+
			"The configureSession API only supports to execute statement of type CREATE TABLE, DROP TABLE, ALTER TABLE, "+
			"CREATE DATABASE, DROP DATABASE, ALTER DATABASE, CREATE FUNCTION, DROP FUNCTION, ALTER FUNCTION, "+
			"CREATE CATALOG, DROP CATALOG, USE CATALOG, USE [CATALOG.]DATABASE, CREATE VIEW, DROP VIEW, "+
			"LOAD MODULE, UNLOAD MODULE, USE MODULE, ADD JAR.", req.Statement))
	}
	if err := ss.run(r.Context(), req.Statement, time.Duration(req.ExecutionTimeout)*time.Millisecond); err != nil {
		return serviceError("Failed to configure session.", err)
	}
	writeJSON(w, http.StatusOK, emptyBody)
	return nil
}

func (s *Server) handleCompleteStatement(w http.ResponseWriter, r *http.Request, _ APIVersion) error {
	ss, err := s.sessionFor(r.PathValue("session_handle"), "completeStatement")
	if err != nil {
		return err
	}
	var req CompleteStatementRequest
	if err := s.readBody(w, r, &req, "CompleteStatementRequestBody"); err != nil {
		return err
	}
	cands := table.CompleteStatement(ss.env, req.Statement, req.Position)
	writeJSON(w, http.StatusOK, CompleteStatementResponse{Candidates: cands})
	return nil
}

func (s *Server) handleExecuteStatement(w http.ResponseWriter, r *http.Request, _ APIVersion) error {
	ss, err := s.sessionFor(r.PathValue("session_handle"), "execute statement")
	if err != nil {
		return err
	}
	var req ExecuteStatementRequest
	if err := s.readBody(w, r, &req, "ExecuteStatementRequestBody"); err != nil {
		return err
	}
	if req.ExecutionTimeout < 0 {
		req.ExecutionTimeout = 0
	}
	o, err := ss.submit(req.Statement, req.ExecutionConfig, time.Duration(req.ExecutionTimeout)*time.Millisecond)
	if err != nil {
		return serviceError("Failed to executeStatement.", err)
	}
	writeJSON(w, http.StatusOK, ExecuteStatementResponse{OperationHandle: o.id})
	return nil
}

// operationOf resolves the session and operation of a request.
func (s *Server) operationOf(r *http.Request, op string) (*session, *operation, error) {
	ss, err := s.sessionFor(r.PathValue("session_handle"), op)
	if err != nil {
		return nil, nil, err
	}
	id := r.PathValue("operation_handle")
	if !isUUID(id) {
		return nil, nil, badHandle("operation_handle", id)
	}
	o, err := ss.operation(id)
	if err != nil {
		return nil, nil, opError(op, err)
	}
	return ss, o, nil
}

func (s *Server) handleOperationStatus(w http.ResponseWriter, r *http.Request, _ APIVersion) error {
	_, o, err := s.operationOf(r, "getOperationInfo")
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, OperationStatusResponse{Status: string(o.Status())})
	return nil
}

func (s *Server) handleCancelOperation(w http.ResponseWriter, r *http.Request, _ APIVersion) error {
	_, o, err := s.operationOf(r, "cancelOperation")
	if err != nil {
		return err
	}
	if err := o.cancelOp(); err != nil {
		return serviceError("Failed to cancelOperation.", err)
	}
	writeJSON(w, http.StatusOK, OperationStatusResponse{Status: string(StatusCanceled)})
	return nil
}

func (s *Server) handleCloseOperation(w http.ResponseWriter, r *http.Request, _ APIVersion) error {
	ss, err := s.sessionFor(r.PathValue("session_handle"), "closeOperation")
	if err != nil {
		return err
	}
	id := r.PathValue("operation_handle")
	if !isUUID(id) {
		return badHandle("operation_handle", id)
	}
	ss.closeOperation(id)
	writeJSON(w, http.StatusOK, OperationStatusResponse{Status: string(StatusClosed)})
	return nil
}

func (s *Server) handleFetchResults(w http.ResponseWriter, r *http.Request, v APIVersion) error {
	ss, o, err := s.operationOf(r, "fetchResults")
	if err != nil {
		return err
	}
	token, perr := strconv.ParseInt(r.PathValue("token"), 10, 64)
	if perr != nil || token < 0 {
		return badRequest(fmt.Sprintf("Invalid token '%s': not a non-negative integer.", r.PathValue("token")))
	}
	format := RowFormatJSON
	if v >= V2 {
		switch f := r.URL.Query().Get("rowFormat"); RowFormat(strings.ToUpper(f)) {
		case RowFormatJSON:
		case RowFormatPlainText:
			format = RowFormatPlainText
		case "":
			return badRequest("Missing required query parameter 'rowFormat' (JSON or PLAIN_TEXT).")
		default:
			return badRequest(fmt.Sprintf("Invalid rowFormat '%s': expected JSON or PLAIN_TEXT.", f))
		}
	}
	// Wait a little for a statement still being executed.
	st := o.Status()
	if !st.IsTerminal() {
		o.waitChange(r.Context(), s.cfg.FetchWait)
		st = o.Status()
	}
	switch st {
	case StatusInitialized, StatusPending, StatusRunning:
		s.writeFetch(w, v, ss.id, o, format, fetchResult{typ: ResultNotReady, nextToken: 0})
		return nil
	case StatusError:
		o.mu.Lock()
		cause := o.err
		o.mu.Unlock()
		return opError("fetchResults", &causeError{class: classExecutionException,
			msg: fmt.Sprintf("Failed to execute the operation %s.", o.id), cause: cause})
	case StatusFinished:
	default:
		return opError("fetchResults", fmt.Errorf("Can not fetch results from the OperationHandle{identifier=%s} in %s status.", o.id, st))
	}
	fr, err := o.fetch.fetchPage(r.Context(), token, s.cfg.FetchWait)
	if err != nil {
		if r.Context().Err() != nil {
			return nil // the client went away
		}
		return opError("fetchResults", err)
	}
	s.writeFetch(w, v, ss.id, o, format, fr)
	return nil
}

var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 64<<10); return &b }}

// writeFetch writes a FetchResultsResponseBody as Flink's serializer does:
// resultType; unless NOT_READY, isQueryResult, jobID (when there is a
// job), resultKind and results; nextResultUri while more may come.
func (s *Server) writeFetch(w http.ResponseWriter, v APIVersion, sessionID string, o *operation, format RowFormat, fr fetchResult) {
	bp := bufPool.Get().(*[]byte)
	buf := (*bp)[:0]
	buf = append(buf, `{"resultType":"`...)
	buf = append(buf, fr.typ...)
	buf = append(buf, '"')
	if fr.typ != ResultNotReady {
		res := o.result
		buf = append(buf, `,"isQueryResult":`...)
		buf = strconv.AppendBool(buf, res.isQuery)
		if res.jobID != "" {
			buf = append(buf, `,"jobID":`...)
			buf = jsonformat.AppendString(buf, res.jobID)
		}
		buf = append(buf, `,"resultKind":"`...)
		buf = append(buf, res.kind...)
		buf = append(buf, `","results":{"columns":[`...)
		for i, n := range res.names {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = append(buf, `{"name":`...)
			buf = jsonformat.AppendString(buf, n)
			buf = append(buf, `,"logicalType":`...)
			buf = AppendLogicalType(buf, res.types[i])
			buf = append(buf, `,"comment":null}`...)
		}
		buf = append(buf, `],"rowFormat":"`...)
		buf = append(buf, format...)
		buf = append(buf, `","data":[`...)
		buf = appendRows(buf, fr.rows.batches, res.types, format, o.sess.timeZone())
		buf = append(buf, "]}"...)
	}
	if fr.nextToken >= 0 {
		buf = append(buf, `,"nextResultUri":"/`...)
		buf = append(buf, v.Prefix()...)
		buf = append(buf, "/sessions/"...)
		buf = append(buf, sessionID...)
		buf = append(buf, "/operations/"...)
		buf = append(buf, o.id...)
		buf = append(buf, "/result/"...)
		buf = strconv.AppendInt(buf, fr.nextToken, 10)
		if v >= V2 {
			buf = append(buf, "?rowFormat="...)
			buf = append(buf, format...)
		}
		buf = append(buf, '"')
	}
	buf = append(buf, '}')
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(buf)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(buf)
	if cap(buf) <= 4<<20 {
		*bp = buf
		bufPool.Put(bp)
	}
}
