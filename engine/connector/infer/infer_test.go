package infer

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	_ "github.com/riffle-sql/riffle/engine/connector/all"
	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/engine/types"
)

// The connectors' extracts of the shared data set; the full files are
// used too when the shared data directory is present.
var (
	extracts = filepath.Join("..", "testdata")
	shared   = filepath.Join("..", "..", "..", "..", "..", "shared", "data")
)

// realFile describes one data file and what inference must find.
type realFile struct {
	name    string
	records int64
	types   map[string]string // column → type
	format  string
	options map[string]string
	rowtime string // the rowtime column's source, "" for none
	notes   []string
}

var realFiles = []realFile{
	{name: "flights-2001-01-01_14.csv", records: 228738, format: "csv",
		types:   map[string]string{"date": "TIMESTAMP(0)", "delay": "BIGINT", "distance": "BIGINT", "origin": "STRING", "destination": "STRING"},
		options: map[string]string{"csv.ignore-first-line": "true"}, rowtime: "date"},
	{name: "airports.csv", records: 3376, format: "csv",
		types: map[string]string{"iata": "STRING", "state": "STRING", "latitude": "DOUBLE", "longitude": "DOUBLE"}},
	{name: "birdstrikes.csv", records: 10000, format: "csv",
		types:   map[string]string{"Flight Date": "DATE", "Speed IAS in knots": "BIGINT", "Cost Total $": "BIGINT", "Effect Amount of damage": "STRING"},
		rowtime: "Flight Date"},
	{name: "earthquakes-usgs-2018-02.jsonl", records: 1707, format: "json",
		types: map[string]string{"type": "STRING", "id": "STRING",
			"properties": "ROW<`mag` DOUBLE, `place` STRING, `time` BIGINT, `updated` BIGINT, `tz` BIGINT, `url` STRING, `detail` STRING, `felt` BIGINT, `cdi` DOUBLE, `mmi` DOUBLE, `alert` STRING, `status` STRING, `tsunami` BIGINT, `sig` BIGINT, `net` STRING, `code` STRING, `ids` STRING, `sources` STRING, `types` STRING, `nst` BIGINT, `dmin` DOUBLE, `rms` DOUBLE, `gap` DOUBLE, `magType` STRING, `type` STRING, `title` STRING>",
			"geometry":   "ROW<`type` STRING, `coordinates` ARRAY<DOUBLE>>"},
		rowtime: "properties.time"}, // TO_TIMESTAMP_LTZ(properties.`time`, 3)
	{name: "tweets-mayweather-mcgregor.csv", records: 12118, format: "csv",
		types:   map[string]string{"created_at": "TIMESTAMP(0)", "emojis": "BOOLEAN", "id": "BIGINT", "retweeted": "BOOLEAN", "text": "STRING"},
		rowtime: "created_at"},
	{name: "pollster-ratings-2019.csv", records: 430, format: "csv",
		types: map[string]string{"Pollster": "STRING", "# of Polls": "BIGINT", "Mean-Reverted Bias": "STRING", "Mean-Reverted Bias_2": "STRING",
			"Predictive    Plus-Minus": "DECIMAL(10, 1)", "538 Grade": "STRING", "Banned by 538": "STRING"},
		notes: []string{"byte order mark", `"Mean-Reverted Bias" twice`}},
	{name: "tweets-realDonaldTrump-mojibake.csv", records: 3232, format: "csv",
		types:   map[string]string{"created_at": "STRING", "replies": "BIGINT", "retweets": "BIGINT", "favorites": "BIGINT", "user": "STRING"},
		options: map[string]string{"csv.invalid-utf8": "replace"},
		notes:   []string{"not valid UTF-8", "M/d/yy H:mm"},
		rowtime: "created_at"}, // CAST(TO_TIMESTAMP(created_at, 'M/d/yy H:mm') AS TIMESTAMP(3))
}

// extractOf maps a shared file to its extract and the extract's records.
var extractOf = map[string]struct {
	name    string
	records int64
}{
	"flights-2001-01-01_14.csv":           {"flights-head2000.csv", 2000},
	"airports.csv":                        {"airports.csv", 3376},
	"birdstrikes.csv":                     {"birdstrikes-head1000.csv", 1000},
	"earthquakes-usgs-2018-02.jsonl":      {"earthquakes-head300.jsonl", 300},
	"tweets-mayweather-mcgregor.csv":      {"tweets-mayweather-mcgregor-head600.csv", 600},
	"pollster-ratings-2019.csv":           {"pollster-ratings-2019.csv", 430},
	"tweets-realDonaldTrump-mojibake.csv": {"tweets-realDonaldTrump-mojibake-head200.csv", 200},
}

