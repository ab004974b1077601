package runtime

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/riffle-sql/riffle/engine/types"
)

// keyDictValues are the values of the dictionary tests: short, empty,
// 7 and 8 bytes, long, and NULL.
var keyDictValues = []any{"ABQ", "", "SFO", nil, "seven77", "eight888", "a much longer airport name", "X", "JFK", "ORD", "another long value here"}

// keyDictBatches makes batches of one string column of random sizes
// whose values are drawn from vals; some are sliced (an offset into a
// longer column).
func keyDictBatches(t *testing.T, r *rand.Rand, batches int, vals []any) []*types.Batch {
	t.Helper()
	var out []*types.Batch
	for b := range batches {
		n := 1 + r.Intn(1500)
		pad := 0
		if b%3 == 0 {
			pad = 2
		}
		col := make([]any, pad+n)
		for i := range col {
			col[i] = vals[r.Intn(len(vals))]
		}
		c := stringColumn(t, col)
		if pad > 0 {
			c = array.NewSlice(c, int64(pad), int64(pad+n))
		}
		out = append(out, &types.Batch{Cols: []arrow.Array{c}, Len: n})
	}
	return out
}

// valueOf is row i of a string column as a Go value, nil for NULL.
func valueOf(col arrow.Array, i int) any {
	if col.IsNull(i) {
		return nil
	}
	return col.(*array.String).Value(i)
}

// Producers adding side by side number every value once in the pool's
// dictionary: each row's number names its value, a row's key group is
// the one stringKeyGroups gives it, the sorted values are the distinct
// values in order, and each instance's ranks (dictRanksParts) put its
// rows in the order of their values, as stringRanksParts' do.
func TestKeyDictNumbersRows(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	batches := keyDictBatches(t, r, 40, keyDictValues)
	pool := newKeyGroupPool(DefaultKeyGroups, 2)
	var wg sync.WaitGroup
	for p := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := p; i < len(batches); i += 2 {
				pool.add(batches[i], []int{0})
			}
		}()
	}
	wg.Wait()
	d := pool.dict
	if d == nil {
		t.Fatal("no dictionary for a one-string-column key")
	}
	for _, kb := range pool.batches {
		col := kb.batch.Cols[0]
		if kb.ids == nil {
			t.Fatalf("a batch of %d rows has no numbers", kb.batch.Len)
		}
		groups := make([]uint8, kb.batch.Len)
		stringKeyGroups(col, DefaultKeyGroups, groups, make([]int32, DefaultKeyGroups))
		if !slices.Equal(groups, kb.groups) {
			t.Fatal("the dictionary's key groups differ from stringKeyGroups'")
		}
		for i := range kb.batch.Len {
			v := valueOf(col, i)
			if v != nil && d.values[kb.ids[i]] != v {
				t.Fatalf("row %d: %q numbered %d, which is %q", i, v, kb.ids[i], d.values[kb.ids[i]])
			}
		}
	}
	var want []string
	for _, v := range keyDictValues {
		if v != nil {
			want = append(want, v.(string))
		}
	}
	slices.Sort(want)
	if len(d.values) != len(want) {
		t.Fatalf("%d values numbered, want %d: %q", len(d.values), len(want), d.values)
	}
	var first []selectedRows
	for inst := range 2 {
		parts, total, err := pool.drainParts(context.Background(), inst)
		if err != nil {
			t.Fatal(err)
		}
		if inst == 0 {
			first = parts
		}
		if !slices.Equal(d.sorted, want) {
			t.Fatalf("sorted values %q, want %q", d.sorted, want)
		}
		ranks, sorted := dictRanksParts(parts, 0, total)
		if ranks == nil {
			t.Fatalf("instance %d: no ranks from the dictionary", inst)
		}
		strRanks, strSorted := stringRanksParts(parts, 0, total)
		k := 0
		for _, p := range parts {
			col := p.b.Cols[0]
			for _, j := range p.sel {
				v := valueOf(col, int(j))
				if v != nil {
					if got := sorted[ranks[k]]; got != v {
						t.Fatalf("instance %d, row %d: %q ranked as %q", inst, k, v, got)
					}
					if other := strSorted[strRanks[k]]; other != v {
						t.Fatalf("instance %d, row %d: stringRanksParts ranks %q as %q", inst, k, v, other)
					}
				}
				k++
			}
		}
		if k != total {
			t.Fatalf("instance %d: %d rows in parts, total %d", inst, k, total)
		}
	}
	// another column, or too few rows for the ranking: no ranks
	total := 0
	for _, p := range first {
		total += p.len()
	}
	if ranks, _ := dictRanksParts(first, 1, total); ranks != nil {
		t.Fatal("ranks for a column the dictionary does not number")
	}
	if ranks, _ := dictRanksParts(first[:1], 0, first[0].len()); ranks != nil && first[0].len() < rankMinRows {
		t.Fatal("ranks for fewer rows than the ranking takes")
	}
}

