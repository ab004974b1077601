package csv

import (
	"strconv"
	"strings"
	"sync"

	"github.com/riffle-sql/riffle/engine/connector/internal/columns"
	"github.com/riffle-sql/riffle/engine/types"
)

// Column builders are handed from a reader that has reached the end of
// its stream to the next reader of the same output types. A CSV file read
// in byte ranges (the filesystem connector at a parallelism above 1) gets
// a reader per range, 64 ranges for a large file: each made its builders
// anew (a batch of room per column, a string column's sized at 16 bytes
// a row before its first batch), about 12 MB a query over the 3 M-row
// flights file that the single reader does not allocate. A builder that
// has built its last batch is empty and keeps only its size hints, which
// suit the next range of the same file.

// builderSet is the column builders of one reader: cols, one per output
// type, for batches of maxRows rows; key names both.
type builderSet struct {
	key  string
	cols []columns.Column
}

// builderSets holds the sets of readers that are done: a *sync.Pool of
// *builderSet per key. One pool for every key handed the wrong set back:
// a set of another key in the pool's per-P slot came out first each time
// and went back to that slot, so every later reader missed (the join's
// airports set made 46 of the flights file's 128 range readers of two
// runs at two threads make theirs anew, ~9 MB a run).
var builderSets sync.Map

// builderPool returns key's pool.
func builderPool(key string) *sync.Pool {
	if p, ok := builderSets.Load(key); ok {
		return p.(*sync.Pool)
	}
	p, _ := builderSets.LoadOrStore(key, new(sync.Pool))
	return p.(*sync.Pool)
}

// buildersKey names the output types and batch size of a reader's
// builders; "" when a type's builder is not reused (ARRAY, MAP, MULTISET
// and ROW columns hold child builders).
func buildersKey(ts []*types.DataType, maxRows int) string {
	var b strings.Builder
	b.WriteString(strconv.Itoa(maxRows))
	for _, t := range ts {
		switch t.Root {
		case types.ArrayRoot, types.MapRoot, types.MultisetRoot, types.RowRoot:
			return ""
		}
		b.WriteByte('|')
		b.WriteString(t.String())
	}
	return b.String()
}

// takeBuilders returns a done reader's builders for the types ts and
// batches of maxRows rows, or an empty set with no builders (the reader
// makes them) when none is pooled; nil when the types are not reused.
func takeBuilders(ts []*types.DataType, maxRows int) *builderSet {
	key := buildersKey(ts, maxRows)
	if key == "" {
		return nil
	}
	if s, ok := builderPool(key).Get().(*builderSet); ok {
		return s
	}
	s := &builderSet{key: key, cols: make([]columns.Column, len(ts))}
	for i, t := range ts {
		s.cols[i] = columns.MustNew(t, maxRows)
	}
	return s
}

// giveBuilders hands the reader's builders on (it reads no more): only
// when every one is empty, the state Build leaves.
func (r *Reader) giveBuilders() {
	s := r.builders
	if s == nil {
		return
	}
	r.builders = nil
	for _, c := range s.cols {
		if c.Len() != 0 {
			return
		}
	}
	r.cols, r.parsers = nil, nil
	builderPool(s.key).Put(s)
}
