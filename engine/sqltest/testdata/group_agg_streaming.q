# group_agg_streaming.q - group aggregation in streaming mode (Flink's
# docs/dev/table/sql/queries/group-agg.md): every input row updates its
# group's result, emitted as +I for a new group and -U/+U when the result
# changes (GroupAggFunction); over an updating input the aggregates
# retract (MIN/MAX keep all values) and a group whose rows are all
# retracted is deleted (-D).

CREATE TABLE bids (ts TIMESTAMP(3), item STRING, price INT)
WITH ('connector' = 'filesystem', 'path' = '${TESTDATA}/bids_ooo.csv', 'format' = 'csv');
[INFO] Execute statement succeeded.
!info

SELECT item, COUNT(*) AS cnt, SUM(price) AS total, MIN(price) AS lo, MAX(price) AS hi
FROM bids GROUP BY item;
+----+--------------------------------+----------------------+-------------+-------------+-------------+
| op |                           item |                  cnt |       total |          lo |          hi |
+----+--------------------------------+----------------------+-------------+-------------+-------------+
| +I |                              A |                    1 |           1 |           1 |           1 |
| +I |                              B |                    1 |           2 |           2 |           2 |
| +I |                              C |                    1 |           3 |           3 |           3 |
| -U |                              A |                    1 |           1 |           1 |           1 |
| +U |                              A |                    2 |           5 |           1 |           4 |
| -U |                              B |                    1 |           2 |           2 |           2 |
| +U |                              B |                    2 |           7 |           2 |           5 |
| -U |                              C |                    1 |           3 |           3 |           3 |
| +U |                              C |                    2 |           9 |           3 |           6 |
| -U |                              A |                    2 |           5 |           1 |           4 |
| +U |                              A |                    3 |          12 |           1 |           7 |
| -U |                              B |                    2 |           7 |           2 |           5 |
| +U |                              B |                    3 |          15 |           2 |           8 |
| -U |                              A |                    3 |          12 |           1 |           7 |
| +U |                              A |                    4 |          21 |           1 |           9 |
+----+--------------------------------+----------------------+-------------+-------------+-------------+
Received a total of 15 rows
!ok

# HAVING filters the changelog of the aggregate.
SELECT item, SUM(price) AS total FROM bids GROUP BY item HAVING SUM(price) > 5;
+----+--------------------------------+-------------+
| op |                           item |       total |
+----+--------------------------------+-------------+
| +U |                              B |           7 |
| +U |                              C |           9 |
| +U |                              A |          12 |
| -U |                              B |           7 |
| +U |                              B |          15 |
| -U |                              A |          12 |
| +U |                              A |          21 |
+----+--------------------------------+-------------+
Received a total of 7 rows
!ok

SELECT COUNT(DISTINCT item) AS items, COUNT(*) AS bids FROM bids;
+----+----------------------+----------------------+
| op |                items |                 bids |
+----+----------------------+----------------------+
| +I |                    1 |                    1 |
| -U |                    1 |                    1 |
| +U |                    2 |                    2 |
| -U |                    2 |                    2 |
| +U |                    3 |                    3 |
| -U |                    3 |                    3 |
| +U |                    3 |                    4 |
| -U |                    3 |                    4 |
| +U |                    3 |                    5 |
| -U |                    3 |                    5 |
| +U |                    3 |                    6 |
| -U |                    3 |                    6 |
| +U |                    3 |                    7 |
| -U |                    3 |                    7 |
| +U |                    3 |                    8 |
| -U |                    3 |                    8 |
| +U |                    3 |                    9 |
+----+----------------------+----------------------+
Received a total of 17 rows
!ok

