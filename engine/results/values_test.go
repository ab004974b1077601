package results

import (
	"math"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/types"
)

func TestReadValuesTypes(t *testing.T) {
	cols := []Column{
		{"i", types.IntType()},
		{"d", types.DecimalType(10, 2)},
		{"ts", types.TimestampType(3)},
		{"ts9", types.TimestampLTZType(9)},
		{"day", types.DateType()},
		{"tod", types.TimeType(0)},
		{"dur", types.IntervalDayTimeType(types.ResSecond, 2, 3)},
		{"s", types.StringType()},
		{"b", types.BooleanType()},
		{"f", types.FloatType()},
	}
	r := New(cols, Options{})
	ts := time.Date(2024, 3, 1, 12, 30, 15, 250e6, time.UTC)
	if err := r.Add(types.Insert, []any{int32(7), types.MustDecimal("12.50"), ts, ts.Add(5), types.Date(1),
		types.LocalTime(90 * time.Second), 1500 * time.Millisecond, "a", true, float32(0.5)}); err != nil {
		t.Fatal(err)
	}
	if err := r.Add(types.Insert, []any{nil, nil, nil, nil, nil, nil, nil, nil, nil, nil}); err != nil {
		t.Fatal(err)
	}
	v := r.ReadValues(TableView, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 42}, 0, nil)
	if v.Total != 2 || v.From != 0 || v.Len != 2 || len(v.Cols) != 11 {
		t.Fatalf("got total %d from %d len %d cols %d", v.Total, v.From, v.Len, len(v.Cols))
	}
	want := []float64{7, 12.5, float64(ts.Unix()) + 0.25, float64(ts.Unix()) + 0.25 + 5e-9, 86400, 90, 1.5}
	for k, w := range want {
		c := v.Cols[k]
		if !c.Numeric {
			t.Fatalf("column %s not numeric", cols[k].Name)
		}
		if math.Abs(c.Nums[0]-w) > 1e-6 {
			t.Errorf("%s = %v, want %v", cols[k].Name, c.Nums[0], w)
		}
		if !c.Nulls[1] || !math.IsNaN(c.Nums[1]) {
			t.Errorf("%s row 1 not NULL/NaN: %v", cols[k].Name, c.Nums[1])
		}
	}
	if c := v.Cols[7]; c.Numeric || c.Texts[0] != "a" || !c.Nulls[1] || c.Texts[1] != "" {
		t.Errorf("string column = %+v", c)
	}
	if c := v.Cols[8]; c.Numeric || c.Texts[0] != "TRUE" {
		t.Errorf("boolean column = %+v", c)
	}
	if c := v.Cols[9]; !c.Numeric || c.Nums[0] != 0.5 {
		t.Errorf("float column = %+v", c)
	}
	if c := v.Cols[10]; !c.Nulls[0] || !c.Nulls[1] {
		t.Errorf("missing column not NULL: %+v", c)
	}
}

func TestReadValuesTailAndReuse(t *testing.T) {
	r := New(kvCols, Options{})
	for i := range 100 {
		r.Add(types.Insert, []any{string(rune('a' + i%26)), int64(i)})
	}
	// a retraction removes row 10; the tail starts after it
	r.Add(types.Delete, []any{"k", int64(10)})
	v := r.ReadValues(TableView, []int{1, 0}, 5, nil)
	if v.Total != 99 || v.From != 94 || v.Len != 5 {
		t.Fatalf("total %d from %d len %d", v.Total, v.From, v.Len)
	}
	for i, want := range []float64{95, 96, 97, 98, 99} {
		if v.Cols[0].Nums[i] != want {
			t.Errorf("row %d = %v, want %v", i, v.Cols[0].Nums[i], want)
		}
	}
	ver := v.Version
	r.Add(types.Insert, []any{"z", int64(100)})
	v2 := r.ReadValues(TableView, []int{1, 0}, 5, v)
	if v2 != v || v2.Version == ver || v2.Cols[0].Nums[4] != 100 || v2.Cols[1].Texts[4] != "z" {
		t.Errorf("reuse: %+v", v2)
	}
	cl := r.ReadValues(ChangelogView, []int{1}, 0, nil)
	if cl.Len != 102 || cl.Cols[0].Nums[100] != 10 {
		t.Errorf("changelog len %d, row 100 = %v", cl.Len, cl.Cols[0].Nums[100])
	}
}
