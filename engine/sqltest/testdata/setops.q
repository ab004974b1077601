# setops.q - UNION, INTERSECT, EXCEPT with and without ALL, VALUES as a query.
# Sources: flink-table-planner .../runtime/batch/sql/SetOperatorsITCase.scala
# and UnionITCase.scala (cases named after their test methods, over
# TestData.scala); docs/content/docs/dev/table/sql/queries/set-ops.md
# (its examples are quoted below as "set-ops.md").

SET 'execution.runtime-mode' = 'batch';
[INFO] Execute statement succeeded.
!info
SET 'sql-client.display.max-column-width' = '60';
[INFO] Execute statement succeeded.
!info

# Fixtures: Flink's planner test data (flink-table-planner
# src/test/scala/org/apache/flink/table/planner/runtime/utils/TestData.scala):
# smallData3, data3, nullData3, data5, nullData5, and SemiJoinITCase's
# leftT / rightT (= TestData data2_1 / data2_2 used by JoinITCase as l / r).
CREATE TEMPORARY VIEW SmallTable3 (a, b, c) AS VALUES (1, CAST(1 AS BIGINT), 'Hi'), (2, 2, 'Hello'), (3, 2, 'Hello world');
[INFO] Execute statement succeeded.
!info
CREATE TEMPORARY VIEW Table3 (a, b, c) AS VALUES (1, CAST(1 AS BIGINT), CAST('Hi' AS STRING)), (2, 2, 'Hello'), (3, 2, 'Hello world'), (4, 3, 'Hello world, how are you?'), (5, 3, 'I am fine.'), (6, 3, 'Luke Skywalker'), (7, 4, 'Comment#1'), (8, 4, 'Comment#2'), (9, 4, 'Comment#3'), (10, 4, 'Comment#4'), (11, 5, 'Comment#5'), (12, 5, 'Comment#6'), (13, 5, 'Comment#7'), (14, 5, 'Comment#8'), (15, 5, 'Comment#9'), (16, 6, 'Comment#10'), (17, 6, 'Comment#11'), (18, 6, 'Comment#12'), (19, 6, 'Comment#13'), (20, 6, 'Comment#14'), (21, 6, 'Comment#15');
[INFO] Execute statement succeeded.
!info
CREATE TEMPORARY VIEW NullTable3 AS SELECT * FROM Table3 UNION ALL VALUES (CAST(NULL AS INT), CAST(999 AS BIGINT), 'NullTuple'), (CAST(NULL AS INT), CAST(999 AS BIGINT), 'NullTuple');
[INFO] Execute statement succeeded.
!info
CREATE TEMPORARY VIEW Table5 (d, e, f, g, h) AS VALUES (1, CAST(1 AS BIGINT), 0, CAST('Hallo' AS STRING), CAST(1 AS BIGINT)), (2, 2, 1, 'Hallo Welt', 2), (2, 3, 2, 'Hallo Welt wie', 1), (3, 4, 3, 'Hallo Welt wie gehts?', 2), (3, 5, 4, 'ABC', 2), (3, 6, 5, 'BCD', 3), (4, 7, 6, 'CDE', 2), (4, 8, 7, 'DEF', 1), (4, 9, 8, 'EFG', 1), (4, 10, 9, 'FGH', 2), (5, 11, 10, 'GHI', 1), (5, 12, 11, 'HIJ', 3), (5, 13, 12, 'IJK', 3), (5, 14, 13, 'JKL', 2), (5, 15, 14, 'KLM', 2);
[INFO] Execute statement succeeded.
!info
CREATE TEMPORARY VIEW NullTable5 AS SELECT * FROM Table5 UNION ALL VALUES (CAST(NULL AS INT), CAST(999 AS BIGINT), 999, 'NullTuple', CAST(999 AS BIGINT)), (CAST(NULL AS INT), CAST(999 AS BIGINT), 999, 'NullTuple', CAST(999 AS BIGINT));
[INFO] Execute statement succeeded.
!info
CREATE TEMPORARY VIEW l (a, b) AS VALUES (1, CAST(2.0 AS DOUBLE)), (1, 2.0), (2, 1.0), (2, 1.0), (3, 3.0), (CAST(NULL AS INT), CAST(NULL AS DOUBLE)), (CAST(NULL AS INT), 5.0), (6, CAST(NULL AS DOUBLE));
[INFO] Execute statement succeeded.
!info
CREATE TEMPORARY VIEW r (c, d) AS VALUES (2, CAST(3.0 AS DOUBLE)), (2, 3.0), (3, 2.0), (4, 1.0), (CAST(NULL AS INT), CAST(NULL AS DOUBLE)), (CAST(NULL AS INT), 5.0), (6, CAST(NULL AS DOUBLE));
[INFO] Execute statement succeeded.
!info
CREATE TEMPORARY VIEW rightUniqueKeyT (c, d) AS VALUES (2, CAST(3.0 AS DOUBLE)), (3, 2.0), (4, 1.0), (CAST(NULL AS INT), 5.0), (6, CAST(NULL AS DOUBLE));
[INFO] Execute statement succeeded.
!info
CREATE TEMPORARY VIEW AllNullTable3 (a, b, c) AS VALUES (CAST(NULL AS INT), CAST(NULL AS BIGINT), CAST(NULL AS STRING)), (CAST(NULL AS INT), CAST(NULL AS BIGINT), CAST(NULL AS STRING));
[INFO] Execute statement succeeded.
!info

