package physical

import (
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/config"
	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/types"
)

// rankInput is an insert-only (k STRING, v INT) input.
func rankInput() *plan.Values {
	row := func(k string, v int32) []expr.Expr {
		return []expr.Expr{&expr.Literal{Value: k, T: types.StringType().NotNull()}, &expr.Literal{Value: v, T: types.IntType().NotNull()}}
	}
	return &plan.Values{Rows: [][]expr.Expr{row("a", 1), row("b", 5)},
		Cols: []plan.Column{{Name: "k", Type: types.StringType().NotNull()}, {Name: "v", Type: types.IntType().NotNull()}}}
}

func streamingEnv() *Env { return &Env{Config: config.New(), Streaming: true} }

// A streaming Rank and SortLimit may produce every kind of change (Flink's
// FlinkChangelogModeInferenceProgram gives them ALL_CHANGES whatever the
// range), show their RankProcessStrategy, and build a runtime.Rank that
// updates a Top-1 over insert-only input in place (FastTop1Function).
func TestStreamingRankChangelogModeAndStrategy(t *testing.T) {
	in := rankInput()
	cols := append(append([]plan.Column(nil), in.Cols...), plan.Column{Name: "rn", Type: types.BigIntType().NotNull()})
	for _, c := range []struct {
		name         string
		node         plan.Node
		op, attr     string
		start, end   int64
		byPosition   bool
		upsertKeyLen int
	}{
		{"top-1 per key", &plan.Rank{Input: in, PartitionKeys: []int{0}, Keys: []opspec.SortKey{{Col: 1, Desc: true}}, RankStart: 1, RankEnd: 1, Cols: cols[:2]},
			"Rank", "strategy=[AppendFastStrategy]", 1, 1, true, 1},
		{"top-2 per key", &plan.Rank{Input: in, PartitionKeys: []int{0}, Keys: []opspec.SortKey{{Col: 1, Desc: true}}, RankStart: 1, RankEnd: 2, Cols: cols[:2]},
			"Rank", "strategy=[AppendFastStrategy]", 1, 2, false, -1},
		{"ranks 2 to 3", &plan.Rank{Input: in, PartitionKeys: []int{0}, Keys: []opspec.SortKey{{Col: 1, Desc: true}}, RankStart: 2, RankEnd: 3, Cols: cols[:2]},
			"Rank", "strategy=[AppendFastStrategy]", 2, 3, true, -1},
		{"limit 1", &plan.Sort{Input: in, Keys: []opspec.SortKey{{Col: 1, Desc: true}}, Fetch: 1},
			"SortLimit", "strategy=[AppendFastStrategy]", 1, 1, true, -1},
		{"limit 2", &plan.Sort{Input: in, Keys: []opspec.SortKey{{Col: 1, Desc: true}}, Fetch: 2},
			"SortLimit", "strategy=[AppendFastStrategy]", 1, 2, false, -1},
		{"limit 2 offset 1", &plan.Sort{Input: in, Keys: []opspec.SortKey{{Col: 1, Desc: true}}, Offset: 1, Fetch: 2},
			"SortLimit", "strategy=[AppendFastStrategy]", 2, 3, true, -1},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := Plan(c.node, streamingEnv())
			if err != nil {
				t.Fatal(err)
			}
			if p.Name() != c.op {
				t.Fatalf("op %s, want %s", p.Name(), c.op)
			}
			if p.Mode != types.RetractMode {
				t.Errorf("changelog mode [%s], want [%s]", p.Mode, types.RetractMode)
			}
			if attrs := p.Describe(); !strings.Contains(attrs, c.attr) {
				t.Errorf("attrs %s lack %s", attrs, c.attr)
			}
			// the runtime.Rank it builds: engine/internal/jobgraph's TestRankOperators
			if c.upsertKeyLen >= 0 && (len(p.upsertKeys) != 1 || len(p.upsertKeys[0]) != c.upsertKeyLen) {
				t.Errorf("upsert keys %v", p.upsertKeys)
			}
			// a consumer that takes upserts can have the -U rows left out
			if !dropUpdateBefore(p) || p.Mode.Contains(types.UpdateBefore) || !noUpdateBefore(p) {
				t.Errorf("-U not dropped: mode [%s]", p.Mode)
			}
		})
	}
}

// In batch mode a Rank is insert-only and shows no strategy (Flink's
// BatchPhysicalRank).
func TestBatchRankInsertOnly(t *testing.T) {
	in := rankInput()
	p, err := Plan(&plan.Rank{Input: in, PartitionKeys: []int{0}, Keys: []opspec.SortKey{{Col: 1, Desc: true}}, RankStart: 1, RankEnd: 1, Cols: in.Cols},
		&Env{Config: config.New()})
	if err != nil {
		t.Fatal(err)
	}
	if !p.Mode.IsInsertOnly() || strings.Contains(p.Describe(), "strategy=") {
		t.Fatalf("batch Rank mode [%s] %s", p.Mode, p.Describe())
	}
}

// noUpdateBefore reports whether a Rank or SortLimit leaves out -U rows.
func noUpdateBefore(p *Node) bool {
	switch x := p.Op.(type) {
	case *Rank:
		return x.NoUpdateBefore
	case *SortLimit:
		return x.NoUpdateBefore
	}
	return false
}
