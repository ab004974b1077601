package datatypes

import "testing"

func TestTypeStrings(t *testing.T) {
	for _, c := range []struct {
		got  interface{ String() string }
		want string
	}{
		{TinyInt(), "TINYINT"},
		{BigInt().NotNull(), "BIGINT NOT NULL"},
		{Decimal(10, 2), "DECIMAL(10, 2)"},
		{Char(3), "CHAR(3)"},
		{VarChar(20), "VARCHAR(20)"},
		{String(), "STRING"},
		{Bytes(), "BYTES"},
		{Time(), "TIME(0)"},
		{Timestamp(), "TIMESTAMP(6)"},
		{Timestamp(3), "TIMESTAMP(3)"},
		{TimestampLTZ(3), "TIMESTAMP_LTZ(3)"},
		{Interval(Day(), Second(3)), "INTERVAL DAY(2) TO SECOND(3)"},
		{Interval(Year(), Month()), "INTERVAL YEAR(2) TO MONTH"},
		{Array(Int()), "ARRAY<INT>"},
		{Map(String(), BigInt()), "MAP<STRING, BIGINT>"},
		{Multiset(String()), "MULTISET<STRING>"},
		{Row(Field("a", Int()), Field("b", String())), "ROW<`a` INT, `b` STRING>"},
	} {
		if s := c.got.String(); s != c.want {
			t.Errorf("got %s, want %s", s, c.want)
		}
	}
}

func TestInvalidParameters(t *testing.T) {
	if Decimal(39, 0) != nil || Decimal(5, 6) != nil {
		t.Fatal("invalid decimals must be nil")
	}
	if _, err := DecimalE(0, 0); err == nil {
		t.Fatal("DecimalE(0, 0) must fail")
	}
	if Char(0) != nil || Timestamp(10) != nil {
		t.Fatal("invalid lengths and precisions must be nil")
	}
	if _, err := IntervalE(Second(), Day()); err == nil {
		t.Fatal("INTERVAL SECOND TO DAY must fail")
	}
}
