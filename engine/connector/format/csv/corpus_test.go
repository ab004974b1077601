package csv

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/types"
)

// csv-spectrum: every CSV is read with its header skipped and compared
// with the expected parse in json/.
func TestCSVSpectrum(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(testdata, "csv-edge/csv-spectrum/csvs/*.csv"))
	if err != nil || len(files) != 12 {
		t.Fatalf("found %d csv-spectrum files: %v", len(files), err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".csv")
		t.Run(name, func(t *testing.T) {
			data := readTestFile(t, "csv-edge/csv-spectrum/csvs/"+name+".csv")
			first := data
			if i := strings.IndexAny(data, "\r\n"); i >= 0 {
				first = data[:i]
			}
			hdr := strings.Split(first, ",")
			res := decodeFile(t, strTable(hdr...), header, "csv-edge/csv-spectrum/csvs/"+name+".csv")
			if res.err != nil {
				t.Fatal(res.err)
			}
			raw := readTestFile(t, "csv-edge/csv-spectrum/json/"+name+".json")
			var want []map[string]string
			if strings.HasPrefix(strings.TrimSpace(raw), "{") {
				var one map[string]string
				if err := json.Unmarshal([]byte(raw), &one); err != nil {
					t.Fatal(err)
				}
				want = []map[string]string{one}
			} else if err := json.Unmarshal([]byte(raw), &want); err != nil {
				t.Fatal(err)
			}
			if name == "location_coordinates" {
				// Upstream's expected JSON has another phone number than its CSV.
				want[0]["Contact Phone Number"] = "2095257564"
			}
			if len(res.rows) != len(want) {
				t.Fatalf("%d rows, want %d", len(res.rows), len(want))
			}
			for i, w := range want {
				for c, h := range hdr {
					if got := res.rows[i].Values[c]; got != w[h] {
						t.Errorf("row %d %s = %q, want %q", i, h, got, w[h])
					}
				}
			}
		})
	}
}

