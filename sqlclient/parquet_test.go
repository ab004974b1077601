package sqlclient

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/riffle-sql/riffle/engine/connector"
)

func TestFormatParquetWritesOneFile(t *testing.T) {
	if _, err := connector.LookupFormat("parquet"); err != nil {
		t.Skip("the parquet format is not registered")
	}
	code, out, errs := runClient(t, Options{Format: FormatParquet, Mode: ModeBatch,
		Statements: writeData(t) + "SELECT id, name, price, ts, id AS id FROM t ORDER BY id;"}, "")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	pf, err := file.NewParquetReader(bytes.NewReader([]byte(out)))
	if err != nil {
		t.Fatalf("%v (%d bytes)", err, len(out))
	}
	if pf.NumRows() != 3 {
		t.Errorf("%d rows", pf.NumRows())
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 10}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	var names []string
	for _, f := range tbl.Schema().Fields() {
		names = append(names, f.Name)
	}
	if strings.Join(names, ",") != "id,name,price,ts,id0" {
		t.Errorf("columns %v", names)
	}
	ids := tbl.Column(0).Data().Chunk(0).(*array.Int32)
	nm := tbl.Column(1).Data().Chunk(0).(*array.String)
	if ids.Value(0) != 1 || ids.Value(2) != 3 || nm.Value(0) != "a, b" || nm.Value(2) != `q"q` {
		t.Errorf("values %v %v", ids, nm)
	}

	// a second result would be a second file in the same output
	code, _, errs = runClient(t, Options{Format: FormatParquet, Mode: ModeBatch, Statements: "SELECT 1; SELECT 2;"}, "")
	if code == 0 || !strings.Contains(errs, "one query result per run") {
		t.Errorf("two results: exit %d %s", code, errs)
	}
	if err := (Options{Format: "xml"}).Validate(); err == nil || !strings.Contains(err.Error(), "tableau, csv, json or parquet") {
		t.Errorf("validate: %v", err)
	}
}
