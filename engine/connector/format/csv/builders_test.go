package csv

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/types"
)

// builderTable has a column of each builder kind that is handed on.
var builderTable = cols("n", types.BigIntType(), "s", types.StringType(), "d", types.DoubleType(),
	"b", types.BooleanType(), "day", types.DateType(), "i", types.IntType())

// builderData is rows lines of builderTable, every third one with NULLs
// (empty fields) and strings of a length that grows with seed.
func builderData(rows, seed int) []byte {
	var b strings.Builder
	for i := range rows {
		if (i+seed)%3 == 0 {
			b.WriteString(",,,,,\n")
			continue
		}
		fmt.Fprintf(&b, "%d,%s,%d.5,%t,2001-01-%02d,%d\n", i*seed, strings.Repeat("x", 1+(i+seed)%(5*seed)), i, i%2 == 0, 1+i%28, -i)
	}
	return []byte(b.String())
}

// TestReaderHandsOnBuilders: a reader that reaches the end of its stream
// hands its column builders to the next reader of the same types (a CSV
// file's byte ranges get a reader each), and the rows stay those of fresh
// builders: a set whose last batch held NULLs or long strings gives the
// next reader none of them. A reader that stops before its end keeps them.
func TestReaderHandsOnBuilders(t *testing.T) {
	o, err := ParseOptions(nil)
	if err != nil {
		t.Fatal(err)
	}
	d, err := NewDecoder(o, builderTable.names, builderTable.types, nil)
	if err != nil {
		t.Fatal(err)
	}
	handedOn := 0
	var last *builderSet
	for seed := 1; seed <= 12; seed++ {
		data := builderData(5+seed*3, seed) // the last batch of 7 rows part full
		r := d.NewBytesReaderAt(data, "r.csv", 7, 0, 1).(*Reader)
		set := r.builders
		if set == nil {
			t.Fatal("the reader's builders are not a set that can be handed on")
		}
		if set == last {
			handedOn++
		}
		var got []string
		for {
			b, err := r.Next()
			if err != nil {
				break
			}
			got = append(got, rowStrings(b.Rows(builderTable.types))...)
		}
		if r.builders != nil || r.cols != nil {
			t.Fatalf("seed %d: the reader at its end kept its builders", seed)
		}
		// the rows in batches of 5 (builders of another size, not the set)
		w := decodeWith(t, builderTable, nil, func(d *Decoder) *Reader {
			return d.NewBytesReaderAt(data, "r.csv", 5, 0, 1).(*Reader)
		})
		if w.err != nil {
			t.Fatal(w.err)
		}
		if want := rowStrings(w.rows); !slices.Equal(got, want) {
			t.Fatalf("seed %d, rows:\n%s\nwant:\n%s", seed, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		last = set
	}
	// sync.Pool may drop a set (the race detector drops a quarter of them)
	if handedOn < 3 {
		t.Fatalf("the next reader took the last one's builders %d times of 11", handedOn)
	}

	r := d.NewBytesReaderAt(builderData(20, 1), "r.csv", 7, 0, 1).(*Reader)
	if _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
	if r.builders == nil || r.cols == nil {
		t.Fatal("a reader that has not reached its end gave its builders away")
	}
}

// TestBuildersKey: nested types' builders are not handed on; the key
// tells types and batch sizes apart.
func TestBuildersKey(t *testing.T) {
	if k := buildersKey([]*types.DataType{types.IntType(), types.ArrayType(types.IntType())}, 8); k != "" {
		t.Errorf("an ARRAY column's builders are handed on (key %q)", k)
	}
	a := buildersKey([]*types.DataType{types.IntType(), types.StringType()}, 8)
	for _, other := range []string{
		buildersKey([]*types.DataType{types.IntType(), types.StringType()}, 9),
		buildersKey([]*types.DataType{types.BigIntType(), types.StringType()}, 8),
		buildersKey([]*types.DataType{types.IntType()}, 8),
		buildersKey([]*types.DataType{types.IntType(), types.StringType().NotNull()}, 8),
	} {
		if other == a {
			t.Errorf("two different sets share the key %q", a)
		}
	}
}

// TestBuildersHandedOnPastAnotherScan: a scan of other types that ends
// between the readers of a file (the airports side of a join) does not
// stop them handing their builders on: each key has its own pool (one
// pool for all gave the other scan's set first and every later reader
// made its own).
func TestBuildersHandedOnPastAnotherScan(t *testing.T) {
	o, err := ParseOptions(nil)
	if err != nil {
		t.Fatal(err)
	}
	d, err := NewDecoder(o, builderTable.names, builderTable.types, nil)
	if err != nil {
		t.Fatal(err)
	}
	other := cols("a", types.StringType(), "b", types.StringType())
	od, err := NewDecoder(o, other.names, other.types, nil)
	if err != nil {
		t.Fatal(err)
	}
	readAll := func(r *Reader) int {
		rows := 0
		for {
			b, err := r.Next()
			if err != nil {
				return rows
			}
			rows += b.Len
		}
	}
	// the other scan's reader ends and hands its set on
	if n := readAll(od.NewBytesReaderAt([]byte("x,y\nz,w\n"), "o.csv", 7, 0, 1).(*Reader)); n != 2 {
		t.Fatalf("the other scan read %d rows, want 2", n)
	}
	handedOn := 0
	var last *builderSet
	for seed := 1; seed <= 12; seed++ {
		r := d.NewBytesReaderAt(builderData(5+seed*3, seed), "r.csv", 7, 0, 1).(*Reader)
		if r.builders == nil {
			t.Fatal("the reader's builders are not a set that can be handed on")
		}
		if r.builders.key != buildersKey(builderTable.types, 7) {
			t.Fatalf("the reader took the set %q", r.builders.key)
		}
		if r.builders == last {
			handedOn++
		}
		last = r.builders
		if n := readAll(r); n != 5+seed*3 {
			t.Fatalf("seed %d: read %d rows, want %d", seed, n, 5+seed*3)
		}
	}
	// sync.Pool may drop a set (the race detector drops a quarter of them)
	if handedOn < 3 {
		t.Fatalf("the next reader took the last one's builders %d times of 11", handedOn)
	}
}