// csvkit's examples: each file is read correctly or fails with a clear
// error naming file, line and column.
func TestCSVKitExamples(t *testing.T) {
	dir := "csv-edge/csvkit-examples/"
	s3 := strTable("column_a", "column_b", "column_c")
	t.Run("bad", func(t *testing.T) {
		wantErr(t, decodeFile(t, s3, header, dir+"bad.csv").err, "bad.csv", 2, 4, "", "row has 4 fields, expected 3")
		res := decodeFile(t, s3, with(header, OptIgnoreParseErrors, "true"), dir+"bad.csv")
		wantRows(t, res, "+I[, I'm too short!, null]", "+I[0, mixed types.... uh oh, 17]")
		if res.skipped != 1 {
			t.Fatalf("skipped %d", res.skipped)
		}
	})
	t.Run("bad_skip_lines", func(t *testing.T) {
		wantErr(t, decodeFile(t, s3, header, dir+"bad_skip_lines.csv").err, "bad_skip_lines.csv", 5, 4, "", "row has 4 fields, expected 3")
	})
	t.Run("blanks", func(t *testing.T) {
		tb := strTable("a", "b", "c", "d", "e", "f")
		wantRows(t, decodeFile(t, tb, header, dir+"blanks.csv"), "+I[, NA, N/A, NONE, NULL, .]")
		wantRows(t, decodeFile(t, tb, with(header, OptNullLiteral, "NULL"), dir+"blanks.csv"), "+I[, NA, N/A, NONE, null, .]")
	})
	t.Run("date_like_number", func(t *testing.T) {
		wantRows(t, decodeFile(t, cols("a", types.DoubleType()), header, dir+"date_like_number.csv"), "+I[4.5]")
		wantErr(t, decodeFile(t, cols("a", types.DateType()), header, dir+"date_like_number.csv").err, "date_like_number.csv", 2, 1, "a", `cannot parse "4.5" as DATE`)
	})
	t.Run("dummy_col_shuffled_ragged", func(t *testing.T) {
		tb := cols("b", types.IntType(), "c", types.IntType(), "a", types.IntType(), "d", types.IntType())
		wantRows(t, decodeFile(t, tb, header, dir+"dummy_col_shuffled_ragged.csv"), "+I[2, 3, 1, 4]")
	})
	t.Run("empty", func(t *testing.T) {
		wantRows(t, decodeFile(t, s3, nil, dir+"empty.csv"))
		wantRows(t, decodeFile(t, s3, header, dir+"empty.csv"))
	})
	t.Run("mac_newlines", func(t *testing.T) {
		tb := cols("a", types.StringType(), "b", types.IntType(), "c", types.IntType())
		wantRows(t, decodeFile(t, tb, header, dir+"mac_newlines.csv"), "+I[1, 2, 3]", "+I[Once upon\ra time, 5, 6]")
	})
	t.Run("no_header_row", func(t *testing.T) {
		tb := cols("a", types.IntType(), "b", types.IntType(), "c", types.IntType())
		wantRows(t, decodeFile(t, tb, nil, dir+"no_header_row.csv"), "+I[1, 2, 3]")
	})
	t.Run("null_byte", func(t *testing.T) {
		tb := cols("a", types.StringType(), "b", types.IntType(), "c", types.IntType())
		wantRows(t, decodeFile(t, tb, header, dir+"null_byte.csv"), "+I[\x00, 2, 3]")
	})
	t.Run("optional_quote_characters", func(t *testing.T) {
		tb := cols("a", types.IntType(), "b", types.IntType(), "c", types.IntType())
		wantRows(t, decodeFile(t, tb, header, dir+"optional_quote_characters.csv"), "+I[1, 2, 3]")
	})
	t.Run("sniff_limit", func(t *testing.T) {
		tb := cols("a", types.IntType(), "b", types.IntType(), "c", types.IntType())
		wantRows(t, decodeFile(t, tb, with(header, OptFieldDelimiter, ";"), dir+"sniff_limit.csv"), "+I[1, 2, 3]")
		wantErr(t, decodeFile(t, tb, header, dir+"sniff_limit.csv").err, "sniff_limit.csv", 2, 0, "", "row has 1 fields, expected 3")
	})
	t.Run("sort_ints_nulls", func(t *testing.T) {
		tb := cols("a", types.IntType(), "b", types.IntType(), "c", types.IntType())
		wantRows(t, decodeFile(t, tb, header, dir+"sort_ints_nulls.csv"), "+I[1, 2, 3]", "+I[4, null, 6]", "+I[5, 1, 7]")
	})
	t.Run("test_date_format", func(t *testing.T) {
		wantErr(t, decodeFile(t, cols("a", types.DateType()), header, dir+"test_date_format.csv").err, "test_date_format.csv", 2, 1, "a", `"02/01/2014"`)
		wantRows(t, decodeFile(t, strTable("a"), header, dir+"test_date_format.csv"), "+I[02/01/2014]", "+I[31/12/2012]")
	})
	t.Run("test_empty_columns", func(t *testing.T) {
		tb := strTable("a", "b", "c", "d", "e")
		wantErr(t, decodeFile(t, tb, header, dir+"test_empty_columns.csv").err, "test_empty_columns.csv", 3, 0, "", "row has 4 fields, expected 5")
		wantRows(t, decodeFile(t, tb, with(header, OptIgnoreParseErrors, "true"), dir+"test_empty_columns.csv"),
			"+I[a, , , , ]", "+I[, , c, , null]", "+I[, , , , ]")
	})
	t.Run("test_empty_columns_long_row", func(t *testing.T) {
		wantErr(t, decodeFile(t, strTable("a", "b", "c"), header, dir+"test_empty_columns_long_row.csv").err, "test_empty_columns_long_row.csv", 2, 4, "", "row has 4 fields, expected 3")
	})
	t.Run("test_empty_columns_short_row", func(t *testing.T) {
		wantErr(t, decodeFile(t, strTable("a", "b", "c"), header, dir+"test_empty_columns_short_row.csv").err, "test_empty_columns_short_row.csv", 2, 0, "", "row has 2 fields, expected 3")
	})
	t.Run("test_extra_header", func(t *testing.T) {
		wantErr(t, decodeFile(t, strTable("a", "b", "c", "d"), header, dir+"test_extra_header.csv").err, "test_extra_header.csv", 2, 0, "", "row has 3 fields, expected 4")
	})
	t.Run("test_header_newline", func(t *testing.T) {
		// The quoted header spans 7 physical lines (3 LF and 3 lone CR).
		wantRows(t, decodeFile(t, strTable("a", "b", "c"), header, dir+"test_header_newline.csv"), "+I[d, e, f]")
		tb := cols("a", types.StringType(), "b", types.IntType(), "c", types.StringType())
		wantErr(t, decodeFile(t, tb, header, dir+"test_header_newline.csv").err, "test_header_newline.csv", 8, 2, "b", `"e"`)
		res := decodeFile(t, strTable("a", "b", "c"), nil, dir+"test_header_newline.csv")
		if res.err != nil || res.rows[0].Values[0] != "\t\n\v\f\r start \t\n\v\f\r end \t\n\v\f\r" {
			t.Fatalf("header field %q, %v", res.rows[0].Values[0], res.err)
		}
	})
	t.Run("test_latin1", func(t *testing.T) {
		tb := cols("a", types.IntType(), "b", types.IntType(), "c", types.StringType())
		wantErr(t, decodeFile(t, tb, header, dir+"test_latin1.csv").err, "test_latin1.csv", 3, 3, "c", "invalid UTF-8 byte 0xA9")
		wantRows(t, decodeFile(t, tb, with(header, OptInvalidUTF8, "replace"), dir+"test_latin1.csv"), "+I[1, 2, 3]", "+I[4, 5, \uFFFD]")
	})
	t.Run("test_locale", func(t *testing.T) {
		wantRows(t, decodeFile(t, strTable("a", "b", "c"), header, dir+"test_locale.csv"), "+I[1,7, 200.000.000, ]")
		tb := cols("a", types.DoubleType(), "b", types.StringType(), "c", types.StringType())
		wantErr(t, decodeFile(t, tb, header, dir+"test_locale.csv").err, "test_locale.csv", 2, 1, "a", `cannot parse "1,7" as DOUBLE`)
	})
	t.Run("test_no_leading_zeroes", func(t *testing.T) {
		tb := cols("a", types.IntType(), "b", types.DoubleType(), "c", types.DecimalType(3, 2))
		wantRows(t, decodeFile(t, tb, header, dir+"test_no_leading_zeroes.csv"), "+I[1, 0.11, 0.10]")
	})
	t.Run("test_numeric_date_format", func(t *testing.T) {
		wantErr(t, decodeFile(t, cols("a", types.DateType()), header, dir+"test_numeric_date_format.csv").err, "test_numeric_date_format.csv", 2, 1, "a", `"20140102"`)
		wantRows(t, decodeFile(t, cols("a", types.IntType()), header, dir+"test_numeric_date_format.csv"), "+I[20140102]", "+I[20121231]")
	})
	t.Run("test_precision", func(t *testing.T) {
		wantRows(t, decodeFile(t, cols("a", types.DoubleType()), header, dir+"test_precision.csv"), "+I[1.234567]")
		wantRows(t, decodeFile(t, cols("a", types.DecimalType(10, 2)), header, dir+"test_precision.csv"), "+I[1.23]")
	})
	t.Run("test_skip_lines", func(t *testing.T) {
		tb := cols("a", types.IntType(), "b", types.IntType(), "c", types.IntType())
		wantRows(t, decodeFile(t, tb, header, dir+"test_skip_lines.csv"), "+I[1, 2, 3]")
	})
	for _, f := range []string{"test_utf16_big.csv", "test_utf16_little.csv"} {
		t.Run(f, func(t *testing.T) {
			wantErr(t, decodeFile(t, strTable("a", "b", "c"), header, dir+f).err, f, 1, 0, "", "UTF-16 byte order mark")
		})
	}
	t.Run("test_utf8", func(t *testing.T) {
		wantRows(t, decodeFile(t, strTable("foo", "bar", "baz"), header, dir+"test_utf8.csv"), "+I[1, 2, 3]", "+I[4, 5, ʤ]")
	})
	t.Run("test_utf8_bom", func(t *testing.T) {
		wantRows(t, decodeFile(t, strTable("foo", "bar", "baz"), nil, dir+"test_utf8_bom.csv"), "+I[foo, bar, baz]", "+I[1, 2, 3]", "+I[4, 5, ʤ]")
	})
}

