# subquery_decorrelate.q - decorrelation of subqueries in Flink's
# SubQuerySemiJoinTest forms and results Riffle used to get wrong.
# Expected rows were computed with sqlite3 over the same data (tables l, r,
# t, x, y, z below; the LATERAL case through an equivalent join).

SET 'execution.runtime-mode' = 'batch';
[INFO] Execute statement succeeded.
!info
CREATE TEMPORARY VIEW l(a, b, c) AS VALUES (1, CAST(2 AS BIGINT), 'x'), (2, CAST(3 AS BIGINT), 'y'), (3, CAST(NULL AS BIGINT), 'z'), (CAST(NULL AS INT), CAST(4 AS BIGINT), CAST(NULL AS STRING));
[INFO] Execute statement succeeded.
!info
CREATE TEMPORARY VIEW r(d, e, f) AS VALUES (1, CAST(2 AS BIGINT), 'x'), (2, CAST(5 AS BIGINT), 'x'), (3, CAST(3 AS BIGINT), 'w'), (CAST(NULL AS INT), CAST(4 AS BIGINT), 'z');
[INFO] Execute statement succeeded.
!info
CREATE TEMPORARY VIEW t(i, j, k) AS VALUES (1, CAST(2 AS BIGINT), 'x'), (4, CAST(3 AS BIGINT), 'y'), (2, CAST(4 AS BIGINT), 'z');
[INFO] Execute statement succeeded.
!info
CREATE TEMPORARY VIEW x(a, b) AS VALUES (1, CAST(2 AS BIGINT)), (2, CAST(3 AS BIGINT)), (3, CAST(NULL AS BIGINT)), (CAST(NULL AS INT), CAST(5 AS BIGINT));
[INFO] Execute statement succeeded.
!info
CREATE TEMPORARY VIEW y(c, d) AS VALUES (1, CAST(2 AS BIGINT)), (2, CAST(2 AS BIGINT)), (3, CAST(3 AS BIGINT)), (CAST(NULL AS INT), CAST(5 AS BIGINT));
[INFO] Execute statement succeeded.
!info
CREATE TEMPORARY VIEW z(e, f) AS VALUES (1, CAST(1 AS BIGINT)), (2, CAST(3 AS BIGINT)), (5, CAST(200 AS BIGINT));
[INFO] Execute statement succeeded.
!info

# WHERE (SELECT COUNT(*) ...) > 0 uses no column of the subquery's join
# input: the pruned projection has no columns (it used to be taken for the
# identity, and the job failed)
SELECT a, c FROM l WHERE (SELECT COUNT(*) FROM r) > 0;
+--------+--------+
|      a |      c |
+--------+--------+
|      1 |      x |
|      2 |      y |
|      3 |      z |
| <NULL> | <NULL> |
+--------+--------+
4 rows in set
!unordered

SELECT a FROM x WHERE (SELECT COUNT(*) FROM y WHERE d > 100) > 0;
Empty set
!ok

# a subquery before IN (a scalar subquery or IN inside CASE) is joined
# before the semi join that IN becomes
# SubQuerySemiJoinTest.testInWithCorrelatedOnWhere_ScalarQuery1
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT a FROM x WHERE (SELECT MAX(d) FROM y WHERE c > 0) IN (SELECT f FROM z WHERE z.e = x.a);
+---+
| a |
+---+
| 2 |
+---+
1 row in set
!unordered

# SubQuerySemiJoinTest.testInWithCorrelatedOnWhere_ScalarQuery3
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT a FROM x WHERE (SELECT MAX(d) FROM y WHERE c IN (SELECT e FROM z WHERE y.d = z.f)) IN (SELECT f FROM z WHERE z.e = x.a);
Empty set
!ok

# SubQuerySemiJoinTest.testInWithUncorrelatedOnWhere_Case2
SELECT b FROM l WHERE (CASE WHEN a IN (SELECT 1 FROM r) THEN 1 ELSE 2 END) IN (SELECT d FROM r);
+--------+
|      b |
+--------+
|      2 |
|      3 |
| <NULL> |
|      4 |
+--------+
4 rows in set
!unordered

# EXISTS over a block that aggregates without GROUP BY is TRUE: the block
# returns one row for every outer row, also when none correlates
SELECT a, c FROM l WHERE EXISTS (SELECT MAX(d) FROM r WHERE r.d = l.a);
+--------+--------+
|      a |      c |
+--------+--------+
|      1 |      x |
|      2 |      y |
|      3 |      z |
| <NULL> | <NULL> |
+--------+--------+
4 rows in set
!unordered

