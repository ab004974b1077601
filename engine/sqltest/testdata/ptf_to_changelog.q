# ptf_to_changelog.q - TO_CHANGELOG, Flink 2.3's built-in process table
# function (FLIP-564; Flink's docs/sql/reference/queries/changelog.md and
# its ToChangelogTestPrograms): every change of the input becomes an
# insert with an operation code column. Its input is a table with row
# semantics in Flink 2.3.0 (no PARTITION BY); the output is the op column,
# then the input's columns. The expected rows follow those rules by hand
# and agree with Flink 2.3.0: the aggregate below changes Alice's total
# from 10 to 30 (-U then +U) after inserting Alice and Bob.

CREATE TEMPORARY VIEW t AS SELECT * FROM (VALUES (1, 'Alice'), (2, 'Bob')) AS v(id, name);
[INFO] Execute statement succeeded.
!info

# an insert-only input: every row is an INSERT
SELECT * FROM TO_CHANGELOG(input => TABLE t);
+----+--------------------------------+-------------+--------------------------------+
| op |                             op |          id |                           name |
+----+--------------------------------+-------------+--------------------------------+
| +I |                         INSERT |           1 |                          Alice |
| +I |                         INSERT |           2 |                            Bob |
+----+--------------------------------+-------------+--------------------------------+
Received a total of 2 rows
!ok

CREATE TEMPORARY VIEW agg AS
SELECT name, SUM(score) AS total
FROM (VALUES ('Alice', 10), ('Bob', 20), ('Alice', 20)) AS v(name, score)
GROUP BY name;
[INFO] Execute statement succeeded.
!info

# a retracting input: each change is a row
SELECT * FROM TO_CHANGELOG(input => TABLE agg);
+----+--------------------------------+--------------------------------+-------------+
| op |                             op |                           name |       total |
+----+--------------------------------+--------------------------------+-------------+
| +I |                         INSERT |                          Alice |          10 |
| +I |                         INSERT |                            Bob |          20 |
| +I |                  UPDATE_BEFORE |                          Alice |          10 |
| +I |                   UPDATE_AFTER |                          Alice |          30 |
+----+--------------------------------+--------------------------------+-------------+
Received a total of 4 rows
!unordered

# TO_CHANGELOG's input has row semantics: PARTITION BY is refused
SELECT * FROM TO_CHANGELOG(input => TABLE agg PARTITION BY name);
[ERROR] Could not execute SQL statement. Reason:
From line 1, column 15 to line 1, column 64: Only tables with set semantics may be partitioned. Invalid PARTITION BY clause in the 0-th operand of table function 'TO_CHANGELOG'
!error

# op names the code column; op_mapping renames the codes and drops the
# kinds it does not map (UPDATE_BEFORE here)
SELECT * FROM TO_CHANGELOG(input => TABLE agg, op => DESCRIPTOR(change), op_mapping => MAP['INSERT', 'I', 'UPDATE_AFTER', 'U']);
+----+--------------------------------+--------------------------------+-------------+
| op |                         change |                           name |       total |
+----+--------------------------------+--------------------------------+-------------+
| +I |                              I |                          Alice |          10 |
| +I |                              I |                            Bob |          20 |
| +I |                              U |                          Alice |          30 |
+----+--------------------------------+--------------------------------+-------------+
Received a total of 3 rows
!unordered

# positional arguments
SELECT * FROM TO_CHANGELOG(TABLE agg, DESCRIPTOR(kind));
+----+--------------------------------+--------------------------------+-------------+
| op |                           kind |                           name |       total |
+----+--------------------------------+--------------------------------+-------------+
| +I |                         INSERT |                          Alice |          10 |
| +I |                         INSERT |                            Bob |          20 |
| +I |                  UPDATE_BEFORE |                          Alice |          10 |
| +I |                   UPDATE_AFTER |                          Alice |          30 |
+----+--------------------------------+--------------------------------+-------------+
Received a total of 4 rows
!unordered

# Flink 2.3.0 lists the valid kinds after this message in an order that
# changes from run to run (a hash set's), so only the message is compared;
# Riffle lists them as UPDATE_BEFORE, UPDATE_AFTER, INSERT, DELETE.
SELECT * FROM TO_CHANGELOG(input => TABLE agg, op_mapping => MAP['UPSERT', 'U']);
[ERROR] Could not execute SQL statement. Reason:
Invalid target mapping for argument 'op_mapping'. Unknown change operation: 'UPSERT'.
!error

# FROM_CHANGELOG, the reverse (Flink's FromChangelogTestPrograms): the op
# column's codes become the rows' kinds; the output is the other columns
CREATE TEMPORARY VIEW cdc AS SELECT * FROM (VALUES
  (1, 'INSERT', 'Alice'), (2, 'INSERT', 'Bob'), (1, 'UPDATE_BEFORE', 'Alice'),
  (1, 'UPDATE_AFTER', 'Alice2'), (2, 'DELETE', 'Bob')) AS v(id, op, name);
[INFO] Execute statement succeeded.
!info

SELECT * FROM FROM_CHANGELOG(input => TABLE cdc);
+----+-------------+--------------------------------+
| op |          id |                           name |
+----+-------------+--------------------------------+
| +I |           1 |                          Alice |
| +I |           2 |                            Bob |
| -U |           1 |                          Alice |
| +U |           1 |                         Alice2 |
| -D |           2 |                            Bob |
+----+-------------+--------------------------------+
Received a total of 5 rows
!ok

