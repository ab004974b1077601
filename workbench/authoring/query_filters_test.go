package authoring

import (
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/types"
)

func TestNumberValuesFitTheColumnType(t *testing.T) {
	cases := []struct {
		text string
		typ  *types.DataType
		err  string
	}{
		{"1e400", types.IntType(), "'1e400' is out of the range of DOUBLE"},
		{"1e400", nil, "'1e400' is out of the range of DOUBLE"},
		{"-1E+400", types.DoubleType(), "out of the range of DOUBLE"},
		{"1e300", types.DoubleType(), ""},
		{"1e300", types.FloatType(), "'1e300' is out of the range of FLOAT"},
		{"2147483647", types.IntType(), ""},
		{"2147483648", types.IntType(), "'2147483648' is out of the range of INT (-2147483648 to 2147483647)"},
		{"-2147483649", types.IntType().NotNull(), "is out of the range of INT ("},
		{"3000000000", types.BigIntType(), ""},
		{"9223372036854775808", types.BigIntType(), "out of the range of BIGINT"},
		{"1.5", types.IntType(), ""},
		{"128", types.TinyIntType(), "out of the range of TINYINT"},
		{"123456789", types.DecimalType(10, 2), "'123456789' is out of the range of DECIMAL(10, 2) (at most 8 digits before the point)"},
		{"99999999.99", types.DecimalType(10, 2), ""},
		{"-12345678.5", types.DecimalType(10, 2), ""},
		{"1" + strings.Repeat("0", 40), types.DecimalType(38, 0), "has more than 38 digits"},
		{"abc", types.IntType(), "'abc' is not a number"},
	}
	for _, c := range cases {
		v := Value{Kind: ValueNumber, Text: c.text}
		err := v.CheckFor(c.typ)
		if c.typ == nil {
			_, err = v.Expr()
		}
		if (err == nil) != (c.err == "") || (err != nil && !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%s as %v: %v, want %q", c.text, c.typ, err, c.err)
		}
	}
	q := NewQuery("flights")
	q.AddFilter(Filter{Column: ColumnRef{Name: "delay"}, Op: OpEq, Values: []Value{{ValueNumber, "3000000000"}}})
	typeOf := func(c ColumnRef) *types.DataType {
		if c.Name == "delay" {
			return types.IntType()
		}
		return nil
	}
	if err := q.CheckValues(typeOf); err == nil || err.Error() != "filter on delay: '3000000000' is out of the range of INT (-2147483648 to 2147483647)" {
		t.Errorf("CheckValues: %v", err)
	}
}

func TestTimestampFilterTakesADate(t *testing.T) {
	env := batchEnv(t)
	q := NewQuery("flights")
	q.AddFilter(Filter{Column: ColumnRef{Name: "date"}, Op: OpBetween, Values: []Value{{ValueTimestamp, "2001-01-01"}, {ValueTimestamp, "2001-01-02 00:00:00"}}})
	text, err := q.SQL()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, "BETWEEN TIMESTAMP '2001-01-01 00:00:00' AND TIMESTAMP '2001-01-02 00:00:00'") {
		t.Fatalf("SQL:\n%s", text)
	}
	if n := count(t, env, text); n == 0 {
		t.Errorf("no rows for %s", text)
	}
	for _, bad := range []string{"2006-13-01", "2006-01-01 25:00:00", "yesterday"} {
		if _, err := (Value{ValueTimestamp, bad}).Expr(); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// TestSelfJoin: the second flights is f2, and columns of both with the
// same name get unique output names.
func TestSelfJoin(t *testing.T) {
	env := batchEnv(t)
	q := NewQuery("flights")
	q.ToggleColumn(ColumnRef{Name: "origin"})
	if !q.HasTable([]string{"flights"}) || q.HasTable([]string{"airports"}) {
		t.Fatal("HasTable")
	}
	q.AddJoin(JoinInner, TableRef{Path: []string{"flights"}}, []JoinKey{{Left: ColumnRef{Table: "f", Name: "destination"}, Right: "origin"}})
	q.ToggleColumn(ColumnRef{Table: "f2", Name: "origin"})
	q.ToggleColumn(ColumnRef{Table: "f2", Name: "destination"})
	text, err := q.SQL()
	if err != nil {
		t.Fatal(err)
	}
	want := "SELECT\n  f.origin,\n  f2.origin AS f2_origin,\n  f2.destination\nFROM flights AS f\nJOIN flights AS f2\n  ON f.destination = f2.origin"
	if text != want {
		t.Fatalf("SQL:\n%s\nwant\n%s", text, want)
	}
	_, names := rows(t, env, text+"\nLIMIT 1")
	if strings.Join(names, ",") != "origin,f2_origin,destination" {
		t.Errorf("names %v", names)
	}
	// a third instance is f3; another table keeps its first letter
	q.AddJoin(JoinInner, TableRef{Path: []string{"flights"}}, nil)
	q.AddJoin(JoinInner, TableRef{Path: []string{"airports"}}, nil)
	if a, b := q.Joins[1].Table.Alias, q.Joins[2].Table.Alias; a != "f3" || b != "a" {
		t.Errorf("aliases %s, %s", a, b)
	}
	// the query reads back (the builder follows the editor)
	back, err := ParseQuery(text)
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := back.SQL(); again != text {
		t.Errorf("read back:\n%s", again)
	}
}
