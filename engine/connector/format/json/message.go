package json

import (
	"errors"
	"fmt"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/connector/internal/columns"
	"github.com/riffle-sql/riffle/engine/connector/internal/pending"
	"github.com/riffle-sql/riffle/engine/types"
)

// Message use (Kafka keys and values): one message is one JSON object, as
// in Flink's JsonRowDataDeserializationSchema / JsonRowDataSerializationSchema.

// CreateMessageDecoder validates the options and builds a decoder of single
// JSON objects into rows of ctx.Names (matched by name).
func (Factory) CreateMessageDecoder(ctx *connector.FormatContext) (connector.MessageDecoder, error) {
	o, err := ParseOptions(ctx.Options)
	if err != nil {
		return nil, err
	}
	d, err := NewDecoder(o, ctx.Names, ctx.Types)
	if err != nil {
		return nil, err
	}
	if len(ctx.Uses) == len(ctx.Names) {
		d.uses = ctx.Uses
	}
	return d.NewMessageDecoder(), nil
}

// CreateMessageEncoder validates the options and builds an encoder of one
// JSON object per row, without a line break.
func (Factory) CreateMessageEncoder(ctx *connector.FormatContext) (connector.MessageEncoder, error) {
	o, err := ParseOptions(ctx.Options)
	if err != nil {
		return nil, err
	}
	e, err := NewEncoder(o, ctx.Names, ctx.Types)
	if err != nil {
		return nil, err
	}
	return messageEncoder{e}, nil
}

// ObjectReader decodes single JSON objects into typed columns, one value
// per column and object. The CDC formats (debezium-json, ...) use it for
// the row objects inside their envelopes.
type ObjectReader struct {
	r *Reader
}

// NewObjectReader creates a reader whose columns have room for capacity
// rows before they grow.
func (d *Decoder) NewObjectReader(capacity int) *ObjectReader {
	if capacity <= 0 {
		capacity = 1024
	}
	return &ObjectReader{r: d.newReader(nil, "", capacity)}
}

// Columns are the accumulators the objects are decoded into, in the
// decoder's column order.
func (o *ObjectReader) Columns() []columns.Column { return o.r.cols }

// NulledFields counts fields set to NULL by ignore-parse-errors.
func (o *ObjectReader) NulledFields() int64 { return o.r.st.fieldErrs }

// Decode decodes msg, which must hold one JSON object (surrounding
// white space allowed), appending one value to every column. It returns
// false without an error when ignore-parse-errors skipped a malformed
// message (nothing appended). On an error, values may have been appended
// to some columns: the caller drops the row (see internal/pending). The
// error names the column and what is wrong, with the byte offset in msg.
func (o *ObjectReader) Decode(msg []byte) (bool, error) {
	r := o.r
	i := skipWS(msg, 0)
	if i == len(msg) {
		if r.d.opts.IgnoreParseErrors {
			return false, nil
		}
		return false, errors.New("expected a JSON object, found an empty message")
	}
	ok, err := r.decodeLine(msg, i)
	if err != nil {
		var de *connector.DataError
		if errors.As(err, &de) {
			return false, messageError(de)
		}
		return false, err
	}
	return ok, nil
}

// messageError renders a DataError of a message: column, reason, offset.
func messageError(de *connector.DataError) error {
	msg := de.Msg
	if de.Field != "" {
		msg = "column " + types.QuoteIdent(de.Field) + ": " + msg
	}
	if de.Column > 0 {
		msg += fmt.Sprintf(" (at byte %d)", de.Column)
	}
	return errors.New(msg)
}

// MessageDecoder decodes one JSON object per message; it implements
// connector.MessageDecoder.
type MessageDecoder struct {
	obj     *ObjectReader
	rows    *pending.Rows
	skipped int64
}

// NewMessageDecoder creates a decoder of single messages.
func (d *Decoder) NewMessageDecoder() *MessageDecoder {
	obj := d.NewObjectReader(1024)
	return &MessageDecoder{obj: obj, rows: &pending.Rows{Cols: obj.Columns()}}
}

// Decode decodes one message holding one JSON object. An empty message
// (zero bytes) yields no row and no error, as in Flink's JSON
// deserializer, which reads it as null. A message that is not a JSON
// object (white space only included) is an error, or with
// json.ignore-parse-errors skipped and counted; a field that does not
// convert is an error naming the column, or NULL with ignore-parse-errors
// (Flink's JsonToRowDataConverters).
func (m *MessageDecoder) Decode(msg []byte) (int, error) {
	if len(msg) == 0 {
		return 0, nil
	}
	ok, err := m.obj.Decode(msg)
	if err != nil {
		m.rows.Rollback()
		return 0, fmt.Errorf("failed to deserialize JSON %s: %w", quoteMessage(msg), err)
	}
	if !ok {
		m.skipped++
		return 0, nil
	}
	m.rows.Commit(types.Insert)
	return 1, nil
}

// Flush returns the decoded rows as one insert-only batch.
func (m *MessageDecoder) Flush() *types.Batch { return m.rows.Flush() }

// SkippedRows counts messages skipped by json.ignore-parse-errors.
func (m *MessageDecoder) SkippedRows() int64 { return m.skipped }

// NulledFields counts fields set to NULL by json.ignore-parse-errors.
func (m *MessageDecoder) NulledFields() int64 { return m.obj.NulledFields() }

// quoteMessage quotes a message for an error, cut after 200 bytes.
func quoteMessage(msg []byte) string {
	const max = 200
	if len(msg) > max {
		return fmt.Sprintf("'%s...' (%d bytes)", msg[:max], len(msg))
	}
	return "'" + string(msg) + "'"
}

type messageEncoder struct{ e *Encoder }

// Encode appends row i as one JSON object (no line break); the row kind is
// not written (Flink's json format is insert-only).
func (m messageEncoder) Encode(dst []byte, b *types.Batch, i int) ([]byte, error) {
	if len(b.Cols) != len(m.e.types) {
		return nil, fmt.Errorf("json: batch has %d columns, the encoder %d", len(b.Cols), len(m.e.types))
	}
	return m.e.AppendRow(dst, b.Cols, i)
}
