package connectionsdialog

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"sort"
	"strings"
)

// The form's fields as text: session properties, the gateway's and the
// cluster's URLs, and the probe of the cluster REST API.

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
