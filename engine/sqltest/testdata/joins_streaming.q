# joins_streaming.q - regular and interval joins in streaming mode
# (Flink's docs/dev/table/sql/queries/joins.md). Which input a join reads
# first depends on timing, so row order (and, for outer joins, whether a
# NULL-padded row is emitted and retracted first) is not defined: the
# exact changelogs of the regular join are checked by the operator tests
# in engine/internal/runtime; here results are compared without order.

SET 'pipeline.auto-watermark-interval' = '0';
[INFO] Execute statement succeeded.
!info

CREATE TABLE orders (
  ts TIMESTAMP(3), id STRING, item STRING,
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${TESTDATA}/orders_ooo.csv', 'format' = 'csv');
[INFO] Execute statement succeeded.
!info

CREATE TABLE shipments (
  sts TIMESTAMP(3), oid STRING,
  WATERMARK FOR sts AS sts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${TESTDATA}/shipments.csv', 'format' = 'csv');
[INFO] Execute statement succeeded.
!info

SELECT o.id, o.item, s.sts FROM orders o JOIN shipments s ON o.id = s.oid;
+----+--------------------------------+--------------------------------+-------------------------+
| op |                             id |                           item |                     sts |
+----+--------------------------------+--------------------------------+-------------------------+
| +I |                             o1 |                              A | 2024-03-01 10:00:05.000 |
| +I |                             o2 |                              B | 2024-03-01 10:00:20.000 |
| +I |                             o3 |                              A | 2024-03-01 10:00:09.000 |
+----+--------------------------------+--------------------------------+-------------------------+
Received a total of 3 rows
!unordered

# An interval join: shipped within 10 seconds of the order (insert-only).
# riffle-only: event-time semantics: with periodic watermarks Flink drops o3 as late in the interval join
SELECT o.id, o.ts, s.sts
FROM orders o JOIN shipments s
ON o.id = s.oid AND s.sts BETWEEN o.ts AND o.ts + INTERVAL '10' SECOND;
+----+--------------------------------+-------------------------+-------------------------+
| op |                             id |                      ts |                     sts |
+----+--------------------------------+-------------------------+-------------------------+
| +I |                             o1 | 2024-03-01 10:00:00.000 | 2024-03-01 10:00:05.000 |
| +I |                             o3 | 2024-03-01 10:00:07.000 | 2024-03-01 10:00:09.000 |
+----+--------------------------------+-------------------------+-------------------------+
Received a total of 2 rows
!unordered

# Orders never shipped in time come out NULL-padded when they expire.
# riffle-only: event-time semantics: with periodic watermarks Flink drops o3 as late in the interval join
SELECT o.id, o.ts, s.sts
FROM orders o LEFT JOIN shipments s
ON o.id = s.oid AND s.sts BETWEEN o.ts AND o.ts + INTERVAL '10' SECOND;
+----+--------------------------------+-------------------------+-------------------------+
| op |                             id |                      ts |                     sts |
+----+--------------------------------+-------------------------+-------------------------+
| +I |                             o1 | 2024-03-01 10:00:00.000 | 2024-03-01 10:00:05.000 |
| +I |                             o3 | 2024-03-01 10:00:07.000 | 2024-03-01 10:00:09.000 |
| +I |                             o2 | 2024-03-01 10:00:02.000 |                  <NULL> |
| +I |                             o4 | 2024-03-01 10:00:30.000 |                  <NULL> |
+----+--------------------------------+-------------------------+-------------------------+
Received a total of 4 rows
!unordered

# riffle-only: EXPLAIN text: Riffle plans are its own
EXPLAIN CHANGELOG_MODE
SELECT o.id, s.sts FROM orders o JOIN shipments s
ON o.id = s.oid AND s.sts BETWEEN o.ts - INTERVAL '1' SECOND AND o.ts + INTERVAL '10' SECOND;
== Abstract Syntax Tree ==
LogicalProject(id=[$1], sts=[$3])
+- LogicalJoin(condition=[AND(=($1, $4), AND(>=($3, -($0, 1000:INTERVAL SECOND)), <=($3, +($0, 10000:INTERVAL SECOND))))], joinType=[inner])
   :- LogicalWatermarkAssigner(rowtime=[ts], watermark=[-($0, 1000:INTERVAL SECOND)])
   :  +- LogicalProject(ts=[$0], id=[$1], item=[$2])
   :     +- LogicalTableScan(table=[[default_catalog, default_database, orders]])
   +- LogicalWatermarkAssigner(rowtime=[sts], watermark=[-($0, 1000:INTERVAL SECOND)])
      +- LogicalProject(sts=[$0], oid=[$1])
         +- LogicalTableScan(table=[[default_catalog, default_database, shipments]])

== Optimized Physical Plan ==
Calc(select=[id, sts], changelogMode=[I])
+- IntervalJoin(joinType=[InnerJoin], windowBounds=[isRowTime=true, leftLowerBound=-10000, leftUpperBound=1000, leftTimeIndex=0, rightTimeIndex=0], where=[AND(>=(sts, -(ts, 1000:INTERVAL SECOND)), <=(sts, +(ts, 10000:INTERVAL SECOND)))], select=[ts, id, sts, oid], changelogMode=[I])
   :- Exchange(distribution=[hash[id]], changelogMode=[I])
   :  +- WatermarkAssigner(rowtime=[ts], watermark=[-(ts, 1000:INTERVAL SECOND)], changelogMode=[I])
   :     +- TableSourceScan(table=[[default_catalog, default_database, orders, project=[ts, id]]], fields=[ts, id], changelogMode=[I])
   +- Exchange(distribution=[hash[oid]], changelogMode=[I])
      +- WatermarkAssigner(rowtime=[sts], watermark=[-(sts, 1000:INTERVAL SECOND)], changelogMode=[I])
         +- TableSourceScan(table=[[default_catalog, default_database, shipments]], fields=[sts, oid], changelogMode=[I])

== Optimized Execution Plan ==
Calc(select=[id, sts])
+- IntervalJoin(joinType=[InnerJoin], windowBounds=[isRowTime=true, leftLowerBound=-10000, leftUpperBound=1000, leftTimeIndex=0, rightTimeIndex=0], where=[((sts >= (ts - 1000:INTERVAL SECOND)) AND (sts <= (ts + 10000:INTERVAL SECOND)))], select=[ts, id, sts, oid])
   :- Exchange(distribution=[hash[id]])
   :  +- WatermarkAssigner(rowtime=[ts], watermark=[(ts - 1000:INTERVAL SECOND)])
   :     +- TableSourceScan(table=[[default_catalog, default_database, orders, project=[ts, id]]], fields=[ts, id])
   +- Exchange(distribution=[hash[oid]])
      +- WatermarkAssigner(rowtime=[sts], watermark=[(sts - 1000:INTERVAL SECOND)])
         +- TableSourceScan(table=[[default_catalog, default_database, shipments]], fields=[sts, oid])
!ok

# riffle-only: EXPLAIN text: Riffle plans are its own
EXPLAIN CHANGELOG_MODE
SELECT o.id, s.sts FROM orders o LEFT JOIN shipments s ON o.id = s.oid;
== Abstract Syntax Tree ==
LogicalProject(id=[$1], sts=[$3])
+- LogicalJoin(condition=[=($1, $4)], joinType=[left])
   :- LogicalWatermarkAssigner(rowtime=[ts], watermark=[-($0, 1000:INTERVAL SECOND)])
   :  +- LogicalProject(ts=[$0], id=[$1], item=[$2])
   :     +- LogicalTableScan(table=[[default_catalog, default_database, orders]])
   +- LogicalWatermarkAssigner(rowtime=[sts], watermark=[-($0, 1000:INTERVAL SECOND)])
      +- LogicalProject(sts=[$0], oid=[$1])
         +- LogicalTableScan(table=[[default_catalog, default_database, shipments]])

== Optimized Physical Plan ==
Calc(select=[id, sts], changelogMode=[I,UB,UA,D])
+- Join(joinType=[LeftOuterJoin], where=[=(id, oid)], select=[ts, id, sts, oid], leftInputSpec=[NoUniqueKey], rightInputSpec=[NoUniqueKey], changelogMode=[I,UB,UA,D])
   :- Exchange(distribution=[hash[id]], changelogMode=[I])
   :  +- WatermarkAssigner(rowtime=[ts], watermark=[-(ts, 1000:INTERVAL SECOND)], changelogMode=[I])
   :     +- TableSourceScan(table=[[default_catalog, default_database, orders, project=[ts, id]]], fields=[ts, id], changelogMode=[I])
   +- Exchange(distribution=[hash[oid]], changelogMode=[I])
      +- WatermarkAssigner(rowtime=[sts], watermark=[-(sts, 1000:INTERVAL SECOND)], changelogMode=[I])
         +- TableSourceScan(table=[[default_catalog, default_database, shipments]], fields=[sts, oid], changelogMode=[I])

== Optimized Execution Plan ==
Calc(select=[id, sts])
+- Join(joinType=[LeftOuterJoin], where=[(id = oid)], select=[ts, id, sts, oid], leftInputSpec=[NoUniqueKey], rightInputSpec=[NoUniqueKey])
   :- Exchange(distribution=[hash[id]])
   :  +- WatermarkAssigner(rowtime=[ts], watermark=[(ts - 1000:INTERVAL SECOND)])
   :     +- TableSourceScan(table=[[default_catalog, default_database, orders, project=[ts, id]]], fields=[ts, id])
   +- Exchange(distribution=[hash[oid]])
      +- WatermarkAssigner(rowtime=[sts], watermark=[(sts - 1000:INTERVAL SECOND)])
         +- TableSourceScan(table=[[default_catalog, default_database, shipments]], fields=[sts, oid])
!ok

SET 'parallelism.default' = '4';
[INFO] Execute statement succeeded.
!info

# riffle-only: event-time semantics: whether Flink drops o3 as late in this interval join depends on when its periodic watermarks fire (varies from run to run)
SELECT o.id, o.ts, s.sts
FROM orders o JOIN shipments s
ON o.id = s.oid AND s.sts BETWEEN o.ts AND o.ts + INTERVAL '10' SECOND;
+----+--------------------------------+-------------------------+-------------------------+
| op |                             id |                      ts |                     sts |
+----+--------------------------------+-------------------------+-------------------------+
| +I |                             o1 | 2024-03-01 10:00:00.000 | 2024-03-01 10:00:05.000 |
| +I |                             o3 | 2024-03-01 10:00:07.000 | 2024-03-01 10:00:09.000 |
+----+--------------------------------+-------------------------+-------------------------+
Received a total of 2 rows
!unordered

SET 'parallelism.default' = '1';
[INFO] Execute statement succeeded.
!info

# A window join: rows of the same 10-second windows, emitted when the
# window closes (window-join.md). The out-of-order shipment o3 is left
# out: whether it is late depends on how far the other input got.
SELECT o.id, o.item, s.sts, o.window_start
FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(ts), INTERVAL '10' SECOND)) o
JOIN (SELECT * FROM TABLE(TUMBLE(TABLE shipments, DESCRIPTOR(sts), INTERVAL '10' SECOND)) WHERE oid <> 'o3') s
ON o.id = s.oid AND o.window_start = s.window_start AND o.window_end = s.window_end;
+----+--------------------------------+--------------------------------+-------------------------+-------------------------+
| op |                             id |                           item |                     sts |            window_start |
+----+--------------------------------+--------------------------------+-------------------------+-------------------------+
| +I |                             o1 |                              A | 2024-03-01 10:00:05.000 | 2024-03-01 10:00:00.000 |
+----+--------------------------------+--------------------------------+-------------------------+-------------------------+
Received a total of 1 row
!unordered

