package raw

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
)

func fctx(t *types.DataType, opts map[string]string) *connector.FormatContext {
	if opts == nil {
		opts = map[string]string{}
	}
	return &connector.FormatContext{Names: []string{"v"}, Types: []*types.DataType{t}, Options: opts}
}

func decodeAll(t *testing.T, ty *types.DataType, opts map[string]string, msgs ...[]byte) (string, error) {
	t.Helper()
	d, err := Factory{}.CreateMessageDecoder(fctx(ty, opts))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range msgs {
		if _, err := d.Decode(m); err != nil {
			return "", err
		}
	}
	var out []string
	for _, r := range d.Flush().Rows([]*types.DataType{ty}) {
		out = append(out, r.String())
	}
	return strings.Join(out, " "), nil
}

// Expected values were checked with Flink 2.3.0's
// RawFormatDeserializationSchema / RawFormatSerializationSchema (jshell).
func TestDecode(t *testing.T) {
	cases := []struct {
		t    *types.DataType
		opts map[string]string
		msg  []byte
		want string
	}{
		{types.IntType(), nil, []byte{0, 0, 0, 1}, "+I[1]"},
		{types.IntType(), map[string]string{"endianness": "little-endian"}, []byte{0, 0, 0, 1}, "+I[16777216]"},
		{types.IntType(), nil, nil, "+I[null]"},
		{types.BooleanType(), nil, []byte{2}, "+I[true]"},
		{types.BooleanType(), nil, []byte{0}, "+I[false]"},
		{types.TinyIntType(), nil, []byte{0xff}, "+I[-1]"},
		{types.SmallIntType(), map[string]string{"endianness": "little-endian"}, []byte{1, 2}, "+I[513]"},
		{types.BigIntType(), nil, []byte{0, 0, 0, 0, 0, 0, 1, 0}, "+I[256]"},
		{types.FloatType(), nil, []byte{0x3f, 0x80, 0, 0}, "+I[1.0]"},
		{types.DoubleType(), nil, []byte{0x3f, 0xf0, 0, 0, 0, 0, 0, 0}, "+I[1.0]"},
		{types.StringType(), nil, []byte("héllo"), "+I[héllo]"},
		{types.StringType(), nil, []byte{}, "+I[]"},
		{types.CharType(3), nil, []byte("abcdef"), "+I[abcdef]"},
		{types.StringType(), map[string]string{"charset": "ISO-8859-1"}, []byte{'h', 0xe9}, "+I[hé]"},
		{types.StringType(), nil, []byte{'a', 0xff, 'b'}, "+I[a\uFFFDb]"},
		// one U+FFFD for each byte that is not part of a UTF-8 sequence, as
		// the csv and json formats and the tableau output write, not one
		// for the run
		{types.StringType(), nil, []byte{'a', 0xff, 0xfe, 0xfd, 'b'}, "+I[a\uFFFD\uFFFD\uFFFDb]"},
		{types.StringType(), nil, []byte{'a', 0xe2, 0x82, 'b', 0xc3}, "+I[a\uFFFD\uFFFDb\uFFFD]"},
		{types.StringType(), nil, []byte{0xed, 0xa0, 0x80, 'x'}, "+I[\uFFFD\uFFFD\uFFFDx]"},
		{types.BytesType(), nil, []byte{1, 2}, "+I[[1, 2]]"},
	}
	for _, c := range cases {
		got, err := decodeAll(t, c.t, c.opts, c.msg)
		if err != nil || got != c.want {
			t.Errorf("%s %v: got %q %v, want %q", c.t, c.msg, got, err, c.want)
		}
	}
	_, err := decodeAll(t, types.IntType(), nil, []byte{0, 0, 1})
	if err == nil || err.Error() != "Size of data received for deserializing INT type is not 4." {
		t.Fatal(err)
	}
	_, err = decodeAll(t, types.BooleanType(), nil, []byte{0, 1})
	if err == nil || err.Error() != "Size of data received for deserializing BOOLEAN type is not 1." {
		t.Fatal(err)
	}
}

