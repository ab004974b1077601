package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --resume-dir needs --resume-jobs, and a folder that cannot be made is
// refused before the gateway listens.
func TestGatewayResumeFlags(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	blocker := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocker, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"gateway", "--listen", "127.0.0.1:0", "--no-auth", "--resume-dir", t.TempDir()}, "--resume-dir without --resume-jobs"},
		{[]string{"gateway", "--listen", "127.0.0.1:0", "--no-auth", "--resume-jobs", "--resume-dir", filepath.Join(blocker, "jobs")}, "--resume-dir: mkdir " + blocker + ": not a directory"},
	} {
		var out, errb bytes.Buffer
		env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: noEnv}
		if code := Main(context.Background(), env, c.args); code == 0 || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%v: code %d, stderr %q", c.args, code, errb.String())
		}
		if strings.Contains(out.String(), "listening") {
			t.Errorf("%v: it listened: %q", c.args, out.String())
		}
	}
}

// With --resume-jobs alone the folder is under the state directory, named
// after the port.
func TestGatewayResumeJobsDefaultFolder(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	startGateway(t, noEnv, "--no-auth", "--resume-jobs")
	if m, _ := filepath.Glob(filepath.Join(state, "riffle", "gateway", "jobs-0")); len(m) != 1 {
		t.Fatalf("no resume folder under %s", state)
	}
}
