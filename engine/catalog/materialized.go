package catalog

import (
	"fmt"
	"time"
)

// Refresh modes of a materialized table (Flink's
// CatalogMaterializedTable.RefreshMode): CONTINUOUS runs a streaming job
// that keeps the table fresh, FULL overwrites it with a batch job every
// freshness interval.
const (
	RefreshContinuous = "CONTINUOUS"
	RefreshFull       = "FULL"
)

// Refresh statuses of a materialized table (Flink's
// CatalogMaterializedTable.RefreshStatus).
const (
	RefreshInitializing = "INITIALIZING"
	RefreshActivated    = "ACTIVATED"
	RefreshSuspended    = "SUSPENDED"
)

// Materialized is what a catalog keeps of a materialized table beyond its
// schema, options, comment and partition keys (Flink's
// CatalogMaterializedTable): the query that defines its content, how
// fresh it is to be kept and how its refresh runs.
type Materialized struct {
	// DefinitionQuery is the query as written; ExpandedQuery the same with
	// names fully qualified (what a refresh runs, what SHOW CREATE prints).
	DefinitionQuery string
	ExpandedQuery   string
	// FreshnessInterval and FreshnessUnit are Flink's IntervalFreshness:
	// a positive whole number of SECOND, MINUTE, HOUR, DAY or WEEK.
	FreshnessInterval int64
	FreshnessUnit     string
	// LogicalRefreshMode is the mode as declared: CONTINUOUS, FULL or
	// AUTOMATIC (none given; RefreshMode was derived from the freshness).
	LogicalRefreshMode string
	// RefreshMode is RefreshContinuous or RefreshFull.
	RefreshMode string
	// RefreshStatus is RefreshInitializing, RefreshActivated or
	// RefreshSuspended.
	RefreshStatus string
	// RefreshJobID is the job of the continuous refresh (empty in FULL
	// mode); SavepointPath the savepoint SUSPEND stopped it with, from
	// which RESUME restarts it (Flink's ContinuousRefreshHandler).
	RefreshJobID  string
	SavepointPath string
	// LastRefresh is when the last refresh job of a FULL table ended
	// successfully (zero before the first).
	LastRefresh time.Time
}

// Freshness is the freshness as a duration (a WEEK is seven days).
func (m *Materialized) Freshness() time.Duration {
	unit := map[string]time.Duration{"SECOND": time.Second, "MINUTE": time.Minute, "HOUR": time.Hour,
		"DAY": 24 * time.Hour, "WEEK": 7 * 24 * time.Hour}[m.FreshnessUnit]
	return time.Duration(m.FreshnessInterval) * unit
}

// FreshnessSQL renders the freshness as SHOW CREATE writes it:
// INTERVAL '1' SECOND.
func (m *Materialized) FreshnessSQL() string {
	return fmt.Sprintf("INTERVAL '%d' %s", m.FreshnessInterval, m.FreshnessUnit)
}
