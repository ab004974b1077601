package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"

	"github.com/riffle-sql/riffle/workbench/kafkabrowser"
	"github.com/riffle-sql/riffle/workbench/ui/topicbrowser"
)

// splitKafka names the catalog / Kafka tree split in the saved layout.
const splitKafka = "kafka"

// kafkaPane puts the Kafka tree (topicbrowser) under the catalog pane.
func (wb *Workbench) kafkaPane(catalog fyne.CanvasObject) fyne.CanvasObject {
	if wb.kafka == nil {
		wb.kafka = newKafkaUI(wb)
	}
	k := wb.kafka
	k.split = container.NewVSplit(catalog, k.browser.Pane())
	k.split.Offset = 0.62
	if len(k.conns) == 0 {
		k.split.Offset = 0.8 // room for the catalog until a cluster is added
	}
	return k.split
}

// topicBrowserHost is what the Kafka tree (topicbrowser) asks of the
// workbench: the Kafka connections and their clients, the peek tabs,
// Create table from topic, the editor, Messages and the status bar.
type topicBrowserHost struct{ k *kafkaUI }

var _ topicbrowser.Host = topicBrowserHost{}

func (h topicBrowserHost) Names() []string {
	out := make([]string, len(h.k.conns))
	for i, c := range h.k.conns {
		out[i] = c.config().Name
	}
	return out
}

func (h topicBrowserHost) Config(name string) (kafkabrowser.Config, bool) {
	if c := h.k.byName(name); c != nil {
		return c.config(), true
	}
	return kafkabrowser.Config{}, false
}

func (h topicBrowserHost) Connect(name string) (func() (*kafkabrowser.Client, error), bool) {
	if c := h.k.byName(name); c != nil {
		return c.cli, true
	}
	return nil, false
}

func (h topicBrowserHost) Do(f func()) {
	wb := h.k.wb
	wb.do(func() {
		if !wb.closed {
			f()
		}
	})
}

func (h topicBrowserHost) SetStatus(msg string) { h.k.wb.setStatus(msg) }
func (h topicBrowserHost) Error(msg string)     { h.k.wb.messages.add(levelError, msg, nil) }
func (h topicBrowserHost) Warning(msg string)   { h.k.wb.messages.add(levelWarning, msg, nil) }

func (h topicBrowserHost) EditConnection(name string) { h.k.wb.openKafkaConnectionsDialog(name) }

func (h topicBrowserHost) Peek(conn, topic string, o kafkabrowser.PeekOptions) {
	h.k.wb.openPeek(h.k.byName(conn), topic, o)
}

func (h topicBrowserHost) CreateTable(conn, topic string) {
	h.k.wb.createTableFromTopic(h.k.byName(conn), topic)
}

func (h topicBrowserHost) InsertText(text string) {
	if t := h.k.wb.editors.current(); t != nil {
		t.ed.InsertAtCursor(text)
	}
}

func (h topicBrowserHost) ProduceDemoFlights(conn string) {
	h.k.wb.produceDemoFlights(h.k.byName(conn))
}
