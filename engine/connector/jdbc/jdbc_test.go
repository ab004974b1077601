package jdbc

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgtype"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
)

func TestParseURL(t *testing.T) {
	e, err := ParseURL("jdbc:postgresql://db.example:6543/shop?sslmode=disable&ApplicationName=x&currentSchema=s1&prepareThreshold=0&user=u1&password=p1&connectTimeout=7", "", "")
	if err != nil {
		t.Fatal(err)
	}
	if e.Dialect.Name != DialectPostgres || e.Host != "db.example" || e.Port != 6543 || e.Database != "shop" || e.User != "u1" || e.Password != "p1" {
		t.Fatalf("endpoint %+v", e)
	}
	if !reflect.DeepEqual(e.Params, map[string]string{"sslmode": "disable", "application_name": "x", "search_path": "s1"}) {
		t.Fatalf("params %v", e.Params)
	}
	if !reflect.DeepEqual(e.Ignored, []string{"prepareThreshold"}) || e.ConnectTimeout != 7*time.Second {
		t.Fatalf("ignored %v timeout %v", e.Ignored, e.ConnectTimeout)
	}
	cfg, err := e.PgxConfig()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Host != "db.example" || cfg.Port != 6543 || cfg.Database != "shop" || cfg.User != "u1" || cfg.Password != "p1" ||
		cfg.RuntimeParams["application_name"] != "x" || cfg.RuntimeParams["search_path"] != "s1" {
		t.Fatalf("pgx config %+v", cfg)
	}
	// options override the URL's credentials; default port
	e, err = ParseURL("jdbc:postgresql://localhost/db?user=a&password=b", "opt", "secret with space")
	if err != nil {
		t.Fatal(err)
	}
	if e.Port != 5432 || e.User != "opt" || e.Password != "secret with space" {
		t.Fatalf("endpoint %+v", e)
	}
	if cfg, err := e.PgxConfig(); err != nil || cfg.Password != "secret with space" {
		t.Fatalf("pgx config %v %v", cfg, err)
	}

	for _, u := range []string{"jdbc:mysql://127.0.0.1:3307/app?useSSL=false&rewriteBatchedStatements=true", "jdbc:mariadb://127.0.0.1:3307/app?useSSL=false"} {
		e, err := ParseURL(u, "root", "pw")
		if err != nil {
			t.Fatal(err)
		}
		if e.Dialect.Name != DialectMySQL || e.Addr() != "127.0.0.1:3307" || e.Database != "app" {
			t.Fatalf("%s: %+v", u, e)
		}
		c := e.MySQLConfig()
		if c.Addr != "127.0.0.1:3307" || c.DBName != "app" || c.User != "root" || c.Passwd != "pw" || !c.ParseTime || c.Loc != time.UTC || c.TLSConfig != "false" {
			t.Fatalf("%s: mysql config %+v", u, c)
		}
	}
	if e, _ := ParseURL("jdbc:mysql://h/d", "", ""); e.Port != 3306 {
		t.Fatalf("default MySQL port %d", e.Port)
	}

	bad := map[string]string{
		"jdbc:oracle:thin:@h:1521:x":              "Could not find any jdbc factory that can handle url 'jdbc:oracle:thin:@h:1521:x'",
		"jdbc:postgresql:mydb":                    "expected jdbc:postgresql://host[:port]/database",
		"jdbc:postgresql://h:99999/d":             "bad port '99999'",
		"jdbc:postgresql://u:SECRET@h/d":          "'jdbc:postgresql://u:***@h/d': put credentials in the 'username' and 'password' options",
		"jdbc:postgresql://h:x/d?password=SECRET": "'jdbc:postgresql://h:x/d?password=***'",
		"jdbc:mysql://h1,h2/d":                    "several hosts",
		"jdbc:postgresql://h/d/x":                 "the path must be a single database name",
		"jdbc:postgresql://h/d?connectTimeout=x":  "connectTimeout 'x' is not a number",
	}
	for u, want := range bad {
		_, err := ParseURL(u, "", "")
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", u, err, want)
		}
		if err != nil && strings.Contains(err.Error(), "SECRET") {
			t.Errorf("%s: the error shows the password: %v", u, err)
		}
	}
	if got := RedactURL("jdbc:mysql://root:pw@h:3306/d?user=a&Password=x;password=y"); got != "jdbc:mysql://root:***@h:3306/d?user=a&Password=***;password=***" {
		t.Errorf("RedactURL: %s", got)
	}
}

