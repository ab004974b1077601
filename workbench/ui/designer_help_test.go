package ui

import (
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/connector"
)

// The designer's help on the filesystem connector's
// source.monitor-interval says what it does (the README and
// docs/streaming.md document it as supported), not "not yet supported".
func TestDesignerHelpOnMonitorInterval(t *testing.T) {
	f, ok := connector.Lookup("filesystem")
	if !ok {
		t.Fatal("no filesystem connector")
	}
	for _, o := range f.Options() {
		if o.Key == "source.monitor-interval" {
			if strings.Contains(o.Description, "supported") || !strings.Contains(o.Description, "new file") {
				t.Errorf("help %q", o.Description)
			}
			return
		}
	}
	t.Error("no source.monitor-interval option declared for filesystem")
}
