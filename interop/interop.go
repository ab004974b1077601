// Package interop holds the tests that run Riffle beside real servers
// (Apache Flink today) and the helpers that find those servers.
//
// The tests carry the build tag "interop", so `make test` neither builds
// nor runs them; `make test-interop` (scripts/interop.sh) starts the
// servers on 127.0.0.1, exports their endpoints and runs
//
//	go test -tags interop ./interop/...
//
// A test under that tag that finds no server fails: it never skips.
package interop

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Flink is a running Apache Flink: a session cluster and its SQL Gateway,
// as scripts/flink.sh start reports them in endpoints.env.
type Flink struct {
	Version string // e.g. "2.3.0"
	REST    string // the cluster's REST API, e.g. "http://127.0.0.1:8081"
	Gateway string // the SQL Gateway's REST endpoint, e.g. "http://127.0.0.1:8083"
	Home    string // the installed Flink: Home/lib holds the cluster's jars, Home/jdbc the JDBC driver
	ConfDir string // the cluster's configuration folder (config.yaml)
}

// FlinkFromEnv returns the Flink named by the environment variables
// FLINK_REST, FLINK_GATEWAY, FLINK_HOME, FLINK_CONF_DIR and FLINK_VERSION
// (scripts/interop.sh exports them), or else the one described by the file
// $FLINK_RUN_DIR/endpoints.env, or by the default run folder of
// scripts/flink.sh. It fails when none is running.
func FlinkFromEnv() (Flink, error) {
	f := Flink{
		Version: os.Getenv("FLINK_VERSION"),
		REST:    os.Getenv("FLINK_REST"),
		Gateway: os.Getenv("FLINK_GATEWAY"),
		Home:    os.Getenv("FLINK_HOME"),
		ConfDir: os.Getenv("FLINK_CONF_DIR"),
	}
	if f.Gateway != "" && f.REST != "" {
		return f, nil
	}
	path := filepath.Join(runDir(), "endpoints.env")
	vars, err := readEnvFile(path)
	if err != nil {
		return Flink{}, fmt.Errorf("interop: no running Flink: FLINK_GATEWAY is not set and %w (start one with scripts/flink.sh start)", err)
	}
	f = Flink{Version: vars["FLINK_VERSION"], REST: vars["FLINK_REST"], Gateway: vars["FLINK_GATEWAY"],
		Home: vars["FLINK_HOME"], ConfDir: vars["FLINK_CONF_DIR"]}
	if f.Gateway == "" || f.REST == "" {
		return Flink{}, fmt.Errorf("interop: %s names no FLINK_GATEWAY or FLINK_REST", path)
	}
	return f, nil
}

// runDir is scripts/flink.sh's run folder: $FLINK_RUN_DIR, else
// $RIFFLE_CACHE/flink-run, else ${XDG_CACHE_HOME:-~/.cache}/riffle/flink-run.
func runDir() string {
	if d := os.Getenv("FLINK_RUN_DIR"); d != "" {
		return d
	}
	cache := os.Getenv("RIFFLE_CACHE")
	if cache == "" {
		base := os.Getenv("XDG_CACHE_HOME")
		if base == "" {
			home, _ := os.UserHomeDir()
			base = filepath.Join(home, ".cache")
		}
		cache = filepath.Join(base, "riffle")
	}
	return filepath.Join(cache, "flink-run")
}

// readEnvFile reads KEY=VALUE lines (no quoting; # starts a comment line).
func readEnvFile(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	vars := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			return nil, fmt.Errorf("%s: line %q is not KEY=VALUE", path, line)
		}
		vars[k] = v
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(vars) == 0 {
		return nil, errors.New(path + " is empty")
	}
	return vars, nil
}

// RepoRoot returns the repository's root folder (the one with go.mod),
// found upwards from the working directory.
func RepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("interop: go.mod not found above the working directory")
		}
		dir = parent
	}
}

// LoadAverage returns the machine's 1, 5 and 15 minute load averages from
// /proc/loadavg, space-separated ("0.52 0.61 0.70"), or "?" where they
// cannot be read; the benchmark tools print it beside every figure.
func LoadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}