# SetOperatorsITCase.testIntersect: INTERSECT removes duplicates
SELECT c FROM SmallTable3 INTERSECT SELECT c FROM (VALUES (1, CAST(1 AS BIGINT), 'Hi'), (2, 2, 'Hello'), (2, 2, 'Hello'), (3, 2, 'Hello world!')) AS T(a, b, c);
+-------+
|     c |
+-------+
|    Hi |
| Hello |
+-------+
2 rows in set
!unordered
# SetOperatorsITCase.testIntersectWithFilter
SELECT c FROM ((SELECT * FROM SmallTable3) INTERSECT (SELECT * FROM Table3)) WHERE a > 1;
+-------------+
|           c |
+-------------+
|       Hello |
| Hello world |
+-------------+
2 rows in set
!unordered
# SetOperatorsITCase.testExcept
SELECT c FROM SmallTable3 EXCEPT (SELECT c FROM (VALUES (1, CAST(1 AS BIGINT), 'Hi')) AS T(a, b, c));
+-------------+
|           c |
+-------------+
|       Hello |
| Hello world |
+-------------+
2 rows in set
!unordered
# SetOperatorsITCase.testExceptWithFilter
SELECT c FROM (SELECT * FROM SmallTable3 EXCEPT (SELECT d, e, g FROM Table5)) WHERE b < 2;
+----+
|  c |
+----+
| Hi |
+----+
1 row in set
!ok
# SetOperatorsITCase.testIntersectWithNulls: NULLs are equal in set operations
SELECT c FROM AllNullTable3 INTERSECT SELECT c FROM AllNullTable3;
+--------+
|      c |
+--------+
| <NULL> |
+--------+
1 row in set
!ok
# SetOperatorsITCase.testExceptWithNulls
SELECT c FROM AllNullTable3 EXCEPT SELECT c FROM AllNullTable3;
Empty set
!ok
# SetOperatorsITCase.testIntersectAll: min of the multiplicities
SELECT c FROM (VALUES 1, 1, 1, 2, 2) AS T1(c) INTERSECT ALL SELECT c FROM (VALUES 1, 2, 2, 2, 3) AS T2(c);
+---+
| c |
+---+
| 1 |
| 2 |
| 2 |
+---+
3 rows in set
!unordered
# SetOperatorsITCase.testMinusAll: multiplicity m - n
SELECT c FROM ((SELECT * FROM SmallTable3 UNION ALL SELECT * FROM SmallTable3 UNION ALL SELECT * FROM SmallTable3) EXCEPT ALL (SELECT * FROM (VALUES (1, CAST(1 AS BIGINT), 'Hi')) AS T2(a, b, c) UNION ALL SELECT * FROM (VALUES (1, CAST(1 AS BIGINT), 'Hi')) AS T2(a, b, c)));
+-------------+
|           c |
+-------------+
|          Hi |
|       Hello |
|       Hello |
|       Hello |
| Hello world |
| Hello world |
| Hello world |
+-------------+
7 rows in set
!unordered

