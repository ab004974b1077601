package planview

import "strings"

// A cancelled job's sources stop without reaching the end of their input,
// yet its operators may report the end-of-input watermark as they close
// (Flink shows the last watermark before the cancellation). The plan of a
// cancelled job keeps each node's last watermark seen while it ran, or
// "–" when none was, instead of "wm end".

// watermarkLine returns node i's metric line s as drawn: while the job
// runs (or ended otherwise) s itself, remembering its watermark; for a
// cancelled job a "wm end" line shows the node's last watermark instead.
func (pg *Graph) watermarkLine(i int, s string) string {
	const prefix = "wm "
	if !strings.HasPrefix(s, prefix) {
		return s
	}
	value, rest, _ := strings.Cut(s[len(prefix):], " · ")
	if rest != "" {
		rest = " · " + rest
	}
	if !pg.canceled {
		if value != "end" {
			if pg.lastWm == nil {
				pg.lastWm = map[int]string{}
			}
			pg.lastWm[i] = value
		}
		return s
	}
	if value != "end" {
		return s
	}
	last, ok := pg.lastWm[i]
	if !ok {
		last = "–"
	}
	return prefix + last + " (cancelled)" + rest
}
