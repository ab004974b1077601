package results

import (
	"hash/maphash"
	"math/bits"
	"slices"
	"sort"

	"github.com/riffle-sql/riffle/engine/types"
)

// chunkRows is the number of physical rows per chunk.
const chunkRows = 8192

// compactMin is the least number of dead rows that triggers a compaction
// (when they also outnumber the live rows).
const compactMin = chunkRows

// chunk holds up to chunkRows consecutive physical rows, one vec per column.
type chunk struct {
	id0   int64 // row id of physical row 0; ids grow with every append
	cols  []vec
	kinds []types.RowKind // changelog chunks only
	live  bitmap          // table chunks only: rows not yet deleted
	nLive int
	prev  []int64 // table index chain: older row id with the same hash, -1 = none
}

func (c *chunk) n() int { return c.cols[0].len() }

func (c *chunk) full() bool { return c.n() >= chunkRows }

func newChunk(specs []colSpec, id0 int64, capacity int) *chunk {
	c := &chunk{id0: id0, cols: make([]vec, len(specs))}
	for i, s := range specs {
		c.cols[i] = s.mk(capacity)
	}
	return c
}

// appendValues appends one row of Go values. A value that does not fit
// its column is stored as NULL and reported.
func (c *chunk) appendValues(values []any) error {
	var firstErr error
	for i, col := range c.cols {
		var v any
		if i < len(values) {
			v = values[i]
		}
		if err := col.appendValue(v); err != nil {
			col.appendNull()
			if firstErr == nil {
				firstErr = err
			}
		}
	}
	return firstErr
}

func (c *chunk) appendFrom(src []vec, j int) {
	for i, col := range c.cols {
		col.appendFrom(src[i], j)
	}
}

// reset empties a staging chunk.
func (c *chunk) reset() {
	for _, col := range c.cols {
		col.reset()
	}
	c.kinds = c.kinds[:0]
}

// clone copies a chunk's rows, kinds and live bitmap: a private copy of
// the chunk still being appended to, for a capture.
func (c *chunk) clone() *chunk {
	d := &chunk{id0: c.id0, cols: make([]vec, len(c.cols)), kinds: slices.Clone(c.kinds), live: slices.Clone(c.live), nLive: c.nLive}
	for i, col := range c.cols {
		d.cols[i] = col.clone()
	}
	return d
}

func (c *chunk) seal() {
	for _, col := range c.cols {
		col.seal()
	}
}

func (c *chunk) bytes() int {
	n := cap(c.kinds) + cap(c.live)*8 + cap(c.prev)*8 + 64
	for _, col := range c.cols {
		n += col.bytes()
	}
	return n
}

func rowsEqual(a []vec, i int, b []vec, j int) bool {
	for k := range a {
		an, bn := a[k].isNull(i), b[k].isNull(j)
		if an != bn {
			return false
		}
		if !an && !a[k].equal(i, b[k], j) {
			return false
		}
	}
	return true
}

// ---- materialised table ------------------------------------------------------

// table is the materialised view of a changelog, following Flink's SQL
// Client (MaterializedCollectStreamResult): +I and +U append a row at the
// end; -U and -D remove one row whose fields all equal the retraction's,
// the most recently added one when there are duplicates, and are ignored
// when none matches; when the row count would exceed max, the oldest row is
// dropped first.
//
// Rows are kept in chunks in arrival order with a live bitmap, so removal
// is O(1); fully dead leading chunks are freed at once and dead rows
// elsewhere are compacted away once they outnumber the live ones. The hash
// index that finds a retracted row is built on the first retraction, so
// insert-only results never pay for it.
type table struct {
	specs     []colSpec
	chunks    []*chunk
	nextID    int64
	live      int
	dead      int // dead rows still held in chunks
	max       int // <= 0: unlimited
	dropped   int64
	unmatched int64
	index     map[uint64]int64 // row hash -> newest row id with that hash; nil until needed
	seed      maphash.Seed
}

func newTable(specs []colSpec, max int) *table {
	return &table{specs: specs, max: max, seed: maphash.MakeSeed()}
}

func (t *table) firstID() int64 {
	if len(t.chunks) == 0 {
		return t.nextID
	}
	return t.chunks[0].id0
}

