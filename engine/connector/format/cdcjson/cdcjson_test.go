package cdcjson

import (
	"io"
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
)

// The expected rows, kinds, errors and bytes below are Flink 2.3.0's: the
// same messages were run through DebeziumJsonDeserializationSchema,
// CanalJsonDeserializationSchema, MaxwellJsonDeserializationSchema and the
// three serializers over Flink's jars (jshell), physical row
// (id INT, name STRING, w DECIMAL(5, 2)).

var physNames = []string{"id", "name", "w"}
var physTypes = []*types.DataType{types.IntType(), types.StringType(), types.DecimalType(5, 2)}

type step struct {
	msg  string
	want string // rows joined by " ", or "ERR <substring>"
}

func run(t *testing.T, f connector.MessageFormatFactory, opts map[string]string, meta []string, steps []step) connector.MessageDecoder {
	t.Helper()
	if opts == nil {
		opts = map[string]string{}
	}
	d, err := f.CreateMessageDecoder(&connector.FormatContext{Names: physNames, Types: physTypes, Options: opts})
	if err != nil {
		t.Fatal(err)
	}
	ts := append([]*types.DataType(nil), physTypes...)
	if meta != nil {
		mm := d.(connector.MessageMetadata)
		if err := mm.SetMetadata(meta); err != nil {
			t.Fatal(err)
		}
		for _, k := range meta {
			ts = append(ts, mm.ReadableMetadata()[k])
		}
	}
	for _, s := range steps {
		n, err := d.Decode([]byte(s.msg))
		var got string
		if err != nil {
			got = "ERR " + err.Error()
		} else {
			var rows []string
			for _, r := range d.Flush().Rows(ts) {
				rows = append(rows, r.String())
			}
			got = strings.Join(rows, " ")
			if len(rows) != n {
				t.Errorf("%s: Decode said %d rows, flushed %d", s.msg, n, len(rows))
			}
		}
		if strings.HasPrefix(s.want, "ERR ") {
			if !strings.HasPrefix(got, "ERR ") || !strings.Contains(got, s.want[4:]) {
				t.Errorf("%s\n got  %s\n want %s", s.msg, got, s.want)
			}
			if b := d.Flush(); b.Len != 0 {
				t.Errorf("%s: a failed message left %d rows", s.msg, b.Len)
			}
		} else if got != s.want {
			t.Errorf("%s\n got  %s\n want %s", s.msg, got, s.want)
		}
	}
	return d
}

