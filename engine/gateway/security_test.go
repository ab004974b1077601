package gateway

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestNewTokenAndCheckToken(t *testing.T) {
	a, err := NewToken()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := NewToken()
	if len(a) != 43 || a == b {
		t.Fatalf("tokens %q %q", a, b)
	}
	if err := CheckToken(a); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"", "x", strings.Repeat("x", MinTokenLength-1), strings.Repeat("x", 20) + " y", strings.Repeat("x", 20) + "\n"} {
		if CheckToken(bad) == nil {
			t.Errorf("CheckToken(%q) accepted", bad)
		}
	}
}

func TestTokenFileIsPrivateAndFound(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	tok, _ := NewToken()
	path, err := WriteTokenFile(18083, tok)
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("token file mode %04o", st.Mode().Perm())
	}
	if dst, _ := os.Stat(filepath.Dir(path)); dst.Mode().Perm() != 0o700 {
		t.Fatalf("token folder mode %04o", dst.Mode().Perm())
	}
	if got := FindToken("http://127.0.0.1:18083"); got != tok {
		t.Fatalf("FindToken = %q", got)
	}
	if got := FindToken("localhost:18083/"); got != tok {
		t.Fatalf("FindToken(localhost) = %q", got)
	}
	// another host, another port: nothing
	if got := FindToken("http://192.168.1.1:18083"); got != "" {
		t.Fatalf("FindToken(remote) = %q", got)
	}
	if got := FindToken("http://127.0.0.1:18084"); got != "" {
		t.Fatalf("FindToken(other port) = %q", got)
	}
	// a file others can read is refused
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadTokenFile(path); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Fatalf("ReadTokenFile(0644) = %v", err)
	}
	if got := FindToken("http://127.0.0.1:18083"); got != "" {
		t.Fatalf("FindToken of a 0644 file = %q", got)
	}
}

// A client with no token finds the one a local server wrote.
func TestClientFindsLocalToken(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	tok, _ := NewToken()
	s := NewServer(Config{Token: tok})
	defer s.Close()
	ts := httptest.NewServer(s)
	defer ts.Close()
	port, _ := strconv.Atoi(ts.URL[strings.LastIndex(ts.URL, ":")+1:])
	c, _ := NewClient(ts.URL, ClientOptions{Retries: -1})
	if _, err := c.OpenSession(context.Background(), OpenSessionRequest{}); err == nil || !strings.Contains(err.Error(), "Unauthorized") {
		t.Fatalf("without a token file: %v", err)
	}
	if _, err := WriteTokenFile(port, tok); err != nil {
		t.Fatal(err)
	}
	c, _ = NewClient(ts.URL, ClientOptions{Retries: -1})
	if _, err := c.OpenSession(context.Background(), OpenSessionRequest{}); err != nil {
		t.Fatalf("with the token file: %v", err)
	}
}