SELECT a, c FROM l WHERE NOT EXISTS (SELECT MAX(d) FROM r WHERE r.d = l.a);
Empty set
!ok

SELECT a, EXISTS (SELECT MAX(d) FROM r WHERE r.d = l.a) AS e FROM l;
+--------+------+
|      a |    e |
+--------+------+
|      1 | TRUE |
|      2 | TRUE |
|      3 | TRUE |
| <NULL> | TRUE |
+--------+------+
4 rows in set
!unordered

# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT a, EXISTS (SELECT MAX(d) FROM r WHERE r.d = l.a HAVING MAX(d) > 1) AS e FROM l;
+--------+-------+
|      a |     e |
+--------+-------+
|      1 | FALSE |
|      2 |  TRUE |
|      3 |  TRUE |
| <NULL> | FALSE |
+--------+-------+
4 rows in set
!unordered

# SubQuerySemiJoinTest.testExistsWithCorrelatedOnWhere_UnsupportedAggregate2
SELECT * FROM l WHERE EXISTS (SELECT MIN(e) FROM r WHERE l.c = r.f AND EXISTS (SELECT MAX(i) FROM t WHERE r.e > t.j));
+--------+--------+--------+
|      a |      b |      c |
+--------+--------+--------+
|      1 |      2 |      x |
|      2 |      3 |      y |
|      3 | <NULL> |      z |
| <NULL> |      4 | <NULL> |
+--------+--------+--------+
4 rows in set
!unordered

# ORDER BY and LIMIT n > 0 do not change EXISTS
# SubQuerySemiJoinTest.testExistsWithCorrelatedOnWhere_Limit1 / _SortLimit1
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT * FROM x WHERE EXISTS (SELECT 1 FROM y WHERE x.a = y.c LIMIT 1);
+---+--------+
| a |      b |
+---+--------+
| 1 |      2 |
| 2 |      3 |
| 3 | <NULL> |
+---+--------+
3 rows in set
!unordered

# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT * FROM x WHERE EXISTS (SELECT 1 FROM y WHERE a = c ORDER BY d LIMIT 1);
+---+--------+
| a |      b |
+---+--------+
| 1 |      2 |
| 2 |      3 |
| 3 | <NULL> |
+---+--------+
3 rows in set
!unordered

# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT * FROM x WHERE a IN (SELECT c FROM y WHERE y.d = x.b ORDER BY c);
+---+---+
| a | b |
+---+---+
| 1 | 2 |
+---+---+
1 row in set
!unordered

# the select list of EXISTS may use the outer row
# SubQuerySemiJoinTest.testExistsWithUncorrelatedOnWhere6 / testExistsWithCorrelatedOnWhere8
SELECT a FROM x WHERE EXISTS (SELECT x.b IS NULL FROM y);
+--------+
|      a |
+--------+
|      1 |
|      2 |
|      3 |
| <NULL> |
+--------+
4 rows in set
!unordered

# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT a FROM x WHERE EXISTS (SELECT x.a IS NULL FROM y WHERE y.d = x.b);
+--------+
|      a |
+--------+
|      1 |
|      2 |
| <NULL> |
+--------+
3 rows in set
!unordered

# so may the select list of an IN subquery that is a WHERE conjunct
# SubQuerySemiJoinTest.testInWithUncorrelatedOnWhere_UnsupportedCondition2 / testInWithCorrelatedOnWhere_UnsupportedCondition1
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT * FROM x WHERE a IN (SELECT x.b FROM r);
Empty set
!ok

# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT * FROM x WHERE a IN (SELECT x.a FROM y WHERE y.d = x.b);
+---+---+
| a | b |
+---+---+
| 1 | 2 |
| 2 | 3 |
+---+---+
2 rows in set
!unordered

# (NOT IN with one column is not an anti join but a three-valued value)
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT * FROM x WHERE a NOT IN (SELECT x.a + c FROM y WHERE y.d = x.b);
[ERROR] Could not execute SQL statement. Reason:
Correlated references in the select list of a subquery are supported in
!error

