# match_recognize.q - MATCH_RECOGNIZE (Flink's docs/dev/table/sql/queries/
# match_recognize.md; the NFA of Flink's CEP library). The expected rows
# were computed by hand, row by row, as each comment explains; most
# examples and data are the docs' (a second symbol added to the ticker).
#
# Each file has one row per second (20 minutes in match_within.csv); the
# watermark trails the rows by a second, so rows are matched in time order
# as the watermark passes them.

SET 'pipeline.auto-watermark-interval' = '0';
[INFO] Execute statement succeeded.
!info

CREATE TABLE Ticker (
  symbol STRING,
  rowtime TIMESTAMP(3),
  price INT,
  tax INT,
  WATERMARK FOR rowtime AS rowtime - INTERVAL '1' SECOND
) WITH (
  'connector' = 'filesystem',
  'path' = '${TESTDATA}/match_ticker.csv',
  'format' = 'csv'
);
[INFO] Execute statement succeeded.
!info

# The V shape of Flink's docs, per symbol. Note that LAST(PRICE_DOWN.price, 1)
# in PRICE_UP's condition is the second last PRICE_DOWN row: the row being
# matched is not one of PRICE_DOWN's.
#
#   ACME 12 17 19 21 25 18 15 14 24 25 19: START_ROW 25 (10:00:04), PRICE_DOWN
#        18 15 14, PRICE_UP 24 > 15 (10:00:08). The match that starts at 18
#        completes on the same row and is pruned (it starts before the last
#        PRICE_UP).
#   BETA 30 28 26 27 25 24 29: 30 28 26 then 27 > 28 fails; START_ROW 27
#        (10:00:03), PRICE_DOWN 25 24, PRICE_UP 29 > 25 (10:00:06).
SELECT *
FROM Ticker
    MATCH_RECOGNIZE (
        PARTITION BY symbol
        ORDER BY rowtime
        MEASURES
            START_ROW.rowtime AS start_tstamp,
            LAST(PRICE_DOWN.rowtime) AS bottom_tstamp,
            LAST(PRICE_UP.rowtime) AS end_tstamp
        ONE ROW PER MATCH
        AFTER MATCH SKIP TO LAST PRICE_UP
        PATTERN (START_ROW PRICE_DOWN+ PRICE_UP)
        DEFINE
            PRICE_DOWN AS
                (LAST(PRICE_DOWN.price, 1) IS NULL AND PRICE_DOWN.price < START_ROW.price) OR
                    PRICE_DOWN.price < LAST(PRICE_DOWN.price, 1),
            PRICE_UP AS
                PRICE_UP.price > LAST(PRICE_DOWN.price, 1)
    ) MR;
+----+--------------------------------+-------------------------+-------------------------+-------------------------+
| op |                         symbol |            start_tstamp |           bottom_tstamp |              end_tstamp |
+----+--------------------------------+-------------------------+-------------------------+-------------------------+
| +I |                           BETA | 2011-04-01 10:00:03.000 | 2011-04-01 10:00:05.000 | 2011-04-01 10:00:06.000 |
| +I |                           ACME | 2011-04-01 10:00:04.000 | 2011-04-01 10:00:07.000 | 2011-04-01 10:00:08.000 |
+----+--------------------------------+-------------------------+-------------------------+-------------------------+
Received a total of 2 rows
!unordered

# The output columns: the partition columns, then the measures.
# MATCH_ROWTIME() is a rowtime attribute, other time columns are not.
# riffle-only: Riffle extension: CLASSIFIER() (Flink: not supported yet)
CREATE VIEW rises AS SELECT * FROM Ticker MATCH_RECOGNIZE (PARTITION BY symbol ORDER BY rowtime
  MEASURES A.price AS p, A.rowtime AS a_time, MATCH_ROWTIME() AS mt, CLASSIFIER() AS cls PATTERN (A B) DEFINE B AS B.price > A.price);
[INFO] Execute statement succeeded.
!info

# riffle-only: Riffle extension: the view uses CLASSIFIER() (Flink: not supported yet)
DESCRIBE rises;
+--------+------------------------+-------+-----+--------+-----------+
|   name |                   type |  null | key | extras | watermark |
+--------+------------------------+-------+-----+--------+-----------+
| symbol |                 STRING |  TRUE |     |        |           |
|      p |                    INT |  TRUE |     |        |           |
| a_time |           TIMESTAMP(3) |  TRUE |     |        |           |
|     mt | TIMESTAMP(3) *ROWTIME* | FALSE |     |        |           |
|    cls |                 STRING | FALSE |     |        |           |
+--------+------------------------+-------+-----+--------+-----------+
5 rows in set
!ok

