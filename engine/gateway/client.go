package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Client is a low-level client of a SQL Gateway REST endpoint, Riffle's
// or a Flink cluster's: one method per endpoint. It is safe for concurrent
// use. Errors answered by the gateway are *Error; a gateway that cannot be
// reached (refused, unknown host, no answer) is a *ConnectionError.
type Client struct {
	base    *url.URL
	token   string
	http    *http.Client
	version APIVersion
	retries int
}

// ClientOptions configure a Client.
type ClientOptions struct {
	// Token is sent as "Authorization: Bearer <token>". When empty and the
	// endpoint is on a loopback host, the token a local `riffle gateway`
	// wrote to its token file for that port is sent (FindToken).
	Token string
	// HTTPClient is the HTTP client (default: one with a 5-minute overall
	// timeout per request).
	HTTPClient *http.Client
	// Version is the API version to speak; 0 negotiates it with GET
	// /api_versions on first use of Negotiate (NewRemote does), otherwise
	// DefaultVersion.
	Version APIVersion
	// Retries is how often a request that failed in transport (connection
	// refused or reset, no answer) is retried, with back-off (default 3):
	// any request that never reached the server, and idempotent ones (GET,
	// DELETE, heartbeat; a retried fetch of a token returns the same page).
	Retries int
}

// NewClient creates a client of the gateway at endpoint, e.g.
// "http://localhost:8083" (a path prefix is kept, for gateways behind a
// proxy).
func NewClient(endpoint string, opts ClientOptions) (*Client, error) {
	if !strings.Contains(endpoint, "://") {
		endpoint = "http://" + endpoint
	}
	u, err := url.Parse(endpoint)
	if err != nil {
		return nil, fmt.Errorf("gateway: bad endpoint %q: %w", endpoint, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("gateway: bad endpoint %q: want http or https", endpoint)
	}
	u.Path = strings.TrimRight(u.Path, "/")
	hc := opts.HTTPClient
	if hc == nil {
		hc = &http.Client{Timeout: 5 * time.Minute}
	}
	v := opts.Version
	if v == 0 {
		v = DefaultVersion
	}
	retries := opts.Retries
	if retries == 0 {
		retries = 3
	}
	token := opts.Token
	if token == "" {
		token = FindToken(u.String())
	}
	return &Client{base: u, token: token, http: hc, version: v, retries: retries}, nil
}

// Version is the API version the client speaks.
func (c *Client) Version() APIVersion { return c.version }

// Negotiate asks the gateway for its versions and speaks the highest one
// both know (V1..V4); it returns it.
func (c *Client) Negotiate(ctx context.Context) (APIVersion, error) {
	vs, err := c.APIVersions(ctx)
	if err != nil {
		return 0, err
	}
	best := APIVersion(0)
	for _, s := range vs {
		if v, ok := ParseAPIVersion(s); ok && v > best {
			best = v
		}
	}
	if best == 0 {
		return 0, fmt.Errorf("gateway: no common API version (server offers %v)", vs)
	}
	c.version = best
	return best, nil
}

// do sends a request and decodes a JSON answer into out (nil: ignore the
// body). path is relative to the versioned root unless it starts with
// "/v" or absolute is set.
func (c *Client) do(ctx context.Context, method, path string, body, out any) error {
	raw, err := c.doRaw(ctx, method, path, body)
	if err != nil {
		return err
	}
	if out == nil || len(raw) == 0 {
		return nil
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("gateway: %s %s: bad answer: %w", method, path, err)
	}
	return nil
}

// url builds the URL of a path: versioned unless it already is.
func (c *Client) url(path string) string {
	u := *c.base
	rel, query, _ := strings.Cut(path, "?")
	if !hasVersionPrefix(rel) && rel != "/api_versions" && rel != "/info" {
		rel = "/" + c.version.Prefix() + rel
	}
	u.Path = c.base.Path + rel
	u.RawQuery = query
	return u.String()
}

func hasVersionPrefix(p string) bool {
	if len(p) < 3 || p[0] != '/' || p[1] != 'v' {
		return false
	}
	i := 2
	for i < len(p) && p[i] >= '0' && p[i] <= '9' {
		i++
	}
	return i > 2 && (i == len(p) || p[i] == '/')
}

func (c *Client) doRaw(ctx context.Context, method, path string, body any) ([]byte, error) {
	var payload []byte
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		payload = b
	}
	target := c.url(path)
	backoff := 50 * time.Millisecond
	for attempt := 0; ; attempt++ {
		var rd io.Reader
		if payload != nil {
			rd = bytes.NewReader(payload)
		}
		req, err := http.NewRequestWithContext(ctx, method, target, rd)
		if err != nil {
			return nil, err
		}
		if payload != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		req.Header.Set("Accept", "application/json")
		if c.token != "" {
			req.Header.Set("Authorization", "Bearer "+c.token)
		}
		resp, err := c.http.Do(req)
		if err != nil {
			if ctx.Err() != nil {
				return nil, fmt.Errorf("gateway: %s %s: %w", method, target, err)
			}
			if attempt >= c.retries || !retryable(method, path, err) {
				return nil, &ConnectionError{Addr: c.base.Host, Method: method, URL: target, Err: err}
			}
			if werr := sleepCtx(ctx, backoff); werr != nil {
				return nil, werr
			}
			backoff *= 2
			continue
		}
		raw, err := readBody(resp)
		resp.Body.Close()
		if err != nil {
			if ctx.Err() != nil || attempt >= c.retries {
				return nil, fmt.Errorf("gateway: %s %s: reading the answer: %w", method, target, err)
			}
			if werr := sleepCtx(ctx, backoff); werr != nil {
				return nil, werr
			}
			backoff *= 2
			continue
		}
		if resp.StatusCode/100 != 2 {
			ge := &Error{StatusCode: resp.StatusCode}
			var er ErrorResponse
			if json.Unmarshal(raw, &er) == nil && len(er.Errors) > 0 {
				ge.Errors = er.Errors
			} else if s := strings.TrimSpace(string(raw)); s != "" {
				ge.Errors = []string{s}
			}
			return nil, ge
		}
		return raw, nil
	}
}