// tail returns the chunk to append to.
func (t *table) tail() *chunk {
	if n := len(t.chunks); n > 0 && !t.chunks[n-1].full() {
		return t.chunks[n-1]
	}
	if n := len(t.chunks); n > 0 {
		t.chunks[n-1].seal()
	}
	capacity := chunkRows
	if len(t.chunks) == 0 && t.nextID == 0 {
		capacity = 0 // small results stay small; the first chunk grows by appending
	}
	c := newChunk(t.specs, t.nextID, capacity)
	if t.index != nil {
		c.prev = make([]int64, 0, capacity)
	}
	t.chunks = append(t.chunks, c)
	return c
}

// insert appends row j of src (vectors of the same columns).
func (t *table) insert(src []vec, j int) {
	if t.max > 0 {
		for t.live >= t.max {
			t.dropOldest()
		}
	}
	c := t.tail()
	off := c.n()
	c.appendFrom(src, j)
	c.live.set(off)
	c.nLive++
	t.live++
	id := t.nextID
	t.nextID++
	if t.index != nil {
		h := t.hashRow(c.cols, off)
		head, ok := t.index[h]
		if !ok {
			head = -1
		}
		c.prev = append(c.prev, head)
		t.index[h] = id
	}
}

// retract removes the newest live row equal to row j of src.
func (t *table) retract(src []vec, j int) {
	if t.index == nil {
		t.buildIndex()
	}
	h := t.hashRow(src, j)
	head, ok := t.index[h]
	if !ok {
		t.unmatched++
		return
	}
	for id := head; id >= t.firstID(); {
		c, off := t.locate(id)
		if c.live.get(off) && rowsEqual(c.cols, off, src, j) {
			t.kill(c, off, h)
			t.afterDelete()
			return
		}
		id = c.prev[off]
	}
	t.unmatched++
}

func (t *table) hashRow(cols []vec, j int) uint64 {
	var h maphash.Hash
	h.SetSeed(t.seed)
	for _, col := range cols {
		if col.isNull(j) {
			h.WriteByte(0)
			continue
		}
		h.WriteByte(1)
		col.hash(&h, j)
	}
	return h.Sum64()
}

func (t *table) locate(id int64) (*chunk, int) {
	i := sort.Search(len(t.chunks), func(i int) bool { return t.chunks[i].id0 > id }) - 1
	c := t.chunks[i]
	return c, int(id - c.id0)
}

// kill marks a row dead; h is its hash (used to retire an index head).
func (t *table) kill(c *chunk, off int, h uint64) {
	c.live.clear(off)
	c.nLive--
	t.live--
	t.dead++
	if t.index != nil && t.index[h] == c.id0+int64(off) {
		if p := c.prev[off]; p >= t.firstID() {
			t.index[h] = p
		} else {
			delete(t.index, h)
		}
	}
}

// afterDelete frees dead leading chunks and compacts when dead rows dominate.
// A dead tail that still has room is kept: the next row goes there, so a
// result of one row updated over and over (a running COUNT(*)) does not get
// a fresh chunkRows-row chunk for every update.
func (t *table) afterDelete() {
	for len(t.chunks) > 0 && t.chunks[0].nLive == 0 {
		if len(t.chunks) == 1 && !t.chunks[0].full() {
			break
		}
		t.dead -= t.chunks[0].n()
		t.chunks[0] = nil
		t.chunks = t.chunks[1:]
	}
	// Index chains only ever point at older rows, so a chain that reaches
	// below firstID has passed only freed (dead) rows: walks stop there.
	if t.dead >= compactMin && t.dead > t.live {
		t.compact()
	}
}

func (t *table) dropOldest() {
	c := t.chunks[0] // afterDelete keeps chunks[0] non-empty while rows live
	off := c.live.selectNth(0)
	var h uint64
	if t.index != nil {
		h = t.hashRow(c.cols, off)
	}
	t.kill(c, off, h)
	t.dropped++
	t.afterDelete()
}

// compact rewrites the live rows into fresh chunks (new ids) and rebuilds
// the index if there is one.
func (t *table) compact() {
	old := t.chunks
	hadIndex := t.index != nil
	t.chunks, t.index, t.dead, t.live = nil, nil, 0, 0
	for _, c := range old {
		for w, word := range c.live {
			for word != 0 {
				off := w<<6 + bits.TrailingZeros64(word)
				word &= word - 1
				d := t.tail()
				n := d.n()
				d.appendFrom(c.cols, off)
				d.live.set(n)
				d.nLive++
				t.live++
				t.nextID++
			}
		}
	}
	if hadIndex {
		t.buildIndex()
	}
}

