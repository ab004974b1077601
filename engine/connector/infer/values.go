package infer

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/riffle-sql/riffle/engine/types"
)

// textStats accumulates what the values of one text column (a CSV column
// or a JSON string field) could be.
type textStats struct {
	n, empty int64
	example  string

	boolOK, intOK, numOK, dateOK, tsOK, ltzOK, isoOK, isoZOK bool
	// numbers
	bigInt      bool // an integer beyond ±2^53 (DOUBLE would round it)
	leadingZero bool // 007: an identifier, not a number
	hasExp      bool
	hasDot      bool
	scales      map[int]bool // fractional digits of values with a '.'
	intDigits   int          // most digits before the point
	// timestamps
	tsPrec int
	// otherTime names a date/time layout the formats cannot read
	// (M/d/yy H:mm); "" when none or mixed.
	otherTime     string
	otherTimeSeen bool
	// javaPattern is the exact layout of those values as a Java
	// DateTimeFormatter pattern (for TO_TIMESTAMP), "" when it varies;
	// patternOrder orders the values it reads.
	javaPattern  string
	patternSeen  bool
	patternOrder orderStats
	// nonNumeric counts the distinct values that keep a mostly numeric
	// column from being numeric (NA, N/A, -), up to a few.
	nonNumeric map[string]int64
	numeric    int64

	order orderStats
}

func newTextStats() *textStats {
	return &textStats{boolOK: true, intOK: true, numOK: true, dateOK: true, tsOK: true, ltzOK: true, isoOK: true, isoZOK: true,
		scales: map[int]bool{}, nonNumeric: map[string]int64{}}
}

var otherLayouts = []struct {
	re   *regexp.Regexp
	name string
}{
	{regexp.MustCompile(`^\d{1,2}/\d{1,2}/\d{2}( \d{1,2}:\d{2}(:\d{2})?)?$`), "M/d/yy H:mm"},
	{regexp.MustCompile(`^\d{1,2}/\d{1,2}/\d{4}( \d{1,2}:\d{2}(:\d{2})?)?$`), "M/d/yyyy H:mm"},
	{regexp.MustCompile(`^\d{1,2}\.\d{1,2}\.\d{4}( \d{1,2}:\d{2}(:\d{2})?)?$`), "d.M.yyyy"},
	{regexp.MustCompile(`^\d{4}/\d{1,2}/\d{1,2}( \d{1,2}:\d{2}(:\d{2})?)?$`), "yyyy/M/d"},
}