// ConnectionError is a request that did not reach the gateway or got no
// answer from it: the connection was refused or reset, the host is
// unknown, the request timed out. It is no fault of the statement sent.
type ConnectionError struct {
	// Addr is the gateway's host and port as configured.
	Addr string
	// Method and URL are the request's.
	Method, URL string
	// Err is the transport's error.
	Err error
}

// Error says which gateway could not be reached, and why, in a few words:
// "cannot reach the SQL Gateway at 127.0.0.1:8083: connection refused".
func (e *ConnectionError) Error() string {
	return "cannot reach the SQL Gateway at " + e.Addr + ": " + e.Reason()
}

// Unwrap returns the transport's error.
func (e *ConnectionError) Unwrap() error { return e.Err }

// Reason is the cause without the request and the layers of wrapping that
// net/http puts around it: "connection refused", "no such host",
// "timed out".
func (e *ConnectionError) Reason() string {
	err := e.Err
	var dns *net.DNSError
	if errors.As(err, &dns) {
		if dns.IsNotFound {
			return "no such host"
		}
		return dns.Err
	}
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return errno.Error()
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, os.ErrDeadlineExceeded) {
		return "timed out"
	}
	if te, ok := err.(interface{ Timeout() bool }); ok && te.Timeout() {
		return "timed out"
	}
	var oe *net.OpError
	if errors.As(err, &oe) && oe.Err != nil {
		return oe.Err.Error()
	}
	var ue *url.Error
	if errors.As(err, &ue) && ue.Err != nil {
		return ue.Err.Error()
	}
	if err == nil {
		return "no answer"
	}
	return err.Error()
}

// retryable reports whether a request that failed in transport may be sent
// again: one that never reached the server (the connection was refused),
// or an idempotent one (GET, DELETE, heartbeat; a fetch of the same token
// returns the same page). Opening a session or submitting a statement is
// not repeated when it may have arrived.
func retryable(method, path string, err error) bool {
	var oe *net.OpError
	if errors.As(err, &oe) && oe.Op == "dial" {
		return true
	}
	return method == http.MethodGet || method == http.MethodDelete || strings.HasSuffix(path, "/heartbeat")
}

