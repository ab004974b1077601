package gateway

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Who can reach a gateway and what they can do (docs/gateway.md, "Threat
// model"): whoever holds its token can run any SQL with the file access of
// the user who runs it. The defaults therefore keep the token secret and
// the listener local: a random token even on loopback, kept in a file only
// its owner can read; TLS off loopback; no cross-origin browser requests;
// and an optional allow-list of directories for filesystem tables.

// MinTokenLength is the shortest bearer token a server accepts, in bytes.
// A generated token has 43 characters (32 random bytes, base64url).
const MinTokenLength = 16

// NewToken returns a random bearer token: 32 bytes from crypto/rand,
// base64url without padding (43 characters).
func NewToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("gateway: generating a token: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// CheckToken refuses a token shorter than MinTokenLength or holding
// whitespace or control characters (it travels in an HTTP header).
func CheckToken(token string) error {
	if len(token) < MinTokenLength {
		return fmt.Errorf("gateway: the bearer token has %d characters; it needs at least %d (a generated one has 43)", len(token), MinTokenLength)
	}
	for _, r := range token {
		if r <= ' ' || r == 0x7f {
			return errors.New("gateway: the bearer token holds whitespace or a control character")
		}
	}
	return nil
}

// TokenDir is the folder of the token files of local gateways:
// <user config dir>/riffle/gateway ($XDG_CONFIG_HOME/riffle/gateway or
// ~/.config/riffle/gateway on Linux).
func TokenDir() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("gateway: no folder for token files: %w", err)
	}
	return filepath.Join(dir, "riffle", "gateway"), nil
}

// TokenFile is the file holding the token of the local gateway listening
// on port: TokenDir()/<port>.token.
func TokenFile(port int) (string, error) {
	dir, err := TokenDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, strconv.Itoa(port)+".token"), nil
}

// WriteTokenFile writes token to TokenFile(port) with mode 0600 (its
// folder 0700), through a temporary file renamed into place, and returns
// the file's path.
func WriteTokenFile(port int, token string) (string, error) {
	path, err := TokenFile(port)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", fmt.Errorf("gateway: token file: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".token-*")
	if err != nil {
		return "", fmt.Errorf("gateway: token file: %w", err)
	}
	defer os.Remove(tmp.Name())
	err = tmp.Chmod(0o600)
	if err == nil {
		_, err = tmp.WriteString(token + "\n")
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return "", fmt.Errorf("gateway: token file %s: %w", path, err)
	}
	return path, nil
}

// ReadTokenFile reads a token from path (surrounding whitespace removed).
// A file that others can read or write is refused, as ssh refuses such a
// key: the token is the gateway's only lock.
func ReadTokenFile(path string) (string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return "", fmt.Errorf("gateway: token file: %w", err)
	}
	if st.Mode().Perm()&0o077 != 0 {
		return "", fmt.Errorf("gateway: token file %s is readable or writable by others (mode %04o); chmod 600 it", path, st.Mode().Perm())
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("gateway: token file: %w", err)
	}
	tok := strings.TrimSpace(string(b))
	if tok == "" {
		return "", fmt.Errorf("gateway: token file %s is empty", path)
	}
	return tok, nil
}

// FindToken returns the token a local gateway at endpoint wrote to its
// token file, or "" when endpoint is not on a loopback host or no readable
// file exists. Clients use it when the user gave no token.
func FindToken(endpoint string) string {
	if !strings.Contains(endpoint, "://") {
		endpoint = "http://" + endpoint
	}
	u, err := url.Parse(endpoint)
	if err != nil || !IsLoopback(u.Host) {
		return ""
	}
	port := u.Port()
	if port == "" {
		return ""
	}
	n, err := strconv.Atoi(port)
	if err != nil {
		return ""
	}
	path, err := TokenFile(n)
	if err != nil {
		return ""
	}
	tok, err := ReadTokenFile(path)
	if err != nil {
		return ""
	}
	return tok
}

// crossOrigin reports why a request comes from a web page of another
// origin, or "" when it does not: a browser sends Origin on cross-origin
// requests (a text/plain POST needs no preflight) and Sec-Fetch-Site on
// all. Requests from programs (curl, Flink's SQL Client, the JDBC driver)
// carry neither. allowed lists extra origins ("https://host:port").
func crossOrigin(r *http.Request, allowed []string) string {
	if site := r.Header.Get("Sec-Fetch-Site"); site == "cross-site" || site == "same-site" {
		if o := r.Header.Get("Origin"); o == "" || !originAllowed(o, allowed) {
			return "Sec-Fetch-Site: " + site
		}
	}
	o := r.Header.Get("Origin")
	if o == "" {
		return ""
	}
	u, err := url.Parse(o)
	if err == nil && strings.EqualFold(u.Host, r.Host) && u.Host != "" {
		return ""
	}
	if originAllowed(o, allowed) {
		return ""
	}
	return "Origin: " + o
}

func originAllowed(origin string, allowed []string) bool {
	for _, a := range allowed {
		if a == "*" || strings.EqualFold(strings.TrimRight(a, "/"), strings.TrimRight(origin, "/")) {
			return true
		}
	}
	return false
}

// PathPolicy returns a check (for table.TableEnvironment.SetPathPolicy)
// that allows a table's path only inside one of dirs, after resolving
// symbolic links of the path's longest existing prefix, so that neither a
// link inside an allowed folder nor ".." leads out of it. dirs must exist;
// they are resolved once, here. Only local paths (plain or file://) pass:
// other schemes are refused.
func PathPolicy(dirs []string) (func(path string) error, error) {
	var roots []string
	for _, d := range dirs {
		abs, err := filepath.Abs(d)
		if err != nil {
			return nil, fmt.Errorf("gateway: --allow-path %s: %w", d, err)
		}
		real, err := filepath.EvalSymlinks(abs)
		if err != nil {
			return nil, fmt.Errorf("gateway: --allow-path %s: %w", d, err)
		}
		st, err := os.Stat(real)
		if err != nil {
			return nil, fmt.Errorf("gateway: --allow-path %s: %w", d, err)
		}
		if !st.IsDir() {
			return nil, fmt.Errorf("gateway: --allow-path %s is not a directory", d)
		}
		roots = append(roots, real)
	}
	return func(p string) error {
		local := p
		if strings.Contains(p, "://") {
			u, err := url.Parse(p)
			if err != nil || u.Scheme != "file" {
				return fmt.Errorf("path '%s' is not allowed: this gateway only allows local paths under %s", p, strings.Join(roots, ", "))
			}
			local = u.Path
		}
		real, err := resolveExisting(local)
		if err != nil {
			return fmt.Errorf("path '%s' is not allowed: %v", p, err)
		}
		for _, r := range roots {
			if rel, err := filepath.Rel(r, real); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				return nil
			}
		}
		return fmt.Errorf("path '%s' is not allowed: this gateway only allows paths under %s (--allow-path)", p, strings.Join(roots, ", "))
	}, nil
}

// resolveExisting makes p absolute and resolves the symbolic links of its
// longest existing prefix; the rest (files a sink will create) is appended
// cleaned.
func resolveExisting(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	rest := ""
	cur := abs
	for {
		real, err := filepath.EvalSymlinks(cur)
		if err == nil {
			return filepath.Join(real, rest), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return abs, nil
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}
