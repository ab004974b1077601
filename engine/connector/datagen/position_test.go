package datagen

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
)

// readRest reads r to its end and returns the rows as strings.
func readRest(t *testing.T, r connector.Reader, ts []*types.DataType) []string {
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
		for _, row := range b.Rows(ts) {
			out = append(out, row.String())
		}
	}
}

var (
	posNames = []string{"id", "n", "s", "d", "arr"}
	posTypes = []*types.DataType{types.BigIntType(), types.IntType(), types.VarCharType(8), types.DoubleType(), types.ArrayType(types.IntType())}
	posOpts  = map[string]string{"rows-per-second": "200", "number-of-rows": "1000", "scan.parallelism": "2",
		"fields.id.kind": "sequence", "fields.id.start": "1", "fields.id.end": "5000",
		"fields.n.min": "0", "fields.n.max": "99", "fields.n.null-rate": "0.2", "fields.s.var-len": "true"}
)

// TestResumeContinuesTheSplit: a reader reopened at a position generates
// what the interrupted reader generated after it (sequence, row count and
// the random stream), for each split of the source.
func TestResumeContinuesTheSplit(t *testing.T) {
	ctx := context.Background()
	for _, seeded := range []bool{true, false} {
		src, _ := newSource(t, posOpts, posNames, posTypes)
		if !seeded {
			src.seed = 0 // crypto-seeded, as outside tests
		}
		splits, _ := src.Splits(ctx)
		for _, sp := range splits {
			a, err := src.Open(ctx, sp, connector.ReadSpec{Limit: -1})
			if err != nil {
				t.Fatal(err)
			}
			start, err := a.(connector.PositionReader).Position()
			if err != nil {
				t.Fatal(err)
			}
			var before []string
			for k := 0; k < 3; k++ { // 3 batches of 5 rows (100 rows/s per split, 50 ms each)
				b, err := a.Next(ctx)
				if err != nil {
					t.Fatal(err)
				}
				for _, row := range b.Rows(posTypes) {
					before = append(before, row.String())
				}
			}
			pos, err := a.(connector.PositionReader).Position()
			if err != nil {
				t.Fatal(err)
			}
			after := readRest(t, a, posTypes)
			_ = a.Close()
			if len(before) != 15 || len(before)+len(after) != 500 {
				t.Fatalf("%s: %d rows before the cut, %d after; want 15 and 485", sp, len(before), len(after))
			}
			src2, _ := newSource(t, posOpts, posNames, posTypes)
			src2.seed = 7 // a different seed: the saved state wins
			b, err := src2.OpenAt(ctx, sp, connector.ReadSpec{Limit: -1}, pos)
			if err != nil {
				t.Fatal(err)
			}
			resumed := readRest(t, b, posTypes)
			if strings.Join(resumed, "\n") != strings.Join(after, "\n") {
				t.Fatalf("%s (seeded %v): resumed rows differ from the rows after the cut:\n%v\nwant\n%v", sp, seeded, head(resumed), head(after))
			}
			// The sequence goes on right after the cut: split 1 holds 1..2500.
			first := sp.(Split).Index*2500 + 16
			if !strings.HasPrefix(resumed[0], "+I["+itoa(first)+", ") {
				t.Fatalf("%s: first resumed row %s, want id %d", sp, resumed[0], first)
			}
			// At the split's start, the position resumes the whole split.
			c, err := src2.OpenAt(ctx, sp, connector.ReadSpec{Limit: -1}, start)
			if err != nil {
				t.Fatal(err)
			}
			whole := readRest(t, c, posTypes)
			if strings.Join(whole, "\n") != strings.Join(append(before, after...), "\n") {
				t.Fatalf("%s: resuming at the start gives other rows", sp)
			}
			// At the end, nothing is left.
			end, _ := a.(connector.PositionReader).Position()
			d, err := src2.OpenAt(ctx, sp, connector.ReadSpec{Limit: -1}, end)
			if err != nil {
				t.Fatal(err)
			}
			if rest := readRest(t, d, posTypes); len(rest) != 0 {
				t.Fatalf("%s: %d rows after the end", sp, len(rest))
			}
		}
	}
}