func TestStatements(t *testing.T) {
	pg, my := postgresDialect, mysqlDialect
	fields := []string{"id", "name", "amount"}
	cases := []struct{ got, want string }{
		{pg.InsertStatement("public.orders", fields), "INSERT INTO public.orders(id, name, amount) VALUES ($1, $2, $3)"},
		{my.InsertStatement("orders", fields), "INSERT INTO `orders`(`id`, `name`, `amount`) VALUES (?, ?, ?)"},
		{pg.UpsertStatement("orders", fields, []string{"id"}), "INSERT INTO orders(id, name, amount) VALUES ($1, $2, $3) ON CONFLICT (id) DO UPDATE SET name=EXCLUDED.name, amount=EXCLUDED.amount"},
		{pg.UpsertStatement("kv", []string{"k1", "k2"}, []string{"k1", "k2"}), "INSERT INTO kv(k1, k2) VALUES ($1, $2) ON CONFLICT (k1, k2) DO NOTHING"},
		{my.UpsertStatement("orders", fields, []string{"id"}), "INSERT INTO `orders`(`id`, `name`, `amount`) VALUES (?, ?, ?) ON DUPLICATE KEY UPDATE `id`=VALUES(`id`), `name`=VALUES(`name`), `amount`=VALUES(`amount`)"},
		{pg.DeleteStatement("orders", []string{"id", "day"}), "DELETE FROM orders WHERE id = $1 AND day = $2"},
		{my.DeleteStatement("orders", []string{"id", "day"}), "DELETE FROM `orders` WHERE `id` = ? AND `day` = ?"},
		{pg.SelectStatement("orders", fields, []string{"id"}), "SELECT id, name, amount FROM orders WHERE id = $1"},
		{my.SelectStatement("orders", fields, nil), "SELECT `id`, `name`, `amount` FROM `orders`"},
		{my.SelectStatement("orders", nil, nil), "SELECT 1 FROM `orders`"},
		{my.Quote("we`ird"), "`we``ird`"},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("got  %s\nwant %s", c.got, c.want)
		}
	}
}

// testContext is a jdbc table's planning context.
func testContext(opts map[string]string, names []string, ts []*types.DataType, pk ...string) *connector.Context {
	o := map[string]string{"connector": "jdbc", "url": "jdbc:postgresql://127.0.0.1:5432/db", "table-name": "t"}
	for k, v := range opts {
		if v == "<unset>" {
			delete(o, k)
		} else {
			o[k] = v
		}
	}
	s := types.NewPhysicalSchema(names, ts)
	if len(pk) > 0 {
		s.PrimaryKey = &types.UniqueConstraint{Name: "pk", Columns: pk}
	}
	return &connector.Context{Table: "`c`.`d`.`t`", Schema: s, Options: o}
}