# Cascaded aggregates: the outer aggregate consumes -U/+U and retracts,
# with MAX over an updating input keeping every value (MaxWithRetract).
SELECT cnt, COUNT(*) AS items, MAX(total) AS top
FROM (SELECT item, COUNT(*) AS cnt, SUM(price) AS total FROM bids GROUP BY item)
GROUP BY cnt;
+----+----------------------+----------------------+-------------+
| op |                  cnt |                items |         top |
+----+----------------------+----------------------+-------------+
| +I |                    1 |                    1 |           1 |
| -U |                    1 |                    1 |           1 |
| +U |                    1 |                    2 |           2 |
| -U |                    1 |                    2 |           2 |
| +U |                    1 |                    3 |           3 |
| -U |                    1 |                    3 |           3 |
| +U |                    1 |                    2 |           3 |
| +I |                    2 |                    1 |           5 |
| -U |                    1 |                    2 |           3 |
| +U |                    1 |                    1 |           3 |
| -U |                    2 |                    1 |           5 |
| +U |                    2 |                    2 |           7 |
| -D |                    1 |                    1 |           3 |
| -U |                    2 |                    2 |           7 |
| +U |                    2 |                    3 |           9 |
| -U |                    2 |                    3 |           9 |
| +U |                    2 |                    2 |           9 |
| +I |                    3 |                    1 |          12 |
| -U |                    2 |                    2 |           9 |
| +U |                    2 |                    1 |           9 |
| -U |                    3 |                    1 |          12 |
| +U |                    3 |                    2 |          15 |
| -U |                    3 |                    2 |          15 |
| +U |                    3 |                    1 |          15 |
| +I |                    4 |                    1 |          21 |
+----+----------------------+----------------------+-------------+
Received a total of 25 rows
!ok

# riffle-only: EXPLAIN text: Flink names COUNT_RETRACT and plans without the Calc
EXPLAIN CHANGELOG_MODE
SELECT cnt, COUNT(*) AS items FROM (SELECT item, COUNT(*) AS cnt FROM bids GROUP BY item) GROUP BY cnt;
== Abstract Syntax Tree ==
LogicalProject(cnt=[$0], items=[$1])
+- LogicalAggregate(group=[{0}], EXPR$1=[COUNT()])
   +- LogicalProject(cnt=[$1])
      +- LogicalProject(item=[$0], cnt=[$1])
         +- LogicalAggregate(group=[{0}], EXPR$1=[COUNT()])
            +- LogicalProject(item=[$1])
               +- LogicalTableScan(table=[[default_catalog, default_database, bids]])

== Optimized Physical Plan ==
Calc(select=[cnt, EXPR$1], changelogMode=[I,UA,D])
+- GroupAggregate(groupBy=[cnt], select=[cnt, COUNT(*) AS EXPR$1], changelogMode=[I,UA,D])
   +- Exchange(distribution=[hash[cnt]], changelogMode=[I,UB,UA])
      +- Calc(select=[EXPR$1 AS cnt], changelogMode=[I,UB,UA])
         +- GroupAggregate(groupBy=[item], select=[item, COUNT(*) AS EXPR$1], changelogMode=[I,UB,UA])
            +- Exchange(distribution=[hash[item]], changelogMode=[I])
               +- TableSourceScan(table=[[default_catalog, default_database, bids, project=[item]]], fields=[item], changelogMode=[I])

== Optimized Execution Plan ==
Calc(select=[cnt, EXPR$1])
+- GroupAggregate(groupBy=[cnt], select=[cnt, COUNT(*) AS EXPR$1])
   +- Exchange(distribution=[hash[cnt]])
      +- Calc(select=[EXPR$1 AS cnt])
         +- GroupAggregate(groupBy=[item], select=[item, COUNT(*) AS EXPR$1])
            +- Exchange(distribution=[hash[item]])
               +- TableSourceScan(table=[[default_catalog, default_database, bids, project=[item]]], fields=[item])
!ok

# Mini-batch aggregation (table.exec.mini-batch.enabled): the batches of
# the source (3 rows here, 'source.batch-size' is a Riffle option) are
# the bundles; each bundle emits one change per touched group.
SET 'table.exec.mini-batch.enabled' = 'true';
[INFO] Execute statement succeeded.
!info

