// Package catalogbrowser is the workbench's catalog tree: catalogs →
// databases → tables and views → columns with their Flink types, primary
// key and rowtime/watermark markers.
//
// Children are read from a Source when their branch is first shown, and
// cached until Reload (which the workbench calls after every DDL
// statement), so a database with tens of thousands of tables costs nothing
// until it is opened. A right click on a table or view opens a menu
// (Preview, Show DDL, Insert name into editor); a double click on a table,
// view or column calls OnInsert with its quoted name.
//
// Like every Fyne widget, a Browser is used on the Fyne UI goroutine only,
// and its callbacks are called there.
package catalogbrowser

import (
	"errors"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/engine/sql"
)

// Ref names a catalog object.
type Ref struct {
	Catalog, Database, Object string
	Kind                      ObjectKind
}

// QualifiedName is the object's fully qualified, quoted name
// (`cat`.`db`.`obj` with quotes only where needed).
func (r Ref) QualifiedName() string {
	return sql.QuoteIdentIfNeeded(r.Catalog) + "." + sql.QuoteIdentIfNeeded(r.Database) + "." + sql.QuoteIdentIfNeeded(r.Object)
}

// node kinds, the first element of a node ID.
const (
	nodeCatalog   = "c"
	nodeDatabase  = "d"
	nodeObject    = "o"
	nodeColumn    = "k"
	nodeWatermark = "w"
	// nodeMaterialized is a line of a materialized table's refresh
	// (Materialized.Lines).
	nodeMaterialized = "m"
	nodeError        = "e"
	nodeEmpty        = "n"
	nodeLoading      = "l"
)

// sep separates the parts of a node ID; names cannot contain it in any
// practical catalog.
const sep = "\x1f"

func nodeID(kind string, parts ...string) widget.TreeNodeID {
	return kind + sep + strings.Join(parts, sep)
}

func splitID(uid widget.TreeNodeID) (kind string, parts []string) {
	all := strings.Split(uid, sep)
	return all[0], all[1:]
}

// Browser is the catalog tree widget. Create it with New.
type Browser struct {
	widget.BaseWidget

	// OnPreview runs SELECT * FROM the object LIMIT 100 (context menu).
	OnPreview func(Ref)
	// OnShowDDL shows the object's SHOW CREATE TABLE / VIEW (context menu).
	OnShowDDL func(Ref)
	// OnInsert inserts text (a quoted name) at the editor's cursor
	// (double click, or the context menu).
	OnInsert func(text string)
	// OnError reports a failure to read a catalog (also shown in the tree).
	OnError func(error)
	// OnEdit opens a table in the table designer ("Edit table…"; tables
	// only). Authoring hooks: OnEdit, OnDrag and OnDragEnd (see drag.go).
	OnEdit func(Ref)
	// OnDrag is called while a table or view is dragged out of the tree,
	// with the pointer's absolute position; OnDragEnd when it is dropped
	// there (the workbench drops it on the query builder).
	OnDrag    func(r Ref, at fyne.Position)
	OnDragEnd func(r Ref, at fyne.Position)
	// Do runs a function on the UI goroutine (fyne.Do when nil): the
	// answers of remote catalogs' reads (a JDBC catalog's) arrive through
	// it (kinds.go).
	Do func(func())

	src    Source
	tree   *widget.Tree
	filter *widget.Entry

	children map[widget.TreeNodeID][]widget.TreeNodeID
	objects  map[widget.TreeNodeID]Object
	columns  map[widget.TreeNodeID]Column
	details  map[widget.TreeNodeID]Details
	texts    map[widget.TreeNodeID]string // error and watermark texts
	query    string                       // lower-case object filter
	// reported holds, per node, the failure last given to OnError, so a
	// cached failure is not reported again on every reload
	reported map[widget.TreeNodeID]string
	remoteState

	content fyne.CanvasObject
}

