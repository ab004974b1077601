package descriptors

import (
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/table/datatypes"
)

func TestSchemaToSchema(t *testing.T) {
	s := NewSchema().
		Field("id", datatypes.BigInt()).
		Field("name", "STRING").FromOriginField("n").
		Field("pt", datatypes.Timestamp(3)).Proctime().
		Field("rt", datatypes.Timestamp(3)).Rowtime(NewRowtime().TimestampsFromField("ts").WatermarksPeriodicBounded(2500))
	got, err := s.ToSchema()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"`id` BIGINT", "`n` STRING", "`name` AS `n`", "`pt` AS PROCTIME()", "`rt` AS CAST(`ts` AS TIMESTAMP(3))",
		"WATERMARK FOR `rt` AS `rt` - INTERVAL '2.500' SECOND"}
	str := got.String()
	for _, w := range want {
		if !strings.Contains(str, w) {
			t.Errorf("schema %s lacks %s", str, w)
		}
	}
}

func TestRowtime(t *testing.T) {
	asc := NewRowtime().TimestampsFromField("ts").WatermarksPeriodicAscending()
	if wm := asc.Watermark(1000); wm != 999 {
		t.Fatalf("ascending watermark = %d", wm)
	}
	bounded := NewRowtime().TimestampsFromSource().WatermarksPeriodicBounded(200)
	if wm := bounded.Watermark(1000); wm != 800 {
		t.Fatalf("bounded watermark = %d", wm)
	}
	p := bounded.ToProperties()
	if p["rowtime.timestamps.type"] != "from-source" || p["rowtime.watermarks.type"] != "periodic-bounded" || p["rowtime.watermarks.delay"] != "200" {
		t.Fatalf("properties %v", p)
	}
	if p := asc.ToProperties(); p["rowtime.timestamps.from"] != "ts" || p["rowtime.watermarks.type"] != "periodic-ascending" {
		t.Fatalf("properties %v", p)
	}
}
