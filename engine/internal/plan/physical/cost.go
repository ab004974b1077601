package physical

import (
	"fmt"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/types"
)

// Row-count and cost estimates for EXPLAIN ESTIMATED_COST, modelled on
// Flink's planner without table statistics: a source has 1.0E8 rows;
// filters keep the fraction Flink's SelectivityEstimator assumes for a
// predicate it knows nothing about; a scan reads rows times the average
// row size (FlinkRelMdSize: 12 bytes for a string or a decimal), an
// exchange ships that over the network. The figures are estimates for
// the shape of the plan only.

const (
	defaultSelectivity           = 0.25
	defaultComparisonSelectivity = 0.5
	defaultEqualsSelectivity     = 0.15
	defaultIsNullSelectivity     = 0.1
	defaultLikeSelectivity       = 0.05
)

// selectivity estimates the fraction of rows for which cond is TRUE.
func selectivity(cond expr.Expr) float64 {
	c, ok := cond.(*expr.Call)
	if !ok {
		if l, ok := cond.(*expr.Literal); ok {
			if l.Value == true {
				return 1
			}
			return 0
		}
		return defaultSelectivity
	}
	switch c.Name {
	case "AND":
		s := 1.0
		for _, a := range c.Args {
			s *= selectivity(a)
		}
		return s
	case "OR":
		s := 0.0
		for _, a := range c.Args {
			x := selectivity(a)
			s = s + x - s*x
		}
		return s
	case "NOT":
		return 1 - selectivity(c.Args[0])
	case "=", "IS NOT DISTINCT FROM":
		return defaultEqualsSelectivity
	case "<>", "IS DISTINCT FROM":
		return 1 - defaultEqualsSelectivity
	case "<", "<=", ">", ">=", "BETWEEN":
		return defaultComparisonSelectivity
	case "IS NULL":
		return defaultIsNullSelectivity
	case "IS NOT NULL":
		return 1 - defaultIsNullSelectivity
	case "LIKE", "SIMILAR TO":
		return defaultLikeSelectivity
	}
	return defaultSelectivity
}

// avgValueSize is the average size in bytes of a value of t, Flink's
// FlinkRelMdSize.averageTypeValueSize (no statistics): CHAR counts 1,
// VARCHAR and DECIMAL 12, every date and time type 12, BINARY and
// VARBINARY 16, year-month intervals 8 and day-time intervals 4 (as Flink
// has them), RAW 128; collections 16 elements.
func avgValueSize(t *types.DataType) float64 {
	switch t.Root {
	case types.Boolean, types.TinyInt, types.Char:
		return 1
	case types.SmallInt:
		return 2
	case types.Integer, types.Float, types.IntervalDayTimeRoot:
		return 4
	case types.BigInt, types.Double, types.IntervalYearMonthRoot:
		return 8
	case types.DateRoot, types.TimeRoot, types.TimestampRoot, types.TimestampLTZRoot:
		return 12
	case types.Binary, types.VarBinary:
		return 16
	case types.Raw:
		return 128
	case types.ArrayRoot:
		return avgValueSize(t.Elem) * 16
	case types.MultisetRoot:
		return (avgValueSize(t.Elem) + 4) * 16
	case types.MapRoot:
		return (avgValueSize(t.Key) + avgValueSize(t.Value)) * 16
	case types.RowRoot:
		return avgRowSize(t.Fields)
	}
	return 12
}

func avgRowSize(fields []types.Field) float64 {
	s := 0.0
	for _, f := range fields {
		s += avgValueSize(f.Type)
	}
	return s
}

func colsRowSize(cols []plan.Column) float64 {
	s := 0.0
	for _, c := range cols {
		s += avgValueSize(c.Type)
	}
	return s
}

// cost is a cumulative cost.
type cost struct{ rows, cpu, io, network float64 }

// selfCost is the cost of p alone.
func selfCost(p *Node) cost {
	switch p.Op.(type) {
	case *TableSourceScan, *Values:
		return cost{rows: p.rows, cpu: p.rows, io: p.rows * colsRowSize(p.Cols)}
	case *Calc:
		return cost{rows: p.rows}
	case *Exchange:
		return cost{rows: p.rows, network: p.rows * colsRowSize(p.Cols)}
	}
	return cost{rows: p.rows, cpu: p.rows}
}

// hiddenExchange reports an exchange EXPLAIN does not show.
func hiddenExchange(p *Node) bool {
	x, ok := p.Op.(*Exchange)
	return ok && (x.Dist == opspec.Rebalance || x.Dist == opspec.Forward) && len(p.Inputs) == 1
}

// cumulativeCost adds the costs of p and its inputs.
func cumulativeCost(p *Node) cost {
	if hiddenExchange(p) {
		return cumulativeCost(p.Inputs[0])
	}
	c := selfCost(p)
	for _, in := range p.Inputs {
		x := cumulativeCost(in)
		c.rows += x.rows
		c.cpu += x.cpu
		c.io += x.io
		c.network += x.network
	}
	return c
}

// costString renders p's estimate as Flink's EXPLAIN ESTIMATED_COST does.
func costString(p *Node) string {
	c := cumulativeCost(p)
	return fmt.Sprintf("rowcount = %s, cumulative cost = {%s rows, %s cpu, %s io, %s network, 0.0 memory}",
		javaDouble(p.rows), javaDouble(c.rows), javaDouble(c.cpu), javaDouble(c.io), javaDouble(c.network))
}