# MATCH_ROWTIME() feeds a window downstream: rises per 5 seconds.
# riffle-only: Riffle extension: the view uses CLASSIFIER() (Flink: not supported yet)
SELECT symbol, window_start, COUNT(*) AS n
FROM TABLE(TUMBLE(TABLE rises, DESCRIPTOR(mt), INTERVAL '5' SECOND))
GROUP BY symbol, window_start, window_end;
+----+--------------------------------+-------------------------+----------------------+
| op |                         symbol |            window_start |                    n |
+----+--------------------------------+-------------------------+----------------------+
| +I |                           ACME | 2011-04-01 10:00:00.000 |                    4 |
| +I |                           BETA | 2011-04-01 10:00:00.000 |                    1 |
| +I |                           BETA | 2011-04-01 10:00:05.000 |                    1 |
| +I |                           ACME | 2011-04-01 10:00:05.000 |                    2 |
+----+--------------------------------+-------------------------+----------------------+
Received a total of 4 rows
!unordered

# riffle-only: EXPLAIN text: Riffle renders the Match node's measures and conditions in its own notation
EXPLAIN PLAN FOR SELECT * FROM Ticker MATCH_RECOGNIZE (
  PARTITION BY symbol ORDER BY rowtime
  MEASURES FIRST(A.price) AS first_price, SUM(A.price) AS total
  AFTER MATCH SKIP PAST LAST ROW
  PATTERN (A+? B{2}) WITHIN INTERVAL '10' SECOND
  DEFINE A AS A.price > PREV(A.price), B AS B.price < LAST(A.price));
== Abstract Syntax Tree ==
LogicalProject(symbol=[$0], first_price=[$1], total=[$2])
+- LogicalMatch(partitionBy=[symbol], orderBy=[rowtime ASC], measures=[FINAL(FIRST(A.price, 0)) AS first_price, FINAL(SUM(A.price)) AS total], rowsPerMatch=[ONE ROW PER MATCH], after=[SKIP PAST LAST ROW], pattern=[(PATTERN_QUANTIFIER(_UTF-16LE'A', 1, -1, true), PATTERN_QUANTIFIER(_UTF-16LE'B', 2, 2, false))], within=[10000 ms], define=[{A=>(LAST(A.price, 0), PREV(A.price, 1)), B=<(LAST(B.price, 0), LAST(A.price, 0))}])
   +- LogicalWatermarkAssigner(rowtime=[rowtime], watermark=[-($1, 1000:INTERVAL SECOND)])
      +- LogicalProject(symbol=[$0], rowtime=[$1], price=[$2], tax=[$3])
         +- LogicalTableScan(table=[[default_catalog, default_database, Ticker]])

== Optimized Physical Plan ==
Match(partitionBy=[symbol], orderBy=[rowtime ASC], measures=[FINAL(FIRST(A.price, 0)) AS first_price, FINAL(SUM(A.price)) AS total], rowsPerMatch=[ONE ROW PER MATCH], after=[SKIP PAST LAST ROW], pattern=[(PATTERN_QUANTIFIER(_UTF-16LE'A', 1, -1, true), PATTERN_QUANTIFIER(_UTF-16LE'B', 2, 2, false))], within=[10000 ms], define=[{A=>(LAST(A.price, 0), PREV(A.price, 1)), B=<(LAST(B.price, 0), LAST(A.price, 0))}])
+- Exchange(distribution=[hash[symbol]])
   +- WatermarkAssigner(rowtime=[rowtime], watermark=[-(rowtime, 1000:INTERVAL SECOND)])
      +- TableSourceScan(table=[[default_catalog, default_database, Ticker]], fields=[symbol, rowtime, price, tax])

== Optimized Execution Plan ==
Match(partitionBy=[symbol], orderBy=[rowtime ASC], measures=[FINAL(FIRST(A.price, 0)) AS first_price, FINAL(SUM(A.price)) AS total], rowsPerMatch=[ONE ROW PER MATCH], after=[SKIP PAST LAST ROW], pattern=[(PATTERN_QUANTIFIER(_UTF-16LE'A', 1, -1, true), PATTERN_QUANTIFIER(_UTF-16LE'B', 2, 2, false))], within=[10000 ms], define=[{A=>(LAST(A.price, 0), PREV(A.price, 1)), B=<(LAST(B.price, 0), LAST(A.price, 0))}])
+- Exchange(distribution=[hash[symbol]])
   +- WatermarkAssigner(rowtime=[rowtime], watermark=[(rowtime - 1000:INTERVAL SECOND)])
      +- TableSourceScan(table=[[default_catalog, default_database, Ticker]], fields=[symbol, rowtime, price, tax])
!ok

CREATE TABLE Avgs (
  symbol STRING,
  rowtime TIMESTAMP(3),
  price INT,
  WATERMARK FOR rowtime AS rowtime - INTERVAL '1' SECOND
) WITH (
  'connector' = 'filesystem',
  'path' = '${TESTDATA}/match_avg.csv',
  'format' = 'csv'
);
[INFO] Execute statement succeeded.
!info