// A web page on another origin cannot open a session, with or without a
// token, not even with a "simple" text/plain POST; the gateway's own
// origin and programs (no Origin header) can.
func TestCrossOriginRequestsAreRefused(t *testing.T) {
	for _, token := range []string{"", strings.Repeat("k", 20)} {
		s := NewServer(Config{Token: token, AllowedOrigins: []string{"http://allowed.example:3000"}})
		ts := httptest.NewServer(s)
		post := func(header map[string]string) int {
			req, _ := http.NewRequest("POST", ts.URL+"/v1/sessions", strings.NewReader(`{}`))
			req.Header.Set("Content-Type", "text/plain")
			if token != "" {
				req.Header.Set("Authorization", "Bearer "+token)
			}
			for k, v := range header {
				req.Header.Set(k, v)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			return resp.StatusCode
		}
		host := strings.TrimPrefix(ts.URL, "http://")
		cases := []struct {
			header map[string]string
			want   int
		}{
			{nil, 200},
			{map[string]string{"Origin": "http://evil.example"}, 403},
			{map[string]string{"Origin": "null"}, 403},
			{map[string]string{"Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"}, 403},
			{map[string]string{"Sec-Fetch-Site": "cross-site"}, 403},
			{map[string]string{"Origin": "http://" + host, "Sec-Fetch-Site": "same-origin"}, 200},
			{map[string]string{"Origin": "http://allowed.example:3000", "Sec-Fetch-Site": "cross-site"}, 200},
		}
		for _, c := range cases {
			if got := post(c.header); got != c.want {
				t.Errorf("token %v, headers %v: status %d, want %d", token != "", c.header, got, c.want)
			}
		}
		ts.Close()
		s.Close()
	}
}

func TestPathPolicyResolvesLinks(t *testing.T) {
	root := t.TempDir()
	allowed := filepath.Join(root, "data")
	secret := filepath.Join(root, "secret")
	for _, d := range []string{allowed, secret} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(secret, "key.csv"), []byte("x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(allowed, "link")); err != nil {
		t.Fatal(err)
	}
	check, err := PathPolicy([]string{allowed})
	if err != nil {
		t.Fatal(err)
	}
	for p, ok := range map[string]bool{
		filepath.Join(allowed, "a.csv"):               true, // not there yet: a sink may create it
		filepath.Join(allowed, "new", "dir", "x.csv"): true,
		"file://" + filepath.Join(allowed, "a.csv"):   true,
		allowed:                          true,
		filepath.Join(secret, "key.csv"): false,
		filepath.Join(allowed, "..", "secret", "key.csv"): false,
		filepath.Join(allowed, "link", "key.csv"):         false, // a link out of the folder
		filepath.Join(allowed, "link", "new.csv"):         false,
		allowed + "2":       false, // a sibling sharing the prefix
		"s3://bucket/x.csv": false,
		"/etc/passwd":       false,
	} {
		err := check(p)
		if (err == nil) != ok {
			t.Errorf("check(%s) = %v, want allowed=%v", p, err, ok)
		}
		if err != nil && !strings.Contains(err.Error(), "is not allowed") {
			t.Errorf("check(%s): unclear error %v", p, err)
		}
	}
	if _, err := PathPolicy([]string{filepath.Join(root, "missing")}); err == nil {
		t.Error("a missing --allow-path folder was accepted")
	}
}

// A session of a server with AllowPaths cannot read a file outside them
// through a filesystem table, and can inside.
func TestAllowPathsLimitFilesystemTables(t *testing.T) {
	root := t.TempDir()
	allowed := filepath.Join(root, "data")
	if err := os.Mkdir(allowed, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(allowed, "ok.csv"), filepath.Join(root, "secret.csv")} {
		if err := os.WriteFile(p, []byte("1\n2\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	s := NewServer(Config{AllowPaths: []string{allowed}})
	defer s.Close()
	ss, err := s.newSession("t", map[string]string{"execution.runtime-mode": "batch"})
	if err != nil {
		t.Fatal(err)
	}
	defer ss.close(time.Second)
	ddl := func(name, path string) {
		if _, err := ss.env.ExecuteSQL("CREATE TABLE " + name + " (x INT) WITH ('connector'='filesystem', 'path'='" + path + "', 'format'='csv')"); err != nil {
			t.Fatal(err)
		}
	}
	ddl("ok", filepath.Join(allowed, "ok.csv"))
	ddl("secret", filepath.Join(root, "secret.csv"))
	res, err := ss.env.ExecuteSQL("SELECT SUM(x) FROM ok")
	if err != nil {
		t.Fatal(err)
	}
	it, err := res.Collect()
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for it.Next() {
		rows = append(rows, it.Row().String())
	}
	if err := it.Err(); err != nil || len(rows) != 1 || rows[0] != "+I[3]" {
		t.Fatalf("allowed table: %v %v", rows, err)
	}
	if _, err := ss.env.ExecuteSQL("SELECT * FROM secret"); err == nil || !strings.Contains(err.Error(), "is not allowed") {
		t.Fatalf("table outside --allow-path: %v", err)
	}
	if _, err := ss.env.ExecuteSQL("INSERT INTO secret VALUES (9)"); err == nil || !strings.Contains(err.Error(), "is not allowed") {
		t.Fatalf("insert outside --allow-path: %v", err)
	}
}

// Off loopback, TLS is required; with a certificate the gateway serves
// HTTPS and a client trusting it works with the token.
func TestListenAndServeTLS(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile, pool := selfSigned(t, dir)
	tok, _ := NewToken()
	if err := ListenAndServe(t.Context(), "0.0.0.0:0", Config{Token: tok}, nil); err == nil || !strings.Contains(err.Error(), "requires TLS") {
		t.Fatalf("off loopback without TLS: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	addrs := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() {
		done <- ListenAndServe(ctx, "127.0.0.1:0", Config{Token: tok, TLSCertFile: certFile, TLSKeyFile: keyFile}, func(a net.Addr) { addrs <- a })
	}()
	var addr net.Addr
	select {
	case addr = <-addrs:
	case err := <-done:
		t.Fatal(err)
	}
	hc := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	c, err := NewClient("https://"+addr.String(), ClientOptions{Token: tok, HTTPClient: hc, Retries: -1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.OpenSession(context.Background(), OpenSessionRequest{}); err != nil {
		t.Fatalf("HTTPS session: %v", err)
	}
	// plain HTTP to the TLS port gets nothing useful
	if resp, err := http.Get("http://" + addr.String() + "/v1/info"); err == nil {
		if resp.StatusCode == 200 {
			t.Error("plain HTTP answered on the TLS port")
		}
		resp.Body.Close()
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

func selfSigned(t *testing.T, dir string) (certFile, keyFile string, pool *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "riffle test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, IsCA: true, BasicConstraintsValid: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600); err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	pool = x509.NewCertPool()
	pool.AddCert(cert)
	return certFile, keyFile, pool
}

// A client that sends its headers or its body too slowly is disconnected:
// slow connections cannot pile up (1,000 of them stayed open for 120 s).
func TestSlowClientsAreDisconnected(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addrs := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() {
		done <- ListenAndServe(ctx, "127.0.0.1:0", Config{ReadHeaderTimeout: 200 * time.Millisecond, ReadTimeout: 400 * time.Millisecond},
			func(a net.Addr) { addrs <- a })
	}()
	addr := (<-addrs).String()
	for name, send := range map[string]string{
		"headers": "POST /v1/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\n",                                  // never ends its headers
		"body":    "POST /v1/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n{\"pro", // never ends its body
	} {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Write([]byte(send)); err != nil {
			t.Fatal(err)
		}
		// the server closes the connection: the read ends (EOF or an
		// error answer), long before this generous bound
		c.SetReadDeadline(time.Now().Add(30 * time.Second))
		buf := make([]byte, 4096)
		for {
			_, err := c.Read(buf)
			if err != nil {
				if ne, ok := err.(net.Error); ok && ne.Timeout() {
					t.Fatalf("%s: the slow connection was still open after 30 s", name)
				}
				break
			}
		}
		c.Close()
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
