package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// The open-query limits of riffle gateway take whole numbers of at least
// 1; anything else is refused before the gateway listens.
func TestGatewayRejectsBadQueryLimits(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	for _, c := range []struct{ def, want string }{
		{"sql-gateway.session.max-open-queries=0", "must be at least 1, not 0"},
		{"sql-gateway.session.max-open-queries=many", "-D sql-gateway.session.max-open-queries=many"},
		{"sql-gateway.max-open-queries=-3", "must be at least 1, not -3"},
	} {
		var out, errb bytes.Buffer
		env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: noEnv}
		code := Main(context.Background(), env, []string{"gateway", "--listen", "127.0.0.1:0", "-D", c.def})
		if code == 0 || !strings.Contains(errb.String(), c.want) {
			t.Errorf("-D %s: code %d, stderr %q", c.def, code, errb.String())
		}
		if strings.Contains(out.String(), "listening") {
			t.Errorf("-D %s: it listened: %q", c.def, out.String())
		}
	}
}
