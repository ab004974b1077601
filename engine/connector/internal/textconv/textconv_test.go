package textconv

import (
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

func TestParseInt(t *testing.T) {
	ok := map[string]int64{"0": 0, "-5": -5, "+7": 7, " 12 ": 12, "2147483647": math.MaxInt32, "-2147483648": math.MinInt32, "000000000000000000001": 1}
	for s, want := range ok {
		got, good := ParseInt([]byte(s), 32)
		if !good || got != want {
			t.Errorf("ParseInt(%q) = %d, %v", s, got, good)
		}
	}
	for _, s := range []string{"", "-", "1.5", "2147483648", "-2147483649", "1e3", "12a", "١"} {
		if _, good := ParseInt([]byte(s), 32); good {
			t.Errorf("ParseInt(%q) accepted", s)
		}
	}
	if v, ok := ParseInt([]byte("-9223372036854775808"), 64); !ok || v != math.MinInt64 {
		t.Errorf("min int64: %d %v", v, ok)
	}
	if _, ok := ParseInt([]byte("9223372036854775808"), 64); ok {
		t.Errorf("overflow accepted")
	}
	if _, ok := ParseInt([]byte("128"), 8); ok {
		t.Errorf("tinyint overflow accepted")
	}
}

func TestParseFloat(t *testing.T) {
	ok := map[string]float64{"1.5": 1.5, "-2": -2, " 3e2 ": 300, "1.0d": 1, "2f": 2, ".5": .5, "5.": 5, "Infinity": math.Inf(1), "-Infinity": math.Inf(-1)}
	for s, want := range ok {
		got, good := ParseFloat([]byte(s), 64)
		if !good || got != want {
			t.Errorf("ParseFloat(%q) = %v, %v", s, got, good)
		}
	}
	if v, ok := ParseFloat([]byte("NaN"), 64); !ok || !math.IsNaN(v) {
		t.Errorf("NaN")
	}
	for _, s := range []string{"", "inf", "nan", "1,5", "abc", "1.2.3", "--1"} {
		if _, good := ParseFloat([]byte(s), 64); good {
			t.Errorf("ParseFloat(%q) accepted", s)
		}
	}
}

func TestDates(t *testing.T) {
	for _, days := range []int64{-800000, -719468, -1, 0, 1, 11016, 19753, 2932896} {
		y, m, d := CivilFromDays(days)
		if back := DaysFromCivil(y, m, d); back != days {
			t.Fatalf("%d -> %d-%d-%d -> %d", days, y, m, d, back)
		}
	}
	if d, ok := ParseDateISO([]byte("2024-01-31")); !ok || d != 19753 {
		t.Errorf("2024-01-31 = %d %v", d, ok)
	}
	if d, ok := ParseDateSQL([]byte("2024-1-5")); !ok || d != 19727 {
		t.Errorf("2024-1-5 = %d %v", d, ok)
	}
	for _, s := range []string{"2024-1-5", "2023-02-29", "2024-13-01", "24-01-01", "2024/01/01", "2024-01-31 "} {
		if _, ok := ParseDateISO([]byte(s)); ok {
			t.Errorf("ISO accepted %q", s)
		}
	}
	if string(AppendDate(nil, 19753)) != "2024-01-31" || string(AppendDate(nil, 0)) != "1970-01-01" {
		t.Errorf("AppendDate")
	}
}

func TestTimestamps(t *testing.T) {
	type tc struct {
		in        string
		sep       byte
		z, secOpt bool
		sec       int64
		nanos     int32
		ok        bool
	}
	for _, c := range []tc{
		{"2001-01-01 00:01:00", ' ', false, false, 978307260, 0, true},
		{"2001-01-01 00:01:00.5", ' ', false, false, 978307260, 500000000, true},
		{"2001-01-01 00:01:00.123456789", ' ', false, false, 978307260, 123456789, true},
		{"2001-01-01T00:01:00", ' ', false, false, 0, 0, false},
		{"2001-01-01T00:01", 'T', false, true, 978307260, 0, true},
		{"2001-01-01 00:01", ' ', false, false, 0, 0, false},
		{"1970-01-01 00:02:03Z", ' ', true, false, 123, 0, true},
		{"1970-01-01 00:02:03", ' ', true, false, 0, 0, false},
		{"2001-02-29 00:00:00", ' ', false, false, 0, 0, false},
		{"2001-01-01 24:00:00", ' ', false, false, 0, 0, false},
		{"1969-12-31 23:59:59", ' ', false, false, -1, 0, true},
		// the fast path with a fraction of 1 to 9 digits, and what it leaves to the slow one
		{"2024-01-01 00:00:00.001", ' ', false, false, 1704067200, 1000000, true},
		{"2024-01-01 00:00:00.1234567", ' ', false, false, 1704067200, 123456700, true},
		{"2024-01-01 00:00:00.", ' ', false, false, 0, 0, false},
		{"2024-01-01 00:00:00.12a", ' ', false, false, 0, 0, false},
		{"2024-01-01 00:00:00.1234567890", ' ', false, false, 0, 0, false},
		{"2024-01-01 00:00:00 ", ' ', false, false, 0, 0, false},
		{"2024-02-30 00:00:00.000", ' ', false, false, 0, 0, false},
		{"2024-01-01 00:00:60.000", ' ', false, false, 0, 0, false},
		{"2024-01-01 00:00:00.000Z", ' ', true, false, 1704067200, 0, true},
		{"2024-01-01 00:00:00.000", ' ', true, false, 0, 0, false},
	} {
		sec, n, ok := ParseTimestamp([]byte(c.in), c.sep, c.z, c.secOpt)
		if ok != c.ok || (ok && (sec != c.sec || n != c.nanos)) {
			t.Errorf("ParseTimestamp(%q) = %d %d %v", c.in, sec, n, ok)
		}
	}
	if got := string(AppendTimestamp(nil, 978307260, 120000000, ' ')); got != "2001-01-01 00:01:00.12" {
		t.Errorf("AppendTimestamp = %q", got)
	}
	if got := string(AppendTimestamp(nil, -1, 0, 'T')); got != "1969-12-31T23:59:59" {
		t.Errorf("AppendTimestamp = %q", got)
	}
	if n, ok := ParseTime([]byte("12:12"), true); !ok || n != (12*60+12)*60*1e9 {
		t.Errorf("ParseTime")
	}
	if _, ok := ParseTime([]byte("12:12"), false); ok {
		t.Errorf("ParseTime without seconds accepted")
	}
}

func TestParseDecimal(t *testing.T) {
	type tc struct {
		in    string
		p, s  int
		want  string
		fails bool
	}
	for _, c := range []tc{
		{"12.34", 10, 2, "12.34", false},
		{"12.345", 10, 2, "12.35", false},
		{"-12.345", 10, 2, "-12.35", false},
		{"12.344", 10, 2, "12.34", false},
		{"1e3", 10, 2, "1000.00", false},
		{"1.5E-1", 10, 2, "0.15", false},
		{"+.5", 5, 1, "0.5", false},
		{"1234.0000000000000000000000001", 38, 25, "1234.0000000000000000000000001", false},
		{"123400000000000000000000000001", 38, 0, "123400000000000000000000000001", false},
		{"99999999999999999999999999999999999999", 38, 0, "99999999999999999999999999999999999999", false},
		{"100000000000000000000000000000000000000", 38, 0, "", true},
		{"1000", 3, 0, "", true},
		{"999.995", 5, 2, "", true},
		{"0.000000000000000000000000000000000001", 10, 2, "0.00", false},
		{"abc", 10, 2, "", true},
		{"1.2.3", 10, 2, "", true},
		{"", 10, 2, "", true},
		{" 1", 10, 2, "", true},
	} {
		n, err := ParseDecimal([]byte(c.in), c.p, c.s)
		if c.fails {
			if err == nil {
				t.Errorf("ParseDecimal(%q, %d, %d) accepted: %s", c.in, c.p, c.s, n.ToString(int32(c.s)))
			}
			continue
		}
		if err != nil || n.ToString(int32(c.s)) != c.want {
			t.Errorf("ParseDecimal(%q, %d, %d) = %s, %v", c.in, c.p, c.s, n.ToString(int32(c.s)), err)
		}
	}
}

func TestAppendDecimalJava(t *testing.T) {
	type tc struct {
		unscaled     int64
		scale        int32
		strip, plain bool
		want         string
	}
	for _, c := range []tc{
		{100000000, 3, true, false, "1E+5"},
		{100000000, 3, true, true, "100000"},
		{150, 2, true, false, "1.5"},
		{150, 2, false, false, "1.50"},
		{1, 7, false, false, "1E-7"},
		{1, 7, false, true, "0.0000001"},
		{1, 6, false, false, "0.000001"},
		{-1234, 2, false, false, "-12.34"},
		{0, 2, true, false, "0"},
		{0, 2, false, false, "0.00"},
		{-5, 0, false, false, "-5"},
	} {
		got := string(AppendDecimal(nil, decimal128.FromI64(c.unscaled), c.scale, c.strip, c.plain))
		if got != c.want {
			t.Errorf("AppendDecimal(%d, %d, strip=%v, plain=%v) = %q, want %q", c.unscaled, c.scale, c.strip, c.plain, got, c.want)
		}
	}
}

func TestAppendDoubleJava(t *testing.T) {
	for f, want := range map[float64]string{1: "1.0", 0.1: "0.1", 1e7: "1.0E7", 1.23e-5: "1.23E-5", 123456.5: "123456.5", -0.001: "-0.001", 1e-4: "1.0E-4"} {
		if got := string(AppendDoubleJava(nil, f, 64)); got != want {
			t.Errorf("AppendDoubleJava(%v) = %q, want %q", f, got, want)
		}
	}
	if got := string(AppendDoubleJava(nil, float64(float32(0.1)), 32)); got != "0.1" {
		t.Errorf("float32 0.1 = %q", got)
	}
}
