package types

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// smallEdges are BIGINTs either side of the shared table's bounds, with
// NULLs between them.
var smallEdges = []any{int64(-1), int64(0), int64(1), int64(65535), int64(65536), nil, int64(65535), nil, int64(0),
	int64(-65536), int64(math.MinInt64), int64(math.MaxInt64), int64(255), int64(256), int64(65534), int64(1) << 32, int64(-1) << 32}

// smallEdgeBatch is a batch of n rows of a nullable BIGINT column cycling
// through smallEdges from offset on.
func smallEdgeBatch(t *testing.T, n, offset int) *Batch {
	t.Helper()
	bb := NewBatchBuilder([]*DataType{BigIntType()})
	for i := range n {
		if err := bb.Append(Insert, []any{smallEdges[(i+offset)%len(smallEdges)]}); err != nil {
			t.Fatal(err)
		}
	}
	return bb.Build()
}

// BIGINTs boxed in the shared table behave as ordinary int64 boxes to
// their users: a type switch, ==, a map keyed by ordinary boxes (and the
// other way round), reflect, fmt and JSON; NULLs stay nil.
func TestSmallBigintBoxesAreOrdinaryInt64s(t *testing.T) {
	b := smallEdgeBatch(t, len(smallEdges), 0)
	block := NewRowConverter([]*DataType{BigIntType()}).ValueBlock(b, nil)
	ordinary := map[any]int{}
	for i, want := range smallEdges {
		if want != nil {
			ordinary[want] = i
		}
	}
	boxed := map[any]int{}
	for i, got := range block {
		want := smallEdges[i]
		if want == nil {
			if got != nil {
				t.Fatalf("row %d: NULL gave %#v", i, got)
			}
			continue
		}
		x := want.(int64)
		switch v := got.(type) {
		case int64:
			if v != x {
				t.Fatalf("row %d: %d, want %d", i, v, x)
			}
		default:
			t.Fatalf("row %d: %T", i, got)
		}
		if got != want || got != any(x) || !reflect.DeepEqual(got, want) {
			t.Fatalf("row %d: %#v != %#v", i, got, want)
		}
		if j, ok := ordinary[got]; !ok || smallEdges[j] != want {
			t.Fatalf("row %d: %#v is no key of a map of ordinary boxes", i, got)
		}
		boxed[got] = i
		if rv := reflect.ValueOf(got); rv.Kind() != reflect.Int64 || rv.Int() != x || rv.CanSet() {
			t.Fatalf("row %d: reflect %v %d settable=%v", i, rv.Kind(), rv.Int(), rv.CanSet())
		}
		if s := fmt.Sprintf("%d %v", got, got); s != fmt.Sprintf("%d %d", x, x) {
			t.Fatalf("row %d: printed %q", i, s)
		}
		if j, err := json.Marshal(got); err != nil || string(j) != fmt.Sprint(x) {
			t.Fatalf("row %d: JSON %s %v", i, j, err)
		}
		if float64(got.(int64)) != float64(x) || int32(got.(int64)) != int32(x) || uint16(got.(int64)) != uint16(x) {
			t.Fatalf("row %d: conversions of %d", i, x)
		}
	}
	for _, want := range smallEdges {
		if want == nil {
			continue
		}
		if _, ok := boxed[any(want.(int64))]; !ok {
			t.Fatalf("ordinary box %d is no key of a map of converted boxes", want)
		}
	}
	if len(boxed) != len(ordinary) {
		t.Fatalf("%d distinct converted keys, %d ordinary", len(boxed), len(ordinary))
	}
}

// Values kept from a first conversion (the shared table's boxes and the
// slabs') stay as they were through 200 more conversions of shifted
// values into reused blocks, on four converters at once (-race: the table
// is only read); the table itself still holds i at index i.
func TestSmallBigintBoxesKeptThroughManyConversions(t *testing.T) {
	const n = 4096
	batches := make([]*Batch, 7)
	for s := range batches {
		batches[s] = smallEdgeBatch(t, n, s)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 4)
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rc := NewRowConverter([]*DataType{BigIntType()})
			kept := rc.ValueBlock(batches[w%len(batches)], nil)
			var reuse []any
			for k := range 200 {
				b := batches[(w+k)%len(batches)]
				reuse = rc.ValueBlock(b, reuse)
				for i, got := range reuse {
					if want := smallEdges[(i+(w+k)%len(batches))%len(smallEdges)]; got != want {
						errs <- fmt.Sprintf("converter %d, conversion %d, row %d: %#v, want %#v", w, k, i, got, want)
						return
					}
				}
			}
			for i, got := range kept {
				if want := smallEdges[(i+w%len(batches))%len(smallEdges)]; got != want {
					errs <- fmt.Sprintf("converter %d: kept row %d = %#v, want %#v", w, i, got, want)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	for i, x := range smallInt64s() {
		if x != int64(i) {
			t.Fatalf("the shared table holds %d at %d", x, i)
		}
	}
}

// A sliced BIGINT column (a LIMIT's or a split batch's: its values start
// at an offset, its NULLs with them) converts as ValueAt reads it, into a
// fresh block and into one reused from a batch of other values.
func TestSmallBigintBoxesOfASlicedColumn(t *testing.T) {
	whole := smallEdgeBatch(t, 3*len(smallEdges), 0)
	rc := NewRowConverter([]*DataType{BigIntType()})
	other := rc.ValueBlock(smallEdgeBatch(t, 3*len(smallEdges), 5), nil)
	for _, off := range []int{1, 5, 6, 7, 16} {
		for _, n := range []int{1, 9, 2 * len(smallEdges)} {
			col := array.NewSlice(whole.Cols[0], int64(off), int64(off+n))
			b := NewBatch([]arrow.Array{col}, nil, n)
			for _, reuse := range [][]any{nil, other} {
				block := rc.ValueBlock(b, reuse)
				for i := range n {
					if got, want := block[i], ValueAt(col, i, BigIntType()); got != want || want != smallEdges[(off+i)%len(smallEdges)] {
						t.Fatalf("offset %d, row %d: %#v, ValueAt %#v, want %#v", off, i, got, want, smallEdges[(off+i)%len(smallEdges)])
					}
				}
			}
			col.Release()
		}
	}
}
