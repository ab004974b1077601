package json

import (
	stdjson "encoding/json"
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/types"
)

var fuzzTable = cols("a", types.IntType(), "s", types.StringType(), "r", types.RowType(types.NewField("x", types.ArrayType(types.DoubleType()))),
	"m", types.MapType(types.StringType(), types.DecimalType(5, 2)), "t", types.TimestampType(3))

// FuzzDecode checks that no input panics, and that every line the
// standard library rejects as JSON is rejected (or skipped) too.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{`{"a":1,"s":"x","r":{"x":[1.5,null]},"m":{"k":1.25},"t":"2024-01-31 12:00:00"}`, `{"a":`, `[1]`, `{"s":"\ud83d\ude00"}`, `{"a":1}{"a":2}`, "{\"s\":\"\x01\"}", `{"a":1e999}`, `{"r":{"x":[[]]}}`} {
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, line string, ignore bool) {
		if strings.ContainsAny(line, "\n\r") {
			return
		}
		opts := map[string]string{}
		if ignore {
			opts[OptIgnoreParseErrors] = "true"
		}
		res := decode(t, fuzzTable, opts, line)
		trimmed := strings.TrimSpace(strings.TrimPrefix(line, "\xEF\xBB\xBF"))
		if res.err == nil && len(res.rows) == 1 && !stdjson.Valid([]byte(trimmed)) {
			t.Fatalf("accepted invalid JSON %q", line)
		}
	})
}
