package gateway

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// ErrTokenRequired is returned by CheckBind for a non-loopback address
// without a token.
var ErrTokenRequired = errors.New("binding to a non-loopback address requires a bearer token (--token-file or RIFFLE_GATEWAY_TOKEN)")

// ErrTLSRequired is returned by CheckBind for a non-loopback address
// without TLS, unless Config.Insecure says otherwise.
var ErrTLSRequired = errors.New("binding to a non-loopback address requires TLS (--tls-cert and --tls-key), or --insecure to send the token in clear text")

// IsLoopback reports whether a listen address ("host:port") binds to the
// loopback interface only: 127.0.0.0/8, ::1 or "localhost". An empty host
// or 0.0.0.0 binds to every interface.
func IsLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// CheckListenAddr checks that addr has the form host:port with a port
// number (host may be empty for every interface).
func CheckListenAddr(addr string) error {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		msg := err.Error()
		if ae, ok := err.(*net.AddrError); ok {
			msg = ae.Err
		}
		return fmt.Errorf("gateway: invalid listen address %q: %s (expected host:port, e.g. 127.0.0.1:8083 or :8083)", addr, msg)
	}
	if _, err := strconv.ParseUint(port, 10, 16); err != nil {
		return fmt.Errorf("gateway: invalid listen address %q: the port must be a number from 0 to 65535 (expected host:port, e.g. 127.0.0.1:8083)", addr)
	}
	return nil
}

// CheckBind refuses a malformed address, a token shorter than
// MinTokenLength, a non-loopback address without a token, and a
// non-loopback address without TLS unless cfg.Insecure. A certificate
// needs its key and the other way round.
func CheckBind(addr string, cfg Config) error {
	if err := CheckListenAddr(addr); err != nil {
		return err
	}
	if cfg.Token != "" {
		if err := CheckToken(cfg.Token); err != nil {
			return err
		}
	}
	if (cfg.TLSCertFile == "") != (cfg.TLSKeyFile == "") {
		return errors.New("gateway: TLS needs both a certificate (--tls-cert) and its key (--tls-key)")
	}
	if !IsLoopback(addr) {
		if cfg.Token == "" {
			return fmt.Errorf("gateway: %s: %w", addr, ErrTokenRequired)
		}
		if cfg.TLSCertFile == "" && !cfg.Insecure {
			return fmt.Errorf("gateway: %s: %w", addr, ErrTLSRequired)
		}
	}
	return nil
}

// ListenAndServe serves cfg on addr until ctx ends, then shuts down (open
// requests get a few seconds) and closes every session. It refuses what
// CheckBind refuses and an AllowPaths directory that does not exist.
// ready, when non-nil, receives the bound address once listening.
//
// Requests must send their headers within 10 s and their body within
// 60 s, and idle keep-alive connections close after 2 minutes, so slow
// clients cannot hold connections open.
func ListenAndServe(ctx context.Context, addr string, cfg Config, ready func(net.Addr)) error {
	if err := CheckBind(addr, cfg); err != nil {
		return err
	}
	if len(cfg.AllowPaths) > 0 {
		if _, err := PathPolicy(cfg.AllowPaths); err != nil {
			return err
		}
	}
	var cert tls.Certificate
	if cfg.TLSCertFile != "" {
		var err error
		if cert, err = tls.LoadX509KeyPair(cfg.TLSCertFile, cfg.TLSKeyFile); err != nil {
			return fmt.Errorf("gateway: TLS certificate %s / key %s: %w", cfg.TLSCertFile, cfg.TLSKeyFile, err)
		}
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	if cfg.TLSCertFile != "" {
		ln = tls.NewListener(ln, &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12})
	}
	s := NewServer(cfg)
	hs := &http.Server{Handler: s, ReadHeaderTimeout: orDefault(cfg.ReadHeaderTimeout, 10*time.Second),
		ReadTimeout: orDefault(cfg.ReadTimeout, 60*time.Second), IdleTimeout: orDefault(cfg.ConnIdleTimeout, 2*time.Minute)}
	if ready != nil {
		ready(ln.Addr())
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err = <-errc:
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_ = hs.Shutdown(sctx)
		cancel()
		err = nil
	}
	_ = s.Close()
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}

func orDefault(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}