func head(rows []string) []string {
	if len(rows) > 3 {
		return rows[:3]
	}
	return rows
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestResumeRateLimiter: a resumed reader does not burst to catch up on the
// rows emitted before the checkpoint, nor wait for them: its first batch is
// due one batch interval after it starts.
func TestResumeRateLimiter(t *testing.T) {
	ctx := context.Background()
	src, _ := newSource(t, map[string]string{"rows-per-second": "100", "number-of-rows": "1000"}, []string{"a"}, []*types.DataType{types.IntType()})
	r, _ := src.Open(ctx, Split{0, 1}, connector.ReadSpec{Limit: -1})
	for k := 0; k < 10; k++ {
		if _, err := r.Next(ctx); err != nil {
			t.Fatal(err)
		}
	}
	pos, _ := r.(connector.PositionReader).Position()
	src2, clk := newSource(t, map[string]string{"rows-per-second": "100", "number-of-rows": "1000"}, []string{"a"}, []*types.DataType{types.IntType()})
	b, err := src2.OpenAt(ctx, Split{0, 1}, connector.ReadSpec{Limit: -1}, pos)
	if err != nil {
		t.Fatal(err)
	}
	t0 := clk.t
	batch, err := b.Next(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if batch.Len != 5 {
		t.Fatalf("batch of %d rows, want 5", batch.Len)
	}
	if waited := clk.t.Sub(t0); waited != 50_000_000 {
		t.Fatalf("the resumed reader waited %v for its first batch, want 50ms", waited)
	}
}

func TestResumeBadPositions(t *testing.T) {
	ctx := context.Background()
	src, _ := newSource(t, posOpts, posNames, posTypes)
	a, _ := src.Open(ctx, Split{0, 2}, connector.ReadSpec{Limit: -1})
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
		split Split
		pos   []byte
		want  string
	}{
		{"corrupt", Split{0, 2}, []byte("{not json"), "datagen split datagen-1-of-2: cannot resume at the checkpoint's position: the position is corrupt"},
		{"empty", Split{0, 2}, nil, "the position is corrupt"},
		{"version", Split{0, 2}, edit(func(p *position) { p.Version = 9 }), "the position has version 9; this program reads version 1"},
		{"other split", Split{1, 2}, good, "datagen split datagen-2-of-2: cannot resume at the checkpoint's position: the position is of split datagen-1-of-2"},
		{"too many rows", Split{0, 2}, edit(func(p *position) { p.Emitted = 501 }), "501 rows emitted, but the split has 500 rows"},
		{"sequence out of range", Split{0, 2}, edit(func(p *position) { p.Sequences["id"] = 2600 }), "the sequence column 'id' is at offset 2600, outside the split's part [0, 2500] of its range"},
		{"sequence missing", Split{0, 2}, edit(func(p *position) { delete(p.Sequences, "id") }), "the position has no offset of the sequence column 'id'"},
		{"random state", Split{0, 2}, edit(func(p *position) { p.Random = []byte("xx") }), "the random generator's state does not decode"},
	} {
		_, err := src.OpenAt(ctx, c.split, connector.ReadSpec{Limit: -1}, c.pos)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
		if err != nil && !strings.HasPrefix(err.Error(), "table gen: ") {
			t.Errorf("%s: error %v does not name the table", c.name, err)
		}
	}
	// A table whose sequence column became random cannot take the position.
	opts := map[string]string{}
	for k, v := range posOpts {
		if !strings.HasPrefix(k, "fields.id.") {
			opts[k] = v
		}
	}
	src3, _ := newSource(t, opts, posNames, posTypes)
	if _, err := src3.OpenAt(ctx, Split{0, 2}, connector.ReadSpec{Limit: -1}, good); err == nil || !strings.Contains(err.Error(), "the position has sequence columns the table does not") {
		t.Errorf("sequence column gone: error %v", err)
	}
}
