package runtime

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
)

// balanceKeyGroups gives the largest group to the first instance, then
// each group to the least loaded instance (the lower index among equals).
func TestBalanceKeyGroups(t *testing.T) {
	rows := []int64{4, 9, 0, 5, 2, 7}
	got := balanceKeyGroups(rows, 2)
	// 9(g1)→0 [9,0]; 7(g5)→1 [9,7]; 5(g3)→1 [9,12]; 4(g0)→0 [13,12];
	// 2(g4)→1 [13,14]; 0(g2)→0
	want := []int{0, 0, 0, 1, 1, 1}
	if !slices.Equal(got, want) {
		t.Fatalf("owners %v, want %v", got, want)
	}
	if got := balanceKeyGroups(rows, 1); !slices.Equal(got, []int{0, 0, 0, 0, 0, 0}) {
		t.Fatalf("one instance: owners %v", got)
	}
}

// skewedBatches makes batches of (k STRING, v INT, seq BIGINT) rows whose
// keys follow a Zipf-like law over keys keys: key i has about 1/(i+1) of
// the rows of key 0 (the flights' origins are as uneven). seq numbers the
// rows.
func skewedBatches(t *testing.T, batches, rows, keys int) ([]*types.Batch, []*types.DataType) {
	t.Helper()
	ts := []*types.DataType{types.StringType(), types.IntType(), types.BigIntType().NotNull()}
	r := rand.New(rand.NewSource(19))
	z := rand.NewZipf(r, 1.1, 1, uint64(keys-1))
	var out []*types.Batch
	seq := int64(0)
	for b := 0; b < batches; b++ {
		bb := types.NewBatchBuilder(ts)
		for i := 0; i < rows; i++ {
			if err := bb.Append(types.Insert, []any{fmt.Sprintf("key%03d", z.Uint64()), int32(r.Intn(100)), seq}); err != nil {
				t.Fatal(err)
			}
			seq++
		}
		out = append(out, bb.Build())
	}
	return out, ts
}

// rowCountingOver is a batch OverAggregate that counts the rows it is
// given into rows[its index].
type rowCountingOver struct {
	*OverAggregate
	mu   *sync.Mutex
	rows *[]int
	idx  int
}

func (o *rowCountingOver) ProcessBatch(in int, b *types.Batch) error {
	o.mu.Lock()
	(*o.rows)[o.idx] += b.Len
	o.mu.Unlock()
	return o.OverAggregate.ProcessBatch(in, b)
}

// runOverJob runs batches through a batch job: a source of two instances
// (instance i emits batches i, i+2, …) → hash exchange on k (balanced by
// keyGroups key groups when > 0) → OVER at parallelism p: ROW_NUMBER and
// a running SUM(v) per k in seq order → collect. It returns the result
// rows as sorted strings and the rows each OVER instance was given.
func runOverJob(t *testing.T, batches []*types.Batch, ts []*types.DataType, p, keyGroups int) ([]string, []int) {
	t.Helper()
	bigint := types.BigIntType().NotNull()
	groups := []opspec.OverGroup{{
		PartitionKeys: []int{0},
		Order:         []opspec.SortKey{{Col: 2}},
		Frame:         opspec.OverFrame{Rows: true, Lower: opspec.FrameBound{Kind: opspec.UnboundedPreceding}, Upper: opspec.FrameBound{Kind: opspec.CurrentRow}},
		Calls: []opspec.OverCall{
			{Func: "ROW_NUMBER", Filter: -1, Type: bigint},
			{Func: "SUM", Args: []int{1}, ArgTypes: []*types.DataType{ts[1]}, Filter: -1, Type: types.IntType()},
		},
	}}
	g := &Graph{}
	src := g.AddSource("skewed", 2, true, func(ctx context.Context, inst, par int, emit func(*types.Batch) error) error {
		for i := inst; i < len(batches); i += par {
			if err := emit(batches[i]); err != nil {
				return err
			}
		}
		return nil
	})
	var mu sync.Mutex
	rows := make([]int, p)
	made := 0
	over := g.AddOperator("OverAggregate", p, func() Operator {
		mu.Lock()
		defer mu.Unlock()
		made++
		return &rowCountingOver{OverAggregate: &OverAggregate{Groups: groups, InTypes: ts}, mu: &mu, rows: &rows, idx: made - 1}
	}, Edge{From: src, Part: opspec.Hash, Keys: []int{0}, KeyGroups: keyGroups})
	var out []string
	for _, b := range collectBatchJob(t, g, over) {
		for i := 0; i < b.Len; i++ {
			var sb strings.Builder
			for c, col := range b.Cols {
				if c > 0 {
					sb.WriteByte('|')
				}
				fmt.Fprint(&sb, types.ValueAt(col, i, nil))
			}
			out = append(out, sb.String())
		}
	}
	sort.Strings(out)
	return out, rows
}

