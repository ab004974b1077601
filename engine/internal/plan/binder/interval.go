package binder

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/types"
)

// Interval literals follow Calcite's SqlIntervalQualifier (what Flink's
// validator runs): the string must match the qualifier's pattern ('D
// H:M:S.f' for DAY TO SECOND, ...), the leading field must fit its
// precision (DAY means DAY(2): at most 99), the other fields their range
// (HOUR < 24, MINUTE and SECOND < 60, MONTH < 12), and fractional seconds
// have at most the fractional precision's digits and are kept to the
// millisecond, as Flink keeps INTERVAL DAY TO SECOND in milliseconds.
//
// Flink then rejects a day-time literal whose leading precision exceeds 3
// (FlinkTypeFactory: "DAY_INTERVAL_TYPES precision is not supported"), so
// a literal holds at most 999 days. Riffle holds an INTERVAL DAY TO SECOND
// value as a time.Duration, which reaches ±106,751 days; arithmetic that
// goes beyond fails (engine/expr) rather than wrapping.

// MaxIntervalMillis is the largest INTERVAL DAY TO SECOND magnitude, in
// milliseconds, that a time.Duration holds.
const MaxIntervalMillis = math.MaxInt64 / int64(time.Millisecond)

// intervalFormatError is a value that does not match the qualifier.
type intervalFormatError struct{}

func (intervalFormatError) Error() string { return "bad interval format" }

// intervalPrecisionError is a leading field that exceeds its precision.
type intervalPrecisionError struct {
	value  int64 // signed, or the digits when they do not fit
	digits string
	field  string // DAY(2)
}

func (e *intervalPrecisionError) Error() string {
	v := e.digits
	if v == "" {
		v = groupThousands(e.value)
	}
	return fmt.Sprintf("Interval field value %s exceeds precision of %s field", v, e.field)
}

// intervalRangeError is a value a time.Duration cannot hold.
type intervalRangeError struct{}

func (intervalRangeError) Error() string { return "out of range" }

// groupThousands formats n as Java's MessageFormat {0,number} does in an
// English locale: 99999999 -> "99,999,999".
func groupThousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// intervalLit parses INTERVAL 'value' qualifier into Months or a Duration.
func (b *binder) intervalLit(x *sql.IntervalLit) expr.Expr {
	t, err := IntervalType(x.Qualifier)
	if err != nil {
		b.failAt(x, "%v", err)
	}
	q := x.Qualifier
	if q.StartPrecision == 0 || q.StartPrecision > 10 {
		b.failAt(q, "Interval leading field precision '%d' out of range for INTERVAL %s", q.StartPrecision, sql.Format(q))
	}
	if q.FracPrecision > 9 {
		b.failAt(q, "Interval fractional second precision '%d' out of range for INTERVAL %s", q.FracPrecision, sql.Format(q))
	}
	v, err := ParseIntervalLiteral(x.Value, q)
	if _, big := err.(intervalRangeError); err != nil && !(big && t.Root == types.IntervalDayTimeRoot && q.StartPrecision > 3) {
		b.failAt(x, "%s", intervalErrorText(x.Value, q, err))
	}
	if t.Root == types.IntervalDayTimeRoot && q.StartPrecision > 3 {
		// Flink's FlinkTypeFactory.toLogicalType maps every day-time
		// interval to INTERVAL SECOND(3) and rejects a leading precision
		// above 3 once the validated literal is planned.
		b.failAt(x, "DAY_INTERVAL_TYPES precision is not supported: %d", q.StartPrecision)
	}
	if x.Negative {
		switch y := v.(type) {
		case types.Months:
			v = -y
		case time.Duration:
			v = -y
		}
	}
	return &expr.Literal{Value: v, T: t}
}

func intervalErrorText(value string, q *sql.IntervalQualifier, err error) string {
	switch e := err.(type) {
	case *intervalPrecisionError:
		return e.Error()
	case intervalRangeError:
		return fmt.Sprintf("Interval literal '%s' for INTERVAL %s is out of range: Riffle holds INTERVAL DAY TO SECOND values up to ±%d days",
			value, sql.Format(q), MaxIntervalMillis/86_400_000)
	}
	return fmt.Sprintf("Illegal interval literal format '%s' for INTERVAL %s", value, sql.Format(q))
}

var intervalPatterns = map[string]string{
	"YEAR TO MONTH":    `(\d+)-(\d{1,2})`,
	"DAY TO HOUR":      `(\d+) (\d{1,2})`,
	"DAY TO MINUTE":    `(\d+) (\d{1,2}):(\d{1,2})`,
	"DAY TO SECOND":    `(\d+) (\d{1,2}):(\d{1,2}):(\d{1,2})`,
	"HOUR TO MINUTE":   `(\d+):(\d{1,2})`,
	"HOUR TO SECOND":   `(\d+):(\d{1,2}):(\d{1,2})`,
	"MINUTE TO SECOND": `(\d+):(\d{1,2})`,
}

// intervalUnitMillis is the length of a single-field unit.
var intervalUnitMillis = map[string]int64{
	"WEEK": 7 * 86_400_000, "DAY": 86_400_000, "HOUR": 3_600_000, "MINUTE": 60_000, "SECOND": 1000,
}

// intervalRegexps caches compiled patterns by their text.
var intervalRegexps = map[string]*regexp.Regexp{}