func TestDebezium(t *testing.T) {
	meta := []string{"schema", "ingestion-timestamp", "source.timestamp", "source.database", "source.schema", "source.table", "source.properties"}
	run(t, DebeziumFactory{}, nil, meta, []step{
		{`{"before":null,"after":{"id":1,"name":"a","w":1.5},"source":{"db":"inv","schema":"public","table":"t","ts_ms":1589362330000,"version":"1.1","snapshot":false},"op":"c","ts_ms":1589362330904}`,
			"+I[1, a, 1.50, null, 2020-05-13T09:32:10.904, 2020-05-13T09:32:10, inv, public, t, {db=inv, schema=public, table=t, ts_ms=1589362330000, version=1.1, snapshot=false}]"},
		{`{"before":{"id":1,"name":"a","w":1.5},"after":{"id":1,"name":"b","w":2},"op":"u"}`,
			"-U[1, a, 1.50, null, null, null, null, null, null, null] +U[1, b, 2.00, null, null, null, null, null, null, null]"},
		{`{"before":{"id":1,"name":"b"},"after":null,"op":"d"}`, "-D[1, b, null, null, null, null, null, null, null, null]"},
		{`{"before":null,"after":{"id":2},"op":"r"}`, "+I[2, null, null, null, null, null, null, null, null, null]"},
		{`{"before":null,"after":{"id":1},"op":"u"}`, `ERR Corrupt Debezium JSON message '{"before":null,"after":{"id":1},"op":"u"}': The "before" field of UPDATE message is null, if you are using Debezium Postgres Connector, please check the Postgres table has been set REPLICA IDENTITY to FULL level.`},
		{`{"before":null,"after":null,"op":"d"}`, `ERR The "before" field of DELETE message is null`},
		{`{"before":null,"after":{"id":1},"op":"t"}`, `ERR Unknown "op" value "t".`},
		{`{"before":null,"after":{"id":1}}`, `ERR Corrupt Debezium JSON message`},
		{`{"before":null,"after":null,"op":"c"}`, `ERR Corrupt Debezium JSON message`},
		{`{"after":{"id":"x"},"op":"c"}`, "ERR column `id`: cannot parse \"x\" as INT"},
		{`not json`, `ERR Corrupt Debezium JSON message 'not json'`},
		{``, ``},
	})
	d := run(t, DebeziumFactory{}, map[string]string{"ignore-parse-errors": "true"}, nil, []step{
		{`not json`, ``},
		{`{"after":{"id":"x","name":"n"},"op":"c"}`, "+I[null, n, null]"},
		{`{"after":{"id":1},"op":"t"}`, ``},
		{`{"before":null,"after":null,"op":"c"}`, ``},
		{``, ``},
	})
	if d.SkippedRows() != 3 {
		t.Fatalf("skipped %d, want 3", d.SkippedRows())
	}
	run(t, DebeziumFactory{}, map[string]string{"schema-include": "true"}, []string{"schema", "ingestion-timestamp"}, []step{
		{`{"schema":{"type":"struct","fields":[]},"payload":{"before":null,"after":{"id":7},"op":"c","ts_ms":5}}`,
			`+I[7, null, null, {"type":"struct","fields":[]}, 1970-01-01T00:00:00.005]`},
		{`{"before":null,"after":{"id":7},"op":"c"}`, `ERR the message has no "payload"`},
	})
}

func TestCanal(t *testing.T) {
	meta := []string{"database", "table", "sql-type", "pk-names", "ingestion-timestamp", "event-timestamp"}
	run(t, CanalFactory{}, nil, meta, []step{
		{`{"data":[{"id":"1","name":"a","w":"1.5"},{"id":"2","name":"b","w":null}],"database":"inv","es":1589373560000,"id":9,"isDdl":false,"mysqlType":{"id":"int"},"old":null,"pkNames":["id"],"sql":"","sqlType":{"id":4,"name":12},"table":"prod","ts":1589373560798,"type":"INSERT"}`,
			"+I[1, a, 1.50, inv, prod, {id=4, name=12}, [id], 2020-05-13T12:39:20.798, 2020-05-13T12:39:20] +I[2, b, null, inv, prod, {id=4, name=12}, [id], 2020-05-13T12:39:20.798, 2020-05-13T12:39:20]"},
		{`{"data":[{"id":1,"name":"b","w":2},{"id":2,"name":"c","w":3}],"old":[{"name":"a"},{"w":null}],"type":"UPDATE"}`,
			"-U[1, a, null, null, null, null, null, null, null] +U[1, b, 2.00, null, null, null, null, null, null] -U[2, null, null, null, null, null, null, null, null] +U[2, c, 3.00, null, null, null, null, null, null]"},
		{`{"data":[{"id":1,"name":"b","w":2}],"type":"DELETE"}`, "-D[1, b, 2.00, null, null, null, null, null, null]"},
		{`{"data":null,"type":"CREATE","sql":"create table x"}`, ``},
		{`{"data":null,"type":"ALTER"}`, `ERR Corrupt Canal JSON message '{"data":null,"type":"ALTER"}': Unknown "type" value "ALTER".`},
		{`{"data":null,"type":"INSERT"}`, `ERR the "data" field is null`},
		{`{"data":[{"id":1}],"type":"UPDATE"}`, `ERR the "old" field is null`},
		{`{"data":[{"id":1}],"old":[],"type":"UPDATE"}`, `ERR "old" has 0 elements, "data" 1`},
		{`{"data":[],"type":"INSERT"}`, ``},
		{`{"data":[{"id":1}]}`, `ERR the "type" field is missing`},
	})
	run(t, CanalFactory{}, map[string]string{"database.include": "inv.*", "table.include": "prod"}, nil, []step{
		{`{"data":[{"id":1}],"database":"inventory","table":"prod","type":"INSERT"}`, "+I[1, null, null]"},
		{`{"data":[{"id":1}],"database":"other","table":"prod","type":"INSERT"}`, ``},
		{`{"data":[{"id":1}],"database":"inv","table":"products","type":"INSERT"}`, ``},
		{`{"data":[{"id":1}],"table":"prod","type":"INSERT"}`, `ERR the "database" field is missing`},
	})
	d := run(t, CanalFactory{}, map[string]string{"ignore-parse-errors": "true"}, nil, []step{
		{`{"data":[{"id":1}],"type":"ALTER"}`, ``},
		{`garbage`, ``},
		// The second element fails: the whole message is skipped.
		{`{"data":[{"id":1},{"id":2},3],"type":"INSERT"}`, ``},
	})
	if d.SkippedRows() != 3 {
		t.Fatalf("skipped %d", d.SkippedRows())
	}
}

