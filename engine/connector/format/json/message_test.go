package json

import (
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
)

func messageRows(t *testing.T, d connector.MessageDecoder, ts []*types.DataType) []string {
	t.Helper()
	b := d.Flush()
	var out []string
	for _, r := range b.Rows(ts) {
		out = append(out, r.String())
	}
	return out
}

func TestMessageDecoder(t *testing.T) {
	ts := []*types.DataType{types.IntType(), types.StringType(), types.DecimalType(5, 2)}
	ctx := &connector.FormatContext{Names: []string{"id", "name", "price"}, Types: ts, Options: map[string]string{}}
	d, err := Factory{}.CreateMessageDecoder(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{`{"id":1,"name":"a","price":1.5}`, ` {"name":"b","id":2} `, `{}`} {
		if n, err := d.Decode([]byte(m)); err != nil || n != 1 {
			t.Fatalf("%s: %d %v", m, n, err)
		}
	}
	// A bad field fails the message and appends nothing, even half-way.
	_, err = d.Decode([]byte(`{"id":3,"name":"c","price":"x"}`))
	want := "failed to deserialize JSON '{\"id\":3,\"name\":\"c\",\"price\":\"x\"}': column `price`: cannot parse \"x\" as DECIMAL(5, 2) (at byte 28)"
	if err == nil || err.Error() != want {
		t.Fatalf("got %v\nwant %s", err, want)
	}
	if _, err := d.Decode([]byte(`[1]`)); err == nil || !strings.Contains(err.Error(), "expected a JSON object") {
		t.Fatalf("array: %v", err)
	}
	// An empty message is no row and no error (Flink's JSON deserializer
	// reads it as null); white space only is an error.
	if n, err := d.Decode(nil); n != 0 || err != nil {
		t.Fatalf("nil: %d %v", n, err)
	}
	if n, err := d.Decode([]byte{}); n != 0 || err != nil {
		t.Fatalf("empty: %d %v", n, err)
	}
	if _, err := d.Decode([]byte("  ")); err == nil || !strings.Contains(err.Error(), "empty message") {
		t.Fatalf("white space: %v", err)
	}
	if n, err := d.Decode([]byte(`{"id":4}`)); err != nil || n != 1 {
		t.Fatal(n, err)
	}
	got := strings.Join(messageRows(t, d, ts), " ")
	if got != "+I[1, a, 1.50] +I[2, b, null] +I[null, null, null] +I[4, null, null]" {
		t.Fatal(got)
	}
	if b := d.Flush(); b.Len != 0 {
		t.Fatalf("second flush: %d rows", b.Len)
	}
}

func TestMessageDecoderIgnoreParseErrors(t *testing.T) {
	ts := []*types.DataType{types.IntType(), types.StringType()}
	ctx := &connector.FormatContext{Names: []string{"id", "name"}, Types: ts, Options: map[string]string{"ignore-parse-errors": "true"}}
	d, err := Factory{}.CreateMessageDecoder(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{`{"id":1,"name":"a"}`, `not json`, `{"id":"x","name":"b"}`, ``, ` `, `{"id":2`, `{"id":3,"name":"c"}`} {
		if _, err := d.Decode([]byte(m)); err != nil {
			t.Fatalf("%s: %v", m, err)
		}
	}
	got := strings.Join(messageRows(t, d, ts), " ")
	if got != "+I[1, a] +I[null, b] +I[3, c]" {
		t.Fatal(got)
	}
	// The empty message is no row but no parse error either.
	if d.SkippedRows() != 3 {
		t.Fatalf("skipped %d, want 3", d.SkippedRows())
	}
}

func TestMessageEncoder(t *testing.T) {
	ts := []*types.DataType{types.IntType(), types.StringType()}
	ctx := &connector.FormatContext{Names: []string{"id", "name"}, Types: ts, Options: map[string]string{}}
	e, err := Factory{}.CreateMessageEncoder(ctx)
	if err != nil {
		t.Fatal(err)
	}
	bb := types.NewBatchBuilder(ts)
	_ = bb.Append(types.Insert, []any{int32(1), "a\"b"})
	_ = bb.Append(types.Insert, []any{nil, nil})
	b := bb.Build()
	var got []string
	for i := 0; i < b.Len; i++ {
		out, err := e.Encode(nil, b, i)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(out))
	}
	// As Flink's JsonRowDataSerializationSchema: no line break.
	if strings.Join(got, "|") != `{"id":1,"name":"a\"b"}|{"id":null,"name":null}` {
		t.Fatal(got)
	}
}

// With FormatContext.Uses, the nullable CHAR/VARCHAR values nobody reads
// (a column or ROW field) are left NULL, and everything else is decoded
// and checked as before: a bad number in a field nobody reads still
// fails the message, and fail-on-missing-field still sees every field.
func TestMessageDecoderUses(t *testing.T) {
	inner := types.RowType()
	inner.Fields = append(inner.Fields, types.NewField("a", types.BigIntType()), types.NewField("s", types.StringType()))
	r := types.RowType()
	r.Fields = append(r.Fields, types.NewField("n", types.BigIntType()), types.NewField("s", types.StringType()),
		types.NewField("t", types.StringType()), types.NewField("in", inner), types.NewField("k", types.StringType().NotNull()))
	ts := []*types.DataType{types.IntType(), types.StringType(), r}
	names := []string{"id", "name", "r"}
	// r.s and r.in.s are read; name, r.t and r.n are not; r.k (NOT NULL) is not either
	uses := []*connector.FieldUse{connector.WholeUse, nil,
		{Fields: []*connector.FieldUse{nil, connector.WholeUse, nil, {Fields: []*connector.FieldUse{nil, connector.WholeUse}}, nil}}}
	msgs := []string{
		`{"id":1,"name":"a","r":{"n":5,"s":"x\"y","t":"skip","in":{"a":1,"s":"deep"},"k":"kept"}}`,
		`{"id":2,"name":{"o":[1,2]},"r":null}`,
		`{"id":3,"name":null,"r":{"s":null,"t":[true],"n":null,"in":null,"k":"k3"}}`,
	}
	for _, c := range []struct {
		uses []*connector.FieldUse
		want string
	}{
		{nil, `+I[1, a, +I[5, x"y, skip, +I[1, deep], kept]] +I[2, {"o":[1,2]}, null] +I[3, null, +I[null, null, [true], null, k3]]`},
		{uses, `+I[1, null, +I[5, x"y, null, +I[1, deep], kept]] +I[2, null, null] +I[3, null, +I[null, null, null, null, k3]]`},
	} {
		d, err := Factory{}.CreateMessageDecoder(&connector.FormatContext{Names: names, Types: ts, Options: map[string]string{}, Uses: c.uses})
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range msgs {
			if n, err := d.Decode([]byte(m)); err != nil || n != 1 {
				t.Fatalf("%s: %d %v", m, n, err)
			}
		}
		if got := strings.Join(messageRows(t, d, ts), " "); got != c.want {
			t.Errorf("uses %v:\ngot  %s\nwant %s", c.uses != nil, got, c.want)
		}
		// a bad number in a field nobody reads still fails
		_, err = d.Decode([]byte(`{"id":4,"r":{"n":"x"}}`))
		if err == nil || !strings.Contains(err.Error(), "column `r.n`: cannot parse \"x\" as BIGINT") {
			t.Errorf("uses %v: bad r.n: %v", c.uses != nil, err)
		}
		// malformed JSON in a value nobody reads still fails
		if _, err := d.Decode([]byte(`{"id":4,"name":"a\q"}`)); err == nil || !strings.Contains(err.Error(), "invalid escape") {
			t.Errorf("uses %v: bad escape: %v", c.uses != nil, err)
		}
	}
	d, err := Factory{}.CreateMessageDecoder(&connector.FormatContext{Names: names, Types: ts,
		Options: map[string]string{"fail-on-missing-field": "true"}, Uses: uses})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Decode([]byte(`{"id":4,"r":null}`)); err == nil || !strings.Contains(err.Error(), "could not find field with name 'name'") {
		t.Errorf("missing name: %v", err)
	}
}

// Field names match on their raw bytes when the name needs no escape,
// and through unescaping otherwise: an escaped key, a key that starts
// with a field's name, names with a quote or a backslash.
func TestMessageDecoderFieldNames(t *testing.T) {
	ts := []*types.DataType{types.IntType(), types.StringType(), types.StringType()}
	d, err := Factory{}.CreateMessageDecoder(&connector.FormatContext{Names: []string{"id", `a"b`, `c\d`}, Types: ts, Options: map[string]string{}})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{`{"\u0069d":1,"a\"b":"q","c\\d":"r"}`, `{"idx":5,"id":2,"a\"bc":"no","c\\":"no"}`, `{"i":9,"id" : 3}`} {
		if n, err := d.Decode([]byte(m)); err != nil || n != 1 {
			t.Fatalf("%s: %d %v", m, n, err)
		}
	}
	if got := strings.Join(messageRows(t, d, ts), " "); got != "+I[1, q, r] +I[2, null, null] +I[3, null, null]" {
		t.Fatal(got)
	}
}
