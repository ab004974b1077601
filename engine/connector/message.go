package connector

import (
	"fmt"
	"strings"

	"github.com/riffle-sql/riffle/engine/types"
)

// Message formats: a format that can also decode and encode one message at
// a time (a Kafka record's key or value), as Flink's
// DeserializationSchema/SerializationSchema do, beside the byte-stream
// Decoder/Encoder that files use.
//
// A message connector (kafka, upsert-kafka) creates one MessageDecoder per
// key or value part and per split, feeds it messages in order, and zips the
// rows it yields with the message's key and metadata columns.

// MessageFormatFactory is implemented by a FormatFactory whose format can be
// used on message connectors. FormatContext.Names/Types are the columns the
// format reads or writes (for a value format: the value fields, see Flink's
// 'value.fields-include'); FormatContext.Projection is nil.
type MessageFormatFactory interface {
	FormatFactory
	// CreateMessageDecoder returns a decoder of single messages.
	CreateMessageDecoder(ctx *FormatContext) (MessageDecoder, error)
	// CreateMessageEncoder returns an encoder of single rows.
	CreateMessageEncoder(ctx *FormatContext) (MessageEncoder, error)
}

// ChangelogFormat is implemented by formats whose messages carry row kinds
// (debezium-json, canal-json, maxwell-json): the source's changelog mode is
// the format's. Formats that do not implement it are insert-only.
type ChangelogFormat interface {
	// DecodingChangelogMode is the set of kinds the decoder yields.
	DecodingChangelogMode() types.ChangelogMode
	// EncodingChangelogMode is the set of kinds the encoder accepts.
	EncodingChangelogMode() types.ChangelogMode
}

// MessageDecoder decodes single messages into rows of FormatContext.Names.
// It is used by one goroutine.
type MessageDecoder interface {
	// Decode decodes msg and appends the rows it holds to the pending
	// batch: one for most formats, zero for a message a changelog format
	// filters out, two for an update in a changelog format (-U then +U). It
	// returns how many rows it appended. A message that cannot be decoded
	// returns an error describing what is wrong (the caller adds topic,
	// partition and offset) and appends nothing; with the format's
	// ignore-parse-errors option set it returns (0, nil) and counts the
	// message in SkippedRows instead. msg is only valid during the call.
	// A nil msg (a Kafka tombstone) is never passed by message connectors.
	Decode(msg []byte) (int, error)
	// Flush returns the pending rows as one batch (columns in
	// FormatContext.Names order, Kinds set when any row is not an INSERT)
	// and starts a new batch. It returns a batch with Len 0 when nothing is
	// pending.
	Flush() *types.Batch
	// SkippedRows counts messages skipped by ignore-parse-errors.
	SkippedRows() int64
}

// MessageMetadata is implemented by a MessageDecoder of a format that
// offers metadata of its own (debezium-json's 'value.source.timestamp',
// ...): the decoder appends the requested keys' values after the physical
// columns of each row. Keys are the format's (without a 'value.' prefix).
type MessageMetadata interface {
	// ReadableMetadata lists the keys and their types.
	ReadableMetadata() map[string]*types.DataType
	// SetMetadata selects the keys to append, in order; it is called once,
	// before the first Decode.
	SetMetadata(keys []string) error
}

// MessageEncoder encodes single rows.
type MessageEncoder interface {
	// Encode appends the encoding of row i of b (columns in
	// FormatContext.Names order) to dst and returns it. A changelog format
	// encodes the row's kind (b.Kind(i)); an insert-only format is never
	// given other kinds. A nil result with a nil error means the row
	// produces no message.
	Encode(dst []byte, b *types.Batch, i int) ([]byte, error)
}

// LookupMessageFormat finds a format usable on message connectors; the
// error names the table's option and lists the formats that are.
func LookupMessageFormat(option, id string) (MessageFormatFactory, error) {
	f, err := LookupFormat(id)
	if err != nil {
		return nil, fmt.Errorf("option '%s': %w", option, err)
	}
	mf, ok := f.(MessageFormatFactory)
	if !ok {
		var ok []string
		for _, other := range FormatIdentifiers() {
			g, _ := LookupFormat(other)
			if _, is := g.(MessageFormatFactory); is {
				ok = append(ok, other)
			}
		}
		return nil, fmt.Errorf("option '%s': format '%s' cannot be used on a message connector; formats that can: %s", option, id, strings.Join(ok, ", "))
	}
	return mf, nil
}

// SplitProgress is where the reader of one split of an unbounded log (a
// Kafka topic partition) stands, for the jobs panel and the REST metrics.
type SplitProgress struct {
	// Split names the split, e.g. "orders-0" (topic "orders", partition 0).
	Split string
	// Offset is the next offset to read (the last read offset + 1); -1
	// before the first record.
	Offset int64
	// LogEnd is the split's end offset last fetched (Kafka's high
	// watermark); -1 when unknown. Lag is LogEnd - Offset.
	LogEnd int64
	// Watermark is the split's current event-time watermark in epoch
	// milliseconds; math.MinInt64 when the split has none.
	Watermark int64
	// Idle reports that the split is marked idle
	// (scan.watermark.idle-timeout / table.exec.source.idle-timeout), so it
	// does not hold the watermark back.
	Idle bool
}

// ProgressReporter is implemented by Readers (or Sources) of unbounded logs
// that can say where each split stands. Progress is called from other
// goroutines while the reader runs and must be safe for that.
type ProgressReporter interface {
	Progress() []SplitProgress
}
