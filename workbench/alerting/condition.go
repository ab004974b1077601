package alerting

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/riffle-sql/riffle/engine/types"
)

// Kind is what a rule's condition watches.
type Kind string

// The condition kinds.
const (
	// AnyRow fires on every row the query emits (text "any row").
	AnyRow Kind = "any row"
	// Compare fires on a row whose column compares true with a literal
	// (text "delay > 180", "origin = 'ORD'", "ts >= '2001-01-01 12:00:00'").
	Compare Kind = "compare"
	// NoRow fires when no row arrived for Seconds (text "no row for 30 s").
	NoRow Kind = "no row"
	// WatermarkLag fires when the watermark reaching the query's sink is
	// more than Seconds behind processing time (text "watermark lag > 10 s").
	WatermarkLag Kind = "watermark lag"
)

// Ops are the comparison operators of a Compare condition.
var Ops = []string{"=", "<>", "<", "<=", ">", ">="}

// Condition is a rule's condition. Its text form (String, ParseCondition)
// is what the Alerts dialog edits and the workspace stores.
type Condition struct {
	Kind Kind
	// Column, Op and Value are a Compare condition's: the result column
	// (as the query names it, matched case-insensitively), one of Ops, and
	// the literal as written (a number, or a string in single quotes,
	// which a timestamp, date or boolean column reads as its type).
	Column, Op, Value string
	// Seconds is a NoRow or WatermarkLag condition's threshold (> 0).
	Seconds float64
}

// String is the condition's text form, which ParseCondition reads back.
func (c Condition) String() string {
	switch c.Kind {
	case AnyRow:
		return "any row"
	case Compare:
		return quoteIdent(c.Column) + " " + c.Op + " " + c.Value
	case NoRow:
		return "no row for " + formatSeconds(c.Seconds) + " s"
	case WatermarkLag:
		return "watermark lag > " + formatSeconds(c.Seconds) + " s"
	}
	return ""
}

func formatSeconds(s float64) string { return strconv.FormatFloat(s, 'f', -1, 64) }

// quoteIdent backquotes a column name that is not a plain identifier.
func quoteIdent(s string) string {
	plain := s != ""
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			plain = false
		}
	}
	if plain {
		return s
	}
	return "`" + strings.ReplaceAll(s, "`", "``") + "`"
}

// ConditionError is a condition that does not parse or does not fit the
// query's columns; Column is the 1-based character position in the
// condition's text it points at (0: the whole text).
type ConditionError struct {
	Column int
	Msg    string
}

func (e *ConditionError) Error() string {
	if e.Column > 0 {
		return fmt.Sprintf("condition, column %d: %s", e.Column, e.Msg)
	}
	return "condition: " + e.Msg
}

const conditionForms = `write "any row", "<column> <op> <value>" (op one of = <> < <= > >=), "no row for <N> s" or "watermark lag > <N> s"`

// ParseCondition reads a condition's text form:
//
//	any row
//	delay > 180              a column, an operator (= <> < <= > >=), a literal
//	origin = 'ORD'           strings in single quotes ('' for a quote)
//	`date` >= '2001-01-01 12:00:00'
//	no row for 30 s          also "30s", "30 seconds", "2 min"
//	watermark lag > 10 s
//
// Keywords are case-insensitive. Errors are *ConditionError.
func ParseCondition(text string) (Condition, error) {
	s := strings.TrimSpace(text)
	lead := len(text) - len(strings.TrimLeft(text, " \t\r\n"))
	lower := strings.ToLower(s)
	switch {
	case s == "":
		return Condition{}, &ConditionError{0, "empty: " + conditionForms}
	case lower == "any row" || lower == "any":
		return Condition{Kind: AnyRow}, nil
	case strings.HasPrefix(lower, "no row for "):
		rest := s[len("no row for "):]
		secs, err := parseSeconds(rest)
		if err != nil {
			return Condition{}, &ConditionError{lead + len("no row for ") + 1, err.Error()}
		}
		return Condition{Kind: NoRow, Seconds: secs}, nil
	case strings.HasPrefix(lower, "watermark lag"):
		rest := strings.TrimSpace(s[len("watermark lag"):])
		if !strings.HasPrefix(rest, ">") || strings.HasPrefix(rest, ">=") {
			return Condition{}, &ConditionError{lead + len("watermark lag") + 2, `a watermark lag condition reads "watermark lag > <N> s"`}
		}
		num := strings.TrimSpace(rest[1:])
		secs, err := parseSeconds(num)
		if err != nil {
			return Condition{}, &ConditionError{lead + len(s) - len(num) + 1, err.Error()}
		}
		return Condition{Kind: WatermarkLag, Seconds: secs}, nil
	}
	// <column> <op> <value>
	col, rest, err := scanIdent(s)
	if err != nil {
		return Condition{}, &ConditionError{lead + 1, err.Error() + "; " + conditionForms}
	}
	trimmed := strings.TrimLeft(rest, " \t")
	opAt := lead + len(s) - len(trimmed) + 1
	op := ""
	for _, o := range []string{"<>", "<=", ">=", "!=", "=", "<", ">"} {
		if strings.HasPrefix(trimmed, o) {
			op = o
			break
		}
	}
	if op == "" {
		return Condition{}, &ConditionError{opAt, "expected an operator (= <> < <= > >=) after the column " + quoteIdent(col) + "; " + conditionForms}
	}
	value := strings.TrimSpace(trimmed[len(op):])
	valueAt := lead + len(s) - len(strings.TrimLeft(trimmed[len(op):], " \t")) + 1
	if op == "!=" {
		op = "<>"
	}
	if value == "" {
		return Condition{}, &ConditionError{valueAt, "expected a value after " + op}
	}
	if strings.HasPrefix(value, "'") {
		if _, ok := unquote(value); !ok {
			return Condition{}, &ConditionError{valueAt, "unterminated string: " + value}
		}
	} else if _, ok := new(big.Rat).SetString(value); !ok {
		switch strings.ToUpper(value) {
		case "TRUE", "FALSE":
		default:
			return Condition{}, &ConditionError{valueAt, "the value " + value + " is neither a number, TRUE/FALSE nor a string in single quotes"}
		}
	}
	return Condition{Kind: Compare, Column: col, Op: op, Value: value}, nil
}