# riffle-only: Riffle extension: the source.batch-size option of the filesystem connector
SELECT item, COUNT(*) AS cnt, SUM(price) AS total
FROM bids /*+ OPTIONS('source.batch-size' = '3') */ GROUP BY item;
+----+--------------------------------+----------------------+-------------+
| op |                           item |                  cnt |       total |
+----+--------------------------------+----------------------+-------------+
| +I |                              A |                    1 |           1 |
| +I |                              B |                    1 |           2 |
| +I |                              C |                    1 |           3 |
| -U |                              A |                    1 |           1 |
| +U |                              A |                    2 |           5 |
| -U |                              B |                    1 |           2 |
| +U |                              B |                    2 |           7 |
| -U |                              C |                    1 |           3 |
| +U |                              C |                    2 |           9 |
| -U |                              A |                    2 |           5 |
| +U |                              A |                    4 |          21 |
| -U |                              B |                    2 |           7 |
| +U |                              B |                    3 |          15 |
+----+--------------------------------+----------------------+-------------+
Received a total of 13 rows
!ok

# riffle-only: Riffle extension: the source.batch-size option of the filesystem connector
SELECT cnt, COUNT(*) AS items
FROM (SELECT item, COUNT(*) AS cnt FROM bids /*+ OPTIONS('source.batch-size' = '3') */ GROUP BY item)
GROUP BY cnt;
+----+----------------------+----------------------+
| op |                  cnt |                items |
+----+----------------------+----------------------+
| +I |                    1 |                    3 |
| -D |                    1 |                    3 |
| +I |                    2 |                    3 |
| -U |                    2 |                    3 |
| +U |                    2 |                    1 |
| +I |                    4 |                    1 |
| +I |                    3 |                    1 |
+----+----------------------+----------------------+
Received a total of 7 rows
!ok

SET 'table.exec.mini-batch.enabled' = 'false';
[INFO] Execute statement succeeded.
!info

SET 'parallelism.default' = '4';
[INFO] Execute statement succeeded.
!info

SELECT item, COUNT(*) AS cnt, SUM(price) AS total, MIN(price) AS lo, MAX(price) AS hi
FROM bids GROUP BY item;
+----+--------------------------------+----------------------+-------------+-------------+-------------+
| op |                           item |                  cnt |       total |          lo |          hi |
+----+--------------------------------+----------------------+-------------+-------------+-------------+
| +I |                              C |                    1 |           3 |           3 |           3 |
| -U |                              C |                    1 |           3 |           3 |           3 |
| +U |                              C |                    2 |           9 |           3 |           6 |
| +I |                              A |                    1 |           1 |           1 |           1 |
| +I |                              B |                    1 |           2 |           2 |           2 |
| -U |                              A |                    1 |           1 |           1 |           1 |
| +U |                              A |                    2 |           5 |           1 |           4 |
| -U |                              B |                    1 |           2 |           2 |           2 |
| +U |                              B |                    2 |           7 |           2 |           5 |
| -U |                              A |                    2 |           5 |           1 |           4 |
| +U |                              A |                    3 |          12 |           1 |           7 |
| -U |                              B |                    2 |           7 |           2 |           5 |
| +U |                              B |                    3 |          15 |           2 |           8 |
| -U |                              A |                    3 |          12 |           1 |           7 |
| +U |                              A |                    4 |          21 |           1 |           9 |
+----+--------------------------------+----------------------+-------------+-------------+-------------+
Received a total of 15 rows
!unordered

# An insert-only sink rejects an updating query when it is planned, naming
# the kinds of changes (FlinkChangelogModeInferenceProgram): a group
# aggregate over inserts produces updates only; over its own updates
# (COUNT of a COUNT) it also deletes.
CREATE TABLE append_only (item STRING, cnt BIGINT) WITH ('connector' = 'filesystem', 'path' = '/tmp/riffle-never-written', 'format' = 'csv');
[INFO] Execute statement succeeded.
!info

INSERT INTO append_only SELECT item, COUNT(*) FROM bids GROUP BY item;
[ERROR] Could not execute SQL statement. Reason:
Table sink 'default_catalog.default_database.append_only' doesn't support consuming update changes which is produced by node GroupAggregate(groupBy=[item], select=[item, COUNT(*) AS EXPR$1])
!error

# riffle-only: error wording differs (Flink names the retracting aggregate COUNT_RETRACT(*))
INSERT INTO append_only SELECT CAST(cnt AS STRING), COUNT(*) FROM (SELECT item, COUNT(*) AS cnt FROM bids GROUP BY item) GROUP BY cnt;
[ERROR] Could not execute SQL statement. Reason:
Table sink 'default_catalog.default_database.append_only' doesn't support consuming update and delete changes which is produced by node GroupAggregate(groupBy=[cnt], select=[cnt, COUNT(*) AS EXPR$1])
!error

