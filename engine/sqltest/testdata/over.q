# over.q - OVER windows (Flink's docs/dev/table/sql/queries/over-agg.md),
# Top-N (topn.md) and deduplication (deduplication.md) in streaming mode,
# and window functions over any ordering in batch mode.
#
# bids_ooo.csv and the watermarks are those of window_tvf.q: rows are
# processed once the watermark passes their timestamp, in timestamp
# order; the row (10:00:05, A, 7) arrives when the watermark is already
# 10:00:11 and is late for the OVER aggregate, which drops it (Top-N and
# deduplication have no notion of lateness and keep it).

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

# Unbounded RANGE (the default frame) per item, two aggregates on one window.
SELECT ts, item, price,
  SUM(price) OVER (PARTITION BY item ORDER BY ts) AS total,
  COUNT(*) OVER (PARTITION BY item ORDER BY ts) AS cnt
FROM bids;
+----+-------------------------+--------------------------------+-------------+-------------+----------------------+
| op |                      ts |                           item |       price |       total |                  cnt |
+----+-------------------------+--------------------------------+-------------+-------------+----------------------+
| +I | 2024-03-01 10:00:01.000 |                              A |           1 |           1 |                    1 |
| +I | 2024-03-01 10:00:04.000 |                              B |           2 |           2 |                    1 |
| +I | 2024-03-01 10:00:03.000 |                              C |           3 |           3 |                    1 |
| +I | 2024-03-01 10:00:08.000 |                              B |           5 |           7 |                    2 |
| +I | 2024-03-01 10:00:12.000 |                              A |           4 |           5 |                    2 |
| +I | 2024-03-01 10:00:16.000 |                              C |           6 |           9 |                    2 |
| +I | 2024-03-01 10:00:21.000 |                              B |           8 |          15 |                    3 |
| +I | 2024-03-01 10:00:26.000 |                              A |           9 |          14 |                    3 |
+----+-------------------------+--------------------------------+-------------+-------------+----------------------+
Received a total of 8 rows
!unordered

