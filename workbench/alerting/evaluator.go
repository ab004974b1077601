package alerting

import (
	"fmt"
	"strings"
	"time"

	"github.com/riffle-sql/riffle/engine/types"
)

// DefaultCooldown is a rule's cool-down when it sets none: after firing,
// the rule stays quiet this long, counting the matches it skips; the next
// alert says how many there were.
const DefaultCooldown = time.Minute

// Rule is an alert rule on a live query.
type Rule struct {
	ID   int64
	Name string
	// Statement is the live query: one SELECT, optionally preceded by
	// statements that prepare it (SET, CREATE TEMPORARY TABLE/VIEW, USE),
	// separated by ";". It runs in a session of its own.
	Statement string
	Condition Condition
	// Sink is an optional statement run when the rule fires (such as an
	// INSERT INTO a Kafka topic), in the rule's session; :column names a
	// value of the triggering row (see BindSink).
	Sink string
	// Cooldown is the least time between two alerts of the rule
	// (0 = DefaultCooldown; negative = none, every match fires).
	Cooldown time.Duration
	Enabled  bool
}

// EffectiveCooldown is the rule's cool-down with the default applied.
func (r Rule) EffectiveCooldown() time.Duration {
	switch {
	case r.Cooldown < 0:
		return 0
	case r.Cooldown == 0:
		return DefaultCooldown
	}
	return r.Cooldown
}

// EventKind tells an alert from the other entries of the alert log.
type EventKind int

// The event kinds.
const (
	// Fired: the condition held.
	Fired EventKind = iota
	// SinkFailed: the sink statement of an alert failed.
	SinkFailed
	// RuleFailed: the rule's query could not start or failed.
	RuleFailed
)

// Event is one entry of the alert log.
type Event struct {
	Kind   EventKind
	RuleID int64
	Rule   string
	At     time.Time
	// Message says what happened ("delay > 180: delay = 195", "no row for
	// 30 s"; for SinkFailed the sink's error).
	Message string
	// Columns and Values are the triggering row (none for NoRow and
	// WatermarkLag alerts).
	Columns []string
	Values  []any
	// Suppressed counts the matches skipped during the cool-down before
	// this alert.
	Suppressed int
}

// RowJSON is the triggering row as a JSON object in column order ("" with
// no row): numbers as numbers, timestamps as "yyyy-MM-dd HH:mm:ss[.f]",
// other values as their SQL text.
func (e Event) RowJSON() string {
	if e.Columns == nil {
		return ""
	}
	return rowJSON(e.Columns, e.Values)
}

// Evaluator decides when a rule fires. It holds the rule's state — the
// cool-down, the last row's time, whether a no-row or lag alarm is raised
// — and is driven with explicit times (the Runner passes its clock's), so
// it is deterministic. It is not safe for concurrent use.
type Evaluator struct {
	rule     Rule
	cooldown time.Duration

	lastFire   time.Time
	fired      bool
	suppressed int
	lastRow    time.Time // or the start
	silent     bool      // a NoRow alarm is raised until the next row
	lagging    bool      // a WatermarkLag alarm is raised until the lag drops
	colIndex   int       // Compare: the column's index, -1 until known
	colNames   []string
}

// NewEvaluator starts evaluating rule at start (the time the query
// started: a NoRow rule counts its silence from there).
func NewEvaluator(rule Rule, start time.Time) *Evaluator {
	return &Evaluator{rule: rule, cooldown: rule.EffectiveCooldown(), lastRow: start, colIndex: -1}
}

// Row evaluates one row of the query (names are its columns) at now. Only
// rows that add to the result count (+I and +U; -U and -D retract). It
// returns the alert, if the rule fires; an error says the row cannot be
// compared (the column is missing, the value does not read as its type).
func (e *Evaluator) Row(now time.Time, names []string, row *types.Row) (*Event, error) {
	if row == nil || !row.Kind.IsAccumulate() {
		return nil, nil
	}
	e.lastRow, e.silent = now, false
	c := e.rule.Condition
	var msg string
	switch c.Kind {
	case AnyRow:
		msg = "row " + rowText(names, row.Values)
	case Compare:
		if e.colIndex < 0 || !sameNames(e.colNames, names) {
			e.colIndex, e.colNames = columnIndex(names, c.Column), names
			if e.colIndex < 0 {
				return nil, fmt.Errorf("the query has no column %s; its columns are %s", quoteIdent(c.Column), strings.Join(names, ", "))
			}
		}
		if e.colIndex >= len(row.Values) {
			return nil, nil
		}
		v := row.Values[e.colIndex]
		ok, err := compareValue(v, c.Op, c.Value)
		if err != nil {
			return nil, fmt.Errorf("column %s: %w", quoteIdent(names[e.colIndex]), err)
		}
		if !ok {
			return nil, nil
		}
		msg = fmt.Sprintf("%s: %s = %s", c, names[e.colIndex], valueText(v))
	default:
		return nil, nil
	}
	return e.fire(now, msg, names, row.Values), nil
}

func sameNames(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Tick evaluates the time-based conditions at now: NoRow fires once the
// silence since the last row (or the start) reaches its threshold, and
// not again before a row arrives; WatermarkLag fires when lag (the
// watermark's lag behind processing time, known = false while the job
// has no watermark or its lag is not live, see monitor.LiveLag) exceeds
// its threshold, and not again before it drops back to it or below.
func (e *Evaluator) Tick(now time.Time, lag time.Duration, known bool) *Event {
	c := e.rule.Condition
	switch c.Kind {
	case NoRow:
		if e.silent || now.Sub(e.lastRow) < c.Duration() {
			return nil
		}
		e.silent = true
		return e.fire(now, fmt.Sprintf("no row for %s s (since %s)", formatSeconds(c.Seconds), e.lastRow.Format("15:04:05")), nil, nil)
	case WatermarkLag:
		if !known {
			return nil
		}
		if lag <= c.Duration() {
			e.lagging = false
			return nil
		}
		if e.lagging {
			return nil
		}
		e.lagging = true
		return e.fire(now, fmt.Sprintf("watermark lag %s s > %s s", formatSeconds(lag.Round(100*time.Millisecond).Seconds()), formatSeconds(c.Seconds)), nil, nil)
	}
	return nil
}

// fire raises an alert at now unless the cool-down holds (then it counts
// the match and returns nil).
func (e *Evaluator) fire(now time.Time, msg string, names []string, values []any) *Event {
	if e.fired && now.Sub(e.lastFire) < e.cooldown {
		e.suppressed++
		return nil
	}
	ev := &Event{Kind: Fired, RuleID: e.rule.ID, Rule: e.rule.Name, At: now, Message: msg, Suppressed: e.suppressed}
	if names != nil {
		ev.Columns = append([]string(nil), names...)
		ev.Values = append([]any(nil), values...)
	}
	if e.suppressed > 0 {
		ev.Message += fmt.Sprintf(" (%d more matches during the %s s cool-down)", e.suppressed, formatSeconds(e.cooldown.Seconds()))
	}
	e.fired, e.lastFire, e.suppressed = true, now, 0
	return ev
}

// Suppressed counts the matches skipped since the last alert.
func (e *Evaluator) Suppressed() int { return e.suppressed }