// scanIdent reads a plain or backquoted identifier at the start of s.
func scanIdent(s string) (ident, rest string, err error) {
	if strings.HasPrefix(s, "`") {
		var b strings.Builder
		for i := 1; i < len(s); i++ {
			if s[i] == '`' {
				if i+1 < len(s) && s[i+1] == '`' {
					b.WriteByte('`')
					i++
					continue
				}
				return b.String(), s[i+1:], nil
			}
			b.WriteByte(s[i])
		}
		return "", "", fmt.Errorf("unterminated quoted column name")
	}
	i := 0
	for i < len(s) {
		c := s[i]
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9' || c >= 0x80 {
			i++
			continue
		}
		break
	}
	if i == 0 {
		return "", "", fmt.Errorf("expected a column name")
	}
	return s[:i], s[i:], nil
}

// unquote reads a whole single-quoted SQL string (a doubled quote inside
// stands for one).
func unquote(v string) (string, bool) {
	if len(v) < 2 || v[0] != '\'' || v[len(v)-1] != '\'' {
		return "", false
	}
	body := v[1 : len(v)-1]
	// a lone quote inside ends the string early
	if strings.Count(strings.ReplaceAll(body, "''", ""), "'") > 0 {
		return "", false
	}
	return strings.ReplaceAll(body, "''", "'"), true
}

// parseSeconds reads "30", "30 s", "30s", "30 seconds", "1.5 min", "2 m".
func parseSeconds(s string) (float64, error) {
	s = strings.TrimSpace(strings.ToLower(s))
	num := strings.TrimRight(s, "abcdefghijklmnopqrstuvwxyz ")
	unit := strings.TrimSpace(s[len(num):])
	v, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
	if err != nil || v <= 0 {
		return 0, fmt.Errorf("expected a number of seconds above 0, such as 30 s, got %q", s)
	}
	switch unit {
	case "", "s", "sec", "secs", "second", "seconds":
	case "m", "min", "mins", "minute", "minutes":
		v *= 60
	case "h", "hour", "hours":
		v *= 3600
	default:
		return 0, fmt.Errorf("unknown unit %q (use s, min or h)", unit)
	}
	return v, nil
}

// Duration is Seconds as a duration.
func (c Condition) Duration() time.Duration { return time.Duration(c.Seconds * float64(time.Second)) }

// RowCondition reports a condition decided on each row (AnyRow, Compare).
func (c Condition) RowCondition() bool { return c.Kind == AnyRow || c.Kind == Compare }

// Check validates the condition against the query's result columns
// (names and types, as the engine reports them): a Compare condition's
// column must exist and its value must read as the column's type.
func (c Condition) Check(names []string, ts []*types.DataType) error {
	if c.Kind != Compare {
		return nil
	}
	i := columnIndex(names, c.Column)
	if i < 0 {
		return &ConditionError{1, fmt.Sprintf("the query has no column %s; its columns are %s", quoteIdent(c.Column), strings.Join(names, ", "))}
	}
	if i >= len(ts) || ts[i] == nil {
		return nil
	}
	if _, err := literalFor(c.Value, ts[i]); err != nil {
		return &ConditionError{0, fmt.Sprintf("column %s is %s: %v", quoteIdent(names[i]), ts[i].SQLString(), err)}
	}
	return nil
}

// columnIndex finds a column by name: exactly first, then ignoring case.
func columnIndex(names []string, col string) int {
	for i, n := range names {
		if n == col {
			return i
		}
	}
	for i, n := range names {
		if strings.EqualFold(n, col) {
			return i
		}
	}
	return -1
}
