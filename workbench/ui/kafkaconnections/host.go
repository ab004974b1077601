package kafkaconnections

import "github.com/riffle-sql/riffle/workbench/kafkabrowser"

// Host is what the Kafka connections dialog asks of the workbench, on the
// UI goroutine.
type Host interface {
	// Names lists the Kafka connections' names, in the tree's order.
	Names() []string
	// Config returns the named connection's settings; false when there
	// is none.
	Config(name string) (kafkabrowser.Config, bool)
	// Save stores a connection: a new one (old == "") or the one named
	// old, perhaps renamed; its error is worded for the user.
	Save(old string, cfg kafkabrowser.Config) error
	// Remove deletes the named connection.
	Remove(name string) error
	// Do runs f on the UI goroutine, unless the workbench has closed.
	Do(f func())
	// Closed says the dialog d was closed.
	Closed(d *Dialog)
}
