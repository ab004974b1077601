# riffle-only-file: Flink's SQL Gateway in the interop tests has no flink-parquet (and Hadoop) on its class path; the expected values are what Flink 2.3.0 read from this file with those jars (PqInterop.java)
# parquet.q - a Parquet file Flink 2.3.0 wrote (INSERT through its
# filesystem connector and parquet format, INT96 timestamps, JVM zone UTC;
# engine/connector/format/parquet/testdata/PqInterop.java) read with the
# same DDL. Expected output: Flink 2.3.0 reading the same file with these
# queries (TableResult.print): the same values; the layout here is the SQL
# client's (widths from the values, long values cut at 30 characters).
# 'parquet.utc-timezone' = 'true' reads as Flink's UTC JVM did, whatever
# the zone of the process running the script.

SET 'execution.runtime-mode' = 'batch';
[INFO] Execute statement succeeded.
!info

SET 'table.local-time-zone' = 'UTC';
[INFO] Execute statement succeeded.
!info

CREATE TABLE pq (b BOOLEAN, ti TINYINT, si SMALLINT, i INT, bi BIGINT, f FLOAT, d DOUBLE, d5 DECIMAL(5, 2), d18 DECIMAL(18, 4), d38 DECIMAL(38, 10), c CHAR(3), vc VARCHAR(10), s STRING, bin BINARY(3), vb VARBINARY(10), `by` BYTES, dt DATE, tm TIME(3), ts0 TIMESTAMP(0), ts3 TIMESTAMP(3), ts6 TIMESTAMP(6), ts9 TIMESTAMP(9), ltz3 TIMESTAMP_LTZ(3), ltz6 TIMESTAMP_LTZ(6), arr ARRAY<INT>, m MAP<STRING, DECIMAL(10, 2)>, r ROW<a INT, b STRING, c ARRAY<DOUBLE>>, nested ARRAY<ROW<x TIMESTAMP(6), y MAP<INT, ARRAY<STRING>>>>)
WITH ('connector' = 'filesystem', 'path' = '${TESTDATA}/../../connector/format/parquet/testdata/flink_int96.parquet', 'format' = 'parquet', 'parquet.utc-timezone' = 'true');
[INFO] Execute statement succeeded.
!info

SELECT b, ti, si, i, bi, f, d5, d18, d38, c, vc, bin, dt, tm, ts0, ts3, ts6, ts9, ltz6 FROM pq;
+------+------+-------+-------------+---------------------+-----+---------+---------------------+--------------------------------+-----+-------+-----------+------------+--------------+---------------------+-------------------------+----------------------------+-------------------------------+----------------------------+
|    b |   ti |    si |           i |                  bi |   f |      d5 |                 d18 |                            d38 |   c |    vc |       bin |         dt |           tm |                 ts0 |                     ts3 |                        ts6 |                           ts9 |                       ltz6 |
+------+------+-------+-------------+---------------------+-----+---------+---------------------+--------------------------------+-----+-------+-----------+------------+--------------+---------------------+-------------------------+----------------------------+-------------------------------+----------------------------+
| TRUE | -128 | 32767 | -2147483648 | 9223372036854775807 | 1.5 | -999.99 | 12345678901234.5678 | -12345678901234567890123456... | ab  | héllo | x'000102' | 1969-07-20 | 01:02:03.456 | 1900-01-01 00:00:01 | 2024-02-29 23:59:59.123 | 2024-02-29 23:59:59.123456 | 2024-02-29 23:59:59.123456789 | 2024-05-06 07:08:09.123456 |
+------+------+-------+-------------+---------------------+-----+---------+---------------------+--------------------------------+-----+-------+-----------+------------+--------------+---------------------+-------------------------+----------------------------+-------------------------------+----------------------------+
1 row in set
!ok

SELECT arr, m, r, nested, CARDINALITY(arr) AS n FROM pq;
+--------------+--------------------+-------------------------+--------------------------------+---+
|          arr |                  m |                       r |                         nested | n |
+--------------+--------------------+-------------------------+--------------------------------+---+
| [1, NULL, 3] | {k1=1.50, k2=NULL} | (7, seven, [1.0, NULL]) | [(2000-01-01 00:00:00.00000... | 3 |
+--------------+--------------------+-------------------------+--------------------------------+---+
1 row in set
!ok
