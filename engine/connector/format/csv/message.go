package csv

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/connector/internal/pending"
	"github.com/riffle-sql/riffle/engine/types"
)

// Message use (Kafka keys and values): one message is one CSV record, as in
// Flink's CsvRowDataDeserializationSchema / CsvRowDataSerializationSchema.
// csv.ignore-first-line does not apply to messages.

// CreateMessageDecoder validates the options and builds a decoder of single
// CSV records into rows of ctx.Names (fields by position).
func (Factory) CreateMessageDecoder(ctx *connector.FormatContext) (connector.MessageDecoder, error) {
	o, err := ParseOptions(ctx.Options)
	if err != nil {
		return nil, err
	}
	d, err := NewDecoder(o, ctx.Names, ctx.Types, nil)
	if err != nil {
		return nil, err
	}
	return d.NewMessageDecoder()
}

// CreateMessageEncoder validates the options and builds an encoder of one
// CSV record per row, without a line break.
func (Factory) CreateMessageEncoder(ctx *connector.FormatContext) (connector.MessageEncoder, error) {
	o, err := ParseOptions(ctx.Options)
	if err != nil {
		return nil, err
	}
	e, err := NewEncoder(o, ctx.Names, ctx.Types)
	if err != nil {
		return nil, err
	}
	return &messageEncoder{w: &Writer{e: e}}, nil
}

// MessageDecoder decodes one CSV record per message; it implements
// connector.MessageDecoder.
type MessageDecoder struct {
	r    *Reader
	src  *bytes.Reader
	rows *pending.Rows
	skip int64
}

// NewMessageDecoder creates a decoder of single messages.
func (d *Decoder) NewMessageDecoder() (*MessageDecoder, error) {
	src := bytes.NewReader(nil)
	r := d.newReader(src, "", 1024)
	if r.err != nil {
		return nil, r.err
	}
	return &MessageDecoder{r: r, src: src, rows: &pending.Rows{Cols: r.cols}}, nil
}

// Decode decodes the first record of msg. An empty message, a record with
// the wrong number of fields or a field that does not convert is an error
// naming the column; with csv.ignore-parse-errors a malformed record is
// skipped and counted and a bad field becomes NULL.
func (m *MessageDecoder) Decode(msg []byte) (int, error) {
	r := m.r
	m.src.Reset(msg)
	r.pos, r.end, r.eof, r.started, r.line, r.records = 0, 0, false, false, 1, 0
	before := r.skipped
	ok, err := r.nextRecord()
	if err == nil && !ok {
		if r.skipped > before {
			m.skip++
			return 0, nil
		}
		if r.d.opts.IgnoreParseErrs {
			m.skip++
			return 0, nil
		}
		return 0, fmt.Errorf("failed to deserialize CSV row %s: the message holds no record", quoteMessage(msg))
	}
	var added bool
	if err == nil {
		added, err = r.emit()
	}
	if err != nil {
		m.rows.Rollback()
		return 0, fmt.Errorf("failed to deserialize CSV row %s: %w", quoteMessage(msg), messageError(err))
	}
	if !added {
		m.skip++
		return 0, nil
	}
	m.rows.Commit(types.Insert)
	return 1, nil
}

// Flush returns the decoded rows as one insert-only batch.
func (m *MessageDecoder) Flush() *types.Batch { return m.rows.Flush() }

// SkippedRows counts messages skipped by csv.ignore-parse-errors.
func (m *MessageDecoder) SkippedRows() int64 { return m.skip }

// messageError drops the file and line of a DataError, keeping the column.
func messageError(err error) error {
	var de *connector.DataError
	if !errors.As(err, &de) {
		return err
	}
	if de.Field != "" {
		return fmt.Errorf("column %s: %s", types.QuoteIdent(de.Field), de.Msg)
	}
	return errors.New(de.Msg)
}

// quoteMessage quotes a message for an error, cut after 200 bytes.
func quoteMessage(msg []byte) string {
	const max = 200
	if len(msg) > max {
		return fmt.Sprintf("'%s...' (%d bytes)", msg[:max], len(msg))
	}
	return "'" + string(msg) + "'"
}

type messageEncoder struct{ w *Writer }

// Encode appends row i as one CSV record without a line break (the row
// kind is not written: csv is insert-only).
func (m *messageEncoder) Encode(dst []byte, b *types.Batch, i int) ([]byte, error) {
	if len(b.Cols) != len(m.w.e.types) {
		return nil, fmt.Errorf("csv: batch has %d columns, the encoder %d", len(b.Cols), len(m.w.e.types))
	}
	return m.w.appendRow(dst, b.Cols, i), nil
}
