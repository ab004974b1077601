package kafkabrowser

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/twmb/franz-go/pkg/kgo"
)

// ProduceCSV writes the rows of a CSV stream with a header row to topic
// as JSON objects, one message a row (fields named by the header; a value
// that is an integer is written as a JSON number, others as strings),
// keyed by the column keyColumn ("" for no key), in batches; progress (if
// set) is called with the rows written so far. The topic is created with
// partitions partitions when missing. It returns the number of messages
// written; the error names the CSV line.
func (c *Client) ProduceCSV(ctx context.Context, topic string, partitions int32, in io.Reader, keyColumn string, progress func(int)) (int, error) {
	if err := c.CreateTopic(ctx, topic, partitions); err != nil {
		return 0, err
	}
	r := csv.NewReader(in)
	head, err := r.Read()
	if err != nil {
		return 0, fmt.Errorf("reading the CSV header: %w", err)
	}
	key := -1
	for i, h := range head {
		if h == keyColumn {
			key = i
		}
	}
	if keyColumn != "" && key < 0 {
		return 0, fmt.Errorf("the CSV has no column %q", keyColumn)
	}
	const batch = 5000
	var recs []*kgo.Record
	n := 0
	flush := func() error {
		if len(recs) == 0 {
			return nil
		}
		if err := c.cl.ProduceSync(ctx, recs...).FirstErr(); err != nil {
			return c.explain(ctx, "producing to "+topic, err)
		}
		n += len(recs)
		recs = recs[:0]
		if progress != nil {
			progress(n)
		}
		return nil
	}
	for line := 2; ; line++ {
		row, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return n, fmt.Errorf("CSV line %d: %w", line, err)
		}
		obj := make(map[string]any, len(head))
		for i, h := range head {
			if i >= len(row) {
				break
			}
			if v, err := strconv.ParseInt(row[i], 10, 64); err == nil {
				obj[h] = v
			} else {
				obj[h] = row[i]
			}
		}
		val, err := json.Marshal(orderedObject{head, obj})
		if err != nil {
			return n, err
		}
		rec := &kgo.Record{Topic: topic, Value: val}
		if key >= 0 && key < len(row) {
			rec.Key = []byte(row[key])
		}
		recs = append(recs, rec)
		if len(recs) >= batch {
			if err := flush(); err != nil {
				return n, err
			}
		}
	}
	return n, flush()
}

// orderedObject marshals a map with its keys in the header's order.
type orderedObject struct {
	keys []string
	m    map[string]any
}

func (o orderedObject) MarshalJSON() ([]byte, error) {
	out := []byte{'{'}
	for i, k := range o.keys {
		v, ok := o.m[k]
		if !ok {
			continue
		}
		if i > 0 {
			out = append(out, ',')
		}
		kb, _ := json.Marshal(k)
		vb, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		out = append(append(append(out, kb...), ':'), vb...)
	}
	return append(out, '}'), nil
}
