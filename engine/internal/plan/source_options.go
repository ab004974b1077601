package plan

// Riffle extensions understood for every source table, whatever its
// connector. They are not Flink options: the planner removes them before
// the connector sees the table's options.
const (
	// OptReplaySpeed replays a table with a rowtime attribute as a live
	// stream paced by event time: 'N' makes event time advance N times as
	// fast as wall-clock time ('1' = real time, '60' = an hour per
	// minute); 'max' (the default) reads as fast as possible.
	OptReplaySpeed = "source.replay-speed"
	// OptBatchSize bounds the rows of the batches a source emits (it
	// splits larger ones), e.g. to feed a stream row by row in tests.
	OptBatchSize = "source.batch-size"
)

// ExtensionOptions lists Riffle's own per-table source options (the keys
// above), which connectors do not declare.
var ExtensionOptions = []string{OptReplaySpeed, OptBatchSize}