func (t *table) buildIndex() {
	t.index = make(map[uint64]int64, t.live)
	for _, c := range t.chunks {
		n := c.n()
		capacity := chunkRows
		if n > capacity {
			capacity = n
		}
		c.prev = make([]int64, n, capacity)
		for off := 0; off < n; off++ {
			c.prev[off] = -1
			if !c.live.get(off) {
				continue
			}
			h := t.hashRow(c.cols, off)
			if head, ok := t.index[h]; ok {
				c.prev[off] = head
			}
			t.index[h] = c.id0 + int64(off)
		}
	}
}

// scan calls fn for the live rows with logical index from..to-1, in order.
func (t *table) scan(from, to int, fn func(c *chunk, off int) bool) {
	if from < 0 {
		from = 0
	}
	if to > t.live {
		to = t.live
	}
	i := 0
	for _, c := range t.chunks {
		if from >= i+c.nLive {
			i += c.nLive
			continue
		}
		start := c.live.selectNth(from - i)
		for off := start; off < c.n() && from < to; off++ {
			if !c.live.get(off) {
				continue
			}
			if !fn(c, off) {
				return
			}
			from++
		}
		i += c.nLive
		if from >= to {
			return
		}
	}
}

func (t *table) bytes() int {
	n := len(t.index) * 24
	for _, c := range t.chunks {
		n += c.bytes()
	}
	return n
}

// ---- changelog ---------------------------------------------------------------

// changelog keeps the latest max changes with their RowKind (Flink's SQL
// Client changelog mode keeps a bounded buffer too). Whole chunks are
// dropped from the front once the rest still hold max rows.
type changelog struct {
	specs  []colSpec
	chunks []*chunk
	held   int   // rows held in chunks (may exceed max by less than a chunk)
	total  int64 // every change ever added
	max    int   // <= 0: unlimited
}

func (l *changelog) add(kind types.RowKind, values []any) (*chunk, int, error) {
	c := l.tail()
	err := c.appendValues(values)
	return l.added(c, kind), c.n() - 1, err
}

// addFrom appends row j of src (vectors of the same columns).
func (l *changelog) addFrom(kind types.RowKind, src []vec, j int) (*chunk, int) {
	c := l.tail()
	c.appendFrom(src, j)
	return l.added(c, kind), c.n() - 1
}

func (l *changelog) tail() *chunk {
	if n := len(l.chunks); n > 0 && !l.chunks[n-1].full() {
		return l.chunks[n-1]
	}
	if n := len(l.chunks); n > 0 {
		l.chunks[n-1].seal()
	}
	capacity := chunkRows
	if l.total == 0 {
		capacity = 0
	}
	c := newChunk(l.specs, l.total, capacity)
	l.chunks = append(l.chunks, c)
	return c
}

func (l *changelog) added(c *chunk, kind types.RowKind) *chunk {
	c.kinds = append(c.kinds, kind)
	l.held++
	l.total++
	if l.max > 0 {
		for len(l.chunks) > 1 && l.held-l.chunks[0].n() >= l.max {
			l.held -= l.chunks[0].n()
			l.chunks[0] = nil
			l.chunks = l.chunks[1:]
		}
	}
	return c
}

// visible is the number of changes shown (the latest max).
func (l *changelog) visible() int {
	if l.max > 0 && l.held > l.max {
		return l.max
	}
	return l.held
}

func (l *changelog) dropped() int64 { return l.total - int64(l.visible()) }

// scan calls fn for visible changes from..to-1 (0 = the oldest visible).
func (l *changelog) scan(from, to int, fn func(c *chunk, off int) bool) {
	skip := l.held - l.visible()
	if from < 0 {
		from = 0
	}
	if v := l.visible(); to > v {
		to = v
	}
	pos := from + skip // index among held rows
	end := to + skip
	i := 0
	for _, c := range l.chunks {
		n := c.n()
		if pos >= i+n {
			i += n
			continue
		}
		for off := pos - i; off < n && pos < end; off++ {
			if !fn(c, off) {
				return
			}
			pos++
		}
		i += n
		if pos >= end {
			return
		}
	}
}

func (l *changelog) bytes() int {
	n := 0
	for _, c := range l.chunks {
		n += c.bytes()
	}
	return n
}
