# topn_changelog.q - the changelog of streaming Top-N queries (Flink's
# docs/dev/table/sql/queries/topn.md), as Flink 2.3.0 emits it. Flink's
# planner picks a RankProcessStrategy (AppendFastStrategy over insert-only
# input, RetractStrategy over updating input) and the Top-N function:
#  - Top-1 (rank range [1, 1]) over insert-only input: FastTop1Function,
#    whose partition key is the unique key of its output: -U/+U when the
#    top row of a key changes, with or without the rank number;
#  - a range with an offset, or the rank number selected: ranks that
#    change get -U of the old row and +U of the new one;
#  - otherwise (Top-N from rank 1 without the number, or any range over
#    updating input without the number): -D of the row leaving, +I of the
#    row entering.
# ORDER BY ... LIMIT in streaming mode is the same Top-N without partition
# keys (SortLimit).

SET 'parallelism.default' = '1';
[INFO] Execute statement succeeded.
!info

CREATE TEMPORARY VIEW t AS SELECT * FROM (VALUES
  ('a', 1), ('b', 5), ('a', 3), ('a', 2), ('b', 7), ('a', 9), ('a', 4)) AS x(k, v);
[INFO] Execute statement succeeded.
!info

# Top-1 per key without the rank number (FastTop1Function): -U/+U.
SELECT k, v FROM (
  SELECT k, v, ROW_NUMBER() OVER (PARTITION BY k ORDER BY v DESC) AS rn FROM t)
WHERE rn = 1;
+----+--------------------------------+-------------+
| op |                              k |           v |
+----+--------------------------------+-------------+
| +I |                              a |           1 |
| +I |                              b |           5 |
| -U |                              a |           1 |
| +U |                              a |           3 |
| -U |                              b |           5 |
| +U |                              b |           7 |
| -U |                              a |           3 |
| +U |                              a |           9 |
+----+--------------------------------+-------------+
Received a total of 8 rows
!ok

# The same with rn <= 1.
SELECT k, v FROM (
  SELECT k, v, ROW_NUMBER() OVER (PARTITION BY k ORDER BY v DESC) AS rn FROM t)
WHERE rn <= 1;
+----+--------------------------------+-------------+
| op |                              k |           v |
+----+--------------------------------+-------------+
| +I |                              a |           1 |
| +I |                              b |           5 |
| -U |                              a |           1 |
| +U |                              a |           3 |
| -U |                              b |           5 |
| +U |                              b |           7 |
| -U |                              a |           3 |
| +U |                              a |           9 |
+----+--------------------------------+-------------+
Received a total of 8 rows
!ok

# Top-1 with the rank number: -U/+U too.
SELECT k, v, rn FROM (
  SELECT k, v, ROW_NUMBER() OVER (PARTITION BY k ORDER BY v DESC) AS rn FROM t)
WHERE rn = 1;
+----+--------------------------------+-------------+----------------------+
| op |                              k |           v |                   rn |
+----+--------------------------------+-------------+----------------------+
| +I |                              a |           1 |                    1 |
| +I |                              b |           5 |                    1 |
| -U |                              a |           1 |                    1 |
| +U |                              a |           3 |                    1 |
| -U |                              b |           5 |                    1 |
| +U |                              b |           7 |                    1 |
| -U |                              a |           3 |                    1 |
| +U |                              a |           9 |                    1 |
+----+--------------------------------+-------------+----------------------+
Received a total of 8 rows
!ok

# A global Top-1 (no partition key).
SELECT k, v FROM (
  SELECT k, v, ROW_NUMBER() OVER (ORDER BY v DESC) AS rn FROM t)
WHERE rn = 1;
+----+--------------------------------+-------------+
| op |                              k |           v |
+----+--------------------------------+-------------+
| +I |                              a |           1 |
| -U |                              a |           1 |
| +U |                              b |           5 |
| -U |                              b |           5 |
| +U |                              b |           7 |
| -U |                              b |           7 |
| +U |                              a |           9 |
+----+--------------------------------+-------------+
Received a total of 7 rows
!ok

