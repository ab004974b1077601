// Flink side of the parquet interop check (not part of the build): run with
// Flink 2.3.0's lib/ plus flink-sql-parquet-2.3.0, hadoop-client-api and
// hadoop-client-runtime 3.3.6 on the classpath, JVM zone UTC:
//   java -Duser.timezone=UTC -cp "$FLINK/lib/*:extra/*" PqInterop.java read <dir>
//   java -Duser.timezone=UTC -cp ... PqInterop.java write <dir> ["<extra table options>"]
// flink_int96.parquet and flink_int64_nanos.parquet were written by 'write'.
import org.apache.flink.table.api.*;

public class PqInterop {
    static final String COLS = "b BOOLEAN, ti TINYINT, si SMALLINT, i INT, bi BIGINT, f FLOAT, d DOUBLE, d5 DECIMAL(5, 2), d18 DECIMAL(18, 4), "
        + "d38 DECIMAL(38, 10), c CHAR(3), vc VARCHAR(10), s STRING, bin BINARY(3), vb VARBINARY(10), `by` BYTES, dt DATE, tm TIME(3), "
        + "ts0 TIMESTAMP(0), ts3 TIMESTAMP(3), ts6 TIMESTAMP(6), ts9 TIMESTAMP(9), ltz3 TIMESTAMP_LTZ(3), ltz6 TIMESTAMP_LTZ(6), "
        + "arr ARRAY<INT>, m MAP<STRING, DECIMAL(10, 2)>, r ROW<a INT, b STRING, c ARRAY<DOUBLE>>, "
        + "nested ARRAY<ROW<x TIMESTAMP(6), y MAP<INT, ARRAY<STRING>>>>";
    static final String VALUES = "SELECT TRUE, CAST(-128 AS TINYINT), CAST(32767 AS SMALLINT), -2147483648, 9223372036854775807, CAST(1.5 AS FLOAT), "
        + "CAST(-2.25E300 AS DOUBLE), CAST(-999.99 AS DECIMAL(5, 2)), CAST(12345678901234.5678 AS DECIMAL(18, 4)), "
        + "CAST('-1234567890123456789012345678.0123456789' AS DECIMAL(38, 10)), CAST('ab' AS CHAR(3)), CAST('héllo' AS VARCHAR(10)), 'a longer string', "
        + "CAST(X'000102' AS BINARY(3)), CAST(X'FF00' AS VARBINARY(10)), CAST(X'' AS BYTES), DATE '1969-07-20', TIME '01:02:03.456', "
        + "TIMESTAMP '1900-01-01 00:00:01', TIMESTAMP '2024-02-29 23:59:59.123', TIMESTAMP '2024-02-29 23:59:59.123456', "
        + "TIMESTAMP '2024-02-29 23:59:59.123456789', TO_TIMESTAMP_LTZ(-1, 3), CAST(TIMESTAMP '2024-05-06 07:08:09.123456' AS TIMESTAMP_LTZ(6)), "
        + "ARRAY[1, CAST(NULL AS INT), 3], MAP['k1', CAST(1.5 AS DECIMAL(10, 2)), 'k2', CAST(NULL AS DECIMAL(10, 2))], "
        + "ROW(7, 'seven', ARRAY[CAST(1.0 AS DOUBLE), CAST(NULL AS DOUBLE)]), "
        + "ARRAY[ROW(TIMESTAMP '2000-01-01 00:00:00.000001', MAP[1, ARRAY['p', CAST(NULL AS STRING)]])]";

    public static void main(String[] args) throws Exception {
        TableEnvironment env = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        env.getConfig().set("table.local-time-zone", "UTC");
        env.getConfig().set("parallelism.default", "1");
        env.getConfig().set("restart-strategy.type", "none");
        String mode = args[0];
        if (mode.equals("read")) {
            // args: read <path> [extra options]
            String extra = args.length > 2 ? ", " + args[2] : "";
            env.executeSql("CREATE TABLE r (" + COLS + ") WITH ('connector' = 'filesystem', 'path' = '" + args[1] + "', 'format' = 'parquet'" + extra + ")");
            env.executeSql("SELECT * FROM r").print();
        } else {
            String extra = args.length > 2 ? ", " + args[2] : "";
            env.executeSql("CREATE TABLE w (" + COLS + ") WITH ('connector' = 'filesystem', 'path' = '" + args[1] + "', 'format' = 'parquet'" + extra + ")");
            String nulls = VALUES.replaceAll("TRUE, ", "CAST(NULL AS BOOLEAN), ");
            env.executeSql("INSERT INTO w " + VALUES).await();
        }
    }
}
