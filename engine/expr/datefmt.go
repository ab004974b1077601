package expr

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Java date patterns (java.text.SimpleDateFormat letters), as DATE_FORMAT,
// FROM_UNIXTIME, TO_TIMESTAMP, TO_DATE, UNIX_TIMESTAMP and CONVERT_TZ take
// them.
//
// Supported letters: G (era), y (year; yy = two digits), Y (week year), M/L
// (month: M, MM, MMM = Jan, MMMM = January), w (week of year), W (week of
// month), D (day of year), d (day of month), F (day of week in month), E
// (day name: EEE = Tue, EEEE = Tuesday), u (day number of week, 1 =
// Monday), a (AM/PM), H (hour 0-23), k (hour 1-24), K (hour 0-11), h (hour
// 1-12), m (minute), s (second), S (milliseconds, as SimpleDateFormat: the
// count of letters is the minimum width), z (zone name), Z (-0800), X (ISO
// zone: Z, -08, -0800, -08:00); text in single quotes is literal and ''
// is a quote. Weeks follow Java's default locale rules for en_US (weeks
// start on Sunday, week 1 contains January 1).

type dfToken struct {
	letter byte // 0 for a literal
	count  int
	lit    string
}

var datePatternCache sync.Map // string -> []dfToken

func compileDatePattern(p string) ([]dfToken, error) {
	if v, ok := datePatternCache.Load(p); ok {
		return v.([]dfToken), nil
	}
	var out []dfToken
	for i := 0; i < len(p); {
		c := p[i]
		switch {
		case c == '\'':
			j := i + 1
			var lit strings.Builder
			for {
				if j >= len(p) {
					return nil, fmt.Errorf("unterminated quote in date pattern '%s'", p)
				}
				if p[j] == '\'' {
					if j+1 < len(p) && p[j+1] == '\'' {
						lit.WriteByte('\'')
						j += 2
						continue
					}
					break
				}
				lit.WriteByte(p[j])
				j++
			}
			if j == i+1 {
				out = append(out, dfToken{lit: "'"})
			} else {
				out = append(out, dfToken{lit: lit.String()})
			}
			i = j + 1
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			if !strings.ContainsRune("GyYMLwWDdFEuaHkKhmsSzZX", rune(c)) {
				return nil, fmt.Errorf("illegal pattern character '%c' in '%s'", c, p)
			}
			j := i
			for j < len(p) && p[j] == c {
				j++
			}
			out = append(out, dfToken{letter: c, count: j - i})
			i = j
		default:
			out = append(out, dfToken{lit: string(c)})
			i++
		}
	}
	datePatternCache.Store(p, out)
	return out, nil
}

// formatJavaDate renders t (its wall clock in t's location) with a Java
// pattern.
func formatJavaDate(t time.Time, pattern string) (string, error) {
	toks, err := compileDatePattern(pattern)
	if err != nil {
		return "", err
	}
	var b []byte
	for _, tk := range toks {
		if tk.letter == 0 {
			b = append(b, tk.lit...)
			continue
		}
		n := tk.count
		switch tk.letter {
		case 'G':
			if t.Year() > 0 {
				b = append(b, "AD"...)
			} else {
				b = append(b, "BC"...)
			}
		case 'y', 'Y':
			y := t.Year()
			if tk.letter == 'Y' {
				y = weekYear(t)
			}
			if n == 2 {
				b = appendPadded(b, int64(y%100), 2)
			} else {
				b = appendPadded(b, int64(y), n)
			}
		case 'M', 'L':
			switch {
			case n >= 4:
				b = append(b, t.Month().String()...)
			case n == 3:
				b = append(b, t.Month().String()[:3]...)
			default:
				b = appendPadded(b, int64(t.Month()), n)
			}
		case 'w':
			b = appendPadded(b, int64(weekOfYear(t)), n)
		case 'W':
			b = appendPadded(b, int64(weekOfMonth(t)), n)
		case 'D':
			b = appendPadded(b, int64(t.YearDay()), n)
		case 'd':
			b = appendPadded(b, int64(t.Day()), n)
		case 'F':
			b = appendPadded(b, int64((t.Day()-1)/7+1), n)
		case 'E':
			if n >= 4 {
				b = append(b, t.Weekday().String()...)
			} else {
				b = append(b, t.Weekday().String()[:3]...)
			}
		case 'u':
			wd := int(t.Weekday())
			if wd == 0 {
				wd = 7
			}
			b = appendPadded(b, int64(wd), n)
		case 'a':
			if t.Hour() < 12 {
				b = append(b, "AM"...)
			} else {
				b = append(b, "PM"...)
			}
		case 'H':
			b = appendPadded(b, int64(t.Hour()), n)
		case 'k':
			h := t.Hour()
			if h == 0 {
				h = 24
			}
			b = appendPadded(b, int64(h), n)
		case 'K':
			b = appendPadded(b, int64(t.Hour()%12), n)
		case 'h':
			h := t.Hour() % 12
			if h == 0 {
				h = 12
			}
			b = appendPadded(b, int64(h), n)
		case 'm':
			b = appendPadded(b, int64(t.Minute()), n)
		case 's':
			b = appendPadded(b, int64(t.Second()), n)
		case 'S':
			b = appendPadded(b, int64(t.Nanosecond()/1e6), n)
		case 'z':
			name, _ := t.Zone()
			b = append(b, name...)
		case 'Z':
			b = appendOffset(b, t, false, false)
		case 'X':
			b = appendOffset(b, t, true, n >= 3)
			if n == 1 {
				// X: hours only
				_, off := t.Zone()
				if off != 0 {
					b = b[:len(b)-2]
				}
			}
		}
	}
	return string(b), nil
}