# Aggregates in DEFINE and MEASURES (the docs' AVG example). AVG of an INT
# is an INT, as in Flink: the rows 12 17 13 16 average 14 (14.5 in
# DOUBLE), 25 lifts the average to 16 and is B; 2 4 10 15 25 25 average 13,
# 30 is B.
SELECT *
FROM Avgs
    MATCH_RECOGNIZE (
        PARTITION BY symbol
        ORDER BY rowtime
        MEASURES
            FIRST(A.rowtime) AS start_tstamp,
            LAST(A.rowtime) AS end_tstamp,
            AVG(A.price) AS avgPrice,
            AVG(CAST(A.price AS DOUBLE)) AS avgDouble,
            COUNT(A.price) AS n,
            MIN(A.price) AS lo,
            MAX(A.price) AS hi
        ONE ROW PER MATCH
        AFTER MATCH SKIP PAST LAST ROW
        PATTERN (A+ B)
        DEFINE
            A AS AVG(A.price) < 15
    ) MR;
+----+--------------------------------+-------------------------+-------------------------+-------------+--------------------------------+----------------------+-------------+-------------+
| op |                         symbol |            start_tstamp |              end_tstamp |    avgPrice |                      avgDouble |                    n |          lo |          hi |
+----+--------------------------------+-------------------------+-------------------------+-------------+--------------------------------+----------------------+-------------+-------------+
| +I |                           ACME | 2011-04-01 10:00:00.000 | 2011-04-01 10:00:03.000 |          14 |                           14.5 |                    4 |          12 |          17 |
| +I |                           ACME | 2011-04-01 10:00:05.000 | 2011-04-01 10:00:10.000 |          13 |                           13.5 |                    6 |           2 |          25 |
+----+--------------------------------+-------------------------+-------------------------+-------------+--------------------------------+----------------------+-------------+-------------+
Received a total of 2 rows
!ok

CREATE TABLE Xyz (
  symbol STRING,
  rowtime TIMESTAMP(3),
  price INT,
  WATERMARK FOR rowtime AS rowtime - INTERVAL '1' SECOND
) WITH (
  'connector' = 'filesystem',
  'path' = '${TESTDATA}/match_greedy.csv',
  'format' = 'csv'
);
[INFO] Execute statement succeeded.
!info

# Greedy B*: prices 10 11 12 13 14 16; A is 11, B takes 12 13 14 (13 and
# 14 satisfy C too, but a greedy B that can take a row keeps it), C is 16.
SELECT *
FROM Xyz
    MATCH_RECOGNIZE (
        PARTITION BY symbol
        ORDER BY rowtime
        MEASURES
            C.price AS lastPrice
        ONE ROW PER MATCH
        AFTER MATCH SKIP PAST LAST ROW
        PATTERN (A B* C)
        DEFINE
            A AS A.price > 10,
            B AS B.price < 15,
            C AS C.price > 12
    );
+----+--------------------------------+-------------+
| op |                         symbol |   lastPrice |
+----+--------------------------------+-------------+
| +I |                            XYZ |          16 |
+----+--------------------------------+-------------+
Received a total of 1 row
!ok

# Reluctant B*?: C takes 13 as soon as it can (A 11, B 12); then A 14, C 16.
SELECT *
FROM Xyz
    MATCH_RECOGNIZE (
        PARTITION BY symbol
        ORDER BY rowtime
        MEASURES
            C.price AS lastPrice
        ONE ROW PER MATCH
        AFTER MATCH SKIP PAST LAST ROW
        PATTERN (A B*? C)
        DEFINE
            A AS A.price > 10,
            B AS B.price < 15,
            C AS C.price > 12
    );
+----+--------------------------------+-------------+
| op |                         symbol |   lastPrice |
+----+--------------------------------+-------------+
| +I |                            XYZ |          13 |
| +I |                            XYZ |          16 |
+----+--------------------------------+-------------+
Received a total of 2 rows
!ok

# A reluctant last variable: B+? ends at its first row.
SELECT *
FROM Xyz
    MATCH_RECOGNIZE (
        ORDER BY rowtime
        MEASURES
            A.price AS a, COUNT(B.price) AS nb, LAST(B.price) AS lastB
        AFTER MATCH SKIP PAST LAST ROW
        PATTERN (A B+?)
        DEFINE
            B AS B.price > A.price
    );
+----+-------------+----------------------+-------------+
| op |           a |                   nb |       lastB |
+----+-------------+----------------------+-------------+
| +I |          10 |                    1 |          11 |
| +I |          12 |                    1 |          13 |
| +I |          14 |                    1 |          16 |
+----+-------------+----------------------+-------------+
Received a total of 3 rows
!ok

CREATE TABLE Skips (
  symbol STRING,
  rowtime TIMESTAMP(3),
  price INT,
  WATERMARK FOR rowtime AS rowtime - INTERVAL '1' SECOND
) WITH (
  'connector' = 'filesystem',
  'path' = '${TESTDATA}/match_skip.csv',
  'format' = 'csv'
);
[INFO] Execute statement succeeded.
!info

# AFTER MATCH SKIP (the docs' example). Prices 7 9 10 5 10 7 14:
# A+ takes rows while SUM(A.price) < 30, C (no condition) the next row.
# PAST LAST ROW: rows 1-4 (A 7 9 10 = 26), then rows 5-7 (A 10 7 = 17).
SELECT *
FROM Skips
    MATCH_RECOGNIZE (
        PARTITION BY symbol
        ORDER BY rowtime
        MEASURES
            SUM(A.price) AS sumPrice,
            FIRST(rowtime) AS startTime,
            LAST(rowtime) AS endTime
        ONE ROW PER MATCH
        AFTER MATCH SKIP PAST LAST ROW
        PATTERN (A+ C)
        DEFINE
            A AS SUM(A.price) < 30
    );
