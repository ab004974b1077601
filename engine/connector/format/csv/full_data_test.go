package csv

import (
	"os"
	"testing"

	"github.com/riffle-sql/riffle/engine/types"
)

// TestSharedDataFull reads the full data files of the project's shared
// data set when it is present next to the repository (a developer
// machine); a fresh clone skips it and relies on the extracts in testdata.
func TestSharedDataFull(t *testing.T) {
	const dir = "../../../../../../shared/data/"
	if _, err := os.Stat(dir + "flights-2001-01-01_14.csv"); err != nil {
		t.Skip("shared data not present")
	}
	cases := []struct {
		file string
		tb   table
		opts map[string]string
		rows int
	}{
		{"flights-2001-01-01_14.csv", flightsTable, header, 228738},
		{"airports.csv", strTable("a", "b", "c", "d", "e", "f", "g"), header, 3376},
		{"birdstrikes.csv", strTable("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14"), header, 10000},
		{"tweets-mayweather-mcgregor.csv", cols("created_at", types.TimestampType(0), "emojis", types.BooleanType(), "id", types.BigIntType(),
			"link", types.StringType(), "retweeted", types.BooleanType(), "screen_name", types.StringType(), "text", types.StringType()), header, 12118},
		{"tweets-realDonaldTrump-mojibake.csv", cols("created_at", types.StringType(), "text", types.StringType(), "url", types.StringType(),
			"replies", types.IntType(), "retweets", types.IntType(), "favorites", types.IntType(), "user", types.StringType()),
			with(header, OptInvalidUTF8, "replace"), 3232},
		{"pollster-ratings-2019.csv", strTable("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "16", "17", "18", "19", "20", "21", "22", "23", "24", "25"), header, 430},
	}
	for _, c := range cases {
		f, err := os.Open(dir + c.file)
		if err != nil {
			t.Fatal(err)
		}
		res := decodeReader(t, c.tb, c.opts, f, c.file, 0)
		f.Close()
		if res.err != nil || len(res.rows) != c.rows {
			t.Errorf("%s: %d rows (want %d), %v", c.file, len(res.rows), c.rows, res.err)
		}
	}
}
