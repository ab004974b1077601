package topicbrowser

import "github.com/riffle-sql/riffle/workbench/kafkabrowser"

// Host is what the Kafka tree asks of the workbench, on the UI goroutine
// (but for the function Connect returns).
type Host interface {
	// Names lists the Kafka connections' names, in the tree's order.
	Names() []string
	// Config returns the named connection's settings; false when there
	// is none.
	Config(name string) (kafkabrowser.Config, bool)
	// Connect returns the named connection's client function (made on
	// first use; safe on any goroutine; kafkabrowser.ErrNoPassword while
	// a SASL password is missing); false when there is no such connection.
	Connect(name string) (func() (*kafkabrowser.Client, error), bool)
	// Do runs f on the UI goroutine, unless the workbench has closed.
	Do(f func())
	// SetStatus shows msg in the status bar.
	SetStatus(msg string)
	// Error and Warning add msg to Messages.
	Error(msg string)
	Warning(msg string)
	// EditConnection opens File ▸ Kafka connections… on the named
	// connection ("" = a new one).
	EditConnection(name string)
	// Peek opens (or reuses) the peek tab of a topic of the named
	// connection and reads messages as o asks.
	Peek(conn, topic string, o kafkabrowser.PeekOptions)
	// CreateTable samples a topic, infers a table and shows it for review.
	CreateTable(conn, topic string)
	// InsertText types text at the current editor tab's cursor (none
	// open: nothing).
	InsertText(text string)
	// ProduceDemoFlights writes the bundled flights to the demo topic of
	// the named connection and opens the demo query.
	ProduceDemoFlights(conn string)
}
