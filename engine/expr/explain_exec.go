package expr

import (
	"strings"

	"github.com/riffle-sql/riffle/engine/types"
)

// ExecString renders e as Flink 2.3.0's "Optimized Execution Plan" writes
// expressions (its ExecNode descriptions), where the physical plan uses
// Calcite's prefix digests (String): arithmetic, comparisons, AND and OR
// infix in parentheses ((a + 1), ((a > 1) AND (b < 2))), IS [NOT] NULL and
// the other IS tests postfix without parentheses (b IS NULL), character
// literals without their character set ('x' for _UTF-16LE'x'), every other
// call in prefix form over arguments rendered alike (UPPER(b), -(a),
// CASE((a > 1), 'p', 'q')).
func ExecString(e Expr) string {
	switch x := e.(type) {
	case *Literal:
		if s, ok := x.Value.(string); ok && x.T.Root != types.Symbol {
			return "'" + strings.ReplaceAll(s, "'", "''") + "'"
		}
		return x.String()
	case *Call:
		parts := make([]string, len(x.Args))
		for i, a := range x.Args {
			parts[i] = ExecString(a)
		}
		switch x.Name {
		case "CAST", "TRY_CAST":
			return x.Name + "(" + parts[0] + " AS " + x.T.SQLString() + ")"
		case "+", "-", "*", "/", "=", "<>", "<", ">", "<=", ">=", "AND", "OR":
			if len(parts) >= 2 {
				return "(" + strings.Join(parts, " "+x.Name+" ") + ")"
			}
		}
		if strings.HasPrefix(x.Name, "IS ") && len(parts) == 1 {
			return parts[0] + " " + x.Name
		}
		return digestName(x.Name) + "(" + strings.Join(parts, ", ") + ")"
	}
	return e.String()
}