// A batch OVER at parallelism 2 behind a balanced hash exchange gives the
// rows of parallelism 1 (every key's rows in one instance: ROW_NUMBER
// and the running SUM restart nowhere), and the instances' rows differ by
// at most the largest key group's rows (the bound of largest-first
// assignment), however the per-process hash seed places the keys.
func TestBalancedExchangeOverSameRows(t *testing.T) {
	batches, ts := skewedBatches(t, 24, 500, 60)
	want, _ := runOverJob(t, batches, ts, 1, 0)
	if len(want) != 24*500 {
		t.Fatalf("%d rows at parallelism 1, want %d", len(want), 24*500)
	}
	plain, _ := runOverJob(t, batches, ts, 2, 0)
	if !slices.Equal(plain, want) {
		t.Fatal("plain hash exchange at parallelism 2: rows differ from parallelism 1")
	}
	for _, p := range []int{2, 3} {
		got, rows := runOverJob(t, batches, ts, p, DefaultKeyGroups)
		if !slices.Equal(got, want) {
			for i := range min(len(got), len(want)) {
				if got[i] != want[i] {
					t.Fatalf("parallelism %d: row %d is %s, want %s", p, i, got[i], want[i])
				}
			}
			t.Fatalf("parallelism %d: %d rows, want %d", p, len(got), len(want))
		}
		// the largest key group holds at least the largest key's rows
		pool := newKeyGroupPool(DefaultKeyGroups, p)
		for _, b := range batches {
			pool.add(b, []int{0})
		}
		largest := slices.Max(pool.groupRows)
		total := int64(len(want))
		if hi := int64(slices.Max(rows)); hi > (total+int64(p)-1)/int64(p)+largest {
			t.Fatalf("parallelism %d: instance rows %v, total %d, largest key group %d: over the balance bound", p, rows, total, largest)
		}
		t.Logf("parallelism %d: rows per instance %v (largest key group %d of %d)", p, rows, largest, total)
	}
}

// Each instance drains only its key groups' rows, every key's rows in the
// producers' order, and a batch leaves the pool once every instance took
// its rows.
func TestKeyGroupPoolDrain(t *testing.T) {
	batches, _ := skewedBatches(t, 6, 300, 40)
	pool := newKeyGroupPool(16, 2)
	for _, b := range batches {
		pool.add(b, []int{0})
	}
	owner := pool.owners()
	keyOwner := map[string]int{}
	var seqs [2][]int64
	keySeqs := map[string][]int64{}
	for inst := range 2 {
		b, err := pool.drain(context.Background(), inst)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < b.Len; i++ {
			k := types.ValueAt(b.Cols[0], i, nil).(string)
			if o, ok := keyOwner[k]; ok && o != inst {
				t.Fatalf("key %s in instances %d and %d", k, o, inst)
			}
			keyOwner[k] = inst
			seq := types.ValueAt(b.Cols[2], i, nil).(int64)
			seqs[inst] = append(seqs[inst], seq)
			keySeqs[k] = append(keySeqs[k], seq)
		}
	}
	if n := len(seqs[0]) + len(seqs[1]); n != 6*300 {
		t.Fatalf("drained %d rows, want %d", n, 6*300)
	}
	for inst := range 2 {
		var load int64
		for g, o := range owner {
			if o == inst {
				load += pool.groupRows[g]
			}
		}
		if load != int64(len(seqs[inst])) {
			t.Fatalf("instance %d drained %d rows, its key groups hold %d", inst, len(seqs[inst]), load)
		}
	}
	for k, seqs := range keySeqs {
		if !slices.IsSorted(seqs) {
			t.Fatalf("key %s: rows out of the producers' order: %v", k, seqs)
		}
	}
	for i, kb := range pool.batches {
		if kb.batch != nil || kb.groups != nil {
			t.Fatalf("batch %d still held after both instances drained", i)
		}
	}
}

