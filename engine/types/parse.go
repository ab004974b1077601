package types

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ParseDate parses "yyyy-M-d" (Flink's SQL DATE literal / CAST format);
// surrounding whitespace is ignored.
func ParseDate(s string) (Date, error) {
	s = strings.TrimSpace(s)
	y, m, d, rest, ok := parseYMD(s)
	if !ok || rest != "" {
		return 0, fmt.Errorf("cannot parse '%s' as DATE", s)
	}
	return DateOf(y, time.Month(m), d), nil
}

func parseYMD(s string) (y, m, d int, rest string, ok bool) {
	parts := strings.SplitN(s, "-", 3)
	neg := false
	if strings.HasPrefix(s, "-") {
		neg = true
		parts = strings.SplitN(s[1:], "-", 3)
	}
	if len(parts) != 3 {
		return 0, 0, 0, "", false
	}
	dayEnd := 0
	for dayEnd < len(parts[2]) && parts[2][dayEnd] >= '0' && parts[2][dayEnd] <= '9' {
		dayEnd++
	}
	rest = parts[2][dayEnd:]
	parts[2] = parts[2][:dayEnd]
	var err error
	if y, err = strconv.Atoi(parts[0]); err != nil || len(parts[0]) == 0 {
		return 0, 0, 0, "", false
	}
	if neg {
		y = -y
	}
	if m, err = strconv.Atoi(parts[1]); err != nil || m < 1 || m > 12 {
		return 0, 0, 0, "", false
	}
	if d, err = strconv.Atoi(parts[2]); err != nil || d < 1 || d > daysIn(time.Month(m), y) {
		return 0, 0, 0, "", false
	}
	return y, m, d, rest, true
}

func daysIn(m time.Month, y int) int {
	return time.Date(y, m+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// ParseTime parses "H:m[:s[.fffffffff]]" into nanoseconds since midnight.
func ParseTime(s string) (LocalTime, error) {
	s = strings.TrimSpace(s)
	n, ok := parseHMS(s)
	if !ok {
		return 0, fmt.Errorf("cannot parse '%s' as TIME", s)
	}
	return LocalTime(n), nil
}

func parseHMS(s string) (int64, bool) {
	parts := strings.Split(s, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return 0, false
	}
	h, err1 := strconv.Atoi(parts[0])
	m, err2 := strconv.Atoi(parts[1])
	if err1 != nil || err2 != nil || h < 0 || h > 23 || m < 0 || m > 59 || len(parts[0]) == 0 || len(parts[1]) == 0 {
		return 0, false
	}
	var sec int
	var frac int64
	if len(parts) == 3 {
		secStr := parts[2]
		if i := strings.IndexByte(secStr, '.'); i >= 0 {
			f := secStr[i+1:]
			secStr = secStr[:i]
			if len(f) == 0 || len(f) > 9 {
				return 0, false
			}
			v, err := strconv.ParseInt(f, 10, 64)
			if err != nil || v < 0 {
				return 0, false
			}
			for k := len(f); k < 9; k++ {
				v *= 10
			}
			frac = v
		}
		var err error
		sec, err = strconv.Atoi(secStr)
		if err != nil || sec < 0 || sec > 59 || len(secStr) == 0 {
			return 0, false
		}
	}
	return ((int64(h)*60+int64(m))*60+int64(sec))*1e9 + frac, true
}

// ParseTimestamp parses "yyyy-M-d[( |T)H:m[:s[.f]]]" as a wall-clock
// timestamp (returned as a UTC time.Time). A trailing "Z" is accepted.
func ParseTimestamp(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	y, m, d, rest, ok := parseYMD(s)
	if !ok {
		return time.Time{}, fmt.Errorf("cannot parse '%s' as TIMESTAMP", s)
	}
	var nanos int64
	if rest != "" {
		if rest[0] != ' ' && rest[0] != 'T' {
			return time.Time{}, fmt.Errorf("cannot parse '%s' as TIMESTAMP", s)
		}
		rest = strings.TrimSuffix(strings.TrimSpace(rest[1:]), "Z")
		nanos, ok = parseHMS(rest)
		if !ok {
			return time.Time{}, fmt.Errorf("cannot parse '%s' as TIMESTAMP", s)
		}
	}
	return time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC).Add(time.Duration(nanos)), nil
}

// ParseBool parses Flink's boolean strings: true/t/yes/y/1 and
// false/f/no/n/0, case-insensitively.
func ParseBool(s string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true", "t", "yes", "y", "1":
		return true, nil
	case "false", "f", "no", "n", "0":
		return false, nil
	}
	return false, fmt.Errorf("cannot parse '%s' as BOOLEAN", s)
}

// TruncateTime drops fractional digits beyond precision p (0..9).
func TruncateTime(t time.Time, p int) time.Time {
	if p >= 9 {
		return t
	}
	unit := time.Duration(1)
	for i := p; i < 9; i++ {
		unit *= 10
	}
	return t.Add(-time.Duration(t.Nanosecond()) % unit)
}
