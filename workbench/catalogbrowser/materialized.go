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
	// JobID is the continuous refresh job ("" in FULL mode).
	JobID string
	// LastRefresh is when the last FULL refresh job ended successfully;
	// zero before the first and for a CONTINUOUS table (whose job
	// refreshes it all the time).
	LastRefresh time.Time
}

// Detail is the tree's line for the table: "materialized · CONTINUOUS ·
// freshness 3 min · ACTIVATED", then for a FULL table " · last refresh
// 2026-12-02 14:03:12" (local time) or " · not refreshed yet".
func (m Materialized) Detail() string {
	parts := []string{"materialized", m.RefreshMode, "freshness " + shortInterval(m.Freshness)}
	if m.Status != "" {
		parts = append(parts, m.Status)
	}
	if m.RefreshMode == "FULL" {
		if m.LastRefresh.IsZero() {
			parts = append(parts, "not refreshed yet")
		} else {
			parts = append(parts, "last refresh "+m.LastRefresh.Local().Format("2006-01-02 15:04:05"))
		}
	}
	return strings.Join(parts, " · ")
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
		out[i.Name] = Materialized{RefreshMode: i.RefreshMode, Freshness: i.Freshness, Status: i.RefreshStatus,
			JobID: i.RefreshJobID, LastRefresh: i.LastRefresh}
	}
	return out
}

// materializedIcon is a materialized table's icon: a table grid with a
// refresh arrow, in the theme's foreground colour.
var materializedIcon = theme.NewThemedResource(fyne.NewStaticResource("table-materialized.svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24">`+
	`<path d="M3 3H15V5H5V9H9V5H11V9H15V11H11V15H9V11H5V15H11V17H3Z"/>`+
	`<path d="M17.5 12A4.5 4.5 0 1 0 21.3 14.1L19.6 15.1A2.5 2.5 0 1 1 17.5 14Z"/>`+
	`<path d="M15.5 10.5L19 10.5L17.5 14Z"/>`+
	`</svg>`)))