# Top-2 without the rank number (AppendOnlyTopNFunction): -D/+I.
SELECT k, v FROM (
  SELECT k, v, ROW_NUMBER() OVER (PARTITION BY k ORDER BY v DESC) AS rn FROM t)
WHERE rn <= 2;
+----+--------------------------------+-------------+
| op |                              k |           v |
+----+--------------------------------+-------------+
| +I |                              a |           1 |
| +I |                              b |           5 |
| +I |                              a |           3 |
| -D |                              a |           1 |
| +I |                              a |           2 |
| +I |                              b |           7 |
| -D |                              a |           2 |
| +I |                              a |           9 |
| -D |                              a |           3 |
| +I |                              a |           4 |
+----+--------------------------------+-------------+
Received a total of 10 rows
!ok

# An offset without the rank number: the rows of ranks 2 and 3 are
# updated rank by rank (-U/+U), new ranks are +I.
SELECT k, v FROM (
  SELECT k, v, ROW_NUMBER() OVER (PARTITION BY k ORDER BY v DESC) AS rn FROM t)
WHERE rn BETWEEN 2 AND 3;
+----+--------------------------------+-------------+
| op |                              k |           v |
+----+--------------------------------+-------------+
| +I |                              a |           1 |
| -U |                              a |           1 |
| +U |                              a |           2 |
| +I |                              a |           1 |
| +I |                              b |           5 |
| -U |                              a |           2 |
| +U |                              a |           3 |
| -U |                              a |           1 |
| +U |                              a |           2 |
| -U |                              a |           3 |
| +U |                              a |           4 |
| -U |                              a |           2 |
| +U |                              a |           3 |
+----+--------------------------------+-------------+
Received a total of 13 rows
!ok

SELECT k, v FROM (
  SELECT k, v, ROW_NUMBER() OVER (PARTITION BY k ORDER BY v DESC) AS rn FROM t)
WHERE rn = 2;
+----+--------------------------------+-------------+
| op |                              k |           v |
+----+--------------------------------+-------------+
| +I |                              a |           1 |
| -U |                              a |           1 |
| +U |                              a |           2 |
| +I |                              b |           5 |
| -U |                              a |           2 |
| +U |                              a |           3 |
| -U |                              a |           3 |
| +U |                              a |           4 |
+----+--------------------------------+-------------+
Received a total of 8 rows
!ok

# ORDER BY ... LIMIT 1: a global Top-1, -U/+U.
SELECT k, v FROM t ORDER BY v DESC LIMIT 1;
+----+--------------------------------+-------------+
| op |                              k |           v |
+----+--------------------------------+-------------+
| +I |                              a |           1 |
| -U |                              a |           1 |
| +U |                              b |           5 |
| -U |                              b |           5 |
| +U |                              b |           7 |
| -U |                              b |           7 |
| +U |                              a |           9 |
+----+--------------------------------+-------------+
Received a total of 7 rows
!ok

# ORDER BY ... LIMIT 2: -D/+I.
SELECT k, v FROM t ORDER BY v DESC LIMIT 2;
+----+--------------------------------+-------------+
| op |                              k |           v |
+----+--------------------------------+-------------+
| +I |                              a |           1 |
| +I |                              b |           5 |
| -D |                              a |           1 |
| +I |                              a |           3 |
| -D |                              a |           3 |
| +I |                              b |           7 |
| -D |                              b |           5 |
| +I |                              a |           9 |
+----+--------------------------------+-------------+
Received a total of 8 rows
!ok

