# explain.q - EXPLAIN output shapes: the three sections, ExplainDetails,
# partition pruning.
# Sources: docs/content/docs/dev/table/sql/explain.md (its example and its
# output, quoted in full), Flink's plan digests (RelTreeWriter prefixes
# ":- " and "+- ", literals as _UTF-16LE'...', a query explained without
# its collect sink, TableSourceScan(..., partitions=[{k=v}]) from
# PartitionableSourceTest).

SET 'execution.runtime-mode' = 'streaming';
[INFO] Execute statement succeeded.
!info

# explain.md: EXPLAIN PLAN FOR over two datagen tables
CREATE TABLE MyTable1 (`count` bigint, word VARCHAR(256)) WITH ('connector' = 'datagen');
[INFO] Execute statement succeeded.
!info
CREATE TABLE MyTable2 (`count` bigint, word VARCHAR(256)) WITH ('connector' = 'datagen');
[INFO] Execute statement succeeded.
!info
# riffle-only: EXPLAIN text: Riffle plans are its own
EXPLAIN PLAN FOR SELECT `count`, word FROM MyTable1 WHERE word LIKE 'F%' UNION ALL SELECT `count`, word FROM MyTable2;
== Abstract Syntax Tree ==
LogicalUnion(all=[true])
:- LogicalProject(count=[$0], word=[$1])
:  +- LogicalFilter(condition=[LIKE($1, _UTF-16LE'F%')])
:     +- LogicalTableScan(table=[[default_catalog, default_database, MyTable1]])
+- LogicalProject(count=[$0], word=[$1])
   +- LogicalTableScan(table=[[default_catalog, default_database, MyTable2]])

== Optimized Physical Plan ==
Union(all=[true], union=[count, word])
:- Calc(select=[count, word], where=[LIKE(word, _UTF-16LE'F%')])
:  +- TableSourceScan(table=[[default_catalog, default_database, MyTable1]], fields=[count, word])
+- TableSourceScan(table=[[default_catalog, default_database, MyTable2]], fields=[count, word])

== Optimized Execution Plan ==
Union(all=[true], union=[count, word])
:- Calc(select=[count, word], where=[LIKE(word, 'F%')])
:  +- TableSourceScan(table=[[default_catalog, default_database, MyTable1]], fields=[count, word])
+- TableSourceScan(table=[[default_catalog, default_database, MyTable2]], fields=[count, word])
!ok

# explain.md: EXPLAIN ESTIMATED_COST, CHANGELOG_MODE (the JSON plan's node ids differ by run in Flink)
# riffle-only: EXPLAIN text: Riffle plans are its own
EXPLAIN ESTIMATED_COST, CHANGELOG_MODE SELECT `count`, word FROM MyTable1 WHERE word LIKE 'F%' UNION ALL SELECT `count`, word FROM MyTable2;
== Abstract Syntax Tree ==
LogicalUnion(all=[true])
:- LogicalProject(count=[$0], word=[$1])
:  +- LogicalFilter(condition=[LIKE($1, _UTF-16LE'F%')])
:     +- LogicalTableScan(table=[[default_catalog, default_database, MyTable1]])
+- LogicalProject(count=[$0], word=[$1])
   +- LogicalTableScan(table=[[default_catalog, default_database, MyTable2]])

== Optimized Physical Plan ==
Union(all=[true], union=[count, word], changelogMode=[I]): rowcount = 1.05E8, cumulative cost = {3.1E8 rows, 3.05E8 cpu, 4.0E9 io, 0.0 network, 0.0 memory}
:- Calc(select=[count, word], where=[LIKE(word, _UTF-16LE'F%')], changelogMode=[I]): rowcount = 5000000.0, cumulative cost = {1.05E8 rows, 1.0E8 cpu, 2.0E9 io, 0.0 network, 0.0 memory}
:  +- TableSourceScan(table=[[default_catalog, default_database, MyTable1]], fields=[count, word], changelogMode=[I]): rowcount = 1.0E8, cumulative cost = {1.0E8 rows, 1.0E8 cpu, 2.0E9 io, 0.0 network, 0.0 memory}
+- TableSourceScan(table=[[default_catalog, default_database, MyTable2]], fields=[count, word], changelogMode=[I]): rowcount = 1.0E8, cumulative cost = {1.0E8 rows, 1.0E8 cpu, 2.0E9 io, 0.0 network, 0.0 memory}

