package gateway

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/types"
)

// Column is a result column as a fetch describes it.
type Column struct {
	Name string
	Type *types.DataType
	// Comment is the column comment, or nil.
	Comment *string
}

// FetchResults is a decoded fetch response (FetchResultsResponseBody).
// For NOT_READY only ResultType and NextResultURI are set.
type FetchResults struct {
	ResultType    ResultType
	IsQueryResult bool
	// JobID is the job's 32-hex-digit id, or "" when there is none.
	JobID string
	// ResultKind is SUCCESS or SUCCESS_WITH_CONTENT.
	ResultKind string
	Columns    []Column
	RowFormat  RowFormat
	// Rows hold Go values of the column types (the conventions of
	// engine/types); with PLAIN_TEXT every non-NULL value is a string.
	Rows []*types.Row
	// NextResultURI is the relative URI of the next page; "" when there is
	// none (EOS).
	NextResultURI string

	// rawData is the undecoded "data" array (decodeFetch with lazy rows).
	rawData []byte
}

// decodeData decodes rows left undecoded by a lazy decodeFetch.
func (fr *FetchResults) decodeData() error {
	if fr.rawData == nil {
		return nil
	}
	r := &jreader{data: fr.rawData}
	fr.Rows = decodeRows(r, fr.Columns, fr.RowFormat)
	fr.rawData = nil
	return r.err
}

type columnJSON struct {
	Name        string     `json:"name"`
	LogicalType ColumnType `json:"logicalType"`
	Comment     *string    `json:"comment"`
}

// DecodeFetchResults decodes a fetch response body. Rows are decoded with
// their column types; fields in JSON row format follow Flink's JSON format
// conversion (see the package's encoder), so values round-trip.
func DecodeFetchResults(body []byte) (*FetchResults, error) {
	fr, err := decodeFetch(body, false)
	if err != nil {
		return nil, err
	}
	return fr, nil
}

// decodeFetch decodes a fetch response; with lazy set the rows are left for
// decodeData (so that another goroutine decodes them).
func decodeFetch(body []byte, lazy bool) (*FetchResults, error) {
	r := &jreader{data: body}
	fr := &FetchResults{}
	var pendingData []byte
	r.object(func(key string) {
		switch key {
		case "resultType":
			fr.ResultType = ResultType(r.str())
		case "isQueryResult", "queryResult":
			if !r.null() {
				fr.IsQueryResult = r.boolean()
			}
		case "jobID":
			if !r.null() {
				fr.JobID = r.str()
			}
		case "resultKind":
			if !r.null() {
				fr.ResultKind = r.str()
			}
		case "nextResultUri":
			if !r.null() {
				fr.NextResultURI = r.str()
			}
		case "results":
			if r.null() {
				return
			}
			r.object(func(key string) {
				switch key {
				case "columns", "columnInfos":
					raw := r.skip()
					if r.err != nil {
						return
					}
					var cols []columnJSON
					if err := json.Unmarshal(raw, &cols); err != nil {
						r.err = fmt.Errorf("gateway: bad result columns: %w", err)
						return
					}
					fr.Columns = make([]Column, len(cols))
					for i, c := range cols {
						if c.LogicalType.DataType == nil {
							r.err = fmt.Errorf("gateway: result column %d (%q) has no logical type", i, c.Name)
							return
						}
						fr.Columns[i] = Column{Name: c.Name, Type: c.LogicalType.DataType, Comment: c.Comment}
					}
				case "rowFormat":
					if !r.null() {
						fr.RowFormat = RowFormat(r.str())
					}
				case "data":
					if fr.Columns == nil || lazy {
						pendingData = r.skip() // columns come later, or decoded later
						return
					}
					fr.Rows = decodeRows(r, fr.Columns, fr.RowFormat)
				default:
					r.skip()
				}
			})
		default:
			r.skip()
		}
	})
	if r.err == nil && pendingData != nil {
		fr.rawData = pendingData
		if !lazy {
			r.err = fr.decodeData()
		}
	}
	if r.err != nil {
		return nil, r.err
	}
	if fr.ResultType == "" {
		return nil, fmt.Errorf("gateway: fetch response without resultType")
	}
	return fr, nil
}

