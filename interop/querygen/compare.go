package querygen

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/riffle-sql/riffle/engine/types"
)

// RelTolerance is the relative tolerance of DOUBLE and FLOAT values: two
// engines may add floating-point numbers in different orders (SUM, AVG).
const RelTolerance = 1e-9

// Changelog collects the rows of a query result and applies them: +I and
// +U add a row, -U and -D remove an equal one. The final result is the
// multiset left (in arrival order, for ORDER BY queries).
type Changelog struct {
	rows [][]any
	// Unmatched counts retractions of a row that was not there (a broken
	// changelog).
	Unmatched int
}

// Add applies one changelog row; values are copied.
func (c *Changelog) Add(kind types.RowKind, values []any) {
	if kind.IsAccumulate() {
		c.rows = append(c.rows, append([]any(nil), values...))
		return
	}
	for i := len(c.rows) - 1; i >= 0; i-- {
		if RowsEqual(c.rows[i], values) {
			c.rows = append(c.rows[:i], c.rows[i+1:]...)
			return
		}
	}
	c.Unmatched++
}

// Rows returns the final rows.
func (c *Changelog) Rows() [][]any { return c.rows }

// ValuesEqual compares two result values: NULLs are equal, DOUBLE and FLOAT
// within RelTolerance, integers of any width by value, DECIMAL by digits and
// scale, timestamps as instants, everything else by value and type.
func ValuesEqual(x, y any) bool {
	if x == nil || y == nil {
		return x == nil && y == nil
	}
	if fx, ok := asFloat(x); ok {
		fy, ok := asFloat(y)
		return ok && floatsEqual(fx, fy)
	}
	if ix, ok := asInt(x); ok {
		iy, ok := asInt(y)
		return ok && ix == iy
	}
	switch a := x.(type) {
	case time.Time:
		b, ok := y.(time.Time)
		return ok && a.Equal(b)
	case types.Decimal:
		b, ok := y.(types.Decimal)
		return ok && a.String() == b.String()
	}
	return fmt.Sprintf("%T|%v", x, x) == fmt.Sprintf("%T|%v", y, y)
}

func floatsEqual(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	if a == b {
		return true
	}
	diff := math.Abs(a - b)
	return diff <= RelTolerance*math.Max(math.Abs(a), math.Abs(b)) || diff < 1e-12
}

func asFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case float32:
		return float64(x), true
	}
	return 0, false
}

func asInt(v any) (int64, bool) {
	switch x := v.(type) {
	case int8:
		return int64(x), true
	case int16:
		return int64(x), true
	case int32:
		return int64(x), true
	case int64:
		return x, true
	case int:
		return int64(x), true
	}
	return 0, false
}

// RowsEqual compares two rows value by value (ValuesEqual).
func RowsEqual(a, b []any) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !ValuesEqual(a[i], b[i]) {
			return false
		}
	}
	return true
}

// FormatValue renders a value for reports and as a sort key: NULL as
// <NULL>, strings quoted, floats with all their digits, timestamps with
// milliseconds, other values as their String.
func FormatValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "<NULL>"
	case string:
		return strconv.Quote(x)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case float32:
		return strconv.FormatFloat(float64(x), 'g', -1, 32)
	case time.Time:
		return x.UTC().Format("2006-01-02 15:04:05.000")
	case types.Decimal:
		return x.String()
	}
	if i, ok := asInt(v); ok {
		return strconv.FormatInt(i, 10)
	}
	return fmt.Sprint(v)
}

// FormatRow renders a row as "(v1, v2, ...)".
func FormatRow(r []any) string {
	parts := make([]string, len(r))
	for i, v := range r {
		parts[i] = FormatValue(v)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// FormatRows renders rows one a line, sorted unless ordered.
func FormatRows(rows [][]any, ordered bool) string {
	lines := make([]string, len(rows))
	for i, r := range rows {
		lines[i] = FormatRow(r)
	}
	if !ordered {
		sort.Strings(lines)
	}
	return strings.Join(lines, "\n")
}

// Compare decides whether two final results agree: as multisets, or in
// order when ordered. It returns "" when they agree and otherwise a short
// description of the first difference.
func Compare(a, b [][]any, ordered bool) string {
	if ordered {
		if len(a) != len(b) {
			return fmt.Sprintf("%d rows vs %d rows", len(a), len(b))
		}
		for i := range a {
			if !RowsEqual(a[i], b[i]) {
				return fmt.Sprintf("row %d: %s vs %s", i+1, FormatRow(a[i]), FormatRow(b[i]))
			}
		}
		return ""
	}
	// exact matches by rendered row first, then the rest within tolerance
	left := map[string][]int{}
	for i, r := range a {
		k := FormatRow(r)
		left[k] = append(left[k], i)
	}
	usedA := make([]bool, len(a))
	var restB []int
	for j, r := range b {
		k := FormatRow(r)
		if is := left[k]; len(is) > 0 {
			usedA[is[0]] = true
			left[k] = is[1:]
			continue
		}
		restB = append(restB, j)
	}
	var onlyB []string
	for _, j := range restB {
		found := false
		for i := range a {
			if !usedA[i] && RowsEqual(a[i], b[j]) {
				usedA[i] = true
				found = true
				break
			}
		}
		if !found {
			onlyB = append(onlyB, FormatRow(b[j]))
		}
	}
	var onlyA []string
	for i, u := range usedA {
		if !u {
			onlyA = append(onlyA, FormatRow(a[i]))
		}
	}
	if len(onlyA) == 0 && len(onlyB) == 0 {
		return ""
	}
	sort.Strings(onlyA)
	sort.Strings(onlyB)
	return fmt.Sprintf("%d rows vs %d rows; only in first: %s; only in second: %s",
		len(a), len(b), clip(onlyA), clip(onlyB))
}

func clip(s []string) string {
	if len(s) > 5 {
		return strings.Join(s[:5], " ") + fmt.Sprintf(" … (%d more)", len(s)-5)
	}
	if len(s) == 0 {
		return "-"
	}
	return strings.Join(s, " ")
}