func TestOptionValidation(t *testing.T) {
	names := []string{"id", "name"}
	ts := []*types.DataType{types.IntType(), types.StringType()}
	bad := []struct {
		opts map[string]string
		want string
	}{
		{map[string]string{"url": "<unset>"}, "missing required option 'url'"},
		{map[string]string{"table-name": "<unset>"}, "missing required option 'table-name'"},
		{map[string]string{"username": "u"}, "Either all or none of the following options should be provided:\nusername\npassword"},
		{map[string]string{"scan.partition.column": "name", "scan.partition.num": "3", "scan.partition.lower-bound": "1", "scan.partition.upper-bound": "100"}, "'scan.partition.column' = 'name' is a STRING column; the partition column must be numeric"},
		{map[string]string{"scan.partition.column": "id", "scan.partition.num": "2"}, "Either all or none of the following options should be provided:\nscan.partition.column\nscan.partition.num\nscan.partition.lower-bound\nscan.partition.upper-bound"},
		{map[string]string{"scan.partition.column": "id", "scan.partition.num": "2", "scan.partition.lower-bound": "10", "scan.partition.upper-bound": "1"}, "'scan.partition.lower-bound'='10' must not be larger than 'scan.partition.upper-bound'='1'."},
		{map[string]string{"scan.partition.column": "id", "scan.partition.num": "0", "scan.partition.lower-bound": "1", "scan.partition.upper-bound": "10"}, "'scan.partition.num' must be positive"},
		{map[string]string{"lookup.cache.max-rows": "10"}, "Either all or none of the following options should be provided:\nlookup.cache.max-rows\nlookup.cache.ttl"},
		{map[string]string{"lookup.max-retries": "-1"}, "The value of 'lookup.max-retries' option shouldn't be negative, but is -1."},
		{map[string]string{"sink.max-retries": "-2"}, "The value of 'sink.max-retries' option shouldn't be negative, but is -2."},
		{map[string]string{"connection.max-retry-timeout": "500ms"}, "The value of 'connection.max-retry-timeout' option must be in second granularity and shouldn't be smaller than 1 second, but is 500ms."},
		{map[string]string{"lookup.cache": "PARTIAL"}, "Missing 'lookup.partial-cache.expire-after-access', 'lookup.partial-cache.expire-after-write' or 'lookup.partial-cache.max-rows' in the configuration. The cache will not have evictions under this configuration and could lead to potential memory issues as the cache size may grow indefinitely."},
		{map[string]string{"lookup.cache": "SOME"}, "Could not parse value 'SOME' for key 'lookup.cache'"},
		{map[string]string{"scan.fetch-size": "x"}, "Could not parse value 'x' for key 'scan.fetch-size'"},
		{map[string]string{"scan.auto-commit": "maybe"}, "Could not parse value 'maybe' for key 'scan.auto-commit'"},
		{map[string]string{"sink.buffer-flush.interval": "soon"}, "Could not parse value 'soon' for key 'sink.buffer-flush.interval'"},
		{map[string]string{"url": "jdbc:sqlserver://h:1433"}, "Could not find any jdbc factory that can handle url"},
		{map[string]string{"scan.partition.colum": "id"}, "unsupported options found for 'jdbc': scan.partition.colum"},
		{map[string]string{"lookup.partial-cache.caching-missing-key": "false"}, "unsupported options found for 'jdbc': lookup.partial-cache.caching-missing-key"},
	}
	for _, c := range bad {
		_, err := parseOptions(testContext(c.opts, names, ts))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v\nwant %q", c.opts, err, c.want)
		}
	}
	// every table error names the table
	_, err := parseOptions(testContext(map[string]string{"username": "u"}, names, ts))
	if !strings.HasPrefix(err.Error(), "table `c`.`d`.`t`: ") {
		t.Errorf("error does not name the table: %v", err)
	}

	to, err := parseOptions(testContext(map[string]string{
		"driver": "org.postgresql.Driver", "username": "u", "password": "p",
		"scan.partition.column": "id", "scan.partition.num": "4", "scan.partition.lower-bound": "-5", "scan.partition.upper-bound": "100",
		"scan.fetch-size": "500", "scan.auto-commit": "false", "connection.max-retry-timeout": "5 s",
		"lookup.cache": "PARTIAL", "lookup.partial-cache.max-rows": "1000", "lookup.partial-cache.expire-after-write": "10 min",
		"lookup.partial-cache.expire-after-access": "30 s", "lookup.partial-cache.cache-missing-key": "false", "lookup.max-retries": "1",
		"sink.buffer-flush.max-rows": "50", "sink.buffer-flush.interval": "0", "sink.max-retries": "0", "sink.parallelism": "2",
	}, names, ts, "id"))
	if err != nil {
		t.Fatal(err)
	}
	want := connector.LookupCacheConfig{MaxRows: 1000, ExpireAfterWriteMillis: 600000, ExpireAfterAccessMillis: 30000, CacheMissingKey: false}
	if *to.cache != want || to.partNum != 4 || to.partLower != -5 || to.partUpper != 100 || to.fetchSize != 500 || to.autoCommit ||
		to.maxRetryTimeout != 5*time.Second || to.lookupMaxRetries != 1 || to.flushMaxRows != 50 || to.flushInterval != 0 ||
		to.sinkRetries != 0 || to.sinkPar != 2 || !reflect.DeepEqual(to.pk, []string{"id"}) || to.endpoint.User != "u" {
		t.Fatalf("parsed %+v cache %+v", to, to.cache)
	}
	// defaults
	to, err = parseOptions(testContext(nil, names, ts))
	if err != nil {
		t.Fatal(err)
	}
	if to.cache != nil || to.flushMaxRows != 100 || to.flushInterval != time.Second || to.sinkRetries != 3 || to.lookupMaxRetries != 3 ||
		to.maxRetryTimeout != 60*time.Second || !to.autoCommit || to.fetchSize != 0 || !to.filterPushdown {
		t.Fatalf("defaults %+v", to)
	}
	// without 'lookup.cache' = 'PARTIAL' the partial-cache options are ignored, as in Flink
	if to, err := parseOptions(testContext(map[string]string{"lookup.partial-cache.max-rows": "10"}, names, ts)); err != nil || to.cache != nil {
		t.Fatalf("partial-cache options without PARTIAL: %v %+v", err, to)
	}
	// FULL is accepted and caches nothing, as Flink's jdbc connector does
	if to, err := parseOptions(testContext(map[string]string{"lookup.cache": "FULL"}, names, ts)); err != nil || to.cache != nil {
		t.Fatalf("FULL: %v %+v", err, to)
	}
	// the deprecated cache options still make a cache
	to, err = parseOptions(testContext(map[string]string{"lookup.cache.max-rows": "20", "lookup.cache.ttl": "1 min"}, names, ts))
	if err != nil {
		t.Fatal(err)
	}
	if *to.cache != (connector.LookupCacheConfig{MaxRows: 20, ExpireAfterWriteMillis: 60000, CacheMissingKey: true}) {
		t.Fatalf("legacy cache %+v", to.cache)
	}
}