# Sinks that take upserts (blackhole takes every kind but -U, as Flink's
# BlackHoleSink): the aggregate leaves out -U rows (changelogMode=[I,UA,D]
# all the way down) unless a filter stands in between (FLINK-9528).
CREATE TABLE hole (item STRING, cnt BIGINT) WITH ('connector' = 'blackhole');
[INFO] Execute statement succeeded.
!info

# riffle-only: EXPLAIN text: Flink names the sink fields after the query (EXPR$1)
EXPLAIN CHANGELOG_MODE INSERT INTO hole SELECT item, COUNT(*) FROM bids GROUP BY item;
== Abstract Syntax Tree ==
LogicalSink(table=[default_catalog.default_database.hole], fields=[item, EXPR$1])
+- LogicalProject(item=[$0], EXPR$1=[$1])
   +- LogicalAggregate(group=[{0}], EXPR$1=[COUNT()])
      +- LogicalProject(item=[$1])
         +- LogicalTableScan(table=[[default_catalog, default_database, bids]])

== Optimized Physical Plan ==
Sink(table=[default_catalog.default_database.hole], fields=[item, EXPR$1], changelogMode=[NONE])
+- GroupAggregate(groupBy=[item], select=[item, COUNT(*) AS EXPR$1], changelogMode=[I,UA])
   +- Exchange(distribution=[hash[item]], changelogMode=[I])
      +- TableSourceScan(table=[[default_catalog, default_database, bids, project=[item]]], fields=[item], changelogMode=[I])

== Optimized Execution Plan ==
Sink(table=[default_catalog.default_database.hole], fields=[item, EXPR$1])
+- GroupAggregate(groupBy=[item], select=[item, COUNT(*) AS EXPR$1])
   +- Exchange(distribution=[hash[item]])
      +- TableSourceScan(table=[[default_catalog, default_database, bids, project=[item]]], fields=[item])
!ok

# riffle-only: EXPLAIN text: Riffle plans are its own
EXPLAIN CHANGELOG_MODE INSERT INTO hole SELECT * FROM (SELECT item, COUNT(*) AS cnt FROM bids GROUP BY item) WHERE cnt > 1;
== Abstract Syntax Tree ==
LogicalSink(table=[default_catalog.default_database.hole], fields=[item, cnt])
+- LogicalProject(item=[$0], cnt=[$1])
   +- LogicalFilter(condition=[>($1, 1)])
      +- LogicalProject(item=[$0], cnt=[$1])
         +- LogicalAggregate(group=[{0}], EXPR$1=[COUNT()])
            +- LogicalProject(item=[$1])
               +- LogicalTableScan(table=[[default_catalog, default_database, bids]])

== Optimized Physical Plan ==
Sink(table=[default_catalog.default_database.hole], fields=[item, cnt], changelogMode=[NONE])
+- Calc(select=[item, EXPR$1], where=[>(EXPR$1, 1)], changelogMode=[I,UB,UA])
   +- GroupAggregate(groupBy=[item], select=[item, COUNT(*) AS EXPR$1], changelogMode=[I,UB,UA])
      +- Exchange(distribution=[hash[item]], changelogMode=[I])
         +- TableSourceScan(table=[[default_catalog, default_database, bids, project=[item]]], fields=[item], changelogMode=[I])

== Optimized Execution Plan ==
Sink(table=[default_catalog.default_database.hole], fields=[item, cnt])
+- Calc(select=[item, EXPR$1], where=[(EXPR$1 > 1)])
   +- GroupAggregate(groupBy=[item], select=[item, COUNT(*) AS EXPR$1])
      +- Exchange(distribution=[hash[item]])
         +- TableSourceScan(table=[[default_catalog, default_database, bids, project=[item]]], fields=[item])
!ok

