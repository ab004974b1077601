package pending

import (
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/connector/internal/columns"
	"github.com/riffle-sql/riffle/engine/types"
)

func rowsOf(b *types.Batch, ts []*types.DataType) string {
	var out []string
	for _, r := range b.Rows(ts) {
		out = append(out, r.String())
	}
	return strings.Join(out, " ")
}

func TestRollback(t *testing.T) {
	ts := []*types.DataType{types.IntType(), types.ArrayType(types.StringType())}
	r, err := New(ts, 4)
	if err != nil {
		t.Fatal(err)
	}
	ints := r.Cols[0].(*columns.Fixed[int32])
	list := r.Cols[1].(*columns.List)
	elems := list.Elem.(*columns.Bytes)
	add := func(v int32, s ...string) {
		ints.Append(v)
		for _, e := range s {
			elems.AppendString(e)
		}
		list.Append()
	}
	add(1, "a")
	r.Commit(types.Insert)
	// A half-appended row: the int and an element, no list end.
	ints.Append(99)
	elems.AppendString("junk")
	r.Rollback()
	add(2, "b", "c")
	r.Commit(types.UpdateAfter)
	mark := r.Mark()
	add(3)
	r.Commit(types.Delete)
	add(4, "d")
	r.RollbackTo(mark) // drops 3 (committed after the mark) and 4
	add(5, "e")
	r.Commit(types.Insert)
	if r.Len() != 3 {
		t.Fatalf("Len %d", r.Len())
	}
	b := r.Flush()
	if got := rowsOf(b, ts); got != "+I[1, [a]] +U[2, [b, c]] +I[5, [e]]" {
		t.Fatal(got)
	}
	if b2 := r.Flush(); b2.Len != 0 || b2.Kinds != nil {
		t.Fatalf("second flush %d", b2.Len)
	}
	add(6)
	r.Commit(types.Insert)
	if b3 := r.Flush(); b3.Kinds != nil || rowsOf(b3, ts) != "+I[6, []]" {
		t.Fatal(rowsOf(b3, ts))
	}
}