== Optimized Execution Plan ==
Union(all=[true], union=[count, word])
:- Calc(select=[count, word], where=[LIKE(word, 'F%')])
:  +- TableSourceScan(table=[[default_catalog, default_database, MyTable1]], fields=[count, word])
+- TableSourceScan(table=[[default_catalog, default_database, MyTable2]], fields=[count, word])
!ok

# a JSON execution plan names sources "Source: ..." (explain.md)
# riffle-only: EXPLAIN text: Riffle plans are its own
EXPLAIN JSON_EXECUTION_PLAN SELECT word FROM MyTable2;
== Abstract Syntax Tree ==
LogicalProject(word=[$1])
+- LogicalTableScan(table=[[default_catalog, default_database, MyTable2]])

== Optimized Physical Plan ==
Calc(select=[word])
+- TableSourceScan(table=[[default_catalog, default_database, MyTable2]], fields=[count, word])

== Optimized Execution Plan ==
Calc(select=[word])
+- TableSourceScan(table=[[default_catalog, default_database, MyTable2]], fields=[count, word])

== Physical Execution Plan ==
{
  "nodes" : [ {
    "id" : 1,
    "type" : "Source: TableSourceScan(table=[[default_catalog, default_database, MyTable2]], fields=[count, word])",
    "pact" : "Data Source",
    "contents" : "Source: TableSourceScan(table=[[default_catalog, default_database, MyTable2]], fields=[count, word])",
    "parallelism" : 1
  }, {
    "id" : 2,
    "type" : "Calc(select=[word])",
    "pact" : "Operator",
    "contents" : "Calc(select=[word])",
    "parallelism" : 1,
    "predecessors" : [ {
      "id" : 1,
      "ship_strategy" : "FORWARD",
      "side" : "second"
    } ]
  }, {
    "id" : 3,
    "type" : "Sink(table=[*anonymous_collect$1*], fields=[word])",
    "pact" : "Data Sink",
    "contents" : "Sink(table=[*anonymous_collect$1*], fields=[word])",
    "parallelism" : 1,
    "predecessors" : [ {
      "id" : 2,
      "ship_strategy" : "FORWARD",
      "side" : "second"
    } ]
  } ]
}
!ok

# EXPLAIN INSERT shows the sink (explain.md: "a query or an INSERT statement")
CREATE TABLE MySink (word STRING) WITH ('connector' = 'blackhole');
[INFO] Execute statement succeeded.
!info
# riffle-only: EXPLAIN text: Riffle plans are its own
EXPLAIN INSERT INTO MySink SELECT word FROM MyTable1 WHERE `count` > 10;
== Abstract Syntax Tree ==
LogicalSink(table=[default_catalog.default_database.MySink], fields=[word])
+- LogicalProject(word=[$1])
   +- LogicalFilter(condition=[>($0, 10)])
      +- LogicalTableScan(table=[[default_catalog, default_database, MyTable1]])

== Optimized Physical Plan ==
Sink(table=[default_catalog.default_database.MySink], fields=[word])
+- Calc(select=[word], where=[>(count, 10)])
   +- TableSourceScan(table=[[default_catalog, default_database, MyTable1]], fields=[count, word])

== Optimized Execution Plan ==
Sink(table=[default_catalog.default_database.MySink], fields=[word])
+- Calc(select=[word], where=[(count > 10)])
   +- TableSourceScan(table=[[default_catalog, default_database, MyTable1]], fields=[count, word])
!ok

SET 'execution.runtime-mode' = 'batch';
[INFO] Execute statement succeeded.
!info
# partition pruning: only the partitions the WHERE condition on partition columns keeps are read
CREATE TABLE sales (item STRING, qty INT, region STRING) PARTITIONED BY (region) WITH ('connector' = 'filesystem', 'path' = '${TESTDATA}/sales', 'format' = 'csv');
[INFO] Execute statement succeeded.
!info
SELECT item, qty, region FROM sales WHERE region <> 'us' AND qty > 1 ORDER BY item, region;
+------+-----+--------+
| item | qty | region |
+------+-----+--------+
| book |   2 |   asia |
|  ink |   5 |     eu |
|  pen |   3 |     eu |
+------+-----+--------+
3 rows in set
!ok
# riffle-only: EXPLAIN text: Flink pushes the partition filter into the scan
EXPLAIN SELECT item FROM sales WHERE region = 'eu';
== Abstract Syntax Tree ==
LogicalProject(item=[$0])
+- LogicalFilter(condition=[=($2, _UTF-16LE'eu')])
   +- LogicalTableScan(table=[[default_catalog, default_database, sales]])