# ROWS BETWEEN 1 PRECEDING AND CURRENT ROW.
# riffle-only: event-time semantics: Flink emits the OVER results of this bounded file in another order and set (periodic watermarks)
SELECT ts, item, price,
  SUM(price) OVER (PARTITION BY item ORDER BY ts ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS last2
FROM bids;
+----+-------------------------+--------------------------------+-------------+-------------+
| op |                      ts |                           item |       price |       last2 |
+----+-------------------------+--------------------------------+-------------+-------------+
| +I | 2024-03-01 10:00:01.000 |                              A |           1 |           1 |
| +I | 2024-03-01 10:00:04.000 |                              B |           2 |           2 |
| +I | 2024-03-01 10:00:03.000 |                              C |           3 |           3 |
| +I | 2024-03-01 10:00:08.000 |                              B |           5 |           7 |
| +I | 2024-03-01 10:00:12.000 |                              A |           4 |           5 |
| +I | 2024-03-01 10:00:16.000 |                              C |           6 |           9 |
| +I | 2024-03-01 10:00:21.000 |                              B |           8 |          13 |
| +I | 2024-03-01 10:00:26.000 |                              A |           9 |          13 |
+----+-------------------------+--------------------------------+-------------+-------------+
Received a total of 8 rows
!ok

# A named window with a RANGE interval over all items.
SELECT ts, item, price, SUM(price) OVER w AS total, MAX(price) OVER w AS top, AVG(price) OVER w AS mean
FROM bids
WINDOW w AS (ORDER BY ts RANGE BETWEEN INTERVAL '10' SECOND PRECEDING AND CURRENT ROW);
+----+-------------------------+--------------------------------+-------------+-------------+-------------+-------------+
| op |                      ts |                           item |       price |       total |         top |        mean |
+----+-------------------------+--------------------------------+-------------+-------------+-------------+-------------+
| +I | 2024-03-01 10:00:01.000 |                              A |           1 |           1 |           1 |           1 |
| +I | 2024-03-01 10:00:03.000 |                              C |           3 |           4 |           3 |           2 |
| +I | 2024-03-01 10:00:04.000 |                              B |           2 |           6 |           3 |           2 |
| +I | 2024-03-01 10:00:08.000 |                              B |           5 |          11 |           5 |           2 |
| +I | 2024-03-01 10:00:12.000 |                              A |           4 |          14 |           5 |           3 |
| +I | 2024-03-01 10:00:16.000 |                              C |           6 |          15 |           6 |           5 |
| +I | 2024-03-01 10:00:21.000 |                              B |           8 |          18 |           8 |           6 |
| +I | 2024-03-01 10:00:26.000 |                              A |           9 |          23 |           9 |           7 |
+----+-------------------------+--------------------------------+-------------+-------------+-------------+-------------+
Received a total of 8 rows
!ok

# riffle-only: Riffle extension: SUM0 is callable in SQL (Flink keeps $SUM0 internal: No match found for function signature SUM0)
EXPLAIN SELECT item, SUM(price) OVER (PARTITION BY item ORDER BY ts ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) FROM bids;
== Abstract Syntax Tree ==
LogicalProject(item=[$1], EXPR$1=[$3])
+- LogicalWindow(window#0=[window(partition {$1} order by [$0 ASC-nulls-first] rows between 2 PRECEDING and CURRENT ROW aggs [SUM($2)])])
   +- LogicalWatermarkAssigner(rowtime=[ts], watermark=[-($0, 5000:INTERVAL SECOND)])
      +- LogicalProject(ts=[$0], item=[$1], price=[$2])
         +- LogicalTableScan(table=[[default_catalog, default_database, bids]])

== Optimized Physical Plan ==
Calc(select=[item, w0$o0 AS EXPR$1])
+- OverAggregate(partitionBy=[item], orderBy=[ts ASC], window#0=[SUM(price) AS w0$o0 ROWS BETWEEN 2 PRECEDING AND CURRENT ROW], select=[ts, item, price, w0$o0])
   +- Exchange(distribution=[hash[item]])
      +- WatermarkAssigner(rowtime=[ts], watermark=[-(ts, 5000:INTERVAL SECOND)])
         +- TableSourceScan(table=[[default_catalog, default_database, bids]], fields=[ts, item, price])

== Optimized Execution Plan ==
Calc(select=[item, w0$o0 AS EXPR$1])
+- OverAggregate(partitionBy=[item], orderBy=[ts ASC], window#0=[SUM(price) AS w0$o0 ROWS BETWEEN 2 PRECEDING AND CURRENT ROW], select=[ts, item, price, w0$o0])
   +- Exchange(distribution=[hash[item]])
      +- WatermarkAssigner(rowtime=[ts], watermark=[(ts - 5000:INTERVAL SECOND)])
         +- TableSourceScan(table=[[default_catalog, default_database, bids]], fields=[ts, item, price])
!ok

# riffle-only: Riffle differs (open): Flink 2.3 accepts a streaming OVER window ordered by a non-time column
SELECT item, SUM(price) OVER (PARTITION BY item ORDER BY price) FROM bids;
[ERROR] Could not execute SQL statement. Reason:
OVER windows' ordering in stream mode must be defined on a time attribute.
!error

# a bounded frame ordered by a non-time column Flink 2.3 rejects too
SELECT item, SUM(price) OVER (PARTITION BY item ORDER BY price ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM bids;
[ERROR] Could not execute SQL statement. Reason:
Non-time attribute sort is not supported for bounded OVER window.
!error

SELECT item, SUM(price) OVER (ORDER BY ts), COUNT(*) OVER (PARTITION BY item ORDER BY ts) FROM bids;
[ERROR] Could not execute SQL statement. Reason:
Over Agg: Unsupported use of OVER windows. All aggregates must be computed on the same window.
!error

SELECT item, SUM(price) OVER (ORDER BY ts ROWS BETWEEN CURRENT ROW AND 1 FOLLOWING) FROM bids;
[ERROR] Could not execute SQL statement. Reason:
OVER RANGE FOLLOWING windows are not supported yet.
!error

# Top-2 prices per item with the row number: -U/+U as ranks change.
SELECT * FROM (
  SELECT item, price, ROW_NUMBER() OVER (PARTITION BY item ORDER BY price DESC) AS rn FROM bids)
WHERE rn <= 2;
+----+--------------------------------+-------------+----------------------+
| op |                           item |       price |                   rn |
+----+--------------------------------+-------------+----------------------+
| +I |                              A |           1 |                    1 |
| +I |                              B |           2 |                    1 |
| +I |                              C |           3 |                    1 |
| -U |                              A |           1 |                    1 |
| +U |                              A |           4 |                    1 |
| +I |                              A |           1 |                    2 |
| -U |                              B |           2 |                    1 |
| +U |                              B |           5 |                    1 |
| +I |                              B |           2 |                    2 |
| -U |                              C |           3 |                    1 |
| +U |                              C |           6 |                    1 |
| +I |                              C |           3 |                    2 |
| -U |                              A |           4 |                    1 |
| +U |                              A |           7 |                    1 |
| -U |                              A |           1 |                    2 |
| +U |                              A |           4 |                    2 |
| -U |                              B |           5 |                    1 |
| +U |                              B |           8 |                    1 |
| -U |                              B |           2 |                    2 |
| +U |                              B |           5 |                    2 |
| -U |                              A |           7 |                    1 |
| +U |                              A |           9 |                    1 |
| -U |                              A |           4 |                    2 |
| +U |                              A |           7 |                    2 |
+----+--------------------------------+-------------+----------------------+
Received a total of 24 rows
!ok

# Without the row number: +I / -D as rows enter and leave the Top-2.
SELECT item, price FROM (
  SELECT item, price, ROW_NUMBER() OVER (PARTITION BY item ORDER BY price DESC) AS rn FROM bids)
WHERE rn <= 2;
+----+--------------------------------+-------------+
| op |                           item |       price |
+----+--------------------------------+-------------+
| +I |                              A |           1 |
| +I |                              B |           2 |
| +I |                              C |           3 |
| +I |                              A |           4 |
| +I |                              B |           5 |
| +I |                              C |           6 |
| -D |                              A |           1 |
| +I |                              A |           7 |
| -D |                              B |           2 |
| +I |                              B |           8 |
| -D |                              A |           4 |
| +I |                              A |           9 |
+----+--------------------------------+-------------+
Received a total of 12 rows
!ok

# Global Top-3 with another condition applied after ranking.
SELECT item, price, rn FROM (
  SELECT item, price, ROW_NUMBER() OVER (ORDER BY price DESC) AS rn FROM bids)
WHERE rn <= 3 AND item <> 'B';
+----+--------------------------------+-------------+----------------------+
| op |                           item |       price |                   rn |
+----+--------------------------------+-------------+----------------------+
| +I |                              A |           1 |                    1 |
| -U |                              A |           1 |                    1 |
| +I |                              A |           1 |                    2 |
| +U |                              C |           3 |                    1 |
| -U |                              A |           1 |                    2 |
| +I |                              A |           1 |                    3 |
| -U |                              C |           3 |                    1 |
| +U |                              A |           4 |                    1 |
| +U |                              C |           3 |                    2 |
| -U |                              A |           1 |                    3 |
| -U |                              A |           4 |                    1 |
| -U |                              C |           3 |                    2 |
| +U |                              A |           4 |                    2 |
| +U |                              C |           3 |                    3 |
| +U |                              C |           6 |                    1 |
| -U |                              A |           4 |                    2 |
| -U |                              C |           3 |                    3 |
| +U |                              A |           4 |                    3 |
| -U |                              C |           6 |                    1 |
| +U |                              A |           7 |                    1 |
| +U |                              C |           6 |                    2 |
| -U |                              A |           4 |                    3 |
| -U |                              A |           7 |                    1 |
| -U |                              C |           6 |                    2 |
| +U |                              A |           7 |                    2 |
| +U |                              C |           6 |                    3 |
| +U |                              A |           9 |                    1 |
| -U |                              A |           7 |                    2 |
| -U |                              C |           6 |                    3 |
| +U |                              A |           7 |                    3 |
+----+--------------------------------+-------------+----------------------+
Received a total of 30 rows
!ok

# Deduplication keeping the last row per item on the rowtime: the late
# row (10:00:05) is older than the kept one and does not replace it.
SELECT ts, item, price FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY item ORDER BY ts DESC) AS rn FROM bids)
WHERE rn = 1;
+----+-------------------------+--------------------------------+-------------+
| op |                      ts |                           item |       price |
+----+-------------------------+--------------------------------+-------------+
| +I | 2024-03-01 10:00:01.000 |                              A |           1 |
| +I | 2024-03-01 10:00:04.000 |                              B |           2 |
| +I | 2024-03-01 10:00:03.000 |                              C |           3 |
| -U | 2024-03-01 10:00:01.000 |                              A |           1 |
| +U | 2024-03-01 10:00:12.000 |                              A |           4 |
| -U | 2024-03-01 10:00:04.000 |                              B |           2 |
| +U | 2024-03-01 10:00:08.000 |                              B |           5 |
| -U | 2024-03-01 10:00:03.000 |                              C |           3 |
| +U | 2024-03-01 10:00:16.000 |                              C |           6 |
| -U | 2024-03-01 10:00:08.000 |                              B |           5 |
| +U | 2024-03-01 10:00:21.000 |                              B |           8 |
| -U | 2024-03-01 10:00:12.000 |                              A |           4 |
| +U | 2024-03-01 10:00:26.000 |                              A |           9 |
+----+-------------------------+--------------------------------+-------------+
Received a total of 13 rows
!ok

# Keeping the first row on the rowtime.
SELECT ts, item, price FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY item ORDER BY ts ASC) AS rn FROM bids)
WHERE rn = 1;
+----+-------------------------+--------------------------------+-------------+
| op |                      ts |                           item |       price |
+----+-------------------------+--------------------------------+-------------+
| +I | 2024-03-01 10:00:01.000 |                              A |           1 |
| +I | 2024-03-01 10:00:04.000 |                              B |           2 |
| +I | 2024-03-01 10:00:03.000 |                              C |           3 |
+----+-------------------------+--------------------------------+-------------+
Received a total of 3 rows
!unordered

# riffle-only: EXPLAIN text: Flink plans a Rank where Riffle plans a Deduplicate
EXPLAIN CHANGELOG_MODE SELECT ts, item, price FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY item ORDER BY ts DESC) AS rn FROM bids)
WHERE rn = 1;
== Abstract Syntax Tree ==
LogicalProject(ts=[$0], item=[$1], price=[$2])
+- LogicalFilter(condition=[=($3, 1)])
   +- LogicalProject(ts=[$0], item=[$1], price=[$2], rn=[$3])
      +- LogicalWindow(window#0=[window(partition {$1} order by [$0 DESC-nulls-last] range between UNBOUNDED PRECEDING and CURRENT ROW aggs [ROW_NUMBER()])])
         +- LogicalWatermarkAssigner(rowtime=[ts], watermark=[-($0, 5000:INTERVAL SECOND)])
            +- LogicalProject(ts=[$0], item=[$1], price=[$2])
               +- LogicalTableScan(table=[[default_catalog, default_database, bids]])

== Optimized Physical Plan ==
Deduplicate(keep=[LastRow], key=[item], order=[ROWTIME], changelogMode=[I,UA])
+- Exchange(distribution=[hash[item]], changelogMode=[I])
   +- WatermarkAssigner(rowtime=[ts], watermark=[-(ts, 5000:INTERVAL SECOND)], changelogMode=[I])
      +- TableSourceScan(table=[[default_catalog, default_database, bids]], fields=[ts, item, price], changelogMode=[I])

== Optimized Execution Plan ==
Deduplicate(keep=[LastRow], key=[item], order=[ROWTIME])
+- Exchange(distribution=[hash[item]])
   +- WatermarkAssigner(rowtime=[ts], watermark=[(ts - 5000:INTERVAL SECOND)])
      +- TableSourceScan(table=[[default_catalog, default_database, bids]], fields=[ts, item, price])
!ok

# riffle-only: error wording differs (Flink: The window can only be ordered in ASCENDING mode.)
SELECT item, price, ROW_NUMBER() OVER (PARTITION BY item ORDER BY price DESC) AS rn FROM bids;
[ERROR] Could not execute SQL statement. Reason:
OVER windows' ordering in stream mode must be defined on a time attribute.
!error

SET 'parallelism.default' = '4';
[INFO] Execute statement succeeded.
!info

SELECT ts, item, price,
  SUM(price) OVER (PARTITION BY item ORDER BY ts) AS total
FROM bids;
+----+-------------------------+--------------------------------+-------------+-------------+
| op |                      ts |                           item |       price |       total |
+----+-------------------------+--------------------------------+-------------+-------------+
| +I | 2024-03-01 10:00:03.000 |                              C |           3 |           3 |
| +I | 2024-03-01 10:00:16.000 |                              C |           6 |           9 |
| +I | 2024-03-01 10:00:01.000 |                              A |           1 |           1 |
| +I | 2024-03-01 10:00:04.000 |                              B |           2 |           2 |
| +I | 2024-03-01 10:00:08.000 |                              B |           5 |           7 |
| +I | 2024-03-01 10:00:12.000 |                              A |           4 |           5 |
| +I | 2024-03-01 10:00:21.000 |                              B |           8 |          15 |
| +I | 2024-03-01 10:00:26.000 |                              A |           9 |          14 |
+----+-------------------------+--------------------------------+-------------+-------------+
Received a total of 8 rows
!unordered

SELECT ts, item, price FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY item ORDER BY ts DESC) AS rn FROM bids)
WHERE rn = 1;
+----+-------------------------+--------------------------------+-------------+
| op |                      ts |                           item |       price |
+----+-------------------------+--------------------------------+-------------+
| +I | 2024-03-01 10:00:03.000 |                              C |           3 |
| -U | 2024-03-01 10:00:03.000 |                              C |           3 |
| +U | 2024-03-01 10:00:16.000 |                              C |           6 |
| +I | 2024-03-01 10:00:01.000 |                              A |           1 |
| +I | 2024-03-01 10:00:04.000 |                              B |           2 |
| -U | 2024-03-01 10:00:01.000 |                              A |           1 |
| +U | 2024-03-01 10:00:12.000 |                              A |           4 |
| -U | 2024-03-01 10:00:04.000 |                              B |           2 |
| +U | 2024-03-01 10:00:08.000 |                              B |           5 |
| -U | 2024-03-01 10:00:08.000 |                              B |           5 |
| +U | 2024-03-01 10:00:21.000 |                              B |           8 |
| -U | 2024-03-01 10:00:12.000 |                              A |           4 |
| +U | 2024-03-01 10:00:26.000 |                              A |           9 |
+----+-------------------------+--------------------------------+-------------+
Received a total of 13 rows
!unordered

