# changelog_normalize.q - CDC sources in the planner (Flink's
# StreamPhysicalChangelogNormalize, StreamPhysicalDropUpdateBefore,
# FlinkChangelogModeInferenceProgram; docs: connectors/table/formats/
# debezium.md "Duplicate change events", config.md
# table.exec.source.cdc-events-duplicate). changelog/orders_dup.json is a
# debezium-json file whose events repeat as an at-least-once pipeline
# delivers them: order 1 inserted twice and paid twice, order 2 deleted
# twice, order 3 raised, order 4 read by a snapshot.

CREATE TABLE orders (order_id INT, customer STRING, amount DECIMAL(10, 2), status STRING, PRIMARY KEY (order_id) NOT ENFORCED)
WITH ('connector' = 'filesystem', 'path' = '${TESTDATA}/changelog/orders_dup.json', 'format' = 'debezium-json');
[INFO] Execute statement succeeded.
!info

CREATE TABLE hole_pk (order_id INT, customer STRING, amount DECIMAL(10, 2), status STRING, PRIMARY KEY (order_id) NOT ENFORCED)
WITH ('connector' = 'blackhole');
[INFO] Execute statement succeeded.
!info

# Without 'table.exec.source.cdc-events-duplicate' the changelog is read
# as it is, duplicates included.
SELECT * FROM orders;
+----+-------------+--------------------------------+--------------+--------------------------------+
| op |    order_id |                       customer |       amount |                         status |
+----+-------------+--------------------------------+--------------+--------------------------------+
| +I |           1 |                          alice |        10.50 |                            NEW |
| +I |           2 |                            bob |        20.00 |                            NEW |
| +I |           1 |                          alice |        10.50 |                            NEW |
| -U |           1 |                          alice |        10.50 |                            NEW |
| +U |           1 |                          alice |        10.50 |                           PAID |
| -U |           1 |                          alice |        10.50 |                            NEW |
| +U |           1 |                          alice |        10.50 |                           PAID |
| +I |           3 |                          carol |         5.25 |                            NEW |
| -D |           2 |                            bob |        20.00 |                            NEW |
| -D |           2 |                            bob |        20.00 |                            NEW |
| -U |           3 |                          carol |         5.25 |                            NEW |
| +U |           3 |                          carol |         6.75 |                            NEW |
| +I |           4 |                           dave |       100.00 |                           PAID |
+----+-------------+--------------------------------+--------------+--------------------------------+
Received a total of 13 rows
!ok

# A retracting aggregation over it counts the duplicates.
SELECT status, COUNT(*) AS c, SUM(amount) AS total FROM orders GROUP BY status;
+----+--------------------------------+----------------------+------------------------------------------+
| op |                         status |                    c |                                    total |
+----+--------------------------------+----------------------+------------------------------------------+
| +I |                            NEW |                    1 |                                    10.50 |
| -U |                            NEW |                    1 |                                    10.50 |
| +U |                            NEW |                    2 |                                    30.50 |
| -U |                            NEW |                    2 |                                    30.50 |
| +U |                            NEW |                    3 |                                    41.00 |
| -U |                            NEW |                    3 |                                    41.00 |
| +U |                            NEW |                    2 |                                    30.50 |
| +I |                           PAID |                    1 |                                    10.50 |
| -U |                            NEW |                    2 |                                    30.50 |
| +U |                            NEW |                    1 |                                    20.00 |
| -U |                           PAID |                    1 |                                    10.50 |
| +U |                           PAID |                    2 |                                    21.00 |
| -U |                            NEW |                    1 |                                    20.00 |
| +U |                            NEW |                    2 |                                    25.25 |
| -U |                            NEW |                    2 |                                    25.25 |
| +U |                            NEW |                    1 |                                     5.25 |
| -D |                            NEW |                    1 |                                     5.25 |
| +I |                            NEW |                    1 |                                     6.75 |
| -U |                           PAID |                    2 |                                    21.00 |
| +U |                           PAID |                    3 |                                   121.00 |
+----+--------------------------------+----------------------+------------------------------------------+
Received a total of 20 rows
!ok