// decodeRows reads the "data" array.
func decodeRows(r *jreader, cols []Column, format RowFormat) []*types.Row {
	var rows []*types.Row
	// rows and values are carved from slabs: two allocations per 256 rows
	// instead of two per row
	const slab = 256
	var rowSlab []types.Row
	var valSlab []any
	r.array(func() {
		if len(rowSlab) == 0 {
			rowSlab = make([]types.Row, slab)
			valSlab = make([]any, slab*len(cols))
		}
		row := &rowSlab[0]
		rowSlab = rowSlab[1:]
		row.Values = valSlab[:len(cols):len(cols)]
		valSlab = valSlab[len(cols):]
		r.object(func(key string) {
			switch key {
			case "kind":
				k, err := types.ParseRowKind(r.str())
				if err != nil && r.err == nil {
					r.err = fmt.Errorf("gateway: %w", err)
				}
				row.Kind = k
			case "fields":
				i := 0
				r.array(func() {
					if i >= len(cols) {
						r.skip()
						r.fail("more fields than the %d columns", len(cols))
						return
					}
					if format == RowFormatPlainText {
						if !r.null() {
							row.Values[i] = r.str()
						}
					} else {
						row.Values[i] = decodeValue(r, cols[i].Type)
					}
					i++
				})
			default:
				r.skip()
			}
		})
		rows = append(rows, row)
	})
	return rows
}

