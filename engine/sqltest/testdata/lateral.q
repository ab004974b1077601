# lateral.q - UNNEST [WITH ORDINALITY], LATERAL TABLE(table function),
# LATERAL subqueries, TABLE(f(...)) and UNNEST in FROM.
# Sources: flink-table-planner .../runtime/batch/sql/UnnestITCase.scala
# (cases named after its test methods); docs/content/docs/dev/table/sql/
# queries/joins.md ("Array, Multiset and Map Expansion", "Table Function");
# docs/content/docs/dev/table/functions/udfs.md ("Table Functions":
# SplitFunction, registered for these scripts by sqltest.RegisterDocFunctions).

SET 'execution.runtime-mode' = 'batch';
[INFO] Execute statement succeeded.
!info
SET 'sql-client.display.max-column-width' = '60';
[INFO] Execute statement succeeded.
!info

CREATE TEMPORARY VIEW T (a, b, c) AS VALUES (1, ARRAY[12, 45], ARRAY[ARRAY[12, 45]]), (2, ARRAY[41, 5], ARRAY[ARRAY[18], ARRAY[87]]), (3, ARRAY[18, 42], ARRAY[ARRAY[1], ARRAY[45]]);
[INFO] Execute statement succeeded.
!info
# UnnestITCase.testUnnestPrimitiveArrayFromTable
SELECT a, b, s FROM T, UNNEST(T.b) AS A (s);
+---+----------+----+
| a |        b |  s |
+---+----------+----+
| 1 | [12, 45] | 12 |
| 1 | [12, 45] | 45 |
| 2 |  [41, 5] | 41 |
| 2 |  [41, 5] |  5 |
| 3 | [18, 42] | 18 |
| 3 | [18, 42] | 42 |
+---+----------+----+
6 rows in set
!unordered
# UnnestITCase.testUnnestArrayOfArrayFromTable
SELECT a, s FROM T, UNNEST(T.c) AS A (s);
+---+----------+
| a |        s |
+---+----------+
| 1 | [12, 45] |
| 2 |     [18] |
| 2 |     [87] |
| 3 |      [1] |
| 3 |     [45] |
+---+----------+
5 rows in set
!unordered

CREATE TEMPORARY VIEW TR (a, b) AS VALUES (1, ARRAY[ROW(12, '45.6'), ROW(12, '45.612')]), (2, ARRAY[ROW(13, '41.6'), ROW(14, '45.2136')]), (3, ARRAY[ROW(18, '42.6')]);
[INFO] Execute statement succeeded.
!info
# UnnestITCase.testUnnestObjectArrayFromTableWithFilter: ROW elements expand into columns
SELECT a, s, t FROM TR, UNNEST(TR.b) AS A (s, t) WHERE s > 13;
+---+----+---------+
| a |  s |       t |
+---+----+---------+
| 2 | 14 | 45.2136 |
| 3 | 18 |    42.6 |
+---+----+---------+
2 rows in set
!unordered
# UnnestITCase.testUnnestObjectArrayWithoutAlias: the columns keep the row's field names
SELECT a, A.EXPR$0, A.EXPR$1 FROM TR, UNNEST(TR.b) AS A where A.EXPR$0 > 13;
+---+--------+---------+
| a | EXPR$0 |  EXPR$1 |
+---+--------+---------+
| 2 |     14 | 45.2136 |
| 3 |     18 |    42.6 |
+---+--------+---------+
2 rows in set
!unordered

CREATE TEMPORARY VIEW TC (a, b, c) AS VALUES (1, 1, ROW(12, '45.6')), (2, 2, ROW(12, '45.612')), (3, 2, ROW(13, '41.6')), (4, 3, ROW(14, '45.2136')), (5, 3, ROW(18, '42.6'));
[INFO] Execute statement succeeded.
!info
# UnnestITCase.testUnnestMultiSetFromCollectResult: UNNEST of a MULTISET
WITH T1 AS (SELECT b, COLLECT(c) as `set` FROM TC GROUP BY b) SELECT b, id, point FROM T1, UNNEST(T1.`set`) AS A(id, point) WHERE b < 3;
+---+----+--------+
| b | id |  point |
+---+----+--------+
| 1 | 12 |   45.6 |
| 2 | 12 | 45.612 |
| 2 | 13 |   41.6 |
+---+----+--------+
3 rows in set
!unordered

