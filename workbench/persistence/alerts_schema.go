package persistence

// migrationAlerts (6 -> 7) stores the workspace's alert rules on live
// queries (issue 21) and the log of the alerts they raised. A rule's
// condition ("any row", "column op value", "no row for N seconds",
// "watermark lag > N") is JSON in condition; sink_statement is an
// optional statement run with the triggering row. alert_log keeps the
// triggering row as JSON (column name to value).
const migrationAlerts = `CREATE TABLE alert_rules (
   id             INTEGER PRIMARY KEY,
   name           TEXT NOT NULL UNIQUE,
   statement      TEXT NOT NULL,
   condition      TEXT NOT NULL,
   sink_statement TEXT NOT NULL DEFAULT '',
   enabled        INTEGER NOT NULL DEFAULT 1,
   position       INTEGER NOT NULL DEFAULT 0
 );
 CREATE TABLE alert_log (
   id        INTEGER PRIMARY KEY,
   rule_id   INTEGER,
   rule_name TEXT NOT NULL,
   fired_at  TEXT NOT NULL,
   message   TEXT NOT NULL,
   row_json  TEXT NOT NULL DEFAULT ''
 );`
