# joins.q - inner, outer, cross and non-equi joins.
# Sources: flink-table-planner .../runtime/batch/sql/join/JoinITCase.scala
# (cases named after its test methods) over TestData.scala; the Joins page
# docs/content/docs/dev/table/sql/queries/joins.md (regular joins: INNER,
# LEFT/RIGHT/FULL OUTER; comma and CROSS JOIN are cartesian products).

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

# JoinITCase.testJoin: comma join with the equality in WHERE
SELECT c, g FROM SmallTable3, Table5 WHERE b = e;
+-------------+------------+
|           c |          g |
+-------------+------------+
|          Hi |      Hallo |
|       Hello | Hallo Welt |
| Hello world | Hallo Welt |
+-------------+------------+
3 rows in set
!unordered

# JoinITCase.testJoinSameFieldEqual
SELECT c, g FROM SmallTable3, Table5 WHERE b = e and b = h;
+-------------+------------+
|           c |          g |
+-------------+------------+
|          Hi |      Hallo |
|       Hello | Hallo Welt |
| Hello world | Hallo Welt |
+-------------+------------+
3 rows in set
!unordered

# JoinITCase.testJoinOn
SELECT c, g FROM SmallTable3 JOIN Table5 ON b = e;
+-------------+------------+
|           c |          g |
+-------------+------------+
|          Hi |      Hallo |
|       Hello | Hallo Welt |
| Hello world | Hallo Welt |
+-------------+------------+
3 rows in set
!unordered

# JoinITCase.testJoinNoMatches
SELECT c, g FROM SmallTable3, Table5 where c = g;
Empty set
!ok

# JoinITCase.testJoinNoMatchesWithSubquery
SELECT c, g FROM (SELECT * FROM SmallTable3 WHERE b>2), (SELECT * FROM Table5 WHERE e>2) WHERE b = e;
Empty set
!ok

# JoinITCase.testJoinWithFilter
SELECT c, g FROM SmallTable3, Table5 WHERE b = e AND b < 2;
+----+-------+
|  c |     g |
+----+-------+
| Hi | Hallo |
+----+-------+
1 row in set
!ok

# JoinITCase.testJoinWithJoinFilter
SELECT c, g FROM Table3, Table5 WHERE b = e AND a < 6;
+---------------------------+----------------+
|                         c |              g |
+---------------------------+----------------+
|                        Hi |          Hallo |
|                     Hello |     Hallo Welt |
|               Hello world |     Hallo Welt |
| Hello world, how are you? | Hallo Welt wie |
|                I am fine. | Hallo Welt wie |
+---------------------------+----------------+
5 rows in set
!unordered

# JoinITCase.testInnerJoinWithNonEquiJoinPredicate
SELECT c, g FROM Table3, Table5 WHERE b = e AND a < 6 AND h < b;
+---------------------------+----------------+
|                         c |              g |
+---------------------------+----------------+
| Hello world, how are you? | Hallo Welt wie |
|                I am fine. | Hallo Welt wie |
+---------------------------+----------------+
2 rows in set
!unordered

# JoinITCase.testJoinWithMultipleKeys: NULL keys never match
SELECT c, g FROM NullTable3, NullTable5 WHERE a = d AND b = h;
+-------------+-----------------------+
|           c |                     g |
+-------------+-----------------------+
|          Hi |                 Hallo |
|       Hello |            Hallo Welt |
| Hello world | Hallo Welt wie gehts? |
| Hello world |                   ABC |
|  I am fine. |                   HIJ |
|  I am fine. |                   IJK |
+-------------+-----------------------+
6 rows in set
!unordered

# JoinITCase.testJoinWithAlias: a column alias with special characters
SELECT AliasTable5.c, T.`1-_./Ü` FROM (SELECT a, b, c AS `1-_./Ü` FROM Table3) AS T, (SELECT d, e, f, g, h AS c FROM Table5) AS AliasTable5 WHERE a = d AND a < 4;
+---+-------------+
| c |      1-_./Ü |
+---+-------------+
| 1 |          Hi |
| 2 |       Hello |
| 1 |       Hello |
| 2 | Hello world |
| 2 | Hello world |
| 3 | Hello world |
+---+-------------+
6 rows in set
!unordered

