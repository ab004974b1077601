package datagen

import (
	"context"
	crand "crypto/rand"
	"encoding/binary"
	"fmt"
	"io"
	"math/rand/v2"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/connector/internal/columns"
	"github.com/riffle-sql/riffle/engine/types"
)

// MaxBatchRows bounds the rows of one generated batch.
const MaxBatchRows = 8192

func init() { connector.Register(Factory{}) }

// Factory creates datagen sources.
type Factory struct{}

// Identifier returns "datagen".
func (Factory) Identifier() string { return Identifier }

// ProjectionPushdown is false: like Flink's DataGenTableSource (which
// supports limit pushdown only), a datagen scan generates every physical
// column and the plan projects above it.
func (Factory) ProjectionPushdown() bool { return false }

// Options lists the connector's options; per-field options are listed with
// '#' standing for a field path, as in Flink's documentation.
func (Factory) Options() []connector.Option {
	return []connector.Option{
		{Key: OptRowsPerSecond, Default: "10000", Kind: "int", Description: "Rows per second to control the emit rate."},
		{Key: OptNumberOfRows, Kind: "int", Description: "Total number of rows to emit. By default, the table is unbounded (batch mode needs this option, even with sequence fields)."},
		{Key: OptScanParallelism, Kind: "int", Description: "Number of parallel generator splits."},
		{Key: "fields.#.kind", Default: "random", Kind: "enum", Values: []string{KindRandom, KindSequence}, Description: "Generator of this '#' field: 'sequence' or 'random'."},
		{Key: "fields.#.min", Kind: "string", Description: "Minimum value of the random generator, for numeric types."},
		{Key: "fields.#.max", Kind: "string", Description: "Maximum value of the random generator, for numeric types."},
		{Key: "fields.#.max-past", Default: "0", Kind: "duration", Description: "Maximum past of the timestamp random generator."},
		{Key: "fields.#.length", Default: "100", Kind: "int", Description: "Length of strings and bytes, or size of arrays, maps and multisets (3)."},
		{Key: "fields.#.var-len", Default: "false", Kind: "bool", Description: "Generate variable-length strings or bytes."},
		{Key: "fields.#.start", Kind: "string", Description: "Start value of the sequence generator."},
		{Key: "fields.#.end", Kind: "string", Description: "End value of the sequence generator."},
		{Key: "fields.#.null-rate", Default: "0", Kind: "float", Description: "The proportion of null values."},
	}
}

// CreateSource validates the options and creates the generator source.
func (Factory) CreateSource(ctx *connector.Context) (connector.Source, error) {
	s, err := parseSpec(ctx)
	if err != nil {
		return nil, err
	}
	src := &Source{s: s, clock: realClock{}}
	// Build once to validate every generator.
	if _, err := src.generators(); err != nil {
		return nil, err
	}
	return src, nil
}

// Source generates rows; it has one split per degree of parallelism.
type Source struct {
	s     *spec
	clock clock
	seed  uint64 // tests: a fixed seed (0 = random)
}