# UnionITCase.testUnionWithDifferentRowtype: NOT NULL and nullable inputs
SELECT a FROM (SELECT * FROM SmallTable3 t1 UNION ALL (SELECT * FROM (SELECT a, b, c FROM Table3 WHERE a <= 4) t2));
+---+
| a |
+---+
| 1 |
| 2 |
| 3 |
| 1 |
| 2 |
| 3 |
| 4 |
+---+
7 rows in set
!unordered
# UnionITCase.testUnionAll
SELECT t1.c FROM SmallTable3 t1 UNION ALL (SELECT t2.c FROM SmallTable3 t2);
+-------------+
|           c |
+-------------+
|          Hi |
|       Hello |
| Hello world |
|          Hi |
|       Hello |
| Hello world |
+-------------+
6 rows in set
!unordered
# UnionITCase.testUnion
SELECT t1.c FROM SmallTable3 t1 UNION (SELECT t2.c FROM SmallTable3 t2);
+-------------+
|           c |
+-------------+
|          Hi |
|       Hello |
| Hello world |
+-------------+
3 rows in set
!unordered
# UnionITCase.testUnionWithFilter
SELECT c FROM (SELECT * FROM SmallTable3 UNION ALL (SELECT d, e, g FROM Table5)) WHERE b < 2;
+-------+
|     c |
+-------+
|    Hi |
| Hallo |
+-------+
2 rows in set
!unordered
# UnionITCase.testUnionWithAggregation
SELECT count(c) FROM (SELECT * FROM SmallTable3 UNION ALL (SELECT d, e, g FROM Table5));
+--------+
| EXPR$0 |
+--------+
|     18 |
+--------+
1 row in set
!ok
# UnionITCase.testJoinAfterDifferentTypeUnionAll
SELECT a, c, g FROM (SELECT t1.a, t1.b, t1.c FROM SmallTable3 t1 UNION ALL (SELECT a, b, c FROM SmallTable3 ORDER BY a, b, c)), Table5 WHERE b = e;
+---+-------------+------------+
| a |           c |          g |
+---+-------------+------------+
| 1 |          Hi |      Hallo |
| 2 |       Hello | Hallo Welt |
| 3 | Hello world | Hallo Welt |
| 1 |          Hi |      Hallo |
| 2 |       Hello | Hallo Welt |
| 3 | Hello world | Hallo Welt |
+---+-------------+------------+
6 rows in set
!unordered
# UnionITCase.testUnionOfMultiInputs: a VALUES list as a table
select max(v) as x, min(v) as n from (values cast(-86.4 as double), cast(-100 as double), cast(2 as double)) as t(v);
+-----+--------+
|   x |      n |
+-----+--------+
| 2.0 | -100.0 |
+-----+--------+
1 row in set
!ok

