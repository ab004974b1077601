package persistence

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Dashboard tile kinds (DashboardTile.Kind).
const (
	TileGrid  = "grid"  // the result's table view
	TileChart = "chart" // the result's chart (TileSpec.Chart)
	TileValue = "value" // the latest value of one column, with its change
	TileRate  = "rate"  // the changelog rate: changes per second
)

// TileKinds are the tile kinds a dashboard holds.
var TileKinds = []string{TileGrid, TileChart, TileValue, TileRate}

// DefaultDashboardColumns is the number of grid columns of a new
// dashboard.
const DefaultDashboardColumns = 3

// Dashboard is a named grid of live tiles (issue 21), saved in the
// workspace's dashboards table; its tiles are in dashboard_tiles.
type Dashboard struct {
	ID   int64
	Name string // unique in the workspace, not blank
	// Position orders the dashboards in the Dashboards window.
	Position int
	// Columns is the width of the dashboard's grid in cells (>= 1; stored
	// in the layout JSON as {"columns":N}).
	Columns int
	Tiles   []DashboardTile // in layout order
}

// DashboardTile is one tile: a live query (Statement, run as its own job
// when the dashboard opens) and how it is shown.
type DashboardTile struct {
	ID int64
	// Kind is one of TileKinds.
	Kind  string
	Title string
	// Statement is the script the tile runs: its last statement is the
	// query whose rows the tile shows; statements before it (SET, CREATE
	// TEMPORARY TABLE IF NOT EXISTS …) prepare the session.
	Statement string
	Spec      TileSpec
}

// TileSpec is a tile's kind-specific settings, JSON in dashboard_tiles.spec.
type TileSpec struct {
	// Column is the column a value tile shows (by name).
	Column string `json:"column,omitempty"`
	// Chart is a chart tile's charts.Settings as JSON (charts.ParseSettings
	// reads it; empty: detected from the columns).
	Chart json.RawMessage `json:"chart,omitempty"`
	// ColSpan and RowSpan are the cells the tile covers (0 reads as 1).
	ColSpan int `json:"col_span,omitempty"`
	RowSpan int `json:"row_span,omitempty"`
	// Mode is the runtime mode the statement runs in ("Streaming" or
	// "Batch"; "" = streaming).
	Mode string `json:"mode,omitempty"`
}

type dashboardLayout struct {
	Columns int `json:"columns,omitempty"`
}

// ErrDashboardName is returned for a blank dashboard name or one already
// taken.
var ErrDashboardName = errors.New("persistence: dashboard name")

// Dashboards returns the workspace's dashboards with their tiles, in
// position order. A tile whose spec does not parse is kept with an empty
// spec.
func (s *Store) Dashboards(ctx context.Context) ([]Dashboard, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, name, position, layout FROM dashboards ORDER BY position, id`)
	if err != nil {
		return nil, fmt.Errorf("persistence: %w", err)
	}
	var out []Dashboard
	for rows.Next() {
		var d Dashboard
		var layout string
		if err := rows.Scan(&d.ID, &d.Name, &d.Position, &layout); err != nil {
			rows.Close()
			return nil, fmt.Errorf("persistence: %w", err)
		}
		var l dashboardLayout
		_ = json.Unmarshal([]byte(layout), &l)
		d.Columns = l.Columns
		if d.Columns < 1 {
			d.Columns = DefaultDashboardColumns
		}
		out = append(out, d)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("persistence: %w", err)
	}
	for i := range out {
		if out[i].Tiles, err = s.dashboardTiles(ctx, out[i].ID); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (s *Store) dashboardTiles(ctx context.Context, id int64) ([]DashboardTile, error) {
	rows, err := s.db.QueryContext(ctx,
		`SELECT id, kind, title, statement, spec FROM dashboard_tiles WHERE dashboard_id = ? ORDER BY position, id`, id)
	if err != nil {
		return nil, fmt.Errorf("persistence: %w", err)
	}
	defer rows.Close()
	var out []DashboardTile
	for rows.Next() {
		var t DashboardTile
		var spec string
		if err := rows.Scan(&t.ID, &t.Kind, &t.Title, &t.Statement, &spec); err != nil {
			return nil, fmt.Errorf("persistence: %w", err)
		}
		_ = json.Unmarshal([]byte(spec), &t.Spec)
		out = append(out, t)
	}
	return out, rows.Err()
}

// CreateDashboard adds an empty dashboard after the others. A blank name,
// or one another dashboard has, is an ErrDashboardName error.
func (s *Store) CreateDashboard(ctx context.Context, name string, columns int) (Dashboard, error) {
	name = strings.TrimSpace(name)
	if err := s.checkDashboardName(ctx, 0, name); err != nil {
		return Dashboard{}, err
	}
	if columns < 1 {
		columns = DefaultDashboardColumns
	}
	layout, _ := json.Marshal(dashboardLayout{Columns: columns})
	res, err := s.db.ExecContext(ctx,
		`INSERT INTO dashboards(name, position, layout) VALUES (?, (SELECT COALESCE(MAX(position), -1) + 1 FROM dashboards), ?)`,
		name, string(layout))
	if err != nil {
		return Dashboard{}, fmt.Errorf("persistence: %w", err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return Dashboard{}, fmt.Errorf("persistence: %w", err)
	}
	var pos int
	_ = s.db.QueryRowContext(ctx, `SELECT position FROM dashboards WHERE id = ?`, id).Scan(&pos)
	return Dashboard{ID: id, Name: name, Position: pos, Columns: columns}, nil
}

func (s *Store) checkDashboardName(ctx context.Context, id int64, name string) error {
	if name == "" {
		return fmt.Errorf("%w: a dashboard needs a name", ErrDashboardName)
	}
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM dashboards WHERE name = ? AND id <> ?`, name, id).Scan(&n); err != nil {
		return fmt.Errorf("persistence: %w", err)
	}
	if n > 0 {
		return fmt.Errorf("%w: a dashboard named %q already exists", ErrDashboardName, name)
	}
	return nil
}

