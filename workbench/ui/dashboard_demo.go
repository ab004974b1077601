package ui

import (
	"context"
	"strings"

	"github.com/riffle-sql/riffle/assets"
	"github.com/riffle-sql/riffle/workbench/charts"
	"github.com/riffle-sql/riffle/workbench/persistence"
)

// demoDashboardName is the demo workspace's dashboard.
const demoDashboardName = "Live flights"

// demoFlightsLiveDDL is the live flights stream every demo tile reads:
// the bundled flights replayed in event time at 1,200x, as the demo's
// "Live flights" tab declares it. Each tile's script starts with it (IF
// NOT EXISTS: the first tile to start creates the session's table), so
// the dashboard works on first start, before any tab ran. The alerts'
// demo rule may read the same stream (hook for the alerts' demo).
func demoFlightsLiveDDL(p assets.DataPaths) string {
	return `CREATE TEMPORARY TABLE IF NOT EXISTS flights_live (
  ` + "`date`" + `      TIMESTAMP(0),
  delay       INT,
  distance    INT,
  origin      STRING,
  destination STRING,
  WATERMARK FOR ` + "`date`" + ` AS ` + "`date`" + ` - INTERVAL '1' MINUTE
) WITH (
  'connector' = 'filesystem',
  'path' = '` + strings.ReplaceAll(p.Flights, "'", "''") + `',
  'format' = 'csv',
  'csv.ignore-first-line' = 'true',
  'source.replay-speed' = '1200'
);
`
}

// demoDashboardTiles are the demo dashboard's tiles over the replayed
// flights: average delay per airport (bar chart), the average delay of
// the latest hour of event time (single value), the changelog rate of the
// stream, and departures per airport per hour (grid).
func demoDashboardTiles(p assets.DataPaths) []persistence.DashboardTile {
	ddl := demoFlightsLiveDDL(p)
	bar, _ := charts.Settings{Kind: charts.Bar, X: "origin", Y: []string{"avg_delay_min"}}.Marshal()
	return []persistence.DashboardTile{
		{Kind: persistence.TileChart, Title: "Average arrival delay per airport (min)",
			Statement: ddl + `
SELECT origin, ROUND(AVG(CAST(delay AS DOUBLE)), 1) AS avg_delay_min, COUNT(*) AS flights
FROM flights_live
WHERE origin IN ('ORD', 'DFW', 'ATL', 'LAX', 'PHX', 'DEN', 'STL', 'DTW')
GROUP BY origin`,
			Spec: persistence.TileSpec{Chart: bar, ColSpan: 2, RowSpan: 2, Mode: modeStreaming}},
		{Kind: persistence.TileValue, Title: "Average delay, latest hour (min)",
			Statement: ddl + `
SELECT window_start, ROUND(AVG(CAST(delay AS DOUBLE)), 1) AS avg_delay_min, COUNT(*) AS departures
FROM TABLE(TUMBLE(TABLE flights_live, DESCRIPTOR(` + "`date`" + `), INTERVAL '1' HOUR))
GROUP BY window_start, window_end`,
			Spec: persistence.TileSpec{Column: "avg_delay_min", Mode: modeStreaming}},
		{Kind: persistence.TileRate, Title: "Flights arriving",
			Statement: ddl + `
SELECT ` + "`date`" + `, origin, destination, delay FROM flights_live`,
			Spec: persistence.TileSpec{Mode: modeStreaming}},
		{Kind: persistence.TileGrid, Title: "Departures per airport per hour",
			Statement: ddl + `
SELECT window_start, origin, COUNT(*) AS departures, AVG(delay) AS avg_delay_min
FROM TABLE(TUMBLE(TABLE flights_live, DESCRIPTOR(` + "`date`" + `), INTERVAL '1' HOUR))
WHERE origin IN ('ORD', 'DFW', 'ATL', 'LAX', 'PHX')
GROUP BY window_start, window_end, origin`,
			Spec: persistence.TileSpec{ColSpan: 3, Mode: modeStreaming}},
	}
}

// seedDemoDashboard adds the demo dashboard to a new demo workspace
// (dashboard hook, called by seedDemo) and says in Messages where it is.
func (wb *Workbench) seedDemoDashboard(ctx context.Context, p assets.DataPaths) error {
	b, err := wb.store.CreateDashboard(ctx, demoDashboardName, persistence.DefaultDashboardColumns)
	if err != nil {
		return err
	}
	if _, err := wb.store.SaveDashboardTiles(ctx, b.ID, demoDashboardTiles(p)); err != nil {
		return err
	}
	wb.startNotes = append(wb.startNotes, "The demo dashboard \""+demoDashboardName+
		"\" watches the replayed flights live: View ▸ Dashboards (Ctrl+Shift+D). Pin any result tab to a dashboard with its Pin button.")
	return nil
}
