package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/engine/types"
)

// A bid-like row: BIGINT, BIGINT, STRING, DOUBLE, TIMESTAMP(3).
var benchTypes = []*types.DataType{types.BigIntType().NotNull(), types.BigIntType(), types.StringType(), types.DoubleType(), types.TimestampType(3)}

func benchBatch(b *testing.B, n int) *types.Batch {
	bb := types.NewBatchBuilder(benchTypes)
	base := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	for i := 0; i < n; i++ {
		if err := bb.Append(types.Insert, []any{int64(i), int64(i * 7 % 1000), fmt.Sprintf("channel-%d", i%10), float64(i) * 1.25, base.Add(time.Duration(i) * time.Millisecond)}); err != nil {
			b.Fatal(err)
		}
	}
	return bb.Build()
}

// BenchmarkEncodeRows is the append-style JSON encoder of fetched pages.
func BenchmarkEncodeRows(b *testing.B) {
	batch := benchBatch(b, 4096)
	buf := make([]byte, 0, 1<<20)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		buf = appendRows(buf[:0], []*types.Batch{batch}, benchTypes, RowFormatJSON, nil)
	}
	b.ReportMetric(float64(b.N*batch.Len)/b.Elapsed().Seconds(), "rows/s")
	b.SetBytes(int64(len(buf)))
}

// BenchmarkEncodeRowsEncodingJSON encodes the same rows with
// encoding/json, for comparison.
func BenchmarkEncodeRowsEncodingJSON(b *testing.B) {
	batch := benchBatch(b, 4096)
	type wireRow struct {
		Kind   string `json:"kind"`
		Fields []any  `json:"fields"`
	}
	rows := make([]wireRow, batch.Len)
	b.ResetTimer()
	var out []byte
	for i := 0; i < b.N; i++ {
		for r := 0; r < batch.Len; r++ {
			row := batch.Row(r, benchTypes)
			ts := row.Values[4].(time.Time)
			row.Values[4] = ts.Format("2006-01-02T15:04:05.999999999")
			rows[r] = wireRow{Kind: row.Kind.String(), Fields: row.Values}
		}
		var err error
		if out, err = json.Marshal(rows); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*batch.Len)/b.Elapsed().Seconds(), "rows/s")
	b.SetBytes(int64(len(out)))
}

// BenchmarkDecodePage decodes a fetched page of 4096 rows into typed rows.
func BenchmarkDecodePage(b *testing.B) {
	batch := benchBatch(b, 4096)
	body := []byte(`{"resultType":"PAYLOAD","isQueryResult":true,"resultKind":"SUCCESS_WITH_CONTENT","results":{"columns":[`)
	for i, t := range benchTypes {
		if i > 0 {
			body = append(body, ',')
		}
		body = append(body, fmt.Sprintf(`{"name":"c%d","logicalType":`, i)...)
		body = AppendLogicalType(body, t)
		body = append(body, `,"comment":null}`...)
	}
	body = append(body, `],"rowFormat":"JSON","data":[`...)
	body = appendRows(body, []*types.Batch{batch}, benchTypes, RowFormatJSON, nil)
	body = append(body, `]},"nextResultUri":"/v2/sessions/s/operations/o/result/1?rowFormat=JSON"}`...)
	b.SetBytes(int64(len(body)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		fr, err := DecodeFetchResults(body)
		if err != nil || len(fr.Rows) != batch.Len {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*batch.Len)/b.Elapsed().Seconds(), "rows/s")
}

const benchRows = 200_000

const benchTable = "CREATE TABLE bids (auction BIGINT, bidder BIGINT, channel STRING, price DOUBLE, ts TIMESTAMP(3)) WITH (" +
	"'connector' = 'datagen', 'number-of-rows' = '200000', 'rows-per-second' = '1000000000', " +
	"'fields.auction.kind' = 'sequence', 'fields.auction.start' = '1', 'fields.auction.end' = '200000', " +
	"'fields.bidder.min' = '1', 'fields.bidder.max' = '1000', 'fields.channel.length' = '10')"

// BenchmarkEmbeddedCollect reads a 200,000-row query with the embedded
// engine's Collect (the baseline of the gateway's overhead).
func BenchmarkEmbeddedCollect(b *testing.B) {
	env := table.MustCreate(table.InBatchMode())
	if _, err := env.ExecuteSQL(benchTable); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := env.ExecuteSQL("SELECT * FROM bids")
		if err != nil {
			b.Fatal(err)
		}
		it, _ := res.Collect()
		n := 0
		for it.Next() {
			n++
		}
		if it.Err() != nil || n != benchRows {
			b.Fatal(n, it.Err())
		}
		it.Close()
	}
	b.ReportMetric(float64(b.N*benchRows)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkGatewayJSON reads the same query through the gateway: the
// server's JSON encoder, HTTP on loopback and the client's decoder.
func BenchmarkGatewayJSON(b *testing.B) {
	for _, page := range []int{4096, 16384} {
		b.Run(fmt.Sprintf("page=%d", page), func(b *testing.B) {
			srv := NewServer(Config{PageRows: page, PrintOutput: io.Discard})
			defer srv.Close()
			hs := httptest.NewServer(srv)
			defer hs.Close()
			hc := &http.Client{Transport: &http.Transport{}}
			defer hc.CloseIdleConnections()
			e, err := Connect(context.Background(), hs.URL, RemoteOptions{HTTPClient: hc, Properties: batchMode})
			if err != nil {
				b.Fatal(err)
			}
			defer e.Close()
			if _, err := e.ExecuteSQL(benchTable); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				res, err := e.ExecuteSQL("SELECT * FROM bids")
				if err != nil {
					b.Fatal(err)
				}
				it, _ := res.CollectRows()
				n := 0
				for it.Next() {
					n++
				}
				if it.Err() != nil || n != benchRows {
					b.Fatal(n, it.Err())
				}
				it.Close()
			}
			b.ReportMetric(float64(b.N*benchRows)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}
