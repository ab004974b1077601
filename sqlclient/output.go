package sqlclient

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/riffle-sql/riffle/engine/connector"
	csvformat "github.com/riffle-sql/riffle/engine/connector/format/csv"
	jsonformat "github.com/riffle-sql/riffle/engine/connector/format/json"
	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/engine/types"
)

// streamingOp reports whether rows of this result carry an op column: the
// results of queries in streaming mode.
func streamingOp(res table.StatementResult) bool {
	return res.IsQuery() && res.IsStreaming()
}

// writeCSV writes RFC 4180 CSV with a header row; streaming query results
// get a leading op column. NULL is an empty field; an empty string is "".
// Output is valid UTF-8: each byte of a value or name that is not part of
// a UTF-8 sequence is written as U+FFFD, as --format json does (and as
// Flink, whose strings are decoded Java strings, shows it).
func writeCSV(w io.Writer, res table.StatementResult) error {
	it, err := res.Collect()
	if err != nil {
		return err
	}
	defer it.Close()
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	schema := res.GetTableSchema()
	names := schema.GetFieldNames()
	ts := schema.GetFieldDataTypes()
	op := streamingOp(res)
	zone := res.TimeZone()
	var rec []string
	if op {
		rec = append(rec, "op")
	}
	rec = append(rec, names...)
	writeCSVRecord(bw, rec, nil)
	nulls := make([]bool, len(rec))
	for it.Next() {
		r := it.Row()
		rec = rec[:0]
		for i := range nulls {
			nulls[i] = false
		}
		if op {
			rec = append(rec, r.Kind.ShortString())
		}
		for i, v := range r.Values {
			if v == nil {
				nulls[len(rec)] = true
				rec = append(rec, "")
				continue
			}
			rec = append(rec, expr.FormatSQL(v, ts[i], zone))
		}
		writeCSVRecord(bw, rec, nulls)
		if op {
			// streaming results are shown as they arrive
			if err := bw.Flush(); err != nil {
				return err
			}
		}
	}
	return it.Err()
}

// sqlCSV is --format csv's field writer (the one that also writes the csv
// format's and the workbench export's CSV): RFC 4180 with a comma, a value
// with edge spaces quoted, and invalid UTF-8 written as U+FFFD.
var sqlCSV = csvformat.FieldWriter{Delimiter: ",", Quote: `"`, QuoteEdgeSpaces: true, ReplaceInvalidUTF8: true}

// writeCSVRecord writes one line: a NULL (nulls[i]) is an empty field, an
// empty string is "".
func writeCSVRecord(w *bufio.Writer, rec []string, nulls []bool) {
	buf := make([]byte, 0, 128)
	for i, f := range rec {
		if i > 0 {
			buf = append(buf, sqlCSV.Delimiter...)
		}
		if nulls != nil && nulls[i] {
			buf = sqlCSV.AppendNull(buf, false)
			continue
		}
		buf = sqlCSV.AppendField(buf, []byte(f), f == "")
	}
	buf = append(buf, '\n')
	w.Write(buf)
}

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
	schema := res.GetTableSchema()
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
	schema := res.GetTableSchema()
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
