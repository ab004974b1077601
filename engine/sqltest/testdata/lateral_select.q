# lateral_select.q - a LATERAL subquery's select list using the outer row.
# Sources: Flink's LateralJoinITCase / CorrelateITCase style queries and
# Calcite's decorrelator, which evaluates a correlated projection over the
# joined row (a LEFT JOIN LATERAL row without an inner match is all NULL).

SET 'execution.runtime-mode' = 'batch';
[INFO] Execute statement succeeded.
!info

# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT a, x FROM (VALUES (1), (2)) AS l(a), LATERAL (SELECT l.a * 10 AS x);
+---+----+
| a |  x |
+---+----+
| 1 | 10 |
| 2 | 20 |
+---+----+
2 rows in set
!ok
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT a, x, c FROM (VALUES (1), (2), (3)) AS l(a), LATERAL (SELECT c + l.a AS x, c FROM (VALUES (1, 10), (2, 20), (2, 30)) AS r(k, c) WHERE r.k = l.a);
+---+----+----+
| a |  x |  c |
+---+----+----+
| 1 | 11 | 10 |
| 2 | 22 | 20 |
| 2 | 32 | 30 |
+---+----+----+
3 rows in set
!unordered
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT a, x, y FROM (VALUES (1), (2), (3)) AS l(a) LEFT JOIN LATERAL (SELECT c + l.a AS x, l.a * 2 AS y FROM (VALUES (1, 10), (2, 20)) AS r(k, c) WHERE r.k = l.a) AS t ON TRUE;
+---+--------+--------+
| a |      x |      y |
+---+--------+--------+
| 1 |     11 |      2 |
| 2 |     22 |      4 |
| 3 | <NULL> | <NULL> |
+---+--------+--------+
3 rows in set
!unordered
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT a, v FROM (VALUES (1), (2)) AS l(a), LATERAL (SELECT l.a + k FROM (VALUES (1), (5)) AS r(k) WHERE k > l.a) AS t(v);
+---+---+
| a | v |
+---+---+
| 1 | 6 |
| 2 | 7 |
+---+---+
2 rows in set
!unordered
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT a, s FROM (VALUES ('x'), ('y')) AS l(a) CROSS JOIN LATERAL (SELECT UPPER(l.a) || b AS s FROM (VALUES ('1'), ('2')) AS r(b));
+---+----+
| a |  s |
+---+----+
| x | X1 |
| x | X2 |
| y | Y1 |
| y | Y2 |
+---+----+
4 rows in set
!unordered
# aggregating blocks keep correlation to WHERE
# riffle-only: error wording differs (Flink: From line 1, column 70 to line 1, column 72: Expression 'l.a' is not being grouped)
SELECT a, x FROM (VALUES (1), (2)) AS l(a), LATERAL (SELECT SUM(c) + l.a AS x FROM (VALUES (1, 10)) AS r(k, c) WHERE r.k = l.a);
[ERROR] Could not execute SQL statement. Reason:
Correlated references are only supported in the WHERE clause of a subquery
!error
# a scalar subquery's value may use the outer row (Calcite decorrelates the
# projection); no inner row gives NULL
SELECT a, (SELECT c + l.a FROM (VALUES (1, 10), (2, 20)) AS r(k, c) WHERE r.k = l.a) FROM (VALUES (1), (2), (3)) AS l(a);
+---+--------+
| a | EXPR$1 |
+---+--------+
| 1 |     11 |
| 2 |     22 |
| 3 | <NULL> |
+---+--------+
3 rows in set
!unordered