+----+--------------------------------+-------------+-------------------------+-------------------------+
| op |                         symbol |    sumPrice |               startTime |                 endTime |
+----+--------------------------------+-------------+-------------------------+-------------------------+
| +I |                            XYZ |          26 | 2018-09-17 10:00:01.000 | 2018-09-17 10:00:04.000 |
| +I |                            XYZ |          17 | 2018-09-17 10:00:05.000 | 2018-09-17 10:00:07.000 |
+----+--------------------------------+-------------+-------------------------+-------------------------+
Received a total of 2 rows
!ok

# TO NEXT ROW: a match may start at every row after the previous match's
# first: rows 1-4, 2-5, 3-6, 4-7, 5-7.
SELECT *
FROM Skips
    MATCH_RECOGNIZE (
        PARTITION BY symbol
        ORDER BY rowtime
        MEASURES
            SUM(A.price) AS sumPrice,
            FIRST(rowtime) AS startTime,
            LAST(rowtime) AS endTime
        ONE ROW PER MATCH
        AFTER MATCH SKIP TO NEXT ROW
        PATTERN (A+ C)
        DEFINE
            A AS SUM(A.price) < 30
    );
+----+--------------------------------+-------------+-------------------------+-------------------------+
| op |                         symbol |    sumPrice |               startTime |                 endTime |
+----+--------------------------------+-------------+-------------------------+-------------------------+
| +I |                            XYZ |          26 | 2018-09-17 10:00:01.000 | 2018-09-17 10:00:04.000 |
| +I |                            XYZ |          24 | 2018-09-17 10:00:02.000 | 2018-09-17 10:00:05.000 |
| +I |                            XYZ |          25 | 2018-09-17 10:00:03.000 | 2018-09-17 10:00:06.000 |
| +I |                            XYZ |          22 | 2018-09-17 10:00:04.000 | 2018-09-17 10:00:07.000 |
| +I |                            XYZ |          17 | 2018-09-17 10:00:05.000 | 2018-09-17 10:00:07.000 |
+----+--------------------------------+-------------+-------------------------+-------------------------+
Received a total of 5 rows
!ok

# Without AFTER MATCH the strategy is TO NEXT ROW (Calcite's default).
SELECT *
FROM Skips
    MATCH_RECOGNIZE (
        PARTITION BY symbol
        ORDER BY rowtime
        MEASURES
            SUM(A.price) AS sumPrice
        PATTERN (A+ C)
        DEFINE
            A AS SUM(A.price) < 30
    );
+----+--------------------------------+-------------+
| op |                         symbol |    sumPrice |
+----+--------------------------------+-------------+
| +I |                            XYZ |          26 |
| +I |                            XYZ |          24 |
| +I |                            XYZ |          25 |
| +I |                            XYZ |          22 |
| +I |                            XYZ |          17 |
+----+--------------------------------+-------------+
Received a total of 5 rows
!ok

# TO LAST A: the next match starts at the last A row: rows 1-4, 3-6, 5-7.
SELECT *
FROM Skips
    MATCH_RECOGNIZE (
        PARTITION BY symbol
        ORDER BY rowtime
        MEASURES
            SUM(A.price) AS sumPrice,
            FIRST(rowtime) AS startTime,
            LAST(rowtime) AS endTime
        ONE ROW PER MATCH
        AFTER MATCH SKIP TO LAST A
        PATTERN (A+ C)
        DEFINE
            A AS SUM(A.price) < 30
    );
+----+--------------------------------+-------------+-------------------------+-------------------------+
| op |                         symbol |    sumPrice |               startTime |                 endTime |
+----+--------------------------------+-------------+-------------------------+-------------------------+
| +I |                            XYZ |          26 | 2018-09-17 10:00:01.000 | 2018-09-17 10:00:04.000 |
| +I |                            XYZ |          25 | 2018-09-17 10:00:03.000 | 2018-09-17 10:00:06.000 |
| +I |                            XYZ |          17 | 2018-09-17 10:00:05.000 | 2018-09-17 10:00:07.000 |
+----+--------------------------------+-------------+-------------------------+-------------------------+
Received a total of 3 rows
!ok

# TO FIRST C: the next match starts at the C row: rows 1-4, 4-7.
SELECT *
FROM Skips
    MATCH_RECOGNIZE (
        PARTITION BY symbol
        ORDER BY rowtime
        MEASURES
            SUM(A.price) AS sumPrice,
            FIRST(rowtime) AS startTime,
            LAST(rowtime) AS endTime
        ONE ROW PER MATCH
        AFTER MATCH SKIP TO FIRST C
        PATTERN (A+ C)
        DEFINE
            A AS SUM(A.price) < 30
    );