// New returns a browser reading src.
func New(src Source) *Browser {
	b := &Browser{src: src, reported: map[widget.TreeNodeID]string{}}
	b.ExtendBaseWidget(b)
	b.resetCache()
	b.tree = widget.NewTree(b.childUIDs, b.isBranch, b.createNode, b.updateNode)
	b.filter = widget.NewEntry()
	b.filter.SetPlaceHolder("Filter tables and views")
	b.filter.OnChanged = func(s string) {
		b.query = strings.ToLower(strings.TrimSpace(s))
		b.Reload()
	}
	b.content = container.NewBorder(b.filter, nil, nil, nil, b.tree)
	return b
}

// CreateRenderer implements fyne.Widget.
func (b *Browser) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(b.content)
}

// Tree returns the underlying tree (for tests and keyboard focus).
func (b *Browser) Tree() *widget.Tree { return b.tree }

func (b *Browser) resetCache() {
	b.children = map[widget.TreeNodeID][]widget.TreeNodeID{}
	b.objects = map[widget.TreeNodeID]Object{}
	b.columns = map[widget.TreeNodeID]Column{}
	b.details = map[widget.TreeNodeID]Details{}
	b.texts = map[widget.TreeNodeID]string{}
}

// Reload forgets what was read and redraws the open branches from the
// source (call it after DDL). Open branches stay open when they still exist.
func (b *Browser) Reload() {
	b.resetCache()
	b.staleRemote()
	b.tree.Refresh()
}

// SetFilter shows only tables and views whose name contains s (case
// insensitive); "" shows all.
func (b *Browser) SetFilter(s string) { b.filter.SetText(s) }

// OpenPath opens the branches down to a database or object and scrolls to it.
func (b *Browser) OpenPath(cat string, more ...string) {
	id := nodeID(nodeCatalog, cat)
	b.tree.OpenBranch(id)
	parts := []string{cat}
	kinds := []string{nodeDatabase, nodeObject}
	for i, m := range more {
		if i >= len(kinds) {
			break
		}
		parts = append(parts, m)
		id = nodeID(kinds[i], parts...)
		b.tree.OpenBranch(id)
	}
	b.tree.ScrollTo(id)
}

// VisibleLabels returns the text of every node under the open branches, in
// tree order, indented by depth with two spaces per level: what a user sees
// when scrolling the whole tree (for tests). What the tree shows by style
// is written out: "(current)" for the database in bold, "view", "temp"
// for the object icons and italics.
func (b *Browser) VisibleLabels() []string {
	var out []string
	var walk func(uid widget.TreeNodeID, depth int)
	walk = func(uid widget.TreeNodeID, depth int) {
		for _, c := range b.childUIDs(uid) {
			name, detail := b.label(c)
			s := strings.Repeat("  ", depth) + name
			if detail != "" {
				s += " " + detail
			}
			out = append(out, s)
			if b.isBranch(c) && b.tree.IsBranchOpen(c) {
				walk(c, depth+1)
			}
		}
	}
	walk("", 0)
	return out
}

func (b *Browser) childUIDs(uid widget.TreeNodeID) []widget.TreeNodeID {
	if c, ok := b.children[uid]; ok {
		return c
	}
	c := b.load(uid)
	b.children[uid] = c
	if len(c) == 0 || !strings.HasPrefix(c[0], nodeError+sep) {
		delete(b.reported, uid)
	}
	return c
}

