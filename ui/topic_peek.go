package ui

// Peek: a bottom tab showing the earliest or latest N messages of a topic
// (one partition or all) in a grid — partition, offset, timestamp, key,
// value, headers — with the selected message in a detail pane (pretty
// JSON; binary data as a hex dump and base64). From there, or from the
// topic's context menu, "Create table…" infers a table from sampled
// messages and shows File ▸ Open's review dialog with the generated
// CREATE TABLE … WITH ('connector' = 'kafka', …).

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/engine/connector/infer"
	"github.com/riffle-sql/riffle/kafkabrowser"
	"github.com/riffle-sql/riffle/ui/widgets"
)

// peekTimeout bounds one peek.
const peekTimeout = 15 * time.Second

// inferSample is how many of the latest messages a table is inferred from.
const inferSample = 500

// topicPeek is one peek tab.
type topicPeek struct {
	wb    *Workbench
	conn  *kafkaConn
	topic string
	item  *container.TabItem

	from      *widget.Select // Latest / Earliest
	count     *widget.Entry
	partition *widget.Select
	perPart   *widget.Check
	peekBtn   *widget.Button
	status    *widget.Label
	table     *widget.Table
	detail    *widget.Label

	msgs    []kafkabrowser.Message
	loading bool
	n       int // bumped per peek
}

var peekHeads = []string{"Partition", "Offset", "Timestamp", "Key", "Value", "Headers"}

// openPeek opens (or reuses) the peek tab of a topic and reads messages.
func (wb *Workbench) openPeek(c *kafkaConn, topic string, o kafkabrowser.PeekOptions) *topicPeek {
	if c == nil {
		return nil
	}
	k := wb.kafka
	var p *topicPeek
	for _, x := range k.peeks {
		if x.conn == c && x.topic == topic {
			p = x
		}
	}
	if p == nil {
		p = newTopicPeek(wb, c, topic)
		k.peeks = append(k.peeks, p)
		wb.bottom.Append(p.item)
	}
	wb.showPanel(p.item)
	if o.Latest {
		p.from.SetSelected("Latest")
	} else {
		p.from.SetSelected("Earliest")
	}
	if o.N > 0 {
		p.count.SetText(strconv.Itoa(o.N))
	}
	if o.Partition >= 0 {
		p.partition.SetSelected(fmt.Sprint(o.Partition))
	} else {
		p.partition.SetSelected("All partitions")
	}
	p.perPart.SetChecked(o.PerPartition)
	p.peek()
	return p
}

func newTopicPeek(wb *Workbench, c *kafkaConn, topic string) *topicPeek {
	p := &topicPeek{wb: wb, conn: c, topic: topic}
	p.from = widget.NewSelect([]string{"Latest", "Earliest"}, nil)
	p.count = widget.NewEntry()
	p.count.SetText("50")
	parts := []string{"All partitions"}
	if t, ok := wb.kafka.topic(c, topic); ok {
		for _, x := range t.Partitions {
			parts = append(parts, fmt.Sprint(x.ID))
		}
	}
	p.partition = widget.NewSelect(parts, nil)
	p.perPart = widget.NewCheck("N per partition", nil)
	p.peekBtn = widget.NewButtonWithIcon("Peek", theme.ViewRefreshIcon(), p.peek)
	create := widget.NewButtonWithIcon("Create table…", theme.ContentAddIcon(), func() { wb.createTableFromTopic(c, topic) })
	p.status = widget.NewLabel("")
	p.status.Truncation = fyne.TextTruncateEllipsis
	p.detail = widget.NewLabel("Select a message to see it whole.")
	p.detail.TextStyle = fyne.TextStyle{Monospace: true}
	p.detail.Selectable = true
	p.table = widget.NewTable(func() (int, int) { return len(p.msgs), len(peekHeads) },
		func() fyne.CanvasObject {
			l := widget.NewLabel("")
			l.Truncation = fyne.TextTruncateEllipsis
			return l
		},
		func(id widget.TableCellID, o fyne.CanvasObject) {
			l := o.(*widget.Label)
			if id.Row >= len(p.msgs) {
				l.SetText("")
				return
			}
			l.SetText(peekCell(p.msgs[id.Row], id.Col))
		})
	p.table.ShowHeaderRow = true
	p.table.CreateHeader = func() fyne.CanvasObject {
		return widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	}
	p.table.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		if id.Col >= 0 {
			o.(*widget.Label).SetText(peekHeads[id.Col])
		}
	}
	for i, w := range []float32{70, 80, 185, 100, 420, 160} {
		p.table.SetColumnWidth(i, w)
	}
	p.table.OnSelected = func(id widget.TableCellID) { p.showDetail(id.Row) }
	bar := container.NewHBox(p.from, widgets.PrefWidth(70, p.count), widget.NewLabel("messages of"), p.partition, p.perPart, p.peekBtn, create)
	split := container.NewHSplit(p.table, container.NewScroll(p.detail))
	split.Offset = 0.62
	content := container.NewBorder(container.NewVBox(container.NewHScroll(bar), p.status), nil, nil, nil, split)
	p.item = container.NewTabItemWithIcon("Peek "+topic, theme.SearchIcon(), content)
	return p
}

