package table

import (
	"strconv"
	"testing"
)

// sequenceTable is the DDL of table seq (v BIGINT): 1 to n in order,
// from datagen's sequence kind as fast as it makes them.
func sequenceTable(n int) string {
	return `CREATE TABLE seq (v BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '100000000',
		'number-of-rows' = '` + strconv.Itoa(n) + `', 'fields.v.kind' = 'sequence', 'fields.v.start' = '1',
		'fields.v.end' = '` + strconv.Itoa(n) + `')`
}

// sequenceEnv returns a batch environment whose jobs run at parallelism,
// with the statements stmts run and then table seq of 1 to n made.
func sequenceEnv(tb testing.TB, n, parallelism int, stmts ...string) *TableEnvironment {
	tb.Helper()
	env := MustCreate(InBatchMode())
	stmts = append([]string{"SET 'parallelism.default' = '" + strconv.Itoa(parallelism) + "'"}, stmts...)
	for _, s := range append(stmts, sequenceTable(n)) {
		if _, err := env.ExecuteSQL(s); err != nil {
			tb.Fatalf("%s: %v", s, err)
		}
	}
	return env
}

// queryWith runs query in env and returns its result, whose rows are
// converted on converters goroutines once read.
func queryWith(tb testing.TB, env *TableEnvironment, query string, converters int) *TableResult {
	tb.Helper()
	res, err := env.ExecuteSQL(query)
	if err != nil {
		tb.Fatalf("%s: %v", query, err)
	}
	res.converters = converters
	return res
}
