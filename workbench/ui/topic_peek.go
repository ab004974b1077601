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
	"strings"

	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"

	"github.com/riffle-sql/riffle/engine/connector/infer"
	"github.com/riffle-sql/riffle/workbench/kafkabrowser"
	"github.com/riffle-sql/riffle/workbench/ui/kafkapeek"
	"github.com/riffle-sql/riffle/workbench/ui/openfile"
)

// inferSample is how many of the latest messages a table is inferred from.
const inferSample = 500

// topicPeek is one peek tab (kafkapeek.Panel) and the connection it reads.
type topicPeek struct {
	*kafkapeek.Panel
	conn *kafkaConn
}

// peekHost is a peek tab's way to the workbench (kafkapeek.Host).
type peekHost struct {
	wb    *Workbench
	conn  *kafkaConn
	topic string
}

// Do runs f on the UI goroutine unless the workbench has closed.
func (h peekHost) Do(f func()) {
	h.wb.do(func() {
		if !h.wb.closed {
			f()
		}
	})
}

func (h peekHost) Error(msg string) { h.wb.messages.add(levelError, msg, nil) }
func (h peekHost) CreateTable()     { h.wb.createTableFromTopic(h.conn, h.topic) }

// openPeek opens (or reuses) the peek tab of a topic and reads messages.
func (wb *Workbench) openPeek(c *kafkaConn, topic string, o kafkabrowser.PeekOptions) *topicPeek {
	if c == nil {
		return nil
	}
	k := wb.kafka
	var p *topicPeek
	for _, x := range k.peeks {
		if x.conn == c && x.Topic() == topic {
			p = x
		}
	}
	if p == nil {
		var parts []int32
		if t, ok := k.browser.Topic(c.config().Name, topic); ok {
			for _, x := range t.Partitions {
				parts = append(parts, x.ID)
			}
		}
		p = &topicPeek{Panel: kafkapeek.New(topic, parts, c.cli, peekHost{wb, c, topic}), conn: c}
		k.peeks = append(k.peeks, p)
		wb.bottom.Append(p.Item())
	}
	wb.showPanel(p.Item())
	p.SetOptions(o)
	p.Peek()
	return p
}

// closeKafkaTab removes a peek tab (the bottom tabs' close button).
func (wb *Workbench) closeKafkaTab(it *container.TabItem) bool {
	if wb.kafka == nil {
		return false
	}
	for i, p := range wb.kafka.peeks {
		if p.Item() == it {
			p.Drop() // a peek still running is dropped
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
			ctx, cancel := context.WithTimeout(context.Background(), kafkapeek.Timeout)
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
func (wb *Workbench) showTopicReview(c *kafkaConn, prop *kafkabrowser.Proposal) *openfile.Review {
	res := prop.Result
	res.Complete = false // "N rows sampled"
	r := wb.showOpenReview(res)
	cfg := c.config()
	r.Unmask = cfg.Unmask
	if cfg.Password != "" && (cfg.Security == kafkabrowser.SASLPlaintext || cfg.Security == kafkabrowser.SASLSSL) {
		r.InitCheck().Text = "Add to the workspace's init script (with the password masked: edit it there to keep the table across restarts)"
		r.InitCheck().Refresh()
	}
	return r
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