// originBatches makes batches of 8192 (origin STRING, delay INT) rows over
// 229 origins whose shares fall as 1/(i+10): the largest 3 % of the rows,
// about the shape of the flights' origins (229, the largest 5.5 %).
func originBatches(b *testing.B, rows int) []*types.Batch {
	ts := []*types.DataType{types.StringType(), types.IntType()}
	r := rand.New(rand.NewSource(7))
	cum := make([]float64, 229)
	sum := 0.0
	for i := range cum {
		sum += 1 / float64(i+10)
		cum[i] = sum
	}
	var out []*types.Batch
	for done := 0; done < rows; {
		n := min(8192, rows-done)
		bb := types.NewBatchBuilder(ts)
		for i := 0; i < n; i++ {
			k, _ := slices.BinarySearch(cum, r.Float64()*sum)
			if err := bb.Append(types.Insert, []any{fmt.Sprintf("O%03d", k), int32(r.Intn(1500))}); err != nil {
				b.Fatal(err)
			}
		}
		out = append(out, bb.Build())
		done += n
	}
	return out
}

// BenchmarkOverExchange is the exchange into a batch OVER at parallelism
// 2, per 1 M rows: "hash" partitions every batch by hash modulo 2 and
// concatenates each instance's parts (what the OVER did before key
// groups), "balanced" adds every batch to a key-group pool and drains
// both instances. larger-% is the larger instance's share of the rows
// (50 is even); it depends on the per-process hash seed for "hash".
//
//	go test -tags migrated_fynedo ./internal/runtime/ -run '^$' -bench OverExchange -count 5
func BenchmarkOverExchange(b *testing.B) {
	batches := originBatches(b, 1<<20)
	b.Run("hash", func(b *testing.B) {
		var larger int
		for b.Loop() {
			var parts [2][]*types.Batch
			for _, bt := range batches {
				for k, p := range PartitionBatch(bt, []int{0}, 2) {
					if p != nil {
						parts[k] = append(parts[k], p)
					}
				}
			}
			n0 := ConcatBatches(parts[0], 2).Len
			n1 := ConcatBatches(parts[1], 2).Len
			larger = max(n0, n1) * 100 / (n0 + n1)
		}
		b.ReportMetric(float64(larger), "larger-%")
	})
	b.Run("balanced", func(b *testing.B) {
		var larger int
		for b.Loop() {
			pool := newKeyGroupPool(DefaultKeyGroups, 2)
			for _, bt := range batches {
				pool.add(bt, []int{0})
			}
			var n [2]int
			for inst := range 2 {
				out, err := pool.drain(context.Background(), inst)
				if err != nil {
					b.Fatal(err)
				}
				n[inst] = out.Len
			}
			larger = max(n[0], n[1]) * 100 / (n[0] + n[1])
		}
		b.ReportMetric(float64(larger), "larger-%")
	})
}