// load reads the children of a node from the source.
func (b *Browser) load(uid widget.TreeNodeID) []widget.TreeNodeID {
	kind, parts := splitID(uid)
	fail := func(err error) []widget.TreeNodeID {
		if errors.Is(err, ErrLoading) {
			return []widget.TreeNodeID{nodeID(nodeLoading, parts...)}
		}
		id := nodeID(nodeError, parts...)
		b.texts[id] = err.Error()
		// a failure is reported once, not again on every reload that finds
		// the same (cached) error
		if b.OnError != nil && b.reported[uid] != err.Error() {
			b.OnError(err)
		}
		b.reported[uid] = err.Error()
		return []widget.TreeNodeID{id}
	}
	if uid == "" {
		cats := b.src.Catalogs()
		if l, ok := b.src.(CatalogLister); ok {
			var err error
			if cats, err = l.ListCatalogs(); err != nil {
				return fail(err)
			}
		}
		var out []widget.TreeNodeID
		for _, c := range cats {
			out = append(out, nodeID(nodeCatalog, c))
		}
		return out
	}
	switch kind {
	case nodeCatalog:
		dbs, err := b.databases(parts[0])
		if err != nil {
			return fail(err)
		}
		out := make([]widget.TreeNodeID, 0, len(dbs))
		for _, d := range dbs {
			out = append(out, nodeID(nodeDatabase, parts[0], d))
		}
		return out
	case nodeDatabase:
		objs, err := b.listObjects(parts[0], parts[1])
		if err != nil {
			return fail(err)
		}
		out := make([]widget.TreeNodeID, 0, len(objs))
		for _, o := range objs {
			if b.query != "" && !strings.Contains(strings.ToLower(o.Name), b.query) {
				continue
			}
			id := nodeID(nodeObject, parts[0], parts[1], o.Name)
			b.objects[id] = o
			out = append(out, id)
		}
		if len(out) == 0 {
			id := nodeID(nodeEmpty, parts...)
			if b.query != "" {
				b.texts[id] = "no match"
			} else {
				b.texts[id] = "no tables"
			}
			out = append(out, id)
		}
		return out
	case nodeObject:
		d, err := b.objectDetails(parts[0], parts[1], parts[2])
		if err != nil {
			return fail(err)
		}
		b.details[uid] = d
		out := make([]widget.TreeNodeID, 0, len(d.Columns)+2)
		if m := b.objects[uid].Materialized; m != nil {
			// first: how fresh the table is matters before its columns
			for _, l := range m.Lines(time.Now()) {
				id := nodeID(nodeMaterialized, parts[0], parts[1], parts[2], l[0])
				b.texts[id] = l[1]
				out = append(out, id)
			}
		}
		for _, c := range d.Columns {
			id := nodeID(nodeColumn, parts[0], parts[1], parts[2], c.Name)
			b.columns[id] = c
			out = append(out, id)
		}
		if d.Watermark != "" {
			id := nodeID(nodeWatermark, parts...)
			b.texts[id] = d.Watermark
			out = append(out, id)
		}
		return out
	}
	return nil
}

func (b *Browser) isBranch(uid widget.TreeNodeID) bool {
	if uid == "" {
		return true
	}
	switch kind, _ := splitID(uid); kind {
	case nodeCatalog, nodeDatabase, nodeObject:
		return true
	}
	return false
}

// label returns the name and the dimmed detail text of a node.
func (b *Browser) label(uid widget.TreeNodeID) (name, detail string) {
	kind, parts := splitID(uid)
	switch kind {
	case nodeCatalog:
		return parts[0], b.catalogInfo(parts[0]).Label()
	case nodeDatabase:
		if cat, db := b.src.Current(); cat == parts[0] && db == parts[1] {
			return parts[1], "(current)"
		}
		return parts[1], ""
	case nodeObject:
		o := b.objects[uid]
		switch {
		case o.Kind == KindView && o.Temporary:
			return parts[2], "temp view"
		case o.Kind == KindView:
			return parts[2], "view"
		case o.Temporary:
			return parts[2], "temp"
		case o.Materialized != nil:
			return parts[2], "materialized"
		}
		return parts[2], ""
	case nodeColumn:
		c := b.columns[uid]
		d := c.Type
		if c.PrimaryKey {
			d += " · PK"
		}
		if c.Rowtime {
			d += " · ROWTIME"
		}
		if c.Proctime {
			d += " · PROCTIME"
		}
		if c.Computed != "" {
			d += " · AS " + c.Computed
		}
		if c.Metadata {
			d += " · METADATA"
		}
		return c.Name, d
	case nodeWatermark:
		return "WATERMARK", "FOR " + b.texts[uid]
	case nodeMaterialized:
		return parts[3], b.texts[uid] // "freshness", "3 min"
	case nodeError:
		return "error", b.texts[uid]
	case nodeEmpty:
		return b.texts[uid], ""
	case nodeLoading:
		return "loading…", ""
	}
	return uid, ""
}

