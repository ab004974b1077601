package authoring

import (
	"fmt"
	"slices"
	"strings"

	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/engine/types"
)

// ChangePlan is how a changed design is applied to its existing table.
type ChangePlan struct {
	// Statements run in order. Without Recreate they are ALTER TABLE
	// statements; with Recreate a DROP TABLE and a CREATE TABLE.
	Statements []string
	// Recreate is set when Flink cannot ALTER what changed (temporary vs
	// permanent, PARTITIONED BY, the table comment, another catalog or
	// database). The data stays where the connector keeps it, but the
	// catalog entry is replaced: the workbench asks before running it.
	Recreate bool
	// Reasons say what forced Recreate.
	Reasons []string
}

// Changes returns the statements that turn the table the design was
// opened from (DesignFromTable) into the design: ALTER TABLE ... ADD,
// MODIFY (with FIRST/AFTER for moved columns), DROP, RENAME, SET, RESET,
// watermark and primary key changes, then RENAME TO; or, when Flink cannot
// alter a change, drop-and-create. A design with errors is refused.
func (d *Design) Changes() (*ChangePlan, error) { return d.changesIn("") }

// changesIn writes the plan as Changes, with every table name moved to
// catalog when it is not "" (for a dry run on a scratch copy).
func (d *Design) changesIn(catalog string) (*ChangePlan, error) {
	o := d.original
	if o == nil {
		return nil, fmt.Errorf("the design is of a new table: run CreateTableSQL")
	}
	if errs := Errors(d.Validate()); len(errs) > 0 {
		return nil, fmt.Errorf("the design has problems: %s", errs[0])
	}
	plan := &ChangePlan{}
	if d.Temporary != o.Temporary {
		plan.Reasons = append(plan.Reasons, "a table cannot change between temporary and permanent")
	}
	if !slices.Equal(d.PartitionBy, o.PartitionBy) {
		plan.Reasons = append(plan.Reasons, "the partition keys (PARTITIONED BY) cannot be altered")
	}
	if d.Comment != o.Comment {
		plan.Reasons = append(plan.Reasons, "the table comment cannot be altered")
	}
	origPath, newPath := o.Path, d.qualifiedPath()
	if newPath[0] != origPath[0] || newPath[1] != origPath[1] {
		plan.Reasons = append(plan.Reasons, "a table cannot be moved to another catalog or database with ALTER TABLE")
	}
	if catalog != "" {
		origPath = []string{catalog, origPath[1], origPath[2]}
		newPath = []string{catalog, newPath[1], newPath[2]}
	}
	if len(plan.Reasons) > 0 {
		plan.Recreate = true
		drop := "DROP "
		if o.Temporary {
			drop += "TEMPORARY "
		}
		create := d
		if catalog != "" {
			create = d.Clone()
			create.Path = newPath
		}
		plan.Statements = []string{drop + "TABLE " + pathSQL(origPath), create.CreateTableSQL()}
		return plan, nil
	}
	name := pathSQL(origPath)
	alter := func(action string) {
		plan.Statements = append(plan.Statements, normalize("ALTER TABLE "+name+" "+action))
	}

	origCol := map[string]ColumnDesign{}
	for _, c := range o.Columns {
		origCol[c.Name] = c
	}
	kept := map[string]bool{} // original names still present
	for _, c := range d.Columns {
		if _, ok := origCol[c.Original]; ok && c.Original != "" {
			kept[c.Original] = true
		}
	}
	var dropped []string
	for _, c := range o.Columns {
		if !kept[c.Name] {
			dropped = append(dropped, c.Name)
		}
	}
	// Flink refuses to drop or rename a column that a computed column or
	// the watermark refers to: computed columns referring to a dropped or
	// renamed column (or to such a computed column) are dropped first and
	// added back with their new definition after the renames.
	gone := map[string]bool{}
	for _, n := range dropped {
		gone[n] = true
	}
	for _, c := range d.Columns {
		if c.Original != "" && kept[c.Original] && c.Name != c.Original {
			gone[c.Original] = true
		}
	}
	refersToGone := func(exprSQL string) bool {
		refs, err := table.ReferencedColumns(exprSQL)
		return err == nil && slices.ContainsFunc(refs, func(r string) bool { return gone[r] })
	}
	for changed := true; changed; {
		changed = false
		for _, oc := range o.Columns {
			if oc.Kind == types.ComputedColumn && kept[oc.Name] && refersToGone(oc.Expr) {
				kept[oc.Name], gone[oc.Name], changed = false, true, true
			}
		}
	}
	dropped = dropped[:0]
	for _, c := range o.Columns {
		if !kept[c.Name] {
			dropped = append(dropped, c.Name)
		}
	}
	// touched lists original columns that are dropped, renamed or redefined.
	touched := map[string]bool{}
	for _, n := range dropped {
		touched[n] = true
	}
	for _, c := range d.Columns {
		if oc, ok := origCol[c.Original]; ok && c.Original != "" {
			renamed := oc
			renamed.Name = c.Name
			if c.Name != c.Original || renamed.columnSQL() != c.columnSQL() {
				touched[c.Original] = true
			}
		}
	}
	wmChanged := !sameWatermark(o.Watermark, d.Watermark) || (o.Watermark != nil && (touched[o.Watermark.Column] || refersToGone(o.Watermark.SQL())))
	pkChanged := !slices.Equal(o.PrimaryKey, d.PrimaryKey) || slices.ContainsFunc(o.PrimaryKey, func(k string) bool { return touched[k] })

	if wmChanged && o.Watermark != nil {
		alter("DROP WATERMARK")
	}
	if pkChanged && len(o.PrimaryKey) > 0 {
		alter("DROP PRIMARY KEY")
	}
	if len(dropped) > 0 {
		alter("DROP (" + identList(dropped) + ")")
	}
	// cur simulates the column order as the statements change it.
	var cur []string
	for _, c := range o.Columns {
		if kept[c.Name] {
			cur = append(cur, c.Name)
		}
	}
	for _, c := range d.Columns {
		if c.Original != "" && kept[c.Original] && c.Name != c.Original {
			alter("RENAME " + sql.QuoteIdentIfNeeded(c.Original) + " TO " + sql.QuoteIdentIfNeeded(c.Name))
			cur[slices.Index(cur, c.Original)] = c.Name
		}
	}
	stable := stableColumns(cur, d.Columns)
	for i, c := range d.Columns {
		prev := ""
		if i > 0 {
			prev = d.Columns[i-1].Name
		}
		at := slices.Index(cur, c.Name)
		pos := " FIRST"
		if prev != "" {
			pos = " AFTER " + sql.QuoteIdentIfNeeded(prev)
		}
		if at < 0 {
			if prev != "" && cur[len(cur)-1] == prev {
				pos = "" // appended at the end
			}
			alter("ADD " + c.columnSQL() + pos)
		} else {
			oc := origCol[c.Original]
			oc.Name = c.Name
			switch {
			case !stable[c.Name]:
				alter("MODIFY " + c.columnSQL() + pos)
			case oc.columnSQL() != c.columnSQL():
				alter("MODIFY " + c.columnSQL())
				continue
			default:
				continue
			}
			cur = slices.Delete(cur, at, at+1)
		}
		if prev == "" {
			cur = slices.Insert(cur, 0, c.Name)
		} else {
			cur = slices.Insert(cur, slices.Index(cur, prev)+1, c.Name)
		}
	}
	if wmChanged && d.Watermark != nil {
		alter("ADD WATERMARK FOR " + sql.QuoteIdentIfNeeded(d.Watermark.Column) + " AS " + d.Watermark.SQL())
	}
	if pkChanged && len(d.PrimaryKey) > 0 {
		alter("ADD PRIMARY KEY (" + identList(d.PrimaryKey) + ") NOT ENFORCED")
	}
	var set []string
	if d.Connector != o.Connector {
		set = append(set, quoteString("connector")+" = "+quoteString(d.Connector))
	}
	for _, ov := range d.Options {
		if v, ok := o.Option(ov.Key); !ok || v != ov.Value {
			set = append(set, quoteString(ov.Key)+" = "+quoteString(ov.Value))
		}
	}
	if len(set) > 0 {
		alter("SET (" + strings.Join(set, ", ") + ")")
	}
	var reset []string
	for _, ov := range o.Options {
		if _, ok := d.Option(ov.Key); !ok {
			reset = append(reset, quoteString(ov.Key))
		}
	}
	if len(reset) > 0 {
		alter("RESET (" + strings.Join(reset, ", ") + ")")
	}
	if newPath[2] != origPath[2] {
		alter("RENAME TO " + pathSQL(newPath))
	}
	return plan, nil
}

