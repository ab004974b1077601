package cdcjson

import (
	"testing"

	"github.com/riffle-sql/riffle/engine/connector"
)

// FuzzDecode feeds arbitrary envelopes to the three decoders (with
// metadata): errors, never panics, and a failed message leaves no row.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"before":{"id":1,"name":"a","w":1.5},"after":{"id":1,"name":"b","w":2},"op":"u","source":{"db":"x","ts_ms":1},"ts_ms":2}`,
		`{"data":[{"id":1,"name":"b","w":2},{"id":2}],"old":[{"name":"a"},{"w":null}],"type":"UPDATE","sqlType":{"id":4},"pkNames":["id"]}`,
		`{"type":"update","data":{"id":1,"name":"b"},"old":{"name":"a"},"primary_key_columns":["id"],"ts":3}`,
	} {
		f.Add([]byte(s))
	}
	ctx := func() *connector.FormatContext {
		return &connector.FormatContext{Names: physNames, Types: physTypes, Options: map[string]string{}}
	}
	var ds []connector.MessageDecoder
	for _, fac := range []connector.MessageFormatFactory{DebeziumFactory{}, CanalFactory{}, MaxwellFactory{}} {
		d, err := fac.CreateMessageDecoder(ctx())
		if err != nil {
			f.Fatal(err)
		}
		mm := d.(connector.MessageMetadata)
		var keys []string
		for k := range mm.ReadableMetadata() {
			keys = append(keys, k)
		}
		if err := mm.SetMetadata(keys); err != nil {
			f.Fatal(err)
		}
		ds = append(ds, d)
	}
	f.Fuzz(func(t *testing.T, msg []byte) {
		for _, d := range ds {
			n, err := d.Decode(msg)
			out := d.Flush()
			if err != nil && out.Len != 0 || err == nil && out.Len != n {
				t.Fatalf("n=%d err=%v rows=%d", n, err, out.Len)
			}
		}
	})
}
