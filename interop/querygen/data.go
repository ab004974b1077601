// Package querygen generates random SQL queries over typed test tables for
// differential testing of Riffle against Apache Flink (interop/diff_flink_test.go),
// and compares the final results of two engines.
//
// It holds no JVM code and talks to no server: Tables writes the test data
// as CSV files and returns the CREATE TABLE statements (filesystem
// connector, csv format) that both engines run; Generate returns the
// queries; Compare decides whether two results agree.
//
// Everything is derived from a seed: the same seed gives the same tables
// and the same queries, and query number n of a seed can be generated
// alone (QueryAt), so a difference is re-run by its id.
package querygen

import (
	"encoding/csv"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Type is a column or expression type of the grammar.
type Type int

// The types of the test tables' columns.
const (
	Int       Type = iota // INT
	BigInt                // BIGINT
	Double                // DOUBLE
	Decimal               // DECIMAL(10, 2) (and the decimals derived from it)
	Varchar               // VARCHAR (STRING)
	Boolean               // BOOLEAN
	Date                  // DATE
	Timestamp             // TIMESTAMP(3), the event-time column
)

// SQL returns the type's name in DDL.
func (t Type) SQL() string {
	switch t {
	case Int:
		return "INT"
	case BigInt:
		return "BIGINT"
	case Double:
		return "DOUBLE"
	case Decimal:
		return "DECIMAL(10, 2)"
	case Varchar:
		return "VARCHAR"
	case Boolean:
		return "BOOLEAN"
	case Date:
		return "DATE"
	case Timestamp:
		return "TIMESTAMP(3)"
	}
	return "?"
}

// Column is a column of a test table.
type Column struct {
	Name string
	Type Type
}

// Columns are the columns of every test table, in file order. ts is the
// event-time attribute (WATERMARK ts - 10 s) and never NULL; id is unique
// per distinct row (a duplicated row repeats it).
var Columns = []Column{
	{"id", Int}, {"k", BigInt}, {"g", Varchar}, {"d", Double}, {"m", Decimal},
	{"s", Varchar}, {"b", Boolean}, {"dt", Date}, {"ts", Timestamp},
}

// NullLiteral is the csv.null-literal of the test tables: an unquoted
// field with this text is NULL (Flink reads an empty non-string field as
// an error, FLINK-32665, so NULLs are written explicitly).
const NullLiteral = `\N`

// WatermarkDelay is the delay of the tables' watermark. Rows are written in
// ts order but for swaps of neighbours, which are less than this apart, so
// no row is ever late: Flink (periodic watermarks) and Riffle (per batch)
// then drop nothing and agree whatever their watermark cadence.
const WatermarkDelay = 10 * time.Second

// Table is a test table: its name and its rows (values as written to CSV;
// nil is NULL).
type Table struct {
	Name string
	Rows [][]any
}

// TableNames are the test tables. Both have Columns; t2 has fewer rows and
// ids that partly overlap t1's.
var TableNames = []string{"t1", "t2"}

var strPool = []string{"apple", "Banana", "cherry pie", "", " pad ", "x", "Zeta", "ünï", "a,b", "apple", "Straße", "ΣΟΦΟΣ"}

// Tables makes the test tables of a seed: about 40 and 25 rows with NULLs
// (about one value in ten, never in ts) and duplicated rows.
func Tables(seed int64) []Table {
	r := rand.New(rand.NewSource(seed))
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	var out []Table
	for ti, name := range TableNames {
		n := 40 - 15*ti
		var rows [][]any
		for i := 0; i < n; i++ {
			nul := func(v any) any {
				if r.Intn(10) == 0 {
					return nil
				}
				return v
			}
			id := i + 1
			if ti == 1 {
				id = 2*i + 1 // overlaps t1's ids below 40
			}
			ts := base.Add(time.Duration(i)*7*time.Second + time.Duration(r.Intn(2000))*time.Millisecond)
			row := []any{
				nul(int32(id)),
				nul(int64(1 + r.Intn(5))),
				nul([]string{"a", "b", "c"}[r.Intn(3)]),
				nul(float64(r.Intn(881)-80) / 8),
				nul(fmt.Sprintf("%.2f", float64(r.Intn(110001)-10000)/100)),
				nul(strPool[r.Intn(len(strPool))]),
				nul(r.Intn(2) == 0),
				nul(base.AddDate(0, 0, r.Intn(10))),
				ts,
			}
			if ti == 1 && r.Intn(3) == 0 {
				row[1] = nul(int64(6 + r.Intn(2))) // keys without a partner in t1
			}
			rows = append(rows, row)
			if r.Intn(8) == 0 { // a duplicate right after its original: never late
				rows = append(rows, append([]any(nil), row...))
			}
		}
		// swap a few neighbours: out of order by less than WatermarkDelay
		for i := 0; i+1 < len(rows); i++ {
			if r.Intn(6) == 0 {
				rows[i], rows[i+1] = rows[i+1], rows[i]
				i++
			}
		}
		out = append(out, Table{Name: name, Rows: rows})
	}
	return out
}

// FormatCSV renders a value as the test tables' CSV text.
func FormatCSV(v any) string {
	switch x := v.(type) {
	case nil:
		return NullLiteral
	case int32:
		return strconv.FormatInt(int64(x), 10)
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case string:
		return x
	case bool:
		return strconv.FormatBool(x)
	case time.Time:
		return x.Format("2006-01-02 15:04:05.000")
	}
	return fmt.Sprint(v)
}

func formatCell(c Column, v any) string {
	if v == nil {
		return NullLiteral
	}
	if c.Type == Date {
		return v.(time.Time).Format("2006-01-02")
	}
	return FormatCSV(v)
}

// WriteCSV writes each table to dir/<name>/data.csv (the folder is the
// table's path) and returns the folder of each table by name.
func WriteCSV(dir string, tables []Table) (map[string]string, error) {
	paths := map[string]string{}
	for _, t := range tables {
		td := filepath.Join(dir, t.Name)
		if err := os.MkdirAll(td, 0o755); err != nil {
			return nil, err
		}
		f, err := os.Create(filepath.Join(td, "data.csv"))
		if err != nil {
			return nil, err
		}
		w := csv.NewWriter(f)
		for _, row := range t.Rows {
			rec := make([]string, len(row))
			for i, v := range row {
				rec[i] = formatCell(Columns[i], v)
			}
			if err := w.Write(rec); err != nil {
				f.Close()
				return nil, err
			}
		}
		w.Flush()
		if err := w.Error(); err != nil {
			f.Close()
			return nil, err
		}
		if err := f.Close(); err != nil {
			return nil, err
		}
		paths[t.Name] = td
	}
	return paths, nil
}

// DDL returns the CREATE TABLE statement of table name whose files are in
// folder path (an absolute path, readable by Flink's JVM on this machine).
func DDL(name, path string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "CREATE TABLE %s (\n", name)
	for _, c := range Columns {
		fmt.Fprintf(&b, "  %s %s,\n", c.Name, c.Type.SQL())
	}
	fmt.Fprintf(&b, "  WATERMARK FOR ts AS ts - INTERVAL '%d' SECOND\n", int(WatermarkDelay/time.Second))
	fmt.Fprintf(&b, ") WITH (\n  'connector' = 'filesystem',\n  'path' = 'file://%s',\n  'format' = 'csv',\n  'csv.null-literal' = '%s'\n)", path, NullLiteral)
	return b.String()
}