SELECT o.id, s.oid, COALESCE(o.window_start, s.window_start) AS w
FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(ts), INTERVAL '10' SECOND)) o
FULL JOIN (SELECT * FROM TABLE(TUMBLE(TABLE shipments, DESCRIPTOR(sts), INTERVAL '10' SECOND)) WHERE oid <> 'o3') s
ON o.id = s.oid AND o.window_start = s.window_start AND o.window_end = s.window_end;
+----+--------------------------------+--------------------------------+-------------------------+
| op |                             id |                            oid |                       w |
+----+--------------------------------+--------------------------------+-------------------------+
| +I |                             o1 |                             o1 | 2024-03-01 10:00:00.000 |
| +I |                             o2 |                         <NULL> | 2024-03-01 10:00:00.000 |
| +I |                             o3 |                         <NULL> | 2024-03-01 10:00:00.000 |
| +I |                         <NULL> |                             o2 | 2024-03-01 10:00:20.000 |
| +I |                             o4 |                         <NULL> | 2024-03-01 10:00:30.000 |
| +I |                         <NULL> |                             o5 | 2024-03-01 10:00:40.000 |
+----+--------------------------------+--------------------------------+-------------------------+
Received a total of 6 rows
!unordered

# Window aggregates joined window by window (Nexmark q8's shape).
# riffle-only: EXPLAIN text: Riffle plans are its own
EXPLAIN
SELECT o.item, o.cnt, s.cnt
FROM (SELECT item, window_start, window_end, COUNT(*) AS cnt
      FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY item, window_start, window_end) o