// peekCell is a grid cell's text.
func peekCell(m kafkabrowser.Message, col int) string {
	switch col {
	case 0:
		return fmt.Sprint(m.Partition)
	case 1:
		return fmt.Sprint(m.Offset)
	case 2:
		return m.Timestamp.Local().Format("2006-01-02 15:04:05.000")
	case 3:
		if m.Key == nil {
			return "∅"
		}
		return kafkabrowser.Short(m.Key, 60)
	case 4:
		if m.Value == nil {
			return "∅ (tombstone)"
		}
		return kafkabrowser.Short(m.Value, 300)
	default:
		var hs []string
		for _, h := range m.Headers {
			hs = append(hs, h.Key+"="+kafkabrowser.Short(h.Value, 40))
		}
		return strings.Join(hs, ", ")
	}
}

// detailText is a message shown whole.
func detailText(m kafkabrowser.Message) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s · partition %d · offset %d · %s\n", m.Topic, m.Partition, m.Offset, m.Timestamp.Local().Format("2006-01-02 15:04:05.000 MST"))
	if m.Key == nil {
		b.WriteString("\nKey: none\n")
	} else {
		enc, key := kafkabrowser.Render(m.Key)
		fmt.Fprintf(&b, "\nKey (%s):\n%s\n", enc, key)
	}
	if m.Value == nil {
		b.WriteString("\nValue: none (a tombstone)\n")
	} else {
		enc, val := kafkabrowser.Render(m.Value)
		fmt.Fprintf(&b, "\nValue (%s, %d bytes):\n%s\n", enc, len(m.Value), val)
	}
	if len(m.Headers) > 0 {
		b.WriteString("\nHeaders:\n")
		for _, h := range m.Headers {
			_, v := kafkabrowser.Render(h.Value)
			fmt.Fprintf(&b, "  %s: %s\n", h.Key, v)
		}
	}
	return b.String()
}

func (p *topicPeek) showDetail(row int) {
	if row < 0 || row >= len(p.msgs) {
		return
	}
	p.detail.SetText(detailText(p.msgs[row]))
}

// options reads the bar.
func (p *topicPeek) options() (kafkabrowser.PeekOptions, error) {
	n, err := strconv.Atoi(strings.TrimSpace(p.count.Text))
	if err != nil || n <= 0 || n > 10000 {
		return kafkabrowser.PeekOptions{}, fmt.Errorf("the number of messages must be 1 to 10000, not %q", p.count.Text)
	}
	o := kafkabrowser.PeekOptions{Latest: p.from.Selected != "Earliest", N: n, Partition: -1, PerPartition: p.perPart.Checked}
	if s := p.partition.Selected; s != "" && s != "All partitions" {
		v, _ := strconv.Atoi(s)
		o.Partition = int32(v)
	}
	return o, nil
}

// peek reads messages in the background.
func (p *topicPeek) peek() {
	o, err := p.options()
	if err != nil {
		p.status.Importance = widget.DangerImportance
		p.status.SetText(err.Error())
		return
	}
	p.n++
	n := p.n
	p.loading = true
	p.status.Importance = widget.MediumImportance
	p.status.SetText("Reading " + p.topic + "…")
	wb := p.wb
	go func() {
		var res kafkabrowser.PeekResult
		cl, err := p.conn.cli()
		started := time.Now()
		if err == nil {
			ctx, cancel := context.WithTimeout(context.Background(), peekTimeout)
			res, err = cl.Peek(ctx, p.topic, o)
			cancel()
		}
		took := time.Since(started)
		wb.do(func() {
			if wb.closed {
				return
			}
			if n != p.n {
				return
			}
			p.loading = false
			if err != nil {
				p.status.Importance = widget.DangerImportance
				p.status.SetText(err.Error())
				wb.messages.add(levelError, "Peek "+p.topic+": "+err.Error(), nil)
				return
			}
			p.msgs = res.Messages
			p.table.UnselectAll()
			p.table.Refresh()
			p.table.ScrollToTop()
			s := peekSummary(len(p.msgs), o)
			s += fmt.Sprintf(" · read at %s in %s", kafkaStatusAge(time.Now()), widgets.FormatDuration(took))
			if res.Partial {
				s += " · partial: the end of some partitions was not reached in time"
			}
			p.status.Importance = widget.LowImportance
			p.status.SetText(s)
			if len(p.msgs) > 0 {
				p.detail.SetText(detailText(p.msgs[0]))
			} else if o.Partition >= 0 {
				p.detail.SetText(fmt.Sprintf("Partition %d of %s holds no messages.", o.Partition, p.topic))
			} else {
				p.detail.SetText(fmt.Sprintf("Topic %s holds no messages.", p.topic))
			}
		})
	}()
}

