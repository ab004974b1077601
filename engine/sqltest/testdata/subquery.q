# subquery.q - scalar subqueries, IN / NOT IN, EXISTS / NOT EXISTS,
# correlated and not, with SQL's three-valued NULL semantics.
# Sources: flink-table-planner .../runtime/batch/sql/join/SemiJoinITCase.scala
# (leftT / rightT / rightUniqueKeyT), ScalarQueryITCase.scala and
# JoinITCase.scala (l / r are the same data); cases are named after the
# test methods. Views: TestData.scala.

SET 'execution.runtime-mode' = 'batch';
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

# SemiJoinITCase.testSingleConditionLeftSemi
SELECT * FROM l WHERE a IN (SELECT c FROM r);
+---+--------+
| a |      b |
+---+--------+
| 2 |    1.0 |
| 2 |    1.0 |
| 3 |    3.0 |
| 6 | <NULL> |
+---+--------+
4 rows in set
!unordered
# SemiJoinITCase.testComposedConditionLeftSemi: correlated non-equality inside IN
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT * FROM l WHERE a IN (SELECT c FROM r WHERE b < d);
+---+-----+
| a |   b |
+---+-----+
| 2 | 1.0 |
| 2 | 1.0 |
+---+-----+
2 rows in set
!unordered
# SemiJoinITCase.testSingleConditionLeftAnti
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT * FROM l WHERE NOT EXISTS (SELECT * FROM r WHERE a = c);
+--------+--------+
|      a |      b |
+--------+--------+
|      1 |    2.0 |
|      1 |    2.0 |
| <NULL> | <NULL> |
| <NULL> |    5.0 |
+--------+--------+
4 rows in set
!unordered
# SemiJoinITCase.testSingleUniqueConditionLeftAnti
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT * FROM l WHERE NOT EXISTS (SELECT * FROM (SELECT DISTINCT c FROM r) WHERE a = c);
+--------+--------+
|      a |      b |
+--------+--------+
|      1 |    2.0 |
|      1 |    2.0 |
| <NULL> | <NULL> |
| <NULL> |    5.0 |
+--------+--------+
4 rows in set
!unordered
# SemiJoinITCase.testComposedConditionLeftAnti
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT * FROM l WHERE NOT EXISTS (SELECT * FROM r WHERE a = c AND b < d);
+--------+--------+
|      a |      b |
+--------+--------+
|      1 |    2.0 |
|      1 |    2.0 |
|      3 |    3.0 |
| <NULL> | <NULL> |
| <NULL> |    5.0 |
|      6 | <NULL> |
+--------+--------+
6 rows in set
!unordered
# SemiJoinITCase.testComposedUniqueConditionLeftAnti
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT * FROM l WHERE NOT EXISTS (SELECT * FROM rightUniqueKeyT WHERE a = c AND b < d);
+--------+--------+
|      a |      b |
+--------+--------+
|      1 |    2.0 |
|      1 |    2.0 |
|      3 |    3.0 |
| <NULL> | <NULL> |
| <NULL> |    5.0 |
|      6 | <NULL> |
+--------+--------+
6 rows in set
!unordered
# SemiJoinITCase.testSemiJoinTranspose
SELECT a, b FROM (SELECT a, b, c FROM l, r WHERE a = c) lr WHERE lr.a > 0 AND lr.c IN (SELECT c FROM rightUniqueKeyT WHERE d > 1);
+---+-----+
| a |   b |
+---+-----+
| 2 | 1.0 |
| 2 | 1.0 |
| 2 | 1.0 |
| 2 | 1.0 |
| 3 | 3.0 |
+---+-----+
5 rows in set
!unordered
# SemiJoinITCase.testFilterPushDownLeftSemi1
SELECT * FROM (SELECT * FROM l WHERE a IN (SELECT c FROM r)) T WHERE T.b > 2;
+---+-----+
| a |   b |
+---+-----+
| 3 | 3.0 |
+---+-----+
1 row in set
!ok
# SemiJoinITCase.testFilterPushDownLeftSemi2: uncorrelated EXISTS
SELECT * FROM (SELECT * FROM l WHERE EXISTS (SELECT * FROM r)) T WHERE T.b > 2;
+--------+-----+
|      a |   b |
+--------+-----+
|      3 | 3.0 |
| <NULL> | 5.0 |
+--------+-----+
2 rows in set
!unordered
# SemiJoinITCase.testFilterPushDownLeftSemi3
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT * FROM (SELECT * FROM l WHERE EXISTS (SELECT * FROM r WHERE a = c)) T WHERE T.b > 2;
+---+-----+
| a |   b |
+---+-----+
| 3 | 3.0 |
+---+-----+
1 row in set
!ok
# SemiJoinITCase.testJoinConditionPushDownLeftSemi1
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT * FROM l WHERE a IN (SELECT c FROM r WHERE b > 2);
+---+-----+
| a |   b |
+---+-----+
| 3 | 3.0 |
+---+-----+
1 row in set
!ok
# SemiJoinITCase.testJoinConditionPushDownLeftSemi2
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT * FROM l WHERE EXISTS (SELECT * FROM r WHERE b > 2);
+--------+-----+
|      a |   b |
+--------+-----+
|      3 | 3.0 |
| <NULL> | 5.0 |
+--------+-----+
2 rows in set
!unordered
# SemiJoinITCase.testJoinConditionPushDownLeftSemi3
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT * FROM l WHERE EXISTS (SELECT * FROM r WHERE a = c AND b > 2);
+---+-----+
| a |   b |
+---+-----+
| 3 | 3.0 |
+---+-----+
1 row in set
!ok
# SemiJoinITCase.testFilterPushDownLeftAnti1: NOT IN over a set without NULLs
SELECT * FROM (SELECT * FROM l WHERE a NOT IN (SELECT c FROM r WHERE c < 3)) T WHERE T.b > 2;
+---+-----+
| a |   b |
+---+-----+
| 3 | 3.0 |
+---+-----+
1 row in set
!ok
# SemiJoinITCase.testFilterPushDownLeftAnti2
SELECT * FROM (SELECT * FROM l WHERE NOT EXISTS (SELECT * FROM r where c > 10)) T WHERE T.b > 2;
+--------+-----+
|      a |   b |
+--------+-----+
|      3 | 3.0 |
| <NULL> | 5.0 |
+--------+-----+
2 rows in set
!unordered
# SemiJoinITCase.testFilterPushDownLeftAnti3: NOT IN with a correlated filter; an empty set keeps NULL a
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT * FROM (SELECT * FROM l WHERE a NOT IN (SELECT c FROM r WHERE b = d AND c < 3)) T WHERE T.b > 2;
+--------+-----+
|      a |   b |
+--------+-----+
|      3 | 3.0 |
| <NULL> | 5.0 |
+--------+-----+
2 rows in set
!unordered
# SemiJoinITCase.testFilterPushDownLeftAnti4
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT * FROM (SELECT * FROM l WHERE NOT EXISTS (SELECT * FROM r WHERE a = c)) T WHERE T.b > 2;
+--------+-----+
|      a |   b |
+--------+-----+
| <NULL> | 5.0 |
+--------+-----+
1 row in set
!ok
# SemiJoinITCase.testJoinConditionPushDownLeftAnti1: a correlated NOT IN
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT * FROM l WHERE a NOT IN (SELECT c FROM r WHERE b > 2);
+--------+--------+
|      a |      b |
+--------+--------+
|      1 |    2.0 |
|      1 |    2.0 |
|      2 |    1.0 |
|      2 |    1.0 |
| <NULL> | <NULL> |
|      6 | <NULL> |
+--------+--------+
6 rows in set
!unordered
# SemiJoinITCase.testJoinConditionPushDownLeftAnti2
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT * FROM l WHERE NOT EXISTS (SELECT * FROM r WHERE b > 2);
+--------+--------+
|      a |      b |
+--------+--------+
|      1 |    2.0 |
|      1 |    2.0 |
|      2 |    1.0 |
|      2 |    1.0 |
| <NULL> | <NULL> |
|      6 | <NULL> |
+--------+--------+
6 rows in set
!unordered
# SemiJoinITCase.testJoinConditionPushDownLeftAnti3
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT * FROM l WHERE a NOT IN (SELECT c FROM r WHERE b = d AND b > 1);
+--------+--------+
|      a |      b |
+--------+--------+
|      1 |    2.0 |
|      1 |    2.0 |
|      3 |    3.0 |
|      2 |    1.0 |
|      2 |    1.0 |
| <NULL> | <NULL> |
|      6 | <NULL> |
+--------+--------+
7 rows in set
!unordered
# SemiJoinITCase.testJoinConditionPushDownLeftAnti4
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT * FROM l WHERE NOT EXISTS (SELECT * FROM r WHERE a = c AND b > 2);
+--------+--------+
|      a |      b |
+--------+--------+
|      1 |    2.0 |
|      1 |    2.0 |
|      2 |    1.0 |
|      2 |    1.0 |
| <NULL> | <NULL> |
| <NULL> |    5.0 |
|      6 | <NULL> |
+--------+--------+
7 rows in set
!unordered
# SemiJoinITCase.testInWithAggregate1: IN over a correlated aggregate
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT * FROM r WHERE c IN (SELECT SUM(a) FROM l WHERE b = d);
+---+-----+
| c |   d |
+---+-----+
| 4 | 1.0 |
+---+-----+
1 row in set
!ok
# SemiJoinITCase.testInWithAggregate2
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT * FROM l t1 WHERE a IN (SELECT DISTINCT a FROM l t2 WHERE t1.b = t2.b);
+---+-----+
| a |   b |
+---+-----+
| 1 | 2.0 |
| 1 | 2.0 |
| 2 | 1.0 |
| 2 | 1.0 |
| 3 | 3.0 |
+---+-----+
5 rows in set
!unordered
# SemiJoinITCase.testInWithAggregate3: COUNT(*) of a correlated empty set is 0
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT * FROM r WHERE CAST(c/2 AS BIGINT) IN (SELECT COUNT(*) FROM l WHERE b = d);
+---+-----+
| c |   d |
+---+-----+
| 2 | 3.0 |
| 2 | 3.0 |
| 4 | 1.0 |
+---+-----+
3 rows in set
!unordered
# SemiJoinITCase.testInWithNonEqualityCorrelationCondition1
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT * FROM r WHERE c IN (SELECT a FROM l WHERE b > d);
+---+-----+
| c |   d |
+---+-----+
| 3 | 2.0 |
+---+-----+
1 row in set
!ok
# SemiJoinITCase.testInWithNonEqualityCorrelationCondition2
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT * FROM l WHERE a IN (SELECT c FROM (SELECT MAX(c) AS c, d FROM r GROUP BY d) r WHERE l.b > r.d);
+---+-----+
| a |   b |
+---+-----+
| 3 | 3.0 |
+---+-----+
1 row in set
!ok
# SemiJoinITCase.testExistsWithNonEqualityCorrelationCondition
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT * FROM l WHERE EXISTS (SELECT c FROM r WHERE b > d);
+--------+-----+
|      a |   b |
+--------+-----+
|      1 | 2.0 |
|      1 | 2.0 |
|      3 | 3.0 |
| <NULL> | 5.0 |
+--------+-----+
4 rows in set
!unordered
# SemiJoinITCase.testRewriteScalarQueryWithoutCorrelation1..3: COUNT(*) compared with constants
SELECT COUNT(*) FROM l WHERE (SELECT COUNT(*) FROM r) > 0;
+--------+
| EXPR$0 |
+--------+
|      8 |
+--------+
1 row in set
!ok
SELECT COUNT(*) FROM l WHERE 0.99 < (SELECT COUNT(*) FROM r);
+--------+
| EXPR$0 |
+--------+
|      8 |
+--------+
1 row in set
!ok
SELECT COUNT(*) FROM l WHERE (SELECT COUNT(*) FROM r WHERE c > 5) >= 1;
+--------+
| EXPR$0 |
+--------+
|      8 |
+--------+
1 row in set
!ok
SELECT COUNT(*) FROM l WHERE 0.01 <= (SELECT COUNT(*) FROM r WHERE c > 15);
+--------+
| EXPR$0 |
+--------+
|      0 |
+--------+
1 row in set
!ok
# SemiJoinITCase.testRewriteScalarQueryWithCorrelation1
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT * FROM l WHERE (SELECT COUNT(*) FROM r WHERE a = c) > 0;
+---+--------+
| a |      b |
+---+--------+
| 2 |    1.0 |
| 2 |    1.0 |
| 3 |    3.0 |
| 6 | <NULL> |
+---+--------+
4 rows in set
!unordered
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT * FROM l WHERE 1 <= (SELECT COUNT(*) FROM r WHERE a = c);
+---+--------+
| a |      b |
+---+--------+
| 2 |    1.0 |
| 2 |    1.0 |
| 3 |    3.0 |
| 6 | <NULL> |
+---+--------+
4 rows in set
!unordered
# SemiJoinITCase.testRewriteScalarQueryWithCorrelation2
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT * FROM l WHERE (SELECT COUNT(*) FROM r WHERE a = c AND c > 5) >= 0.1;
+---+--------+
| a |      b |
+---+--------+
| 6 | <NULL> |
+---+--------+
1 row in set
!ok
# SemiJoinITCase.testRewriteScalarQueryWithCorrelation3
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT * FROM l WHERE 0 < (SELECT COUNT(*) FROM r WHERE a = c AND c > 15);
Empty set
!ok