== Optimized Physical Plan ==
Calc(select=[item], where=[=(region, _UTF-16LE'eu')])
+- TableSourceScan(table=[[default_catalog, default_database, sales, partitions=[{region=eu}], project=[item, region]]], fields=[item, region])

== Optimized Execution Plan ==
Calc(select=[item], where=[(region = 'eu')])
+- TableSourceScan(table=[[default_catalog, default_database, sales, partitions=[{region=eu}], project=[item, region]]], fields=[item, region])
!ok
SELECT COUNT(*) FROM sales WHERE region IN ('asia', 'us');
+--------+
| EXPR$0 |
+--------+
|      3 |
+--------+
1 row in set
!ok
SELECT COUNT(*) FROM sales WHERE region = 'nowhere';
+--------+
| EXPR$0 |
+--------+
|      0 |
+--------+
1 row in set
!ok

SET 'execution.runtime-mode' = 'streaming';
[INFO] Execute statement succeeded.
!info

# sub-plan reuse (Flink's SubplanReuser): a table read in two branches is one
# scan, printed once with (reuse_id=[n]) and then as Reused(reference_id=[n])
# riffle-only: EXPLAIN text: Riffle plans are its own
EXPLAIN SELECT word FROM MyTable1 WHERE `count` > 10 UNION ALL SELECT word FROM MyTable1 WHERE `count` < 0;
== Abstract Syntax Tree ==
LogicalUnion(all=[true])
:- LogicalProject(word=[$1])
:  +- LogicalFilter(condition=[>($0, 10)])
:     +- LogicalTableScan(table=[[default_catalog, default_database, MyTable1]])
+- LogicalProject(word=[$1])
   +- LogicalFilter(condition=[<($0, 0)])
      +- LogicalTableScan(table=[[default_catalog, default_database, MyTable1]])

== Optimized Physical Plan ==
Union(all=[true], union=[word])
:- Calc(select=[word], where=[>(count, 10)])
:  +- TableSourceScan(table=[[default_catalog, default_database, MyTable1]], fields=[count, word])
+- Calc(select=[word], where=[<(count, 0)])
   +- TableSourceScan(table=[[default_catalog, default_database, MyTable1]], fields=[count, word])

== Optimized Execution Plan ==
Union(all=[true], union=[word])
:- Calc(select=[word], where=[(count > 10)])
:  +- TableSourceScan(table=[[default_catalog, default_database, MyTable1]], fields=[count, word])(reuse_id=[1])
+- Calc(select=[word], where=[(count < 0)])
   +- Reused(reference_id=[1])
!ok

# table.optimizer.reuse-source-enabled = false: each branch scans the table
SET 'table.optimizer.reuse-source-enabled' = 'false';
[INFO] Execute statement succeeded.
!info

# riffle-only: EXPLAIN text: Riffle plans are its own
EXPLAIN SELECT word FROM MyTable1 WHERE `count` > 10 UNION ALL SELECT word FROM MyTable1 WHERE `count` < 0;
== Abstract Syntax Tree ==
LogicalUnion(all=[true])
:- LogicalProject(word=[$1])
:  +- LogicalFilter(condition=[>($0, 10)])
:     +- LogicalTableScan(table=[[default_catalog, default_database, MyTable1]])
+- LogicalProject(word=[$1])
   +- LogicalFilter(condition=[<($0, 0)])
      +- LogicalTableScan(table=[[default_catalog, default_database, MyTable1]])

== Optimized Physical Plan ==
Union(all=[true], union=[word])
:- Calc(select=[word], where=[>(count, 10)])
:  +- TableSourceScan(table=[[default_catalog, default_database, MyTable1]], fields=[count, word])
+- Calc(select=[word], where=[<(count, 0)])
   +- TableSourceScan(table=[[default_catalog, default_database, MyTable1]], fields=[count, word])