func appendPadded(b []byte, v int64, width int) []byte {
	s := strconv.FormatInt(v, 10)
	neg := v < 0
	if neg {
		s = s[1:]
		b = append(b, '-')
	}
	for i := len(s); i < width; i++ {
		b = append(b, '0')
	}
	return append(b, s...)
}

func appendOffset(b []byte, t time.Time, iso, colon bool) []byte {
	_, off := t.Zone()
	if iso && off == 0 {
		return append(b, 'Z')
	}
	sign := byte('+')
	if off < 0 {
		sign = '-'
		off = -off
	}
	b = append(b, sign)
	b = appendPadded(b, int64(off/3600), 2)
	if colon {
		b = append(b, ':')
	}
	return appendPadded(b, int64(off/60%60), 2)
}

// weekOfYear follows java.util.GregorianCalendar in the US locale: weeks
// start on Sunday and week 1 is the week containing January 1.
func weekOfYear(t time.Time) int {
	jan1 := time.Date(t.Year(), 1, 1, 0, 0, 0, 0, time.UTC)
	offset := int(jan1.Weekday()) // days of week 1 before Jan 1
	w := (t.YearDay()-1+offset)/7 + 1
	// the last days of December belong to week 1 of the next year
	dec31 := time.Date(t.Year(), 12, 31, 0, 0, 0, 0, time.UTC)
	if t.Month() == 12 && dec31.Weekday() != time.Saturday && t.Day() > 31-int(dec31.Weekday()) {
		return 1
	}
	return w
}

func weekYear(t time.Time) int {
	if t.Month() == 12 && weekOfYear(t) == 1 {
		return t.Year() + 1
	}
	return t.Year()
}

func weekOfMonth(t time.Time) int {
	first := time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
	return (t.Day()-1+int(first.Weekday()))/7 + 1
}

var monthNames = []string{"january", "february", "march", "april", "may", "june", "july",
	"august", "september", "october", "november", "december"}

// parseJavaDate parses s with a Java pattern into a wall-clock time (UTC
// location) and, when the text carried a zone (X, Z), the offset in
// seconds (hasZone). Fields not in the pattern default to 1970-01-01
// 00:00:00. Like java.time's strict resolver it rejects text left over
// and out-of-range fields.
func parseJavaDate(s, pattern string) (t time.Time, offset int, hasZone bool, err error) {
	return parseJavaDateText(s, pattern, false)
}

// parseJavaDatePrefix is parseJavaDate that, like java.text's
// SimpleDateFormat.parse (which Flink's UNIX_TIMESTAMP uses), ignores
// text after the pattern: '… 08:00:01.001 +0800' with pattern
// 'yyyy-MM-dd HH:mm:ss.SSS' parses, the zone offset unread.
func parseJavaDatePrefix(s, pattern string) (t time.Time, offset int, hasZone bool, err error) {
	return parseJavaDateText(s, pattern, true)
}