JOIN (SELECT oid, window_start, window_end, COUNT(*) AS cnt
      FROM TABLE(TUMBLE(TABLE shipments, DESCRIPTOR(sts), INTERVAL '10' SECOND)) GROUP BY oid, window_start, window_end) s
ON o.item = s.oid AND o.window_start = s.window_start AND o.window_end = s.window_end;
== Abstract Syntax Tree ==
LogicalProject(item=[$0], cnt=[$3], cnt0=[$7])
+- LogicalJoin(condition=[AND(=($0, $4), =($1, $5), =($2, $6))], joinType=[inner])
   :- LogicalProject(item=[$0], window_start=[$1], window_end=[$2], cnt=[$3])
   :  +- LogicalAggregate(group=[{0, 1, 2}], EXPR$3=[COUNT()])
   :     +- LogicalProject(item=[$2], window_start=[$3], window_end=[$4])
   :        +- LogicalTableFunctionScan(invocation=[TUMBLE(DESCRIPTOR($0), 10000:INTERVAL SECOND)], rowType=[RecordType(TIMESTAMP(3) ts, STRING id, STRING item, TIMESTAMP(3) NOT NULL window_start, TIMESTAMP(3) NOT NULL window_end, TIMESTAMP(3) NOT NULL *ROWTIME* window_time)])
   :           +- LogicalWatermarkAssigner(rowtime=[ts], watermark=[-($0, 1000:INTERVAL SECOND)])
   :              +- LogicalProject(ts=[$0], id=[$1], item=[$2])
   :                 +- LogicalTableScan(table=[[default_catalog, default_database, orders]])
   +- LogicalProject(oid=[$0], window_start=[$1], window_end=[$2], cnt=[$3])
      +- LogicalAggregate(group=[{0, 1, 2}], EXPR$3=[COUNT()])
         +- LogicalProject(oid=[$1], window_start=[$2], window_end=[$3])
            +- LogicalTableFunctionScan(invocation=[TUMBLE(DESCRIPTOR($0), 10000:INTERVAL SECOND)], rowType=[RecordType(TIMESTAMP(3) sts, STRING oid, TIMESTAMP(3) NOT NULL window_start, TIMESTAMP(3) NOT NULL window_end, TIMESTAMP(3) NOT NULL *ROWTIME* window_time)])
               +- LogicalWatermarkAssigner(rowtime=[sts], watermark=[-($0, 1000:INTERVAL SECOND)])
                  +- LogicalProject(sts=[$0], oid=[$1])
                     +- LogicalTableScan(table=[[default_catalog, default_database, shipments]])

