package catalogbrowser

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// Materialized is what the tree says of a materialized table (CREATE
// MATERIALIZED TABLE; docs/materialized-tables.md), read from
// table.TableEnvironment.MaterializedTables.
type Materialized struct {
	// RefreshMode is CONTINUOUS or FULL.
	RefreshMode string
	// Freshness is the declared freshness as SQL ("INTERVAL '3' MINUTE").
	Freshness string
	// Status is the refresh status: INITIALIZING, ACTIVATED or SUSPENDED.
	Status string
	// JobID is the continuous refresh job ("" in FULL mode); JobStatus
	// its state in this engine (RUNNING, CANCELED, ...), "" when the
	// engine runs no job of that id (after a restart, or FULL mode).
	JobID, JobStatus string
	// LastRefresh is when the last FULL refresh job ended successfully;
	// zero before the first and for a CONTINUOUS table (whose job
	// refreshes it all the time).
	LastRefresh time.Time
}

// Lines are the tree's lines for the table, each a name and a dimmed
// value, short enough for the narrow tree: ("materialized", "CONTINUOUS"),
// ("freshness", "3 min"), ("status", "ACTIVATED"), for a CONTINUOUS table
// ("job", "RUNNING") (or "not running": no such job in this engine, as
// after a restart), and for a FULL table
// ("last refresh", "14:03:12") in local time (with the date when not
// today), or ("last refresh", "not yet").
func (m Materialized) Lines(now time.Time) [][2]string {
	out := [][2]string{{m.RefreshMode, "refresh"}, {"freshness", shortInterval(m.Freshness)}}
	if m.Status != "" {
		out = append(out, [2]string{"status", m.Status})
	}
	if m.RefreshMode == "CONTINUOUS" && m.JobID != "" {
		job := m.JobStatus
		if job == "" {
			job = "not running"
		}
		out = append(out, [2]string{"job", job})
	}
	if m.RefreshMode == "FULL" {
		last := "not yet"
		if !m.LastRefresh.IsZero() {
			t, n := m.LastRefresh.Local(), now.Local()
			if t.YearDay() == n.YearDay() && t.Year() == n.Year() {
				last = t.Format("15:04:05")
			} else {
				last = t.Format("2006-01-02 15:04:05")
			}
		}
		out = append(out, [2]string{"last refresh", last})
	}
	return out
}

// shortInterval writes "INTERVAL '3' MINUTE" as "3 min"; any other text
// is returned as it is.
func shortInterval(s string) string {
	rest, ok := strings.CutPrefix(s, "INTERVAL '")
	if !ok {
		return s
	}
	num, unit, ok := strings.Cut(rest, "' ")
	if !ok {
		return s
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil {
		return s
	}
	short := map[string]string{"SECOND": "s", "MINUTE": "min", "HOUR": "h", "DAY": "day", "WEEK": "week"}[unit]
	if short == "" {
		return s
	}
	if n != 1 && (short == "day" || short == "week") {
		short += "s"
	}
	return fmt.Sprintf("%d %s", n, short)
}

// materialized reads the materialized tables of a database, by name
// (nil for a catalog read over the network, which holds none, and when
// the engine cannot list them).
func (s EnvSource) materialized(cat, db string) map[string]Materialized {
	if _, remote := s.RemoteKey(cat); remote {
		return nil
	}
	infos, err := s.Env.MaterializedTables(cat, db)
	if err != nil || len(infos) == 0 {
		return nil
	}
	out := make(map[string]Materialized, len(infos))
	for _, i := range infos {
		m := Materialized{RefreshMode: i.RefreshMode, Freshness: i.Freshness, Status: i.RefreshStatus,
			JobID: i.RefreshJobID, LastRefresh: i.LastRefresh}
		if j, ok := s.Env.JobByID(i.RefreshJobID); ok && i.RefreshJobID != "" {
			m.JobStatus = j.Status().String()
		}
		out[i.Name] = m
	}
	return out
}

// materializedLineIcon is the icon of a line of Materialized.Lines: a
// clock for the freshness, an info sign for the status, refresh arrows
// for the mode and the last refresh.
func materializedLineIcon(uid string) fyne.Resource {
	_, parts := splitID(uid)
	switch parts[len(parts)-1] {
	case "freshness":
		return theme.HistoryIcon()
	case "status":
		return theme.InfoIcon()
	case "job":
		return theme.MediaPlayIcon()
	}
	return theme.ViewRefreshIcon()
}

// materializedIcon is a materialized table's icon: a table grid with a
// refresh arrow, in the theme's foreground colour.
var materializedIcon = theme.NewThemedResource(fyne.NewStaticResource("table-materialized.svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24">`+
	`<path d="M3 3H15V5H5V9H9V5H11V9H15V11H11V15H9V11H5V15H11V17H3Z"/>`+
	`<path d="M17.5 12A4.5 4.5 0 1 0 21.3 14.1L19.6 15.1A2.5 2.5 0 1 1 17.5 14Z"/>`+
	`<path d="M15.5 10.5L19 10.5L17.5 14Z"/>`+
	`</svg>`)))
