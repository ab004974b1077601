package querygen

// Known explains an expected difference between Flink and Riffle on query
// q: flinkErr and riffleErr are the engines' error texts ("" when the query
// ran) and diff is Compare's description ("" when the results agree). It
// returns "" for a difference nobody has explained.
func Known(q Query, flinkErr, riffleErr, diff string) string {
	return ""
}
