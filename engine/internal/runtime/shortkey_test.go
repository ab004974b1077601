package runtime

import (
	"math/rand"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// TestShortKey checks that strings of up to 7 bytes get distinct keys
// (trailing zero bytes and the empty string included), equal to
// shortKeyOf's, whether or not 8 bytes can be read past the value's
// start, and that longer strings are refused.
func TestShortKey(t *testing.T) {
	vals := []string{"", "\x00", "A", "A\x00", "\x00A", "AB", "LAS", "LAS\x00\x00\x00\x00", "abcdefg", "abcdefgh", "a long string value", "Z"}
	bld := array.NewStringBuilder(memory.DefaultAllocator)
	for _, v := range vals {
		bld.Append(v)
	}
	offs, data := vector.StringData(bld.NewStringArray())
	seen := map[uint64]string{}
	for i, v := range vals {
		k, ok := shortKey(offs, data, i)
		if ok != (len(v) <= 7) {
			t.Fatalf("%q: ok = %v", v, ok)
		}
		if !ok {
			continue
		}
		if k2, ok2 := shortKeyOf(v); !ok2 || k2 != k {
			t.Errorf("%q: shortKey %x, shortKeyOf %x", v, k, k2)
		}
		if prev, dup := seen[k]; dup {
			t.Errorf("%q and %q share key %x", prev, v, k)
		}
		seen[k] = v
	}
	// the last value ("Z") is read byte by byte: fewer than 8 bytes follow
	if k, _ := shortKey(offs, data, len(vals)-1); k != 1<<56|'Z' {
		t.Errorf("last value key %x", k)
	}
}

// TestStrIndexShortAndLong numbers short and long string keys and NULL,
// finds, removes and evicts them.
func TestStrIndexShortAndLong(t *testing.T) {
	vals := []any{"LAS", "a long key value", nil, "", "LAS", "a long key value", "PHL", nil, ""}
	bb := types.NewBatchBuilder([]*types.DataType{types.StringType()})
	for _, v := range vals {
		if err := bb.Append(types.Insert, []any{v}); err != nil {
			t.Fatal(err)
		}
	}
	b := bb.Build()
	x := newStrIndex(0)
	next := int32(0)
	var got []int32
	for i := range vals {
		g, isNew := x.lookup(b, i, next)
		if isNew {
			next++
		}
		got = append(got, g)
	}
	want := []int32{0, 1, 2, 3, 0, 1, 4, 2, 3}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("groups %v, want %v", got, want)
		}
	}
	if x.count() != 5 {
		t.Fatalf("count %d, want 5", x.count())
	}
	x.remove(b, 1) // the long key
	x.remove(b, 0) // LAS
	if _, ok := x.find(b, 5); ok {
		t.Error("removed long key still found")
	}
	if _, ok := x.find(b, 4); ok {
		t.Error("removed short key still found")
	}
	if g, ok := x.find(b, 6); !ok || g != 4 {
		t.Errorf("PHL: %d %v", g, ok)
	}
	x.evict(func(g int32) bool { return g == 3 || g == 2 })
	if _, ok := x.find(b, 3); ok {
		t.Error("evicted empty string still found")
	}
	if _, ok := x.find(b, 2); ok {
		t.Error("evicted NULL still found")
	}
	if x.count() != 1 {
		t.Errorf("count %d, want 1", x.count())
	}
}

// TestU64TableRemove inserts and removes random keys (many colliding in a
// small table) and checks every lookup against a Go map.
func TestU64TableRemove(t *testing.T) {
	r := rand.New(rand.NewSource(6))
	var tab u64Table
	ref := map[uint64]int64{}
	for step := 0; step < 20000; step++ {
		k := uint64(r.Intn(300)) * 0x100000001
		switch r.Intn(3) {
		case 0, 1:
			p, isNew := tab.slot(k)
			if _, had := ref[k]; had == isNew {
				t.Fatalf("step %d: slot(%x) isNew %v, map has it %v", step, k, isNew, had)
			}
			*p = int64(step)
			ref[k] = int64(step)
		default:
			_, had := ref[k]
			if got := tab.remove(k); got != had {
				t.Fatalf("step %d: remove(%x) = %v, want %v", step, k, got, had)
			}
			delete(ref, k)
		}
		if tab.n != len(ref) {
			t.Fatalf("step %d: %d entries, want %d", step, tab.n, len(ref))
		}
	}
	for k := uint64(0); k < 300; k++ {
		key := k * 0x100000001
		p := tab.find(key)
		v, ok := ref[key]
		if (p != nil) != ok || ok && *p != v {
			t.Fatalf("find(%x) = %v, want %v %v", key, p, v, ok)
		}
	}
}
