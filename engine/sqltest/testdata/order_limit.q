# order_limit.q - ORDER BY (ASC/DESC, NULLS FIRST/LAST, expressions,
# ordinals, aliases), LIMIT, OFFSET, FETCH.
# Sources: flink-table-planner .../runtime/batch/sql/SortLimitITCase.scala
# (Table3 = TestData data3; cases named after its test methods);
# docs/content/docs/dev/table/sql/queries/orderby.md and limit.md;
# FlinkPlannerImpl.defaultNullCollation = NullCollation.LOW (NULLs sort
# as the smallest value: first for ASC, last for DESC).

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

# SortLimitITCase.testOrderByWithOffsetAndFetch
SELECT * FROM Table3 ORDER BY a ASC OFFSET 2 ROWS FETCH NEXT 5 ROWS ONLY;
+---+---+---------------------------+
| a | b |                         c |
+---+---+---------------------------+
| 3 | 2 |               Hello world |
| 4 | 3 | Hello world, how are you? |
| 5 | 3 |                I am fine. |
| 6 | 3 |            Luke Skywalker |
| 7 | 4 |                 Comment#1 |
+---+---+---------------------------+
5 rows in set
!ok
SELECT * FROM Table3 ORDER BY a DESC OFFSET 2 ROWS FETCH NEXT 5 ROWS ONLY;
+----+---+------------+
|  a | b |          c |
+----+---+------------+
| 19 | 6 | Comment#13 |
| 18 | 6 | Comment#12 |
| 17 | 6 | Comment#11 |
| 16 | 6 | Comment#10 |
| 15 | 5 |  Comment#9 |
+----+---+------------+
5 rows in set
!ok
# SortLimitITCase.testOrderByLimit
SELECT * FROM Table3 ORDER BY b DESC, a ASC LIMIT 5;
+----+---+------------+
|  a | b |          c |
+----+---+------------+
| 16 | 6 | Comment#10 |
| 17 | 6 | Comment#11 |
| 18 | 6 | Comment#12 |
| 19 | 6 | Comment#13 |
| 20 | 6 | Comment#14 |
+----+---+------------+
5 rows in set
!ok
SELECT * FROM Table3 ORDER BY b DESC, a DESC LIMIT 5;
+----+---+------------+
|  a | b |          c |
+----+---+------------+
| 21 | 6 | Comment#15 |
| 20 | 6 | Comment#14 |
| 19 | 6 | Comment#13 |
| 18 | 6 | Comment#12 |
| 17 | 6 | Comment#11 |
+----+---+------------+
5 rows in set
!ok
SELECT * FROM Table3 ORDER BY b ASC, a ASC LIMIT 5;
+---+---+---------------------------+
| a | b |                         c |
+---+---+---------------------------+
| 1 | 1 |                        Hi |
| 2 | 2 |                     Hello |
| 3 | 2 |               Hello world |
| 4 | 3 | Hello world, how are you? |
| 5 | 3 |                I am fine. |
+---+---+---------------------------+
5 rows in set
!ok
SELECT * FROM Table3 ORDER BY b ASC, a DESC LIMIT 5;
+---+---+----------------+
| a | b |              c |
+---+---+----------------+
| 1 | 1 |             Hi |
| 3 | 2 |    Hello world |
| 2 | 2 |          Hello |
| 6 | 3 | Luke Skywalker |
| 5 | 3 |     I am fine. |
+---+---+----------------+
5 rows in set
!ok
# SortLimitITCase.testOrderByLessThanOffset
SELECT a FROM Table3 ORDER BY a ASC OFFSET 18 ROWS FETCH NEXT 50 ROWS ONLY;
+----+
|  a |
+----+
| 19 |
| 20 |
| 21 |
+----+
3 rows in set
!ok
# SortLimitITCase.testOrderByLimitBehindField: strings sort by code point
SELECT * FROM Table3 ORDER BY c LIMIT 5;
+----+---+------------+
|  a | b |          c |
+----+---+------------+
|  7 | 4 |  Comment#1 |
| 16 | 6 | Comment#10 |
| 17 | 6 | Comment#11 |
| 18 | 6 | Comment#12 |
| 19 | 6 | Comment#13 |
+----+---+------------+
5 rows in set
!ok
# SortLimitITCase.testOrderBehindField
SELECT c FROM Table3 ORDER BY c;
+---------------------------+
|                         c |
+---------------------------+
|                 Comment#1 |
|                Comment#10 |
|                Comment#11 |
|                Comment#12 |
|                Comment#13 |
|                Comment#14 |
|                Comment#15 |
|                 Comment#2 |
|                 Comment#3 |
|                 Comment#4 |
|                 Comment#5 |
|                 Comment#6 |
|                 Comment#7 |
|                 Comment#8 |
|                 Comment#9 |
|                     Hello |
|               Hello world |
| Hello world, how are you? |
|                        Hi |
|                I am fine. |
|            Luke Skywalker |
+---------------------------+
21 rows in set
!ok
# SortLimitITCase.testOrderByRepeatedFields
SELECT a FROM Table3 ORDER BY a, a, a LIMIT 5;
+---+
| a |
+---+
| 1 |
| 2 |
| 3 |
| 4 |
| 5 |
+---+
5 rows in set
!ok