func TestAirports(t *testing.T) {
	tb := cols("iata", types.StringType(), "name", types.StringType(), "city", types.StringType(), "state", types.StringType(),
		"country", types.StringType(), "latitude", types.DoubleType(), "longitude", types.DoubleType())
	res := decodeFile(t, tb, header, "airports.csv")
	if res.err != nil {
		t.Fatal(res.err)
	}
	if len(res.rows) != 3376 {
		t.Fatalf("%d rows", len(res.rows))
	}
	if got := res.rows[0].String(); got != "+I[00M, Thigpen, Bay Springs, MS, USA, 31.95376472, -89.23450472]" {
		t.Fatalf("first row %s", got)
	}
	commas, na, bud := 0, 0, 0
	for _, r := range res.rows {
		for _, v := range r.Values[:5] {
			if strings.Contains(v.(string), ",") {
				commas++
			}
		}
		if r.Values[3] == "NA" {
			na++
		}
		if r.Values[1] == `W. H. "Bud" Barron` {
			bud++
		}
	}
	if commas != 9 || na != 12 || bud != 1 {
		t.Fatalf("quoted commas %d (want 9), NA states %d (want 12), doubled quotes %d (want 1)", commas, na, bud)
	}
}

func TestFlightsHead(t *testing.T) {
	tb := cols("date", types.TimestampType(0), "delay", types.IntType(), "distance", types.IntType(), "origin", types.StringType(), "destination", types.StringType())
	res := decodeFile(t, tb, header, "flights-head2000.csv")
	if res.err != nil {
		t.Fatal(res.err)
	}
	if len(res.rows) != 2000 {
		t.Fatalf("%d rows", len(res.rows))
	}
	wantFirst := types.NewRow(time.Date(2001, 1, 1, 0, 1, 0, 0, time.UTC), int32(33), int32(2176), "LAS", "PHL")
	if !res.rows[0].Equal(wantFirst) {
		t.Fatalf("first row %s", res.rows[0])
	}
	// Reading the timestamp column as TIMESTAMP without the header fails on
	// the header with its location.
	wantErr(t, decodeFile(t, tb, nil, "flights-head2000.csv").err, "flights-head2000.csv", 1, 1, "date", `cannot parse "date" as TIMESTAMP(0)`)
}