func intervalRegexp(p string) *regexp.Regexp {
	if re, ok := intervalRegexps[p]; ok {
		return re
	}
	return regexp.MustCompile(`^` + p + `$`)
}

func init() {
	add := func(p string) { intervalRegexps[p] = regexp.MustCompile(`^` + p + `$`) }
	for _, p := range append([]string{`(\d+)`}, mapValues(intervalPatterns)...) {
		add(p)
		for f := 1; f <= 9; f++ {
			add(p + `\.(\d{1,` + strconv.Itoa(f) + `})`)
		}
	}
}

func mapValues(m map[string]string) []string {
	var out []string
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

// ParseIntervalLiteral evaluates the string of an interval literal against
// its qualifier as Calcite does, returning types.Months or a
// time.Duration (milliseconds). A sign may lead the string.
func ParseIntervalLiteral(value string, q *sql.IntervalQualifier) (any, error) {
	s := strings.TrimSpace(value)
	sign := int64(1)
	if strings.HasPrefix(s, "-") {
		sign, s = -1, s[1:]
	} else if strings.HasPrefix(s, "+") {
		s = s[1:]
	}
	if s == "" {
		return nil, intervalFormatError{}
	}
	key := q.StartUnit
	if q.EndUnit != "" {
		key += " TO " + q.EndUnit
	}
	prec := q.StartPrecision
	if prec < 0 {
		prec = 2
	}
	frac := q.FracPrecision
	if frac < 0 {
		frac = 6
	}
	frac = min(max(frac, 1), 9)
	pattern := `(\d+)`
	if q.EndUnit != "" {
		p, ok := intervalPatterns[key]
		if !ok {
			return nil, intervalFormatError{}
		}
		pattern = p
	}
	withFrac := q.EndUnit == "SECOND" || (q.EndUnit == "" && q.StartUnit == "SECOND")
	var m []string
	fracDigits := ""
	if withFrac {
		if m = intervalRegexp(pattern + `\.(\d{1,` + strconv.Itoa(frac) + `})`).FindStringSubmatch(s); m != nil {
			fracDigits = m[len(m)-1]
			m = m[:len(m)-1]
		}
	}
	if m == nil {
		if m = intervalRegexp(pattern).FindStringSubmatch(s); m == nil {
			return nil, intervalFormatError{}
		}
	}
	fields := m[1:]
	// the leading field: precision
	lead, err := strconv.ParseInt(fields[0], 10, 64)
	limit := int64(math.MaxInt32) + 1
	if prec < 10 {
		limit = int64(math.Pow10(prec))
	}
	field := fmt.Sprintf("%s(%d)", q.StartUnit, prec)
	if err != nil {
		if q.StartUnit == "MILLISECOND" || q.StartUnit == "MICROSECOND" || q.StartUnit == "NANOSECOND" {
			return nil, intervalRangeError{}
		}
		digits := strings.TrimLeft(fields[0], "0")
		if sign < 0 {
			digits = "-" + digits
		}
		return nil, &intervalPrecisionError{digits: digits, field: field}
	}
	sub := q.StartUnit == "MILLISECOND" || q.StartUnit == "MICROSECOND" || q.StartUnit == "NANOSECOND"
	if lead >= limit && !sub {
		// (MILLISECOND and finer are Riffle's extensions: no precision)
		return nil, &intervalPrecisionError{value: sign * lead, field: field}
	}
	// the other fields: their ranges
	var rest []int64
	for _, f := range fields[1:] {
		v, _ := strconv.ParseInt(f, 10, 64)
		rest = append(rest, v)
	}
	switch q.StartUnit {
	case "YEAR", "QUARTER", "MONTH":
		months := lead
		switch q.StartUnit {
		case "YEAR":
			months = lead * 12
			if len(rest) == 1 {
				if rest[0] >= 12 {
					return nil, intervalFormatError{}
				}
				months += rest[0]
			}
		case "QUARTER":
			months = lead * 3
		}
		if months > math.MaxInt32 {
			return nil, intervalRangeError{}
		}
		return types.Months(sign * months), nil
	}
	// day-time: milliseconds, checked against time.Duration's range
	var ms int64
	switch q.StartUnit {
	case "MILLISECOND":
		ms = lead
	case "MICROSECOND":
		ms = lead / 1000
	case "NANOSECOND":
		ms = lead / 1_000_000
	default:
		unit := intervalUnitMillis[q.StartUnit]
		if lead > MaxIntervalMillis/unit {
			return nil, intervalRangeError{}
		}
		ms = lead * unit
		next := map[string][]string{"DAY": {"HOUR", "MINUTE", "SECOND"}, "HOUR": {"MINUTE", "SECOND"}, "MINUTE": {"SECOND"}}[q.StartUnit]
		for i, v := range rest {
			if i >= len(next) {
				return nil, intervalFormatError{}
			}
			limit := int64(60)
			if next[i] == "HOUR" {
				limit = 24
			}
			if v >= limit {
				return nil, intervalFormatError{}
			}
			ms += v * intervalUnitMillis[next[i]]
		}
	}
	if fracDigits != "" {
		// to milliseconds, truncated (Calcite's normalizeSecondFraction)
		d := (fracDigits + "000")[:3]
		v, _ := strconv.ParseInt(d, 10, 64)
		ms += v
	}
	if ms > MaxIntervalMillis {
		return nil, intervalRangeError{}
	}
	return time.Duration(sign*ms) * time.Millisecond, nil
}