# MIN/MAX and COUNT(DISTINCT) retract over the changelog; a second level
# aggregates the first one's updates.
SELECT customer, MIN(amount) AS lo, MAX(amount) AS hi, COUNT(DISTINCT status) AS statuses FROM orders GROUP BY customer;
+----+--------------------------------+--------------+--------------+----------------------+
| op |                       customer |           lo |           hi |             statuses |
+----+--------------------------------+--------------+--------------+----------------------+
| +I |                          alice |        10.50 |        10.50 |                    1 |
| +I |                            bob |        20.00 |        20.00 |                    1 |
| -U |                          alice |        10.50 |        10.50 |                    1 |
| +U |                          alice |        10.50 |        10.50 |                    2 |
| -U |                          alice |        10.50 |        10.50 |                    2 |
| +U |                          alice |        10.50 |        10.50 |                    1 |
| +I |                          carol |         5.25 |         5.25 |                    1 |
| -D |                            bob |        20.00 |        20.00 |                    1 |
| -D |                          carol |         5.25 |         5.25 |                    1 |
| +I |                          carol |         6.75 |         6.75 |                    1 |
| +I |                           dave |       100.00 |       100.00 |                    1 |
+----+--------------------------------+--------------+--------------+----------------------+
Received a total of 11 rows
!ok

SELECT c, COUNT(*) AS n FROM (SELECT status, COUNT(*) AS c FROM orders GROUP BY status) GROUP BY c;
+----+----------------------+----------------------+
| op |                    c |                    n |
+----+----------------------+----------------------+
| +I |                    1 |                    1 |
| -D |                    1 |                    1 |
| +I |                    2 |                    1 |
| -D |                    2 |                    1 |
| +I |                    3 |                    1 |
| -D |                    3 |                    1 |
| +I |                    2 |                    1 |
| +I |                    1 |                    1 |
| -D |                    2 |                    1 |
| -U |                    1 |                    1 |
| +U |                    1 |                    2 |
| -U |                    1 |                    2 |
| +U |                    1 |                    1 |
| +I |                    2 |                    1 |
| -D |                    1 |                    1 |
| -U |                    2 |                    1 |
| +U |                    2 |                    2 |
| -U |                    2 |                    2 |
| +U |                    2 |                    1 |
| +I |                    1 |                    1 |
| -D |                    1 |                    1 |
| +I |                    1 |                    1 |
| -D |                    2 |                    1 |
| +I |                    3 |                    1 |
+----+----------------------+----------------------+
Received a total of 24 rows
!ok

# Top-N over the changelog (a retracting rank).
SELECT order_id, amount FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY status ORDER BY amount DESC) AS rn FROM orders)
WHERE rn = 1;
+----+-------------+--------------+
| op |    order_id |       amount |
+----+-------------+--------------+
| +I |           1 |        10.50 |
| -D |           1 |        10.50 |
| +I |           2 |        20.00 |
| +I |           1 |        10.50 |
| -D |           2 |        20.00 |
| +I |           3 |         5.25 |
| -D |           3 |         5.25 |
| +I |           3 |         6.75 |
| -D |           1 |        10.50 |
| +I |           4 |       100.00 |
+----+-------------+--------------+
Received a total of 10 rows
!ok

# A query is explained as if its consumer took upserts: the -U rows of the
# source are dropped at the root.
EXPLAIN CHANGELOG_MODE SELECT * FROM orders;
== Abstract Syntax Tree ==
LogicalProject(order_id=[$0], customer=[$1], amount=[$2], status=[$3])
+- LogicalTableScan(table=[[default_catalog, default_database, orders]])

== Optimized Physical Plan ==
DropUpdateBefore(changelogMode=[I,UA,D])
+- TableSourceScan(table=[[default_catalog, default_database, orders]], fields=[order_id, customer, amount, status], changelogMode=[I,UB,UA,D])

== Optimized Execution Plan ==
DropUpdateBefore
+- TableSourceScan(table=[[default_catalog, default_database, orders]], fields=[order_id, customer, amount, status])
!ok

# An upsert sink on the key gets no -U rows: DropUpdateBefore.
EXPLAIN CHANGELOG_MODE INSERT INTO hole_pk SELECT * FROM orders;
== Abstract Syntax Tree ==
LogicalSink(table=[default_catalog.default_database.hole_pk], fields=[order_id, customer, amount, status])
+- LogicalProject(order_id=[$0], customer=[$1], amount=[$2], status=[$3])
   +- LogicalTableScan(table=[[default_catalog, default_database, orders]])