# A sink with a primary key fed updates keyed on something else: with
# 'table.exec.sink.upsert-materialize' AUTO (the default) Flink 2.3 asks
# for an ON CONFLICT clause; with FORCE it gets a SinkUpsertMaterializer
# (upsertMaterialize=[true]); keyed on its primary key, none.
CREATE TABLE hole_pk (item STRING, cnt BIGINT, PRIMARY KEY (cnt) NOT ENFORCED) WITH ('connector' = 'blackhole');
[INFO] Execute statement succeeded.
!info

EXPLAIN CHANGELOG_MODE INSERT INTO hole_pk SELECT item, COUNT(*) FROM bids GROUP BY item;
[ERROR] Could not execute SQL statement. Reason:
The query has an upsert key that differs from the primary key of the sink table 'default_catalog.default_database.hole_pk'. Primary key: [cnt], upsert key: [item].
!error

SET 'table.exec.sink.upsert-materialize' = 'FORCE';
[INFO] Execute statement succeeded.
!info

# riffle-only: EXPLAIN text: Riffle's optimizer is its own
EXPLAIN CHANGELOG_MODE INSERT INTO hole_pk SELECT item, COUNT(*) FROM bids GROUP BY item;
== Abstract Syntax Tree ==
LogicalSink(table=[default_catalog.default_database.hole_pk], fields=[item, EXPR$1])
+- LogicalProject(item=[$0], EXPR$1=[$1])
   +- LogicalAggregate(group=[{0}], EXPR$1=[COUNT()])
      +- LogicalProject(item=[$1])
         +- LogicalTableScan(table=[[default_catalog, default_database, bids]])

== Optimized Physical Plan ==
Sink(table=[default_catalog.default_database.hole_pk], fields=[item, EXPR$1], upsertMaterialize=[true], changelogMode=[NONE])
+- GroupAggregate(groupBy=[item], select=[item, COUNT(*) AS EXPR$1], changelogMode=[I,UB,UA])
   +- Exchange(distribution=[hash[item]], changelogMode=[I])
      +- TableSourceScan(table=[[default_catalog, default_database, bids, project=[item]]], fields=[item], changelogMode=[I])

== Optimized Execution Plan ==
Sink(table=[default_catalog.default_database.hole_pk], fields=[item, EXPR$1], upsertMaterialize=[true])
+- GroupAggregate(groupBy=[item], select=[item, COUNT(*) AS EXPR$1])
   +- Exchange(distribution=[hash[item]])
      +- TableSourceScan(table=[[default_catalog, default_database, bids, project=[item]]], fields=[item])
!ok

SET 'table.exec.sink.upsert-materialize' = 'AUTO';
[INFO] Execute statement succeeded.
!info

CREATE TABLE hole_item (item STRING, cnt BIGINT, PRIMARY KEY (item) NOT ENFORCED) WITH ('connector' = 'blackhole');
[INFO] Execute statement succeeded.
!info

# riffle-only: EXPLAIN text: Flink names the sink fields after the query (EXPR$1)
EXPLAIN CHANGELOG_MODE INSERT INTO hole_item SELECT item, COUNT(*) FROM bids GROUP BY item;
== Abstract Syntax Tree ==
LogicalSink(table=[default_catalog.default_database.hole_item], fields=[item, EXPR$1])
+- LogicalProject(item=[$0], EXPR$1=[$1])
   +- LogicalAggregate(group=[{0}], EXPR$1=[COUNT()])
      +- LogicalProject(item=[$1])
         +- LogicalTableScan(table=[[default_catalog, default_database, bids]])

== Optimized Physical Plan ==
Sink(table=[default_catalog.default_database.hole_item], fields=[item, EXPR$1], changelogMode=[NONE])
+- GroupAggregate(groupBy=[item], select=[item, COUNT(*) AS EXPR$1], changelogMode=[I,UA])
   +- Exchange(distribution=[hash[item]], changelogMode=[I])
      +- TableSourceScan(table=[[default_catalog, default_database, bids, project=[item]]], fields=[item], changelogMode=[I])

== Optimized Execution Plan ==
Sink(table=[default_catalog.default_database.hole_item], fields=[item, EXPR$1])
+- GroupAggregate(groupBy=[item], select=[item, COUNT(*) AS EXPR$1])
   +- Exchange(distribution=[hash[item]])
      +- TableSourceScan(table=[[default_catalog, default_database, bids, project=[item]]], fields=[item])
!ok
