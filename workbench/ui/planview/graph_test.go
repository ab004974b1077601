package planview

import (
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/workbench/plangraph"
)

// An operator's detail lines (table, keys: names full of underscores) are
// drawn in the proportional font, which keeps '_' at the small size, and
// each box is wide enough for its longest line.
func TestPlanNodeLinesKeepUnderscores(t *testing.T) {
	test.NewTempApp(t)
	scan := &table.PlanNode{Name: "TableSourceScan", Attrs: table.ParsePlanAttrs("table=[[default_catalog, default_database, sensor_readings_with_a_long_name]]", "fields=[]"),
		Table: "sensor_readings_with_a_long_name", Parallelism: 1}
	pg := NewGraph(plangraph.FromPlan(false, scan), false)
	if len(pg.nodes) != 1 || len(pg.nodes[0].lines) == 0 {
		t.Fatalf("nodes %d", len(pg.nodes))
	}
	gn := pg.nodes[0]
	for _, l := range gn.lines {
		if l.TextStyle.Monospace {
			t.Errorf("line %q is monospace", l.Text)
		}
		if w := l.MinSize().Width; w > float32(gn.n.W) {
			t.Errorf("line %q is %v wide in a %v box", l.Text, w, gn.n.W)
		}
	}
	if gn.lines[0].Text != "table: sensor_readings_with_a_long_name" {
		t.Errorf("first line %q", gn.lines[0].Text)
	}
}