== Optimized Physical Plan ==
Sink(table=[default_catalog.default_database.hole_pk], fields=[order_id, customer, amount, status], changelogMode=[NONE])
+- DropUpdateBefore(changelogMode=[I,UA,D])
   +- TableSourceScan(table=[[default_catalog, default_database, orders]], fields=[order_id, customer, amount, status], changelogMode=[I,UB,UA,D])

== Optimized Execution Plan ==
Sink(table=[default_catalog.default_database.hole_pk], fields=[order_id, customer, amount, status])
+- DropUpdateBefore
   +- TableSourceScan(table=[[default_catalog, default_database, orders]], fields=[order_id, customer, amount, status])
!ok

# A filter on the key keeps or drops all versions of a key alike, so the
# upserts pass it; another filter needs the -U rows.
# riffle-only: EXPLAIN text: Flink shows the filter offered to the filesystem source (filter=[...])
EXPLAIN CHANGELOG_MODE INSERT INTO hole_pk SELECT * FROM orders WHERE order_id > 1;
== Abstract Syntax Tree ==
LogicalSink(table=[default_catalog.default_database.hole_pk], fields=[order_id, customer, amount, status])
+- LogicalProject(order_id=[$0], customer=[$1], amount=[$2], status=[$3])
   +- LogicalFilter(condition=[>($0, 1)])
      +- LogicalTableScan(table=[[default_catalog, default_database, orders]])

== Optimized Physical Plan ==
Sink(table=[default_catalog.default_database.hole_pk], fields=[order_id, customer, amount, status], changelogMode=[NONE])
+- Calc(select=[order_id, customer, amount, status], where=[>(order_id, 1)], changelogMode=[I,UA,D])
   +- DropUpdateBefore(changelogMode=[I,UA,D])
      +- TableSourceScan(table=[[default_catalog, default_database, orders]], fields=[order_id, customer, amount, status], changelogMode=[I,UB,UA,D])

== Optimized Execution Plan ==
Sink(table=[default_catalog.default_database.hole_pk], fields=[order_id, customer, amount, status])
+- Calc(select=[order_id, customer, amount, status], where=[(order_id > 1)])
   +- DropUpdateBefore
      +- TableSourceScan(table=[[default_catalog, default_database, orders]], fields=[order_id, customer, amount, status])
!ok

# riffle-only: EXPLAIN text: Flink shows the filter offered to the filesystem source (filter=[...]) and prints the literal uncast (6)
EXPLAIN CHANGELOG_MODE INSERT INTO hole_pk SELECT * FROM orders WHERE amount > 6;
== Abstract Syntax Tree ==
LogicalSink(table=[default_catalog.default_database.hole_pk], fields=[order_id, customer, amount, status])
+- LogicalProject(order_id=[$0], customer=[$1], amount=[$2], status=[$3])
   +- LogicalFilter(condition=[>(CAST($2 AS DECIMAL(12, 2)), 6.00)])
      +- LogicalTableScan(table=[[default_catalog, default_database, orders]])

== Optimized Physical Plan ==
Sink(table=[default_catalog.default_database.hole_pk], fields=[order_id, customer, amount, status], changelogMode=[NONE])
+- Calc(select=[order_id, customer, amount, status], where=[>(CAST(amount AS DECIMAL(12, 2)), 6.00)], changelogMode=[I,UB,UA,D])
   +- TableSourceScan(table=[[default_catalog, default_database, orders]], fields=[order_id, customer, amount, status], changelogMode=[I,UB,UA,D])

== Optimized Execution Plan ==
Sink(table=[default_catalog.default_database.hole_pk], fields=[order_id, customer, amount, status])
+- Calc(select=[order_id, customer, amount, status], where=[(CAST(amount AS DECIMAL(12, 2)) > 6.00)])
   +- TableSourceScan(table=[[default_catalog, default_database, orders]], fields=[order_id, customer, amount, status])
!ok

# The primary key is the scan's upsert key (a sink keyed on it needs no
# materializer, see the plans above); written to a sink keyed on another
# column, or read from a table without a primary key, Flink 2.3 asks for
# ON CONFLICT.
CREATE TABLE hole_customer (customer STRING, order_id INT, amount DECIMAL(10, 2), status STRING, PRIMARY KEY (customer) NOT ENFORCED)
WITH ('connector' = 'blackhole');
[INFO] Execute statement succeeded.
!info