// sentence starts s with a capital letter and ends it with a period.
func sentence(s string) string {
	if s == "" {
		return s
	}
	s = strings.ToUpper(s[:1]) + s[1:]
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}

// peekSummary says what a peek of n messages with options o shows: "The
// latest 50 messages, newest first", "All 20 messages, newest first (asked
// for the latest 50)", "No messages: partition 3 is empty".
func peekSummary(n int, o kafkabrowser.PeekOptions) string {
	if o.N <= 0 {
		o.N = 50 // Peek's default
	}
	what := "latest"
	if !o.Latest {
		what = "earliest"
	}
	if n == 0 {
		if o.Partition >= 0 {
			return fmt.Sprintf("No messages: partition %d is empty", o.Partition)
		}
		return "No messages: the topic is empty"
	}
	order := ""
	if o.Latest {
		order = ", newest first"
	}
	switch {
	case o.PerPartition && o.Partition < 0:
		return fmt.Sprintf("%s: the %s %d per partition%s", plural(n, "message"), what, o.N, order)
	case n < o.N:
		return fmt.Sprintf("All %s%s (asked for the %s %d)", plural(n, "message"), order, what, o.N)
	}
	return fmt.Sprintf("The %s %s%s", what, plural(n, "message"), order)
}

// closeKafkaTab removes a peek tab (the bottom tabs' close button).
func (wb *Workbench) closeKafkaTab(it *container.TabItem) bool {
	if wb.kafka == nil {
		return false
	}
	for i, p := range wb.kafka.peeks {
		if p.item == it {
			p.n++ // a peek still running is dropped
			wb.kafka.peeks = append(wb.kafka.peeks[:i], wb.kafka.peeks[i+1:]...)
			wb.bottom.Remove(it)
			return true
		}
	}
	return false
}

// createTableFromTopic samples the latest messages of a topic, infers a
// table and shows the review dialog of File ▸ Open with the generated
// CREATE TABLE; creating runs it with the connection's password (shown
// and saved masked).
func (wb *Workbench) createTableFromTopic(c *kafkaConn, topic string) {
	if c == nil {
		return
	}
	wb.setStatus("Sampling " + topic + "…")
	a := wb.authoring()
	a.bg.Add(1)
	go func() {
		defer a.bg.Done()
		var prop *kafkabrowser.Proposal
		cl, err := c.cli()
		if err == nil {
			ctx, cancel := context.WithTimeout(context.Background(), peekTimeout)
			var res kafkabrowser.PeekResult
			res, err = cl.Peek(ctx, topic, kafkabrowser.PeekOptions{Latest: true, N: inferSample, Partition: -1})
			cancel()
			if err == nil {
				prop, err = kafkabrowser.Infer(c.config(), topic, res.Messages)
			}
		}
		wb.do(func() {
			if wb.closed {
				return
			}
			if err != nil {
				msg := strings.TrimPrefix(err.Error(), infer.ErrUnsupported.Error()+": ")
				wb.setStatus("Cannot create a table from " + topic)
				wb.messages.add(levelError, "Create table from topic "+topic+": "+msg, nil)
				if !errors.Is(err, infer.ErrUnsupported) || !strings.Contains(msg, "no messages") {
					dialog.ShowError(fmt.Errorf("no table for topic %s:\n%s", topic, msg), wb.win)
				} else {
					dialog.ShowInformation("Create table from "+topic, sentence(msg)+"\nProduce a few messages first, or write the CREATE TABLE by hand.", wb.win)
				}
				return
			}
			wb.setStatus(fmt.Sprintf("Sampled %d message(s) of %s", prop.Sampled, topic))
			wb.showTopicReview(c, prop)
		})
	}()
}

// showTopicReview shows the review dialog of a proposal.
func (wb *Workbench) showTopicReview(c *kafkaConn, prop *kafkabrowser.Proposal) *openReview {
	res := prop.Result
	res.Complete = false // "N rows sampled"
	r := wb.showOpenReview(res)
	cfg := c.config()
	r.unmask = cfg.Unmask
	if cfg.Password != "" && (cfg.Security == kafkabrowser.SASLPlaintext || cfg.Security == kafkabrowser.SASLSSL) {
		r.initCheck.Text = "Add to the workspace's init script (with the password masked: edit it there to keep the table across restarts)"
		r.initCheck.Refresh()
	}
	return r
}