// OriginalPath is the qualified name (catalog, database, table) of the
// table the design was opened from, or nil for a new table.
func (d *Design) OriginalPath() []string {
	if d.original == nil {
		return nil
	}
	return slices.Clone(d.original.Path)
}

// qualifiedPath completes the design's name with the original table's
// catalog and database.
func (d *Design) qualifiedPath() []string {
	o := d.original.Path
	switch len(d.Path) {
	case 1:
		return []string{o[0], o[1], d.Path[0]}
	case 2:
		return []string{o[0], d.Path[0], d.Path[1]}
	}
	return d.Path
}

// stableColumns picks the existing columns that keep their place: the
// longest run of them whose current order is the desired order. The
// others are moved with MODIFY ... FIRST|AFTER.
func stableColumns(cur []string, desired []ColumnDesign) map[string]bool {
	var names []string
	var idx []int
	for _, c := range desired {
		if i := slices.Index(cur, c.Name); i >= 0 {
			names = append(names, c.Name)
			idx = append(idx, i)
		}
	}
	// longest increasing subsequence of idx, O(n²)
	n := len(idx)
	length, prev := make([]int, n), make([]int, n)
	best := -1
	for i := range n {
		length[i], prev[i] = 1, -1
		for j := range i {
			if idx[j] < idx[i] && length[j]+1 > length[i] {
				length[i], prev[i] = length[j]+1, j
			}
		}
		if best < 0 || length[i] > length[best] {
			best = i
		}
	}
	out := map[string]bool{}
	for i := best; i >= 0; i = prev[i] {
		out[names[i]] = true
	}
	return out
}

func sameWatermark(a, b *Watermark) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Column == b.Column && a.SQL() == b.SQL()
}
