// JdbcProbe drives Flink's JDBC driver (flink-sql-jdbc-driver-bundle) against a
// SQL Gateway, Riffle's or Flink's, and prints what it sees in a stable text form,
// one fact per line, for interop/peer_jdbc_test.go to compare.
//
// Run it single-file, without a build:
//
//   java -cp $FLINK_HOME/jdbc/flink-sql-jdbc-driver-bundle-2.3.0.jar \
//       interop/jdbc/JdbcProbe.java jdbc:flink://127.0.0.1:8083 /tmp/probe-data
//
// The second argument is an empty folder the probe writes its csv table into.
// Lines start with a topic: "meta", "catalogs", "schemas", "query", "column",
// "row", "execute", "table", "error", "unsupported"; values print as the typed
// getters return them, NULL as <null> (with wasNull).

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

public class JdbcProbe {

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: JdbcProbe jdbc:flink://host:port DATA_DIR");
            System.exit(2);
        }
        String url = args[0];
        Path dir = Path.of(args[1]);
        Path csv = writeCsv(dir);

        Properties props = new Properties();
        props.setProperty("execution.runtime-mode", "batch");
        try (Connection conn = DriverManager.getConnection(url, props)) {
            DatabaseMetaData md = conn.getMetaData();
            out("meta", "driver " + md.getDriverName() + " " + md.getDriverMajorVersion());
            out("meta", "product " + md.getDatabaseProductName() + " " + md.getDatabaseProductVersion());
            out("meta", "catalog " + conn.getCatalog() + " schema " + conn.getSchema());

            try (Statement st = conn.createStatement()) {
                typedQuery(st);
                moreTypes(st);
                ddlAndTable(st, csv);
                updates(st);
                streaming(st);
                metadata(conn, md);
                errors(st);
            }
        }
        // a URL naming the catalog and database, and a session property in its query
        try (Connection conn = DriverManager.getConnection(
                url + "/default_catalog/default_database?table.local-time-zone=UTC")) {
            out("url", "catalog " + conn.getCatalog() + " schema " + conn.getSchema());
            try (Statement st = conn.createStatement();
                    ResultSet rs = st.executeQuery("SELECT TO_TIMESTAMP_LTZ(0, 3) AS t")) {
                while (rs.next()) {
                    out("url", "ltz " + rs.getTimestamp(1).toInstant());
                }
            }
        }
        out("done", "ok");
    }

    static Path writeCsv(Path dir) throws IOException {
        Files.createDirectories(dir);
        Path csv = dir.resolve("orders.csv");
        Files.writeString(csv,
                "1,alice,10.50,2024-01-31\n2,bob,20.25,2024-02-01\n3,carol,7.00,2024-02-01\n",
                StandardCharsets.UTF_8);
        return csv;
    }

    // One row of every common type through the typed getters.
    static void typedQuery(Statement st) throws SQLException {
        String sql =
                "SELECT CAST(42 AS INT) AS i, CAST(7000000000 AS BIGINT) AS bi, CAST(2.5 AS DOUBLE) AS dbl,"
                        + " CAST(12.34 AS DECIMAL(10, 2)) AS dec2, 'hello' AS s, TRUE AS b,"
                        + " DATE '2024-01-31' AS d, TIMESTAMP '2024-01-31 10:20:30.123' AS ts,"
                        + " CAST(NULL AS INT) AS n, CAST(NULL AS VARCHAR) AS ns";
        out("query", "typed");
        try (ResultSet rs = st.executeQuery(sql)) {
            ResultSetMetaData rmd = rs.getMetaData();
            for (int c = 1; c <= rmd.getColumnCount(); c++) {
                out("column", rmd.getColumnName(c) + " " + rmd.getColumnTypeName(c)
                        + " jdbcType=" + rmd.getColumnType(c)
                        + " class=" + rmd.getColumnClassName(c));
            }
            while (rs.next()) {
                int i = rs.getInt("i");
                long bi = rs.getLong("bi");
                double dbl = rs.getDouble("dbl");
                BigDecimal dec = rs.getBigDecimal("dec2");
                String s = rs.getString("s");
                boolean b = rs.getBoolean("b");
                Date d = rs.getDate("d");
                Timestamp ts = rs.getTimestamp("ts");
                out("row", "getInt=" + i + " getLong=" + bi + " getDouble=" + dbl
                        + " getBigDecimal=" + dec + " getString=" + s + " getBoolean=" + b);
                out("row", "getDate=" + d + " getTimestamp=" + ts);
                int n = rs.getInt("n");
                boolean nNull = rs.wasNull();
                String ns = rs.getString("ns");
                boolean nsNull = rs.wasNull();
                out("row", "getInt(n)=" + n + " wasNull=" + nNull + " getString(ns)=" + show(ns) + " wasNull=" + nsNull);
                out("row", "getObject(i)=" + rs.getObject("i") + " " + rs.getObject("i").getClass().getSimpleName());
            }
        }
    }

    // More types through getObject and getString: what Flink's JSON rows
    // decode to in the driver.
    static void moreTypes(Statement st) throws SQLException {
        String sql =
                "SELECT CAST(1 AS TINYINT) AS ti, CAST(2 AS SMALLINT) AS si, CAST(1.5 AS FLOAT) AS f,"
                        + " TIME '12:34:56' AS t, X'0102' AS bin, ARRAY[1, 2] AS arr, MAP['a', 1] AS m,"
                        + " ROW(1, 'x') AS r, TO_TIMESTAMP_LTZ(1000, 3) AS ltz, CAST('ab' AS CHAR(4)) AS ch,"
                        + " CAST(123456789.123456789 AS DECIMAL(38, 9)) AS big, CAST(-0.5 AS DOUBLE) AS neg";
        out("query", "more types");
        try (ResultSet rs = st.executeQuery(sql)) {
            ResultSetMetaData rmd = rs.getMetaData();
            while (rs.next()) {
                for (int c = 1; c <= rmd.getColumnCount(); c++) {
                    Object o;
                    String s;
                    try {
                        o = rs.getObject(c);
                    } catch (SQLException | RuntimeException e) {
                        o = "getObject failed: " + e.getClass().getSimpleName();
                    }
                    try {
                        s = rs.getString(c);
                    } catch (SQLException | RuntimeException e) {
                        s = "getString failed: " + e.getClass().getSimpleName();
                    }
                    String cls = o == null ? "null" : o.getClass().getSimpleName();
                    String shown = o instanceof byte[] ? java.util.Arrays.toString((byte[]) o) : String.valueOf(o);
                    out("value", rmd.getColumnName(c) + " " + rmd.getColumnTypeName(c) + " object=" + cls + ":" + shown + " string=" + s);
                }
            }
        }
    }

    // DDL through execute, then queries over the csv table.
    static void ddlAndTable(Statement st, Path csv) throws SQLException {
        boolean hasResult = st.execute(
                "CREATE TABLE orders (id INT, customer STRING, amount DECIMAL(10, 2), d DATE) WITH ("
                        + "'connector' = 'filesystem', 'path' = '" + csv + "', 'format' = 'csv')");
        out("execute", "create table result=" + hasResult);
        out("query", "orders");
        try (ResultSet rs = st.executeQuery("SELECT id, customer, amount, d FROM orders ORDER BY id")) {
            while (rs.next()) {
                out("table", rs.getInt(1) + " " + rs.getString(2) + " " + rs.getBigDecimal(3) + " " + rs.getDate(4));
            }
        }
        out("query", "group by");
        try (ResultSet rs = st.executeQuery(
                "SELECT d, COUNT(*) AS n, SUM(amount) AS total FROM orders GROUP BY d ORDER BY d")) {
            while (rs.next()) {
                out("table", rs.getDate("d") + " n=" + rs.getLong("n") + " total=" + rs.getBigDecimal("total"));
            }
        }
        // SHOW is no query to the driver (executeQuery refuses it): execute, then the result set
        out("execute", "show tables result=" + st.execute("SHOW TABLES"));
        try (ResultSet rs = st.getResultSet()) {
            while (rs.next()) {
                out("table", rs.getString(1));
            }
        }
    }

    // SET through execute, and an INSERT.
    static void updates(Statement st) throws SQLException {
        out("execute", "set result=" + st.execute("SET 'table.local-time-zone' = 'UTC'"));
        boolean r = st.execute(
                "CREATE TABLE sink (id INT, customer STRING) WITH ('connector' = 'blackhole')");
        out("execute", "create sink result=" + r);
        r = st.execute("INSERT INTO sink SELECT id, customer FROM orders");
        out("execute", "insert result=" + r);
    }

    // A streaming aggregate: the driver reads the changelog rows as they come.
    static void streaming(Statement st) throws SQLException {
        st.execute("SET 'execution.runtime-mode' = 'streaming'");
        // one datagen reader: at a higher parallelism the sequence is split
        // between readers and the order of the running sums depends on
        // which reader runs first (Riffle's default is the number of cores)
        st.execute("SET 'parallelism.default' = '1'");
        st.execute("CREATE TABLE gen (k INT, v BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '5',"
                + " 'fields.k.min' = '1', 'fields.k.max' = '1', 'fields.v.kind' = 'sequence',"
                + " 'fields.v.start' = '1', 'fields.v.end' = '5')");
        out("query", "streaming");
        try (ResultSet rs = st.executeQuery("SELECT k, SUM(v) AS s FROM gen GROUP BY k")) {
            while (rs.next()) {
                out("stream", rs.getInt("k") + " " + rs.getLong("s"));
            }
        }
        st.execute("SET 'execution.runtime-mode' = 'batch'");
    }

    static void metadata(Connection conn, DatabaseMetaData md) throws SQLException {
        List<String> cats = new ArrayList<>();
        try (ResultSet rs = md.getCatalogs()) {
            while (rs.next()) {
                cats.add(rs.getString("TABLE_CAT"));
            }
        }
        out("catalogs", String.join(",", cats));
        List<String> schemas = new ArrayList<>();
        try (ResultSet rs = md.getSchemas()) {
            while (rs.next()) {
                schemas.add(rs.getString("TABLE_CATALOG") + "." + rs.getString("TABLE_SCHEM"));
            }
        }
        out("schemas", String.join(",", schemas));
        out("meta", "catalog " + conn.getCatalog() + " schema " + conn.getSchema());
        // a second database, and USE through setSchema
        conn.createStatement().execute("CREATE DATABASE IF NOT EXISTS probe_db");
        conn.setSchema("probe_db");
        out("meta", "after setSchema: catalog " + conn.getCatalog() + " schema " + conn.getSchema());
        List<String> all = new ArrayList<>();
        try (ResultSet rs = md.getSchemas()) {
            while (rs.next()) {
                all.add(rs.getString("TABLE_CATALOG") + "." + rs.getString("TABLE_SCHEM"));
            }
        }
        out("schemas", String.join(",", all));
        try {
            md.getSchemas("default_catalog", "probe%").close();
        } catch (UnsupportedOperationException | SQLException e) {
            out("unsupported", "getSchemas(catalog, pattern) " + e.getClass().getSimpleName());
        }
        conn.setSchema("default_database");
        try (ResultSet rs = md.getTables(null, null, "%", null)) {
            while (rs.next()) {
                out("tables", rs.getString("TABLE_NAME"));
            }
        } catch (UnsupportedOperationException | SQLException e) {
            out("unsupported", "getTables " + e.getClass().getSimpleName());
        }
        try (ResultSet rs = md.getColumns(null, null, "orders", "%")) {
            while (rs.next()) {
                out("columns", rs.getString("COLUMN_NAME"));
            }
        } catch (UnsupportedOperationException | SQLException e) {
            out("unsupported", "getColumns " + e.getClass().getSimpleName());
        }
    }

    // A wrong column: the driver's SQLException and the root cause it carries.
    static void errors(Statement st) {
        try (ResultSet rs = st.executeQuery("SELECT nosuch FROM orders")) {
            out("error", "none");
        } catch (SQLException | RuntimeException e) {
            // the driver throws its SqlExecutionException (unchecked) as it is
            Throwable root = e;
            while (root.getCause() != null && root.getCause() != root) {
                root = root.getCause();
            }
            String msg = String.valueOf(root.getMessage());
            String[] parts = msg.split("Caused by: ");
            String reason = parts[parts.length - 1].split("\tat ")[0].trim();
            out("error", e.getClass().getSimpleName() + ": " + e.getMessage().replace('\n', ' '));
            out("error", "reason " + reason);
        }
    }

    static String show(Object o) {
        return o == null ? "<null>" : o.toString();
    }

    static void out(String topic, String text) {
        System.out.println(topic + ": " + text);
    }
}
