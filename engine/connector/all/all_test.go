package all

import (
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/connector"
)

func TestEverythingRegistered(t *testing.T) {
	if got := strings.Join(connector.Identifiers(), ","); got != "blackhole,datagen,filesystem,nexmark,print" {
		t.Fatalf("connectors: %s", got)
	}
	if got := strings.Join(connector.SourceIdentifiers(), ","); got != "datagen,filesystem,nexmark" {
		t.Fatalf("sources: %s", got)
	}
	if got := strings.Join(connector.SinkIdentifiers(), ","); got != "blackhole,filesystem,print" {
		t.Fatalf("sinks: %s", got)
	}
	if got := strings.Join(connector.FormatIdentifiers(), ","); got != "csv,json,raw" {
		t.Fatalf("formats: %s", got)
	}
}