func TestOptionsAndTypes(t *testing.T) {
	_, err := Factory{}.CreateMessageDecoder(fctx(types.DateType(), nil))
	if err == nil || err.Error() != "The 'raw' format doesn't supports 'DATE' as column type." {
		t.Fatal(err)
	}
	ctx := &connector.FormatContext{Names: []string{"a", "b"}, Types: []*types.DataType{types.IntType(), types.IntType()}, Options: map[string]string{}}
	_, err = Factory{}.CreateMessageDecoder(ctx)
	if err == nil || err.Error() != "The 'raw' format only supports single physical column. However the defined schema contains multiple physical columns: [`a` INT, `b` INT]" {
		t.Fatal(err)
	}
	_, err = Factory{}.CreateMessageDecoder(fctx(types.IntType(), map[string]string{"endianness": "middle"}))
	if err == nil || !strings.Contains(err.Error(), "Unsupported endianness name: middle.") {
		t.Fatal(err)
	}
	_, err = Factory{}.CreateMessageDecoder(fctx(types.StringType(), map[string]string{"charset": "nope-42"}))
	if err == nil || err.Error() != "Unsupported 'raw.charset' name: nope-42." {
		t.Fatal(err)
	}
}

func TestEncode(t *testing.T) {
	enc := func(ty *types.DataType, opts map[string]string, v any) []byte {
		e, err := Factory{}.CreateMessageEncoder(fctx(ty, opts))
		if err != nil {
			t.Fatal(err)
		}
		bb := types.NewBatchBuilder([]*types.DataType{ty})
		if err := bb.Append(types.Insert, []any{v}); err != nil {
			t.Fatal(err)
		}
		out, err := e.Encode(nil, bb.Build(), 0)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	if got := enc(types.IntType(), nil, int32(1)); !bytes.Equal(got, []byte{0, 0, 0, 1}) {
		t.Error(got)
	}
	if got := enc(types.IntType(), map[string]string{"endianness": "little-endian"}, int32(1)); !bytes.Equal(got, []byte{1, 0, 0, 0}) {
		t.Error(got)
	}
	if got := enc(types.IntType(), nil, nil); got != nil {
		t.Error("NULL must give a nil message", got)
	}
	if got := enc(types.BooleanType(), nil, true); !bytes.Equal(got, []byte{1}) {
		t.Error(got)
	}
	if got := enc(types.StringType(), nil, "hé"); string(got) != "hé" {
		t.Error(got)
	}
	if got := enc(types.StringType(), nil, ""); got == nil || len(got) != 0 {
		t.Error("empty string must give an empty, non-nil message")
	}
	if got := enc(types.DoubleType(), map[string]string{"endianness": "little-endian"}, 1.0); !bytes.Equal(got, []byte{0, 0, 0, 0, 0, 0, 0xf0, 0x3f}) {
		t.Error(got)
	}
	if got := enc(types.SmallIntType(), nil, int16(258)); !bytes.Equal(got, []byte{1, 2}) {
		t.Error(got)
	}
}

func TestFile(t *testing.T) {
	ty := types.StringType()
	d, err := Factory{}.CreateDecoder(fctx(ty, nil))
	if err != nil {
		t.Fatal(err)
	}
	r := d.NewReader(strings.NewReader("a\r\n\nb c\nlast"), "f.txt", 2)
	var got []string
	for {
		b, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range b.Rows([]*types.DataType{ty}) {
			got = append(got, row.String())
		}
	}
	if strings.Join(got, " ") != "+I[a] +I[] +I[b c] +I[last]" {
		t.Fatal(got)
	}
	di, _ := Factory{}.CreateDecoder(fctx(types.IntType(), nil))
	_, err = di.NewReader(strings.NewReader("abcd\nabc\n"), "f.bin", 0).Next()
	if err == nil || err.Error() != "f.bin:2: Size of data received for deserializing INT type is not 4." {
		t.Fatal(err)
	}
	e, _ := Factory{}.CreateEncoder(fctx(ty, nil))
	var buf bytes.Buffer
	w := e.NewWriter(&buf)
	bb := types.NewBatchBuilder([]*types.DataType{ty})
	_ = bb.Append(types.Insert, []any{"x"})
	_ = bb.Append(types.Insert, []any{"y"})
	if err := w.Write(bb.Build()); err != nil {
		t.Fatal(err)
	}
	_ = w.Flush()
	if buf.String() != "x\ny\n" {
		t.Fatalf("%q", buf.String())
	}
}