# and the value of a scalar subquery
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT a, (SELECT d + l.b FROM r WHERE r.d = l.a) AS v FROM l;
+--------+--------+
|      a |      v |
+--------+--------+
|      1 |      3 |
|      2 |      5 |
|      3 | <NULL> |
| <NULL> | <NULL> |
+--------+--------+
4 rows in set
!unordered

# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT a, (SELECT l.b * 10 FROM r WHERE r.d = l.a) AS v FROM l;
+--------+--------+
|      a |      v |
+--------+--------+
|      1 |     20 |
|      2 |     30 |
|      3 | <NULL> |
| <NULL> | <NULL> |
+--------+--------+
4 rows in set
!unordered

# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT a, (SELECT COALESCE(e, 0) + l.a FROM r WHERE r.d = l.a) AS v FROM l;
+--------+--------+
|      a |      v |
+--------+--------+
|      1 |      3 |
|      2 |      7 |
|      3 |      6 |
| <NULL> | <NULL> |
+--------+--------+
4 rows in set
!unordered

SELECT a, (SELECT e + l.a FROM r WHERE r.d = 3) AS v FROM l;
+--------+--------+
|      a |      v |
+--------+--------+
|      1 |      4 |
|      2 |      5 |
|      3 |      6 |
| <NULL> | <NULL> |
+--------+--------+
4 rows in set
!unordered

# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT a, (SELECT f || l.c FROM r WHERE r.d > l.a AND r.d < l.a + 2) AS v FROM l;
+--------+--------+
|      a |      v |
+--------+--------+
|      1 |     xx |
|      2 |     wy |
|      3 | <NULL> |
| <NULL> | <NULL> |
+--------+--------+
4 rows in set
!unordered

# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT a FROM l WHERE (SELECT e - l.b FROM r WHERE r.d = l.a) = 0;
+---+
| a |
+---+
| 1 |
+---+
1 row in set
!unordered

# more than one inner row fails the job, as SINGLE_VALUE does in Flink
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT a, (SELECT e + l.a FROM r WHERE r.f = l.c) FROM l;
[ERROR] Could not execute SQL statement. Reason:
Cannot create a scalar value from a subquery that returns more than one row
!error

# OVER windows in a correlated subquery span the rows that correlate with
# one outer row: they are partitioned by the correlation keys (or, for
# other comparisons, by the outer values joined in as Calcite's value
# generator does)
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT * FROM l WHERE b IN (SELECT COUNT(*) OVER () FROM r WHERE l.c = r.f);
+---+---+---+
| a | b | c |
+---+---+---+
| 1 | 2 | x |
+---+---+---+
1 row in set
!unordered

# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT * FROM l WHERE b IN (SELECT ROW_NUMBER() OVER (ORDER BY e) FROM r WHERE l.c = r.f);
+---+---+---+
| a | b | c |
+---+---+---+
| 1 | 2 | x |
+---+---+---+
1 row in set
!unordered

# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT * FROM l WHERE b IN (SELECT COUNT(*) OVER () + 1 FROM r WHERE l.c > r.f);
+---+---+---+
| a | b | c |
+---+---+---+
| 1 | 2 | x |
+---+---+---+
1 row in set
!unordered

# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT * FROM l WHERE b IN (SELECT ROW_NUMBER() OVER (ORDER BY e) + 1 FROM r WHERE l.a < r.d);
+---+---+---+
| a | b | c |
+---+---+---+
| 1 | 2 | x |
+---+---+---+
1 row in set
!unordered

# SubQuerySemiJoinTest.testInWithCorrelatedOnWhere_AggregateOver1
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT * FROM l WHERE b IN (SELECT MAX(r.e) OVER () FROM r WHERE l.c = r.f GROUP BY r.e);
Empty set
!ok

# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT a, v FROM l, LATERAL (SELECT MAX(r.e) OVER () AS v FROM r WHERE l.c = r.f GROUP BY r.e);
+---+---+
| a | v |
+---+---+
| 1 | 5 |
| 1 | 5 |
| 3 | 4 |
+---+---+
3 rows in set
!unordered

# an OVER call over a grouped column is the window's value, not the column
SELECT e, MAX(e) OVER () AS m, e + MIN(e) OVER () AS s FROM r GROUP BY e;
+---+---+---+
| e | m | s |
+---+---+---+
| 2 | 5 | 4 |
| 3 | 5 | 5 |
| 4 | 5 | 6 |
| 5 | 5 | 7 |
+---+---+---+
4 rows in set
!unordered