# JoinITCase.testInnerJoinWithBooleanFilterCondition
CREATE TEMPORARY VIEW table5b (a1, b1, c1, d1) AS VALUES (1, CAST(1 AS BIGINT), 'Hi', TRUE), (2, 2, 'Hello', FALSE), (3, 2, 'Hello world', TRUE);
[INFO] Execute statement succeeded.
!info
SELECT a1, a1, c2 FROM table5b INNER JOIN (SELECT a1 AS a2, b1 AS b2, c1 AS c2, d1 AS d2 FROM table5b) ON d1 = d2 where d1 is true;
+----+-----+-------------+
| a1 | a10 |          c2 |
+----+-----+-------------+
|  1 |   1 |          Hi |
|  1 |   1 | Hello world |
|  3 |   3 |          Hi |
|  3 |   3 | Hello world |
+----+-----+-------------+
4 rows in set
!unordered

# JoinITCase.testLeftJoinWithMultipleKeys
SELECT c, g FROM NullTable3 LEFT JOIN NullTable5 ON a = d and b = h;
+---------------------------+-----------------------+
|                         c |                     g |
+---------------------------+-----------------------+
|                        Hi |                 Hallo |
|                     Hello |            Hallo Welt |
|               Hello world | Hallo Welt wie gehts? |
|               Hello world |                   ABC |
|                I am fine. |                   HIJ |
|                I am fine. |                   IJK |
| Hello world, how are you? |                <NULL> |
|            Luke Skywalker |                <NULL> |
|                 Comment#1 |                <NULL> |
|                 Comment#2 |                <NULL> |
|                 Comment#3 |                <NULL> |
|                 Comment#4 |                <NULL> |
|                 Comment#5 |                <NULL> |
|                 Comment#6 |                <NULL> |
|                 Comment#7 |                <NULL> |
|                 Comment#8 |                <NULL> |
|                 Comment#9 |                <NULL> |
|                Comment#10 |                <NULL> |
|                Comment#11 |                <NULL> |
|                Comment#12 |                <NULL> |
|                Comment#13 |                <NULL> |
|                Comment#14 |                <NULL> |
|                Comment#15 |                <NULL> |
|                 NullTuple |                <NULL> |
|                 NullTuple |                <NULL> |
+---------------------------+-----------------------+
25 rows in set
!unordered

# JoinITCase.testLeftJoinWithNonEquiJoinPred
SELECT c, g FROM NullTable3 LEFT JOIN NullTable5 ON a = d and b <= h;
+---------------------------+-----------------------+
|                         c |                     g |
+---------------------------+-----------------------+
|                        Hi |                 Hallo |
|                     Hello |            Hallo Welt |
|               Hello world | Hallo Welt wie gehts? |
|               Hello world |                   ABC |
|               Hello world |                   BCD |
|                I am fine. |                   HIJ |
|                I am fine. |                   IJK |
| Hello world, how are you? |                <NULL> |
|            Luke Skywalker |                <NULL> |
|                 Comment#1 |                <NULL> |
|                 Comment#2 |                <NULL> |
|                 Comment#3 |                <NULL> |
|                 Comment#4 |                <NULL> |
|                 Comment#5 |                <NULL> |
|                 Comment#6 |                <NULL> |
|                 Comment#7 |                <NULL> |
|                 Comment#8 |                <NULL> |
|                 Comment#9 |                <NULL> |
|                Comment#10 |                <NULL> |
|                Comment#11 |                <NULL> |
|                Comment#12 |                <NULL> |
|                Comment#13 |                <NULL> |
|                Comment#14 |                <NULL> |
|                Comment#15 |                <NULL> |
|                 NullTuple |                <NULL> |
|                 NullTuple |                <NULL> |
+---------------------------+-----------------------+
26 rows in set
!unordered

# JoinITCase.testLeftJoinWithLeftLocalPred: a predicate on the preserved side only filters matches
SELECT c, g FROM NullTable3 LEFT JOIN NullTable5 ON a = d and b = 2;
+---------------------------+-----------------------+
|                         c |                     g |
+---------------------------+-----------------------+
|                     Hello |            Hallo Welt |
|                     Hello |        Hallo Welt wie |
|               Hello world | Hallo Welt wie gehts? |
|               Hello world |                   ABC |
|               Hello world |                   BCD |
|                        Hi |                <NULL> |
| Hello world, how are you? |                <NULL> |
|                I am fine. |                <NULL> |
|            Luke Skywalker |                <NULL> |
|                 Comment#1 |                <NULL> |
|                 Comment#2 |                <NULL> |
|                 Comment#3 |                <NULL> |
|                 Comment#4 |                <NULL> |
|                 Comment#5 |                <NULL> |
|                 Comment#6 |                <NULL> |
|                 Comment#7 |                <NULL> |
|                 Comment#8 |                <NULL> |
|                 Comment#9 |                <NULL> |
|                Comment#10 |                <NULL> |
|                Comment#11 |                <NULL> |
|                Comment#12 |                <NULL> |
|                Comment#13 |                <NULL> |
|                Comment#14 |                <NULL> |
|                Comment#15 |                <NULL> |
|                 NullTuple |                <NULL> |
|                 NullTuple |                <NULL> |
+---------------------------+-----------------------+
26 rows in set
!unordered