// add classifies one value (for CSV: the field text; "" is NULL for
// every type but STRING).
func (s *textStats) add(v string) {
	s.n++
	if v == "" {
		s.empty++
		return
	}
	if s.example == "" {
		s.example = v
	}
	t := strings.TrimSpace(v)
	if s.boolOK && !strings.EqualFold(t, "true") && !strings.EqualFold(t, "false") {
		s.boolOK = false
	}
	isInt := isInteger(t)
	isNum := isInt || isDecimal(t)
	if isNum {
		s.numeric++
		digits := strings.TrimLeft(t, "+-")
		if len(digits) > 1 && digits[0] == '0' && digits[1] != '.' {
			s.leadingZero = true
		}
		if isInt {
			if _, err := strconv.ParseInt(t, 10, 64); err != nil {
				s.intOK = false // beyond BIGINT
			}
			if n, err := strconv.ParseInt(t, 10, 64); err == nil && (n > 1<<53 || n < -(1<<53)) {
				s.bigInt = true
			}
		}
		if strings.ContainsAny(digits, "eE") {
			s.hasExp = true
		}
		whole, frac, dot := strings.Cut(strings.ToLower(digits), ".")
		if i := strings.IndexByte(frac, 'e'); i >= 0 {
			frac = frac[:i]
		}
		if i := strings.IndexByte(whole, 'e'); i >= 0 {
			whole = whole[:i]
		}
		if dot {
			s.hasDot = true
			s.scales[len(frac)] = true
		}
		s.intDigits = max(s.intDigits, len(strings.TrimLeft(whole, "0")))
	} else if len(s.nonNumeric) <= 3 {
		s.nonNumeric[t]++
	} else {
		s.nonNumeric["\x00more"]++
	}
	if !isInt {
		s.intOK = false
	}
	if !isNum {
		s.numOK = false
	}
	if s.dateOK {
		if !isDate(v) {
			s.dateOK = false
		} else {
			d, _ := types.ParseDate(v)
			s.order.add(int64(d) * 86_400_000)
		}
	}
	if s.tsOK || s.ltzOK || s.isoOK || s.isoZOK {
		kind, prec, ts := classifyTimestamp(t)
		s.tsOK = s.tsOK && kind == tsSQL
		s.ltzOK = s.ltzOK && kind == tsSQLZ
		s.isoOK = s.isoOK && kind == tsISO
		s.isoZOK = s.isoZOK && kind == tsISOZ
		if kind != tsNone {
			s.tsPrec = max(s.tsPrec, prec)
			if !s.dateOK {
				s.order.add(ts.UnixMilli())
			}
		}
	}
	if !s.patternSeen || s.javaPattern != "" {
		p, ms := javaLayout(t)
		if !s.patternSeen {
			s.javaPattern, s.patternSeen = p, true
		} else if p != s.javaPattern {
			s.javaPattern = ""
		}
		if s.javaPattern != "" {
			s.patternOrder.add(ms)
		}
	}
	if !s.otherTimeSeen || s.otherTime != "" {
		layout := ""
		for _, l := range otherLayouts {
			if l.re.MatchString(t) {
				layout = l.name
				break
			}
		}
		if !s.otherTimeSeen {
			s.otherTime = layout
			s.otherTimeSeen = true
		} else if layout != s.otherTime {
			s.otherTime = ""
		}
	}
}

var javaLayoutRe = regexp.MustCompile(`^(\d{1,2})/(\d{1,2})/(\d{2}|\d{4})(?: (\d{1,2}):(\d{2})(?::(\d{2}))?)?$`)

// javaLayout derives the Java pattern of an M/d/yy[yy] [H:mm[:ss]] value
// and its time in milliseconds (two-digit years are 2000-2099); "" for
// other text.
func javaLayout(s string) (string, int64) {
	m := javaLayoutRe.FindStringSubmatch(s)
	if m == nil {
		return "", 0
	}
	mo, _ := strconv.Atoi(m[1])
	d, _ := strconv.Atoi(m[2])
	y, _ := strconv.Atoi(m[3])
	p := "M/d/yyyy"
	if len(m[3]) == 2 {
		p, y = "M/d/yy", 2000+y
	}
	if mo < 1 || mo > 12 || d < 1 || d > 31 {
		return "", 0
	}
	var h, mi, sec int
	if m[4] != "" {
		h, _ = strconv.Atoi(m[4])
		mi, _ = strconv.Atoi(m[5])
		p += " H:mm"
		if m[6] != "" {
			sec, _ = strconv.Atoi(m[6])
			p += ":ss"
		}
	}
	return p, time.Date(y, time.Month(mo), d, h, mi, sec, 0, time.UTC).UnixMilli()
}

// isInteger accepts Java Long.parseLong syntax: [+-]digits.
func isInteger(s string) bool {
	d := strings.TrimLeft(s, "+-")
	if d == "" || len(s)-len(d) > 1 {
		return false
	}
	for i := 0; i < len(d); i++ {
		if d[i] < '0' || d[i] > '9' {
			return false
		}
	}
	return true
}