# custom codes, several per kind
CREATE TEMPORARY VIEW cdc2 AS SELECT * FROM (VALUES
  (1, 'c', 'Alice'), (2, 'r', 'Bob'), (1, 'ub', 'Alice'), (1, 'ua', 'Alice2'), (2, 'd', 'Bob')) AS v(id, operation, name);
[INFO] Execute statement succeeded.
!info

SELECT * FROM FROM_CHANGELOG(input => TABLE cdc2, op => DESCRIPTOR(operation),
  op_mapping => MAP['c, r', 'INSERT', 'ub', 'UPDATE_BEFORE', 'ua', 'UPDATE_AFTER', 'd', 'DELETE']);
+----+-------------+--------------------------------+
| op |          id |                           name |
+----+-------------+--------------------------------+
| +I |           1 |                          Alice |
| +I |           2 |                            Bob |
| -U |           1 |                          Alice |
| +U |           1 |                         Alice2 |
| -D |           2 |                            Bob |
+----+-------------+--------------------------------+
Received a total of 5 rows
!ok

# the round trip recovers the aggregate's changes; a query is passed as a
# table in parentheses, without TABLE
SELECT * FROM FROM_CHANGELOG(input => (SELECT * FROM TO_CHANGELOG(input => TABLE agg)));
+----+--------------------------------+-------------+
| op |                           name |       total |
+----+--------------------------------+-------------+
| +I |                          Alice |          10 |
| +I |                            Bob |          20 |
| -U |                          Alice |          10 |
| +U |                          Alice |          30 |
+----+--------------------------------+-------------+
Received a total of 4 rows
!unordered

# FROM_CHANGELOG's input has row semantics in Flink 2.3.0 too: PARTITION
# BY is refused
SELECT * FROM FROM_CHANGELOG(input => TABLE cdc PARTITION BY id);
[ERROR] Could not execute SQL statement. Reason:
From line 1, column 15 to line 1, column 64: Only tables with set semantics may be partitioned. Invalid PARTITION BY clause in the 0-th operand of table function 'FROM_CHANGELOG'
!error

SELECT * FROM FROM_CHANGELOG(input => (SELECT 1 AS id, 'UPSERT' AS op));
[ERROR] Could not execute SQL statement. Reason:
Received invalid op code 'UPSERT'
!error

# TABLE takes a name only: Calcite's parser refuses TABLE (SELECT ...)
SELECT * FROM FROM_CHANGELOG(input => TABLE (SELECT 1 AS id, 'UPSERT' AS op));
[ERROR] Could not execute SQL statement. Reason:
Encountered "(" at line 1, column 45.
!error

SELECT * FROM FROM_CHANGELOG(input => TABLE cdc, op_mapping => MAP['c', 'UPSERT']);
[ERROR] Could not execute SQL statement. Reason:
Invalid target mapping for argument 'op_mapping'. Unknown change operation: 'UPSERT'.
!error

# batch mode: Flink 2.3.0 plans no process table function in batch mode
# (no batch rule converts the scan: Calcite's "not enough rules"); nor
# does Riffle FROM_CHANGELOG, whose output is updating. Flink names more
# missing conversions under an aggregate: only the first line is checked
CREATE TEMPORARY VIEW cdc3 AS SELECT * FROM (VALUES
  (1, 'n', 'INSERT'), (1, 'n', 'DELETE'), (1, 'n', 'DELETE'), (2, 'x', 'INSERT')) AS v(id, name, op);
[INFO] Execute statement succeeded.
!info

SET 'execution.runtime-mode' = 'batch';
[INFO] Execute statement succeeded.
!info

SELECT * FROM FROM_CHANGELOG(input => TABLE cdc3);
[ERROR] Could not execute SQL statement. Reason:
There are not enough rules to produce a node with desired properties: convention=BATCH_PHYSICAL, FlinkRelDistributionTraitDef=any, sort=[].
Missing conversion is FlinkLogicalTableFunctionScan[convention: LOGICAL -> BATCH_PHYSICAL]
!error

SELECT COUNT(*) AS c FROM FROM_CHANGELOG(input => TABLE cdc3);
[ERROR] Could not execute SQL statement. Reason:
There are not enough rules to produce a node with desired properties: convention=BATCH_PHYSICAL, FlinkRelDistributionTraitDef=any, sort=[].
!error

SELECT name, COUNT(*) AS c FROM FROM_CHANGELOG(input => TABLE cdc3) GROUP BY name;
[ERROR] Could not execute SQL statement. Reason:
There are not enough rules to produce a node with desired properties: convention=BATCH_PHYSICAL, FlinkRelDistributionTraitDef=any, sort=[].
!error

# riffle-only: Flink 2.3.0 runs no PTF in batch mode; Riffle runs the insert-only ones, as TO_CHANGELOG
SELECT * FROM TO_CHANGELOG(input => TABLE t);
+--------+----+-------+
|     op | id |  name |
+--------+----+-------+
| INSERT |  1 | Alice |
| INSERT |  2 |   Bob |
+--------+----+-------+
2 rows in set
!ok

RESET 'execution.runtime-mode';
[INFO] Execute statement succeeded.
!info