# JoinITCase.testRightJoinWithMultipleKeys
SELECT c, g FROM NullTable3 RIGHT JOIN NullTable5 ON a = d and b = h;
+-------------+-----------------------+
|           c |                     g |
+-------------+-----------------------+
|          Hi |                 Hallo |
|       Hello |            Hallo Welt |
| Hello world | Hallo Welt wie gehts? |
| Hello world |                   ABC |
|  I am fine. |                   HIJ |
|  I am fine. |                   IJK |
|      <NULL> |             NullTuple |
|      <NULL> |             NullTuple |
|      <NULL> |        Hallo Welt wie |
|      <NULL> |                   BCD |
|      <NULL> |                   CDE |
|      <NULL> |                   DEF |
|      <NULL> |                   EFG |
|      <NULL> |                   FGH |
|      <NULL> |                   GHI |
|      <NULL> |                   JKL |
|      <NULL> |                   KLM |
+-------------+-----------------------+
17 rows in set
!unordered

# JoinITCase.testRightJoinWithNonEquiJoinPred
SELECT c, g FROM NullTable5 RIGHT JOIN NullTable3 ON a = d and b <= h;
+---------------------------+-----------------------+
|                         c |                     g |
+---------------------------+-----------------------+
|                        Hi |                 Hallo |
|                     Hello |            Hallo Welt |
|               Hello world | Hallo Welt wie gehts? |
|               Hello world |                   ABC |
|               Hello world |                   BCD |
|                I am fine. |                   HIJ |
|                I am fine. |                   IJK |
| Hello world, how are you? |                <NULL> |
|            Luke Skywalker |                <NULL> |
|                 Comment#1 |                <NULL> |
|                 Comment#2 |                <NULL> |
|                 Comment#3 |                <NULL> |
|                 Comment#4 |                <NULL> |
|                 Comment#5 |                <NULL> |
|                 Comment#6 |                <NULL> |
|                 Comment#7 |                <NULL> |
|                 Comment#8 |                <NULL> |
|                 Comment#9 |                <NULL> |
|                Comment#10 |                <NULL> |
|                Comment#11 |                <NULL> |
|                Comment#12 |                <NULL> |
|                Comment#13 |                <NULL> |
|                Comment#14 |                <NULL> |
|                Comment#15 |                <NULL> |
|                 NullTuple |                <NULL> |
|                 NullTuple |                <NULL> |
+---------------------------+-----------------------+
26 rows in set
!unordered

# JoinITCase.testFullOuterJoinWithMultipleKeys
SELECT c, g FROM NullTable3 FULL JOIN NullTable5 ON a = d and b = h;
+---------------------------+-----------------------+
|                         c |                     g |
+---------------------------+-----------------------+
|                 NullTuple |                <NULL> |
|                 NullTuple |                <NULL> |
|                        Hi |                 Hallo |
|                     Hello |            Hallo Welt |
|               Hello world | Hallo Welt wie gehts? |
|               Hello world |                   ABC |
|                I am fine. |                   HIJ |
|                I am fine. |                   IJK |
| Hello world, how are you? |                <NULL> |
|            Luke Skywalker |                <NULL> |
|                 Comment#1 |                <NULL> |
|                 Comment#2 |                <NULL> |
|                 Comment#3 |                <NULL> |
|                 Comment#4 |                <NULL> |
|                 Comment#5 |                <NULL> |
|                 Comment#6 |                <NULL> |
|                 Comment#7 |                <NULL> |
|                 Comment#8 |                <NULL> |
|                 Comment#9 |                <NULL> |
|                Comment#10 |                <NULL> |
|                Comment#11 |                <NULL> |
|                Comment#12 |                <NULL> |
|                Comment#13 |                <NULL> |
|                Comment#14 |                <NULL> |
|                Comment#15 |                <NULL> |
|                    <NULL> |        Hallo Welt wie |
|                    <NULL> |                   BCD |
|                    <NULL> |                   CDE |
|                    <NULL> |                   DEF |
|                    <NULL> |                   EFG |
|                    <NULL> |                   FGH |
|                    <NULL> |                   GHI |
|                    <NULL> |                   JKL |
|                    <NULL> |                   KLM |
|                    <NULL> |             NullTuple |
|                    <NULL> |             NullTuple |
+---------------------------+-----------------------+
36 rows in set
!unordered

