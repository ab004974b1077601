package avro

import (
	"testing"

	"github.com/riffle-sql/riffle/engine/connector"
)

// FuzzDecode feeds arbitrary bytes to the binary and JSON decoders of a
// table with nested types: they return errors, never panic, and a failed
// message leaves no row behind.
func FuzzDecode(f *testing.F) {
	ctx := ctxOf(allNames, allTypes, nil)
	e, _ := Factory{}.CreateMessageEncoder(ctx)
	b := sampleBatchF()
	for i := 0; i < b.Len; i++ {
		m, _ := e.Encode(nil, b, i)
		f.Add(m)
	}
	f.Add([]byte{0x01})
	f.Add([]byte{0x02, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})
	f.Add([]byte(`{"b":null}`))
	bin, _ := Factory{}.CreateMessageDecoder(ctx)
	js, _ := Factory{}.CreateMessageDecoder(ctxOf(allNames, allTypes, map[string]string{"encoding": "json"}))
	f.Fuzz(func(t *testing.T, msg []byte) {
		for _, d := range []connector.MessageDecoder{bin, js} {
			n, err := d.Decode(msg)
			out := d.Flush()
			if err != nil && out.Len != 0 || err == nil && out.Len != n {
				t.Fatalf("n=%d err=%v rows=%d", n, err, out.Len)
			}
		}
	})
}
