package table

import (
	"fmt"
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/types"
)

// A user changing a row Row returned (its values, kind, names, also
// through SetFieldNames and append) changes that row alone: the other
// rows of its batch and of later batches, the iterator's own Values and
// Kind of them, and the result's schema stay as they were. (The rows of
// one result share one slice of names, as the rows of one Flink converter
// share their names; a write into it must not reach the schema.)
func TestChangingARowLeavesOtherRowsAndTheSchema(t *testing.T) {
	for _, converters := range []int{1, 3} {
		t.Run(fmt.Sprintf("c%d", converters), func(t *testing.T) {
			res := keepResult(t, 20000, 2, converters)
			it, err := res.Collect()
			if err != nil {
				t.Fatal(err)
			}
			defer it.Close()
			if !it.Next() || !it.Next() {
				t.Fatalf("no two rows: %v", it.Err())
			}
			second := it.Row()
			if !it.Next() {
				t.Fatal("no third row")
			}
			third := it.Row()
			second.Values[0] = "changed"
			second.Values = append(second.Values, "extra")
			second.SetRowKind(types.Delete)
			if err := second.SetFieldNames([]string{"a", "b", "c", "d", "e"}); err != nil {
				t.Fatal(err)
			}
			third.Names[0] = "renamed"
			if fmt.Sprint(third.Values) != fmt.Sprint(wantKeep(3)) || third.Kind != types.Insert {
				t.Fatalf("third row after the second was changed: %v %v", third.Kind, third.Values)
			}
			if v := it.Values(nil); fmt.Sprint(v) != fmt.Sprint(wantKeep(3)) || it.Kind() != types.Insert {
				t.Fatalf("Values %v Kind %v of the third row", v, it.Kind())
			}
			if got := strings.Join(res.Schema().FieldNames(), ","); got != "v,big,neg,s" {
				t.Fatalf("schema's names after a row's were written: %s", got)
			}
			if _, ok := res.Schema().FieldDataType("v"); !ok {
				t.Fatal("schema has no column v after a row's names were written")
			}
			v := int64(3)
			for it.Next() {
				v++
				if r := it.Row(); fmt.Sprint(r.Values) != fmt.Sprint(wantKeep(v)) || r.Kind != types.Insert || len(r.Names) != 4 {
					t.Fatalf("row %d after a change to row 2 and 3: %v %v %v", v, r.Kind, r.Names, r.Values)
				}
			}
			if err := it.Err(); err != nil || v != 20000 {
				t.Fatalf("%d rows, %v", v, err)
			}
		})
	}
}

// A static result (SHOW, EXPLAIN, DDL's OK) read twice: a change to a row
// the first reading returned does not show in the second, nor in its
// Values.
func TestChangingAStaticRowLeavesTheNextReading(t *testing.T) {
	env := MustCreate(InBatchMode())
	mustExec(t, env, "CREATE TABLE t (a INT) WITH ('connector' = 'datagen', 'number-of-rows' = '3')")
	for _, stmt := range []string{"SHOW TABLES", "EXPLAIN SELECT a FROM t", "CREATE TABLE u (a INT) WITH ('connector' = 'blackhole')"} {
		res, err := env.ExecuteSQL(stmt)
		if err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
		var want []string
		for pass := range 2 {
			it, err := res.Collect()
			if err != nil {
				t.Fatal(err)
			}
			i := 0
			for it.Next() {
				r := it.Row()
				if it.Row() != r {
					t.Fatalf("%s: Row twice gave two rows", stmt)
				}
				if pass == 0 {
					want = append(want, r.String())
					r.Values[0] = "changed"
					r.SetRowKind(types.Delete)
					if v := it.Values(nil); fmt.Sprint(v) != "[changed]" {
						// Values follows the row Row returned
						t.Fatalf("%s: Values %v after Row's were changed", stmt, v)
					}
				} else if i >= len(want) || r.String() != want[i] {
					t.Fatalf("%s: second reading's row %d = %v, want %v", stmt, i, r, want)
				}
				i++
			}
			if pass == 1 && i != len(want) {
				t.Fatalf("%s: %d rows on the second reading, %d on the first", stmt, i, len(want))
			}
			_ = it.Close()
		}
	}
}