# JoinITCase.testFullJoinWithLeftLocalPred
SELECT c, g FROM NullTable3 FULL JOIN NullTable5 ON a = d and b >= 2 and h = 1;
+---------------------------+-----------------------+
|                         c |                     g |
+---------------------------+-----------------------+
|                 NullTuple |                <NULL> |
|                 NullTuple |                <NULL> |
|                     Hello |        Hallo Welt wie |
| Hello world, how are you? |                   DEF |
| Hello world, how are you? |                   EFG |
|                I am fine. |                   GHI |
|                        Hi |                <NULL> |
|               Hello world |                <NULL> |
|            Luke Skywalker |                <NULL> |
|                 Comment#1 |                <NULL> |
|                 Comment#2 |                <NULL> |
|                 Comment#3 |                <NULL> |
|                 Comment#4 |                <NULL> |
|                 Comment#5 |                <NULL> |
|                 Comment#6 |                <NULL> |
|                 Comment#7 |                <NULL> |
|                 Comment#8 |                <NULL> |
|                 Comment#9 |                <NULL> |
|                Comment#10 |                <NULL> |
|                Comment#11 |                <NULL> |
|                Comment#12 |                <NULL> |
|                Comment#13 |                <NULL> |
|                Comment#14 |                <NULL> |
|                Comment#15 |                <NULL> |
|                    <NULL> |             NullTuple |
|                    <NULL> |             NullTuple |
|                    <NULL> |                 Hallo |
|                    <NULL> |            Hallo Welt |
|                    <NULL> | Hallo Welt wie gehts? |
|                    <NULL> |                   ABC |
|                    <NULL> |                   BCD |
|                    <NULL> |                   CDE |
|                    <NULL> |                   FGH |
|                    <NULL> |                   HIJ |
|                    <NULL> |                   IJK |
|                    <NULL> |                   JKL |
|                    <NULL> |                   KLM |
+---------------------------+-----------------------+
37 rows in set
!unordered

# JoinITCase.testFullOuterJoin
SELECT c, g FROM SmallTable3 FULL OUTER JOIN Table5 ON b = e;
+-------------+-----------------------+
|           c |                     g |
+-------------+-----------------------+
|          Hi |                 Hallo |
|       Hello |            Hallo Welt |
| Hello world |            Hallo Welt |
|      <NULL> |        Hallo Welt wie |
|      <NULL> | Hallo Welt wie gehts? |
|      <NULL> |                   ABC |
|      <NULL> |                   BCD |
|      <NULL> |                   CDE |
|      <NULL> |                   DEF |
|      <NULL> |                   EFG |
|      <NULL> |                   FGH |
|      <NULL> |                   GHI |
|      <NULL> |                   HIJ |
|      <NULL> |                   IJK |
|      <NULL> |                   JKL |
|      <NULL> |                   KLM |
+-------------+-----------------------+
16 rows in set
!unordered

# JoinITCase.testFullOuterJoinWithoutEqualCond: a non-equi full join
SELECT t1.c, t2.c FROM SmallTable3 t1 FULL OUTER JOIN SmallTable3 t2 ON t1.b > t2.b;
+-------------+-------------+
|           c |          c0 |
+-------------+-------------+
|       Hello |          Hi |
| Hello world |          Hi |
|          Hi |      <NULL> |
|      <NULL> |       Hello |
|      <NULL> | Hello world |
+-------------+-------------+
5 rows in set
!unordered

# JoinITCase.testSingleRowFullOuterJoinWithoutEqualCond
SELECT c, mc FROM SmallTable3 t1 FULL OUTER JOIN (SELECT min(b) AS mb, max(c) AS mc FROM SmallTable3) t2 ON b > mb;
+-------------+--------+
|           c |     mc |
+-------------+--------+
|       Hello |     Hi |
| Hello world |     Hi |
|          Hi | <NULL> |
+-------------+--------+
3 rows in set
!unordered

# JoinITCase.testSingleRowFullOuterJoinWithoutEqualCondNoMatch
SELECT c, mc FROM SmallTable3 t1 FULL OUTER JOIN (SELECT max(b) AS mb, max(c) AS mc FROM SmallTable3) t2 ON b > mb;
+-------------+--------+
|           c |     mc |
+-------------+--------+
|          Hi | <NULL> |
|       Hello | <NULL> |
| Hello world | <NULL> |
|      <NULL> |     Hi |
+-------------+--------+
4 rows in set
!unordered