# ScalarQueryITCase.testScalarSubQuery
SELECT * FROM l WHERE a = (SELECT c FROM r where c = 3);
+---+-----+
| a |   b |
+---+-----+
| 3 | 3.0 |
+---+-----+
1 row in set
!ok
# ScalarQueryITCase.testScalarSubQueryException: more than one row fails the job
SELECT * FROM l WHERE a = (SELECT c FROM r);
[ERROR] Could not execute SQL statement. Reason:
more than one
!error

# JoinITCase.testSimple
select a, b from l where a in (select c from r where c > 2);
+---+--------+
| a |      b |
+---+--------+
| 3 |    3.0 |
| 6 | <NULL> |
+---+--------+
2 rows in set
!unordered
# JoinITCase.testCorrelatedExist
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
select * from l where exists (select * from r where l.a = r.c);
+---+--------+
| a |      b |
+---+--------+
| 2 |    1.0 |
| 2 |    1.0 |
| 3 |    3.0 |
| 6 | <NULL> |
+---+--------+
4 rows in set
!unordered
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
select * from l where exists (select * from r where l.a = r.c) and l.a <= 2;
+---+-----+
| a |   b |
+---+-----+
| 2 | 1.0 |
| 2 | 1.0 |
+---+-----+
2 rows in set
!unordered
# JoinITCase.testCorrelatedNotExist
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
select * from l where not exists (select * from r where l.a = r.c and l.b <> r.d);
+--------+--------+
|      a |      b |
+--------+--------+
|      1 |    2.0 |
|      1 |    2.0 |
| <NULL> | <NULL> |
| <NULL> |    5.0 |
|      6 | <NULL> |
+--------+--------+
5 rows in set
!unordered
# JoinITCase.testUncorrelatedScalar
select (select 1) as b;
+---+
| b |
+---+
| 1 |
+---+
1 row in set
!ok
select (select 1 as b);
+--------+
| EXPR$0 |
+--------+
|      1 |
+--------+
1 row in set
!ok
# JoinITCase.testEqualWithAggScalar
select a, b from l where a = (select distinct (c) from r where c = 2);
+---+-----+
| a |   b |
+---+-----+
| 2 | 1.0 |
| 2 | 1.0 |
+---+-----+
2 rows in set
!unordered
# JoinITCase.testComparisonsScalar: an empty scalar subquery is NULL
select a, b from l where a = (select c from r where 1 = 2);
Empty set
!ok
select a, b from l where a >= 1.0 * (select avg(d) from r where c > 2);
+---+--------+
| a |      b |
+---+--------+
| 2 |    1.0 |
| 2 |    1.0 |
| 3 |    3.0 |
| 6 | <NULL> |
+---+--------+
4 rows in set
!unordered
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
select a, b from l where a * b < 2.0 * (select avg(d) from r where l.a = r.c and c < 6 );
+---+-----+
| a |   b |
+---+-----+
| 2 | 1.0 |
| 2 | 1.0 |
+---+-----+
2 rows in set
!unordered
# JoinITCase.testJoinConditionDerivedFromCorrelatedSubQueryNeedSimplify
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT B.a FROM SmallTable3 B WHERE b = (select count(*) from Table5 A where (A.d=B.a and A.d<3) or (A.d=B.a and B.b=5));
+---+
| a |
+---+
| 1 |
| 2 |
+---+
2 rows in set
!unordered

