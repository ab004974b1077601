package topicbrowser

import (
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/assets"
	"github.com/riffle-sql/riffle/workbench/kafkabrowser"
	"github.com/riffle-sql/riffle/workbench/ui/widgets"
)

// Kafka tree node kinds (the first part of a node ID).
const (
	kNodeConn      = "K"
	kNodeTopic     = "T"
	kNodePartition = "P"
	kNodeGroups    = "G"
	kNodeGroup     = "Q"
	kNodeGroupPart = "R"
	kNodeInfo      = "I" // loading, empty, error
)

func kID(kind string, parts ...string) widget.TreeNodeID {
	return kind + "\x1f" + strings.Join(parts, "\x1f")
}

func kSplit(uid widget.TreeNodeID) (string, []string) {
	all := strings.Split(uid, "\x1f")
	return all[0], all[1:]
}

// conn is what the tree read from one Kafka connection, by name.
type conn struct {
	name    string
	topics  []kafkabrowser.Topic
	loaded  bool // topics were read (or failed: err)
	loading bool
	err     string
	// lags per topic, read when the topic is opened
	lags        map[string][]kafkabrowser.GroupLag
	lagsLoading map[string]bool
	gen         int // bumped on refresh; a late answer of an older read is dropped
}

// Browser is the Kafka tree with its header (Internal, Refresh, +); the
// workbench puts Pane under the catalog tree. Its methods run on the UI
// goroutine.
type Browser struct {
	host  Host
	conns map[string]*conn // what was read, by connection name

	tree          *widget.Tree
	internalCheck *widget.Check
	showInternal  bool
	pane          fyne.CanvasObject
}

