package infer

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/types"
)

// Parquet and Avro files carry their schema: the columns come from it, not
// from the values. What the values still give is the preview (an example
// per column), null counts and the order of the timestamps, for the rowtime
// proposal. columnSampler gathers those over Arrow arrays, the form both
// readers produce.

// sampleRows is how many rows of a Parquet or Avro file are looked at for
// examples and the order of timestamps.
const sampleRows = 200_000

type columnSampler struct {
	examples []string
	nulls    []int64
	order    []*orderStats // for DATE, TIMESTAMP and TIMESTAMP_LTZ columns
	rows     int64
}

func newColumnSampler(cols []Column) *columnSampler {
	s := &columnSampler{examples: make([]string, len(cols)), nulls: make([]int64, len(cols)), order: make([]*orderStats, len(cols))}
	for i, c := range cols {
		if c.Type.IsTimestamp() || c.Type.Root == types.DateRoot {
			s.order[i] = &orderStats{}
		}
	}
	return s
}

// add looks at one batch of columns (in the order of the Columns).
func (s *columnSampler) add(cols []arrow.Array, n int) {
	s.rows += int64(n)
	for i, a := range cols {
		if i >= len(s.examples) {
			break
		}
		s.nulls[i] += int64(a.NullN())
		if s.examples[i] == "" {
			for j := 0; j < a.Len(); j++ {
				if a.IsValid(j) {
					s.examples[i] = shorten(a.ValueStr(j))
					break
				}
			}
		}
		if o := s.order[i]; o != nil {
			addOrder(o, a)
		}
	}
}

// addOrder feeds the valid values of a date or timestamp array to o, in
// milliseconds since the epoch.
func addOrder(o *orderStats, a arrow.Array) {
	switch x := a.(type) {
	case *array.Timestamp:
		per := types.UnitsPerSecond(x.DataType().(*arrow.TimestampType).Unit)
		for j := 0; j < x.Len(); j++ {
			if x.IsValid(j) {
				v := int64(x.Value(j))
				switch {
				case per > 1000:
					v /= per / 1000
				case per < 1000:
					v *= 1000 / per
				}
				o.add(v)
			}
		}
	case *array.Date32:
		for j := 0; j < x.Len(); j++ {
			if x.IsValid(j) {
				o.add(int64(x.Value(j)) * 86_400_000)
			}
		}
	case *array.Date64:
		for j := 0; j < x.Len(); j++ {
			if x.IsValid(j) {
				o.add(int64(x.Value(j)))
			}
		}
	}
}

func shorten(s string) string {
	if r := []rune(s); len(r) > 80 {
		return string(r[:79]) + "…"
	}
	return s
}

// finishSample copies examples and null counts to the columns and proposes
// a rowtime: the TIMESTAMP / TIMESTAMP_LTZ column whose name reads most
// like an event time (a DATE column through a computed column when there is
// no timestamp), its watermark delay from the order of its values.
func (r *Result) finishSample(s *columnSampler) {
	for i := range r.Columns {
		r.Columns[i].Example = s.examples[i]
		r.Columns[i].Nulls = s.nulls[i]
	}
	best, bestScore := -1, -1
	for i, c := range r.Columns {
		if s.order[i] == nil || s.order[i].n == 0 {
			continue
		}
		score := timeNameScore(c.Name)
		if c.Type.IsTimestamp() {
			score += 1000
		}
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	if best < 0 {
		return
	}
	c := r.Columns[best]
	rt := &Rowtime{Column: c.Name, Source: c.Name}
	switch {
	case c.Type.Root == types.DateRoot:
		rt.Column = r.freeName("rowtime")
		rt.Expr = "CAST(" + sql.QuoteIdentIfNeeded(c.Name) + " AS TIMESTAMP(3))"
		rt.Note = fmt.Sprintf("%s holds dates; the rowtime %s is their midnight as TIMESTAMP(3).", c.Name, rt.Column)
	case c.Type.Precision > 3:
		rt.Column = r.freeName("rowtime")
		target := "TIMESTAMP(3)"
		if c.Type.Root == types.TimestampLTZRoot {
			target = "TIMESTAMP_LTZ(3)"
		}
		rt.Expr = "CAST(" + sql.QuoteIdentIfNeeded(c.Name) + " AS " + target + ")"
		rt.Note = "a rowtime has at most millisecond precision; the computed column rounds to it."
	}
	r.finishRowtime(rt, s.order[best])
}

// sampleNote says how much of the file the preview looked at.
func (r *Result) sampleNote(s *columnSampler) {
	if s.rows < r.Records {
		r.note("Examples, null counts and the order of timestamps come from the first %s of %s rows; the types come from the file's schema.",
			groupThousands(s.rows), groupThousands(r.Records))
	}
}

func groupThousands(n int64) string {
	s := fmt.Sprint(n)
	var b strings.Builder
	for i, ch := range s {
		if i > 0 && (len(s)-i)%3 == 0 && s[i-1] != '-' {
			b.WriteByte(',')
		}
		b.WriteRune(ch)
	}
	return b.String()
}
