package widgets

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Numbers and durations as the workbench's status lines, messages and
// panels write them.

// GroupDigits writes n with thousands separators for status lines (never
// in cells or exports).
func GroupDigits(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// FormatDuration writes d for people: "850 ms", "2.5 s", "3m 07s",
// "1h 05m".
func FormatDuration(d time.Duration) string {
	switch {
	case d < time.Second:
		return fmt.Sprintf("%d ms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%.1f s", d.Seconds())
	case d < time.Hour:
		return fmt.Sprintf("%dm %02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
	return fmt.Sprintf("%dh %02dm", int(d.Hours()), int(d.Minutes())%60)
}

// Plural writes n (digits grouped) and what, with an s unless n is 1:
// "1 row", "1,200 messages".
func Plural(n int, what string) string {
	s := GroupDigits(n) + " " + what
	if n != 1 {
		s += "s"
	}
	return s
}
