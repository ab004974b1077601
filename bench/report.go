package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// report is what a run prints: its settings and one line per query.
type report struct {
	command    string
	threads    int
	runs       int
	flights    string // rows of the flights relation, as DuckDB counts them
	files      []string
	loads      string // time to load the in-memory tables
	loadBefore string
	loadAfter  string
	heapFloor  string // engine/gctuning's floor, as the riffle binary sets it
	// the machine's own speed-up from one core to two (-calibrate)
	calibration *calibration
	groups      []*group
	lines       []*line
}

// line is one query's results.
type line struct {
	query    string
	rows     int // rows in DuckDB's answer
	cells    map[*engine]*cell
	problems []string // engines that failed or answered differently
}

// cell is one engine's result for one query.
type cell struct {
	rows   int
	answer []string // until compared
	t      timing
	err    error
}

// write prints the report as Markdown: a paragraph of settings, the wall
// time table and the CPU time table.
func (r *report) write(w io.Writer) {
	fmt.Fprintf(w, "`%s`: flights %s rows (%s); %d thread(s) per engine (Riffle `parallelism.default`, DuckDB `SET threads`); %d cores, Riffle's GOMAXPROCS %d; Riffle's heap floor %s; median of %d runs",
		r.command, r.flights, strings.Join(r.files, ", "), r.threads, runtime.NumCPU(), runtime.GOMAXPROCS(0), r.heapFloor, r.runs)
	if r.loads != "" {
		fmt.Fprintf(w, "; loading into memory: %s", r.loads)
	}
	if r.calibration != nil {
		fmt.Fprintf(w, "; this machine's own speed-up from one core to two: %s", r.calibration)
	}
	fmt.Fprintf(w, "; load average before %s, after %s.\n\n", r.loadBefore, r.loadAfter)
	r.table(w, "wall time", func(t timing) time.Duration { return t.wall })
	fmt.Fprintln(w)
	r.table(w, "CPU time", func(t timing) time.Duration { return t.cpu })
}

func (r *report) table(w io.Writer, what string, pick func(timing) time.Duration) {
	head := []string{"query (" + what + ")", "rows"}
	for _, g := range r.groups {
		head = append(head, g.riffle.name, g.duck.name, "Riffle / DuckDB ("+g.key+")")
		if g.lite != nil {
			head = append(head, g.lite.name)
		}
	}
	head = append(head, "answers")
	row(w, head)
	sep := make([]string, len(head))
	for i := range sep {
		sep[i] = "---"
	}
	row(w, sep)
	for _, l := range r.lines {
		cols := []string{l.query, thousands(l.rows)}
		for _, g := range r.groups {
			rc, dc := l.cells[g.riffle], l.cells[g.duck]
			cols = append(cols, show(rc, pick), show(dc, pick), ratio(rc, dc, pick))
			if g.lite != nil {
				cols = append(cols, show(l.cells[g.lite], pick))
			}
		}
		ans := "same as DuckDB"
		if len(l.problems) > 0 {
			ans = "**" + strings.Join(l.problems, "; ") + "**"
		}
		cols = append(cols, ans)
		row(w, cols)
	}
}

func row(w io.Writer, cols []string) {
	fmt.Fprintf(w, "| %s |\n", strings.Join(cols, " | "))
}

func show(c *cell, pick func(timing) time.Duration) string {
	if c == nil || c.err != nil {
		return "n/a"
	}
	return ms(pick(c.t))
}

func ratio(a, b *cell, pick func(timing) time.Duration) string {
	if a == nil || b == nil || a.err != nil || b.err != nil || pick(b.t) == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.2f×", float64(pick(a.t))/float64(pick(b.t)))
}

// ms shows a duration in milliseconds: one decimal under 100 ms.
func ms(d time.Duration) string {
	f := float64(d.Microseconds()) / 1000
	if f < 100 {
		return fmt.Sprintf("%.1f ms", f)
	}
	return fmt.Sprintf("%.0f ms", f)
}

func seconds(d time.Duration) string {
	return fmt.Sprintf("%.2f s", d.Seconds())
}

func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// describeFile names a file and its size.
func describeFile(p string) string {
	st, err := os.Stat(p)
	if err != nil {
		return filepath.Base(p)
	}
	return fmt.Sprintf("%s %.1f MB", filepath.Base(p), float64(st.Size())/1e6)
}

// loadAverage is the 1-, 5- and 15-minute load averages ("?" when
// /proc/loadavg cannot be read).
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

func firstLine(err error) string {
	s := err.Error()
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}
