package table

import (
	"strconv"
	"testing"
)

// BenchmarkReadResult reads a 1 M-row batch result of three columns
// (BIGINT, STRING, BIGINT) with Row and with Values, with one converter
// and with three, the job at parallelism 1: the reader's cost per row
// (Next, the conversion to Go values, the rows) beside the job's. Its
// ns/op is one whole result; rows/s is reported too.
func BenchmarkReadResult(b *testing.B) {
	const n = 1_000_000
	for _, converters := range []int{1, 3} {
		for _, how := range []string{"Row", "Values"} {
			b.Run(how+"/converters="+strconv.Itoa(converters), func(b *testing.B) {
				env := sequenceEnv(b, n, 1)
				for b.Loop() {
					res, err := env.ExecuteSQL("SELECT v, CAST(MOD(v, 1000) AS STRING) AS s, v * 10 AS w FROM seq")
					if err != nil {
						b.Fatal(err)
					}
					res.converters = converters
					it, err := res.Collect()
					if err != nil {
						b.Fatal(err)
					}
					rows, sum := 0, int64(0)
					var vals []any
					for it.Next() {
						if how == "Row" {
							sum += it.Row().Values[0].(int64)
						} else {
							vals = it.Values(vals)
							sum += vals[0].(int64)
						}
						rows++
					}
					if err := it.Err(); err != nil || rows != n || sum != n*(n+1)/2 {
						b.Fatalf("%d rows, sum %d, err %v", rows, sum, err)
					}
					it.Close()
				}
				b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
			})
		}
	}
}
