package opspec

import (
	"fmt"
	"time"
)

// WindowKind is the kind of a time window (Flink's window TVFs and
// legacy group windows).
type WindowKind uint8

// Window kinds.
const (
	// TumbleWindow assigns each row to one window of fixed size.
	TumbleWindow WindowKind = iota
	// HopWindow assigns each row to size/slide overlapping windows.
	HopWindow
	// CumulateWindow assigns each row to the windows of a fixed start
	// growing by step up to size.
	CumulateWindow
	// SessionWindow groups rows separated by less than a gap.
	SessionWindow
)

func (k WindowKind) String() string {
	return [...]string{"TUMBLE", "HOP", "CUMULATE", "SESSION"}[k]
}

// WindowSpec describes windows over a time attribute. Durations are
// milliseconds. Window bounds are computed on the attribute's wall-clock
// value: for a TIMESTAMP attribute that is its value as if in UTC; for a
// TIMESTAMP_LTZ attribute Zone is the session time zone and windows align
// to local time there, as Flink's shiftTimeZone does (a one-day tumble
// window starts at local midnight). Window starts and ends are reported as
// TIMESTAMP(3) wall-clock values.
type WindowSpec struct {
	Kind WindowKind
	// Size is the window size (TUMBLE, HOP) or the maximum size (CUMULATE).
	Size int64
	// Slide is the HOP slide or the CUMULATE step.
	Slide int64
	// Offset shifts window starts (TUMBLE, HOP, CUMULATE).
	Offset int64
	// Gap is the SESSION gap.
	Gap int64
	// Zone is set when the time attribute is a TIMESTAMP_LTZ.
	Zone *time.Location
	// Proctime reports windows over a processing-time attribute.
	Proctime bool
}

// String renders the spec as Flink's plans do: "TUMBLE(size=[10 s])".
func (s WindowSpec) String() string {
	switch s.Kind {
	case TumbleWindow:
		return fmt.Sprintf("TUMBLE(size=[%s]%s)", FormatMillis(s.Size), s.offsetString())
	case HopWindow:
		return fmt.Sprintf("HOP(size=[%s], slide=[%s]%s)", FormatMillis(s.Size), FormatMillis(s.Slide), s.offsetString())
	case CumulateWindow:
		return fmt.Sprintf("CUMULATE(max_size=[%s], step=[%s]%s)", FormatMillis(s.Size), FormatMillis(s.Slide), s.offsetString())
	}
	return fmt.Sprintf("SESSION(gap=[%s])", FormatMillis(s.Gap))
}

func (s WindowSpec) offsetString() string {
	if s.Offset == 0 {
		return ""
	}
	return fmt.Sprintf(", offset=[%s]", FormatMillis(s.Offset))
}

// FormatMillis renders a duration the way Flink's plans print window
// sizes: "10 s", "5 min", "1 h", "1 d", "500 ms".
func FormatMillis(ms int64) string {
	switch {
	case ms != 0 && ms%86_400_000 == 0:
		return fmt.Sprintf("%d d", ms/86_400_000)
	case ms != 0 && ms%3_600_000 == 0:
		return fmt.Sprintf("%d h", ms/3_600_000)
	case ms != 0 && ms%60_000 == 0:
		return fmt.Sprintf("%d min", ms/60_000)
	case ms != 0 && ms%1000 == 0:
		return fmt.Sprintf("%d s", ms/1000)
	}
	return fmt.Sprintf("%d ms", ms)
}

// Validate checks the spec's sizes as Flink does.
func (s WindowSpec) Validate() error {
	switch s.Kind {
	case TumbleWindow:
		if s.Size <= 0 {
			return fmt.Errorf("TUMBLE table function requires a positive window size, got %d ms", s.Size)
		}
	case HopWindow:
		if s.Size <= 0 || s.Slide <= 0 {
			return fmt.Errorf("HOP table function requires positive size and slide, got size %d ms and slide %d ms", s.Size, s.Slide)
		}
	case CumulateWindow:
		if s.Size <= 0 || s.Slide <= 0 {
			return fmt.Errorf("CUMULATE table function requires positive max size and step, got size %d ms and step %d ms", s.Size, s.Slide)
		}
		if s.Size%s.Slide != 0 {
			return fmt.Errorf("CUMULATE table function requires size must be an integral multiple of step, but got size %d ms and step %d ms", s.Size, s.Slide)
		}
	case SessionWindow:
		if s.Gap <= 0 {
			return fmt.Errorf("SESSION table function requires a positive gap, got %d ms", s.Gap)
		}
	}
	return nil
}