== Optimized Physical Plan ==
Calc(select=[item, cnt, cnt AS cnt0])
+- WindowJoin(leftWindow=[TUMBLE(win_start=[window_start], win_end=[window_end], size=[10 s])], rightWindow=[TUMBLE(win_start=[window_start], win_end=[window_end], size=[10 s])], joinType=[InnerJoin], where=[=(item, oid)], select=[item, window_start, window_end, cnt, oid, window_start, window_end, cnt])
   :- Exchange(distribution=[hash[item]])
   :  +- Calc(select=[item, window_start, window_end, EXPR$3 AS cnt])
   :     +- WindowAggregate(groupBy=[item], window=[TUMBLE(time_col=[ts], size=[10 s])], select=[item, COUNT(*) AS EXPR$3, start('w$) AS window_start, end('w$) AS window_end, rowtime('w$) AS window_time])
   :        +- Exchange(distribution=[hash[item]])
   :           +- Calc(select=[item, ts])
   :              +- WatermarkAssigner(rowtime=[ts], watermark=[-(ts, 1000:INTERVAL SECOND)])
   :                 +- TableSourceScan(table=[[default_catalog, default_database, orders, project=[ts, item]]], fields=[ts, item])
   +- Exchange(distribution=[hash[oid]])
      +- Calc(select=[oid, window_start, window_end, EXPR$3 AS cnt])
         +- WindowAggregate(groupBy=[oid], window=[TUMBLE(time_col=[sts], size=[10 s])], select=[oid, COUNT(*) AS EXPR$3, start('w$) AS window_start, end('w$) AS window_end, rowtime('w$) AS window_time])
            +- Exchange(distribution=[hash[oid]])
               +- Calc(select=[oid, sts])
                  +- WatermarkAssigner(rowtime=[sts], watermark=[-(sts, 1000:INTERVAL SECOND)])
                     +- TableSourceScan(table=[[default_catalog, default_database, shipments]], fields=[sts, oid])

== Optimized Execution Plan ==
Calc(select=[item, cnt, cnt AS cnt0])
+- WindowJoin(leftWindow=[TUMBLE(win_start=[window_start], win_end=[window_end], size=[10 s])], rightWindow=[TUMBLE(win_start=[window_start], win_end=[window_end], size=[10 s])], joinType=[InnerJoin], where=[(item = oid)], select=[item, window_start, window_end, cnt, oid, window_start, window_end, cnt])
   :- Exchange(distribution=[hash[item]])
   :  +- Calc(select=[item, window_start, window_end, EXPR$3 AS cnt])
   :     +- WindowAggregate(groupBy=[item], window=[TUMBLE(time_col=[ts], size=[10 s])], select=[item, COUNT(*) AS EXPR$3, start('w$) AS window_start, end('w$) AS window_end, rowtime('w$) AS window_time])
   :        +- Exchange(distribution=[hash[item]])
   :           +- Calc(select=[item, ts])
   :              +- WatermarkAssigner(rowtime=[ts], watermark=[(ts - 1000:INTERVAL SECOND)])
   :                 +- TableSourceScan(table=[[default_catalog, default_database, orders, project=[ts, item]]], fields=[ts, item])
   +- Exchange(distribution=[hash[oid]])
      +- Calc(select=[oid, window_start, window_end, EXPR$3 AS cnt])
         +- WindowAggregate(groupBy=[oid], window=[TUMBLE(time_col=[sts], size=[10 s])], select=[oid, COUNT(*) AS EXPR$3, start('w$) AS window_start, end('w$) AS window_end, rowtime('w$) AS window_time])
            +- Exchange(distribution=[hash[oid]])
               +- Calc(select=[oid, sts])
                  +- WatermarkAssigner(rowtime=[sts], watermark=[(sts - 1000:INTERVAL SECOND)])
                     +- TableSourceScan(table=[[default_catalog, default_database, shipments]], fields=[sts, oid])
!ok

# IN and EXISTS subqueries are semi / anti joins (StreamingSemiAntiJoinOperator).
# Whichever input comes first, each shipped order is emitted once.
SET 'parallelism.default' = '1';
[INFO] Execute statement succeeded.
!info

SELECT id, item FROM orders WHERE id IN (SELECT oid FROM shipments);
+----+--------------------------------+--------------------------------+
| op |                             id |                           item |
+----+--------------------------------+--------------------------------+
| +I |                             o1 |                              A |
| +I |                             o2 |                              B |
| +I |                             o3 |                              A |
+----+--------------------------------+--------------------------------+
Received a total of 3 rows
!unordered

# An anti join's changelog depends on which input comes first (an order
# may be emitted and then deleted when its shipment arrives): its plan.
# riffle-only: EXPLAIN text: Riffle plans are its own
EXPLAIN CHANGELOG_MODE SELECT id FROM orders o WHERE NOT EXISTS (SELECT 1 FROM shipments s WHERE s.oid = o.id);
== Abstract Syntax Tree ==
LogicalProject(id=[$1])
+- LogicalJoin(condition=[=($4, $1)], joinType=[anti])
   :- LogicalWatermarkAssigner(rowtime=[ts], watermark=[-($0, 1000:INTERVAL SECOND)])
   :  +- LogicalProject(ts=[$0], id=[$1], item=[$2])
   :     +- LogicalTableScan(table=[[default_catalog, default_database, orders]])
   +- LogicalProject(EXPR$0=[1], $corr0=[$1])
      +- LogicalWatermarkAssigner(rowtime=[sts], watermark=[-($0, 1000:INTERVAL SECOND)])
         +- LogicalProject(sts=[$0], oid=[$1])
            +- LogicalTableScan(table=[[default_catalog, default_database, shipments]])

== Optimized Physical Plan ==
Calc(select=[id], changelogMode=[I,UB,UA,D])
+- Join(joinType=[LeftAntiJoin], where=[=($corr0, id)], select=[ts, id], leftInputSpec=[NoUniqueKey], rightInputSpec=[NoUniqueKey], changelogMode=[I,UB,UA,D])
   :- Exchange(distribution=[hash[id]], changelogMode=[I])
   :  +- WatermarkAssigner(rowtime=[ts], watermark=[-(ts, 1000:INTERVAL SECOND)], changelogMode=[I])
   :     +- TableSourceScan(table=[[default_catalog, default_database, orders, project=[ts, id]]], fields=[ts, id], changelogMode=[I])
   +- Exchange(distribution=[hash[$corr0]], changelogMode=[I])
      +- Calc(select=[oid AS $corr0], changelogMode=[I])
         +- WatermarkAssigner(rowtime=[sts], watermark=[-(sts, 1000:INTERVAL SECOND)], changelogMode=[I])
            +- TableSourceScan(table=[[default_catalog, default_database, shipments]], fields=[sts, oid], changelogMode=[I])

== Optimized Execution Plan ==
Calc(select=[id])
+- Join(joinType=[LeftAntiJoin], where=[($corr0 = id)], select=[ts, id], leftInputSpec=[NoUniqueKey], rightInputSpec=[NoUniqueKey])
   :- Exchange(distribution=[hash[id]])
   :  +- WatermarkAssigner(rowtime=[ts], watermark=[(ts - 1000:INTERVAL SECOND)])
   :     +- TableSourceScan(table=[[default_catalog, default_database, orders, project=[ts, id]]], fields=[ts, id])
   +- Exchange(distribution=[hash[$corr0]])
      +- Calc(select=[oid AS $corr0])
         +- WatermarkAssigner(rowtime=[sts], watermark=[(sts - 1000:INTERVAL SECOND)])
            +- TableSourceScan(table=[[default_catalog, default_database, shipments]], fields=[sts, oid])
!ok