// readBody reads an answer, in one allocation when its length is known.
func readBody(resp *http.Response) ([]byte, error) {
	if n := resp.ContentLength; n > 0 && n < 1<<30 {
		buf := make([]byte, n)
		if _, err := io.ReadFull(resp.Body, buf); err != nil {
			return nil, err
		}
		return buf, nil
	}
	return io.ReadAll(resp.Body)
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// APIVersions lists the versions the gateway offers (GET /api_versions),
// e.g. ["V1", "V2"].
func (c *Client) APIVersions(ctx context.Context) ([]string, error) {
	var out GetAPIVersionResponse
	err := c.do(ctx, http.MethodGet, "/api_versions", nil, &out)
	return out.Versions, err
}

// Info returns the gateway's product name and version (GET /info).
func (c *Client) Info(ctx context.Context) (GetInfoResponse, error) {
	var out GetInfoResponse
	err := c.do(ctx, http.MethodGet, "/info", nil, &out)
	return out, err
}

// OpenSession opens a session and returns its handle.
func (c *Client) OpenSession(ctx context.Context, req OpenSessionRequest) (string, error) {
	var out OpenSessionResponse
	if err := c.do(ctx, http.MethodPost, "/sessions", req, &out); err != nil {
		return "", err
	}
	if out.SessionHandle == "" {
		return "", errors.New("gateway: open session: no session handle in the answer")
	}
	return out.SessionHandle, nil
}

// GetSessionConfig returns a session's configuration.
func (c *Client) GetSessionConfig(ctx context.Context, session string) (map[string]string, error) {
	var out GetSessionConfigResponse
	err := c.do(ctx, http.MethodGet, "/sessions/"+url.PathEscape(session), nil, &out)
	return out.Properties, err
}

// ConfigureSession runs a SET, RESET, DDL, USE, LOAD/UNLOAD MODULE or ADD
// JAR statement at once (v2+); timeout 0 means none.
func (c *Client) ConfigureSession(ctx context.Context, session, statement string, timeout time.Duration) error {
	return c.do(ctx, http.MethodPost, "/sessions/"+url.PathEscape(session)+"/configure-session",
		ConfigureSessionRequest{Statement: statement, ExecutionTimeout: timeout.Milliseconds()}, nil)
}

// Heartbeat keeps a session from expiring.
func (c *Client) Heartbeat(ctx context.Context, session string) error {
	return c.do(ctx, http.MethodPost, "/sessions/"+url.PathEscape(session)+"/heartbeat", nil, nil)
}

// CloseSession closes a session (its jobs are cancelled on Riffle's
// gateway).
func (c *Client) CloseSession(ctx context.Context, session string) error {
	return c.do(ctx, http.MethodDelete, "/sessions/"+url.PathEscape(session), nil, nil)
}

// CompleteStatement returns completion candidates for the word at
// position (v2+; UTF-16 code units).
func (c *Client) CompleteStatement(ctx context.Context, session, statement string, position int) ([]string, error) {
	var out CompleteStatementResponse
	err := c.do(ctx, http.MethodGet, "/sessions/"+url.PathEscape(session)+"/complete-statement",
		CompleteStatementRequest{Statement: statement, Position: position}, &out)
	return out.Candidates, err
}

// ExecuteStatement submits a statement and returns its operation handle.
// The statement runs asynchronously: its errors surface when its results
// are fetched.
func (c *Client) ExecuteStatement(ctx context.Context, session string, req ExecuteStatementRequest) (string, error) {
	var out ExecuteStatementResponse
	if err := c.do(ctx, http.MethodPost, "/sessions/"+url.PathEscape(session)+"/statements", req, &out); err != nil {
		return "", err
	}
	if out.OperationHandle == "" {
		return "", errors.New("gateway: execute statement: no operation handle in the answer")
	}
	return out.OperationHandle, nil
}

func opPath(session, op string) string {
	return "/sessions/" + url.PathEscape(session) + "/operations/" + url.PathEscape(op)
}

// OperationStatus returns an operation's state.
func (c *Client) OperationStatus(ctx context.Context, session, op string) (OperationStatus, error) {
	var out OperationStatusResponse
	err := c.do(ctx, http.MethodGet, opPath(session, op)+"/status", nil, &out)
	return OperationStatus(out.Status), err
}

// CancelOperation cancels an operation that is still being executed.
func (c *Client) CancelOperation(ctx context.Context, session, op string) (OperationStatus, error) {
	var out OperationStatusResponse
	err := c.do(ctx, http.MethodPost, opPath(session, op)+"/cancel", nil, &out)
	return OperationStatus(out.Status), err
}

// CloseOperation closes an operation and releases its results (a running
// query is cancelled).
func (c *Client) CloseOperation(ctx context.Context, session, op string) (OperationStatus, error) {
	var out OperationStatusResponse
	err := c.do(ctx, http.MethodDelete, opPath(session, op)+"/close", nil, &out)
	return OperationStatus(out.Status), err
}

// FetchResults fetches the page of token.
func (c *Client) FetchResults(ctx context.Context, session, op string, token int64, format RowFormat) (*FetchResults, error) {
	p := opPath(session, op) + "/result/" + strconv.FormatInt(token, 10)
	if c.version >= V2 {
		p += "?rowFormat=" + string(format)
	}
	return c.FetchURI(ctx, p)
}

// FetchURI fetches a page by the relative URI a previous page gave as
// nextResultUri.
func (c *Client) FetchURI(ctx context.Context, uri string) (*FetchResults, error) {
	return c.fetchURI(ctx, uri, false)
}

func (c *Client) fetchURI(ctx context.Context, uri string, lazy bool) (*FetchResults, error) {
	raw, err := c.doRaw(ctx, http.MethodGet, uri, nil)
	if err != nil {
		return nil, err
	}
	return decodeFetch(raw, lazy)
}