func TestBirdstrikes(t *testing.T) {
	tb := cols("Airport Name", types.StringType(), "Aircraft Make Model", types.StringType(), "Effect Amount of damage", types.StringType(),
		"Flight Date", types.DateType(), "Aircraft Airline Operator", types.StringType(), "Origin State", types.StringType(),
		"Phase of flight", types.StringType(), "Wildlife Size", types.StringType(), "Wildlife Species", types.StringType(),
		"Time of day", types.StringType(), "Cost Other", types.IntType(), "Cost Repair", types.IntType(), "Cost Total $", types.IntType(),
		"Speed IAS in knots", types.IntType())
	res := decodeFile(t, tb, header, "birdstrikes-head1000.csv")
	if res.err != nil {
		t.Fatal(res.err)
	}
	nulls := 0
	for _, r := range res.rows {
		if r.Values[13] == nil {
			nulls++
		}
	}
	if len(res.rows) != 1000 || nulls != 122 {
		t.Fatalf("%d rows, %d NULL speeds (want 1000, 122)", len(res.rows), nulls)
	}
	if res.rows[0].Values[3] != types.DateOf(1990, 1, 8) || res.rows[0].Values[13] != int32(300) {
		t.Fatalf("first row %s", res.rows[0])
	}
}

func TestMayweatherTweets(t *testing.T) {
	tb := cols("created_at", types.TimestampType(0), "emojis", types.BooleanType(), "id", types.BigIntType(), "link", types.StringType(),
		"retweeted", types.BooleanType(), "screen_name", types.StringType(), "text", types.StringType())
	res := decodeFile(t, tb, header, "tweets-mayweather-mcgregor-head600.csv")
	if res.err != nil {
		t.Fatal(res.err)
	}
	if len(res.rows) != 600 {
		t.Fatalf("%d rows", len(res.rows))
	}
	r := res.rows[299]
	if r.Values[1] != true || r.Values[4] != false || r.Values[2] != int64(901657236212031488) {
		t.Fatalf("row 300: %s", r)
	}
	multiline, bareCR := 0, 0
	for _, r := range res.rows {
		s := r.Values[6].(string)
		if strings.Contains(s, "\n") {
			multiline++
		}
		if i := strings.IndexByte(s, '\r'); i >= 0 && (i+1 == len(s) || s[i+1] != '\n') {
			bareCR++
		}
	}
	if multiline == 0 || bareCR == 0 {
		t.Fatalf("multi-line texts %d, bare CRs %d", multiline, bareCR)
	}
	// A bad value in record 300 is reported at its physical line, 396.
	data := readTestFile(t, "tweets-mayweather-mcgregor-head600.csv")
	bad := strings.Replace(data, ",901657236212031488,", ",9016572362x2031488,", 1)
	res = decodeReader(t, tb, header, strings.NewReader(bad), "tweets.csv", 0)
	wantErr(t, res.err, "tweets.csv", 396, 3, "id", `cannot parse "9016572362x2031488" as BIGINT`)
}