+----+--------------------------------+-------------+-------------------------+-------------------------+
| op |                         symbol |    sumPrice |               startTime |                 endTime |
+----+--------------------------------+-------------+-------------------------+-------------------------+
| +I |                            XYZ |          26 | 2018-09-17 10:00:01.000 | 2018-09-17 10:00:04.000 |
| +I |                            XYZ |          22 | 2018-09-17 10:00:04.000 | 2018-09-17 10:00:07.000 |
+----+--------------------------------+-------------+-------------------------+-------------------------+
Received a total of 2 rows
!ok

# TO FIRST A would start the next match where this one started: Flink
# fails the job.
SELECT *
FROM Skips
    MATCH_RECOGNIZE (
        PARTITION BY symbol
        ORDER BY rowtime
        MEASURES
            SUM(A.price) AS sumPrice
        ONE ROW PER MATCH
        AFTER MATCH SKIP TO FIRST A
        PATTERN (A+ C)
        DEFINE
            A AS SUM(A.price) < 30
    );
[ERROR] Could not execute SQL statement. Reason:
Could not skip to first element of a match.
!error

# PREV in DEFINE: two rises in a row (7 9 10); 5 10 7 and 7 14 do not.
# riffle-only: Riffle extension: PREV in DEFINE (Flink's docs list physical offsets as unsupported)
SELECT *
FROM Skips
    MATCH_RECOGNIZE (
        ORDER BY rowtime
        MEASURES
            FIRST(A.price) AS low, LAST(B.price) AS high, LAST(B.price, 1) AS middle, FIRST(B.price, 5) AS nothing
        AFTER MATCH SKIP PAST LAST ROW
        PATTERN (A B{2})
        DEFINE
            B AS B.price > PREV(B.price)
    );
+----+-------------+-------------+-------------+-------------+
| op |         low |        high |      middle |     nothing |
+----+-------------+-------------+-------------+-------------+
| +I |           7 |          10 |           9 |      <NULL> |
+----+-------------+-------------+-------------+-------------+
Received a total of 1 row
!ok

CREATE TABLE Drops (
  symbol STRING,
  rowtime TIMESTAMP(3),
  price INT,
  WATERMARK FOR rowtime AS rowtime - INTERVAL '1' SECOND
) WITH (
  'connector' = 'filesystem',
  'path' = '${TESTDATA}/match_within.csv',
  'format' = 'csv'
);
[INFO] Execute statement succeeded.
!info

# A drop of more than 10 (the docs' WITHIN example) without a time bound:
# 20 (10:00) to 9 (11:40), then 15 (12:00) to 1 (13:00).
SELECT *
FROM Drops
    MATCH_RECOGNIZE(
        PARTITION BY symbol
        ORDER BY rowtime
        MEASURES
            C.rowtime AS dropTime,
            A.price - C.price AS dropDiff
        ONE ROW PER MATCH
        AFTER MATCH SKIP PAST LAST ROW
        PATTERN (A B* C)
        DEFINE
            B AS B.price > A.price - 10,
            C AS C.price < A.price - 10
    );
+----+--------------------------------+-------------------------+-------------+
| op |                         symbol |                dropTime |    dropDiff |
+----+--------------------------------+-------------------------+-------------+
| +I |                           ACME | 2011-04-01 11:40:00.000 |          11 |
| +I |                           ACME | 2011-04-01 13:00:00.000 |          14 |
+----+--------------------------------+-------------------------+-------------+
Received a total of 2 rows
!ok

# WITHIN INTERVAL '1' HOUR: a partial match is dropped when a row comes
# an hour or more after its first row (Flink's NFA: timestamp - start >=
# window), so 15 (12:00) to 1 (13:00) is too late as well; 14 (12:20) to
# 1 (13:00) is a drop of 13 within 40 minutes. (Flink's docs print 14 for
# this example; Flink 2.3.0 itself answers 13, as here.)
SELECT *
FROM Drops
    MATCH_RECOGNIZE(
        PARTITION BY symbol
        ORDER BY rowtime
        MEASURES
            C.rowtime AS dropTime,
            A.price - C.price AS dropDiff
        ONE ROW PER MATCH
        AFTER MATCH SKIP PAST LAST ROW
        PATTERN (A B* C) WITHIN INTERVAL '1' HOUR
        DEFINE
            B AS B.price > A.price - 10,
            C AS C.price < A.price - 10
    );
+----+--------------------------------+-------------------------+-------------+
| op |                         symbol |                dropTime |    dropDiff |
+----+--------------------------------+-------------------------+-------------+
| +I |                           ACME | 2011-04-01 13:00:00.000 |          13 |
+----+--------------------------------+-------------------------+-------------+
Received a total of 1 row
!ok