# JoinITCase.testLeftOuterJoin
SELECT c, g FROM Table5 LEFT OUTER JOIN SmallTable3 ON b = e;
+-------------+-----------------------+
|           c |                     g |
+-------------+-----------------------+
|          Hi |                 Hallo |
|       Hello |            Hallo Welt |
| Hello world |            Hallo Welt |
|      <NULL> |        Hallo Welt wie |
|      <NULL> | Hallo Welt wie gehts? |
|      <NULL> |                   ABC |
|      <NULL> |                   BCD |
|      <NULL> |                   CDE |
|      <NULL> |                   DEF |
|      <NULL> |                   EFG |
|      <NULL> |                   FGH |
|      <NULL> |                   GHI |
|      <NULL> |                   HIJ |
|      <NULL> |                   IJK |
|      <NULL> |                   JKL |
|      <NULL> |                   KLM |
+-------------+-----------------------+
16 rows in set
!unordered

# JoinITCase.testRightOuterJoin
SELECT c, g FROM SmallTable3 RIGHT OUTER JOIN Table5 ON b = e;
+-------------+-----------------------+
|           c |                     g |
+-------------+-----------------------+
|          Hi |                 Hallo |
|       Hello |            Hallo Welt |
| Hello world |            Hallo Welt |
|      <NULL> |        Hallo Welt wie |
|      <NULL> | Hallo Welt wie gehts? |
|      <NULL> |                   ABC |
|      <NULL> |                   BCD |
|      <NULL> |                   CDE |
|      <NULL> |                   DEF |
|      <NULL> |                   EFG |
|      <NULL> |                   FGH |
|      <NULL> |                   GHI |
|      <NULL> |                   HIJ |
|      <NULL> |                   IJK |
|      <NULL> |                   JKL |
|      <NULL> |                   KLM |
+-------------+-----------------------+
16 rows in set
!unordered

# JoinITCase.testJoinWithAggregation
SELECT COUNT(g), COUNT(b) FROM SmallTable3, Table5 WHERE a = d;
+--------+--------+
| EXPR$0 | EXPR$1 |
+--------+--------+
|      6 |      6 |
+--------+--------+
1 row in set
!ok

# JoinITCase.testJoinConditionNeedSimplify: an OR of conjunctions sharing an equality
SELECT A.d FROM Table5 A JOIN SmallTable3 B ON (A.d=B.a and B.a>2) or (A.d=B.a and B.b=1);
+---+
| d |
+---+
| 1 |
| 3 |
| 3 |
| 3 |
+---+
4 rows in set
!unordered

# JoinITCase.testSelect
select t.a from (select 1 as a)t;
+---+
| a |
+---+
| 1 |
+---+
1 row in set
!ok

# JoinITCase.testCorrelated
select t.a from (select l.a from l, r where l.a = r.c and l.a = 6)t;
+---+
| a |
+---+
| 6 |
+---+
1 row in set
!ok

# JoinITCase.testJoinWithNull: NULL-safe equality spelled out with IS NULL
SELECT c, g FROM NullTable3, NullTable5 WHERE (a = d OR (a IS NULL AND d IS NULL)) AND b = h;
+-------------+-----------------------+
|           c |                     g |
+-------------+-----------------------+
|          Hi |                 Hallo |
|       Hello |            Hallo Welt |
| Hello world | Hallo Welt wie gehts? |
| Hello world |                   ABC |
|  I am fine. |                   HIJ |
|  I am fine. |                   IJK |
|   NullTuple |             NullTuple |
|   NullTuple |             NullTuple |
|   NullTuple |             NullTuple |
|   NullTuple |             NullTuple |
+-------------+-----------------------+
10 rows in set
!unordered
SELECT c, g FROM NullTable3, NullTable5 WHERE (a = d OR (a IS NULL AND d IS NULL)) and c = 'NullTuple';
+-----------+-----------+
|         c |         g |
+-----------+-----------+
| NullTuple | NullTuple |
| NullTuple | NullTuple |
| NullTuple | NullTuple |
| NullTuple | NullTuple |
+-----------+-----------+
4 rows in set
!unordered

# JoinITCase.testSingleRowJoin: ON TRUE and a non-equi condition against a one-row side
SELECT s, a, b, c FROM SmallTable3 JOIN (SELECT SUM(b) AS s FROM SmallTable3) ON true;
+---+---+---+-------------+
| s | a | b |           c |
+---+---+---+-------------+
| 5 | 1 | 1 |          Hi |
| 5 | 2 | 2 |       Hello |
| 5 | 3 | 2 | Hello world |
+---+---+---+-------------+
3 rows in set
!unordered
SELECT s, a, b, c FROM (SELECT SUM(b) AS s FROM SmallTable3) JOIN SmallTable3 ON true;
+---+---+---+-------------+
| s | a | b |           c |
+---+---+---+-------------+
| 5 | 1 | 1 |          Hi |
| 5 | 2 | 2 |       Hello |
| 5 | 3 | 2 | Hello world |
+---+---+---+-------------+
3 rows in set
!unordered
SELECT s, a, b, c FROM SmallTable3 JOIN (SELECT SUM(b) AS s FROM SmallTable3) ON s <> b;
+---+---+---+-------------+
| s | a | b |           c |
+---+---+---+-------------+
| 5 | 1 | 1 |          Hi |
| 5 | 2 | 2 |       Hello |
| 5 | 3 | 2 | Hello world |
+---+---+---+-------------+
3 rows in set
!unordered