# the select list and HAVING of an aggregating query may correlate a
# subquery with a grouped column, also qualified (Flink's
# SubQuerySemiJoinTest.testInWithCorrelatedOnHaving / testExistsWithCorrelatedOnHaving)
# riffle-only: Flink bug: scalar subquery in SELECT with GROUP BY fails in the planner (Index out of range: 1)
SELECT b, (SELECT COUNT(*) FROM y WHERE y.d = x.b) AS n FROM x GROUP BY b;
+--------+---+
|      b | n |
+--------+---+
| <NULL> | 0 |
|      2 | 2 |
|      3 | 1 |
|      5 | 1 |
+--------+---+
4 rows in set
!unordered

# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT b, SUM(a) AS s FROM x GROUP BY b HAVING SUM(a) > (SELECT COUNT(*) FROM y WHERE y.d = x.b);
+--------+---+
|      b | s |
+--------+---+
| <NULL> | 3 |
|      3 | 2 |
+--------+---+
2 rows in set
!unordered

# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT SUM(a) AS s FROM x GROUP BY b HAVING MAX(a) IN (SELECT c FROM y WHERE y.d = x.b);
+---+
| s |
+---+
| 1 |
+---+
1 row in set
!unordered

# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT SUM(a) AS s FROM x GROUP BY b HAVING EXISTS (SELECT * FROM y WHERE y.d = x.b);
+--------+
|      s |
+--------+
|      1 |
|      2 |
| <NULL> |
+--------+
3 rows in set
!unordered

# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT x.b, COUNT(*) AS n FROM x GROUP BY x.b HAVING NOT EXISTS (SELECT * FROM y WHERE y.d = x.b);
+--------+---+
|      b | n |
+--------+---+
| <NULL> | 1 |
+--------+---+
1 row in set
!unordered

# riffle-only: Flink bug: correlated subquery in HAVING fails in the planner (Index 4 out of bounds for length 4)
SELECT f, COUNT(*) AS n FROM r GROUP BY f HAVING COUNT(*) >= (SELECT COUNT(*) FROM l WHERE l.c = r.f);
+---+---+
| f | n |
+---+---+
| w | 1 |
| x | 2 |
| z | 1 |
+---+---+
3 rows in set
!unordered

# a column the query does not group by
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT b, (SELECT COUNT(*) FROM y WHERE y.d = x.a) AS n FROM x GROUP BY b;
[ERROR] Could not execute SQL statement. Reason:
Expression 'x.a' is not being grouped
!error

# a derived table in the FROM clause of a subquery may correlate in its
# WHERE clause (inner joins, or the preserved side of an outer join): its
# conditions are lifted into the subquery block, as Calcite's decorrelator
# pulls them up (SubQuerySemiJoinTest.testExistsWithCorrelatedOnWhere_InnerJoin1..3,
# _RightJoin2, testInWithCorrelatedOnWhere_InnerJoin1,
# testExistsWithCorrelatedOnWhere_InsideWith1 written with a derived table)
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT * FROM l WHERE EXISTS (SELECT * FROM (SELECT f FROM r WHERE r.d = l.a AND r.e > 1) r1 INNER JOIN t ON r1.f = t.k);
+---+---+---+
| a | b | c |
+---+---+---+
| 1 | 2 | x |
| 2 | 3 | y |
+---+---+---+
2 rows in set
!unordered

# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT * FROM l WHERE EXISTS (SELECT * FROM r INNER JOIN (SELECT * FROM t WHERE t.j = l.b AND i < 50) t1 ON r.f = t1.k);
+--------+---+--------+
|      a | b |      c |
+--------+---+--------+
|      1 | 2 |      x |
| <NULL> | 4 | <NULL> |
+--------+---+--------+
2 rows in set
!unordered

# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT * FROM l WHERE EXISTS (SELECT * FROM (SELECT f FROM r WHERE r.d = l.a AND r.e > 1) r1 INNER JOIN (SELECT i, k FROM t WHERE t.j = l.b AND i < 50) t1 ON r1.f = t1.k);
+---+---+---+
| a | b | c |
+---+---+---+
| 1 | 2 | x |
+---+---+---+
1 row in set
!unordered

# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT * FROM l WHERE EXISTS (SELECT * FROM r RIGHT JOIN (SELECT * FROM t WHERE t.j = l.b AND i < 50) t1 ON r.f = t1.k);
+--------+---+--------+
|      a | b |      c |
+--------+---+--------+
|      1 | 2 |      x |
|      2 | 3 |      y |
| <NULL> | 4 | <NULL> |
+--------+---+--------+
3 rows in set
!unordered

# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT c FROM l WHERE b IN (SELECT d FROM r INNER JOIN (SELECT j FROM t WHERE l.c = t.k AND i > 0) t2 ON r.e = t2.j);
+---+
| c |
+---+
| y |
+---+
1 row in set
!unordered

# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT * FROM x WHERE EXISTS (SELECT 1 FROM (SELECT * FROM y WHERE y.c = x.a) y2 WHERE y2.d = x.b);
+---+---+
| a | b |
+---+---+
| 1 | 2 |
+---+---+
1 row in set
!unordered

# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT a, (SELECT COUNT(*) FROM (SELECT * FROM r WHERE r.d <= l.a) q) AS n FROM l;
+--------+---+
|      a | n |
+--------+---+
|      1 | 1 |
|      2 | 2 |
|      3 | 3 |
| <NULL> | 0 |
+--------+---+
4 rows in set
!unordered

# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT a, (SELECT SUM(q.e) FROM (SELECT e FROM r WHERE r.d < l.a) q) AS n FROM l;
+--------+--------+
|      a |      n |
+--------+--------+
|      1 | <NULL> |
|      2 |      2 |
|      3 |      7 |
| <NULL> | <NULL> |
+--------+--------+
4 rows in set
!unordered

# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT a FROM l WHERE NOT EXISTS (SELECT 1 FROM (SELECT d FROM (SELECT d, f FROM r WHERE r.f = l.c) q1 WHERE d > 1) q2);
+--------+
|      a |
+--------+
|      2 |
|      3 |
| <NULL> |
+--------+
3 rows in set
!unordered

# on the padded side of an outer join the condition cannot move up
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT * FROM l WHERE EXISTS (SELECT * FROM r LEFT JOIN (SELECT * FROM t WHERE t.j = l.b AND i < 50) t1 ON r.f = t1.k);
[ERROR] Could not execute SQL statement. Reason:
Correlated subqueries are supported with correlation in the WHERE clause of a simple SELECT only
!error

# WITH inside a subquery may correlate in the WITH query's WHERE clause
# (lifted at each reference, as a derived table's)
# SubQuerySemiJoinTest.testExistsWithCorrelatedOnWhere_InsideWith1 /
# testInWithCorrelatedOnWhere_InnerJoin2, _InnerJoin3
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT * FROM x WHERE EXISTS (WITH y2 AS (SELECT * FROM y WHERE y.c = x.a) SELECT 1 FROM y2 WHERE y2.d = x.b);
+---+---+
| a | b |
+---+---+
| 1 | 2 |
+---+---+
1 row in set
!unordered

# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT c FROM l WHERE b IN (WITH r1 AS (SELECT e, f FROM r WHERE l.a = r.d AND r.e < 50) SELECT t.j FROM r1 INNER JOIN t ON r1.f = t.k);
+---+
| c |
+---+
| x |
+---+
1 row in set
!unordered

# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT c FROM l WHERE b IN (WITH r1 AS (SELECT e FROM r WHERE l.a = r.d AND r.e < 50) SELECT e FROM r1 INNER JOIN (SELECT j FROM t WHERE l.c = t.k AND i > 0) t2 ON r1.e = t2.j);
+---+
| c |
+---+
| x |
+---+
1 row in set
!unordered

# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT a FROM l WHERE EXISTS (WITH q AS (SELECT d FROM r WHERE r.f = l.c) SELECT 1 FROM q q1, q q2 WHERE q1.d < q2.d);
+---+
| a |
+---+
| 1 |
+---+
1 row in set
!unordered

# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT a, (WITH q AS (SELECT e FROM r WHERE r.d <= l.a) SELECT SUM(e) FROM q) AS s FROM l;
+--------+--------+
|      a |      s |
+--------+--------+
|      1 |      2 |
|      2 |      7 |
|      3 |     10 |
| <NULL> | <NULL> |
+--------+--------+
4 rows in set
!unordered

# referenced from a subquery one level further in, the WITH query's
# correlation would be two levels out
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT a FROM l WHERE EXISTS (WITH q AS (SELECT d FROM r WHERE r.f = l.c) SELECT 1 FROM y WHERE EXISTS (SELECT 1 FROM q WHERE q.d = y.c));
[ERROR] Could not execute SQL statement. Reason:
Correlated subqueries are supported with correlation in the WHERE clause of a simple SELECT only
!error

