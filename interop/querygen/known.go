package querygen

import "strings"

// Known explains an expected difference between Flink and Riffle on query
// q: flinkErr and riffleErr are the engines' error texts ("" when the query
// ran) and diff is Compare's description ("" when the results agree). It
// returns "" for a difference nobody has explained. Differences the
// generator can avoid are avoided there (see the comments in gen.go);
// these are the ones it cannot rule out by construction.
func Known(q Query, flinkErr, riffleErr, diff string) string {
	switch {
	case flinkErr != "" && riffleErr == "" && q.Kind == "over" &&
		strings.Contains(flinkErr, "There are not enough rules to produce a node") &&
		strings.Contains(flinkErr, "LogicalWindow"):
		// a WHERE that Flink's optimizer reduces to FALSE turns the OVER
		// window's input into an empty VALUES, which Flink 2.3.0 cannot
		// plan ("There are not enough rules to produce a node"; Calcite's
		// PruneEmptyRules do not cover windows, CALCITE-7490). Riffle
		// returns the empty result.
		return "Flink cannot plan an OVER window over an input reduced to empty VALUES (CALCITE-7490)"
	case flinkErr != "" && riffleErr == "" && q.Kind == "window" && q.Mode == Streaming &&
		strings.Contains(flinkErr, "does not support retraction, Please choose SumWithRetractAggFunction"):
		// Flink 2.3.0 fails at run time on SUM(DISTINCT ...) in a HOP
		// window aggregate (its sliced windows merge a distinct SUM that
		// has no retract); no Flink issue found. Riffle computes it.
		return "Flink window aggregate with SUM(DISTINCT) over HOP fails at run time (no retract)"
	case flinkErr != "" && riffleErr == "" && (q.Kind == "windowdedup" || q.Kind == "dedup") &&
		strings.Contains(flinkErr, "requires order by clause with non-constant fields"):
		// a WHERE that Flink's optimizer reads as fixing ts (e.g.
		// (ts < ts) IS NOT FALSE, which it simplifies to ts IS NULL) makes
		// the window dedup's ORDER BY ts constant, which Flink 2.3.0
		// rejects; Riffle keeps the ordering column and runs it
		return "Flink rejects a window dedup whose ORDER BY it folds to a constant"
	case flinkErr != "" && riffleErr == "" &&
		strings.Contains(flinkErr, `"timestampString" is null`):
		// a NullPointerException in Flink 2.3.0's planner while reducing
		// NULLIF(ts, TIMESTAMP '...') under IS DISTINCT FROM; no Flink
		// issue found. Riffle runs the query.
		return "Flink planner NullPointerException (TimestampString) reducing a TIMESTAMP expression"
	case flinkErr != "" && riffleErr == "" &&
		strings.Contains(flinkErr, "RexCall cannot be cast to class org.apache.calcite.rex.RexLiteral"):
		// an internal error of Flink 2.3.0's planner (a ClassCastException
		// while reducing a global aggregate whose WHERE it folds to FALSE,
		// seen with a HAVING); no Flink issue found. Riffle runs the query.
		return "Flink planner ClassCastException (RexCall to RexLiteral) on a global aggregate over a WHERE folded to FALSE"
	}
	return ""
}

// FoldFinalSigma returns rows with every final sigma 'ς' written 'σ'.
// Flink lowers a capital sigma with Java's String.toLowerCase, whose
// final-sigma context differs from Unicode's Final_Sigma that Riffle
// follows: LOWER('ΣΟΦΟΣ-b') is 'σοφοσ-b' in Flink 2.3.0 (a letter later in
// the string, after the '-', keeps σ) and 'σοφος-b' in Riffle; both give
// 'σοφος' for LOWER('ΣΟΦΟΣ'). Results that agree after this folding are
// that implementation-defined difference.
func FoldFinalSigma(rows [][]any) [][]any {
	out := make([][]any, len(rows))
	for i, r := range rows {
		out[i] = make([]any, len(r))
		for j, v := range r {
			if s, ok := v.(string); ok {
				v = strings.ReplaceAll(s, "ς", "σ")
			}
			out[i][j] = v
		}
	}
	return out
}
