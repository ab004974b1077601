package datagen

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/riffle-sql/riffle/engine/connector"
)

// Checkpoints (connector.PositionReader, connector.ResumableSource).
//
// A split's position is what its reader has generated: the rows emitted so
// far (against the split's share of number-of-rows, and the rate
// limiter's position: a resumed reader's token bucket has released them
// already and goes on at the split's rate from the moment it resumes), the
// next offset of every sequence field, and the state of the split's random
// number generator (a PCG), so a resumed reader draws the same values the
// interrupted one would have drawn next, whether or not the generator was
// seeded. Values taken from the clock (random DATE, TIME and timestamps)
// are the time of the resumed run's own rows.

// positionVersion is the version of the position encoding.
const positionVersion = 1

// position is a split's saved position, encoded as JSON.
type position struct {
	Version int    `json:"version"`
	Split   string `json:"split"`
	// Emitted is the number of rows the split has emitted.
	Emitted int64 `json:"emitted"`
	// Sequences maps a sequence column's name to the offset of its next
	// value within the column's whole range (start + offset × step).
	Sequences map[string]int64 `json:"sequences,omitempty"`
	// Random is the random number generator's state (PCG's MarshalBinary).
	Random []byte `json:"random"`
}

// Position returns the split's position after the last batch Next
// returned (JSON: the rows emitted, the sequences' next offsets, the
// random generator's state).
func (r *Reader) Position() ([]byte, error) {
	st, err := r.pcg.MarshalBinary()
	if err != nil {
		return nil, fmt.Errorf("datagen split %s: saving the random generator: %w", r.split, err)
	}
	p := position{Version: positionVersion, Split: r.split.String(), Emitted: r.emitted, Random: st}
	for i, g := range r.gens {
		if g.seq != nil {
			if p.Sequences == nil {
				p.Sequences = map[string]int64{}
			}
			p.Sequences[r.names[i]] = g.seq.cur
		}
	}
	return json.Marshal(p)
}

// OpenAt opens split at pos, a position its reader's Position returned.
// The position must fit the split as the table now defines it: the same
// split of the same parallelism, the same sequence columns with their next
// offsets within the split's part of each range, and no more rows emitted
// than the split's share of number-of-rows; otherwise the error names the
// split and what does not fit.
func (src *Source) OpenAt(ctx context.Context, split connector.Split, spec connector.ReadSpec, pos []byte) (connector.Reader, error) {
	r, err := src.open(split, spec)
	if err != nil {
		return nil, err
	}
	fail := func(format string, args ...any) error {
		return fmt.Errorf("table %s: datagen split %s: cannot resume at the checkpoint's position: %s", src.s.table, r.split, fmt.Sprintf(format, args...))
	}
	var p position
	if err := json.Unmarshal(pos, &p); err != nil {
		return nil, fail("the position is corrupt (%v)", err)
	}
	if p.Version != positionVersion {
		return nil, fail("the position has version %d; this program reads version %d", p.Version, positionVersion)
	}
	if p.Split != r.split.String() {
		return nil, fail("the position is of split %s", p.Split)
	}
	if p.Emitted < 0 || (r.remaining >= 0 && p.Emitted > r.remaining) {
		return nil, fail("%d rows emitted, but the split has %d rows", p.Emitted, r.remaining)
	}
	seen := 0
	for i, g := range r.gens {
		if g.seq == nil {
			continue
		}
		name := r.names[i]
		cur, ok := p.Sequences[name]
		if !ok {
			return nil, fail("the position has no offset of the sequence column '%s'", name)
		}
		lo := g.seq.cur
		if cur < lo || cur > g.seq.lim {
			return nil, fail("the sequence column '%s' is at offset %d, outside the split's part [%d, %d] of its range", name, cur, lo, g.seq.lim)
		}
		g.seq.cur = cur
		seen++
	}
	if seen != len(p.Sequences) {
		return nil, fail("the position has sequence columns the table does not (%d saved, %d now)", len(p.Sequences), seen)
	}
	if err := r.pcg.UnmarshalBinary(p.Random); err != nil {
		return nil, fail("the random generator's state does not decode (%v)", err)
	}
	if r.remaining >= 0 {
		r.remaining -= p.Emitted
	}
	r.emitted = p.Emitted
	return r, nil
}

var (
	_ connector.PositionReader  = (*Reader)(nil)
	_ connector.ResumableSource = (*Source)(nil)
)