func TestMojibakeTweets(t *testing.T) {
	tb := cols("created_at", types.StringType(), "text", types.StringType(), "url", types.StringType(), "replies", types.IntType(),
		"retweets", types.IntType(), "favorites", types.IntType(), "user", types.StringType())
	// Jackson (and so Flink) fails on the first byte that is not UTF-8.
	res := decodeFile(t, tb, header, "tweets-realDonaldTrump-mojibake-head200.csv")
	wantErr(t, res.err, "tweets-realDonaldTrump-mojibake-head200.csv", 15, 2, "text", "invalid UTF-8 byte 0x89")
	res = decodeFile(t, tb, with(header, OptInvalidUTF8, "replace"), "tweets-realDonaldTrump-mojibake-head200.csv")
	if res.err != nil || len(res.rows) != 200 || res.reader.ReplacedInvalidUTF8() != 40 {
		t.Fatalf("replace: %d rows, %d replaced, %v", len(res.rows), res.reader.ReplacedInvalidUTF8(), res.err)
	}
	res = decodeFile(t, tb, with(header, OptIgnoreParseErrors, "true"), "tweets-realDonaldTrump-mojibake-head200.csv")
	if res.err != nil || len(res.rows)+int(res.skipped) != 200 || res.skipped == 0 {
		t.Fatalf("ignore: %d rows, %d skipped, %v", len(res.rows), res.skipped, res.err)
	}
	// The M/d/yy H:mm dates are not Flink timestamps.
	tb.types[0] = types.TimestampType(0)
	wantErr(t, decodeFile(t, tb, with(header, OptInvalidUTF8, "replace"), "tweets-realDonaldTrump-mojibake-head200.csv").err,
		"tweets-realDonaldTrump-mojibake-head200.csv", 2, 1, "created_at", `cannot parse "10/23/17 12:30" as TIMESTAMP(0)`)
}

func TestPollsterRatings(t *testing.T) {
	names := make([]string, 25)
	for i := range names {
		names[i] = "c" + string(rune('a'+i))
	}
	res := decodeFile(t, strTable(names...), nil, "pollster-ratings-2019.csv")
	if res.err != nil {
		t.Fatal(res.err)
	}
	if len(res.rows) != 431 || res.rows[0].Values[0] != "Pollster" || res.rows[1].Values[0] != "Monmouth University" {
		t.Fatalf("%d rows, first %q / %q", len(res.rows), res.rows[0].Values[0], res.rows[1].Values[0])
	}
	if res.rows[0].Values[10] != "Mean-Reverted Bias" || res.rows[0].Values[21] != "Mean-Reverted Bias" || res.rows[0].Values[24] != "Herding Penalty" {
		t.Fatalf("header %v", res.rows[0])
	}
	degree := 0
	for _, r := range res.rows[1:] {
		if strings.HasSuffix(r.Values[9].(string), "°") {
			degree++
		}
	}
	if degree == 0 {
		t.Fatal("no provisional grades with a degree sign")
	}
}
