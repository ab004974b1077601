package sqltest

import (
	"context"
	"errors"
	"flag"
	"net"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	_ "github.com/riffle-sql/riffle/engine/connector/all"
	"github.com/riffle-sql/riffle/engine/gateway"
	"github.com/riffle-sql/riffle/engine/table"
)

// update rewrites the expected outputs of the scripts run (review the
// diff!): go test ./engine/sqltest -run 'TestGoldenScripts/name.q' -update
var update = flag.Bool("update", false, "rewrite the expected outputs of the golden scripts")

func scripts(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("testdata/*.q")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	return files
}

// TestGoldenScripts runs every script on the embedded engine.
func TestGoldenScripts(t *testing.T) {
	RegisterDocFunctions()
	for _, f := range scripts(t) {
		f := f
		t.Run(filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			if *update {
				Record(t, f, EmbeddedEngine())
				return
			}
			RunFile(t, f, EmbeddedEngine())
		})
	}
}

// TestGoldenScriptsOnGateway runs every script (riffle-only cases
// included) through Riffle's SQL Gateway over loopback: a gateway.Server
// on a free 127.0.0.1 port, one session per script opened by
// gateway.Connect, so statements, rows and errors travel the REST API and
// its JSON encoding before they are rendered as the embedded results are.
func TestGoldenScriptsOnGateway(t *testing.T) {
	if *update {
		t.Skip("-update records from the embedded engine")
	}
	RegisterDocFunctions()
	srv := gateway.NewServer(gateway.Config{Logf: t.Logf})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: srv}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	t.Cleanup(func() {
		_ = hs.Close()
		_ = srv.Close()
		if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
			t.Errorf("serve: %v", err)
		}
	})
	endpoint := "http://" + ln.Addr().String()
	newEngine := func(t *testing.T) table.Engine {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		e, err := gateway.Connect(ctx, endpoint, gateway.RemoteOptions{Properties: SessionProperties()})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	t.Run("scripts", func(t *testing.T) {
		for _, f := range scripts(t) {
			f := f
			t.Run(filepath.Base(f), func(t *testing.T) {
				t.Parallel()
				RunFile(t, f, newEngine)
			})
		}
	})
}