# Batch mode: window functions over any ordering.
SET 'execution.runtime-mode' = 'batch';
[INFO] Execute statement succeeded.
!info

SET 'parallelism.default' = '1';
[INFO] Execute statement succeeded.
!info

# riffle-only: Flink bug: a rowtime (WATERMARK) column in batch mode breaks the plan (Conversion to relational algebra failed to preserve datatypes; cf. FLINK-25082)
SELECT ts, item, price,
  ROW_NUMBER() OVER (PARTITION BY item ORDER BY price DESC) AS rn,
  RANK() OVER (ORDER BY item) AS rk,
  DENSE_RANK() OVER (ORDER BY item) AS drk,
  PERCENT_RANK() OVER (ORDER BY item) AS prk,
  CUME_DIST() OVER (ORDER BY item) AS cd,
  NTILE(4) OVER (ORDER BY ts) AS quartile
FROM bids;
+-------------------------+------+-------+----+----+-----+-------+--------------------+----------+
|                      ts | item | price | rn | rk | drk |   prk |                 cd | quartile |
+-------------------------+------+-------+----+----+-----+-------+--------------------+----------+
| 2024-03-01 10:00:01.000 |    A |     1 |  4 |  1 |   1 |   0.0 | 0.4444444444444444 |        1 |
| 2024-03-01 10:00:03.000 |    C |     3 |  2 |  8 |   3 | 0.875 |                1.0 |        1 |
| 2024-03-01 10:00:04.000 |    B |     2 |  3 |  5 |   2 |   0.5 | 0.7777777777777778 |        1 |
| 2024-03-01 10:00:05.000 |    A |     7 |  2 |  1 |   1 |   0.0 | 0.4444444444444444 |        2 |
| 2024-03-01 10:00:08.000 |    B |     5 |  2 |  5 |   2 |   0.5 | 0.7777777777777778 |        2 |
| 2024-03-01 10:00:12.000 |    A |     4 |  3 |  1 |   1 |   0.0 | 0.4444444444444444 |        3 |
| 2024-03-01 10:00:16.000 |    C |     6 |  1 |  8 |   3 | 0.875 |                1.0 |        3 |
| 2024-03-01 10:00:21.000 |    B |     8 |  1 |  5 |   2 |   0.5 | 0.7777777777777778 |        4 |
| 2024-03-01 10:00:26.000 |    A |     9 |  1 |  1 |   1 |   0.0 | 0.4444444444444444 |        4 |
+-------------------------+------+-------+----+----+-----+-------+--------------------+----------+
9 rows in set
!unordered

