package all

import (
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/connector"
)

func TestEverythingRegistered(t *testing.T) {
	if got := strings.Join(connector.Identifiers(), ","); got != "blackhole,datagen,filesystem,jdbc,kafka,nexmark,postgres-cdc,print,upsert-kafka" {
		t.Fatalf("connectors: %s", got)
	}
	if got := strings.Join(connector.SourceIdentifiers(), ","); got != "datagen,filesystem,jdbc,kafka,nexmark,postgres-cdc,upsert-kafka" {
		t.Fatalf("sources: %s", got)
	}
	if got := strings.Join(connector.SinkIdentifiers(), ","); got != "blackhole,filesystem,jdbc,kafka,print,upsert-kafka" {
		t.Fatalf("sinks: %s", got)
	}
	if got := strings.Join(connector.FormatIdentifiers(), ","); got != "avro,canal-json,csv,debezium-json,json,maxwell-json,parquet,raw" {
		t.Fatalf("formats: %s", got)
	}
}