// A key of many values makes the dictionary give up: the batch that
// brings too many new values, and every batch after it, gets key groups
// only (the same as stringKeyGroups'), the instances rank the strings
// themselves, and every row still reaches the instance of its key.
func TestKeyDictGivesUp(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	few := keyDictBatches(t, r, 4, keyDictValues)
	batches := few
	for b := range 4 {
		many := make([]any, 1500)
		for i := range many {
			many[i] = fmt.Sprintf("v%05d", r.Intn(3000)+3000*b)
		}
		batches = append(batches, &types.Batch{Cols: []arrow.Array{stringColumn(t, many)}, Len: len(many)})
	}
	batches = append(batches, keyDictBatches(t, r, 2, keyDictValues)...)
	pool := newKeyGroupPool(DefaultKeyGroups, 2)
	for _, b := range batches {
		pool.add(b, []int{0})
	}
	if !pool.dict.failed {
		t.Fatal("the dictionary numbered a key of 12,000 values in batches of 1,500 rows")
	}
	for bi, kb := range pool.batches {
		if bi >= len(few) && kb.ids != nil {
			t.Fatalf("batch %d numbered after the dictionary gave up", bi)
		}
		groups := make([]uint8, kb.batch.Len)
		counts := make([]int32, DefaultKeyGroups)
		stringKeyGroups(kb.batch.Cols[0], DefaultKeyGroups, groups, counts)
		if !slices.Equal(groups, kb.groups) || !slices.Equal(counts, kb.counts) {
			t.Fatalf("batch %d: key groups or counts differ from stringKeyGroups'", bi)
		}
	}
	owner := map[any]int{}
	for inst := range 2 {
		parts, total, err := pool.drainParts(context.Background(), inst)
		if err != nil {
			t.Fatal(err)
		}
		if ranks, _ := dictRanksParts(parts, 0, total); ranks != nil {
			t.Fatalf("instance %d: ranks from a dictionary that gave up", inst)
		}
		for _, p := range parts {
			for _, j := range p.sel {
				v := valueOf(p.b.Cols[0], int(j))
				if o, ok := owner[v]; ok && o != inst {
					t.Fatalf("%v in instances %d and %d", v, o, inst)
				}
				owner[v] = inst
			}
		}
	}
}

// A key column of NULLs only: every row numbered 0, no values, ranks all
// 0.
func TestKeyDictAllNull(t *testing.T) {
	vals := make([]any, 5000)
	pool := newKeyGroupPool(DefaultKeyGroups, 2)
	pool.add(&types.Batch{Cols: []arrow.Array{stringColumn(t, vals)}, Len: len(vals)}, []int{0})
	total := 0
	for inst := range 2 {
		parts, n, err := pool.drainParts(context.Background(), inst)
		if err != nil {
			t.Fatal(err)
		}
		total += n
		if n == 0 {
			continue
		}
		ranks, sorted := dictRanksParts(parts, 0, n)
		if len(ranks) != n || sorted != nil {
			t.Fatalf("instance %d: %d ranks and values %q for %d NULL rows", inst, len(ranks), sorted, n)
		}
		for _, x := range ranks {
			if x != 0 {
				t.Fatalf("instance %d: a NULL row ranked %d", inst, x)
			}
		}
	}
	if total != len(vals) {
		t.Fatalf("%d rows drained, want %d", total, len(vals))
	}
}

// A producer whose cache is new (another producer holds the pool's, or
// the garbage collector dropped it) meets values the dictionary already
// numbers: they are not new values, and the dictionary goes on. It gave
// up when a batch of 8,192 rows held more than 1,024 values its
// producer's cache had not seen, though every one was numbered.
func TestKeyDictKnownValuesPastAFreshCache(t *testing.T) {
	const values = 3000
	batch := func(n int) *types.Batch {
		vals := make([]any, 8192)
		for i := range vals {
			vals[i] = fmt.Sprintf("airport%04d", i%n)
		}
		return &types.Batch{Cols: []arrow.Array{stringColumn(t, vals)}, Len: len(vals)}
	}
	pool := newKeyGroupPool(DefaultKeyGroups, 2)
	// 600 new values a batch (the limit is 1,024), all 3,000 numbered
	for n := 600; n <= values; n += 600 {
		pool.add(batch(n), []int{0})
	}
	if pool.dict.failed || len(pool.dict.values) != values {
		t.Fatalf("failed %v, %d values numbered, want %d", pool.dict.failed, len(pool.dict.values), values)
	}
	// the cache is gone (another producer holds it, or a collection
	// dropped it): this batch's producer starts one
	pool.dict.caches = sync.Pool{}
	pool.add(batch(values), []int{0})
	if pool.dict.failed {
		t.Fatal("the dictionary gave up on a batch of values it already numbered")
	}
	for _, kb := range pool.batches {
		if kb.ids == nil {
			t.Fatal("a batch without numbers")
		}
	}
	for inst := range 2 {
		parts, total, err := pool.drainParts(context.Background(), inst)
		if err != nil {
			t.Fatal(err)
		}
		ranks, sorted := dictRanksParts(parts, 0, total)
		want, wantSorted := stringRanksParts(parts, 0, total)
		if ranks == nil {
			t.Fatalf("instance %d: no ranks from the dictionary", inst)
		}
		// the dictionary's ranks are among every instance's values: the
		// same order as the instance's own
		for i := 1; i < total; i++ {
			if (ranks[i-1] < ranks[i]) != (want[i-1] < want[i]) || (ranks[i-1] == ranks[i]) != (want[i-1] == want[i]) {
				t.Fatalf("instance %d: rows %d and %d ordered apart from their values", inst, i-1, i)
			}
		}
		if sorted[ranks[0]] != wantSorted[want[0]] {
			t.Fatalf("instance %d: row 0 is %q, ranked as %q", inst, wantSorted[want[0]], sorted[ranks[0]])
		}
	}
}
