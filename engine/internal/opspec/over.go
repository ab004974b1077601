package opspec

import (
	"fmt"
	"strings"

	"github.com/riffle-sql/riffle/engine/types"
)

// BoundKind is the kind of an OVER frame bound.
type BoundKind uint8

// Frame bound kinds.
const (
	UnboundedPreceding BoundKind = iota
	Preceding
	CurrentRow
	Following
	UnboundedFollowing
)

// FrameBound is one bound of an OVER frame. For ROWS frames Offset counts
// rows; for RANGE frames it is a distance on the order key: the key's
// number, or milliseconds for DATE, TIME and TIMESTAMP keys.
type FrameBound struct {
	Kind   BoundKind
	Offset float64
}

func (b FrameBound) String() string {
	switch b.Kind {
	case UnboundedPreceding:
		return "UNBOUNDED PRECEDING"
	case Preceding:
		return fmt.Sprintf("%g PRECEDING", b.Offset)
	case CurrentRow:
		return "CURRENT ROW"
	case Following:
		return fmt.Sprintf("%g FOLLOWING", b.Offset)
	}
	return "UNBOUNDED FOLLOWING"
}

// OverFrame is ROWS or RANGE BETWEEN Lower AND Upper.
type OverFrame struct {
	Rows         bool
	Lower, Upper FrameBound
}

func (f OverFrame) String() string {
	unit := "RANG"
	if f.Rows {
		unit = "ROWS"
	}
	return fmt.Sprintf("%s BETWEEN %s AND %s", unit, f.Lower, f.Upper)
}

// OverCall is one function computed over a window: a ranking or value
// function (ROW_NUMBER, RANK, DENSE_RANK, PERCENT_RANK, CUME_DIST, NTILE,
// LEAD, LAG, FIRST_VALUE, LAST_VALUE) or an aggregate (COUNT, SUM, AVG,
// MIN, MAX, ...) over the frame.
type OverCall struct {
	Func     string
	Args     []int
	ArgTypes []*types.DataType
	Type     *types.DataType
	Distinct bool
	// Filter is a BOOLEAN input column (FILTER (WHERE ...)) or -1.
	Filter int
	// Offset is LEAD/LAG's offset (default 1) or NTILE's bucket count.
	Offset int64
	// Default is LEAD/LAG's default value (a Go value, nil = NULL).
	Default any
	// IgnoreNulls is set by IGNORE NULLS (FIRST_VALUE, LAST_VALUE, LEAD, LAG).
	IgnoreNulls bool
}

// IsRanking reports functions that ignore the frame (ranking and
// offset functions).
func (c OverCall) IsRanking() bool {
	switch c.Func {
	case "ROW_NUMBER", "RANK", "DENSE_RANK", "PERCENT_RANK", "CUME_DIST", "NTILE", "LEAD", "LAG":
		return true
	}
	return false
}

// IsValue reports FIRST_VALUE and LAST_VALUE.
func (c OverCall) IsValue() bool { return c.Func == "FIRST_VALUE" || c.Func == "LAST_VALUE" }

// String renders the call as Flink's plans do.
func (c OverCall) String(names []string) string {
	var b strings.Builder
	b.WriteString(c.Func)
	b.WriteByte('(')
	if c.Distinct {
		b.WriteString("DISTINCT ")
	}
	for i, a := range c.Args {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(names[a])
	}
	b.WriteByte(')')
	return b.String()
}

// OverGroup is a set of calls sharing one window: PARTITION BY, ORDER BY
// and frame.
type OverGroup struct {
	PartitionKeys []int
	Order         []SortKey
	Frame         OverFrame
	Calls         []OverCall
}