# JoinITCase.testNonEmptyTableJoinEmptyTable
SELECT s, a, b, c FROM SmallTable3 JOIN (SELECT SUM(b) AS s FROM SmallTable3 HAVING COUNT(*) < 0) ON true;
Empty set
!ok
SELECT s, a, b, c FROM SmallTable3 FULL JOIN (SELECT SUM(b) AS s FROM SmallTable3 HAVING COUNT(*) < 0) ON true;
+--------+---+---+-------------+
|      s | a | b |           c |
+--------+---+---+-------------+
| <NULL> | 1 | 1 |          Hi |
| <NULL> | 2 | 2 |       Hello |
| <NULL> | 3 | 2 | Hello world |
+--------+---+---+-------------+
3 rows in set
!unordered
SELECT s, a, b, c FROM (SELECT SUM(b) AS s FROM SmallTable3 HAVING COUNT(*) < 0) FULL JOIN SmallTable3 ON true;
+--------+---+---+-------------+
|      s | a | b |           c |
+--------+---+---+-------------+
| <NULL> | 1 | 1 |          Hi |
| <NULL> | 2 | 2 |       Hello |
| <NULL> | 3 | 2 | Hello world |
+--------+---+---+-------------+
3 rows in set
!unordered

# JoinITCase.testEmptyTableJoinEmptyTable
SELECT sa, sb FROM (SELECT SUM(a) AS sa FROM SmallTable3 HAVING COUNT(*) < 0) FULL JOIN (SELECT SUM(b) AS sb FROM SmallTable3 HAVING COUNT(*) < 0) ON true;
Empty set
!ok

# JoinITCase.testJoinCollation: joins inside WITH
WITH v1 AS (SELECT t1.a AS a, (t1.b + t2.b) AS b FROM SmallTable3 AS t1, SmallTable3 AS t2 WHERE t1.a = t2.a), v2 AS (SELECT t1.a AS a, (t1.b * t2.b) AS b FROM SmallTable3 AS t1, SmallTable3 AS t2 WHERE t1.a = t2.a) SELECT v1.a, v2.a, v1.b, v2.b FROM v1, v2 WHERE v1.a = v2.a;
+---+----+---+----+
| a | a0 | b | b0 |
+---+----+---+----+
| 1 |  1 | 2 |  1 |
| 2 |  2 | 4 |  4 |
| 3 |  3 | 4 |  4 |
+---+----+---+----+
3 rows in set
!unordered
WITH v1 AS (SELECT t1.a AS a, (t1.b + t2.b) AS b FROM SmallTable3 AS t1, SmallTable3 AS t2 WHERE t1.a = t2.a), v2 AS (SELECT t1.b AS a, (t1.b * t2.b) AS b FROM SmallTable3 AS t1, SmallTable3 AS t2 WHERE t1.b = t2.b) SELECT v1.a, v2.a, v1.b, v2.b FROM v1, v2 WHERE v1.a = v2.a;
+---+----+---+----+
| a | a0 | b | b0 |
+---+----+---+----+
| 1 |  1 | 2 |  1 |
| 2 |  2 | 4 |  4 |
| 2 |  2 | 4 |  4 |
| 2 |  2 | 4 |  4 |
| 2 |  2 | 4 |  4 |
+---+----+---+----+
5 rows in set
!unordered