== Optimized Execution Plan ==
Union(all=[true], union=[word])
:- Calc(select=[word], where=[(count > 10)])
:  +- TableSourceScan(table=[[default_catalog, default_database, MyTable1]], fields=[count, word])
+- Calc(select=[word], where=[(count < 0)])
   +- TableSourceScan(table=[[default_catalog, default_database, MyTable1]], fields=[count, word])
!ok

# the equal subtrees above the scans are still one node (SubplanReuser only
# keeps scans, and exchanges of scans, apart)
# riffle-only: EXPLAIN text: Riffle plans are its own
EXPLAIN SELECT word FROM MyTable1 WHERE `count` > 10 UNION ALL SELECT word FROM MyTable1 WHERE `count` > 10;
== Abstract Syntax Tree ==
LogicalUnion(all=[true])
:- LogicalProject(word=[$1])
:  +- LogicalFilter(condition=[>($0, 10)])
:     +- LogicalTableScan(table=[[default_catalog, default_database, MyTable1]])
+- LogicalProject(word=[$1])
   +- LogicalFilter(condition=[>($0, 10)])
      +- LogicalTableScan(table=[[default_catalog, default_database, MyTable1]])

== Optimized Physical Plan ==
Union(all=[true], union=[word])
:- Calc(select=[word], where=[>(count, 10)])
:  +- TableSourceScan(table=[[default_catalog, default_database, MyTable1]], fields=[count, word])
+- Calc(select=[word], where=[>(count, 10)])
   +- TableSourceScan(table=[[default_catalog, default_database, MyTable1]], fields=[count, word])

== Optimized Execution Plan ==
Union(all=[true], union=[word])
:- Calc(select=[word], where=[(count > 10)])(reuse_id=[1])
:  +- TableSourceScan(table=[[default_catalog, default_database, MyTable1]], fields=[count, word])
+- Reused(reference_id=[1])
!ok

# table.optimizer.reuse-sub-plan-enabled = false: nothing is reused
SET 'table.optimizer.reuse-source-enabled' = 'true';
[INFO] Execute statement succeeded.
!info
SET 'table.optimizer.reuse-sub-plan-enabled' = 'false';
[INFO] Execute statement succeeded.
!info

# riffle-only: EXPLAIN text: Riffle plans are its own
EXPLAIN SELECT word FROM MyTable1 WHERE `count` > 10 UNION ALL SELECT word FROM MyTable1 WHERE `count` < 0;
== Abstract Syntax Tree ==
LogicalUnion(all=[true])
:- LogicalProject(word=[$1])
:  +- LogicalFilter(condition=[>($0, 10)])
:     +- LogicalTableScan(table=[[default_catalog, default_database, MyTable1]])
+- LogicalProject(word=[$1])
   +- LogicalFilter(condition=[<($0, 0)])
      +- LogicalTableScan(table=[[default_catalog, default_database, MyTable1]])

== Optimized Physical Plan ==
Union(all=[true], union=[word])
:- Calc(select=[word], where=[>(count, 10)])
:  +- TableSourceScan(table=[[default_catalog, default_database, MyTable1]], fields=[count, word])
+- Calc(select=[word], where=[<(count, 0)])
   +- TableSourceScan(table=[[default_catalog, default_database, MyTable1]], fields=[count, word])

== Optimized Execution Plan ==
Union(all=[true], union=[word])
:- Calc(select=[word], where=[(count > 10)])
:  +- TableSourceScan(table=[[default_catalog, default_database, MyTable1]], fields=[count, word])
+- Calc(select=[word], where=[(count < 0)])
   +- TableSourceScan(table=[[default_catalog, default_database, MyTable1]], fields=[count, word])
!ok

# a value that is not a boolean is refused when it is set
# riffle-only: Flink's SET keeps the text and fails where the option is read
SET 'table.optimizer.reuse-sub-plan-enabled' = 'yes';
[ERROR] Could not execute SQL statement. Reason:
Could not parse value 'yes' for key 'table.optimizer.reuse-sub-plan-enabled' (expected true or false).
!error