# LIMIT with OFFSET: -U/+U rank by rank.
SELECT k, v FROM t ORDER BY v DESC LIMIT 2 OFFSET 1;
+----+--------------------------------+-------------+
| op |                              k |           v |
+----+--------------------------------+-------------+
| +I |                              a |           1 |
| -U |                              a |           1 |
| +U |                              a |           3 |
| +I |                              a |           1 |
| -U |                              a |           1 |
| +U |                              a |           2 |
| -U |                              a |           3 |
| +U |                              b |           5 |
| -U |                              a |           2 |
| +U |                              a |           3 |
| -U |                              b |           5 |
| +U |                              b |           7 |
| -U |                              a |           3 |
| +U |                              b |           5 |
+----+--------------------------------+-------------+
Received a total of 14 rows
!ok

# Over updating input (a GROUP BY of a VALUES view: RetractStrategy,
# RetractableTopNFunction), a Top-1 without the number is -D/+I.
CREATE TEMPORARY VIEW u AS SELECT * FROM (VALUES
  ('a', 1), ('b', 5), ('a', 3), ('a', 1), ('b', 7), ('a', 3), ('a', 3), ('b', 5), ('b', 5)) AS x(k, v);
[INFO] Execute statement succeeded.
!info

SELECT k, v, c FROM (
  SELECT k, v, c, ROW_NUMBER() OVER (PARTITION BY k ORDER BY c ASC) AS rn
  FROM (SELECT k, v, COUNT(*) AS c FROM u GROUP BY k, v))
WHERE rn = 1;
+----+--------------------------------+-------------+----------------------+
| op |                              k |           v |                    c |
+----+--------------------------------+-------------+----------------------+
| +I |                              a |           1 |                    1 |
| +I |                              b |           5 |                    1 |
| -D |                              a |           1 |                    1 |
| +I |                              a |           3 |                    1 |
| -D |                              a |           3 |                    1 |
| +I |                              a |           1 |                    2 |
| -D |                              b |           5 |                    1 |
| +I |                              b |           7 |                    1 |
+----+--------------------------------+-------------+----------------------+
Received a total of 8 rows
!ok

SELECT k, v, c FROM (SELECT k, v, COUNT(*) AS c FROM u GROUP BY k, v) ORDER BY c DESC LIMIT 1;
+----+--------------------------------+-------------+----------------------+
| op |                              k |           v |                    c |
+----+--------------------------------+-------------+----------------------+
| +I |                              a |           1 |                    1 |
| -D |                              a |           1 |                    1 |
| +I |                              b |           5 |                    1 |
| -D |                              b |           5 |                    1 |
| +I |                              a |           1 |                    2 |
| -D |                              a |           1 |                    2 |
| +I |                              a |           3 |                    3 |
+----+--------------------------------+-------------+----------------------+
Received a total of 7 rows
!ok

# ... and with an offset, -U/+U rank by rank.
SELECT k, v, c FROM (
  SELECT k, v, c, ROW_NUMBER() OVER (PARTITION BY k ORDER BY c DESC, v) AS rn
  FROM (SELECT k, v, COUNT(*) AS c FROM u GROUP BY k, v))
WHERE rn = 2;
+----+--------------------------------+-------------+----------------------+
| op |                              k |           v |                    c |
+----+--------------------------------+-------------+----------------------+
| +I |                              a |           3 |                    1 |
| -D |                              a |           3 |                    1 |
| +I |                              a |           3 |                    1 |
| +I |                              b |           7 |                    1 |
| -D |                              a |           3 |                    1 |
| +I |                              a |           3 |                    2 |
| -D |                              a |           3 |                    2 |
| +I |                              a |           1 |                    2 |
| -D |                              b |           7 |                    1 |
| +I |                              b |           7 |                    1 |
| -D |                              b |           7 |                    1 |
| +I |                              b |           7 |                    1 |
+----+--------------------------------+-------------+----------------------+
Received a total of 12 rows
!ok

