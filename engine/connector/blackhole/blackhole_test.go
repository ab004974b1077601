package blackhole

import (
	"context"
	"testing"

	"github.com/riffle-sql/riffle/engine/config"
	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
)

func TestBlackhole(t *testing.T) {
	ctx := &connector.Context{Table: "b", Schema: types.NewPhysicalSchema(nil, nil), Options: map[string]string{"connector": "blackhole"}, Config: config.New()}
	s, err := connector.CreateSink(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// like Flink's BlackHoleSink: every kind but -U (it takes upserts)
	if s.ChangelogMode(types.RetractMode) != types.UpsertMode {
		t.Fatalf("blackhole mode %s, want %s", s.ChangelogMode(types.RetractMode), types.UpsertMode)
	}
	w, _ := s.Open(context.Background(), connector.WriteSpec{}, 0)
	b := types.NewBatch(nil, []types.RowKind{types.Insert, types.Delete, types.UpdateAfter}, 3)
	if err := w.Write(context.Background(), b); err != nil || w.Commit() != nil {
		t.Fatal(err)
	}
	if n := s.(*Sink).Rows(); n != 3 {
		t.Fatalf("%d rows", n)
	}
	ctx.Options["x"] = "1"
	if _, err := connector.CreateSink(ctx); err == nil {
		t.Fatal("unknown option accepted")
	}
}
