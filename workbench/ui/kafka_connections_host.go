package ui

import (
	"github.com/riffle-sql/riffle/workbench/kafkabrowser"
	"github.com/riffle-sql/riffle/workbench/ui/kafkaconnections"
)

// kafkaConnectionsHost is what File ▸ Kafka connections…
// (kafkaconnections) asks of the workbench: its Kafka connections.
type kafkaConnectionsHost struct{ k *kafkaUI }

var _ kafkaconnections.Host = kafkaConnectionsHost{}

// showKafkaConnectionsDialog is File ▸ Kafka connections….
func (wb *Workbench) showKafkaConnectionsDialog() { wb.openKafkaConnectionsDialog("") }

// openKafkaConnectionsDialog opens the dialog on a connection ("" = new).
func (wb *Workbench) openKafkaConnectionsDialog(name string) *kafkaconnections.Dialog {
	cd := kafkaconnections.Show(wb.win, kafkaConnectionsHost{wb.kafka}, name)
	wb.kafka.dlg = cd
	return cd
}

func (h kafkaConnectionsHost) Names() []string {
	out := make([]string, len(h.k.conns))
	for i, c := range h.k.conns {
		out[i] = c.config().Name
	}
	return out
}

func (h kafkaConnectionsHost) Config(name string) (kafkabrowser.Config, bool) {
	if c := h.k.byName(name); c != nil {
		return c.config(), true
	}
	return kafkabrowser.Config{}, false
}

func (h kafkaConnectionsHost) Save(old string, cfg kafkabrowser.Config) error {
	_, err := h.k.save(old, cfg)
	return err
}

func (h kafkaConnectionsHost) Remove(name string) error { return h.k.remove(name) }

func (h kafkaConnectionsHost) Do(f func()) {
	wb := h.k.wb
	wb.do(func() {
		if !wb.closed {
			f()
		}
	})
}

func (h kafkaConnectionsHost) Closed(d *kafkaconnections.Dialog) {
	if h.k.dlg == d {
		h.k.dlg = nil
	}
}