// countWithEngine registers the proposed table and counts its rows.
func countWithEngine(t *testing.T, r *Result, rowtime bool) int64 {
	t.Helper()
	env := table.MustCreate(table.InBatchMode())
	ddl := r.CreateTable("t", rowtime)
	if _, err := env.ExecuteSQL(ddl); err != nil {
		t.Fatalf("%s\n: %v", ddl, err)
	}
	q := "SELECT COUNT(*) FROM t"
	if rowtime && r.Rowtime != nil {
		// read the rowtime too, so that its expression is evaluated
		q = "SELECT COUNT(*), COUNT(" + "`" + r.Rowtime.Column + "`) FROM t"
	}
	res, err := env.ExecuteSQL(q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	it, err := res.Collect()
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	if !it.Next() {
		t.Fatalf("no count: %v", it.Err())
	}
	n := it.Row().Values[0].(int64)
	if rowtime && r.Rowtime != nil && it.Row().Values[1].(int64) == 0 {
		t.Errorf("rowtime %s is always NULL", r.Rowtime.Column)
	}
	return n
}

func TestRealFiles(t *testing.T) {
	for _, f := range realFiles {
		paths := []struct {
			path    string
			records int64
		}{{filepath.Join(extracts, extractOf[f.name].name), extractOf[f.name].records}}
		if _, err := os.Stat(filepath.Join(shared, f.name)); err == nil {
			paths = append(paths, struct {
				path    string
				records int64
			}{filepath.Join(shared, f.name), f.records})
		}
		for _, p := range paths {
			t.Run(filepath.Base(p.path), func(t *testing.T) {
				r, err := File(p.path, Options{})
				if err != nil {
					t.Fatal(err)
				}
				if r.Format != f.format {
					t.Errorf("format %s", r.Format)
				}
				got := map[string]string{}
				for _, c := range r.Columns {
					got[c.Name] = c.Type.String()
				}
				for col, want := range f.types {
					if got[col] != want {
						t.Errorf("column %q: %s, want %s", col, got[col], want)
					}
				}
				for k, v := range f.options {
					if o, _ := r.Option(k); o != v {
						t.Errorf("option %s = %q, want %q", k, o, v)
					}
				}
				notes := strings.Join(r.Notes, "\n")
				for _, c := range r.Columns {
					notes += "\n" + c.Note
				}
				for _, n := range f.notes {
					if !strings.Contains(notes, n) {
						t.Errorf("no note about %q in\n%s", n, notes)
					}
				}
				if (r.Rowtime == nil) != (f.rowtime == "") || (r.Rowtime != nil && r.Rowtime.Source != f.rowtime) {
					t.Errorf("rowtime %+v, want %q", r.Rowtime, f.rowtime)
				}
				if r.Records != p.records || !r.Complete {
					t.Errorf("records %d (complete %v), want %d", r.Records, r.Complete, p.records)
				}
				if n := countWithEngine(t, r, false); n != p.records {
					t.Errorf("the DDL reads %d rows, want %d", n, p.records)
				}
				if r.Rowtime != nil {
					if n := countWithEngine(t, r, true); n != p.records {
						t.Errorf("with the rowtime the DDL reads %d rows, want %d", n, p.records)
					}
				}
			})
		}
	}
}

func TestFlightsProposal(t *testing.T) {
	r, err := File(filepath.Join(extracts, "flights-head2000.csv"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	path, _ := filepath.Abs(filepath.Join(extracts, "flights-head2000.csv"))
	want := "CREATE TABLE flights_head2000 (\n" +
		"  `date` TIMESTAMP(0),\n  delay BIGINT,\n  distance BIGINT,\n  origin STRING,\n  destination STRING,\n" +
		"  WATERMARK FOR `date` AS `date` - INTERVAL '1' SECOND\n)\nWITH (\n" +
		"  'connector' = 'filesystem',\n  'path' = '" + path + "',\n  'format' = 'csv',\n  'csv.ignore-first-line' = 'true'\n)"
	if got := r.CreateTable("", true); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	if r.Rowtime.Order != "ascending" || r.Rowtime.MaxLateness != 0 {
		t.Errorf("rowtime %+v", r.Rowtime)
	}
}

// TestEdgeCorpora opens every csv-edge file: each either yields a table
// whose DDL reads the records inference counted, or a clear reason.
func TestEdgeCorpora(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(extracts, "csv-edge", "csvkit-examples", "*.csv"))
	spectrum, _ := filepath.Glob(filepath.Join(extracts, "csv-edge", "csv-spectrum", "csvs", "*.csv"))
	files = append(files, spectrum...)
	if len(files) != 40 {
		t.Fatalf("only %d edge files", len(files))
	}
	wantErr := map[string]string{
		"empty.csv":                       "has no data",
		"test_utf16_big.csv":              "is UTF-16 text",
		"test_utf16_little.csv":           "is UTF-16 text",
		"test_empty_columns_long_row.csv": "every data record is malformed",
	}
	for _, f := range files {
		base := filepath.Base(f)
		if base == "empty.csv" && strings.Contains(f, "csv-spectrum") {
			base = "spectrum-empty.csv" // a header and two rows of empty fields
		}
		t.Run(base, func(t *testing.T) {
			r, err := File(f, Options{})
			if want, ok := wantErr[base]; ok {
				if err == nil || !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), want) {
					t.Fatalf("got %v, want an error saying %q", err, want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if n := countWithEngine(t, r, r.Rowtime != nil); n != r.Records {
				t.Errorf("the DDL reads %d rows, inference counted %d", n, r.Records)
			}
		})
	}
}

func TestEdgeDetails(t *testing.T) {
	edge := func(name string) *Result {
		t.Helper()
		r, err := File(filepath.Join(extracts, "csv-edge", "csvkit-examples", name), Options{})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	colTypes := func(r *Result) []string {
		var out []string
		for _, c := range r.Columns {
			out = append(out, c.Name+" "+c.Type.String())
		}
		return out
	}
	if r := edge("sniff_limit.csv"); r.Delimiter != ';' || !slices.Equal(colTypes(r), []string{"a BIGINT", "b BIGINT", "c BIGINT"}) {
		t.Errorf("sniff_limit: %q %v", r.Delimiter, colTypes(r))
	}
	if r := edge("no_header_row.csv"); r.Header || !slices.Equal(colTypes(r), []string{"column_1 BIGINT", "column_2 BIGINT", "column_3 BIGINT"}) {
		t.Errorf("no_header_row: %v %v", r.Header, colTypes(r))
	}
	if r := edge("test_no_leading_zeroes.csv"); r.Columns[0].Type.String() != "STRING" || !strings.Contains(r.Columns[0].Note, "leading zeros") {
		t.Errorf("leading zeros: %v", colTypes(r))
	}
	if r := edge("blanks.csv"); !slices.Equal(colTypes(r), []string{"a STRING", "b STRING", "c STRING", "d STRING", "e STRING", "f STRING"}) {
		t.Errorf("blanks (NA stays a string): %v", colTypes(r))
	}
	if r := edge("bad.csv"); r.Skipped != 1 || r.Records != 2 {
		t.Errorf("bad.csv: %d skipped, %d records", r.Skipped, r.Records)
	} else if v, _ := r.Option("csv.ignore-parse-errors"); v != "true" {
		t.Error("bad.csv without ignore-parse-errors")
	}
	if r := edge("test_header_newline.csv"); r.Columns[0].Name != "start end" {
		t.Errorf("header with control characters: %q", r.Columns[0].Name)
	}
	if r := edge("test_empty_columns.csv"); r.Columns[3].Name != "column_4" {
		t.Errorf("empty header names: %v", colTypes(r))
	}
	if r := edge("test_latin1.csv"); !strings.Contains(strings.Join(r.Notes, " "), "not valid UTF-8") {
		t.Errorf("latin1: %v", r.Notes)
	}
	if r := edge("mac_newlines.csv"); r.Records != 2 {
		t.Errorf("CR line ends: %d records", r.Records)
	}
	if _, err := File(filepath.Join(extracts, "README.md"), Options{}); err == nil || !strings.Contains(err.Error(), "does not look like a table") {
		t.Errorf("prose: %v", err)
	}
}

func TestInferredFromWrittenFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// tabs, decimals with two places, timestamps with millis and LTZ,
	// out-of-order times, a NA among numbers
	p := write("sales.tsv", "id\tprice\tat\tutc\tqty\n"+
		"1\t19.99\t2024-01-01 10:00:00.250\t2024-01-01 10:00:00Z\t3\n"+
		"2\t5.00\t2024-01-01 09:58:00.000\t2024-01-01 10:00:01Z\tNA\n"+
		"3\t100.10\t2024-01-01 10:05:00.500\t2024-01-01 10:00:02Z\t7\n")
	r, err := File(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range r.Columns {
		got = append(got, c.Name+" "+c.Type.String())
	}
	want := []string{"id BIGINT", "price DECIMAL(10, 2)", "at TIMESTAMP(3)", "utc TIMESTAMP_LTZ(0)", "qty STRING"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	if v, _ := r.Option("csv.field-delimiter"); v != `\t` {
		t.Errorf("delimiter option %q", v)
	}
	if !strings.Contains(r.Columns[4].Note, "'NA'") {
		t.Errorf("NA note: %q", r.Columns[4].Note)
	}
	rt := r.Rowtime
	if rt == nil || rt.Source != "at" || rt.Order != "out of order" || rt.MaxLateness != 120_250 || rt.Delay != "3" || rt.Unit != "MINUTE" {
		t.Fatalf("rowtime %+v", rt)
	}
	if n := countWithEngine(t, r, true); n != 3 {
		t.Errorf("%d rows", n)
	}
	// JSON Lines: nested objects keep their key order, ISO timestamps set
	// the format option, a bad line is skipped, mixed values are STRING
	p = write("events.jsonl", `{"at":"2024-01-01T10:00:00.123","user":{"name":"a","id":1},"tags":["x"],"v":1}`+"\n"+
		"\n"+
		`{"at":"2024-01-01T10:00:01.000","user":{"name":"b","id":2},"tags":[],"v":"two"}`+"\n"+
		`not json`+"\n"+
		`{"at":"2024-01-01T09:59:00.000","user":null,"v":3.5,"extra":true}`+"\n")
	r, err = File(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got = nil
	for _, c := range r.Columns {
		got = append(got, c.Name+" "+c.Type.String())
	}
	want = []string{"at TIMESTAMP(3)", "user ROW<`name` STRING, `id` BIGINT>", "tags ARRAY<STRING>", "v STRING", "extra BOOLEAN"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	if v, _ := r.Option("json.timestamp-format.standard"); v != "ISO-8601" {
		t.Errorf("ISO option %q", v)
	}
	if v, _ := r.Option("json.ignore-parse-errors"); v != "true" || r.Skipped != 1 || r.Records != 3 {
		t.Errorf("bad line: %q skipped %d records %d", v, r.Skipped, r.Records)
	}
	if r.Rowtime == nil || r.Rowtime.Column != "at" || r.Rowtime.Delay != "61" || r.Rowtime.Unit != "SECOND" {
		t.Errorf("rowtime %+v", r.Rowtime)
	}
	if n := countWithEngine(t, r, true); n != 3 {
		t.Errorf("%d rows", n)
	}
	// ISO-8601 instants with Z are TIMESTAMP_LTZ(3), read with the ISO
	// option and proposed as the rowtime; every column has an example
	p = write("instants.jsonl", `{"id":1,"ts":"2024-03-01T10:00:00Z","tags":[],"ok":true}`+"\n"+
		`{"id":2,"ts":"2024-03-01T10:00:05Z","tags":["a","b"],"ok":false}`+"\n")
	r, err = File(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got = nil
	var examples []string
	for _, c := range r.Columns {
		got = append(got, c.Name+" "+c.Type.String())
		examples = append(examples, c.Example)
	}
	want = []string{"id BIGINT", "ts TIMESTAMP_LTZ(3)", "tags ARRAY<STRING>", "ok BOOLEAN"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v (notes %v)", got, want, r.Notes)
	}
	if want := []string{"1", "2024-03-01T10:00:00Z", `["a","b"]`, "true"}; !slices.Equal(examples, want) {
		t.Errorf("examples %q, want %q", examples, want)
	}
	if v, _ := r.Option("json.timestamp-format.standard"); v != "ISO-8601" {
		t.Errorf("ISO option %q", v)
	}
	if r.Rowtime == nil || r.Rowtime.Column != "ts" || r.Rowtime.Expr != "" {
		t.Errorf("rowtime %+v", r.Rowtime)
	}
	for _, n := range r.Notes {
		if strings.Contains(n, "cannot") {
			t.Errorf("note %q", n)
		}
	}
	if n := countWithEngine(t, r, true); n != 2 {
		t.Errorf("%d rows", n)
	}
	// a JSON array file
	p = write("array.json", `[{"a":1},{"a":2}]`)
	if _, err := File(p, Options{}); err == nil || !strings.Contains(err.Error(), "jq -c") {
		t.Errorf("array: %v", err)
	}
	// sampling: only the first bytes are read
	var b strings.Builder
	b.WriteString("n,s\n")
	for i := range 5000 {
		b.WriteString(strings.Repeat("1", 1+i%5) + ",x\n")
	}
	p = write("big.csv", b.String())
	r, err = File(p, Options{MaxBytes: 4096})
	if err != nil {
		t.Fatal(err)
	}
	if r.Complete || r.Records >= 5000 || r.Columns[0].Type.Root != types.BigInt {
		t.Errorf("sampled: complete %v records %d", r.Complete, r.Records)
	}
	if _, err := File(filepath.Join(dir, "missing.csv"), Options{}); err == nil {
		t.Error("missing file")
	}
	if _, err := File(write("x.parquet", "PAR1"), Options{}); err == nil || !errors.Is(err, ErrUnsupported) {
		t.Errorf("parquet: %v", err)
	}
}

func TestHelpers(t *testing.T) {
	for in, want := range map[string]string{"flights-2001-01-01_14.csv": "flights_2001_01_01_14", "2019 polls.csv": "t_2019_polls", "---.csv": "data", "Tweets (raw).jsonl": "Tweets_raw"} {
		if got := TableName(in); got != want {
			t.Errorf("TableName(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{"a\tb": "a b", " \r\n x \t  y ": "x y", "Predictive    Plus-Minus": "Predictive    Plus-Minus", "\ufeffPollster": "Pollster"} {
		if got := cleanName(in); got != want {
			t.Errorf("cleanName(%q) = %q, want %q", in, got, want)
		}
	}
	var o orderStats
	for _, ms := range []int64{0, 5_000, 3_000, 10_000, 9_000} {
		o.add(ms)
	}
	if order, d, u := o.describe(); order != "out of order" || d != "2" || u != "SECOND" {
		t.Errorf("describe: %s %s %s", order, d, u)
	}
	o = orderStats{}
	for _, ms := range []int64{10 * 86_400_000, 5 * 86_400_000, 0} {
		o.add(ms)
	}
	if order, d, u := o.describe(); order != "descending" || d != "10" || u != "DAY" {
		t.Errorf("descending: %s %s %s", order, d, u)
	}
	if epochUnit(1517361000000, 1517965600000) != 3 || epochUnit(1517361000, 1517965600) != 1 || epochUnit(1, 100) != 0 {
		t.Error("epochUnit")
	}
	if p, ms := javaLayout("10/23/17 12:30"); p != "M/d/yy H:mm" || ms != 1508761800000 {
		t.Errorf("javaLayout: %s %d", p, ms)
	}
}

// A delay of more than two digits carries its precision (INTERVAL '120'
// SECOND exceeds SECOND(2)); beyond 999 it is no single literal.
func TestWatermarkExprPrecision(t *testing.T) {
	for _, c := range []struct{ delay, unit, want string }{
		{"5", "MINUTE", "ts - INTERVAL '5' MINUTE"},
		{"120", "SECOND", "ts - INTERVAL '120' SECOND(3)"},
		{"1500", "DAY", "ts - (INTERVAL '1' DAY * 1500 + INTERVAL '0 00:00:00.000' DAY TO SECOND(3))"},
	} {
		r := &Rowtime{Column: "ts", Delay: c.delay, Unit: c.unit}
		if got := r.WatermarkExpr(); got != c.want {
			t.Errorf("%s %s: got %s, want %s", c.delay, c.unit, got, c.want)
		}
	}
}