// WindowStartWithOffset is the start of the window of the given size
// containing ts (Flink's TimeWindow.getWindowStartWithOffset).
func windowStartWithOffset(ts, offset, size int64) int64 {
	rem := (ts - offset) % size
	if rem < 0 {
		return ts - (rem + size)
	}
	return ts - rem
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// SliceSize is the length of the non-overlapping slices windows are made
// of: the window size for TUMBLE, gcd(size, slide) for HOP, the step for
// CUMULATE (Flink's SliceAssigners).
func (s WindowSpec) SliceSize() int64 {
	switch s.Kind {
	case HopWindow:
		return gcd(s.Size, s.Slide)
	case CumulateWindow:
		return s.Slide
	}
	return s.Size
}

// SliceEnd is the end of the slice containing ts.
func (s WindowSpec) SliceEnd(ts int64) int64 {
	ss := s.SliceSize()
	return windowStartWithOffset(ts, s.Offset, ss) + ss
}

// WindowEndsOfSlice lists, ascending, the ends of the windows containing
// the slice that ends at e.
func (s WindowSpec) WindowEndsOfSlice(e int64, out []int64) []int64 {
	out = out[:0]
	ss := s.SliceSize()
	switch s.Kind {
	case HopWindow:
		last := windowStartWithOffset(e-ss, s.Offset, s.Slide)
		first := last
		for first-s.Slide+s.Size >= e {
			first -= s.Slide
		}
		for st := first; st <= last; st += s.Slide {
			// with a slide longer than the size, windows leave gaps: a
			// slice in a gap belongs to no window
			if st+s.Size >= e {
				out = append(out, st+s.Size)
			}
		}
	case CumulateWindow:
		start := windowStartWithOffset(e-ss, s.Offset, s.Size)
		for end := e; end <= start+s.Size; end += s.Slide {
			out = append(out, end)
		}
	default:
		out = append(out, e)
	}
	return out
}

// LastWindowEnd is the end of the last window containing the slice ending
// at e: the slice can be dropped once that window fired.
func (s WindowSpec) LastWindowEnd(e int64) int64 {
	ss := s.SliceSize()
	switch s.Kind {
	case HopWindow:
		return windowStartWithOffset(e-ss, s.Offset, s.Slide) + s.Size
	case CumulateWindow:
		return windowStartWithOffset(e-ss, s.Offset, s.Size) + s.Size
	}
	return e
}

// WindowStart is the start of the window ending at end.
func (s WindowSpec) WindowStart(end int64) int64 {
	switch s.Kind {
	case CumulateWindow:
		return windowStartWithOffset(end-1, s.Offset, s.Size)
	case SessionWindow:
		return end // not used: session windows carry their start
	}
	return end - s.Size
}

// SlicesOfWindow lists the ends of the slices making the window ending at
// end.
func (s WindowSpec) SlicesOfWindow(end int64, out []int64) []int64 {
	out = out[:0]
	ss := s.SliceSize()
	for e := s.WindowStart(end) + ss; e <= end; e += ss {
		out = append(out, e)
	}
	return out
}

// WindowsOf lists the windows (start, end) containing ts, in the order
// Flink's window table function emits them: ascending start for HOP,
// ascending end for CUMULATE.
func (s WindowSpec) WindowsOf(ts int64, out [][2]int64) [][2]int64 {
	out = out[:0]
	switch s.Kind {
	case TumbleWindow:
		st := windowStartWithOffset(ts, s.Offset, s.Size)
		out = append(out, [2]int64{st, st + s.Size})
	case HopWindow:
		last := windowStartWithOffset(ts, s.Offset, s.Slide)
		first := last
		for first-s.Slide+s.Size > ts {
			first -= s.Slide
		}
		for st := first; st <= last; st += s.Slide {
			// only windows containing ts (Flink's SlidingWindowAssigner):
			// with a slide longer than the size a row may fall in a gap
			if st+s.Size > ts {
				out = append(out, [2]int64{st, st + s.Size})
			}
		}
	case CumulateWindow:
		st := windowStartWithOffset(ts, s.Offset, s.Size)
		first := windowStartWithOffset(ts, s.Offset, s.Slide) + s.Slide
		for end := first; end <= st+s.Size; end += s.Slide {
			out = append(out, [2]int64{st, end})
		}
	}
	return out
}

// ToLocal converts an epoch-millisecond instant to the wall-clock
// milliseconds windows are computed on.
func (s WindowSpec) ToLocal(utc int64) int64 {
	if s.Zone == nil {
		return utc
	}
	_, off := time.UnixMilli(utc).In(s.Zone).Zone()
	return utc + int64(off)*1000
}

// ToUTC converts wall-clock milliseconds back to the epoch instant (the
// moment a window ending at that wall-clock time is complete).
func (s WindowSpec) ToUTC(local int64) int64 {
	if s.Zone == nil {
		return local
	}
	_, off := time.UnixMilli(local).In(s.Zone).Zone()
	guess := local - int64(off)*1000
	_, off2 := time.UnixMilli(guess).In(s.Zone).Zone()
	return local - int64(off2)*1000
}

// WindowProp is a window property a window operator appends to its
// output rows.
type WindowProp uint8

// Window properties.
const (
	// PropStart is window_start, TIMESTAMP(3).
	PropStart WindowProp = iota
	// PropEnd is window_end, TIMESTAMP(3).
	PropEnd
	// PropTime is window_time = window_end - 1 ms, a rowtime attribute
	// (TIMESTAMP(3), or TIMESTAMP_LTZ(3) over a TIMESTAMP_LTZ attribute).
	PropTime
	// PropProctime is the proctime of a processing-time window
	// (TIMESTAMP_LTZ(3) *PROCTIME*): the time the window fired.
	PropProctime
)

func (p WindowProp) String() string {
	return [...]string{"window_start", "window_end", "window_time", "window_proctime"}[p]
}