func TestDialectTypeValidation(t *testing.T) {
	bad := []struct {
		url  string
		typ  *types.DataType
		want string
	}{
		{"jdbc:postgresql://h/d", types.BinaryType(3), "The PostgreSQL dialect doesn't support type: BINARY(3)."},
		{"jdbc:postgresql://h/d", types.VarBinaryType(10), "The PostgreSQL dialect doesn't support type: VARBINARY(10)."},
		{"jdbc:mysql://h/d", types.TimestampLTZType(3), "The MySQL dialect doesn't support type: TIMESTAMP_LTZ(3)."},
		{"jdbc:mysql://h/d", types.ArrayType(types.IntType()), "The MySQL dialect doesn't support type: ARRAY<INT>."},
		{"jdbc:postgresql://h/d", types.MapType(types.StringType(), types.IntType()), "The PostgreSQL dialect doesn't support type: MAP<STRING, INT>."},
		{"jdbc:mysql://h/d", types.DecimalType(38, 2).WithNullable(true), ""},
		{"jdbc:postgresql://h/d", types.TimestampType(0), "The precision of field 'x' is out of the TIMESTAMP precision range [1, 6] supported by PostgreSQL dialect."},
		{"jdbc:mysql://h/d", types.TimestampType(9), "The precision of field 'x' is out of the TIMESTAMP precision range [0, 6] supported by MySQL dialect."},
		{"jdbc:postgresql://h/d", types.ArrayType(types.MapType(types.IntType(), types.IntType())), "The PostgreSQL dialect doesn't support type: ARRAY<MAP<INT, INT>>."},
	}
	for _, c := range bad {
		_, err := parseOptions(testContext(map[string]string{"url": c.url}, []string{"x"}, []*types.DataType{c.typ}))
		if c.want == "" {
			if err != nil {
				t.Errorf("%s %s: %v", c.url, c.typ, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %s: error %v\nwant %q", c.url, c.typ, err, c.want)
		}
	}
}

func TestPartitionRanges(t *testing.T) {
	// Flink's JdbcNumericBetweenParametersProvider.ofBatchNum: 10 values
	// in 3 batches of ceil(10/3) = 4, 3, 3
	cases := []struct {
		lo, hi int64
		n      int
		want   [][2]int64
	}{
		{1, 10, 3, [][2]int64{{1, 4}, {5, 7}, {8, 10}}},
		{0, 99, 4, [][2]int64{{0, 24}, {25, 49}, {50, 74}, {75, 99}}},
		{5, 6, 4, [][2]int64{{5, 5}, {6, 6}}},
		{7, 7, 1, [][2]int64{{7, 7}}},
		{-10, 10, 2, [][2]int64{{-10, 0}, {1, 10}}},
		{1, 1000000, 4, [][2]int64{{1, 250000}, {250001, 500000}, {500001, 750000}, {750001, 1000000}}},
	}
	for _, c := range cases {
		if got := partitionRanges(c.lo, c.hi, c.n); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%d..%d in %d: %v, want %v", c.lo, c.hi, c.n, got, c.want)
		}
	}
}

func mustSource(t *testing.T, url string, opts map[string]string) *Source {
	t.Helper()
	o := map[string]string{"url": url}
	for k, v := range opts {
		o[k] = v
	}
	names := []string{"id", "name", "amount", "day", "ts", "ltz", "flag", "bin"}
	ts := []*types.DataType{types.BigIntType(), types.StringType(), types.DecimalType(10, 2), types.DateType(),
		types.TimestampType(3), types.TimestampLTZType(3), types.BooleanType(), types.BytesType()}
	if strings.HasPrefix(url, "jdbc:mysql") {
		ts[5] = types.TimestampType(3) // MySQL has no TIMESTAMP_LTZ in Flink's dialect
	}
	to, err := parseOptions(testContext(o, names, ts))
	if err != nil {
		t.Fatal(err)
	}
	return newSource(to)
}

func leaf(op connector.PredicateOp, col int, name string, v any) *connector.Predicate {
	return &connector.Predicate{Op: op, Column: col, Name: name, Value: v}
}

func TestFilterPushdown(t *testing.T) {
	filters := []*connector.Predicate{
		leaf(connector.OpGreater, 0, "id", int64(10)),
		{Op: connector.OpOr, Args: []*connector.Predicate{leaf(connector.OpEq, 1, "name", "a'b"), {Op: connector.OpIsNull, Column: 1, Name: "name"}}},
		leaf(connector.OpLike, 1, "name", "x%"),
		{Op: connector.OpIn, Column: 3, Name: "day", Values: []any{types.Date(1), types.Date(2)}},
		leaf(connector.OpLess, 5, "ltz", time.Unix(0, 0)), // TIMESTAMP_LTZ literals are not pushed (as Flink)
		leaf(connector.OpEq, 7, "bin", []byte{1}),         // nor BYTES
		{Op: connector.OpNot, Args: []*connector.Predicate{leaf(connector.OpEq, 6, "flag", true)}},
		leaf(connector.OpGreaterEq, 2, "amount", types.MustDecimal("1.50")),
	}
	wantExact := []bool{true, true, true, true, false, false, true, true}

	s := mustSource(t, "jdbc:postgresql://h/d", nil)
	if got := s.ApplyFilters(filters); !reflect.DeepEqual(got, wantExact) {
		t.Fatalf("exact %v, want %v", got, wantExact)
	}
	if !reflect.DeepEqual(s.AcceptedFilters(), wantExact) {
		t.Fatalf("accepted %v", s.AcceptedFilters())
	}
	q, args := s.Query(Split{}, connector.ReadSpec{Columns: []int{0, 1}, Limit: -1})
	want := "SELECT id, name FROM t WHERE ((id > $1)) AND (((name = $2) OR (name IS NULL))) AND ((name LIKE $3)) AND ((day IN ($4, $5))) AND ((NOT (flag = $6))) AND ((amount >= $7))"
	if q != want {
		t.Fatalf("query\n got %s\nwant %s", q, want)
	}
	wantArgs := []any{int64(10), "a'b", "x%", pgtype.Date{Time: types.Date(1).Time(), Valid: true}, pgtype.Date{Time: types.Date(2).Time(), Valid: true}, true,
		pgtype.Numeric{Int: types.MustDecimal("1.50").Unscaled.BigInt(), Exp: -2, Valid: true}}
	if !reflect.DeepEqual(args, wantArgs) {
		t.Fatalf("args %#v\nwant %#v", args, wantArgs)
	}

	// partitioned MySQL scan with a filter and a limit: the range comes first
	s = mustSource(t, "jdbc:mysql://h/d", map[string]string{"scan.partition.column": "id", "scan.partition.num": "3",
		"scan.partition.lower-bound": "1", "scan.partition.upper-bound": "10"})
	s.ApplyFilters(filters[:1])
	splits, err := s.Splits(nil)
	if err != nil || len(splits) != 3 {
		t.Fatalf("splits %v %v", splits, err)
	}
	q, args = s.Query(splits[1], connector.ReadSpec{Columns: []int{1, 0}, Limit: 5})
	if want := "SELECT `name`, `id` FROM `t` WHERE (`id` BETWEEN ? AND ?) AND ((`id` > ?)) LIMIT 5"; q != want {
		t.Fatalf("query\n got %s\nwant %s", q, want)
	}
	if !reflect.DeepEqual(args, []any{int64(5), int64(7), int64(10)}) {
		t.Fatalf("args %v", args)
	}
	if splits[1].String() != "jdbc-1[5..7]" {
		t.Fatalf("split name %s", splits[1])
	}
	// COUNT(*): no columns
	q, _ = s.Query(splits[0], connector.ReadSpec{Limit: -1})
	if want := "SELECT 1 FROM `t` WHERE (`id` BETWEEN ? AND ?) AND ((`id` > ?))"; q != want {
		t.Fatalf("query\n got %s\nwant %s", q, want)
	}

	// 'filter.handling.policy' = 'NEVER' pushes nothing
	s = mustSource(t, "jdbc:postgresql://h/d", map[string]string{"filter.handling.policy": "NEVER"})
	if got := s.ApplyFilters(filters); !reflect.DeepEqual(got, make([]bool, len(filters))) {
		t.Fatalf("NEVER pushed %v", got)
	}
	if q, _ := s.Query(Split{}, connector.ReadSpec{Columns: []int{0}, Limit: -1}); q != "SELECT id FROM t" {
		t.Fatalf("query %s", q)
	}
}

func TestTypeCompatibility(t *testing.T) {
	to, err := parseOptions(testContext(nil, []string{"x"}, []*types.DataType{types.IntType()}))
	if err != nil {
		t.Fatal(err)
	}
	if err := to.checkColumnType("x", "int4", types.BigIntType()); err != nil {
		t.Fatal(err)
	}
	err = to.checkColumnType("x", "int8", types.IntType())
	if err == nil || err.Error() != "table `c`.`d`.`t`: column 'x' of PostgreSQL table 't' has type INT8, which cannot be read as the declared type INT; declare it as BIGINT" {
		t.Fatalf("error %v", err)
	}
	err = to.checkColumnType("x", "_int4", types.ArrayType(types.StringType()))
	if err == nil || !strings.Contains(err.Error(), "has type INT4[], which cannot be read as the declared type ARRAY<STRING>; declare it as ARRAY<INT>") {
		t.Fatalf("error %v", err)
	}
	err = to.checkColumnType("x", "point", types.StringType())
	if err == nil || !strings.Contains(err.Error(), "has type POINT, which Riffle's jdbc connector cannot map to a Flink type (declared STRING)") {
		t.Fatalf("error %v", err)
	}
}

func TestValueConversion(t *testing.T) {
	ts := time.Date(2024, 3, 1, 12, 30, 45, 123456789, time.UTC)
	cases := []struct {
		in   any
		t    *types.DataType
		want any
	}{
		{int16(7), types.IntType(), int32(7)},
		{[]byte("42"), types.BigIntType(), int64(42)},
		{int64(1), types.BooleanType(), true},
		{[]byte{1}, types.BooleanType(), true},
		{[]byte("12.5"), types.DecimalType(5, 2), types.MustDecimal("12.50")},
		{pgtype.Numeric{Int: types.MustDecimal("-3.14159").Unscaled.BigInt(), Exp: -5, Valid: true}, types.DecimalType(10, 3), types.MustDecimal("-3.142")},
		{uint64(18446744073709551615), types.DecimalType(20, 0), types.MustDecimal("18446744073709551615")},
		{[]byte("2024-03-01"), types.DateType(), types.DateOf(2024, 3, 1)},
		{ts, types.DateType(), types.DateOf(2024, 3, 1)},
		{pgtype.Time{Microseconds: 3723000001, Valid: true}, types.TimeType(3), types.TimeOf(1, 2, 3, 0)},
		{[]byte("01:02:03.5"), types.TimeType(1), types.TimeOf(1, 2, 3, 500000000)},
		{ts, types.TimestampType(3), time.Date(2024, 3, 1, 12, 30, 45, 123000000, time.UTC)},
		{ts.In(time.FixedZone("x", 3600)), types.TimestampLTZType(6), time.Date(2024, 3, 1, 12, 30, 45, 123456000, time.UTC)},
		{[16]byte{0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0, 1, 2, 3, 4, 5, 6, 7, 8}, types.StringType(), "12345678-9abc-def0-0102-030405060708"},
		{[]any{int32(1), nil, int32(3)}, types.ArrayType(types.BigIntType()), []any{int64(1), nil, int64(3)}},
	}
	for _, c := range cases {
		got, err := toEngine(c.in, c.t)
		if err != nil {
			t.Errorf("%#v as %s: %v", c.in, c.t, err)
			continue
		}
		if !types.ValuesEqual(got, c.want) || reflect.TypeOf(got) != reflect.TypeOf(c.want) {
			t.Errorf("%#v as %s: %#v, want %#v", c.in, c.t, got, c.want)
		}
	}
	for _, c := range []struct {
		in   any
		t    *types.DataType
		want string
	}{
		{int64(300), types.TinyIntType(), "value 300 is out of the range of TINYINT"},
		{[]byte("123456.7"), types.DecimalType(5, 2), "value 123456.70 does not fit DECIMAL(5, 2)"},
		{pgtype.Numeric{NaN: true, Valid: true}, types.DecimalType(5, 2), "NaN"},
	} {
		if _, err := toEngine(c.in, c.t); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%#v as %s: error %v, want %q", c.in, c.t, err, c.want)
		}
	}
}

