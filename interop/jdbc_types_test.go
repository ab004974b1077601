//go:build interop

package interop

import (
	"context"
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
)

// TestJdbcTypeRoundTrip writes every type of Flink's mapping table through
// the sink and reads it back through the scan, on both databases, and
// checks what the database itself holds.
func TestJdbcTypeRoundTrip(t *testing.T) {
	for _, s := range jdbcServers(t, "jdbc_types") {
		t.Run(s.kind, func(t *testing.T) {
			var dbDDL, flinkCols, insert string
			var want []string
			var dbQuery string
			var dbWant []string
			if s.pg() {
				dbDDL = `CREATE TABLE alltypes (id INT PRIMARY KEY, b BOOLEAN, si SMALLINT, i INTEGER, bi BIGINT,
					r REAL, d DOUBLE PRECISION, n NUMERIC(12, 3), c CHAR(3), vc VARCHAR(10), tx TEXT, bin BYTEA,
					dt DATE, tm TIME(3), ts TIMESTAMP(6), tsz TIMESTAMPTZ(3), ai INTEGER[], atx TEXT[], ser SERIAL)`
				flinkCols = `id INT, b BOOLEAN, si SMALLINT, i INT, bi BIGINT, r FLOAT, d DOUBLE, n DECIMAL(12, 3),
					c CHAR(3), vc VARCHAR(10), tx STRING, bin BYTES, dt DATE, tm TIME(3), ts TIMESTAMP(6),
					tsz TIMESTAMP_LTZ(3), ai ARRAY<INT>, atx ARRAY<STRING>, ser INT, PRIMARY KEY (id) NOT ENFORCED`
				insert = `INSERT INTO alltypes VALUES
					(1, TRUE, CAST(-32768 AS SMALLINT), -2147483648, 9223372036854775807, CAST(1.5 AS FLOAT), 2.25,
					 123456789.123, 'abc', 'héllo', 'text ''q''', X'00FF10', DATE '2024-02-29', TIME '23:59:58.123',
					 TIMESTAMP '2024-02-29 12:34:56.123456', TO_TIMESTAMP_LTZ(1709210096789, 3),
					 ARRAY[1, 2, 3], ARRAY['a', 'b'], 7),
					(2, CAST(NULL AS BOOLEAN), CAST(NULL AS SMALLINT), CAST(NULL AS INT), CAST(NULL AS BIGINT), CAST(NULL AS FLOAT),
					 CAST(NULL AS DOUBLE), CAST(NULL AS DECIMAL(12, 3)), CAST(NULL AS CHAR(3)), CAST(NULL AS VARCHAR(10)),
					 CAST(NULL AS STRING), CAST(NULL AS BYTES), CAST(NULL AS DATE), CAST(NULL AS TIME(3)),
					 CAST(NULL AS TIMESTAMP(6)), CAST(NULL AS TIMESTAMP_LTZ(3)), CAST(NULL AS ARRAY<INT>), CAST(NULL AS ARRAY<STRING>), 8)`
				want = []string{
					"+I[1, true, -32768, -2147483648, 9223372036854775807, 1.5, 2.25, 123456789.123, abc, héllo, text 'q', [0, -1, 16], 2024-02-29, 23:59:58.123, 2024-02-29T12:34:56.123456, 2024-02-29T12:34:56.789, [1, 2, 3], [a, b], 7]",
					"+I[2, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, 8]",
				}
				dbQuery = `SELECT b::text, si::text, n::text, c, encode(bin, 'hex'), dt::text, tm::text, ts::text,
					(tsz AT TIME ZONE 'UTC')::text, ai::text, atx::text FROM alltypes ORDER BY id`
				dbWant = []string{
					"true|-32768|123456789.123|abc|00ff10|2024-02-29|23:59:58.123|2024-02-29 12:34:56.123456|2024-02-29 12:34:56.789|{1,2,3}|{a,b}",
					"null|null|null|null|null|null|null|null|null|null|null",
				}
			} else {
				dbDDL = `CREATE TABLE alltypes (id INT PRIMARY KEY, b BOOLEAN, ti TINYINT, si SMALLINT, mi MEDIUMINT, i INT,
					bi BIGINT, ui INT UNSIGNED, ubi BIGINT UNSIGNED, r FLOAT, d DOUBLE, n DECIMAL(12, 3), c CHAR(3),
					vc VARCHAR(10), tx TEXT, bin VARBINARY(10), bl BLOB, dt DATE, tm TIME(3), ts DATETIME(6), yr YEAR)`
				flinkCols = `id INT, b BOOLEAN, ti TINYINT, si SMALLINT, mi INT, i INT, bi BIGINT, ui BIGINT,
					ubi DECIMAL(20, 0), r FLOAT, d DOUBLE, n DECIMAL(12, 3), c CHAR(3), vc VARCHAR(10), tx STRING,
					bin BYTES, bl BYTES, dt DATE, tm TIME(3), ts TIMESTAMP(6), yr SMALLINT, PRIMARY KEY (id) NOT ENFORCED`
				insert = `INSERT INTO alltypes VALUES
					(1, TRUE, CAST(-128 AS TINYINT), CAST(-32768 AS SMALLINT), -8388608, -2147483648, 9223372036854775807,
					 4294967295, CAST('18446744073709551615' AS DECIMAL(20, 0)), CAST(1.5 AS FLOAT), 2.25, 123456789.123, 'abc',
					 'héllo', 'text ''q''', X'00FF10', X'CAFE', DATE '2024-02-29', TIME '23:59:58.123',
					 TIMESTAMP '2024-02-29 12:34:56.123456', CAST(2024 AS SMALLINT)),
					(2, CAST(NULL AS BOOLEAN), CAST(NULL AS TINYINT), CAST(NULL AS SMALLINT), CAST(NULL AS INT), CAST(NULL AS INT),
					 CAST(NULL AS BIGINT), CAST(NULL AS BIGINT), CAST(NULL AS DECIMAL(20, 0)), CAST(NULL AS FLOAT),
					 CAST(NULL AS DOUBLE), CAST(NULL AS DECIMAL(12, 3)), CAST(NULL AS CHAR(3)), CAST(NULL AS VARCHAR(10)),
					 CAST(NULL AS STRING), CAST(NULL AS BYTES), CAST(NULL AS BYTES), CAST(NULL AS DATE), CAST(NULL AS TIME(3)),
					 CAST(NULL AS TIMESTAMP(6)), CAST(NULL AS SMALLINT))`
				want = []string{
					"+I[1, true, -128, -32768, -8388608, -2147483648, 9223372036854775807, 4294967295, 18446744073709551615, 1.5, 2.25, 123456789.123, abc, héllo, text 'q', [0, -1, 16], [-54, -2], 2024-02-29, 23:59:58.123, 2024-02-29T12:34:56.123456, 2024]",
					"+I[2, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null]",
				}
				dbQuery = `SELECT b, ti, ubi, n, c, vc, HEX(bin), CAST(dt AS CHAR), tm, CAST(ts AS CHAR) FROM alltypes ORDER BY id`
				dbWant = []string{
					"1|-128|18446744073709551615|123456789.123|abc|héllo|00FF10|2024-02-29|23:59:58.123|2024-02-29 12:34:56.123456",
					"null|null|null|null|null|null|null|null|null|null",
				}
			}
			s.exec(t, dbDDL)
			env := jdbcEnv(t, false)
			jdbcExec(t, env, "CREATE TABLE alltypes ("+flinkCols+") "+s.with("alltypes"), insert)
			jdbcEqual(t, "in the database", s.rows(t, dbQuery), dbWant)
			jdbcEqual(t, "read back", jdbcSorted(jdbcQuery(t, env, "SELECT * FROM alltypes")), want)
			if s.pg() {
				// without the arrays every column takes the scan's fast
				// path (binary wire values into Arrow); same values
				jdbcEqual(t, "read back without arrays",
					jdbcSorted(jdbcQuery(t, env, "SELECT id, b, si, i, bi, r, d, n, c, vc, tx, bin, dt, tm, ts, tsz FROM alltypes")),
					[]string{
						"+I[1, true, -32768, -2147483648, 9223372036854775807, 1.5, 2.25, 123456789.123, abc, héllo, text 'q', [0, -1, 16], 2024-02-29, 23:59:58.123, 2024-02-29T12:34:56.123456, 2024-02-29T12:34:56.789]",
						"+I[2, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null]",
					})
				// narrower declared precisions truncate as the general path does
				jdbcExec(t, env, "CREATE TABLE narrow (id INT, tm TIME(1), ts TIMESTAMP(2), n DECIMAL(11, 1)) "+s.with("alltypes"))
				jdbcEqual(t, "narrower precisions", jdbcQuery(t, env, "SELECT * FROM narrow WHERE id = 1"),
					[]string{"+I[1, 23:59:58.100, 2024-02-29T12:34:56.120, 123456789.1]"})
			}
			// filters on every pushable type run in the database
			var filter string
			if s.pg() {
				filter = "b = TRUE AND si = -32768 AND i < 0 AND bi > 0 AND r = 1.5 AND d >= 2.25 AND n = 123456789.123 AND c = 'abc' AND vc LIKE 'h%' AND dt = DATE '2024-02-29' AND tm = TIME '23:59:58.123' AND ts = TIMESTAMP '2024-02-29 12:34:56.123456'"
			} else {
				filter = "b = TRUE AND ti = -128 AND si = -32768 AND i < 0 AND bi > 0 AND ui = 4294967295 AND r = 1.5 AND d >= 2.25 AND n = 123456789.123 AND c = 'abc' AND vc LIKE 'h%' AND dt = DATE '2024-02-29' AND tm = TIME '23:59:58.123' AND ts = TIMESTAMP '2024-02-29 12:34:56.123456'"
			}
			jdbcEqual(t, "filtered on every type", jdbcQuery(t, env, "SELECT id FROM alltypes WHERE "+filter), []string{"+I[1]"})
		})
	}
}