CREATE TEMPORARY VIEW TL (a, b, c) AS VALUES (1, '1', 'Hello'), (1, '2', 'Hello2'), (2, '2', 'Hello'), (3, CAST(NULL AS STRING), 'Hello'), (4, '4', 'Hello'), (5, '5', 'Hello'), (5, CAST(NULL AS STRING), 'Hello'), (6, '6', 'Hello'), (7, '7', 'Hello World'), (7, '8', 'Hello World');
[INFO] Execute statement succeeded.
!info
# UnnestITCase.testLeftUnnestMultiSetFromCollectResult: LEFT JOIN UNNEST keeps rows with an empty collection
WITH T1 AS (SELECT a, COLLECT(b) as `set` FROM TL GROUP BY a) SELECT a, s FROM T1 LEFT JOIN UNNEST(T1.`set`) AS A(s) ON TRUE WHERE a < 5;
+---+--------+
| a |      s |
+---+--------+
| 1 |      1 |
| 1 |      2 |
| 2 |      2 |
| 3 | <NULL> |
| 4 |      4 |
+---+--------+
5 rows in set
!unordered

CREATE TEMPORARY VIEW TS (a, b, c) AS VALUES (1, CAST(1 AS BIGINT), ARRAY['Hi', 'w']), (2, 2, ARRAY['Hello', 'k']), (3, 2, ARRAY['Hello world', 'x']);
[INFO] Execute statement succeeded.
!info
# UnnestITCase.testCrossWithUnnest
SELECT a, s FROM TS, UNNEST(TS.c) as A (s);
+---+-------------+
| a |           s |
+---+-------------+
| 1 |          Hi |
| 1 |           w |
| 2 |       Hello |
| 2 |           k |
| 3 | Hello world |
| 3 |           x |
+---+-------------+
6 rows in set
!unordered

CREATE TEMPORARY VIEW TM (a, b, c) AS VALUES (1, CAST(11 AS BIGINT), MAP['a', '10', 'b', '11']), (2, 22, MAP['c', '20']), (3, 33, MAP['d', '30', 'e', '31']);
[INFO] Execute statement succeeded.
!info
# UnnestITCase.testCrossWithUnnestForMap: a MAP unnests into key and value columns
SELECT a, b, v FROM TM CROSS JOIN UNNEST(c) as f (k, v);
+---+----+----+
| a |  b |  v |
+---+----+----+
| 1 | 11 | 10 |
| 1 | 11 | 11 |
| 2 | 22 | 20 |
| 3 | 33 | 30 |
| 3 | 33 | 31 |
+---+----+----+
5 rows in set
!unordered
# UnnestITCase.testUnnestMapWithDifferentKeyValueType
SELECT a, k, v FROM (VALUES (1, MAP['a', 10, 'b', 11]), (2, MAP['c', 20, 'd', 21])) AS T2(a, b), UNNEST(T2.b) as A(k, v);
+---+---+----+
| a | k |  v |
+---+---+----+
| 1 | a | 10 |
| 1 | b | 11 |
| 2 | c | 20 |
| 2 | d | 21 |
+---+---+----+
4 rows in set
!unordered

CREATE TEMPORARY VIEW TJ (a, b) AS VALUES (1, ARRAY[ROW(12, '45.6'), ROW(2, '45.612')]), (2, ARRAY[ROW(13, '41.6'), ROW(1, '45.2136')]), (3, ARRAY[ROW(18, '42.6')]);
[INFO] Execute statement succeeded.
!info
# UnnestITCase.testJoinWithUnnestOfTuple: a condition between the row and its elements
SELECT a, x, y FROM (SELECT a, b FROM TJ WHERE a < 3) as tf, UNNEST(tf.b) as A (x, y) WHERE x > a;
+---+----+--------+
| a |  x |      y |
+---+----+--------+
| 1 | 12 |   45.6 |
| 1 |  2 | 45.612 |
| 2 | 13 |   41.6 |
+---+----+--------+
3 rows in set
!unordered

