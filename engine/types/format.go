package types

import (
	"fmt"
	"time"
)

// FormatDate renders days since epoch as "yyyy-MM-dd" (years 0..9999; other
// years with a sign, as java.time does).
func FormatDate(days int32) string {
	t := time.Unix(int64(days)*86400, 0).UTC()
	y := t.Year()
	if y < 0 || y > 9999 {
		return fmt.Sprintf("%+d-%02d-%02d", y, int(t.Month()), t.Day())
	}
	return fmt.Sprintf("%04d-%02d-%02d", y, int(t.Month()), t.Day())
}

// FormatTimeSQL renders a time of day with exactly precision fractional
// digits, as Flink casts TIME(p) to STRING: "12:00:00", "12:00:00.123".
func FormatTimeSQL(nanosOfDay int64, precision int) string {
	h := nanosOfDay / 3_600_000_000_000
	m := nanosOfDay / 60_000_000_000 % 60
	s := nanosOfDay / 1e9 % 60
	out := fmt.Sprintf("%02d:%02d:%02d", h, m, s)
	return out + fraction(nanosOfDay%1e9, precision)
}

func fraction(nanos int64, precision int) string {
	if precision <= 0 {
		return ""
	}
	digits := fmt.Sprintf("%09d", nanos)
	return "." + digits[:precision]
}

// FormatTimestampSQL renders a wall-clock timestamp with exactly precision
// fractional digits, as Flink casts TIMESTAMP(p) to STRING:
// "2024-01-31 12:00:00.123" for p=3, "2024-01-31 12:00:00" for p=0.
func FormatTimestampSQL(t time.Time, precision int) string {
	y := t.Year()
	var date string
	if y < 0 || y > 9999 {
		date = fmt.Sprintf("%+d-%02d-%02d", y, int(t.Month()), t.Day())
	} else {
		date = fmt.Sprintf("%04d-%02d-%02d", y, int(t.Month()), t.Day())
	}
	return fmt.Sprintf("%s %02d:%02d:%02d", date, t.Hour(), t.Minute(), t.Second()) +
		fraction(int64(t.Nanosecond()), precision)
}

// FormatIntervalMonths renders an INTERVAL YEAR TO MONTH as Flink does: "+1-02".
func FormatIntervalMonths(months int32) string {
	sign := "+"
	m := int64(months)
	if m < 0 {
		sign = "-"
		m = -m
	}
	return fmt.Sprintf("%s%d-%02d", sign, m/12, m%12)
}

// FormatIntervalMillis renders an INTERVAL DAY TO SECOND as Flink does:
// "+1 02:03:04.005" (days, then time with milliseconds).
func FormatIntervalMillis(d time.Duration) string {
	ms := d.Milliseconds()
	sign := "+"
	if ms < 0 {
		sign = "-"
		ms = -ms
	}
	days := ms / 86_400_000
	ms %= 86_400_000
	return fmt.Sprintf("%s%d %02d:%02d:%02d.%03d", sign, days, ms/3_600_000, ms/60_000%60, ms/1000%60, ms%1000)
}