CREATE TEMPORARY VIEW n (x, s) AS VALUES (2, 'b'), (CAST(NULL AS INT), 'n'), (1, 'a'), (3, CAST(NULL AS STRING));
[INFO] Execute statement succeeded.
!info
# NULLs are the smallest values by default: first for ASC, last for DESC
SELECT x FROM n ORDER BY x;
+--------+
|      x |
+--------+
| <NULL> |
|      1 |
|      2 |
|      3 |
+--------+
4 rows in set
!ok
SELECT x FROM n ORDER BY x DESC;
+--------+
|      x |
+--------+
|      3 |
|      2 |
|      1 |
| <NULL> |
+--------+
4 rows in set
!ok
# orderby.md: NULLS FIRST / NULLS LAST override the default
SELECT x FROM n ORDER BY x ASC NULLS LAST;
+--------+
|      x |
+--------+
|      1 |
|      2 |
|      3 |
| <NULL> |
+--------+
4 rows in set
!ok
SELECT x FROM n ORDER BY x DESC NULLS FIRST;
+--------+
|      x |
+--------+
| <NULL> |
|      3 |
|      2 |
|      1 |
+--------+
4 rows in set
!ok
# ORDER BY a select alias, an ordinal, an expression and a column not selected
SELECT x AS k FROM n WHERE x IS NOT NULL ORDER BY k DESC;
+---+
| k |
+---+
| 3 |
| 2 |
| 1 |
+---+
3 rows in set
!ok
SELECT s, x FROM n WHERE x IS NOT NULL ORDER BY 2 DESC;
+--------+---+
|      s | x |
+--------+---+
| <NULL> | 3 |
|      b | 2 |
|      a | 1 |
+--------+---+
3 rows in set
!ok
SELECT x FROM n WHERE x IS NOT NULL ORDER BY MOD(x, 2), x;
+---+
| x |
+---+
| 2 |
| 1 |
| 3 |
+---+
3 rows in set
!ok
SELECT x FROM n ORDER BY s NULLS FIRST;
+--------+
|      x |
+--------+
|      3 |
|      1 |
|      2 |
| <NULL> |
+--------+
4 rows in set
!ok
# ORDER BY an aggregate
SELECT b, COUNT(*) AS c FROM Table3 GROUP BY b ORDER BY COUNT(*) DESC, b LIMIT 3;
+---+---+
| b | c |
+---+---+
| 6 | 6 |
| 5 | 5 |
| 4 | 4 |
+---+---+
3 rows in set
!ok
# limit.md: LIMIT 0 returns nothing; a LIMIT larger than the input returns everything
SELECT * FROM Table3 LIMIT 0;
Empty set
!ok
SELECT COUNT(*) FROM (SELECT * FROM Table3 LIMIT 100);
+--------+
| EXPR$0 |
+--------+
|     21 |
+--------+
1 row in set
!ok
# LIMIT in a subquery, then ORDER BY outside
SELECT a FROM (SELECT a FROM Table3 ORDER BY a DESC LIMIT 3) ORDER BY a;
+----+
|  a |
+----+
| 19 |
| 20 |
| 21 |
+----+
3 rows in set
!ok
# FETCH FIRST ... ROW ONLY and OFFSET without FETCH
SELECT a FROM Table3 ORDER BY a FETCH FIRST 1 ROW ONLY;
+---+
| a |
+---+
| 1 |
+---+
1 row in set
!ok
# riffle-only: Flink limitation: OFFSET without FETCH fails (Not support limitEnd is max value now!)
SELECT a FROM Table3 ORDER BY a OFFSET 20 ROWS;
+----+
|  a |
+----+
| 21 |
+----+
1 row in set
!ok
# ORDER BY with DISTINCT must use selected expressions (Calcite)
SELECT DISTINCT b FROM Table3 ORDER BY a;
[ERROR] Could not execute SQL statement. Reason:
is not in the select clause
!error
# a negative LIMIT is rejected at its position
SELECT a FROM Table3 LIMIT -1;
[ERROR] Could not execute SQL statement. Reason:
line 1, column 28
!error