# scalar subqueries in the select list (SQL standard; NULL when empty)
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT a, (SELECT MAX(d) FROM r WHERE r.c = l.a) AS m FROM l WHERE a IS NOT NULL;
+---+--------+
| a |      m |
+---+--------+
| 2 |    3.0 |
| 2 |    3.0 |
| 3 |    2.0 |
| 6 | <NULL> |
| 1 | <NULL> |
| 1 | <NULL> |
+---+--------+
6 rows in set
!unordered
SELECT (SELECT COUNT(*) FROM r) AS n, (SELECT MIN(c) FROM r) AS m;
+---+---+
| n | m |
+---+---+
| 7 | 2 |
+---+---+
1 row in set
!ok
# IN / NOT IN in the select list with three-valued logic: x NOT IN (set containing NULL) is never TRUE
SELECT a, a IN (SELECT c FROM r), a NOT IN (SELECT c FROM r) FROM (VALUES (1), (2), (CAST(NULL AS INT))) AS t(a);
+--------+--------+--------+
|      a | EXPR$1 | EXPR$2 |
+--------+--------+--------+
|      2 |   TRUE |  FALSE |
|      1 | <NULL> | <NULL> |
| <NULL> | <NULL> | <NULL> |
+--------+--------+--------+
3 rows in set
!unordered
SELECT a, a IN (SELECT c FROM r WHERE c IS NOT NULL), a NOT IN (SELECT c FROM r WHERE c IS NOT NULL) FROM (VALUES (1), (2), (CAST(NULL AS INT))) AS t(a);
+--------+--------+--------+
|      a | EXPR$1 | EXPR$2 |
+--------+--------+--------+
|      2 |   TRUE |  FALSE |
|      1 |  FALSE |   TRUE |
| <NULL> | <NULL> | <NULL> |
+--------+--------+--------+
3 rows in set
!unordered
# x IN (empty set) is FALSE even for NULL x; NOT IN is TRUE
SELECT a, a IN (SELECT c FROM r WHERE c > 100), a NOT IN (SELECT c FROM r WHERE c > 100) FROM (VALUES (1), (CAST(NULL AS INT))) AS t(a);
+--------+--------+--------+
|      a | EXPR$1 | EXPR$2 |
+--------+--------+--------+
|      1 |  FALSE |   TRUE |
| <NULL> |  FALSE |   TRUE |
+--------+--------+--------+
2 rows in set
!unordered
# EXISTS in the select list
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT a, EXISTS (SELECT * FROM r WHERE r.c = t.a) FROM (VALUES (1), (2)) AS t(a);
+---+--------+
| a | EXPR$1 |
+---+--------+
| 2 |   TRUE |
| 1 |  FALSE |
+---+--------+
2 rows in set
!unordered
# IN over a multi-column subquery
SELECT * FROM l WHERE (a, b) IN (SELECT c, d FROM r WHERE d IS NOT NULL OR c = 6);
Empty set
!ok
SELECT * FROM SmallTable3 WHERE (a, b) IN (SELECT a, b FROM Table3 WHERE c LIKE 'Hello%');
+---+---+-------------+
| a | b |           c |
+---+---+-------------+
| 2 | 2 |       Hello |
| 3 | 2 | Hello world |
+---+---+-------------+
2 rows in set
!unordered
# IN with a list of values stays a plain predicate
SELECT c FROM SmallTable3 WHERE a IN (1, 3);
+-------------+
|           c |
+-------------+
|          Hi |
| Hello world |
+-------------+
2 rows in set
!unordered
# a subquery in HAVING
SELECT b, COUNT(*) FROM Table3 GROUP BY b HAVING COUNT(*) > (SELECT COUNT(*) FROM SmallTable3);
+---+--------+
| b | EXPR$1 |
+---+--------+
| 4 |      4 |
| 5 |      5 |
| 6 |      6 |
+---+--------+
3 rows in set
!unordered
# a scalar subquery must return one column (Calcite)
# riffle-only: error wording differs (Flink: Cannot apply $SCALAR_QUERY to arguments of type ... RECORDTYPE)
SELECT (SELECT c, d FROM r) FROM l;
[ERROR] Could not execute SQL statement. Reason:
one column
!error
# a correlated aggregate with a non-equality correlation (Calcite's value
# generator): each outer row aggregates the inner rows its condition selects
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT a, b, (SELECT COUNT(*) FROM r WHERE r.d < l.b) AS n, (SELECT SUM(c) FROM r WHERE r.d < l.b AND r.c <> l.a) AS s FROM l;
+--------+--------+---+--------+
|      a |      b | n |      s |
+--------+--------+---+--------+
|      1 |    2.0 | 1 |      4 |
|      1 |    2.0 | 1 |      4 |
|      3 |    3.0 | 2 |      4 |
| <NULL> |    5.0 | 4 | <NULL> |
|      2 |    1.0 | 0 | <NULL> |
|      2 |    1.0 | 0 | <NULL> |
| <NULL> | <NULL> | 0 | <NULL> |
|      6 | <NULL> | 0 | <NULL> |
+--------+--------+---+--------+
8 rows in set
!unordered
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT * FROM l WHERE (SELECT COUNT(*) FROM r WHERE r.d < l.b) > 1;
+--------+-----+
|      a |   b |
+--------+-----+
|      3 | 3.0 |
| <NULL> | 5.0 |
+--------+-----+
2 rows in set
!unordered