# joins.md: a constant array, one row per element
SELECT * FROM (VALUES('order_1')), UNNEST(ARRAY['shirt', 'pants', 'hat']);
+---------+---------+
|  EXPR$0 | EXPR$00 |
+---------+---------+
| order_1 |   shirt |
| order_1 |   pants |
| order_1 |     hat |
+---------+---------+
3 rows in set
!unordered
# joins.md / FLINK-37267: WITH ORDINALITY adds the 1-based position
SELECT * FROM (VALUES('order_1')) CROSS JOIN UNNEST(ARRAY['shirt', 'pants', 'hat']) WITH ORDINALITY AS t(product_name, product_index);
+---------+--------------+---------------+
|  EXPR$0 | product_name | product_index |
+---------+--------------+---------------+
| order_1 |        shirt |             1 |
| order_1 |        pants |             2 |
| order_1 |          hat |             3 |
+---------+--------------+---------------+
3 rows in set
!unordered
SELECT a, s, n FROM TS CROSS JOIN UNNEST(TS.c) WITH ORDINALITY AS u(s, n);
+---+-------------+---+
| a |           s | n |
+---+-------------+---+
| 1 |          Hi | 1 |
| 1 |           w | 2 |
| 2 |       Hello | 1 |
| 2 |           k | 2 |
| 3 | Hello world | 1 |
| 3 |           x | 2 |
+---+-------------+---+
6 rows in set
!unordered
# an empty or NULL array produces no rows in a cross join, one NULL row in a left join
SELECT a, e FROM (VALUES (1, ARRAY[1, 2]), (2, CAST(NULL AS ARRAY<INT>))) AS v(a, arr) CROSS JOIN UNNEST(arr) AS u(e);
+---+---+
| a | e |
+---+---+
| 1 | 1 |
| 1 | 2 |
+---+---+
2 rows in set
!unordered
SELECT a, e FROM (VALUES (1, ARRAY[1, 2]), (2, CAST(NULL AS ARRAY<INT>))) AS v(a, arr) LEFT JOIN UNNEST(arr) AS u(e) ON TRUE;
+---+--------+
| a |      e |
+---+--------+
| 1 |      1 |
| 1 |      2 |
| 2 | <NULL> |
+---+--------+
3 rows in set
!unordered
# NULL elements are rows too
SELECT e FROM UNNEST(ARRAY[1, CAST(NULL AS INT), 3]) AS u(e);
+--------+
|      e |
+--------+
|      1 |
| <NULL> |
|      3 |
+--------+
3 rows in set
!unordered
# UNNEST alone in FROM over a constant
SELECT * FROM UNNEST(ARRAY['a', 'b']) WITH ORDINALITY AS u(s, i);
+---+---+
| s | i |
+---+---+
| a | 1 |
| b | 2 |
+---+---+
2 rows in set
!unordered