# JoinITCase.testJoinWithFilterPushDown: WHERE over outer joins of aggregates
select * from (select a, max(b) b, count(*) c1 from l group by a) join (select c, max(d) d, count(*) c2 from r group by c) on a = c and c1 = c2 where a >= 2;
+---+--------+----+---+--------+----+
| a |      b | c1 | c |      d | c2 |
+---+--------+----+---+--------+----+
| 2 |    1.0 |  2 | 2 |    3.0 |  2 |
| 3 |    3.0 |  1 | 3 |    2.0 |  1 |
| 6 | <NULL> |  1 | 6 | <NULL> |  1 |
+---+--------+----+---+--------+----+
3 rows in set
!unordered
select * from (select a, max(b) b, count(*) c1 from l group by a) left join (select c, max(d) d, count(*) c2 from r group by c) on a = c and c1 = c2 where c >= 2;
+---+--------+----+---+--------+----+
| a |      b | c1 | c |      d | c2 |
+---+--------+----+---+--------+----+
| 2 |    1.0 |  2 | 2 |    3.0 |  2 |
| 3 |    3.0 |  1 | 3 |    2.0 |  1 |
| 6 | <NULL> |  1 | 6 | <NULL> |  1 |
+---+--------+----+---+--------+----+
3 rows in set
!unordered
select * from (select a, max(b) b, count(*) c1 from l group by a) right join (select c, max(d) d, count(*) c2 from r group by c) on a = c and c1 = c2 where c >= 2;
+--------+--------+--------+---+--------+----+
|      a |      b |     c1 | c |      d | c2 |
+--------+--------+--------+---+--------+----+
|      2 |    1.0 |      2 | 2 |    3.0 |  2 |
|      3 |    3.0 |      1 | 3 |    2.0 |  1 |
|      6 | <NULL> |      1 | 6 | <NULL> |  1 |
| <NULL> | <NULL> | <NULL> | 4 |    1.0 |  1 |
+--------+--------+--------+---+--------+----+
4 rows in set
!unordered
select * from l inner join r on a = c where c IS NULL;
Empty set
!ok
select * from l inner join r on a = c where c = NULL;
Empty set
!ok
select * from l inner join r on a = c where c = 3;
+---+-----+---+-----+
| a |   b | c |   d |
+---+-----+---+-----+
| 3 | 3.0 | 3 | 2.0 |
+---+-----+---+-----+
1 row in set
!ok
select * from l left join r on a = c where c = 3;
+---+-----+---+-----+
| a |   b | c |   d |
+---+-----+---+-----+
| 3 | 3.0 | 3 | 2.0 |
+---+-----+---+-----+
1 row in set
!ok
select * from l left join r on a = c where c IS NULL;
+--------+--------+--------+--------+
|      a |      b |      c |      d |
+--------+--------+--------+--------+
|      1 |    2.0 | <NULL> | <NULL> |
|      1 |    2.0 | <NULL> | <NULL> |
| <NULL> | <NULL> | <NULL> | <NULL> |
| <NULL> |    5.0 | <NULL> | <NULL> |
+--------+--------+--------+--------+
4 rows in set
!unordered
select * from l left join r on a = c where c IS NULL AND a <= 1;
+---+-----+--------+--------+
| a |   b |      c |      d |
+---+-----+--------+--------+
| 1 | 2.0 | <NULL> | <NULL> |
| 1 | 2.0 | <NULL> | <NULL> |
+---+-----+--------+--------+
2 rows in set
!unordered
select * from l left join r on a = c where c = NULL;
Empty set
!ok
select * from l left join r on a = c where c < 3 AND a <= 3;
+---+-----+---+-----+
| a |   b | c |   d |
+---+-----+---+-----+
| 2 | 1.0 | 2 | 3.0 |
| 2 | 1.0 | 2 | 3.0 |
| 2 | 1.0 | 2 | 3.0 |
| 2 | 1.0 | 2 | 3.0 |
+---+-----+---+-----+
4 rows in set
!unordered
select * from l left join r on a = c where c <> 3 AND a <= 3;
+---+-----+---+-----+
| a |   b | c |   d |
+---+-----+---+-----+
| 2 | 1.0 | 2 | 3.0 |
| 2 | 1.0 | 2 | 3.0 |
| 2 | 1.0 | 2 | 3.0 |
| 2 | 1.0 | 2 | 3.0 |
+---+-----+---+-----+
4 rows in set
!unordered

# JoinITCase.testJoinWithJoinConditionPushDown: conditions in ON keep the preserved side's rows
select * from (select a, max(b) b, count(*) c1 from l group by a) left join (select c, max(d) d, count(*) c2 from r group by c) on a = c and c1 = c2 and a >= 2;
+--------+--------+----+--------+--------+--------+
|      a |      b | c1 |      c |      d |     c2 |
+--------+--------+----+--------+--------+--------+
|      2 |    1.0 |  2 |      2 |    3.0 |      2 |
|      3 |    3.0 |  1 |      3 |    2.0 |      1 |
|      6 | <NULL> |  1 |      6 | <NULL> |      1 |
|      1 |    2.0 |  2 | <NULL> | <NULL> | <NULL> |
| <NULL> |    5.0 |  2 | <NULL> | <NULL> | <NULL> |
+--------+--------+----+--------+--------+--------+
5 rows in set
!unordered
select * from (select a, max(b) b, count(*) c1 from l group by a) right join (select c, max(d) d, count(*) c2 from r group by c) on a = c and c1 = c2 and c >= 2;
+--------+--------+--------+--------+--------+----+
|      a |      b |     c1 |      c |      d | c2 |
+--------+--------+--------+--------+--------+----+
|      2 |    1.0 |      2 |      2 |    3.0 |  2 |
|      3 |    3.0 |      1 |      3 |    2.0 |  1 |
|      6 | <NULL> |      1 |      6 | <NULL> |  1 |
| <NULL> | <NULL> | <NULL> |      4 |    1.0 |  1 |
| <NULL> | <NULL> | <NULL> | <NULL> |    5.0 |  2 |
+--------+--------+--------+--------+--------+----+
5 rows in set
!unordered