func (src *Source) generators() ([]*field, error) {
	b := &builder{s: src.s}
	var out []*field
	for i, n := range src.s.names {
		f, err := b.build(n, src.s.types[i], true)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

// DeclaredBounded reports number-of-rows: Flink's DataGenTableSource is
// bounded to the planner only with it (a source of sequence fields alone
// ends by itself, but batch mode refuses it as unbounded, as Flink does).
func (src *Source) DeclaredBounded() bool { return src.s.rows >= 0 }

// Bounded reports whether the source ends by itself: with number-of-rows
// or a sequence field (the first exhausted sequence ends it).
func (src *Source) Bounded() bool {
	if src.s.rows >= 0 {
		return true
	}
	gens, _ := src.generators()
	for _, g := range gens {
		if g.seq != nil {
			return true
		}
	}
	return false
}

// ChangelogMode is insert-only.
func (src *Source) ChangelogMode() types.ChangelogMode { return types.InsertOnlyMode }

// Split is one generator instance: part Index of Count.
type Split struct{ Index, Count int }

// String names the split.
func (s Split) String() string { return fmt.Sprintf("datagen-%d-of-%d", s.Index+1, s.Count) }

// Splits returns one split per degree of parallelism (scan.parallelism,
// else parallelism.default).
func (src *Source) Splits(ctx context.Context) ([]connector.Split, error) {
	n := src.s.parallelism
	out := make([]connector.Split, n)
	for i := range out {
		out[i] = Split{Index: i, Count: n}
	}
	return out, nil
}

// Open starts generating one split. spec.Limit > 0 ends the split after
// that many rows (0, the zero value, means no limit).
func (src *Source) Open(ctx context.Context, split connector.Split, spec connector.ReadSpec) (connector.Reader, error) {
	r, err := src.open(split, spec)
	if err != nil {
		return nil, err
	}
	return r, nil
}

// open builds the reader of a split at its start.
func (src *Source) open(split connector.Split, spec connector.ReadSpec) (*Reader, error) {
	sp, ok := split.(Split)
	if !ok {
		return nil, fmt.Errorf("datagen: unexpected split %T", split)
	}
	gens, err := src.generators()
	if err != nil {
		return nil, err
	}
	s := src.s
	remaining := int64(-1)
	if s.rows >= 0 {
		_, remaining = share(s.rows, sp.Index, sp.Count)
	}
	for _, g := range gens {
		if g.seq != nil {
			g.seq.restrict(sp.Index, sp.Count)
			if remaining < 0 || g.seq.remaining() < remaining {
				remaining = g.seq.remaining()
			}
		}
	}
	if spec.Limit > 0 && (remaining < 0 || spec.Limit < remaining) {
		remaining = spec.Limit
	}
	_, rate := share(s.rate, sp.Index, sp.Count)
	if rate < 1 {
		rate = 1
	}
	cols := spec.Columns
	if cols == nil {
		for i := range s.types {
			cols = append(cols, i)
		}
	}
	if len(spec.Metadata) > 0 {
		return nil, fmt.Errorf("table %s: datagen has no metadata columns", s.table)
	}
	seed := src.seed
	if seed == 0 {
		var b [8]byte
		_, _ = crand.Read(b[:])
		seed = binary.LittleEndian.Uint64(b[:]) | 1
	}
	pcg := rand.NewPCG(seed, uint64(sp.Index)+1)
	r := &Reader{split: sp, gens: gens, names: s.names, types: s.types, out: cols, remaining: remaining, rate: rate, clock: src.clock,
		pcg: pcg, rnd: rand.New(pcg)}
	r.batch = int(rate / 20)
	if r.batch < 1 {
		r.batch = 1
	}
	if r.batch > MaxBatchRows {
		r.batch = MaxBatchRows
	}
	r.cols = make([]columns.Column, len(gens))
	for i, t := range s.types {
		r.cols[i] = columns.MustNew(t, r.batch)
	}
	return r, nil
}

// clock is the time source of the rate limiter (replaced in tests).
type clock interface {
	Now() time.Time
	// Sleep waits for d or until ctx is done (then it returns ctx.Err()).
	Sleep(ctx context.Context, d time.Duration) error
}

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

func (realClock) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Reader generates the batches of one split.
type Reader struct {
	split     Split
	gens      []*field
	names     []string
	types     []*types.DataType
	out       []int
	cols      []columns.Column
	remaining int64 // -1: unbounded
	rate      int64
	batch     int
	clock     clock
	pcg       *rand.PCG // rnd's state, saved by Position
	rnd       *rand.Rand

	started bool
	start   time.Time
	emitted int64
	closed  bool
}

// Next waits for the rate limiter and returns the next batch; io.EOF once
// a bounded split is done; ctx.Err() promptly after cancellation.
func (r *Reader) Next(ctx context.Context) (*types.Batch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if r.closed || r.remaining == 0 {
		return nil, io.EOF
	}
	n := int64(r.batch)
	if r.remaining > 0 && r.remaining < n {
		n = r.remaining
	}
	now := r.clock.Now()
	if !r.started {
		// A resumed reader's bucket has already released the rows emitted
		// before the checkpoint: it goes on at the rate from now.
		r.started, r.start = true, now.Add(-time.Duration(float64(r.emitted)/float64(r.rate)*float64(time.Second)))
	}
	// Token bucket: row k is due at start + k/rate. Wait until the whole
	// batch is due; after a stall, allow at most one batch of catch-up.
	elapsed := now.Sub(r.start)
	allowed := int64(float64(elapsed) / float64(time.Second) * float64(r.rate))
	if allowed-r.emitted > 2*int64(r.batch) {
		r.start = now.Add(-time.Duration(float64(r.emitted+int64(r.batch)) / float64(r.rate) * float64(time.Second)))
		elapsed = now.Sub(r.start)
	}
	due := time.Duration(float64(r.emitted+n) / float64(r.rate) * float64(time.Second))
	if wait := due - elapsed; wait > 0 {
		if err := r.clock.Sleep(ctx, wait); err != nil {
			return nil, err
		}
		now = r.clock.Now()
	}
	g := &genCtx{r: r.rnd, now: now}
	for i := int64(0); i < n; i++ {
		for c, f := range r.gens {
			f.emit(g, r.cols[c])
		}
	}
	arrs := make([]arrow.Array, len(r.cols))
	for c, col := range r.cols {
		arrs[c] = col.Build()
	}
	out := make([]arrow.Array, len(r.out))
	for i, c := range r.out {
		out[i] = arrs[c]
	}
	r.emitted += n
	if r.remaining > 0 {
		r.remaining -= n
	}
	return types.NewBatch(out, nil, int(n)), nil
}

// Close stops the reader.
func (r *Reader) Close() error {
	r.closed = true
	return nil
}