// isDecimal accepts [+-]digits[.digits][e[+-]digits] with at least one
// digit (a subset of Java's Double.parseDouble that BigDecimal reads too).
func isDecimal(s string) bool {
	d := strings.TrimLeft(s, "+-")
	if len(s)-len(d) > 1 || d == "" {
		return false
	}
	i, digits := 0, 0
	for i < len(d) && d[i] >= '0' && d[i] <= '9' {
		i++
		digits++
	}
	if i < len(d) && d[i] == '.' {
		i++
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
			digits++
		}
	}
	if digits == 0 {
		return false
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		exp := 0
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
			exp++
		}
		if exp == 0 {
			return false
		}
	}
	return i == len(d)
}

// isDate accepts yyyy-M-d (java.sql.Date.valueOf) for real calendar dates.
func isDate(s string) bool {
	if len(s) < 8 || len(s) > 10 || s[4] != '-' {
		return false
	}
	for i := 0; i < 4; i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	_, err := types.ParseDate(s)
	return err == nil
}

type tsKind uint8

const (
	tsNone tsKind = iota
	tsSQL         // 2001-01-01 10:00:00[.fff]
	tsSQLZ        // the same with a trailing Z (csv TIMESTAMP_LTZ)
	tsISO         // 2001-01-01T10:00:00[.fff]
	tsISOZ        // with Z
)

var tsRe = regexp.MustCompile(`^(\d{4}-\d{1,2}-\d{1,2})([ T])(\d{1,2}:\d{2}(:\d{2}(\.(\d{1,9}))?)?)(Z?)$`)

// classifyTimestamp recognises the timestamp layouts the formats read and
// returns the fractional precision and the value (as UTC wall clock).
func classifyTimestamp(s string) (tsKind, int, time.Time) {
	m := tsRe.FindStringSubmatch(s)
	if m == nil || m[4] == "" {
		return tsNone, 0, time.Time{}
	}
	t, err := types.ParseTimestamp(m[1] + " " + m[3])
	if err != nil {
		return tsNone, 0, time.Time{}
	}
	prec := len(m[6])
	switch {
	case m[2] == " " && m[7] == "":
		return tsSQL, prec, t
	case m[2] == " ":
		return tsSQLZ, prec, t
	case m[7] == "":
		return tsISO, prec, t
	}
	return tsISOZ, prec, t
}

// orderStats measures how far timestamps are out of order in file order.
type orderStats struct {
	n            int64
	maxSeen      int64
	minSeen      int64
	maxLateness  int64 // ms
	steps, downs int64
	last         int64
}

func (o *orderStats) add(ms int64) {
	if o.n == 0 {
		o.maxSeen, o.minSeen, o.last = ms, ms, ms
		o.n++
		return
	}
	o.n++
	if ms != o.last {
		o.steps++
		if ms < o.last {
			o.downs++
		}
	}
	o.last = ms
	if ms > o.maxSeen {
		o.maxSeen = ms
	}
	if ms < o.minSeen {
		o.minSeen = ms
	}
	if l := o.maxSeen - ms; l > o.maxLateness {
		o.maxLateness = l
	}
}

// describe names the order and proposes a watermark delay: at least the
// largest lateness, rounded up to a round figure (1 second when the file
// is ascending).
func (o *orderStats) describe() (order, delay, unit string) {
	switch {
	case o.maxLateness == 0:
		order = "ascending"
	case o.steps > 0 && float64(o.downs)/float64(o.steps) > 0.9:
		order = "descending"
	default:
		order = "out of order"
	}
	ms := o.maxLateness
	if ms == 0 {
		return order, "1", "SECOND"
	}
	units := []struct {
		name string
		ms   int64
	}{{"SECOND", 1000}, {"MINUTE", 60_000}, {"HOUR", 3_600_000}, {"DAY", 86_400_000}}
	for i, u := range units {
		n := int64(math.Ceil(float64(ms) / float64(u.ms)))
		if i+1 < len(units) && n > 120 && ms >= units[i+1].ms {
			continue
		}
		return order, strconv.FormatInt(n, 10), u.name
	}
	return order, strconv.FormatInt(ms/86_400_000+1, 10), "DAY"
}