# udfs.md "Table Functions": LATERAL TABLE with SplitFunction
CREATE TEMPORARY VIEW MyTable (myField) AS VALUES ('hello world'), ('flink');
[INFO] Execute statement succeeded.
!info
# riffle-only: SplitFunction is the Java UDF of Flink's docs, registered only in Riffle's test process
SELECT myField, word, length FROM MyTable, LATERAL TABLE(SplitFunction(myField));
+-------------+-------+--------+
|     myField |  word | length |
+-------------+-------+--------+
| hello world | hello |      5 |
| hello world | world |      5 |
|       flink | flink |      5 |
+-------------+-------+--------+
3 rows in set
!unordered
# riffle-only: SplitFunction is the Java UDF of Flink's docs, registered only in Riffle's test process
SELECT myField, word, length FROM MyTable LEFT JOIN LATERAL TABLE(SplitFunction(myField)) ON TRUE;
+-------------+-------+--------+
|     myField |  word | length |
+-------------+-------+--------+
| hello world | hello |      5 |
| hello world | world |      5 |
|       flink | flink |      5 |
+-------------+-------+--------+
3 rows in set
!unordered
# udfs.md: rename the fields of the function in SQL
# riffle-only: SplitFunction is the Java UDF of Flink's docs, registered only in Riffle's test process
SELECT myField, newWord, newLength FROM MyTable LEFT JOIN LATERAL TABLE(SplitFunction(myField)) AS T(newWord, newLength) ON TRUE;
+-------------+---------+-----------+
|     myField | newWord | newLength |
+-------------+---------+-----------+
| hello world |   hello |         5 |
| hello world |   world |         5 |
|       flink |   flink |         5 |
+-------------+---------+-----------+
3 rows in set
!unordered
# a row the function emits nothing for is dropped by the inner join and kept by LEFT JOIN ... ON TRUE
# riffle-only: SplitFunction is the Java UDF of Flink's docs, registered only in Riffle's test process
SELECT f, word FROM (VALUES ('a b'), ('')) AS v(f), LATERAL TABLE(SplitFunction(f));
+-----+------+
|   f | word |
+-----+------+
| a b |    a |
| a b |    b |
+-----+------+
2 rows in set
!unordered
# riffle-only: SplitFunction is the Java UDF of Flink's docs, registered only in Riffle's test process
SELECT '[' || f || ']', word FROM (VALUES ('a b'), ('')) AS v(f) LEFT JOIN LATERAL TABLE(SplitFunction(f)) ON TRUE;
+--------+--------+
| EXPR$0 |   word |
+--------+--------+
|  [a b] |      a |
|  [a b] |      b |
|     [] | <NULL> |
+--------+--------+
3 rows in set
!unordered
# TABLE(f(...)) as a table of its own
# riffle-only: SplitFunction is the Java UDF of Flink's docs, registered only in Riffle's test process
SELECT * FROM TABLE(SplitFunction('x yy zzz'));
+------+--------+
| word | length |
+------+--------+
|    x |      1 |
|   yy |      2 |
|  zzz |      3 |
+------+--------+
3 rows in set
!unordered

# LATERAL subquery: a derived table that refers to the tables to its left (SQL standard)
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT v.a, w.x FROM (VALUES (1), (2), (3)) AS v(a), LATERAL (SELECT x FROM (VALUES (1), (2), (3)) AS u(x) WHERE u.x < v.a) AS w;
+---+---+
| a | x |
+---+---+
| 2 | 1 |
| 3 | 1 |
| 3 | 2 |
+---+---+
3 rows in set
!unordered
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT v.a, w.n FROM (VALUES (1), (2), (3)) AS v(a), LATERAL (SELECT COUNT(*) AS n FROM (VALUES (1), (2), (3)) AS u(x) WHERE u.x <= v.a) AS w;
+---+---+
| a | n |
+---+---+
| 1 | 1 |
| 2 | 2 |
| 3 | 3 |
+---+---+
3 rows in set
!unordered
# riffle-only: Flink limitation: Flink 2.3 cannot decorrelate this subquery (TableException: unexpected correlate variable in the plan)
SELECT v.a, w.n, w.s FROM (VALUES (1), (2), (99)) AS v(a), LATERAL (SELECT COUNT(*) AS n, SUM(x) AS s FROM (VALUES (1), (2), (2)) AS u(x) WHERE u.x = v.a) AS w;
+----+---+--------+
|  a | n |      s |
+----+---+--------+
|  1 | 1 |      1 |
|  2 | 2 |      4 |
| 99 | 0 | <NULL> |
+----+---+--------+
3 rows in set
!unordered

# UNNEST needs a collection
SELECT * FROM (VALUES (1)) AS v(a), UNNEST(v.a);
[ERROR] Could not execute SQL statement. Reason:
UNNEST
!error
# a function used with LATERAL TABLE must be a table function
# riffle-only: error wording differs (Flink: SQL parse failed. Incorrect syntax near the keyword 'UPPER' at line 1, column 53. Was expecting one of: "SPECIFIC" ... <BRACKET_QUOTED_IDENT)
SELECT * FROM (VALUES ('a')) AS v(s), LATERAL TABLE(UPPER(s));
[ERROR] Could not execute SQL statement. Reason:
is not a table function
!error