INSERT INTO hole_customer SELECT customer, order_id, amount, status FROM orders;
[ERROR] Could not execute SQL statement. Reason:
The query has an upsert key that differs from the primary key of the sink table 'default_catalog.default_database.hole_customer'. Primary key: [customer], upsert key: [order_id].
!error

CREATE TABLE orders_raw (order_id INT, customer STRING, amount DECIMAL(10, 2), status STRING)
WITH ('connector' = 'filesystem', 'path' = '${TESTDATA}/changelog/orders_dup.json', 'format' = 'debezium-json');
[INFO] Execute statement succeeded.
!info

INSERT INTO hole_pk SELECT * FROM orders_raw;
[ERROR] Could not execute SQL statement. Reason:
The query has an upsert key that differs from the primary key of the sink table 'default_catalog.default_database.hole_pk'. Primary key: [order_id], upsert key: none.
!error

SET 'table.exec.source.cdc-events-duplicate' = 'true';
[INFO] Execute statement succeeded.
!info

# Now the source is normalized on its primary key: repeated events are
# dropped, and -U/-D carry the row kept for the key.
SELECT * FROM orders;
+----+-------------+--------------------------------+--------------+--------------------------------+
| op |    order_id |                       customer |       amount |                         status |
+----+-------------+--------------------------------+--------------+--------------------------------+
| +I |           1 |                          alice |        10.50 |                            NEW |
| +I |           2 |                            bob |        20.00 |                            NEW |
| -U |           1 |                          alice |        10.50 |                            NEW |
| +U |           1 |                          alice |        10.50 |                           PAID |
| +I |           3 |                          carol |         5.25 |                            NEW |
| -D |           2 |                            bob |        20.00 |                            NEW |
| -U |           3 |                          carol |         5.25 |                            NEW |
| +U |           3 |                          carol |         6.75 |                            NEW |
| +I |           4 |                           dave |       100.00 |                           PAID |
+----+-------------+--------------------------------+--------------+--------------------------------+
Received a total of 9 rows
!ok

EXPLAIN CHANGELOG_MODE SELECT * FROM orders;
== Abstract Syntax Tree ==
LogicalProject(order_id=[$0], customer=[$1], amount=[$2], status=[$3])
+- LogicalTableScan(table=[[default_catalog, default_database, orders]])

== Optimized Physical Plan ==
ChangelogNormalize(key=[order_id], changelogMode=[I,UA,D])
+- Exchange(distribution=[hash[order_id]], changelogMode=[I,UA,D])
   +- DropUpdateBefore(changelogMode=[I,UA,D])
      +- TableSourceScan(table=[[default_catalog, default_database, orders]], fields=[order_id, customer, amount, status], changelogMode=[I,UB,UA,D])

== Optimized Execution Plan ==
ChangelogNormalize(key=[order_id])
+- Exchange(distribution=[hash[order_id]])
   +- DropUpdateBefore
      +- TableSourceScan(table=[[default_catalog, default_database, orders]], fields=[order_id, customer, amount, status])
!ok

# A filter on other columns goes into the ChangelogNormalize (a row that
# stops matching is deleted), one on the key below its exchange.
SELECT order_id, amount FROM orders WHERE amount > 6;
+----+-------------+--------------+
| op |    order_id |       amount |
+----+-------------+--------------+
| +I |           1 |        10.50 |
| +I |           2 |        20.00 |
| -D |           2 |        20.00 |
| +I |           3 |         6.75 |
| +I |           4 |       100.00 |
+----+-------------+--------------+
Received a total of 5 rows
!ok

SELECT order_id, status FROM orders WHERE order_id > 1 AND amount > 6;
+----+-------------+--------------------------------+
| op |    order_id |                         status |
+----+-------------+--------------------------------+
| +I |           2 |                            NEW |
| -D |           2 |                            NEW |
| +I |           3 |                            NEW |
| +I |           4 |                           PAID |
+----+-------------+--------------------------------+
Received a total of 4 rows
!ok

# riffle-only: EXPLAIN text: Flink shows the filter offered to the filesystem source (filter=[...]) and prints the literal uncast (6)
EXPLAIN CHANGELOG_MODE SELECT order_id, status FROM orders WHERE order_id > 1 AND amount > 6;
== Abstract Syntax Tree ==
LogicalProject(order_id=[$0], status=[$3])
+- LogicalFilter(condition=[AND(>($0, 1), >(CAST($2 AS DECIMAL(12, 2)), 6.00))])
   +- LogicalTableScan(table=[[default_catalog, default_database, orders]])