# CROSS JOIN is the cartesian product (joins.md; SQL standard)
SELECT COUNT(*) FROM SmallTable3 CROSS JOIN Table5;
+--------+
| EXPR$0 |
+--------+
|     45 |
+--------+
1 row in set
!ok
SELECT s1.a, s2.a FROM SmallTable3 s1 CROSS JOIN SmallTable3 s2 WHERE s1.a < s2.a;
+---+----+
| a | a0 |
+---+----+
| 1 |  2 |
| 1 |  3 |
| 2 |  3 |
+---+----+
3 rows in set
!unordered

# JOIN ... USING merges the named columns (SQL standard; Calcite)
SELECT a, s1.c, s2.c FROM SmallTable3 s1 JOIN (SELECT a, c FROM Table3 WHERE a > 1) s2 USING (a);
+---+-------------+-------------+
| a |           c |          c0 |
+---+-------------+-------------+
| 2 |       Hello |       Hello |
| 3 | Hello world | Hello world |
+---+-------------+-------------+
2 rows in set
!unordered
SELECT * FROM SmallTable3 JOIN (SELECT b, COUNT(*) AS n FROM Table3 GROUP BY b) USING (b);
+---+---+-------------+---+
| b | a |           c | n |
+---+---+-------------+---+
| 1 | 1 |          Hi | 1 |
| 2 | 2 |       Hello | 2 |
| 2 | 3 | Hello world | 2 |
+---+---+-------------+---+
3 rows in set
!unordered

# three-way join
SELECT s.c, t.c, u.g FROM SmallTable3 s JOIN Table3 t ON s.a = t.a JOIN Table5 u ON t.b = u.e WHERE s.a > 1;
+-------------+-------------+------------+
|           c |          c0 |          g |
+-------------+-------------+------------+
|       Hello |       Hello | Hallo Welt |
| Hello world | Hello world | Hallo Welt |
+-------------+-------------+------------+
2 rows in set
!unordered

# NATURAL JOIN is USING all shared column names (Calcite)
SELECT * FROM SmallTable3 NATURAL JOIN (SELECT a, c, a * 10 AS x FROM Table3);
+---+-------------+---+----+
| a |           c | b |  x |
+---+-------------+---+----+
| 1 |          Hi | 1 | 10 |
| 2 |       Hello | 2 | 20 |
| 3 | Hello world | 2 | 30 |
+---+-------------+---+----+
3 rows in set
!unordered
# FULL JOIN USING: the merged column is COALESCE of both sides
SELECT a, x.b, y.b FROM (SELECT a, b FROM SmallTable3 WHERE a < 3) x FULL JOIN (SELECT a, b FROM SmallTable3 WHERE a > 1) y USING (a);
+---+--------+--------+
| a |      b |     b0 |
+---+--------+--------+
| 2 |      2 |      2 |
| 1 |      1 | <NULL> |
| 3 | <NULL> |      2 |
+---+--------+--------+
3 rows in set
!unordered
# RIGHT JOIN USING takes the right side's value
SELECT a FROM (SELECT a FROM SmallTable3 WHERE a < 2) x RIGHT JOIN (SELECT a FROM SmallTable3) y USING (a);
+---+
| a |
+---+
| 1 |
| 2 |
| 3 |
+---+
3 rows in set
!unordered

# an unqualified column both sides have is ambiguous (Calcite: "Column 'a' is ambiguous")
SELECT a FROM SmallTable3 s1 JOIN SmallTable3 s2 ON s1.a = s2.a;
[ERROR] Could not execute SQL statement. Reason:
Column 'a' is ambiguous
!error
# join conditions follow the comparison rules: no implicit cast between INT and BOOLEAN
SELECT * FROM SmallTable3 s1 JOIN table5b s2 ON s1.a = s2.d1;
[ERROR] Could not execute SQL statement. Reason:
Cannot apply '=' to arguments of type '<INTEGER> = <BOOLEAN>'
!error