func TestMaxwell(t *testing.T) {
	meta := []string{"database", "table", "primary-key-columns", "ingestion-timestamp"}
	run(t, MaxwellFactory{}, nil, meta, []step{
		{`{"database":"test","table":"product","type":"insert","ts":1596684883,"xid":7125,"xoffset":0,"data":{"id":1,"name":"a","w":1.5},"primary_key_columns":["id"]}`,
			"+I[1, a, 1.50, test, product, [id], 2020-08-06T03:34:43]"},
		{`{"type":"update","data":{"id":1,"name":"b","w":2},"old":{"name":"a"}}`,
			"-U[1, a, 2.00, null, null, null, null] +U[1, b, 2.00, null, null, null, null]"},
		{`{"type":"update","data":{"id":1,"name":"b","w":2}}`, `ERR the "old" field is null`},
		{`{"type":"delete","data":{"id":1,"name":"b","w":2}}`, "-D[1, b, 2.00, null, null, null, null]"},
		{`{"type":"table-create","data":null}`, `ERR Corrupt Maxwell JSON message '{"type":"table-create","data":null}': Unknown "type" value "table-create".`},
		{`{"type":"bootstrap-insert","data":{"id":1}}`, `ERR Unknown "type" value "bootstrap-insert".`},
		{`{"type":"insert","data":null}`, `ERR the "data" field is null`},
	})
}

func encodeAll(t *testing.T, f connector.MessageFormatFactory, opts map[string]string, vals []any) []string {
	t.Helper()
	if opts == nil {
		opts = map[string]string{}
	}
	e, err := f.CreateMessageEncoder(&connector.FormatContext{Names: physNames, Types: physTypes, Options: opts})
	if err != nil {
		t.Fatal(err)
	}
	bb := types.NewBatchBuilder(physTypes)
	for _, k := range []types.RowKind{types.Insert, types.UpdateBefore, types.UpdateAfter, types.Delete} {
		if err := bb.Append(k, vals); err != nil {
			t.Fatal(err)
		}
	}
	b := bb.Build()
	var out []string
	for i := 0; i < b.Len; i++ {
		m, err := e.Encode(nil, b, i)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(m))
	}
	return out
}