func TestSinkChangelogMode(t *testing.T) {
	names := []string{"id", "v"}
	ts := []*types.DataType{types.IntType().NotNull(), types.StringType()}
	f := Factory{}
	s, err := f.CreateSink(testContext(nil, names, ts, "id"))
	if err != nil {
		t.Fatal(err)
	}
	if m := s.ChangelogMode(types.RetractMode); m != types.UpsertMode {
		t.Fatalf("with a key: %v", m)
	}
	s, err = f.CreateSink(testContext(nil, names, ts))
	if err != nil {
		t.Fatal(err)
	}
	if m := s.ChangelogMode(types.RetractMode); m != types.InsertOnlyMode {
		t.Fatalf("without a key: %v", m)
	}
	src, err := f.CreateSource(testContext(nil, names, ts))
	if err != nil {
		t.Fatal(err)
	}
	if !src.Bounded() || !src.ChangelogMode().IsInsertOnly() {
		t.Fatal("source must be a bounded insert-only scan")
	}
}

// pgNumeric encodes a decimal string in PostgreSQL's binary NUMERIC form.
func pgNumeric(t *testing.T, s string) []byte {
	t.Helper()
	var n pgtype.Numeric
	if err := n.Scan(s); err != nil {
		t.Fatal(err)
	}
	m := pgtype.NewMap()
	buf, err := m.Encode(pgtype.NumericOID, pgtype.BinaryFormatCode, n, nil)
	if err != nil {
		t.Fatal(err)
	}
	return buf
}

func TestDecodeNumeric(t *testing.T) {
	cases := []struct {
		in    string
		scale int32
		want  string
	}{
		{"0", 2, "0.00"},
		{"1.5", 2, "1.50"},
		{"-1.005", 2, "-1.01"}, // HALF_UP away from zero
		{"123456789.123", 3, "123456789.123"},
		{"7575.00", 2, "7575.00"},
		{"10000", 0, "10000"},
		{"0.0001", 4, "0.0001"},
		{"0.00005", 4, "0.0001"},
		{"12345678901234567890.123456789", 9, "12345678901234567890.123456789"},
		{"-99999999999999999999999999999.99", 2, "-99999999999999999999999999999.99"},
		{"100000000000000000000", 0, "100000000000000000000"},
		{"120000", 0, "120000"},
	}
	for _, c := range cases {
		n, err := decodeNumeric(pgNumeric(t, c.in), c.scale)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if got := n.ToString(c.scale); got != c.want {
			t.Errorf("%s at scale %d: %s, want %s", c.in, c.scale, got, c.want)
		}
	}
	if _, err := decodeNumeric(pgNumeric(t, "NaN"), 2); err == nil {
		t.Error("NaN must fail")
	}
}
