package persistence

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"reflect"
	"testing"
)

// Dashboards and their tiles survive closing and reopening the workspace,
// in order, with their specs; renaming, resizing the grid and deleting
// work; bad names and tiles are refused with clear errors.
func TestDashboardsRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w.riffle")
	s := open(t, path)
	live, err := s.CreateDashboard(ctx, " Live flights ", 0)
	must(t, err)
	if live.Name != "Live flights" || live.Columns != DefaultDashboardColumns {
		t.Fatalf("created %+v", live)
	}
	other, err := s.CreateDashboard(ctx, "Other", 2)
	must(t, err)
	if _, err := s.CreateDashboard(ctx, "Other", 2); !errors.Is(err, ErrDashboardName) {
		t.Errorf("a second dashboard named Other: %v, want ErrDashboardName", err)
	}
	if err := s.RenameDashboard(ctx, other.ID, "  "); !errors.Is(err, ErrDashboardName) {
		t.Errorf("a blank name: %v, want ErrDashboardName", err)
	}
	tiles := []DashboardTile{
		{Kind: TileChart, Title: "Delays", Statement: "SELECT origin, AVG(delay) AS d FROM f GROUP BY origin",
			Spec: TileSpec{Chart: json.RawMessage(`{"kind":"bar","x":"origin","y":["d"]}`), ColSpan: 2, RowSpan: 2}},
		{Kind: TileValue, Title: "Latest delay", Statement: "SELECT delay FROM f", Spec: TileSpec{Column: "delay", Mode: "Streaming"}},
		{Kind: TileRate, Title: "Rate", Statement: "SELECT * FROM f"},
	}
	saved, err := s.SaveDashboardTiles(ctx, live.ID, tiles)
	must(t, err)
	for _, tl := range saved {
		if tl.ID == 0 {
			t.Fatalf("a saved tile has no id: %+v", saved)
		}
	}
	// reorder: the rate tile first, the value tile removed
	_, err = s.SaveDashboardTiles(ctx, live.ID, []DashboardTile{saved[2], saved[0]})
	must(t, err)
	must(t, s.RenameDashboard(ctx, other.ID, "Wall"))
	must(t, s.SetDashboardColumns(ctx, other.ID, 4))
	if _, err := s.SaveDashboardTiles(ctx, live.ID, []DashboardTile{{Kind: "pie", Statement: "SELECT 1"}}); err == nil {
		t.Error("a tile of kind pie was saved")
	}
	if _, err := s.SaveDashboardTiles(ctx, live.ID, []DashboardTile{{Kind: TileGrid}}); err == nil {
		t.Error("a tile without a statement was saved")
	}
	s.Close()

	s = open(t, path)
	got, err := s.Dashboards(ctx)
	must(t, err)
	if len(got) != 2 || got[0].Name != "Live flights" || got[1].Name != "Wall" || got[1].Columns != 4 {
		t.Fatalf("dashboards after reopening: %+v", got)
	}
	want := []DashboardTile{saved[2], saved[0]}
	if !reflect.DeepEqual(got[0].Tiles, want) {
		t.Errorf("tiles after reopening:\n got %+v\nwant %+v", got[0].Tiles, want)
	}
	if len(got[1].Tiles) != 0 {
		t.Errorf("Wall has tiles: %+v", got[1].Tiles)
	}
	must(t, s.DeleteDashboard(ctx, live.ID))
	got, err = s.Dashboards(ctx)
	must(t, err)
	var n int
	must(t, s.db.QueryRowContext(ctx, `SELECT count(*) FROM dashboard_tiles`).Scan(&n))
	if len(got) != 1 || got[0].Name != "Wall" || n != 0 {
		t.Errorf("after deleting Live flights: %+v, %d tiles left", got, n)
	}
	if _, err := s.SaveDashboardTiles(ctx, live.ID, tiles); err == nil {
		t.Error("tiles saved to a deleted dashboard")
	}
}