func (b *Browser) icon(uid widget.TreeNodeID) fyne.Resource {
	kind, _ := splitID(uid)
	switch kind {
	case nodeCatalog:
		return catalogIcon(b.catalogInfo(strings.TrimPrefix(uid, nodeCatalog+sep)).Kind)
	case nodeDatabase:
		return theme.FolderIcon()
	case nodeObject:
		if b.objects[uid].Kind == KindView {
			return theme.VisibilityIcon()
		}
		if b.objects[uid].Materialized != nil {
			return materializedIcon
		}
		return theme.GridIcon()
	case nodeColumn:
		c := b.columns[uid]
		switch {
		case c.PrimaryKey:
			return theme.LoginIcon()
		case c.Rowtime, c.Proctime:
			return theme.HistoryIcon()
		}
		return theme.ListIcon()
	case nodeWatermark:
		return theme.MediaFastForwardIcon()
	case nodeMaterialized:
		return materializedLineIcon(uid)
	case nodeError:
		return theme.ErrorIcon()
	case nodeLoading:
		return theme.ViewRefreshIcon()
	}
	return theme.InfoIcon()
}

func (b *Browser) createNode(branch bool) fyne.CanvasObject {
	return newNodeRow(b)
}

func (b *Browser) updateNode(uid widget.TreeNodeID, branch bool, o fyne.CanvasObject) {
	row := o.(*nodeRow)
	name, detail := b.label(uid)
	style := fyne.TextStyle{Bold: b.isCurrent(uid)}
	switch kind, _ := splitID(uid); kind {
	case nodeObject:
		// Views have their own icon and temporary objects are in italics;
		// the narrow tree has no room for tags after long names.
		detail = ""
		style.Italic = b.objects[uid].Temporary
	case nodeDatabase:
		detail = "" // the current one is in bold
	}
	row.set(uid, b.icon(uid), name, detail, style)
}

// isCurrent reports the current catalog and database (shown in bold).
func (b *Browser) isCurrent(uid widget.TreeNodeID) bool {
	kind, parts := splitID(uid)
	cat, db := b.src.Current()
	switch kind {
	case nodeCatalog:
		return parts[0] == cat
	case nodeDatabase:
		return parts[0] == cat && parts[1] == db
	}
	return false
}

// ref returns the object a node belongs to (ok false for catalogs and
// databases).
func refOf(uid widget.TreeNodeID, objects map[widget.TreeNodeID]Object) (Ref, bool) {
	kind, parts := splitID(uid)
	if kind != nodeObject || len(parts) < 3 {
		return Ref{}, false
	}
	return Ref{Catalog: parts[0], Database: parts[1], Object: parts[2], Kind: objects[uid].Kind}, true
}

// InsertText returns what a double click on the node inserts: the object's
// name (qualified when it is not in the current database) or the column's
// quoted name; "" for other nodes.
func (b *Browser) InsertText(uid widget.TreeNodeID) string {
	kind, parts := splitID(uid)
	switch kind {
	case nodeObject:
		cat, db := b.src.Current()
		if parts[0] == cat && parts[1] == db {
			return sql.QuoteIdentIfNeeded(parts[2])
		}
		r, _ := refOf(uid, b.objects)
		return r.QualifiedName()
	case nodeColumn:
		return sql.QuoteIdentIfNeeded(parts[3])
	case nodeDatabase:
		return sql.QuoteIdentIfNeeded(parts[0]) + "." + sql.QuoteIdentIfNeeded(parts[1])
	case nodeCatalog:
		return sql.QuoteIdentIfNeeded(parts[0])
	}
	return ""
}

