package persistence

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// AlertRule is an alert rule on a live query as the workspace keeps it
// (workbench/alerting.Rule is the evaluated form).
type AlertRule struct {
	ID   int64
	Name string
	// Statement is the live query (preparing statements allowed before
	// the final SELECT); Condition its text form; Sink the optional
	// statement run with the triggering row.
	Statement, Condition, Sink string
	// Cooldown is the least time between two alerts (0 = the default,
	// negative = none).
	Cooldown time.Duration
	Enabled  bool
	Position int
}

// AlertLogKind tells an alert from a failure in the alert log.
type AlertLogKind string

// The alert log's kinds of entry.
const (
	AlertFired      AlertLogKind = "fired"
	AlertSinkFailed AlertLogKind = "sink failed"
	AlertRuleFailed AlertLogKind = "rule failed"
)

// AlertLogEntry is one line of the alert log.
type AlertLogEntry struct {
	ID       int64
	RuleID   int64 // 0 once the rule is deleted
	RuleName string
	At       time.Time
	Kind     AlertLogKind
	Message  string
	// RowJSON is the triggering row as a JSON object, "" without one.
	RowJSON string
}

// AlertStat is what the log says of one rule: how many alerts it raised
// and when the last one was.
type AlertStat struct {
	Count int
	Last  time.Time
}

// alertTimeLayout writes alert times in UTC with a fixed number of
// digits, so that they sort as text (max(fired_at)).
const alertTimeLayout = "2006-01-02T15:04:05.000000000Z"

// MaxAlertLog is how many entries the alert log keeps; older ones are
// dropped as new ones are added.
const MaxAlertLog = 10000

// ErrDuplicateAlertRule is returned by SaveAlertRule for a name another
// rule has.
var ErrDuplicateAlertRule = errors.New("persistence: another alert rule has that name")

// SaveAlertRule inserts a rule (ID 0) or updates the rule with r.ID, and
// returns its ID. Names are unique (ErrDuplicateAlertRule) and not empty.
func (s *Store) SaveAlertRule(ctx context.Context, r AlertRule) (int64, error) {
	if strings.TrimSpace(r.Name) == "" {
		return 0, fmt.Errorf("persistence: an alert rule needs a name")
	}
	cooldown := r.Cooldown.Milliseconds()
	if r.Cooldown < 0 {
		cooldown = -1
	}
	var res sql.Result
	var err error
	if r.ID == 0 {
		res, err = s.db.ExecContext(ctx,
			`INSERT INTO alert_rules(name, statement, condition, sink_statement, cooldown_ms, enabled, position)
			 VALUES (?, ?, ?, ?, ?, ?, ?)`, r.Name, r.Statement, r.Condition, r.Sink, cooldown, r.Enabled, r.Position)
	} else {
		res, err = s.db.ExecContext(ctx,
			`UPDATE alert_rules SET name = ?, statement = ?, condition = ?, sink_statement = ?, cooldown_ms = ?,
			 enabled = ?, position = ? WHERE id = ?`, r.Name, r.Statement, r.Condition, r.Sink, cooldown, r.Enabled, r.Position, r.ID)
	}
	if err != nil {
		if strings.Contains(err.Error(), "UNIQUE constraint failed") {
			return 0, fmt.Errorf("%w: %q", ErrDuplicateAlertRule, r.Name)
		}
		return 0, fmt.Errorf("persistence: %w", err)
	}
	if r.ID != 0 {
		if n, _ := res.RowsAffected(); n == 0 {
			return 0, fmt.Errorf("persistence: no alert rule %d", r.ID)
		}
		return r.ID, nil
	}
	return res.LastInsertId()
}

// SetAlertRuleEnabled enables or disables a rule.
func (s *Store) SetAlertRuleEnabled(ctx context.Context, id int64, enabled bool) error {
	if _, err := s.db.ExecContext(ctx, `UPDATE alert_rules SET enabled = ? WHERE id = ?`, enabled, id); err != nil {
		return fmt.Errorf("persistence: %w", err)
	}
	return nil
}

// DeleteAlertRule removes a rule; its log entries stay, under its name,
// with rule ID 0.
func (s *Store) DeleteAlertRule(ctx context.Context, id int64) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM alert_rules WHERE id = ?`, id); err != nil {
			return fmt.Errorf("persistence: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE alert_log SET rule_id = NULL WHERE rule_id = ?`, id); err != nil {
			return fmt.Errorf("persistence: %w", err)
		}
		return nil
	})
}