// RenameDashboard renames a dashboard (ErrDashboardName for a blank or
// taken name; no dashboard with that id is no error).
func (s *Store) RenameDashboard(ctx context.Context, id int64, name string) error {
	name = strings.TrimSpace(name)
	if err := s.checkDashboardName(ctx, id, name); err != nil {
		return err
	}
	if _, err := s.db.ExecContext(ctx, `UPDATE dashboards SET name = ? WHERE id = ?`, name, id); err != nil {
		return fmt.Errorf("persistence: %w", err)
	}
	return nil
}

// SetDashboardColumns sets the width of a dashboard's grid (at least 1).
func (s *Store) SetDashboardColumns(ctx context.Context, id int64, columns int) error {
	if columns < 1 {
		return fmt.Errorf("persistence: a dashboard needs at least one column, not %d", columns)
	}
	layout, _ := json.Marshal(dashboardLayout{Columns: columns})
	if _, err := s.db.ExecContext(ctx, `UPDATE dashboards SET layout = ? WHERE id = ?`, string(layout), id); err != nil {
		return fmt.Errorf("persistence: %w", err)
	}
	return nil
}

// DeleteDashboard removes a dashboard and its tiles.
func (s *Store) DeleteDashboard(ctx context.Context, id int64) error {
	err := s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM dashboard_tiles WHERE dashboard_id = ?`, id); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM dashboards WHERE id = ?`, id)
		return err
	})
	if err != nil {
		return fmt.Errorf("persistence: deleting dashboard %d: %w", id, err)
	}
	return nil
}

// SaveDashboardTiles replaces a dashboard's tiles by tiles, in that order,
// and returns them with their ids (a new tile has ID 0). A tile of an
// unknown kind or without a statement is an error and nothing is saved.
func (s *Store) SaveDashboardTiles(ctx context.Context, dashboardID int64, tiles []DashboardTile) ([]DashboardTile, error) {
	out := append([]DashboardTile(nil), tiles...)
	for _, t := range out {
		if !validTileKind(t.Kind) {
			return nil, fmt.Errorf("persistence: unknown tile kind %q (want one of %s)", t.Kind, strings.Join(TileKinds, ", "))
		}
		if strings.TrimSpace(t.Statement) == "" {
			return nil, fmt.Errorf("persistence: tile %q has no statement", t.Title)
		}
	}
	err := s.tx(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM dashboards WHERE id = ?`, dashboardID).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			return fmt.Errorf("no dashboard with id %d", dashboardID)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM dashboard_tiles WHERE dashboard_id = ?`, dashboardID); err != nil {
			return err
		}
		for i := range out {
			t := &out[i]
			spec, err := json.Marshal(t.Spec)
			if err != nil {
				return err
			}
			var id any
			if t.ID != 0 {
				id = t.ID
			}
			res, err := tx.ExecContext(ctx,
				`INSERT INTO dashboard_tiles(id, dashboard_id, kind, title, statement, spec, position) VALUES (?, ?, ?, ?, ?, ?, ?)`,
				id, dashboardID, t.Kind, t.Title, t.Statement, string(spec), i)
			if err != nil {
				return err
			}
			if t.ID, err = res.LastInsertId(); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("persistence: saving the tiles of dashboard %d: %w", dashboardID, err)
	}
	return out, nil
}

func validTileKind(k string) bool {
	for _, x := range TileKinds {
		if k == x {
			return true
		}
	}
	return false
}