// decodeValue reads one JSON-format value of type t.
func decodeValue(r *jreader, t *types.DataType) any {
	if r.null() || r.err != nil {
		return nil
	}
	if t == nil {
		r.skip()
		return nil
	}
	switch t.Root {
	case types.VariantRoot:
		v, err := types.ParseJSONVariant(r.str(), true)
		if err != nil {
			r.fail("bad VARIANT: %v", err)
			return nil
		}
		return v
	case types.Boolean:
		if r.peek() == '"' { // tolerate "true"
			b, err := types.ParseBool(r.str())
			if err != nil {
				r.fail("%v", err)
			}
			return b
		}
		return r.boolean()
	case types.TinyInt, types.SmallInt, types.Integer, types.BigInt, types.IntervalYearMonthRoot, types.IntervalDayTimeRoot:
		n, err := strconv.ParseInt(string(numberOrString(r)), 10, 64)
		if err != nil {
			r.fail("%v", err)
			return nil
		}
		switch t.Root {
		case types.TinyInt:
			return int8(n)
		case types.SmallInt:
			return int16(n)
		case types.Integer:
			return int32(n)
		case types.IntervalYearMonthRoot:
			return types.Months(n)
		case types.IntervalDayTimeRoot:
			return time.Duration(n) * time.Millisecond
		}
		return n
	case types.Float, types.Double:
		bits := 64
		if t.Root == types.Float {
			bits = 32
		}
		f, err := parseJavaFloat(string(numberOrString(r)), bits)
		if err != nil {
			r.fail("%v", err)
			return nil
		}
		if bits == 32 {
			return float32(f)
		}
		return f
	case types.DecimalRoot:
		d, err := types.ParseDecimal(string(numberOrString(r)))
		if err == nil && d.Scale != int32(t.Scale) {
			d, err = d.Rescale(int32(t.Scale), int32(t.Precision))
		}
		if err != nil {
			r.fail("%v", err)
			return nil
		}
		return d
	case types.Char, types.VarChar:
		return r.str()
	case types.Binary, types.VarBinary:
		b, err := base64.StdEncoding.DecodeString(r.str())
		if err != nil {
			r.fail("%v", err)
		}
		return b
	case types.DateRoot:
		d, err := types.ParseDate(r.str())
		if err != nil {
			r.fail("%v", err)
		}
		return d
	case types.TimeRoot:
		v, err := types.ParseTime(r.str())
		if err != nil {
			r.fail("%v", err)
		}
		return v
	case types.TimestampRoot, types.TimestampLTZRoot:
		s := r.str()
		ts, ok := parseISOTimestamp(s)
		if !ok {
			var err error
			if ts, err = types.ParseTimestamp(s); err != nil {
				r.fail("%v", err)
			}
		}
		return ts
	case types.ArrayRoot:
		var out []any
		r.array(func() { out = append(out, decodeValue(r, t.Elem)) })
		if out == nil {
			out = []any{}
		}
		return out
	case types.MapRoot, types.MultisetRoot:
		kt, vt := t.Key, t.Value
		if t.Root == types.MultisetRoot {
			kt, vt = t.Elem, types.IntType()
		}
		m := &types.Map{}
		r.object(func(key string) {
			var k any = key
			if !kt.IsString() {
				cv, err := expr.CastValue(key, types.StringType(), kt, time.UTC)
				if err != nil {
					k = nil
				} else {
					k = cv
				}
			}
			m.Keys = append(m.Keys, k)
			m.Values = append(m.Values, decodeValue(r, vt))
		})
		return m
	case types.RowRoot:
		row := &types.Row{Values: make([]any, len(t.Fields)), Names: make([]string, len(t.Fields))}
		for i, f := range t.Fields {
			row.Names[i] = f.Name
		}
		r.object(func(key string) {
			for i, f := range t.Fields {
				if f.Name == key {
					row.Values[i] = decodeValue(r, f.Type)
					return
				}
			}
			r.skip()
		})
		return row
	case types.Null:
		r.skip()
		return nil
	}
	raw := r.skip()
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

// numberOrString reads a number, or the content of a string (Jackson
// writes non-finite floats as strings).
func numberOrString(r *jreader) []byte {
	if r.peek() == '"' {
		return []byte(r.str())
	}
	return r.number()
}

// parseJavaFloat parses a number as Java prints it, including "NaN",
// "Infinity" and "-Infinity".
func parseJavaFloat(s string, bits int) (float64, error) {
	switch s {
	case "NaN":
		return math.NaN(), nil
	case "Infinity":
		return math.Inf(1), nil
	case "-Infinity":
		return math.Inf(-1), nil
	}
	return strconv.ParseFloat(s, bits)
}

// parseISOTimestamp parses yyyy-MM-ddTHH:mm:ss[.fffffffff][Z] quickly.
func parseISOTimestamp(s string) (time.Time, bool) {
	s = strings.TrimSuffix(s, "Z")
	if len(s) < 19 || s[4] != '-' || s[7] != '-' || (s[10] != 'T' && s[10] != ' ') || s[13] != ':' || s[16] != ':' {
		return time.Time{}, false
	}
	num := func(from, to int) (int, bool) {
		n := 0
		for i := from; i < to; i++ {
			c := s[i]
			if c < '0' || c > '9' {
				return 0, false
			}
			n = n*10 + int(c-'0')
		}
		return n, true
	}
	y, ok1 := num(0, 4)
	mo, ok2 := num(5, 7)
	d, ok3 := num(8, 10)
	h, ok4 := num(11, 13)
	mi, ok5 := num(14, 16)
	sec, ok6 := num(17, 19)
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 59 {
		return time.Time{}, false
	}
	nanos := 0
	if len(s) > 19 {
		if s[19] != '.' || len(s) > 29 || len(s) == 20 {
			return time.Time{}, false
		}
		f, ok := num(20, len(s))
		if !ok {
			return time.Time{}, false
		}
		for i := len(s) - 20; i < 9; i++ {
			f *= 10
		}
		nanos = f
	}
	return time.Date(y, time.Month(mo), d, h, mi, sec, nanos, time.UTC), true
}

// hasLTZ reports whether t is or holds (in ARRAY, MAP, MULTISET or ROW) a
// TIMESTAMP_LTZ.
func hasLTZ(t *types.DataType) bool {
	if t == nil {
		return false
	}
	switch t.Root {
	case types.TimestampLTZRoot:
		return true
	case types.ArrayRoot, types.MultisetRoot:
		return hasLTZ(t.Elem)
	case types.MapRoot:
		return hasLTZ(t.Key) || hasLTZ(t.Value)
	case types.RowRoot:
		for _, f := range t.Fields {
			if hasLTZ(f.Type) {
				return true
			}
		}
	}
	return false
}

// wallClockToInstant turns the TIMESTAMP_LTZ values in v (of type t, also
// nested in ARRAY, MAP, MULTISET and ROW) from wall-clock times in zone,
// decoded as if they were UTC, into the instants they stand for. Apache
// Flink's SQL Gateway writes TIMESTAMP_LTZ in the JSON row format that way
// (its RowDataLocalTimeZoneConverter shifts them into the session time
// zone, table.local-time-zone, before the JSON format appends "Z"):
// epoch 0 in a session in Asia/Tokyo arrives as "1970-01-01T09:00:00Z".
// Values are changed in place where they are held in slices, maps or rows.
func wallClockToInstant(v any, t *types.DataType, zone *time.Location) any {
	return mapLTZ(v, t, func(ts time.Time) time.Time {
		ts = ts.UTC()
		return time.Date(ts.Year(), ts.Month(), ts.Day(), ts.Hour(), ts.Minute(), ts.Second(), ts.Nanosecond(), zone).UTC()
	})
}

// instantToWallClock is the inverse of wallClockToInstant: it turns the
// TIMESTAMP_LTZ instants in v (of type t, also nested) into their
// wall-clock times in zone, held as UTC times, as the JSON row format
// writes them. Values are changed in place where they are held in slices,
// maps or rows (v is a fresh value of types.ValueAt).
func instantToWallClock(v any, t *types.DataType, zone *time.Location) any {
	return mapLTZ(v, t, func(ts time.Time) time.Time {
		w := ts.In(zone)
		return time.Date(w.Year(), w.Month(), w.Day(), w.Hour(), w.Minute(), w.Second(), w.Nanosecond(), time.UTC)
	})
}

// mapLTZ replaces every TIMESTAMP_LTZ value in v (of type t, at any depth
// of ARRAY, MAP, MULTISET and ROW) by conv of it, in place where the value
// is held in a slice, map or row, and returns v (or the new value when v is
// itself a TIMESTAMP_LTZ).
func mapLTZ(v any, t *types.DataType, conv func(time.Time) time.Time) any {
	if v == nil || t == nil {
		return v
	}
	switch t.Root {
	case types.TimestampLTZRoot:
		if ts, ok := v.(time.Time); ok {
			return conv(ts)
		}
	case types.ArrayRoot:
		if a, ok := v.([]any); ok {
			for i := range a {
				a[i] = mapLTZ(a[i], t.Elem, conv)
			}
		}
	case types.MapRoot, types.MultisetRoot:
		if m, ok := v.(*types.Map); ok {
			kt, vt := t.Key, t.Value
			if t.Root == types.MultisetRoot {
				kt, vt = t.Elem, nil
			}
			for i := range m.Keys {
				m.Keys[i] = mapLTZ(m.Keys[i], kt, conv)
				if vt != nil && i < len(m.Values) {
					m.Values[i] = mapLTZ(m.Values[i], vt, conv)
				}
			}
		}
	case types.RowRoot:
		if r, ok := v.(*types.Row); ok {
			for i, f := range t.Fields {
				if i < len(r.Values) {
					r.Values[i] = mapLTZ(r.Values[i], f.Type, conv)
				}
			}
		}
	}
	return v
}

// needsPlainText reports columns that Apache Flink's JSON row format cannot
// write: a MAP or MULTISET (at any depth) whose key is not a CHAR or
// VARCHAR ("JSON format doesn't support non-string as key type of map";
// the gateway answers "Could not map response to JSON"). Such results are
// fetched in PLAIN_TEXT, every column a STRING.
func needsPlainText(cols []Column) bool {
	for _, c := range cols {
		if nonStringMapKey(c.Type) {
			return true
		}
	}
	return false
}

func nonStringMapKey(t *types.DataType) bool {
	if t == nil {
		return false
	}
	switch t.Root {
	case types.VariantRoot:
		return true // Flink 2.3.0's JSON row format cannot write a VARIANT
	case types.MapRoot:
		return !t.Key.IsString() || nonStringMapKey(t.Key) || nonStringMapKey(t.Value)
	case types.MultisetRoot:
		return !t.Elem.IsString() || nonStringMapKey(t.Elem)
	case types.ArrayRoot:
		return nonStringMapKey(t.Elem)
	case types.RowRoot:
		for _, f := range t.Fields {
			if nonStringMapKey(f.Type) {
				return true
			}
		}
	}
	return false
}

// isJSONMappingError reports Flink's answer to a fetch whose page its JSON
// row format could not write.
func isJSONMappingError(err error) bool {
	var ge *Error
	if !errors.As(err, &ge) {
		return false
	}
	for _, m := range ge.Errors {
		if strings.Contains(m, "Could not map response to JSON") {
			return true
		}
	}
	return false
}