# Over a GROUP BY of a table (not a VALUES view) whose sort key is
# monotonic (COUNT DESC) and whose upsert key holds the partition key,
# Flink 2.3.0 picks UpdateFastStrategy (FastTop1Function) and emits
# -U/+U: +I[a, 1, 1] +I[b, 5, 1] -U[a, 1, 1] +U[a, 1, 2] -U[a, 1, 2]
# +U[a, 3, 3] -U[b, 5, 1] +U[b, 5, 2] -U[b, 5, 2] +U[b, 5, 3].
# Riffle has no monotonicity analysis and retracts (-D/+I), as Flink
# does over the VALUES view above.
CREATE TEMPORARY TABLE w (k STRING, v INT)
WITH ('connector' = 'filesystem', 'path' = '${TESTDATA}/topn_kv.csv', 'format' = 'csv');
[INFO] Execute statement succeeded.
!info

# riffle-only: Riffle differs (open): Flink picks UpdateFastStrategy here (see above)
SELECT k, v, c FROM (
  SELECT k, v, c, ROW_NUMBER() OVER (PARTITION BY k ORDER BY c DESC) AS rn
  FROM (SELECT k, v, COUNT(*) AS c FROM w GROUP BY k, v))
WHERE rn = 1;
+----+--------------------------------+-------------+----------------------+
| op |                              k |           v |                    c |
+----+--------------------------------+-------------+----------------------+
| +I |                              a |           1 |                    1 |
| +I |                              b |           5 |                    1 |
| -D |                              a |           1 |                    1 |
| +I |                              a |           3 |                    1 |
| -D |                              a |           3 |                    1 |
| +I |                              a |           1 |                    2 |
| -D |                              a |           1 |                    2 |
| +I |                              a |           3 |                    3 |
| -D |                              b |           5 |                    1 |
| +I |                              b |           7 |                    1 |
| -D |                              b |           7 |                    1 |
| +I |                              b |           5 |                    2 |
| -D |                              b |           5 |                    2 |
| +I |                              b |           7 |                    1 |
| -D |                              b |           7 |                    1 |
| +I |                              b |           5 |                    3 |
+----+--------------------------------+-------------+----------------------+
Received a total of 16 rows
!ok

# A Top-N produces updates and deletes whatever its range: an append-only
# sink refuses it (Flink names the strategy it has not picked yet).
CREATE TEMPORARY TABLE appended (k STRING, v INT)
WITH ('connector' = 'filesystem', 'path' = '${TESTDATA}/never-written', 'format' = 'csv');
[INFO] Execute statement succeeded.
!info

INSERT INTO appended SELECT k, v FROM (
  SELECT k, v, ROW_NUMBER() OVER (PARTITION BY k ORDER BY v DESC) AS rn FROM t)
WHERE rn <= 2;
[ERROR] Could not execute SQL statement. Reason:
Table sink 'default_catalog.default_database.appended' doesn't support consuming update and delete changes which is produced by node Rank(strategy=[UndefinedStrategy], rankType=[ROW_NUMBER], rankRange=[rankStart=1, rankEnd=2], partitionBy=[k], orderBy=[v DESC], select=[k, v])
!error

INSERT INTO appended SELECT k, v FROM t ORDER BY v DESC LIMIT 2;
[ERROR] Could not execute SQL statement. Reason:
Table sink 'default_catalog.default_database.appended' doesn't support consuming update and delete changes which is produced by node SortLimit(orderBy=[v DESC], offset=[0], fetch=[2], strategy=[UndefinedStrategy])
!error

# riffle-only: EXPLAIN text: Flink's AST keeps ROW_NUMBER in a LogicalProject and plans no Calc over Values
EXPLAIN CHANGELOG_MODE SELECT k, v FROM (
  SELECT k, v, ROW_NUMBER() OVER (PARTITION BY k ORDER BY v DESC) AS rn FROM t)
