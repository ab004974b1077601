# temporal_sort.q - streaming ORDER BY on an ascending time attribute
# (Flink's docs/dev/table/sql/queries/orderby.md: "the primary sort order
# of a table must be ascending on a time attribute"; the operator is
# RowTimeSortOperator, flink-table-runtime operators/sort).
#
# bids_ooo.csv, watermark ts - 5 s emitted after every row that advances
# it (see window_tvf.q). Rows are held until the watermark passes their
# timestamp, then emitted in timestamp order:
#
#   row  ts        watermark after   emitted
#   1    10:00:01  09:59:56
#   2    10:00:04  09:59:59
#   3    10:00:03
#   4    10:00:12  10:00:07          01, 03, 04
#   5    10:00:08
#   6    10:00:16  10:00:11          08, 12
#   7    10:00:05                    late: not after the last emitted 12
#   8    10:00:21  10:00:16          16
#   9    10:00:26  10:00:21          21
#   end of input                     26

SET 'pipeline.auto-watermark-interval' = '0';
[INFO] Execute statement succeeded.
!info

CREATE TABLE bids (
  ts TIMESTAMP(3),
  item STRING,
  price INT,
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH (
  'connector' = 'filesystem',
  'path' = '${TESTDATA}/bids_ooo.csv',
  'format' = 'csv'
);
[INFO] Execute statement succeeded.
!info

SELECT ts, item, price FROM bids ORDER BY ts;
+----+-------------------------+--------------------------------+-------------+
| op |                      ts |                           item |       price |
+----+-------------------------+--------------------------------+-------------+
| +I | 2024-03-01 10:00:01.000 |                              A |           1 |
| +I | 2024-03-01 10:00:03.000 |                              C |           3 |
| +I | 2024-03-01 10:00:04.000 |                              B |           2 |
| +I | 2024-03-01 10:00:08.000 |                              B |           5 |
| +I | 2024-03-01 10:00:12.000 |                              A |           4 |
| +I | 2024-03-01 10:00:16.000 |                              C |           6 |
| +I | 2024-03-01 10:00:21.000 |                              B |           8 |
| +I | 2024-03-01 10:00:26.000 |                              A |           9 |
+----+-------------------------+--------------------------------+-------------+
Received a total of 8 rows
!ok

# Secondary keys order rows of the same timestamp: here the 10-second
# window ends of a window TVF (window_time is a time attribute).
SELECT window_time, item, price
FROM TABLE(TUMBLE(TABLE bids, DESCRIPTOR(ts), INTERVAL '10' SECOND))
ORDER BY window_time, price DESC;
+----+-------------------------+--------------------------------+-------------+
| op |             window_time |                           item |       price |
+----+-------------------------+--------------------------------+-------------+
| +I | 2024-03-01 10:00:09.999 |                              B |           5 |
| +I | 2024-03-01 10:00:09.999 |                              C |           3 |
| +I | 2024-03-01 10:00:09.999 |                              B |           2 |
| +I | 2024-03-01 10:00:09.999 |                              A |           1 |
| +I | 2024-03-01 10:00:19.999 |                              C |           6 |
| +I | 2024-03-01 10:00:19.999 |                              A |           4 |
| +I | 2024-03-01 10:00:29.999 |                              A |           9 |
| +I | 2024-03-01 10:00:29.999 |                              B |           8 |
+----+-------------------------+--------------------------------+-------------+
Received a total of 8 rows
!ok

# riffle-only: EXPLAIN text: Flink prints sort directions with nulls-first/last
EXPLAIN SELECT ts, item FROM bids ORDER BY ts, item DESC;
== Abstract Syntax Tree ==
LogicalSort(sort0=[$0], dir0=[ASC], sort1=[$1], dir1=[DESC])
+- LogicalProject(ts=[$0], item=[$1])
   +- LogicalWatermarkAssigner(rowtime=[ts], watermark=[-($0, 5000:INTERVAL SECOND)])
      +- LogicalProject(ts=[$0], item=[$1], price=[$2])
         +- LogicalTableScan(table=[[default_catalog, default_database, bids]])

== Optimized Physical Plan ==
TemporalSort(orderBy=[ts ASC, item DESC])
+- Exchange(distribution=[single])
   +- WatermarkAssigner(rowtime=[ts], watermark=[-(ts, 5000:INTERVAL SECOND)])
      +- TableSourceScan(table=[[default_catalog, default_database, bids, project=[ts, item]]], fields=[ts, item])

== Optimized Execution Plan ==
TemporalSort(orderBy=[ts ASC, item DESC])
+- Exchange(distribution=[single])
   +- WatermarkAssigner(rowtime=[ts], watermark=[(ts - 5000:INTERVAL SECOND)])
      +- TableSourceScan(table=[[default_catalog, default_database, bids, project=[ts, item]]], fields=[ts, item])
!ok

# Descending time, or no time attribute first: Flink's error.
SELECT ts, item FROM bids ORDER BY ts DESC;
[ERROR] Could not execute SQL statement. Reason:
Sort on a non-time-attribute field is not supported.
!error

SELECT ts, item FROM bids ORDER BY item, ts;
[ERROR] Could not execute SQL statement. Reason:
Sort on a non-time-attribute field is not supported.
!error

# The same order at parallelism 4 (the sort runs on one task).
SET 'parallelism.default' = '4';
[INFO] Execute statement succeeded.
!info

SELECT ts, item, price FROM bids ORDER BY ts;
+----+-------------------------+--------------------------------+-------------+
| op |                      ts |                           item |       price |
+----+-------------------------+--------------------------------+-------------+
| +I | 2024-03-01 10:00:01.000 |                              A |           1 |
| +I | 2024-03-01 10:00:03.000 |                              C |           3 |
| +I | 2024-03-01 10:00:04.000 |                              B |           2 |
| +I | 2024-03-01 10:00:08.000 |                              B |           5 |
| +I | 2024-03-01 10:00:12.000 |                              A |           4 |
| +I | 2024-03-01 10:00:16.000 |                              C |           6 |
| +I | 2024-03-01 10:00:21.000 |                              B |           8 |
| +I | 2024-03-01 10:00:26.000 |                              A |           9 |
+----+-------------------------+--------------------------------+-------------+
Received a total of 8 rows
!ok