== Optimized Physical Plan ==
Calc(select=[order_id, status], changelogMode=[I,UA,D])
+- ChangelogNormalize(key=[order_id], condition=[>(CAST(amount AS DECIMAL(12, 2)), 6.00)], changelogMode=[I,UA,D])
   +- Exchange(distribution=[hash[order_id]], changelogMode=[I,UA,D])
      +- Calc(select=[order_id, amount, status], where=[>(order_id, 1)], changelogMode=[I,UA,D])
         +- DropUpdateBefore(changelogMode=[I,UA,D])
            +- TableSourceScan(table=[[default_catalog, default_database, orders, project=[order_id, amount, status]]], fields=[order_id, amount, status], changelogMode=[I,UB,UA,D])

== Optimized Execution Plan ==
Calc(select=[order_id, status])
+- ChangelogNormalize(key=[order_id], condition=[(CAST(amount AS DECIMAL(12, 2)) > 6.00)])
   +- Exchange(distribution=[hash[order_id]])
      +- Calc(select=[order_id, amount, status], where=[(order_id > 1)])
         +- DropUpdateBefore
            +- TableSourceScan(table=[[default_catalog, default_database, orders, project=[order_id, amount, status]]], fields=[order_id, amount, status])
!ok

SELECT status, COUNT(*) AS c, SUM(amount) AS total FROM orders GROUP BY status;
+----+--------------------------------+----------------------+------------------------------------------+
| op |                         status |                    c |                                    total |
+----+--------------------------------+----------------------+------------------------------------------+
| +I |                            NEW |                    1 |                                    10.50 |
| -U |                            NEW |                    1 |                                    10.50 |
| +U |                            NEW |                    2 |                                    30.50 |
| -U |                            NEW |                    2 |                                    30.50 |
| +U |                            NEW |                    1 |                                    20.00 |
| +I |                           PAID |                    1 |                                    10.50 |
| -U |                            NEW |                    1 |                                    20.00 |
| +U |                            NEW |                    2 |                                    25.25 |
| -U |                            NEW |                    2 |                                    25.25 |
| +U |                            NEW |                    1 |                                     5.25 |
| -D |                            NEW |                    1 |                                     5.25 |
| +I |                            NEW |                    1 |                                     6.75 |
| -U |                           PAID |                    1 |                                    10.50 |
| +U |                           PAID |                    2 |                                   110.50 |
+----+--------------------------------+----------------------+------------------------------------------+
Received a total of 14 rows
!ok

SELECT customer, MIN(amount) AS lo, MAX(amount) AS hi, COUNT(DISTINCT status) AS statuses FROM orders GROUP BY customer;
+----+--------------------------------+--------------+--------------+----------------------+
| op |                       customer |           lo |           hi |             statuses |
+----+--------------------------------+--------------+--------------+----------------------+
| +I |                          alice |        10.50 |        10.50 |                    1 |
| +I |                            bob |        20.00 |        20.00 |                    1 |
| -D |                          alice |        10.50 |        10.50 |                    1 |
| +I |                          alice |        10.50 |        10.50 |                    1 |
| +I |                          carol |         5.25 |         5.25 |                    1 |
| -D |                            bob |        20.00 |        20.00 |                    1 |
| -D |                          carol |         5.25 |         5.25 |                    1 |
| +I |                          carol |         6.75 |         6.75 |                    1 |
| +I |                           dave |       100.00 |       100.00 |                    1 |
+----+--------------------------------+--------------+--------------+----------------------+
Received a total of 9 rows
!ok

SELECT order_id, amount FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY status ORDER BY amount DESC) AS rn FROM orders)
WHERE rn = 1;
+----+-------------+--------------+
| op |    order_id |       amount |
+----+-------------+--------------+
| +I |           1 |        10.50 |
| -D |           1 |        10.50 |
| +I |           2 |        20.00 |
| +I |           1 |        10.50 |
| -D |           2 |        20.00 |
| +I |           3 |         5.25 |
| -D |           3 |         5.25 |
| +I |           3 |         6.75 |
| -D |           1 |        10.50 |
| +I |           4 |       100.00 |
+----+-------------+--------------+
Received a total of 10 rows
!ok

