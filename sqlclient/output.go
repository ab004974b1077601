package sqlclient

import (
	"bufio"
	"io"
	"strconv"
	"strings"

	jsonformat "github.com/riffle-sql/riffle/engine/connector/format/json"
	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/table"
)

// streamingOp reports whether rows of this result carry an op column: the
// results of queries in streaming mode.
func streamingOp(res table.StatementResult) bool {
	return res.IsQuery() && res.IsStreaming()
}

// writeCSV writes RFC 4180 CSV with a header row; streaming query results
// get a leading op column. NULL is an empty field; an empty string is "".
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

func writeCSVRecord(w *bufio.Writer, rec []string, nulls []bool) {
	for i, f := range rec {
		if i > 0 {
			w.WriteByte(',')
		}
		isNull := nulls != nil && nulls[i]
		if !isNull && (f == "" || strings.ContainsAny(f, ",\"\r\n") || strings.HasPrefix(f, " ") || strings.HasSuffix(f, " ")) {
			w.WriteByte('"')
			w.WriteString(strings.ReplaceAll(f, `"`, `""`))
			w.WriteByte('"')
			continue
		}
		w.WriteString(f)
	}
	w.WriteByte('\n')
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
