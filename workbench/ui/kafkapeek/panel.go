package kafkapeek

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/workbench/kafkabrowser"
	"github.com/riffle-sql/riffle/workbench/ui/widgets"
)

// Timeout bounds one peek.
const Timeout = 15 * time.Second

// Connect returns the Kafka client of the topic's connection.
type Connect func() (*kafkabrowser.Client, error)

// Host is what the panel asks of the workbench.
type Host interface {
	// Do runs f on the UI goroutine (not at all once the workbench
	// closed).
	Do(f func())
	// Error reports a failed peek (in the Messages panel).
	Error(msg string)
	// CreateTable infers a table from the topic (the "Create table…"
	// button).
	CreateTable()
}

// Panel is one peek tab.
type Panel struct {
	host    Host
	connect Connect
	topic   string
	item    *container.TabItem

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

var heads = []string{"Partition", "Offset", "Timestamp", "Key", "Value", "Headers"}

// New returns the peek panel of a topic with the given partitions (for
// the partition choice), reading through connect and reporting to host.
// SetOptions and Peek read messages.
func New(topic string, partitions []int32, connect Connect, host Host) *Panel {
	p := &Panel{host: host, connect: connect, topic: topic}
	p.from = widget.NewSelect([]string{"Latest", "Earliest"}, nil)
	p.count = widget.NewEntry()
	p.count.SetText("50")
	parts := []string{"All partitions"}
	for _, id := range partitions {
		parts = append(parts, fmt.Sprint(id))
	}
	p.partition = widget.NewSelect(parts, nil)
	p.perPart = widget.NewCheck("N per partition", nil)
	p.peekBtn = widget.NewButtonWithIcon("Peek", theme.ViewRefreshIcon(), p.Peek)
	create := widget.NewButtonWithIcon("Create table…", theme.ContentAddIcon(), host.CreateTable)
	p.status = widget.NewLabel("")
	p.status.Truncation = fyne.TextTruncateEllipsis
	p.detail = widget.NewLabel("Select a message to see it whole.")
	p.detail.TextStyle = fyne.TextStyle{Monospace: true}
	p.detail.Selectable = true
	p.table = widget.NewTable(func() (int, int) { return len(p.msgs), len(heads) },
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
			l.SetText(Cell(p.msgs[id.Row], id.Col))
		})
	p.table.ShowHeaderRow = true
	p.table.CreateHeader = func() fyne.CanvasObject {
		return widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	}
	p.table.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		if id.Col >= 0 {
			o.(*widget.Label).SetText(heads[id.Col])
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

// Cell is the text of column col (partition, offset, timestamp, key,
// value, headers) of a message in the grid.
func Cell(m kafkabrowser.Message, col int) string {
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

func (p *Panel) showDetail(row int) {
	if row < 0 || row >= len(p.msgs) {
		return
	}
	p.detail.SetText(detailText(p.msgs[row]))
}

// options reads the bar.
func (p *Panel) options() (kafkabrowser.PeekOptions, error) {
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

// Peek reads messages with the bar's options in the background.
func (p *Panel) Peek() {
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
	host := p.host
	go func() {
		var res kafkabrowser.PeekResult
		cl, err := p.connect()
		started := time.Now()
		if err == nil {
			ctx, cancel := context.WithTimeout(context.Background(), Timeout)
			res, err = cl.Peek(ctx, p.topic, o)
			cancel()
		}
		took := time.Since(started)
		host.Do(func() {
			if n != p.n {
				return
			}
			p.loading = false
			if err != nil {
				p.status.Importance = widget.DangerImportance
				p.status.SetText(err.Error())
				host.Error("Peek " + p.topic + ": " + err.Error())
				return
			}
			p.msgs = res.Messages
			p.table.UnselectAll()
			p.table.Refresh()
			p.table.ScrollToTop()
			s := Summary(len(p.msgs), o)
			s += fmt.Sprintf(" · read at %s in %s", readAt(time.Now()), widgets.FormatDuration(took))
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

// Summary says what a peek of n messages with options o shows: "The
// latest 50 messages, newest first", "All 20 messages, newest first (asked
// for the latest 50)", "No messages: partition 3 is empty".
func Summary(n int, o kafkabrowser.PeekOptions) string {
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
		return fmt.Sprintf("%s: the %s %d per partition%s", widgets.Plural(n, "message"), what, o.N, order)
	case n < o.N:
		return fmt.Sprintf("All %s%s (asked for the %s %d)", widgets.Plural(n, "message"), order, what, o.N)
	}
	return fmt.Sprintf("The %s %s%s", what, widgets.Plural(n, "message"), order)
}

// readAt says when a reading was taken (for the status line).
func readAt(t time.Time) string { return t.Format("15:04:05") }
