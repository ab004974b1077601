package persistence

// migrationAlerts (6 -> 7) stores the workspace's alert rules on live
// queries (issue 21, alerts.go) and the log of the alerts they raised. A
// rule's condition is its text form ("any row", "delay > 180", "no row for
// 30 s", "watermark lag > 10 s": workbench/alerting.ParseCondition reads
// it); sink_statement is an optional statement run with the triggering
// row (:column placeholders); cooldown_ms is the least time between two
// alerts (0 = the default, -1 = none). alert_log keeps each alert, and
// each failure of a rule or its sink (kind), with the triggering row as a
// JSON object (column name to value, in column order); rule_name is kept
// so that the log of a deleted rule still reads.
const migrationAlerts = `CREATE TABLE alert_rules (
   id             INTEGER PRIMARY KEY,
   name           TEXT NOT NULL UNIQUE,
   statement      TEXT NOT NULL,
   condition      TEXT NOT NULL,
   sink_statement TEXT NOT NULL DEFAULT '',
   cooldown_ms    INTEGER NOT NULL DEFAULT 0,
   enabled        INTEGER NOT NULL DEFAULT 1,
   position       INTEGER NOT NULL DEFAULT 0
 );
 CREATE TABLE alert_log (
   id        INTEGER PRIMARY KEY,
   rule_id   INTEGER,
   rule_name TEXT NOT NULL,
   fired_at  TEXT NOT NULL,
   kind      TEXT NOT NULL DEFAULT 'fired',
   message   TEXT NOT NULL,
   row_json  TEXT NOT NULL DEFAULT ''
 );
 CREATE INDEX alert_log_rule ON alert_log(rule_id, fired_at);`
