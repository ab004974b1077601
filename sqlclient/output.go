package sqlclient

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/riffle-sql/riffle/engine/connector"
	jsonformat "github.com/riffle-sql/riffle/engine/connector/format/json"
	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/results"
	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/engine/types"
)

// streamingOp reports whether rows of this result carry an op column: the
// results of queries in streaming mode.
func streamingOp(res table.StatementResult) bool {
	return res.IsQuery() && res.IsStreaming()
}

// writeCSV writes RFC 4180 CSV with a header row (results.CSVWriter, the
// workbench export's writer, with a comma, values with edge spaces quoted);
// streaming query results get a leading op column. NULL is an empty
// field; an empty string is "". Output is valid UTF-8: each byte of a
// value or name that is not part of a UTF-8 sequence is written as U+FFFD,
// as --format json does (and as Flink, whose strings are decoded Java
// strings, shows it).
func writeCSV(w io.Writer, res table.StatementResult) error {
	it, err := res.Collect()
	if err != nil {
		return err
	}
	defer it.Close()
	schema := res.Schema()
	names := schema.GetFieldNames()
	ts := schema.GetFieldDataTypes()
	op := streamingOp(res)
	zone := res.TimeZone()
	var cols []results.Column
	if op {
		cols = append(cols, results.Column{Name: "op", Type: types.StringType()})
	}
	for i, n := range names {
		cols = append(cols, results.Column{Name: n, Type: ts[i]})
	}
	cw, err := results.NewCSVWriter(w, cols, sqlCSV)
	if err != nil {
		return err
	}
	defer cw.Flush()
	cells := make([][]byte, len(cols))
	nulls := make([]bool, len(cols))
	for it.Next() {
		r := it.Row()
		k := 0
		if op {
			cells[0], nulls[0] = []byte(r.Kind.ShortString()), false
			k = 1
		}
		for i, v := range r.Values {
			cells[k+i], nulls[k+i] = nil, v == nil
			if v != nil {
				cells[k+i] = []byte(expr.FormatSQL(v, ts[i], zone))
			}
		}
		if err := cw.Write(cells, nulls); err != nil {
			return err
		}
		if op {
			// streaming results are shown as they arrive
			if err := cw.Flush(); err != nil {
				return err
			}
		}
	}
	return it.Err()
}

// sqlCSV are --format csv's options: RFC 4180 with a comma and a header, a
// value with edge spaces quoted.
var sqlCSV = results.CSVOptions{Header: true, QuoteEdgeSpaces: true}

// writeJSON writes JSON Lines: one object per row with the column names as
// keys in order; streaming query rows start with "op". Values follow
// Flink's json format with the SQL timestamp standard.
func writeJSON(w io.Writer, res table.StatementResult) error {
	it, err := res.Collect()
	if err != nil {
		return err
	}
	defer it.Close()
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	schema := res.Schema()
	names := schema.GetFieldNames()
	ts := schema.GetFieldDataTypes()
	op := streamingOp(res)
	var buf []byte
	for it.Next() {
		r := it.Row()
		buf = append(buf[:0], '{')
		first := true
		if op {
			buf = append(buf, `"op":`...)
			buf = strconv.AppendQuote(buf, r.Kind.ShortString())
			first = false
		}
		for i, v := range r.Values {
			if !first {
				buf = append(buf, ',')
			}
			first = false
			buf = jsonformat.AppendString(buf, names[i])
			buf = append(buf, ':')
			buf = jsonformat.AppendGoValue(buf, v, ts[i], false)
		}
		buf = append(buf, '}', '\n')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
		if op {
			if err := bw.Flush(); err != nil {
				return err
			}
		}
	}
	return it.Err()
}

// errSecondParquet refuses a second query result under --format parquet:
// standard output holds one Parquet file.
var errSecondParquet = errors.New("--format parquet writes one query result per run (standard output holds one Parquet file); run the other queries separately")

// parquetBatchRows is the number of rows per batch handed to the parquet
// encoder.
const parquetBatchRows = 4096

// writeParquet writes a query result as one Parquet file with the
// 'parquet' format's encoder; streaming query results get a leading "op"
// column (+I, -U, +U, -D). Repeated column names get a suffix (a, a_2).
func writeParquet(w io.Writer, res table.StatementResult) error {
	f, err := connector.LookupFormat("parquet")
	if err != nil {
		return err
	}
	schema := res.Schema()
	names := append([]string(nil), schema.GetFieldNames()...)
	ts := append([]*types.DataType(nil), schema.GetFieldDataTypes()...)
	op := streamingOp(res)
	if op {
		names = append([]string{"op"}, names...)
		ts = append([]*types.DataType{types.StringType().NotNull()}, ts...)
	}
	used := map[string]bool{}
	for i, n := range names {
		name := n
		for k := 2; used[strings.ToLower(name)]; k++ {
			name = n + "_" + strconv.Itoa(k)
		}
		used[strings.ToLower(name)] = true
		names[i] = name
	}
	enc, err := f.CreateEncoder(&connector.FormatContext{Table: "result", Names: names, Types: ts, AllNames: names, AllTypes: ts, Options: map[string]string{}})
	if err != nil {
		return fmt.Errorf("--format parquet: %w", err)
	}
	it, err := res.Collect()
	if err != nil {
		return err
	}
	defer it.Close()
	bw := enc.NewWriter(w)
	bb := types.NewBatchBuilder(ts)
	vals := make([]any, len(ts))
	flush := func() error {
		if bb.Len() == 0 {
			return nil
		}
		err := bw.Write(bb.Build())
		bb = types.NewBatchBuilder(ts)
		return err
	}
	for it.Next() {
		r := it.Row()
		vals = vals[:0]
		if op {
			vals = append(vals, r.Kind.ShortString())
		}
		vals = append(vals, r.Values...)
		if err := bb.Append(types.Insert, vals); err != nil {
			return err
		}
		if bb.Len() >= parquetBatchRows {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := it.Err(); err != nil {
		return err
	}
	if err := flush(); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if c, ok := bw.(connector.ClosingBatchWriter); ok {
		return c.Close()
	}
	return nil
}