// New makes the browser of host's Kafka connections; nothing is read
// until a connection is opened.
func New(host Host) *Browser {
	k := &Browser{host: host, conns: map[string]*conn{}}
	k.tree = widget.NewTree(k.childUIDs, k.isBranch, func(bool) fyne.CanvasObject { return newKafkaRow(k) }, k.updateNode)
	k.tree.OnBranchOpened = func(uid widget.TreeNodeID) { k.tree.Refresh() }
	// the whole line in the status bar: the narrow tree cuts details
	k.tree.OnSelected = func(uid widget.TreeNodeID) {
		if _, name, detail, _ := k.label(uid); name != "" {
			if detail != "" {
				name += " · " + detail
			}
			k.host.SetStatus(name)
		}
	}
	k.internalCheck = widget.NewCheck("Internal", func(on bool) {
		k.showInternal = on
		k.RefreshAll()
	})
	add := widget.NewButtonWithIcon("", theme.ContentAddIcon(), func() { k.host.EditConnection("") })
	add.Importance = widget.LowImportance
	refresh := widget.NewButtonWithIcon("", theme.ViewRefreshIcon(), k.RefreshAll)
	refresh.Importance = widget.LowImportance
	title := widget.NewLabelWithStyle("Kafka", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	head := container.NewBorder(nil, nil, title, container.NewHBox(k.internalCheck, refresh, add))
	k.pane = container.NewBorder(head, nil, nil, nil, k.tree)
	return k
}

// Pane is the header above the tree.
func (k *Browser) Pane() fyne.CanvasObject { return k.pane }

// byName is what was read from the named connection; nil when the host
// has no such connection.
func (k *Browser) byName(name string) *conn {
	if _, ok := k.host.Config(name); !ok {
		return nil
	}
	c := k.conns[name]
	if c == nil {
		c = &conn{name: name}
		k.conns[name] = c
	}
	return c
}

// Forget drops what was read from the named connection (saved, renamed
// or removed): an open connection is read again when the tree is
// refreshed, and a read still running is dropped.
func (k *Browser) Forget(name string) {
	if c := k.conns[name]; c != nil {
		c.gen++
		delete(k.conns, name)
	}
}

// Refresh redraws the tree from what was read (the connections changed).
func (k *Browser) Refresh() { k.refreshTree() }

// refreshTree redraws the tree from what was read.
func (k *Browser) refreshTree() {
	if k.tree != nil {
		k.tree.Refresh()
	}
}

// RefreshAll reads every opened connection again.
func (k *Browser) RefreshAll() {
	for _, c := range k.conns {
		if c.loaded || c.loading {
			c.gen++
			c.loaded, c.loading = false, false
			c.lags = nil
			c.lagsLoading = nil
			k.load(c)
		}
	}
	k.refreshTree()
}

// load reads a connection's topics in the background.
func (k *Browser) load(c *conn) {
	if c.loading {
		return
	}
	connect, ok := k.host.Connect(c.name)
	if !ok {
		return
	}
	c.loading = true
	gen := c.gen
	internal := k.showInternal
	go func() {
		var topics []kafkabrowser.Topic
		cl, err := connect()
		if err == nil {
			topics, err = cl.Topics(context.Background(), internal)
		}
		k.host.Do(func() {
			if c.gen != gen {
				return
			}
			c.loading, c.loaded = false, true
			c.topics, c.err = topics, ""
			if err != nil {
				c.err = err.Error()
				k.host.Error("Kafka " + c.name + ": " + c.err)
			}
			// open topics read their groups again
			for name := range c.lags {
				delete(c.lags, name)
			}
			k.refreshTree()
		})
	}()
}

// loadLags reads the consumer groups' lag on a topic in the background.
func (k *Browser) loadLags(c *conn, topic string) {
	if c.lagsLoading == nil {
		c.lagsLoading = map[string]bool{}
	}
	if c.lags == nil {
		c.lags = map[string][]kafkabrowser.GroupLag{}
	}
	if c.lagsLoading[topic] {
		return
	}
	connect, ok := k.host.Connect(c.name)
	if !ok {
		return
	}
	c.lagsLoading[topic] = true
	gen := c.gen
	go func() {
		var lags []kafkabrowser.GroupLag
		cl, err := connect()
		if err == nil {
			lags, err = cl.Lags(context.Background(), topic)
		}
		k.host.Do(func() {
			if c.gen != gen {
				return
			}
			delete(c.lagsLoading, topic)
			if err != nil {
				k.host.Warning("Kafka " + c.name + ": consumer groups of " + topic + ": " + err.Error())
				lags = nil
			}
			c.lags[topic] = lags
			k.refreshTree()
		})
	}()
}

func (k *Browser) topic(c *conn, name string) (kafkabrowser.Topic, bool) {
	for _, t := range c.topics {
		if t.Name == name {
			return t, true
		}
	}
	return kafkabrowser.Topic{}, false
}

func (k *Browser) childUIDs(uid widget.TreeNodeID) []widget.TreeNodeID {
	if uid == "" {
		names := k.host.Names()
		if len(names) == 0 {
			return []widget.TreeNodeID{kID(kNodeInfo, "none")}
		}
		out := make([]widget.TreeNodeID, len(names))
		for i, name := range names {
			out[i] = kID(kNodeConn, name)
		}
		return out
	}
	kind, parts := kSplit(uid)
	c := k.byName(parts[0])
	if c == nil {
		return nil
	}
	switch kind {
	case kNodeConn:
		if !c.loaded {
			k.load(c)
			return []widget.TreeNodeID{kID(kNodeInfo, parts[0], "loading")}
		}
		if c.err != "" {
			return []widget.TreeNodeID{kID(kNodeInfo, parts[0], "error")}
		}
		if len(c.topics) == 0 {
			return []widget.TreeNodeID{kID(kNodeInfo, parts[0], "empty")}
		}
		out := make([]widget.TreeNodeID, len(c.topics))
		for i, t := range c.topics {
			out[i] = kID(kNodeTopic, parts[0], t.Name)
		}
		return out
	case kNodeTopic:
		t, ok := k.topic(c, parts[1])
		if !ok {
			return nil
		}
		var out []widget.TreeNodeID
		for _, p := range t.Partitions {
			out = append(out, kID(kNodePartition, parts[0], parts[1], fmt.Sprint(p.ID)))
		}
		if lags, ok := c.lags[parts[1]]; !ok {
			if k.tree != nil && k.tree.IsBranchOpen(uid) {
				k.loadLags(c, parts[1])
			}
		} else if len(lags) > 0 {
			out = append(out, kID(kNodeGroups, parts[0], parts[1]))
		}
		return out
	case kNodeGroups:
		var out []widget.TreeNodeID
		for _, g := range c.lags[parts[1]] {
			out = append(out, kID(kNodeGroup, parts[0], parts[1], g.Group))
		}
		return out
	case kNodeGroup:
		for _, g := range c.lags[parts[1]] {
			if g.Group == parts[2] {
				var out []widget.TreeNodeID
				for _, p := range g.Partitions {
					out = append(out, kID(kNodeGroupPart, parts[0], parts[1], parts[2], fmt.Sprint(p.Partition)))
				}
				return out
			}
		}
	}
	return nil
}

func (k *Browser) isBranch(uid widget.TreeNodeID) bool {
	if uid == "" {
		return true
	}
	kind, _ := kSplit(uid)
	switch kind {
	case kNodeConn, kNodeTopic, kNodeGroups, kNodeGroup:
		return true
	}
	return false
}

// label is a node's name and detail, as the tree shows them.
func (k *Browser) label(uid widget.TreeNodeID) (icon fyne.Resource, name, detail string, imp widget.Importance) {
	kind, parts := kSplit(uid)
	imp = widget.MediumImportance
	if kind == kNodeInfo && parts[0] == "none" {
		return theme.InfoIcon(), "Add a Kafka cluster with +", "", widget.LowImportance // fits the narrow tree
	}
	c := k.byName(parts[0])
	if c == nil {
		return nil, "", "", imp
	}
	switch kind {
	case kNodeConn:
		cfg, _ := k.host.Config(c.name)
		detail = strings.Join(cfg.Brokers(), ",")
		if c.loaded && c.err == "" {
			detail += " · " + widgets.Plural(len(c.topics), "topic")
		}
		return theme.StorageIcon(), cfg.Name, detail, imp
	case kNodeInfo:
		switch parts[1] {
		case "loading":
			return theme.ViewRefreshIcon(), "Reading topics…", "", widget.LowImportance
		case "empty":
			return theme.InfoIcon(), "No topics", "", widget.LowImportance
		default:
			if strings.Contains(c.err, kafkabrowser.ErrNoPassword.Error()) {
				// the whole sentence did not fit the tree
				return theme.ErrorIcon(), "No password: double-click to enter it", "", widget.DangerImportance
			}
			// a short name, the reason beside it cut with an ellipsis (the
			// whole of it is in Messages and, once selected, the status bar)
			return theme.ErrorIcon(), "Cannot read topics", strings.TrimPrefix(firstLine(c.err), "listing topics: "), widget.DangerImportance
		}
	case kNodeTopic:
		t, _ := k.topic(c, parts[1])
		// the message count first: the sidebar is narrow and cuts the end
		detail = widgets.Plural(int(t.Messages()), "message") + " · " + widgets.Plural(len(t.Partitions), "partition")
		if lags := c.lags[parts[1]]; len(lags) > 0 {
			var total int64
			for _, g := range lags {
				total += g.Lag
			}
			detail += fmt.Sprintf(" · lag %s", widgets.GroupDigits(int(total)))
		}
		if t.Err != nil {
			detail, imp = t.Err.Error(), widget.DangerImportance
		}
		return theme.ListIcon(), t.Name, detail, imp
	case kNodePartition:
		t, _ := k.topic(c, parts[1])
		for _, p := range t.Partitions {
			if fmt.Sprint(p.ID) == parts[2] {
				if p.Err != nil {
					return nil, "partition " + parts[2], p.Err.Error(), widget.DangerImportance
				}
				return nil, "partition " + parts[2], fmt.Sprintf("%s · offsets %s … %s · leader %d",
					widgets.Plural(int(p.Messages()), "message"), widgets.GroupDigits(int(p.Start)), widgets.GroupDigits(int(p.End)), p.Leader), imp
			}
		}
	case kNodeGroups:
		return theme.AccountIcon(), "Consumer groups", fmt.Sprintf("%d", len(c.lags[parts[1]])), imp
	case kNodeGroup:
		for _, g := range c.lags[parts[1]] {
			if g.Group == parts[2] {
				return theme.AccountIcon(), g.Group, fmt.Sprintf("%s · lag %s", g.State, widgets.GroupDigits(int(g.Lag))), imp
			}
		}
	case kNodeGroupPart:
		for _, g := range c.lags[parts[1]] {
			if g.Group != parts[2] {
				continue
			}
			for _, p := range g.Partitions {
				if fmt.Sprint(p.Partition) == parts[3] {
					committed := "none"
					if p.Committed >= 0 {
						committed = widgets.GroupDigits(int(p.Committed))
					}
					lag := "?"
					if p.Lag >= 0 {
						lag = widgets.GroupDigits(int(p.Lag))
					}
					return nil, "partition " + parts[3], fmt.Sprintf("lag %s · committed %s · end %s", lag, committed, widgets.GroupDigits(int(p.End))), imp // lag first: the tree cuts the end
				}
			}
		}
	}
	return nil, "", "", imp
}

func (k *Browser) updateNode(uid widget.TreeNodeID, _ bool, o fyne.CanvasObject) {
	r := o.(*kafkaRow)
	icon, name, detail, imp := k.label(uid)
	r.set(uid, icon, name, detail, imp)
}

// VisibleLabels returns the text of the tree's nodes under open branches,
// indented two spaces a level (for tests).
func (k *Browser) VisibleLabels() []string {
	var out []string
	var walk func(uid widget.TreeNodeID, depth int)
	walk = func(uid widget.TreeNodeID, depth int) {
		for _, c := range k.childUIDs(uid) {
			_, name, detail, _ := k.label(c)
			s := strings.Repeat("  ", depth) + name
			if detail != "" {
				s += " · " + detail
			}
			out = append(out, s)
			if k.isBranch(c) && k.tree.IsBranchOpen(c) {
				walk(c, depth+1)
			}
		}
	}
	walk("", 0)
	return out
}

// reload reads a connection's topics again and opens it.
func (k *Browser) reload(name string) {
	c := k.byName(name)
	if c == nil {
		return
	}
	c.gen++
	c.loaded, c.loading, c.lags = false, false, nil
	k.tree.OpenBranch(kID(kNodeConn, name))
	k.load(c)
	k.refreshTree()
}

// menuFor is a node's context menu.
func (k *Browser) menuFor(uid widget.TreeNodeID) *fyne.Menu {
	kind, parts := kSplit(uid)
	h := k.host
	switch kind {
	case kNodeInfo:
		if parts[0] == "none" {
			return fyne.NewMenu("", fyne.NewMenuItem("Add a Kafka connection…", func() { h.EditConnection("") }))
		}
		if len(parts) > 1 && parts[1] == "error" {
			name := parts[0]
			return fyne.NewMenu("",
				fyne.NewMenuItem("Edit connection…", func() { h.EditConnection(name) }),
				fyne.NewMenuItem("Retry", func() { k.reload(name) }))
		}
	case kNodeConn:
		name := parts[0]
		return fyne.NewMenu("",
			fyne.NewMenuItem("Refresh", func() { k.reload(name) }),
			fyne.NewMenuItem("Edit connection…", func() { h.EditConnection(name) }),
			fyne.NewMenuItemSeparator(),
			fyne.NewMenuItem("Produce demo flights into "+assets.DemoKafkaTopic, func() { h.ProduceDemoFlights(name) }))
	case kNodeTopic, kNodePartition:
		c := parts[0]
		topic := parts[1]
		part := int32(-1)
		if kind == kNodePartition {
			fmt.Sscan(parts[2], &part)
		}
		where := ""
		if part >= 0 {
			where = fmt.Sprintf(" of partition %d", part)
		}
		return fyne.NewMenu("",
			fyne.NewMenuItem("Peek latest 50"+where, func() { h.Peek(c, topic, kafkabrowser.PeekOptions{Latest: true, N: 50, Partition: part}) }),
			fyne.NewMenuItem("Peek earliest 50"+where, func() { h.Peek(c, topic, kafkabrowser.PeekOptions{N: 50, Partition: part}) }),
			fyne.NewMenuItemSeparator(),
			fyne.NewMenuItem("Create table from topic…", func() { h.CreateTable(c, topic) }),
			fyne.NewMenuItem("Insert topic name into editor", func() {
				h.InsertText("'" + strings.ReplaceAll(topic, "'", "''") + "'")
			}))
	}
	return nil
}

// kafkaRow draws one node and opens its context menu.
type kafkaRow struct {
	widget.BaseWidget
	k      *Browser
	uid    widget.TreeNodeID
	icon   *widget.Icon
	name   *widget.Label
	detail *widget.Label
	box    *fyne.Container
}

var (
	_ fyne.Tappable          = (*kafkaRow)(nil)
	_ fyne.SecondaryTappable = (*kafkaRow)(nil)
	_ fyne.DoubleTappable    = (*kafkaRow)(nil)
)

func newKafkaRow(k *Browser) *kafkaRow {
	r := &kafkaRow{k: k, icon: widget.NewIcon(nil), name: widget.NewLabel(""), detail: widget.NewLabel("")}
	r.detail.Importance = widget.LowImportance
	r.detail.Truncation = fyne.TextTruncateEllipsis
	r.ExtendBaseWidget(r)
	r.box = container.NewBorder(nil, nil, container.NewHBox(r.icon, r.name), nil, r.detail)
	return r
}

func (r *kafkaRow) set(uid widget.TreeNodeID, icon fyne.Resource, name, detail string, imp widget.Importance) {
	r.uid = uid
	r.icon.SetResource(icon)
	if icon == nil {
		r.icon.Hide()
	} else {
		r.icon.Show()
	}
	r.name.Importance = imp
	r.name.SetText(name)
	r.detail.SetText(detail)
}

func (r *kafkaRow) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(r.box) }