# quantified comparisons x op SOME|ANY|ALL (subquery), as Calcite's
# SubQueryRemoveRule rewrites them (expected values by hand: r.d is
# 1, 2, 3, NULL): SOME is FALSE over no rows, ALL TRUE; a NULL x, or a
# comparison that is not true while the subquery has a NULL, is NULL
# riffle-only: Flink bug: quantified comparison SOME/ALL over an INT column reports implicit type conversion between VARCHAR and INTEGER
SELECT a, a > SOME (SELECT d FROM r) AS gt_some, a > ALL (SELECT d FROM r) AS gt_all, a = ANY (SELECT d FROM r) AS eq_any, a <> SOME (SELECT d FROM r) AS ne_some FROM l;
+--------+---------+--------+--------+---------+
|      a | gt_some | gt_all | eq_any | ne_some |
+--------+---------+--------+--------+---------+
|      1 |  <NULL> |  FALSE |   TRUE |    TRUE |
|      2 |    TRUE |  FALSE |   TRUE |    TRUE |
|      3 |    TRUE |  FALSE |   TRUE |    TRUE |
| <NULL> |  <NULL> | <NULL> | <NULL> |  <NULL> |
+--------+---------+--------+--------+---------+
4 rows in set
!unordered
# riffle-only: Flink bug: quantified comparison SOME/ALL over an INT column reports implicit type conversion between VARCHAR and INTEGER
SELECT a, a = ALL (SELECT d FROM r WHERE d = 1) AS eq_all, a <= ALL (SELECT d FROM r WHERE d > 100) AS le_all_empty, a < SOME (SELECT d FROM r WHERE d > 100) AS lt_some_empty FROM l;
+--------+--------+--------------+---------------+
|      a | eq_all | le_all_empty | lt_some_empty |
+--------+--------+--------------+---------------+
|      1 |   TRUE |         TRUE |         FALSE |
|      2 |  FALSE |         TRUE |         FALSE |
|      3 |  FALSE |         TRUE |         FALSE |
| <NULL> | <NULL> |         TRUE |         FALSE |
+--------+--------+--------------+---------------+
4 rows in set
!unordered
# correlated: l(2, 'y') and l(NULL, NULL) correlate with no row (ALL is
# TRUE), l(1, 'x') has 1 >= 2 false, l(3, 'z') compares with NULL
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT a FROM l WHERE a >= ALL (SELECT d FROM r WHERE r.f = l.c);
+--------+
|      a |
+--------+
|      2 |
| <NULL> |
+--------+
2 rows in set
!unordered
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT a FROM l WHERE a < ANY (SELECT d FROM r WHERE r.e > l.b);
+---+
| a |
+---+
| 1 |
+---+
1 row in set
!unordered
SELECT a FROM l WHERE b > ALL (SELECT e FROM r WHERE e < 5 UNION SELECT j FROM t);
Empty set
!ok
# riffle-only: error wording differs (Flink: Values passed to IN operator must have compatible types)
SELECT a FROM l WHERE a > ALL (SELECT d, e FROM r);
[ERROR] Could not execute SQL statement. Reason:
The subquery of ALL must return exactly one column, it returns 2
!error

# an uncorrelated subquery may sort and limit (ORDER BY d puts NULL first,
# DESC last, as Flink does; expected values by hand)
SELECT a FROM l WHERE a IN (SELECT d FROM r ORDER BY d LIMIT 2);
+---+
| a |
+---+
| 1 |
+---+
1 row in set
!unordered
SELECT a, (SELECT d FROM r ORDER BY d DESC LIMIT 1) AS m FROM l;
+--------+---+
|      a | m |
+--------+---+
|      1 | 3 |
|      2 | 3 |
|      3 | 3 |
| <NULL> | 3 |
+--------+---+
4 rows in set
!unordered
SELECT a FROM l WHERE EXISTS (SELECT d FROM r ORDER BY e LIMIT 1 OFFSET 4);
Empty set
!ok
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT a, (SELECT d FROM r WHERE r.d = l.a ORDER BY d LIMIT 1) FROM l;
[ERROR] Could not execute SQL statement. Reason:
ORDER BY, LIMIT and OFFSET are not supported in a correlated subquery
!error
