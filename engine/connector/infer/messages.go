package infer

import (
	"bytes"
	encjson "encoding/json"
)

// JSONObjects infers a table for a sample of JSON objects held in memory
// (Kafka message values, or the rows inside CDC envelopes), one object per
// element, as JSONLines does for a file: name is the proposed table name
// and source names the sample in errors and notes ("topic orders"). An
// element that is not one JSON object is skipped and noted (the json
// format's 'json.ignore-parse-errors' is then proposed); with no object at
// all the error wraps ErrUnsupported. The Result's Options hold the
// format's options only ('format' = 'json' and its json.* options): the
// caller adds the connector's. Path is source; Complete is true.
func JSONObjects(name, source string, objects [][]byte) (*Result, error) {
	var buf bytes.Buffer
	for _, o := range objects {
		// one line per object: a pretty-printed message has newlines
		var c bytes.Buffer
		if err := encjson.Compact(&c, bytes.TrimSpace(o)); err != nil {
			c.Reset()
			c.Write(bytes.ReplaceAll(bytes.ReplaceAll(o, []byte("\r"), nil), []byte("\n"), []byte(" ")))
		}
		buf.Write(c.Bytes())
		buf.WriteByte('\n')
	}
	r := &Result{Path: source, Format: "json", Name: name, Complete: true, data: buf.Bytes()}
	if r.Name == "" {
		r.Name = "t"
	}
	return r.jsonLines(bytes.NewReader(r.data), Options{MaxBytes: int64(buf.Len()) + 1})
}
