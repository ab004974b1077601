package monitor

import (
	"math"
	"strconv"
	"time"
)

// FormatCount renders a count with thousands separators: 1,234,567.
func FormatCount(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	var out []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	if neg {
		return "-" + string(out)
	}
	return string(out)
}

// FormatRate renders records per second briefly: 0/s, 12/s, 3.4k/s,
// 1.2M/s (and 0.5/s for slow streams).
func FormatRate(r float64) string {
	a := math.Abs(r)
	switch {
	case math.IsNaN(r) || math.IsInf(r, 0):
		return "–"
	case a >= 1e9:
		return strconv.FormatFloat(r/1e9, 'f', 1, 64) + "G/s"
	case a >= 1e6:
		return strconv.FormatFloat(r/1e6, 'f', 1, 64) + "M/s"
	case a >= 1e4:
		return strconv.FormatFloat(r/1e3, 'f', 0, 64) + "k/s"
	case a >= 1e3:
		return strconv.FormatFloat(r/1e3, 'f', 1, 64) + "k/s"
	case a >= 10 || a == 0:
		return strconv.FormatFloat(r, 'f', 0, 64) + "/s"
	}
	return strconv.FormatFloat(r, 'f', 1, 64) + "/s"
}

// FormatBytes renders a size in binary units: 512 B, 1.5 KiB, 3.2 MiB.
func FormatBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return strconv.FormatInt(n, 10) + " B"
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit && exp < 4; m /= unit {
		div *= unit
		exp++
	}
	return strconv.FormatFloat(float64(n)/float64(div), 'f', 1, 64) + " " + "KMGTP"[exp:exp+1] + "iB"
}

// FormatWatermark renders a watermark (epoch ms) in loc: "–" for none,
// "end" for the end of input, else the time to the millisecond when it is
// today's in loc at now, or the date and time to the second otherwise.
func FormatWatermark(wm int64, loc *time.Location, now time.Time) string {
	switch wm {
	case NoWatermark:
		return "–"
	case EndWatermark:
		return "end"
	}
	if loc == nil {
		loc = time.Local
	}
	t := time.UnixMilli(wm).In(loc)
	n := now.In(loc)
	if t.Year() == n.Year() && t.YearDay() == n.YearDay() {
		return t.Format("15:04:05.000")
	}
	return t.Format("2006-01-02 15:04:05")
}

// FormatLag renders how far a watermark is behind: "850ms", "12.5s",
// "3m05s", "2h14m", "25y 3d" for replayed historical data.
func FormatLag(d time.Duration) string {
	neg := d < 0
	if neg {
		d = -d
	}
	var s string
	switch {
	case d < time.Second:
		s = strconv.FormatInt(d.Milliseconds(), 10) + "ms"
	case d < time.Minute:
		s = strconv.FormatFloat(d.Seconds(), 'f', 1, 64) + "s"
	case d < time.Hour:
		s = strconv.Itoa(int(d/time.Minute)) + "m" + pad2(int(d%time.Minute/time.Second)) + "s"
	case d < 48*time.Hour:
		s = strconv.Itoa(int(d/time.Hour)) + "h" + pad2(int(d%time.Hour/time.Minute)) + "m"
	case d < 365*24*time.Hour:
		s = strconv.Itoa(int(d/(24*time.Hour))) + "d " + strconv.Itoa(int(d%(24*time.Hour)/time.Hour)) + "h"
	default:
		const year = 365 * 24 * time.Hour
		s = strconv.Itoa(int(d/year)) + "y " + strconv.Itoa(int(d%year/(24*time.Hour))) + "d"
	}
	if neg {
		return "-" + s
	}
	return s
}

func pad2(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}
