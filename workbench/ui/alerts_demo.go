package ui

import (
	"context"
	"strings"

	"github.com/riffle-sql/riffle/assets"
	"github.com/riffle-sql/riffle/workbench/persistence"
)

// demoAlertName is the demo workspace's alert rule.
const demoAlertName = "Late flights"

// demoAlertStatement replays the bundled flights as a live stream (1,200×
// event time, as the Live flights tab does) and keeps the late arrivals;
// the rule fires on an arrival more than 4 hours late, the first of which
// departs 7 minutes into the data: within a second of the start.
const demoAlertStatement = `-- The bundled flights replayed as a live stream at 1,200x event time
CREATE TEMPORARY TABLE flights_alerts_live (
  ` + "`date`" + `      TIMESTAMP(0),
  delay       INT,
  distance    INT,
  origin      STRING,
  destination STRING,
  WATERMARK FOR ` + "`date`" + ` AS ` + "`date`" + ` - INTERVAL '1' MINUTE
) WITH (
  'connector' = 'filesystem',
  'path' = '{{flights}}',
  'format' = 'csv',
  'csv.ignore-first-line' = 'true',
  'source.replay-speed' = '1200'
);

SELECT ` + "`date`" + `, origin, destination, delay
FROM flights_alerts_live
WHERE delay > 60`

// seedDemoAlert adds the demo's alert rule to a new workspace: an arrival
// delay above 4 hours on the replayed flights, with the default cool-down.
func (wb *Workbench) seedDemoAlert(ctx context.Context, paths assets.DataPaths) error {
	stmt := strings.ReplaceAll(demoAlertStatement, "{{flights}}", strings.ReplaceAll(paths.Flights, "'", "''"))
	_, err := wb.store.SaveAlertRule(ctx, persistence.AlertRule{Name: demoAlertName, Statement: stmt,
		Condition: "delay > 240", Enabled: true})
	return err
}