func parseJavaDateText(s, pattern string, prefix bool) (t time.Time, offset int, hasZone bool, err error) {
	toks, err := compileDatePattern(pattern)
	if err != nil {
		return time.Time{}, 0, false, err
	}
	year, month, day := 1970, 1, 1
	hour, minute, sec, nanos := 0, 0, 0, 0
	pm, hasAmPm, hour12 := false, false, false
	pos := 0
	bad := func() error { return fmt.Errorf("cannot parse '%s' with pattern '%s'", s, pattern) }
	num := func(maxDigits int) (int, bool) {
		start := pos
		if pos < len(s) && (s[pos] == '-' || s[pos] == '+') {
			pos++
		}
		for pos < len(s) && s[pos] >= '0' && s[pos] <= '9' && (maxDigits <= 0 || pos-start < maxDigits) {
			pos++
		}
		v, e := strconv.Atoi(s[start:pos])
		return v, e == nil
	}
	for ti, tk := range toks {
		if tk.letter == 0 {
			if !strings.HasPrefix(s[pos:], tk.lit) {
				return time.Time{}, 0, false, bad()
			}
			pos += len(tk.lit)
			continue
		}
		// adjacent numeric fields: take exactly count digits
		width := 0
		textual := (tk.letter == 'M' || tk.letter == 'L') && tk.count >= 3 || tk.letter == 'E' || tk.letter == 'a'
		if ti+1 < len(toks) && toks[ti+1].letter != 0 && !textual {
			width = tk.count
		}
		var ok bool
		switch tk.letter {
		case 'y', 'Y':
			year, ok = num(width)
			if ok && tk.count == 2 && year < 100 && year >= 0 {
				year += 2000
				if year > time.Now().Year()+20 {
					year -= 100
				}
			}
		case 'M', 'L':
			if tk.count >= 3 {
				low := strings.ToLower(s[pos:])
				ok = false
				for i, m := range monthNames {
					if tk.count >= 4 && strings.HasPrefix(low, m) {
						month, pos, ok = i+1, pos+len(m), true
						break
					}
					if strings.HasPrefix(low, m[:3]) {
						month, pos, ok = i+1, pos+3, true
						break
					}
				}
			} else {
				month, ok = num(width)
			}
		case 'd':
			day, ok = num(width)
		case 'D':
			var doy int
			doy, ok = num(width)
			if ok {
				d := time.Date(year, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, doy-1)
				month, day = int(d.Month()), d.Day()
			}
		case 'H', 'k':
			hour, ok = num(width)
			if tk.letter == 'k' && hour == 24 {
				hour = 0
			}
		case 'h', 'K':
			hour, ok = num(width)
			hour12 = true
		case 'm':
			minute, ok = num(width)
		case 's':
			sec, ok = num(width)
		case 'S':
			start := pos
			var v int
			v, ok = num(width)
			digits := pos - start
			if ok {
				// java.time reads S..S as a fraction of the second
				for i := digits; i < 9; i++ {
					v *= 10
				}
				for i := digits; i > 9; i-- {
					v /= 10
				}
				nanos = v
			}
		case 'a':
			up := strings.ToUpper(s[pos:])
			switch {
			case strings.HasPrefix(up, "AM"):
				pos += 2
				ok, hasAmPm = true, true
			case strings.HasPrefix(up, "PM"):
				pos += 2
				ok, hasAmPm, pm = true, true, true
			}
		case 'E':
			low := strings.ToLower(s[pos:])
			for d := time.Sunday; d <= time.Saturday; d++ {
				name := strings.ToLower(d.String())
				if strings.HasPrefix(low, name) {
					pos += len(name)
					ok = true
					break
				}
				if strings.HasPrefix(low, name[:3]) {
					pos += 3
					ok = true
					break
				}
			}
		case 'X', 'Z', 'z':
			rest := s[pos:]
			switch {
			case strings.HasPrefix(rest, "Z"):
				pos++
				offset, hasZone, ok = 0, true, true
			case strings.HasPrefix(rest, "UTC"), strings.HasPrefix(rest, "GMT"):
				pos += 3
				offset, hasZone, ok = 0, true, true
			case len(rest) >= 3 && (rest[0] == '+' || rest[0] == '-'):
				sign := 1
				if rest[0] == '-' {
					sign = -1
				}
				digits := strings.ReplaceAll(rest[1:min(len(rest), 6)], ":", "")
				h, e1 := strconv.Atoi(digits[:2])
				mm := 0
				used := 3
				if len(digits) >= 4 {
					if v, e := strconv.Atoi(digits[2:4]); e == nil {
						mm = v
						used = 5
						if strings.Contains(rest[:min(len(rest), 6)], ":") {
							used = 6
						}
					}
				}
				if e1 == nil {
					pos += used
					offset, hasZone, ok = sign*(h*3600+mm*60), true, true
				}
			}
		default:
			_, ok = num(width)
		}
		if !ok {
			return time.Time{}, 0, false, bad()
		}
	}
	if pos != len(s) && !prefix {
		return time.Time{}, 0, false, bad()
	}
	if hour12 || hasAmPm {
		if hour == 12 {
			hour = 0
		}
		if pm {
			hour += 12
		}
	}
	if month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour > 23 || minute > 59 || sec > 59 {
		return time.Time{}, 0, false, bad()
	}
	return time.Date(year, time.Month(month), day, hour, minute, sec, nanos, time.UTC), offset, hasZone, nil
}

func daysInMonth(y, m int) int {
	return time.Date(y, time.Month(m)+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// addMonths adds n months as java.time's plusMonths does: the day of month
// is kept, clamped to the last day of the resulting month (Jan 31 + 1
// month = Feb 28/29).
func addMonths(t time.Time, n int) time.Time {
	y, m, d := t.Date()
	total := int(m) - 1 + n
	ny := y + floorDivInt(total, 12)
	nm := total - floorDivInt(total, 12)*12 + 1
	if dim := daysInMonth(ny, nm); d > dim {
		d = dim
	}
	return time.Date(ny, time.Month(nm), d, t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), t.Location())
}

func floorDivInt(a, b int) int {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}
