package filesystem

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/connector"
	_ "github.com/riffle-sql/riffle/engine/connector/format/cdcjson"
	"github.com/riffle-sql/riffle/engine/types"
)

// A file in a changelog format is read with its row kinds, and the source
// reports the format's changelog mode.
func TestChangelogFormatFile(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "orders.json"), `{"before":null,"after":{"id":1,"name":"one"},"op":"c"}
{"before":{"id":1,"name":"one"},"after":{"id":1,"name":"uno"},"op":"u"}
{"before":{"id":1,"name":"uno"},"after":null,"op":"d"}
`)
	src, err := connector.CreateSource(newCtx(map[string]string{"path": dir, "format": "debezium-json"}, names, tys))
	if err != nil {
		t.Fatal(err)
	}
	if got := src.ChangelogMode(); got != types.RetractMode {
		t.Fatalf("changelog mode %s", got)
	}
	rows, err := readAll(t, src, connector.ReadSpec{Limit: -1}, tys)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(rows, ";") != "+I[1, one];-U[1, one];+U[1, uno];-D[1, uno]" {
		t.Fatalf("rows %v", rows)
	}
}