func TestEncoders(t *testing.T) {
	d150, _ := types.ParseDecimal("1.50")
	got := strings.Join(encodeAll(t, DebeziumFactory{}, nil, []any{int32(1), "a", d150}), "\n")
	want := `{"before":null,"after":{"id":1,"name":"a","w":1.5},"op":"c"}
{"before":{"id":1,"name":"a","w":1.5},"after":null,"op":"d"}
{"before":null,"after":{"id":1,"name":"a","w":1.5},"op":"c"}
{"before":{"id":1,"name":"a","w":1.5},"after":null,"op":"d"}`
	if got != want {
		t.Errorf("debezium:\n%s", got)
	}
	got = strings.Join(encodeAll(t, CanalFactory{}, nil, []any{int32(1), nil, d150}), "\n")
	want = `{"data":[{"id":1,"name":null,"w":1.5}],"type":"INSERT"}
{"data":[{"id":1,"name":null,"w":1.5}],"type":"DELETE"}
{"data":[{"id":1,"name":null,"w":1.5}],"type":"INSERT"}
{"data":[{"id":1,"name":null,"w":1.5}],"type":"DELETE"}`
	if got != want {
		t.Errorf("canal:\n%s", got)
	}
	got = strings.Join(encodeAll(t, MaxwellFactory{}, nil, []any{int32(1), "a", nil}), "\n")
	want = `{"data":{"id":1,"name":"a","w":null},"type":"insert"}
{"data":{"id":1,"name":"a","w":null},"type":"delete"}
{"data":{"id":1,"name":"a","w":null},"type":"insert"}
{"data":{"id":1,"name":"a","w":null},"type":"delete"}`
	if got != want {
		t.Errorf("maxwell:\n%s", got)
	}
	if got := encodeAll(t, DebeziumFactory{}, map[string]string{"encode.ignore-null-fields": "true"}, []any{int32(1), nil, nil})[0]; got != `{"after":{"id":1},"op":"c"}` {
		t.Errorf("ignore-null-fields: %s", got)
	}
}

func TestOptions(t *testing.T) {
	_, err := DebeziumFactory{}.CreateMessageDecoder(&connector.FormatContext{Names: physNames, Types: physTypes, Options: map[string]string{"database.include": "x"}})
	if err == nil || !strings.Contains(err.Error(), "unsupported option 'debezium-json.database.include' for format 'debezium-json'") {
		t.Fatal(err)
	}
	_, err = CanalFactory{}.CreateMessageDecoder(&connector.FormatContext{Names: physNames, Types: physTypes, Options: map[string]string{"timestamp-format.standard": "X"}})
	if err == nil || !strings.Contains(err.Error(), "'canal-json.timestamp-format.standard'") {
		t.Fatal(err)
	}
	var cf connector.ChangelogFormat = DebeziumFactory{}
	if cf.DecodingChangelogMode().String() != "I,UB,UA,D" || cf.EncodingChangelogMode().String() != "I,UB,UA,D" {
		t.Fatal(cf.DecodingChangelogMode())
	}
}

func TestFile(t *testing.T) {
	dec, err := DebeziumFactory{}.CreateDecoder(&connector.FormatContext{Names: physNames, Types: physTypes, Options: map[string]string{}})
	if err != nil {
		t.Fatal(err)
	}
	in := `{"before":null,"after":{"id":1,"name":"a","w":1},"op":"c"}

{"before":{"id":1,"name":"a","w":1},"after":{"id":1,"name":"b","w":1},"op":"u"}` + "\r\n" + `{"before":{"id":1,"name":"b","w":1},"after":null,"op":"d"}
{"op":"x"}
`
	r := dec.NewReader(strings.NewReader(in), "orders.json", 2)
	var got []string
	var last error
	for {
		b, err := r.Next()
		if err != nil {
			last = err
			break
		}
		for _, row := range b.Rows(physTypes) {
			got = append(got, row.String())
		}
	}
	if strings.Join(got, " ") != "+I[1, a, 1.00] -U[1, a, 1.00] +U[1, b, 1.00] -D[1, b, 1.00]" {
		t.Fatal(got)
	}
	if last == io.EOF || !strings.HasPrefix(last.Error(), `orders.json:5: Corrupt Debezium JSON message '{"op":"x"}'`) {
		t.Fatal(last)
	}
}