# The key column is read even when the query does not select it; an
# aggregate needs the -U rows of the normalize.
# riffle-only: EXPLAIN text: Flink names COUNT_RETRACT, plans without the Calc above the aggregate and shows metadata=[] in the scan
EXPLAIN CHANGELOG_MODE SELECT status, COUNT(*) AS c FROM orders GROUP BY status;
== Abstract Syntax Tree ==
LogicalProject(status=[$0], c=[$1])
+- LogicalAggregate(group=[{0}], EXPR$1=[COUNT()])
   +- LogicalProject(status=[$3])
      +- LogicalTableScan(table=[[default_catalog, default_database, orders]])

== Optimized Physical Plan ==
Calc(select=[status, EXPR$1], changelogMode=[I,UA,D])
+- GroupAggregate(groupBy=[status], select=[status, COUNT(*) AS EXPR$1], changelogMode=[I,UA,D])
   +- Exchange(distribution=[hash[status]], changelogMode=[I,UB,UA,D])
      +- Calc(select=[status], changelogMode=[I,UB,UA,D])
         +- ChangelogNormalize(key=[order_id], changelogMode=[I,UB,UA,D])
            +- Exchange(distribution=[hash[order_id]], changelogMode=[I,UA,D])
               +- DropUpdateBefore(changelogMode=[I,UA,D])
                  +- TableSourceScan(table=[[default_catalog, default_database, orders, project=[status, order_id]]], fields=[status, order_id], changelogMode=[I,UB,UA,D])

== Optimized Execution Plan ==
Calc(select=[status, EXPR$1])
+- GroupAggregate(groupBy=[status], select=[status, COUNT(*) AS EXPR$1])
   +- Exchange(distribution=[hash[status]])
      +- Calc(select=[status])
         +- ChangelogNormalize(key=[order_id])
            +- Exchange(distribution=[hash[order_id]])
               +- DropUpdateBefore
                  +- TableSourceScan(table=[[default_catalog, default_database, orders, project=[status, order_id]]], fields=[status, order_id])
!ok

EXPLAIN CHANGELOG_MODE INSERT INTO hole_pk SELECT * FROM orders;
== Abstract Syntax Tree ==
LogicalSink(table=[default_catalog.default_database.hole_pk], fields=[order_id, customer, amount, status])
+- LogicalProject(order_id=[$0], customer=[$1], amount=[$2], status=[$3])
   +- LogicalTableScan(table=[[default_catalog, default_database, orders]])

== Optimized Physical Plan ==
Sink(table=[default_catalog.default_database.hole_pk], fields=[order_id, customer, amount, status], changelogMode=[NONE])
+- ChangelogNormalize(key=[order_id], changelogMode=[I,UA,D])
   +- Exchange(distribution=[hash[order_id]], changelogMode=[I,UA,D])
      +- DropUpdateBefore(changelogMode=[I,UA,D])
         +- TableSourceScan(table=[[default_catalog, default_database, orders]], fields=[order_id, customer, amount, status], changelogMode=[I,UB,UA,D])

== Optimized Execution Plan ==
Sink(table=[default_catalog.default_database.hole_pk], fields=[order_id, customer, amount, status])
+- ChangelogNormalize(key=[order_id])
   +- Exchange(distribution=[hash[order_id]])
      +- DropUpdateBefore
         +- TableSourceScan(table=[[default_catalog, default_database, orders]], fields=[order_id, customer, amount, status])
!ok

CREATE TABLE orders_nopk (order_id INT, customer STRING, amount DECIMAL(10, 2), status STRING)
WITH ('connector' = 'filesystem', 'path' = '${TESTDATA}/changelog/orders_dup.json', 'format' = 'debezium-json');
[INFO] Execute statement succeeded.
!info

SELECT * FROM orders_nopk;
[ERROR] Could not execute SQL statement. Reason:
Configuration 'table.exec.source.cdc-events-duplicate' is enabled which requires the changelog sources to define a PRIMARY KEY. However, table 'default_catalog.default_database.orders_nopk' doesn't have a primary key.
!error

SET 'table.exec.source.cdc-events-duplicate' = 'false';
[INFO] Execute statement succeeded.
!info

SET 'execution.runtime-mode' = 'batch';
[INFO] Execute statement succeeded.
!info

SELECT * FROM orders;
[ERROR] Could not execute SQL statement. Reason:
Querying a table in batch mode is currently only possible for INSERT-only table sources. But the source for table 'default_catalog.default_database.orders' produces other changelog messages than just INSERT.
!error