// BenchmarkKeyGroupPool is a balanced exchange's two halves per 1 M
// (origin, delay) rows: "add" (the producers: each row's key group) and
// "drain" (both consumer instances select their rows, not gathered).
//
//	go test -tags migrated_fynedo ./internal/runtime/ -run '^$' -bench KeyGroupPool -count 5
func BenchmarkKeyGroupPool(b *testing.B) {
	batches := originBatches(b, 1<<20)
	b.Run("add", func(b *testing.B) {
		for b.Loop() {
			pool := newKeyGroupPool(DefaultKeyGroups, 2)
			for _, bt := range batches {
				pool.add(bt, []int{0})
			}
		}
	})
	b.Run("drain", func(b *testing.B) {
		pool := newKeyGroupPool(DefaultKeyGroups, 2)
		for _, bt := range batches {
			pool.add(bt, []int{0})
		}
		type held struct {
			batch  *types.Batch
			groups []uint8
			counts []int32
		}
		kept := make([]held, len(pool.batches))
		for i, kb := range pool.batches {
			kept[i] = held{kb.batch, kb.groups, kb.counts}
		}
		for b.Loop() {
			for i, kb := range pool.batches {
				kb.batch, kb.groups, kb.counts = kept[i].batch, kept[i].groups, kept[i].counts
				kb.left.Store(2)
			}
			for inst := range 2 {
				if _, _, err := pool.drainParts(context.Background(), inst); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}

// stringColumn builds a STRING column of vals; nil is NULL.
func stringColumn(t *testing.T, vals []any) arrow.Array {
	t.Helper()
	bb := types.NewBatchBuilder([]*types.DataType{types.StringType()})
	for _, v := range vals {
		if err := bb.Append(types.Insert, []any{v}); err != nil {
			t.Fatal(err)
		}
	}
	return bb.Build().Cols[0]
}

// A string key's group depends on its value only: the same value in the
// middle of a column, at the end of its data (fewer than 8 bytes left to
// read), in a sliced column, short (up to 7 bytes) or long, gets one
// group; every NULL gets one group; groups lie below the pool's count and
// the counts are the rows per group. 229 three-letter codes spread over
// most of 128 groups.
func TestStringKeyGroups(t *testing.T) {
	vals := []any{"ABQ", "", "SFO", nil, "seven77", "eight888", "a much longer airport name", "ABQ", nil, "SFO", "X"}
	tail := []any{"X", "eight888", "seven77", "ABQ", "", "SFO", "a much longer airport name"}
	cols := []arrow.Array{stringColumn(t, vals), stringColumn(t, tail), array.NewSlice(stringColumn(t, append([]any{"pad", nil}, vals...)), 2, int64(len(vals)+2))}
	for _, n := range []uint64{1, 2, 16, 128, 256} {
		groupOf := map[any]uint8{}
		for ci, col := range cols {
			groups := make([]uint8, col.Len())
			counts := make([]int32, n)
			stringKeyGroups(col, n, groups, counts)
			want := make([]int32, n)
			for i, g := range groups {
				if uint64(g) >= n {
					t.Fatalf("%d groups: row %d in group %d", n, i, g)
				}
				want[g]++
				var v any
				if !col.IsNull(i) {
					v = col.(*array.String).Value(i)
				}
				if first, ok := groupOf[v]; ok && first != g {
					t.Fatalf("%d groups, column %d: %q in group %d and %d", n, ci, v, first, g)
				}
				groupOf[v] = g
			}
			if !slices.Equal(counts, want) {
				t.Fatalf("%d groups, column %d: counts %v, rows per group %v", n, ci, counts, want)
			}
		}
	}
	var codes []any
	for i := range 229 {
		codes = append(codes, fmt.Sprintf("%c%c%c", 'A'+i%26, 'A'+i/26%26, 'K'+i%7))
	}
	groups := make([]uint8, len(codes))
	stringKeyGroups(stringColumn(t, codes), DefaultKeyGroups, groups, make([]int32, DefaultKeyGroups))
	used := map[uint8]bool{}
	for _, g := range groups {
		used[g] = true
	}
	if len(used) < DefaultKeyGroups/2 {
		t.Fatalf("229 codes in %d of %d key groups", len(used), DefaultKeyGroups)
	}
}

// A pool whose key is one string column and a pool whose key is two
// columns (hashed) give every instance whole keys and all the rows.
func TestKeyGroupPoolStringKeyAndHashedKeys(t *testing.T) {
	batches, _ := skewedBatches(t, 5, 200, 30)
	for _, keys := range [][]int{{0}, {0, 1}} {
		pool := newKeyGroupPool(DefaultKeyGroups, 2)
		for _, b := range batches {
			pool.add(b, keys)
		}
		seen := map[string]int{}
		rows := 0
		for inst := range 2 {
			b, err := pool.drain(context.Background(), inst)
			if err != nil {
				t.Fatal(err)
			}
			if b == nil {
				continue
			}
			rows += b.Len
			for i := range b.Len {
				k := fmt.Sprint(types.ValueAt(b.Cols[keys[0]], i, nil), types.ValueAt(b.Cols[keys[len(keys)-1]], i, nil))
				if o, ok := seen[k]; ok && o != inst {
					t.Fatalf("keys %v: key %s in instances %d and %d", keys, k, o, inst)
				}
				seen[k] = inst
			}
		}
		if rows != 5*200 {
			t.Fatalf("keys %v: drained %d rows, want %d", keys, rows, 5*200)
		}
	}
}

// BenchmarkStringRanksSelected is the OVER's string ranking per 1 Mi
// (origin, delay) rows: "whole" over the producers' batches (one
// instance), "selected" over the rows each of two instances selects from
// a key-group pool (both instances, one after the other): the cost of
// reading the strings through a selection.
//
//	go test -tags migrated_fynedo ./internal/runtime/ -run '^$' -bench StringRanksSelected -count 5
func BenchmarkStringRanksSelected(b *testing.B) {
	batches := originBatches(b, 1<<20)
	whole, total := wholeBatches(batches)
	b.Run("whole", func(b *testing.B) {
		for b.Loop() {
			stringRanksParts(whole, 0, total)
		}
	})
	pool := newKeyGroupPool(DefaultKeyGroups, 2)
	for _, bt := range batches {
		pool.add(bt, []int{0})
	}
	var parts [2][]selectedRows
	var n [2]int
	for inst := range 2 {
		var err error
		if parts[inst], n[inst], err = pool.drainParts(context.Background(), inst); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("selected", func(b *testing.B) {
		for b.Loop() {
			stringRanksParts(parts[0], 0, n[0])
			stringRanksParts(parts[1], 0, n[1])
		}
	})
}
