package nexmark

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/config"
	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
)

var (
	posNames = []string{"event_type", "person", "bid"}
	posTypes = []*types.DataType{types.IntType(),
		types.RowType(types.NewField("id", types.BigIntType()), types.NewField("name", types.StringType()), types.NewField("dateTime", types.TimestampType(3))),
		types.RowType(types.NewField("auction", types.BigIntType()), types.NewField("bidder", types.BigIntType()), types.NewField("price", types.BigIntType()),
			types.NewField("channel", types.StringType()), types.NewField("url", types.StringType()), types.NewField("dateTime", types.TimestampType(3)),
			types.NewField("extra", types.StringType()))}
)

func newSource(t *testing.T, opts map[string]string) *Source {
	t.Helper()
	o := map[string]string{"connector": "nexmark", "events.num": "20000", "scan.parallelism": "2"}
	for k, v := range opts {
		o[k] = v
	}
	src, err := connector.CreateSource(&connector.Context{Table: "nx", Schema: types.NewPhysicalSchema(posNames, posTypes), Options: o, Config: config.New()})
	if err != nil {
		t.Fatal(err)
	}
	return src.(*Source)
}

func readRest(t *testing.T, r connector.Reader) []string {
	t.Helper()
	var out []string
	for {
		b, err := r.Next(context.Background())
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range b.Rows(posTypes) {
			out = append(out, row.String())
		}
	}
}

// TestResumeGenerator: a generator reopened at a position generates the
// events the interrupted one generated after it, on the saved timeline
// (base-time defaults to now; the resumed table's differs).
func TestResumeGenerator(t *testing.T) {
	ctx := context.Background()
	src := newSource(t, nil)
	splits, _ := src.Splits(ctx)
	for _, sp := range splits {
		a, err := src.Open(ctx, sp, connector.ReadSpec{})
		if err != nil {
			t.Fatal(err)
		}
		b, err := a.Next(ctx)
		if err != nil || b.Len != BatchRows {
			t.Fatalf("first batch: %v", err)
		}
		pos, err := a.(connector.PositionReader).Position()
		if err != nil {
			t.Fatal(err)
		}
		after := readRest(t, a)
		if len(after) != 10000-BatchRows {
			t.Fatalf("%s: %d events after the cut", sp, len(after))
		}
		later := newSource(t, map[string]string{"base-time": "2020-01-01 00:00:00"})
		r, err := later.OpenAt(ctx, sp, connector.ReadSpec{}, pos)
		if err != nil {
			t.Fatal(err)
		}
		resumed := readRest(t, r)
		if strings.Join(resumed, "\n") != strings.Join(after, "\n") {
			t.Fatalf("%s: resumed events differ; first %s, want %s", sp, resumed[0], after[0])
		}
	}
}

// TestResumeGeneratorLimit: the events emitted count against a LIMIT
// pushed into the source.
func TestResumeGeneratorLimit(t *testing.T) {
	ctx := context.Background()
	src := newSource(t, map[string]string{"scan.parallelism": "1"})
	spec := connector.ReadSpec{Limit: BatchRows + 10}
	a, _ := src.Open(ctx, Split{0, 1}, spec)
	if _, err := a.Next(ctx); err != nil {
		t.Fatal(err)
	}
	pos, _ := a.(connector.PositionReader).Position()
	r, err := src.OpenAt(ctx, Split{0, 1}, spec, pos)
	if err != nil {
		t.Fatal(err)
	}
	if rest := readRest(t, r); len(rest) != 10 {
		t.Fatalf("%d events after the cut, want 10", len(rest))
	}
}

func TestResumeGeneratorBadPositions(t *testing.T) {
	ctx := context.Background()
	src := newSource(t, nil)
	a, _ := src.Open(ctx, Split{0, 2}, connector.ReadSpec{})
	if _, err := a.Next(ctx); err != nil {
		t.Fatal(err)
	}
	good, _ := a.(connector.PositionReader).Position()
	edit := func(f func(p *position)) []byte {
		var p position
		if err := json.Unmarshal(good, &p); err != nil {
			t.Fatal(err)
		}
		f(&p)
		b, _ := json.Marshal(p)
		return b
	}
	for _, c := range []struct {
		name  string
		src   *Source
		split Split
		pos   []byte
		want  string
	}{
		{"corrupt", src, Split{0, 2}, []byte("\x00\x01"), "table nx: nexmark split nexmark-1-of-2: cannot resume at the checkpoint's position: the position is corrupt"},
		{"version", src, Split{0, 2}, edit(func(p *position) { p.Version = 0 }), "the position has version 0"},
		{"other split", src, Split{1, 2}, good, "nexmark split nexmark-2-of-2: cannot resume at the checkpoint's position: the position is of split nexmark-1-of-2"},
		{"other parallelism", newSource(t, map[string]string{"scan.parallelism": "3"}), Split{0, 3}, good, "the position is of split nexmark-1-of-2"},
		{"other seed", newSource(t, map[string]string{"random.seed": "7"}), Split{0, 2}, good, "the position was taken with 'random.seed' 42, the table now has 7"},
		{"too many events", newSource(t, map[string]string{"events.num": "1000"}), Split{0, 2}, good, "does not fit the split (4096 events generated of 500, 4096 emitted)"},
	} {
		_, err := c.src.OpenAt(ctx, c.split, connector.ReadSpec{}, c.pos)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}