# riffle-only: Flink bug: a rowtime (WATERMARK) column in batch mode breaks the plan (Conversion to relational algebra failed to preserve datatypes; cf. FLINK-25082)
SELECT ts, item, price,
  LAG(price) OVER w AS prv,
  LEAD(price, 1, -1) OVER w AS nxt,
  FIRST_VALUE(price) OVER w AS first_p,
  LAST_VALUE(price) OVER w AS last_p,
  SUM(price) OVER (PARTITION BY item) AS item_total,
  SUM(price) OVER (PARTITION BY item ORDER BY ts ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS around
FROM bids
WINDOW w AS (PARTITION BY item ORDER BY ts);
+-------------------------+------+-------+--------+-----+---------+--------+------------+--------+
|                      ts | item | price |    prv | nxt | first_p | last_p | item_total | around |
+-------------------------+------+-------+--------+-----+---------+--------+------------+--------+
| 2024-03-01 10:00:01.000 |    A |     1 | <NULL> |   7 |       1 |      1 |         21 |      8 |
| 2024-03-01 10:00:05.000 |    A |     7 |      1 |   4 |       1 |      7 |         21 |     12 |
| 2024-03-01 10:00:12.000 |    A |     4 |      7 |   9 |       1 |      4 |         21 |     20 |
| 2024-03-01 10:00:26.000 |    A |     9 |      4 |  -1 |       1 |      9 |         21 |     13 |
| 2024-03-01 10:00:04.000 |    B |     2 | <NULL> |   5 |       2 |      2 |         15 |      7 |
| 2024-03-01 10:00:08.000 |    B |     5 |      2 |   8 |       2 |      5 |         15 |     15 |
| 2024-03-01 10:00:21.000 |    B |     8 |      5 |  -1 |       2 |      8 |         15 |     13 |
| 2024-03-01 10:00:03.000 |    C |     3 | <NULL> |   6 |       3 |      3 |          9 |      9 |
| 2024-03-01 10:00:16.000 |    C |     6 |      3 |  -1 |       3 |      6 |          9 |      9 |
+-------------------------+------+-------+--------+-----+---------+--------+------------+--------+
9 rows in set
!unordered

SELECT price, SUM(price) OVER (ORDER BY price RANGE BETWEEN 2 PRECEDING AND 1 FOLLOWING) AS near
FROM bids;
+-------+------+
| price | near |
+-------+------+
|     1 |    3 |
|     2 |    6 |
|     3 |   10 |
|     4 |   14 |
|     5 |   18 |
|     6 |   22 |
|     7 |   26 |
|     8 |   30 |
|     9 |   24 |
+-------+------+
9 rows in set
!ok

# Top-N and deduplication in batch mode emit only final rows.
SELECT * FROM (SELECT item, price, RANK() OVER (ORDER BY item) AS rk FROM bids) WHERE rk <= 5;
+------+-------+----+
| item | price | rk |
+------+-------+----+
|    A |     1 |  1 |
|    A |     4 |  1 |
|    A |     7 |  1 |
|    A |     9 |  1 |
|    B |     2 |  5 |
|    B |     5 |  5 |
|    B |     8 |  5 |
+------+-------+----+
7 rows in set
!unordered

# riffle-only: Flink bug: a rowtime (WATERMARK) column in batch mode breaks the plan (Conversion to relational algebra failed to preserve datatypes; cf. FLINK-25082)
SELECT ts, item, price FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY item ORDER BY ts DESC) AS rn FROM bids)
WHERE rn = 1;
+-------------------------+------+-------+
|                      ts | item | price |
+-------------------------+------+-------+
| 2024-03-01 10:00:26.000 |    A |     9 |
| 2024-03-01 10:00:21.000 |    B |     8 |
| 2024-03-01 10:00:16.000 |    C |     6 |
+-------------------------+------+-------+
3 rows in set
!unordered
