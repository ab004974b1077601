package sqlitecatalog

import (
	"time"

	"github.com/riffle-sql/riffle/engine/catalog"
)

// materializedDef is what a materialized table keeps beyond a table's
// definition (catalog.Materialized), under "materialized" in the table's
// JSON. A Riffle build older than this field reads such a table as a
// plain table.
type materializedDef struct {
	DefinitionQuery    string `json:"definition_query"`
	ExpandedQuery      string `json:"expanded_query"`
	FreshnessInterval  int64  `json:"freshness_interval"`
	FreshnessUnit      string `json:"freshness_unit"`
	LogicalRefreshMode string `json:"logical_refresh_mode"`
	RefreshMode        string `json:"refresh_mode"`
	RefreshStatus      string `json:"refresh_status"`
	RefreshJobID       string `json:"refresh_job_id,omitempty"`
	SavepointPath      string `json:"savepoint_path,omitempty"`
	// LastRefresh is RFC 3339 with nanoseconds, or empty before the first.
	LastRefresh string `json:"last_refresh,omitempty"`
}

func encodeMaterialized(m *catalog.Materialized) *materializedDef {
	if m == nil {
		return nil
	}
	d := &materializedDef{DefinitionQuery: m.DefinitionQuery, ExpandedQuery: m.ExpandedQuery,
		FreshnessInterval: m.FreshnessInterval, FreshnessUnit: m.FreshnessUnit, LogicalRefreshMode: m.LogicalRefreshMode,
		RefreshMode: m.RefreshMode, RefreshStatus: m.RefreshStatus, RefreshJobID: m.RefreshJobID, SavepointPath: m.SavepointPath}
	if !m.LastRefresh.IsZero() {
		d.LastRefresh = m.LastRefresh.UTC().Format(time.RFC3339Nano)
	}
	return d
}

func decodeMaterialized(d *materializedDef) *catalog.Materialized {
	if d == nil {
		return nil
	}
	m := &catalog.Materialized{DefinitionQuery: d.DefinitionQuery, ExpandedQuery: d.ExpandedQuery,
		FreshnessInterval: d.FreshnessInterval, FreshnessUnit: d.FreshnessUnit, LogicalRefreshMode: d.LogicalRefreshMode,
		RefreshMode: d.RefreshMode, RefreshStatus: d.RefreshStatus, RefreshJobID: d.RefreshJobID, SavepointPath: d.SavepointPath}
	if d.LastRefresh != "" {
		m.LastRefresh, _ = time.Parse(time.RFC3339Nano, d.LastRefresh)
	}
	return m
}