CREATE TABLE Events (
  id INT,
  name STRING,
  ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH (
  'connector' = 'filesystem',
  'path' = '${TESTDATA}/match_events.csv',
  'format' = 'csv'
);
[INFO] Execute statement succeeded.
!info

# Quantifiers over the names a b b b c a b c a c (ids 1 to 10).
# {2,}: a, three b, c.
# riffle-only: Riffle extension: CLASSIFIER() (Flink: not supported yet)
SELECT * FROM Events MATCH_RECOGNIZE (ORDER BY ts
  MEASURES FIRST(A.id) AS a_id, COUNT(B.id) AS nb, C.id AS c_id, CLASSIFIER() AS cls, MATCH_ROWTIME() AS mt
  PATTERN (A B{2,} C)
  DEFINE A AS name = 'a', B AS name = 'b', C AS name = 'c');
+----+-------------+----------------------+-------------+--------------------------------+-------------------------+
| op |        a_id |                   nb |        c_id |                            cls |                      mt |
+----+-------------+----------------------+-------------+--------------------------------+-------------------------+
| +I |           1 |                    3 |           5 |                              C | 2024-01-01 00:00:05.000 |
+----+-------------+----------------------+-------------+--------------------------------+-------------------------+
Received a total of 1 row
!ok

# {1,2}: three b are too many for the first a; 6 7 8.
SELECT * FROM Events MATCH_RECOGNIZE (ORDER BY ts
  MEASURES FIRST(A.id) AS a_id, COUNT(B.id) AS nb, C.id AS c_id
  PATTERN (A B{1,2} C)
  DEFINE A AS name = 'a', B AS name = 'b', C AS name = 'c');
+----+-------------+----------------------+-------------+
| op |        a_id |                   nb |        c_id |
+----+-------------+----------------------+-------------+
| +I |           6 |                    1 |           8 |
+----+-------------+----------------------+-------------+
Received a total of 1 row
!ok

# {,2}: no b at all is fine too: 6 7 8 and 9 10.
# riffle-only: Flink bug: Flink 2.3.0 fails {,m} at run time (The from should be a positive number greater than 0) though its docs list the quantifier
SELECT * FROM Events MATCH_RECOGNIZE (ORDER BY ts
  MEASURES FIRST(A.id) AS a_id, COUNT(B.id) AS nb, C.id AS c_id
  PATTERN (A B{,2} C)
  DEFINE A AS name = 'a', B AS name = 'b', C AS name = 'c');
+----+-------------+----------------------+-------------+
| op |        a_id |                   nb |        c_id |
+----+-------------+----------------------+-------------+
| +I |           6 |                    1 |           8 |
| +I |           9 |                    0 |          10 |
+----+-------------+----------------------+-------------+
Received a total of 2 rows
!ok

# {3}: exactly three b, then c.
SELECT * FROM Events MATCH_RECOGNIZE (ORDER BY ts
  MEASURES FIRST(B.id) AS b_id, C.id AS c_id
  PATTERN (B{3} C)
  DEFINE B AS name = 'b', C AS name = 'c');
+----+-------------+-------------+
| op |        b_id |        c_id |
+----+-------------+-------------+
| +I |           2 |           5 |
+----+-------------+-------------+
Received a total of 1 row
!ok

# ?: an optional b: 6 7 8 and 9 (no b) 10.
SELECT * FROM Events MATCH_RECOGNIZE (ORDER BY ts
  MEASURES A.id AS a_id, B.id AS b_id, C.id AS c_id
  PATTERN (A B? C)
  DEFINE A AS name = 'a', B AS name = 'b', C AS name = 'c');
+----+-------------+-------------+-------------+
| op |        a_id |        b_id |        c_id |
+----+-------------+-------------+-------------+
| +I |           6 |           7 |           8 |
| +I |           9 |      <NULL> |          10 |
+----+-------------+-------------+-------------+
Received a total of 2 rows
!ok

# Greedy {n,m} and ? when A's condition also accepts B's rows, as Flink
# 2.3.0 answers: a greedy loop never hands B a row A accepts, not even once
# it is full (A{1,3} B with A always true matches nothing), and ? is not
# greedy: both ways are tried and the match that completes first wins, so A
# stays empty here.
SELECT * FROM Ticker MATCH_RECOGNIZE (PARTITION BY symbol ORDER BY rowtime
  MEASURES FIRST(A.price) AS fa, COUNT(A.price) AS ca, B.price AS bp
  AFTER MATCH SKIP TO NEXT ROW
  PATTERN (A{1,3} B) DEFINE A AS A.price > 0, B AS B.price > 20);
+----+--------------------------------+-------------+----------------------+-------------+
| op |                         symbol |          fa |                   ca |          bp |
+----+--------------------------------+-------------+----------------------+-------------+
+----+--------------------------------+-------------+----------------------+-------------+
Received a total of 0 row
!ok

SELECT * FROM Ticker MATCH_RECOGNIZE (PARTITION BY symbol ORDER BY rowtime
  MEASURES FIRST(A.price) AS fa, COUNT(A.price) AS ca, B.price AS bp
  AFTER MATCH SKIP PAST LAST ROW
  PATTERN (A{0,2} B) DEFINE A AS A.price > 0, B AS B.price > 0);
+----+--------------------------------+-------------+----------------------+-------------+
| op |                         symbol |          fa |                   ca |          bp |
+----+--------------------------------+-------------+----------------------+-------------+
+----+--------------------------------+-------------+----------------------+-------------+
Received a total of 0 row
!ok

SELECT * FROM Ticker MATCH_RECOGNIZE (PARTITION BY symbol ORDER BY rowtime
  MEASURES FIRST(A.price) AS fa, COUNT(A.price) AS ca, B.price AS bp
  AFTER MATCH SKIP PAST LAST ROW
  PATTERN (A? B) DEFINE A AS A.price > 0, B AS B.price > 0);
+----+--------------------------------+-------------+----------------------+-------------+
| op |                         symbol |          fa |                   ca |          bp |
+----+--------------------------------+-------------+----------------------+-------------+
| +I |                           ACME |      <NULL> |                    0 |          12 |
| +I |                           BETA |      <NULL> |                    0 |          30 |
| +I |                           ACME |      <NULL> |                    0 |          17 |
| +I |                           BETA |      <NULL> |                    0 |          28 |
| +I |                           ACME |      <NULL> |                    0 |          19 |
| +I |                           BETA |      <NULL> |                    0 |          26 |
| +I |                           ACME |      <NULL> |                    0 |          21 |
| +I |                           BETA |      <NULL> |                    0 |          27 |
| +I |                           ACME |      <NULL> |                    0 |          25 |
| +I |                           BETA |      <NULL> |                    0 |          25 |
| +I |                           ACME |      <NULL> |                    0 |          18 |
| +I |                           BETA |      <NULL> |                    0 |          24 |
| +I |                           ACME |      <NULL> |                    0 |          15 |
| +I |                           BETA |      <NULL> |                    0 |          29 |
| +I |                           ACME |      <NULL> |                    0 |          14 |
| +I |                           ACME |      <NULL> |                    0 |          24 |
| +I |                           ACME |      <NULL> |                    0 |          25 |
| +I |                           ACME |      <NULL> |                    0 |          19 |
+----+--------------------------------+-------------+----------------------+-------------+
Received a total of 18 rows
!unordered

SELECT * FROM Ticker MATCH_RECOGNIZE (PARTITION BY symbol ORDER BY rowtime
  MEASURES FIRST(A.price) AS fa, COUNT(A.price) AS ca, B.price AS bp, C.price AS cp
  AFTER MATCH SKIP PAST LAST ROW
  PATTERN (C A? B) DEFINE A AS A.price > 15, B AS B.price > 20);
+----+--------------------------------+-------------+----------------------+-------------+-------------+
| op |                         symbol |          fa |                   ca |          bp |          cp |
+----+--------------------------------+-------------+----------------------+-------------+-------------+
| +I |                           BETA |      <NULL> |                    0 |          28 |          30 |
| +I |                           ACME |          19 |                    1 |          21 |          17 |
| +I |                           BETA |      <NULL> |                    0 |          27 |          26 |
| +I |                           BETA |      <NULL> |                    0 |          24 |          25 |
| +I |                           ACME |      <NULL> |                    0 |          24 |          14 |
+----+--------------------------------+-------------+----------------------+-------------+-------------+
Received a total of 5 rows
!unordered

# Errors, as Flink reports them (Riffle adds the position, Flink's planner
# does not).
SELECT * FROM Ticker MATCH_RECOGNIZE (ORDER BY price MEASURES A.price AS p PATTERN (A) DEFINE A AS TRUE);
[ERROR] Could not execute SQL statement. Reason:
You must specify either rowtime or proctime for order by as the first one.
!error

SELECT * FROM Ticker MATCH_RECOGNIZE (ORDER BY rowtime DESC MEASURES A.price AS p PATTERN (A) DEFINE A AS TRUE);
[ERROR] Could not execute SQL statement. Reason:
Primary sort order of a streaming table must be ascending on time.
!error

SELECT * FROM Ticker MATCH_RECOGNIZE (ORDER BY rowtime MEASURES A.price AS p PATTERN (A B*) DEFINE A AS TRUE);
[ERROR] Could not execute SQL statement. Reason:
Greedy quantifiers are not allowed as the last element of a Pattern yet. Finish your pattern with either a simple variable or reluctant quantifier.
!error

# riffle-only: error wording differs (Riffle's own message for what Flink also rejects)
SELECT * FROM Ticker MATCH_RECOGNIZE (ORDER BY rowtime MEASURES A.price AS p PATTERN (A B?? C) DEFINE A AS TRUE);
[ERROR] Could not execute SQL statement. Reason:
From line 1, column 89 to line 1, column 91: Reluctant optional variables are not supported yet (B??)
!error

# riffle-only: error wording differs (Riffle's own message for what Flink also rejects)
SELECT * FROM Ticker MATCH_RECOGNIZE (ORDER BY rowtime MEASURES A.price AS p PATTERN (A*? B*?) DEFINE A AS TRUE);
[ERROR] Could not execute SQL statement. Reason:
From line 1, column 87 to line 1, column 89: A pattern must match at least one row: every variable of PATTERN is optional
!error

# riffle-only: error wording differs (Riffle's own message for what Flink also rejects)
SELECT * FROM Ticker MATCH_RECOGNIZE (ORDER BY rowtime MEASURES A.price AS p PATTERN (A B) DEFINE X AS TRUE);
[ERROR] Could not execute SQL statement. Reason:
At line 1, column 99: Pattern variable 'X' in DEFINE is not used in PATTERN
!error

# riffle-only: error wording differs (Riffle's own message for what Flink also rejects)
SELECT * FROM Ticker MATCH_RECOGNIZE (ORDER BY rowtime MEASURES X.price AS p PATTERN (A B) DEFINE A AS TRUE);
[ERROR] Could not execute SQL statement. Reason:
From line 1, column 65 to line 1, column 71: Unknown pattern variable 'X' in X.price
!error

# riffle-only: error wording differs (Riffle's own message for what Flink also rejects)
SELECT * FROM Ticker MATCH_RECOGNIZE (ORDER BY rowtime MEASURES LAST(A.price - B.price) AS p PATTERN (A B) DEFINE A AS TRUE);
[ERROR] Could not execute SQL statement. Reason:
From line 1, column 65 to line 1, column 87: All column references in LAST(`A`.`price` - `B`.`price`) must refer to the same pattern variable
!error

# riffle-only: error wording differs (Riffle's own message for what Flink also rejects)
SELECT * FROM Ticker MATCH_RECOGNIZE (ORDER BY rowtime MEASURES A.price AS p PATTERN (A B) DEFINE B AS B.price > NEXT(A.price));
[ERROR] Could not execute SQL statement. Reason:
From line 1, column 114 to line 1, column 126: NEXT is not supported in MATCH_RECOGNIZE: a condition cannot read rows that have not arrived
!error

# riffle-only: error wording differs (Riffle's own message for what Flink also rejects)
SELECT * FROM Ticker MATCH_RECOGNIZE (ORDER BY rowtime MEASURES COUNT(DISTINCT A.price) AS p PATTERN (A B) DEFINE A AS TRUE);
[ERROR] Could not execute SQL statement. Reason:
From line 1, column 65 to line 1, column 87: Distinct aggregations are not supported in MATCH_RECOGNIZE
!error

# riffle-only: error wording differs (Riffle's own message for what Flink also rejects)
SELECT * FROM Ticker MATCH_RECOGNIZE (ORDER BY rowtime MEASURES A.price AS p ALL ROWS PER MATCH PATTERN (A B) DEFINE A AS TRUE);
[ERROR] Could not execute SQL statement. Reason:
From line 1, column 15 to line 1, column 127: ALL ROWS PER MATCH is not supported yet; only ONE ROW PER MATCH is
!error

# riffle-only: error wording differs (Riffle rejects alternation when parsing, Flink when planning)
SELECT * FROM Ticker MATCH_RECOGNIZE (ORDER BY rowtime MEASURES A.price AS p PATTERN (A | B) DEFINE A AS TRUE);
[ERROR] Could not execute SQL statement. Reason:
Alternation in PATTERN ('|') is not supported at line 1, column 89.
!error

# riffle-only: error wording differs (Riffle's own message for what Flink also rejects)
SELECT * FROM Ticker MATCH_RECOGNIZE (ORDER BY rowtime MEASURES A.price AS p AFTER MATCH SKIP TO LAST Z PATTERN (A B) DEFINE A AS TRUE);
[ERROR] Could not execute SQL statement. Reason:
At line 1, column 103: Unknown pattern variable 'Z' in AFTER MATCH SKIP
!error

# Batch mode: the bounded input is matched as a whole, in time order.
SET 'execution.runtime-mode' = 'batch';
[INFO] Execute statement succeeded.
!info

SELECT *
FROM Ticker
    MATCH_RECOGNIZE (
        PARTITION BY symbol
        ORDER BY rowtime
        MEASURES
            START_ROW.rowtime AS start_tstamp,
            LAST(PRICE_DOWN.rowtime) AS bottom_tstamp,
            LAST(PRICE_UP.rowtime) AS end_tstamp
        ONE ROW PER MATCH
        AFTER MATCH SKIP TO LAST PRICE_UP
        PATTERN (START_ROW PRICE_DOWN+ PRICE_UP)
        DEFINE
            PRICE_DOWN AS
                (LAST(PRICE_DOWN.price, 1) IS NULL AND PRICE_DOWN.price < START_ROW.price) OR
                    PRICE_DOWN.price < LAST(PRICE_DOWN.price, 1),
            PRICE_UP AS
                PRICE_UP.price > LAST(PRICE_DOWN.price, 1)
    ) MR;
+--------+-------------------------+-------------------------+-------------------------+
| symbol |            start_tstamp |           bottom_tstamp |              end_tstamp |
+--------+-------------------------+-------------------------+-------------------------+
|   ACME | 2011-04-01 10:00:04.000 | 2011-04-01 10:00:07.000 | 2011-04-01 10:00:08.000 |
|   BETA | 2011-04-01 10:00:03.000 | 2011-04-01 10:00:05.000 | 2011-04-01 10:00:06.000 |
+--------+-------------------------+-------------------------+-------------------------+
2 rows in set
!unordered

