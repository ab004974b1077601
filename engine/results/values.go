package results

import (
	"math"

	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/riffle-sql/riffle/engine/types"
)

// Values is a copy of some columns of a run of consecutive rows of one
// view, in the form charts read: numbers and times as float64, other
// values as display text. ReadValues fills it.
type Values struct {
	Version uint64 // the Result's version when the rows were read
	Total   int    // rows in the view
	From    int    // view index of the first copied row
	Len     int    // rows copied
	Cols    []ColumnValues
}

// ColumnValues holds one copied column. Numeric columns fill Nums,
// others fill Texts; Nulls[i] reports that row i is SQL NULL (its number
// is then NaN and its text empty).
//
// Numbers follow the column type:
//
//	TINYINT .. DOUBLE, DECIMAL   the value
//	DATE                         Unix seconds of midnight UTC that day
//	TIME                         seconds since midnight
//	TIMESTAMP                    Unix seconds of the wall-clock value read as UTC
//	TIMESTAMP_LTZ                Unix seconds of the instant
//	INTERVAL DAY TO SECOND       seconds
//	INTERVAL YEAR TO MONTH       months
//
// Everything else (strings, booleans, binary, nested types) is text.
type ColumnValues struct {
	Numeric bool
	Nums    []float64
	Texts   []string
	Nulls   []bool
}

// IsNumeric reports whether ReadValues copies a column of type t as
// numbers (see ColumnValues).
func IsNumeric(t *types.DataType) bool {
	switch t.Root {
	case types.TinyInt, types.SmallInt, types.Integer, types.BigInt, types.Float, types.Double,
		types.DecimalRoot, types.DateRoot, types.TimeRoot, types.TimestampRoot, types.TimestampLTZRoot,
		types.IntervalDayTimeRoot, types.IntervalYearMonthRoot:
		return true
	}
	return false
}

// ReadValues copies columns cols (indexes into Columns) of the last
// maxRows rows of view v (every row when maxRows <= 0), in display order,
// from a Frozen picture (the lock is held only to take it). dst, when not
// nil, is reused. A column index out of
// range yields a column of NULLs.
func (r *Result) ReadValues(v View, cols []int, maxRows int, dst *Values) *Values {
	if dst == nil {
		dst = &Values{}
	}
	f := r.freeze(v, false)
	total := f.Len()
	from := 0
	if maxRows > 0 && total > maxRows {
		from = total - maxRows
	}
	n := total - from
	dst.Version, dst.Total, dst.From, dst.Len = f.version, total, from, n
	dst.Cols = resize(dst.Cols, len(cols))
	for k, c := range cols {
		cv := &dst.Cols[k]
		cv.Numeric = c >= 0 && c < len(r.cols) && IsNumeric(r.cols[c].Type)
		cv.Nulls = resize(cv.Nulls, n)
		if cv.Numeric {
			cv.Nums, cv.Texts = resize(cv.Nums, n), cv.Texts[:0]
		} else {
			cv.Texts, cv.Nums = resize(cv.Texts, n), cv.Nums[:0]
		}
	}
	var buf []byte
	i := 0
	f.scan(from, total, func(ch *chunk, off int) {
		for k, c := range cols {
			cv := &dst.Cols[k]
			if c < 0 || c >= len(r.cols) || ch.cols[c].isNull(off) {
				cv.Nulls[i] = true
				if cv.Numeric {
					cv.Nums[i] = math.NaN()
				} else {
					cv.Texts[i] = ""
				}
				continue
			}
			cv.Nulls[i] = false
			if cv.Numeric {
				cv.Nums[i] = number(ch.cols[c], off, r.cols[c].Type)
				continue
			}
			buf = ch.cols[c].appendText(buf[:0], off, &r.fmt)
			if s := cv.Texts[i]; s != string(buf) { // reuse the old string when unchanged
				cv.Texts[i] = string(buf)
			}
		}
		i++
	})
	return dst
}

// number converts non-NULL row i of a numeric column to float64 (see
// ColumnValues), reading the typed storage directly.
func number(v vec, i int, t *types.DataType) float64 {
	switch x := v.(type) {
	case *fixedVec[int8]:
		return float64(x.vals[i])
	case *fixedVec[int16]:
		return float64(x.vals[i])
	case *fixedVec[int32]:
		n := float64(x.vals[i])
		if t.Root == types.DateRoot {
			return n * 86400
		}
		return n // INTEGER, INTERVAL YEAR TO MONTH
	case *fixedVec[int64]:
		n := x.vals[i]
		switch t.Root {
		case types.TimeRoot, types.IntervalDayTimeRoot:
			return float64(n) / 1e9
		case types.TimestampRoot, types.TimestampLTZRoot:
			return float64(n/1e6) + float64(n%1e6)/1e6
		}
		return float64(n)
	case *fixedVec[float32]:
		return float64(x.vals[i])
	case *fixedVec[float64]:
		return x.vals[i]
	case *fixedVec[decimal128.Num]:
		return x.vals[i].ToFloat64(int32(t.Scale))
	case *fixedVec[secNanos]:
		s := x.vals[i]
		return float64(s.sec) + float64(s.nsec)/1e9
	}
	return math.NaN()
}