# set-ops.md: create temporary view t1(s) as values ('c'), ('a'), ('b'), ('b'), ('c');
CREATE TEMPORARY VIEW t1(s) AS VALUES ('c'), ('a'), ('b'), ('b'), ('c');
[INFO] Execute statement succeeded.
!info
CREATE TEMPORARY VIEW t2(s) AS VALUES ('d'), ('e'), ('a'), ('b'), ('b');
[INFO] Execute statement succeeded.
!info
# set-ops.md UNION
(SELECT s FROM t1) UNION (SELECT s FROM t2);
+---+
| s |
+---+
| c |
| a |
| b |
| d |
| e |
+---+
5 rows in set
!unordered
# set-ops.md UNION ALL
(SELECT s FROM t1) UNION ALL (SELECT s FROM t2);
+---+
| s |
+---+
| c |
| a |
| b |
| b |
| c |
| d |
| e |
| a |
| b |
| b |
+---+
10 rows in set
!unordered
# set-ops.md INTERSECT
(SELECT s FROM t1) INTERSECT (SELECT s FROM t2);
+---+
| s |
+---+
| a |
| b |
+---+
2 rows in set
!unordered
# set-ops.md INTERSECT ALL
(SELECT s FROM t1) INTERSECT ALL (SELECT s FROM t2);
+---+
| s |
+---+
| a |
| b |
| b |
+---+
3 rows in set
!unordered
# set-ops.md EXCEPT
(SELECT s FROM t1) EXCEPT (SELECT s FROM t2);
+---+
| s |
+---+
| c |
+---+
1 row in set
!ok
# set-ops.md EXCEPT ALL
(SELECT s FROM t1) EXCEPT ALL (SELECT s FROM t2);
+---+
| s |
+---+
| c |
| c |
+---+
2 rows in set
!unordered
# set-ops.md IN / EXISTS against the other view
SELECT s FROM t1 WHERE s IN (SELECT s FROM t2);
+---+
| s |
+---+
| a |
| b |
| b |
+---+
3 rows in set
!unordered
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT s FROM t1 WHERE EXISTS (SELECT s FROM t2 WHERE t1.s = t2.s);
+---+
| s |
+---+
| a |
| b |
| b |
+---+
3 rows in set
!unordered

# set operators bind left to right; INTERSECT binds tighter than UNION and EXCEPT (SQL standard, Calcite)
SELECT s FROM t1 UNION SELECT s FROM t2 EXCEPT SELECT s FROM t1;
+---+
| s |
+---+
| d |
| e |
+---+
2 rows in set
!unordered
SELECT s FROM t2 EXCEPT SELECT s FROM t1 INTERSECT SELECT 'd';
+---+
| s |
+---+
| d |
| e |
| a |
| b |
+---+
4 rows in set
!unordered
# ORDER BY and LIMIT apply to the whole set operation
SELECT s FROM t1 UNION SELECT s FROM t2 ORDER BY s DESC LIMIT 2;
+---+
| s |
+---+
| e |
| d |
+---+
2 rows in set
!ok
# the result type is the common type of the inputs (Calcite leastRestrictive)
SELECT x FROM (SELECT 1 AS x UNION ALL SELECT 2.5) ORDER BY x;
+-----+
|   x |
+-----+
| 1.0 |
| 2.5 |
+-----+
2 rows in set
!ok
SELECT TYPEOF(x) FROM (SELECT CAST(1 AS INT) AS x UNION ALL SELECT CAST(2 AS BIGINT)) LIMIT 1;
+-----------------+
|          EXPR$0 |
+-----------------+
| BIGINT NOT NULL |
+-----------------+
1 row in set
!ok
# the column names come from the first input
SELECT * FROM (SELECT 1 AS first_name UNION ALL SELECT 2 AS second_name) WHERE first_name = 2;
+------------+
| first_name |
+------------+
|          2 |
+------------+
1 row in set
!ok
# inputs must have the same number of columns
SELECT 1, 2 UNION SELECT 3;
[ERROR] Could not execute SQL statement. Reason:
Column count mismatch in UNION
!error
# and comparable types
SELECT 1 UNION SELECT TRUE;
[ERROR] Could not execute SQL statement. Reason:
Type mismatch in column 1 of UNION
!error