// Tapped selects the node (a widget taking double taps gets the single
// ones too).
func (r *kafkaRow) Tapped(*fyne.PointEvent) { r.k.tree.Select(r.uid) }

// DoubleTapped peeks at a topic (latest messages), opens other branches.
func (r *kafkaRow) DoubleTapped(*fyne.PointEvent) {
	kind, parts := kSplit(r.uid)
	if kind == kNodeTopic {
		r.k.host.Peek(parts[0], parts[1], kafkabrowser.PeekOptions{Latest: true, N: 50, Partition: -1})
		return
	}
	if kind == kNodeInfo && parts[0] == "none" {
		r.k.host.EditConnection("")
		return
	}
	if kind == kNodeInfo && len(parts) > 1 && parts[1] == "error" {
		// fix the settings (or enter the password) where they are
		r.k.host.EditConnection(parts[0])
		return
	}
	if r.k.isBranch(r.uid) {
		r.k.tree.ToggleBranch(r.uid)
	}
}

// TappedSecondary opens the node's context menu.
func (r *kafkaRow) TappedSecondary(ev *fyne.PointEvent) {
	r.k.tree.Select(r.uid)
	m := r.k.menuFor(r.uid)
	if m == nil {
		return
	}
	if c := fyne.CurrentApp().Driver().CanvasForObject(r); c != nil {
		widget.ShowPopUpMenuAtPosition(m, c, ev.AbsolutePosition)
	}
}

// firstLine is s up to its first line break.
func firstLine(s string) string {
	f, _, _ := strings.Cut(s, "\n")
	return f
}
