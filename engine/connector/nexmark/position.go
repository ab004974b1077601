package nexmark

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/riffle-sql/riffle/engine/connector"
)

// Checkpoints (connector.PositionReader, connector.ResumableSource).
//
// A generator's position is the number of events it has generated, the
// state of its random number generator, the base time of its timeline and
// the events its reader has emitted (for a LIMIT pushed into the source). A
// generator resumed there generates the events the interrupted one would
// have generated next, with the same ids, prices, timestamps and extra
// padding, even when 'base-time' was left to default to the time the table
// was first read: the saved base time wins. With max-emit-speed false, the
// resumed generator's next event is due at once and the following ones at
// the rate.

// positionVersion is the version of the position encoding (JSON).
const positionVersion = 1

// position is a generator's saved position.
type position struct {
	Version int    `json:"version"`
	Split   string `json:"split"`
	// Events is the number of events generated (Generator.Count).
	Events int64 `json:"events"`
	// Random is the state of the generator's java.util.Random.
	Random uint64 `json:"random"`
	// BaseTime is the event time of the timeline's first event (epoch ms).
	BaseTime int64 `json:"base_time"`
	// Seed is 'random.seed', which the channels' URLs derive from.
	Seed int64 `json:"seed"`
	// Emitted is the number of events the reader returned.
	Emitted int64 `json:"emitted"`
}

// Position returns the generator's position after the last batch Next
// returned (JSON).
func (r *Reader) Position() ([]byte, error) {
	return json.Marshal(position{Version: positionVersion, Split: r.split.String(), Events: r.gen.count,
		Random: r.gen.rnd.seed, BaseTime: r.gen.c.BaseTime, Seed: r.gen.c.Seed, Emitted: r.emitted})
}

// OpenAt opens split at pos, a position its reader's Position returned. A
// position that does not decode, is of another split, was taken with
// another 'random.seed', or has more events than the split generates is an
// error naming the split.
func (s *Source) OpenAt(ctx context.Context, split connector.Split, spec connector.ReadSpec, pos []byte) (connector.Reader, error) {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("table %s: nexmark split %s: cannot resume at the checkpoint's position: %s", s.table, split, fmt.Sprintf(format, args...))
	}
	var p position
	if err := json.Unmarshal(pos, &p); err != nil {
		return nil, fail("the position is corrupt (%v)", err)
	}
	if p.Version != positionVersion {
		return nil, fail("the position has version %d; this program reads version %d", p.Version, positionVersion)
	}
	if p.Split != split.String() {
		return nil, fail("the position is of split %s", p.Split)
	}
	if p.Seed != s.c.Seed {
		return nil, fail("the position was taken with 'random.seed' %d, the table now has %d", p.Seed, s.c.Seed)
	}
	c := s.c
	c.BaseTime = p.BaseTime
	r, err := s.open(split, spec, c)
	if err != nil {
		return nil, err
	}
	if p.Events < 0 || p.Events > r.gen.maxEvents || p.Emitted < 0 || p.Emitted > p.Events || p.Random > jrMask {
		return nil, fail("the position is corrupt or does not fit the split (%d events generated of %d, %d emitted)", p.Events, r.gen.maxEvents, p.Emitted)
	}
	r.gen.count, r.gen.rnd.seed, r.emitted = p.Events, p.Random, p.Emitted
	return r, nil
}

var (
	_ connector.PositionReader  = (*Reader)(nil)
	_ connector.ResumableSource = (*Source)(nil)
)
