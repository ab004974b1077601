package postgrescdc

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
)

func testContext(opts map[string]string, pk bool) *connector.Context {
	s := types.NewPhysicalSchema([]string{"id", "name"}, []*types.DataType{types.IntType().NotNull(), types.StringType()})
	if pk {
		s.PrimaryKey = &types.UniqueConstraint{Name: "pk", Columns: []string{"id"}}
	}
	base := map[string]string{"connector": "postgres-cdc", "hostname": "127.0.0.1", "username": "u", "password": "p",
		"database-name": "db", "schema-name": "public", "table-name": "t", "slot.name": "s1"}
	for k, v := range opts {
		if v == "" {
			delete(base, k)
			continue
		}
		base[k] = v
	}
	return &connector.Context{Table: "`t`", Schema: s, Options: base}
}

func TestOptions(t *testing.T) {
	src, err := Factory{}.CreateSource(testContext(nil, true))
	if err != nil {
		t.Fatal(err)
	}
	s := src.(*Source)
	if s.t.port != 5432 || s.t.startup != StartupInitial || s.t.upsert || s.t.publication != DefaultPublication || s.t.fetchSize != 1024 {
		t.Fatalf("defaults: %+v", s.t)
	}
	if src.Bounded() || src.ChangelogMode() != types.RetractMode {
		t.Fatalf("bounded %v mode %v", src.Bounded(), src.ChangelogMode())
	}
	src, err = Factory{}.CreateSource(testContext(map[string]string{"changelog-mode": "upsert", "port": "6543",
		"scan.startup.mode": "latest-offset", "debezium.snapshot.mode": "never", "debezium.publication.name": "my_pub",
		"scan.incremental.snapshot.enabled": "true", "heartbeat.interval.ms": "5 s"}, true))
	if err != nil {
		t.Fatal(err)
	}
	s = src.(*Source)
	if src.ChangelogMode() != types.UpsertMode || s.t.port != 6543 || s.t.startup != StartupLatest ||
		s.t.publication != "my_pub" || s.t.heartbeat != 5*time.Second || strings.Join(s.IgnoredOptions(), ",") != "debezium.snapshot.mode" {
		t.Fatalf("parsed: %+v", s.t)
	}
	for _, c := range []struct {
		opts map[string]string
		pk   bool
		want string
	}{
		{map[string]string{"slot.name": ""}, true, "missing required option 'slot.name'"},
		{map[string]string{"hostname": ""}, true, "missing required option 'hostname'"},
		{map[string]string{"decoding.plugin.name": "wal2json"}, true, "'decoding.plugin.name' = 'wal2json' is not supported"},
		{map[string]string{"scan.startup.mode": "earliest"}, true, "Supported values are [initial, latest-offset, committed-offset, snapshot], but was: earliest"},
		{map[string]string{"changelog-mode": "x"}, true, "invalid value for option 'changelog-mode'"},
		{map[string]string{"port": "0"}, true, "option 'port' must be a port number"},
		{map[string]string{"slot.name": "My-Slot"}, true, "not a valid replication slot name"},
		{map[string]string{"scan.snapshot.fetch.size": "1"}, true, "must larger than 1"},
		{map[string]string{"heartbeat.interval.ms": "soon"}, true, "option 'heartbeat.interval.ms' must be a positive duration"},
		{map[string]string{"bogus": "1"}, true, "unsupported options found for 'postgres-cdc': bogus"},
		{nil, false, "a PRIMARY KEY is required"},
	} {
		_, err := Factory{}.CreateSource(testContext(c.opts, c.pk))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want %q", c.opts, err, c.want)
		}
	}
}

func TestDecoders(t *testing.T) {
	col := func(tn, f string) pgColumn { return pgColumn{Name: "c", TypeName: tn, Formatted: f} }
	for _, c := range []struct {
		col  pgColumn
		dt   *types.DataType
		in   string
		want string
	}{
		{col("int4", "integer"), types.IntType(), "-42", "-42"},
		{col("int2", "smallint"), types.BigIntType(), "7", "7"},
		{col("int8", "bigint"), types.BigIntType(), "9223372036854775807", "9223372036854775807"},
		{col("numeric", "numeric(10,2)"), types.DecimalType(10, 2), "12.5", "12.50"},
		{col("float8", "double precision"), types.DoubleType(), "NaN", "NaN"},
		{col("float4", "real"), types.FloatType(), "-Infinity", "-Infinity"},
		{col("bool", "boolean"), types.BooleanType(), "t", "true"},
		{col("date", "date"), types.DateType(), "1969-12-31", "1969-12-31"},
		{col("time", "time without time zone"), types.TimeType(6), "12:34:56.789", "12:34:56.789"},
		{col("timestamp", "timestamp without time zone"), types.TimestampType(6), "2024-02-29 23:59:59.123456", "2024-02-29 23:59:59.123456"},
		{col("timestamptz", "timestamp with time zone"), types.TimestampLTZType(3), "2024-01-02 03:04:05.5+00", "2024-01-02 03:04:05.5"},
		{col("bytea", "bytea"), types.BytesType(), `\x00ff`, "[0 255]"},
		{col("uuid", "uuid"), types.StringType(), "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"},
		{col("jsonb", "jsonb"), types.StringType(), `{"a": 1}`, `{"a": 1}`},
	} {
		dec, err := decoderFor(c.col, c.dt)
		if err != nil {
			t.Fatalf("%s as %s: %v", c.col.Formatted, c.dt, err)
		}
		v, err := dec(c.in)
		if err != nil {
			t.Fatalf("%s %q: %v", c.col.Formatted, c.in, err)
		}
		var got string
		switch x := v.(type) {
		case time.Time:
			got = x.UTC().Format("2006-01-02 15:04:05.999999999")
		case []byte:
			got = fmt.Sprint(x)
		default:
			got = types.FormatValue(v)
		}
		if got != c.want {
			t.Errorf("%s %q as %s: got %s, want %s", c.col.Formatted, c.in, c.dt, got, c.want)
		}
	}
	for _, c := range []struct {
		col  pgColumn
		dt   *types.DataType
		want string
	}{
		{col("text", "text"), types.IntType(), "column `c`: PostgreSQL type text cannot be read as INT (Flink CDC maps text to STRING)"},
		{col("int8", "bigint"), types.IntType(), "PostgreSQL type bigint cannot be read as INT (Flink CDC maps bigint to BIGINT)"},
		{col("timestamptz", "timestamp with time zone"), types.TimestampType(3), "cannot be read as TIMESTAMP(3)"},
		{col("int4", "integer"), types.ArrayType(types.IntType()), "cannot produce ARRAY<INT>"},
	} {
		if _, err := decoderFor(c.col, c.dt); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s as %s: error %v, want %q", c.col.Formatted, c.dt, err, c.want)
		}
	}
	dec, _ := decoderFor(col("int4", "integer"), types.SmallIntType())
	if dec != nil {
		t.Fatal("int4 narrowed to SMALLINT")
	}
	dec, _ = decoderFor(col("numeric", "numeric"), types.DecimalType(3, 1))
	if _, err := dec("12345.6"); err == nil || !strings.Contains(err.Error(), "does not fit DECIMAL(3, 1)") {
		t.Errorf("overflow: %v", err)
	}
	dec, _ = decoderFor(col("timestamp", "timestamp"), types.TimestampType(3))
	if _, err := dec("infinity"); err == nil || !strings.Contains(err.Error(), "outside the range") {
		t.Errorf("infinity: %v", err)
	}
}