// AlertRules lists the rules by position, then ID.
func (s *Store) AlertRules(ctx context.Context) ([]AlertRule, error) {
	rows, err := s.db.QueryContext(ctx,
		`SELECT id, name, statement, condition, sink_statement, cooldown_ms, enabled, position
		 FROM alert_rules ORDER BY position, id`)
	if err != nil {
		return nil, fmt.Errorf("persistence: %w", err)
	}
	defer rows.Close()
	var out []AlertRule
	for rows.Next() {
		var r AlertRule
		var ms int64
		if err := rows.Scan(&r.ID, &r.Name, &r.Statement, &r.Condition, &r.Sink, &ms, &r.Enabled, &r.Position); err != nil {
			return nil, fmt.Errorf("persistence: %w", err)
		}
		if ms < 0 {
			r.Cooldown = -1
		} else {
			r.Cooldown = time.Duration(ms) * time.Millisecond
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// AddAlertLog appends an entry to the alert log (its ID is returned) and
// drops the entries beyond the newest MaxAlertLog.
func (s *Store) AddAlertLog(ctx context.Context, e AlertLogEntry) (int64, error) {
	if e.Kind == "" {
		e.Kind = AlertFired
	}
	var ruleID any
	if e.RuleID != 0 {
		ruleID = e.RuleID
	}
	var id int64
	err := s.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx,
			`INSERT INTO alert_log(rule_id, rule_name, fired_at, kind, message, row_json) VALUES (?, ?, ?, ?, ?, ?)`,
			ruleID, e.RuleName, e.At.UTC().Format(alertTimeLayout), string(e.Kind), e.Message, e.RowJSON)
		if err != nil {
			return fmt.Errorf("persistence: %w", err)
		}
		if id, err = res.LastInsertId(); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM alert_log WHERE id <= ?`, id-MaxAlertLog)
		return err
	})
	return id, err
}

// AlertLog returns the newest limit entries of the alert log, newest
// first (limit <= 0: all). An entry whose time does not parse is kept
// with a zero At.
func (s *Store) AlertLog(ctx context.Context, limit int) ([]AlertLogEntry, error) {
	if limit <= 0 {
		limit = -1
	}
	rows, err := s.db.QueryContext(ctx,
		`SELECT id, COALESCE(rule_id, 0), rule_name, fired_at, kind, message, row_json
		 FROM alert_log ORDER BY id DESC LIMIT ?`, limit)
	if err != nil {
		return nil, fmt.Errorf("persistence: %w", err)
	}
	defer rows.Close()
	var out []AlertLogEntry
	for rows.Next() {
		var e AlertLogEntry
		var at, kind string
		if err := rows.Scan(&e.ID, &e.RuleID, &e.RuleName, &at, &kind, &e.Message, &e.RowJSON); err != nil {
			return nil, fmt.Errorf("persistence: %w", err)
		}
		e.At, _ = time.Parse(time.RFC3339Nano, at)
		e.Kind = AlertLogKind(kind)
		out = append(out, e)
	}
	return out, rows.Err()
}

// ClearAlertLog empties the alert log.
func (s *Store) ClearAlertLog(ctx context.Context) error {
	if _, err := s.db.ExecContext(ctx, `DELETE FROM alert_log`); err != nil {
		return fmt.Errorf("persistence: %w", err)
	}
	return nil
}

// AlertStats counts each rule's alerts in the log (failures not counted)
// and finds the last one's time, by rule ID.
func (s *Store) AlertStats(ctx context.Context) (map[int64]AlertStat, error) {
	rows, err := s.db.QueryContext(ctx,
		`SELECT rule_id, count(*), max(fired_at) FROM alert_log WHERE rule_id IS NOT NULL AND kind = ? GROUP BY rule_id`, string(AlertFired))
	if err != nil {
		return nil, fmt.Errorf("persistence: %w", err)
	}
	defer rows.Close()
	out := map[int64]AlertStat{}
	for rows.Next() {
		var id int64
		var st AlertStat
		var last string
		if err := rows.Scan(&id, &st.Count, &last); err != nil {
			return nil, fmt.Errorf("persistence: %w", err)
		}
		st.Last, _ = time.Parse(time.RFC3339Nano, last)
		out[id] = st
	}
	return out, rows.Err()
}
