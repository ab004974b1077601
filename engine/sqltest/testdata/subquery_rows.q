# subquery_rows.q - (a, b) [NOT] IN (subquery) with row values.
# Sources: Flink's SubQueryAntiJoinTest (a row NOT IN becomes a null-aware
# anti join: per column OR(=(a, c), IS NULL(=(a, c)))), SubQuerySemiJoinTest
# (row IN: a semi join on the equalities), SQL's three-valued row
# comparison (a row NOT IN keeps a row only when every subquery row
# differs from it in some column).

SET 'execution.runtime-mode' = 'batch';
[INFO] Execute statement succeeded.
!info

SELECT * FROM (VALUES (1, 'a'), (2, 'b'), (3, CAST(NULL AS STRING)), (4, 'd')) AS l(a, b) WHERE (a, b) NOT IN (SELECT c, d FROM (VALUES (1, 'a'), (2, 'x'), (CAST(NULL AS INT), 'd')) AS r(c, d));
+---+---+
| a | b |
+---+---+
| 2 | b |
+---+---+
1 row in set
!ok
SELECT * FROM (VALUES (1, 'a'), (2, 'b'), (3, CAST(NULL AS STRING)), (4, 'd')) AS l(a, b) WHERE (a, b) IN (SELECT c, d FROM (VALUES (1, 'a'), (2, 'x'), (CAST(NULL AS INT), 'd')) AS r(c, d));
+---+---+
| a | b |
+---+---+
| 1 | a |
+---+---+
1 row in set
!ok
# an empty subquery keeps every row, NULLs included
SELECT * FROM (VALUES (1, 'a'), (CAST(NULL AS INT), 'b')) AS l(a, b) WHERE (a, b) NOT IN (SELECT c, d FROM (VALUES (1, 'a')) AS r(c, d) WHERE c > 5);
+--------+---+
|      a | b |
+--------+---+
|      1 | a |
| <NULL> | b |
+--------+---+
2 rows in set
!unordered
# correlated
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS l(a, b) WHERE (a, b) NOT IN (SELECT c, d FROM (VALUES (1, 'a'), (2, 'c')) AS r(c, d) WHERE r.c = l.a);
+---+---+
| a | b |
+---+---+
| 2 | b |
+---+---+
1 row in set
!ok
SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS l(a, b) WHERE a > 0 AND (a, b) NOT IN (SELECT c, d FROM (VALUES (1, 'a')) AS r(c, d)) AND b <> 'z';
+---+---+
| a | b |
+---+---+
| 2 | b |
+---+---+
1 row in set
!ok
# riffle-only: Riffle limitation: row-valued NOT IN with a subquery outside WHERE (Flink accepts it)
SELECT (a, b) NOT IN (SELECT c, d FROM (VALUES (1, 'a')) AS r(c, d)) FROM (VALUES (1, 'a')) AS l(a, b);
[ERROR] Could not execute SQL statement. Reason:
IN and NOT IN with a row value and a subquery are supported only as a WHERE conjunct
!error
