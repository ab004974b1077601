# query_forms.q - query forms where Riffle's results differed from Flink's
# (expected values by hand from SQL's / Calcite's semantics).

SET 'execution.runtime-mode' = 'batch';
[INFO] Execute statement succeeded.
!info
CREATE TEMPORARY VIEW r(d, e, f) AS VALUES (1, CAST(2 AS BIGINT), 'x'), (2, CAST(5 AS BIGINT), 'x'), (3, CAST(3 AS BIGINT), 'w'), (CAST(NULL AS INT), CAST(4 AS BIGINT), 'z');
[INFO] Execute statement succeeded.
!info

# GROUP BY () is a global aggregate (Calcite makes one grouping set of all
# the keys a plain aggregation): one row also over no input
SELECT COUNT(*) AS n, SUM(e) AS s FROM r WHERE d > 100 GROUP BY ();
+---+--------+
| n |      s |
+---+--------+
| 0 | <NULL> |
+---+--------+
1 row in set
!ok
SELECT f, COUNT(*) AS n, GROUPING(f) AS g FROM r GROUP BY GROUPING SETS ((f));
+---+---+---+
| f | n | g |
+---+---+---+
| x | 2 | 0 |
| w | 1 | 0 |
| z | 1 | 0 |
+---+---+---+
3 rows in set
!unordered