// TestJdbcLookup looks keys up through the connector's Lookuper (with the
// cache configuration the runtime puts in front of it) and, as a user
// does, through a processing-time lookup join.
func TestJdbcLookup(t *testing.T) {
	for _, s := range jdbcServers(t, "jdbc_lookup") {
		t.Run(s.kind, func(t *testing.T) {
			s.exec(t, "CREATE TABLE customers (id INT, region VARCHAR(10), name VARCHAR(20), PRIMARY KEY (id, region))",
				"INSERT INTO customers VALUES (1, 'eu', 'Ann'), (1, 'us', 'Bob'), (2, 'eu', 'Cid')")
			names := []string{"id", "region", "name"}
			ts := []*types.DataType{types.IntType().NotNull(), types.StringType().NotNull(), types.StringType()}
			src, err := connector.CreateSource(jdbcContext(s, "customers", names, ts, []string{"id", "region"},
				"'lookup.cache' = 'PARTIAL'", "'lookup.partial-cache.max-rows' = '100'", "'lookup.partial-cache.expire-after-write' = '1 min'",
				"'lookup.partial-cache.cache-missing-key' = 'false'", "'lookup.max-retries' = '1'"))
			if err != nil {
				t.Fatal(err)
			}
			cfg := src.(connector.CachingLookupSource).LookupCache()
			if cfg == nil || *cfg != (connector.LookupCacheConfig{MaxRows: 100, ExpireAfterWriteMillis: 60000}) {
				t.Fatalf("cache %+v", cfg)
			}
			ctx := context.Background()
			l, err := src.(connector.LookupSource).OpenLookup(ctx, []int{0}, connector.ReadSpec{Columns: []int{2, 1}, Limit: -1})
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			rows := func(key ...any) []string {
				b, err := l.Lookup(ctx, key)
				if err != nil {
					t.Fatal(err)
				}
				var out []string
				for _, r := range b.Rows([]*types.DataType{types.StringType(), types.StringType()}) {
					out = append(out, r.String())
				}
				return jdbcSorted(out)
			}
			jdbcEqual(t, "key 1", rows(int32(1)), []string{"+I[Ann, eu]", "+I[Bob, us]"})
			jdbcEqual(t, "key 3", rows(int32(3)), nil)
			// a composite key, keys in the join's order
			l2, err := src.(connector.LookupSource).OpenLookup(ctx, []int{1, 0}, connector.ReadSpec{Columns: []int{2}, Limit: -1})
			if err != nil {
				t.Fatal(err)
			}
			defer l2.Close()
			b, err := l2.Lookup(ctx, []any{"eu", int32(2)})
			if err != nil || b.Len != 1 {
				t.Fatalf("composite key: %v %v", b, err)
			}
			if sq, ok := l2.(interface{ LookupSQL() string }); ok {
				want := map[bool]string{true: "SELECT name FROM customers WHERE region = $1 AND id = $2",
					false: "SELECT `name` FROM `customers` WHERE `region` = ? AND `id` = ?"}[s.pg()]
				if sq.LookupSQL() != want {
					t.Fatalf("lookup SQL %q, want %q", sq.LookupSQL(), want)
				}
			}
			// a column of another type fails the lookup with the reason
			bad, err := connector.CreateSource(jdbcContext(s, "customers", names, []*types.DataType{types.IntType(), types.StringType(), types.IntType()}, nil))
			if err != nil {
				t.Fatal(err)
			}
			lb, err := bad.(connector.LookupSource).OpenLookup(ctx, []int{0}, connector.ReadSpec{Columns: []int{2}, Limit: -1})
			if err != nil {
				t.Fatal(err)
			}
			defer lb.Close()
			if _, err := lb.Lookup(ctx, []any{int32(1)}); err == nil || !strings.Contains(err.Error(), "column 'name'") {
				t.Fatalf("mismatched lookup column: %v", err)
			}

			// the SQL lookup join (the planner's part)
			env := jdbcEnv(t, true)
			jdbcExec(t, env,
				"CREATE TABLE customers (id INT, region STRING, name STRING, PRIMARY KEY (id, region) NOT ENFORCED) "+s.with("customers", "'lookup.cache' = 'PARTIAL'", "'lookup.partial-cache.max-rows' = '10'"),
				"CREATE TEMPORARY VIEW orders AS SELECT * FROM (VALUES (10, 1, 'us'), (11, 2, 'eu'), (12, 3, 'eu'), (13, 1, 'us')) AS o(oid, cid, region)",
			)
			got, err := jdbcQueryErr(env, "SELECT o.oid, c.name FROM (SELECT *, PROCTIME() AS pt FROM orders) AS o "+
				"LEFT JOIN customers FOR SYSTEM_TIME AS OF o.pt AS c ON o.cid = c.id AND o.region = c.region")
			if err != nil {
				t.Fatalf("lookup join: %v", err)
			}
			jdbcEqual(t, "lookup join", jdbcSorted(got), []string{"+I[10, Bob]", "+I[11, Cid]", "+I[12, null]", "+I[13, Bob]"})
		})
	}
}
