# riffle-only-file: Flink's SQL Gateway in the interop tests has no flink-parquet on its class path
# pushdown_parquet.q - filters offered to a source that uses them only to
# skip data (the filesystem connector over Parquet files skips row groups
# by their statistics): EXPLAIN shows them in filter=[...] as Flink's
# PushFilterIntoTableSourceScanRule plans do, and the Calc keeps them
# since the source does not guarantee them (docs/pushdown.md).
# fruit_parquet/ holds one file written by Riffle's parquet format:
# (1, apple, 1.5), (2, banana, 2.5), (3, cherry, NULL), (4, NULL, 4.5),
# (5, avocado, 5.5).

SET 'execution.runtime-mode' = 'batch';
[INFO] Execute statement succeeded.
!info

CREATE TABLE fruit (id INT, name STRING, amount DOUBLE)
WITH ('connector' = 'filesystem', 'path' = '${TESTDATA}/fruit_parquet', 'format' = 'parquet');
[INFO] Execute statement succeeded.
!info

EXPLAIN SELECT * FROM fruit WHERE id > 2 AND name LIKE 'a%';
== Abstract Syntax Tree ==
LogicalProject(id=[$0], name=[$1], amount=[$2])
+- LogicalFilter(condition=[AND(>($0, 2), LIKE($1, _UTF-16LE'a%'))])
   +- LogicalTableScan(table=[[default_catalog, default_database, fruit]])

== Optimized Physical Plan ==
Calc(select=[id, name, amount], where=[AND(>(id, 2), LIKE(name, _UTF-16LE'a%'))])
+- TableSourceScan(table=[[default_catalog, default_database, fruit, filter=[AND(>(id, 2), LIKE(name, _UTF-16LE'a%'))]]], fields=[id, name, amount])

== Optimized Execution Plan ==
Calc(select=[id, name, amount], where=[((id > 2) AND LIKE(name, 'a%'))])
+- TableSourceScan(table=[[default_catalog, default_database, fruit, filter=[AND(>(id, 2), LIKE(name, _UTF-16LE'a%'))]]], fields=[id, name, amount])
!ok

SELECT * FROM fruit WHERE id > 2 AND name LIKE 'a%';
+----+---------+--------+
| id |    name | amount |
+----+---------+--------+
|  5 | avocado |    5.5 |
+----+---------+--------+
1 row in set
!ok

# an expression of a column is not offered; the rest is
EXPLAIN SELECT name FROM fruit WHERE amount IS NOT NULL AND id IN (1, 2, 4) AND UPPER(name) <> 'X';
== Abstract Syntax Tree ==
LogicalProject(name=[$1])
+- LogicalFilter(condition=[AND(IS NOT NULL($2), IN($0, 1, 2, 4), <>(UPPER($1), _UTF-16LE'X'))])
   +- LogicalTableScan(table=[[default_catalog, default_database, fruit]])

== Optimized Physical Plan ==
Calc(select=[name], where=[AND(IS NOT NULL(amount), IN(id, 1, 2, 4), <>(UPPER(name), _UTF-16LE'X'))])
+- TableSourceScan(table=[[default_catalog, default_database, fruit, filter=[AND(IS NOT NULL(amount), IN(id, 1, 2, 4))]]], fields=[id, name, amount])

== Optimized Execution Plan ==
Calc(select=[name], where=[(amount IS NOT NULL AND IN(id, 1, 2, 4) AND (UPPER(name) <> 'X'))])
+- TableSourceScan(table=[[default_catalog, default_database, fruit, filter=[AND(IS NOT NULL(amount), IN(id, 1, 2, 4))]]], fields=[id, name, amount])
!ok

SELECT name FROM fruit WHERE amount IS NOT NULL AND id IN (1, 2, 4) AND UPPER(name) <> 'X';
+--------+
|   name |
+--------+
|  apple |
| banana |
+--------+
2 rows in set
!ok
