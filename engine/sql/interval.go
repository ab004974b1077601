package sql

import (
	"fmt"
	"strconv"
)

// DayTimeInterval builds an expression for a day-time interval of ms
// milliseconds that Flink's validator accepts: INTERVAL 'D HH:MM:SS.fff'
// DAY(p) TO SECOND(3), with p the digits of the days (DAY alone up to 99), and
// beyond 999 days, where Flink accepts no day-time literal (its planner
// rejects a leading precision above 3), INTERVAL '1' DAY * days plus that
// literal for the rest.
func DayTimeInterval(ms int64) Expr {
	neg := ms < 0
	if neg {
		ms = -ms
	}
	days := ms / 86_400_000
	rest := ms % 86_400_000
	lit := func(days int64) *IntervalLit {
		p := -1 // DAY(2)
		if days > 99 {
			p = len(strconv.FormatInt(days, 10))
		}
		return &IntervalLit{Negative: neg,
			Value:     fmt.Sprintf("%d %02d:%02d:%02d.%03d", days, rest/3_600_000, rest/60_000%60, rest/1000%60, rest%1000),
			Qualifier: &IntervalQualifier{StartUnit: "DAY", StartPrecision: p, EndUnit: "SECOND", FracPrecision: 3}}
	}
	if days <= 999 {
		return lit(days)
	}
	one := &IntervalLit{Negative: neg, Value: "1", Qualifier: &IntervalQualifier{StartUnit: "DAY", StartPrecision: -1, FracPrecision: -1}}
	n := &NumberLit{Kind: NumInteger, Text: strconv.FormatInt(days, 10)}
	return &BinaryExpr{Op: "+", X: &BinaryExpr{Op: "*", X: one, Y: n}, Y: lit(0)}
}