// DoubleTapNode acts as a double click on the node uid.
func (b *Browser) DoubleTapNode(uid widget.TreeNodeID) {
	kind, _ := splitID(uid)
	switch kind {
	case nodeCatalog, nodeDatabase:
		b.tree.ToggleBranch(uid)
	case nodeObject, nodeColumn:
		if t := b.InsertText(uid); t != "" && b.OnInsert != nil {
			b.OnInsert(t)
		}
	}
}

// MenuFor returns the context menu of a node (nil when it has none).
func (b *Browser) MenuFor(uid widget.TreeNodeID) *fyne.Menu {
	var items []*fyne.MenuItem
	if r, ok := refOf(uid, b.objects); ok {
		items = append(items,
			fyne.NewMenuItem("Preview", func() {
				if b.OnPreview != nil {
					b.OnPreview(r)
				}
			}),
			fyne.NewMenuItem("Show DDL", func() {
				if b.OnShowDDL != nil {
					b.OnShowDDL(r)
				}
			}),
		)
	}
	if t := b.InsertText(uid); t != "" {
		items = append(items, fyne.NewMenuItem("Insert name into editor", func() {
			if b.OnInsert != nil {
				b.OnInsert(t)
			}
		}))
	}
	if r, ok := refOf(uid, b.objects); ok && r.Kind == KindTable && b.OnEdit != nil {
		items = append(items, fyne.NewMenuItem("Edit table…", func() { b.OnEdit(r) }))
	}
	items = append(items, fyne.NewMenuItemSeparator(), fyne.NewMenuItem("Refresh", b.refreshFromSource))
	return fyne.NewMenu("", items...)
}

// nodeRow draws one tree node and handles its clicks.
type nodeRow struct {
	widget.BaseWidget
	b      *Browser
	uid    widget.TreeNodeID
	icon   *widget.Icon
	name   *widget.Label
	detail *widget.Label
	box    *fyne.Container
	// dragging and dragAt follow a drag of the row (drag.go).
	dragging bool
	dragAt   fyne.Position
}

var (
	_ fyne.Tappable          = (*nodeRow)(nil)
	_ fyne.DoubleTappable    = (*nodeRow)(nil)
	_ fyne.SecondaryTappable = (*nodeRow)(nil)
)

func newNodeRow(b *Browser) *nodeRow {
	r := &nodeRow{b: b, icon: widget.NewIcon(nil), name: widget.NewLabel(""), detail: widget.NewLabel("")}
	r.detail.Importance = widget.LowImportance
	r.detail.Truncation = fyne.TextTruncateEllipsis
	r.ExtendBaseWidget(r)
	r.box = container.NewBorder(nil, nil, container.NewHBox(r.icon, r.name), nil, r.detail)
	return r
}

func (r *nodeRow) set(uid widget.TreeNodeID, icon fyne.Resource, name, detail string, style fyne.TextStyle) {
	r.uid = uid
	r.icon.SetResource(icon)
	if r.name.TextStyle != style {
		r.name.TextStyle = style
		r.name.Refresh()
	}
	r.name.SetText(name)
	r.detail.SetText(detail)
}

// CreateRenderer implements fyne.Widget.
func (r *nodeRow) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(r.box)
}

// Tapped selects the node.
func (r *nodeRow) Tapped(*fyne.PointEvent) {
	r.b.tree.Select(r.uid)
	if c := fyne.CurrentApp().Driver().CanvasForObject(r.b.tree); c != nil {
		c.Focus(r.b.tree)
	}
}

// DoubleTapped inserts the node's name, or opens and closes a catalog or
// database.
func (r *nodeRow) DoubleTapped(*fyne.PointEvent) { r.b.DoubleTapNode(r.uid) }

// TappedSecondary opens the node's context menu.
func (r *nodeRow) TappedSecondary(ev *fyne.PointEvent) {
	r.b.tree.Select(r.uid)
	m := r.b.MenuFor(r.uid)
	if m == nil {
		return
	}
	c := fyne.CurrentApp().Driver().CanvasForObject(r)
	if c == nil {
		return
	}
	widget.ShowPopUpMenuAtPosition(m, c, ev.AbsolutePosition)
}