WHERE rn = 1;
== Abstract Syntax Tree ==
LogicalProject(k=[$0], v=[$1])
+- LogicalFilter(condition=[=($2, 1)])
   +- LogicalProject(k=[$0], v=[$1], rn=[$2])
      +- LogicalWindow(window#0=[window(partition {$0} order by [$1 DESC-nulls-last] range between UNBOUNDED PRECEDING and CURRENT ROW aggs [ROW_NUMBER()])])
         +- LogicalProject(k=[$0], v=[$1])
            +- LogicalProject(k=[$0], v=[$1])
               +- LogicalProject(k=[$0], v=[$1])
                  +- LogicalValues(tuples=[[{ _UTF-16LE'a', 1 }, { _UTF-16LE'b', 5 }, { _UTF-16LE'a', 3 }, { _UTF-16LE'a', 2 }, { _UTF-16LE'b', 7 }, { _UTF-16LE'a', 9 }, { _UTF-16LE'a', 4 }]])

== Optimized Physical Plan ==
Rank(strategy=[AppendFastStrategy], rankType=[ROW_NUMBER], rankRange=[rankStart=1, rankEnd=1], partitionBy=[k], orderBy=[v DESC], select=[k, v], changelogMode=[I,UA,D])
+- Exchange(distribution=[hash[k]], changelogMode=[I])
   +- Calc(select=[EXPR$0, EXPR$1], changelogMode=[I])
      +- Values(type=[RecordType(CHAR(1) EXPR$0, INTEGER EXPR$1)], tuples=[[{ _UTF-16LE'a', 1 }, { _UTF-16LE'b', 5 }, { _UTF-16LE'a', 3 }, { _UTF-16LE'a', 2 }, { _UTF-16LE'b', 7 }, { _UTF-16LE'a', 9 }, { _UTF-16LE'a', 4 }]], changelogMode=[I])

== Optimized Execution Plan ==
Rank(strategy=[AppendFastStrategy], rankType=[ROW_NUMBER], rankRange=[rankStart=1, rankEnd=1], partitionBy=[k], orderBy=[v DESC], select=[k, v])
+- Exchange(distribution=[hash[k]])
   +- Calc(select=[EXPR$0, EXPR$1])
      +- Values(tuples=[[{ _UTF-16LE'a', 1 }, { _UTF-16LE'b', 5 }, { _UTF-16LE'a', 3 }, { _UTF-16LE'a', 2 }, { _UTF-16LE'b', 7 }, { _UTF-16LE'a', 9 }, { _UTF-16LE'a', 4 }]])
!ok

# riffle-only: EXPLAIN text: Flink's AST and projections differ (no Calc over Values)
EXPLAIN CHANGELOG_MODE SELECT k, v FROM t ORDER BY v DESC LIMIT 2;
== Abstract Syntax Tree ==
LogicalSort(sort0=[$1], dir0=[DESC], fetch=[2])
+- LogicalProject(k=[$0], v=[$1])
   +- LogicalProject(k=[$0], v=[$1])
      +- LogicalProject(k=[$0], v=[$1])
         +- LogicalProject(k=[$0], v=[$1])
            +- LogicalValues(tuples=[[{ _UTF-16LE'a', 1 }, { _UTF-16LE'b', 5 }, { _UTF-16LE'a', 3 }, { _UTF-16LE'a', 2 }, { _UTF-16LE'b', 7 }, { _UTF-16LE'a', 9 }, { _UTF-16LE'a', 4 }]])

== Optimized Physical Plan ==
SortLimit(orderBy=[v DESC], offset=[0], fetch=[2], strategy=[AppendFastStrategy], changelogMode=[I,UA,D])
+- Exchange(distribution=[single], changelogMode=[I])
   +- Calc(select=[EXPR$0, EXPR$1], changelogMode=[I])
      +- Values(type=[RecordType(CHAR(1) EXPR$0, INTEGER EXPR$1)], tuples=[[{ _UTF-16LE'a', 1 }, { _UTF-16LE'b', 5 }, { _UTF-16LE'a', 3 }, { _UTF-16LE'a', 2 }, { _UTF-16LE'b', 7 }, { _UTF-16LE'a', 9 }, { _UTF-16LE'a', 4 }]], changelogMode=[I])

== Optimized Execution Plan ==
SortLimit(orderBy=[v DESC], offset=[0], fetch=[2], strategy=[AppendFastStrategy])
+- Exchange(distribution=[single])
   +- Calc(select=[EXPR$0, EXPR$1])
      +- Values(tuples=[[{ _UTF-16LE'a', 1 }, { _UTF-16LE'b', 5 }, { _UTF-16LE'a', 3 }, { _UTF-16LE'a', 2 }, { _UTF-16LE'b', 7 }, { _UTF-16LE'a', 9 }, { _UTF-16LE'a', 4 }]])
!ok

# riffle-only: EXPLAIN text: Flink's AST and projections differ (no Calc over Values)
EXPLAIN CHANGELOG_MODE SELECT k, v, c FROM (SELECT k, v, COUNT(*) AS c FROM u GROUP BY k, v) ORDER BY c DESC LIMIT 1;
== Abstract Syntax Tree ==
LogicalSort(sort0=[$2], dir0=[DESC], fetch=[1])
+- LogicalProject(k=[$0], v=[$1], c=[$2])
   +- LogicalProject(k=[$0], v=[$1], c=[$2])
      +- LogicalAggregate(group=[{0, 1}], EXPR$2=[COUNT()])
         +- LogicalProject(k=[$0], v=[$1])
            +- LogicalProject(k=[$0], v=[$1])
               +- LogicalProject(k=[$0], v=[$1])
                  +- LogicalProject(k=[$0], v=[$1])
                     +- LogicalValues(tuples=[[{ _UTF-16LE'a', 1 }, { _UTF-16LE'b', 5 }, { _UTF-16LE'a', 3 }, { _UTF-16LE'a', 1 }, { _UTF-16LE'b', 7 }, { _UTF-16LE'a', 3 }, { _UTF-16LE'a', 3 }, { _UTF-16LE'b', 5 }, { _UTF-16LE'b', 5 }]])

== Optimized Physical Plan ==
SortLimit(orderBy=[c DESC], offset=[0], fetch=[1], strategy=[RetractStrategy], changelogMode=[I,UA,D])
+- Exchange(distribution=[single], changelogMode=[I,UB,UA])
   +- Calc(select=[k, v, EXPR$2], changelogMode=[I,UB,UA])
      +- GroupAggregate(groupBy=[k, v], select=[k, v, COUNT(*) AS EXPR$2], changelogMode=[I,UB,UA])
         +- Exchange(distribution=[hash[k, v]], changelogMode=[I])
            +- Calc(select=[EXPR$0, EXPR$1], changelogMode=[I])
               +- Values(type=[RecordType(CHAR(1) EXPR$0, INTEGER EXPR$1)], tuples=[[{ _UTF-16LE'a', 1 }, { _UTF-16LE'b', 5 }, { _UTF-16LE'a', 3 }, { _UTF-16LE'a', 1 }, { _UTF-16LE'b', 7 }, { _UTF-16LE'a', 3 }, { _UTF-16LE'a', 3 }, { _UTF-16LE'b', 5 }, { _UTF-16LE'b', 5 }]], changelogMode=[I])

== Optimized Execution Plan ==
SortLimit(orderBy=[c DESC], offset=[0], fetch=[1], strategy=[RetractStrategy])
+- Exchange(distribution=[single])
   +- Calc(select=[k, v, EXPR$2])
      +- GroupAggregate(groupBy=[k, v], select=[k, v, COUNT(*) AS EXPR$2])
         +- Exchange(distribution=[hash[k, v]])
            +- Calc(select=[EXPR$0, EXPR$1])
               +- Values(tuples=[[{ _UTF-16LE'a', 1 }, { _UTF-16LE'b', 5 }, { _UTF-16LE'a', 3 }, { _UTF-16LE'a', 1 }, { _UTF-16LE'b', 7 }, { _UTF-16LE'a', 3 }, { _UTF-16LE'a', 3 }, { _UTF-16LE'b', 5 }, { _UTF-16LE'b', 5 }]])
!ok
