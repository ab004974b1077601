# parser_forms.q - forms of Calcite's grammar (as in Flink's parser).
# Sources: Calcite Parser.jj: CaseExpression (WHEN takes a list of values
# in a simple CASE), TRIM (TRIM(BOTH x) reads x as the string: "This is to
# handle the case of TRIM(x)"), IntervalLiteralOrExpression (INTERVAL 2
# DAY, INTERVAL (expr) DAY, INTERVAL col DAY: the value times one unit);
# Flink's csv format docs ('csv.field-delimiter' = U&'\0001'); Flink's
# ARRAY_AGG([ ALL | DISTINCT ] expression [ RESPECT NULLS | IGNORE NULLS ]).

SET 'execution.runtime-mode' = 'batch';
[INFO] Execute statement succeeded.
!info

SELECT CASE 2 WHEN 1, 2 THEN 'a' ELSE 'b' END, CASE 3 WHEN 1, 2 THEN 'a' WHEN 3 THEN 'c' ELSE 'b' END;
+--------+--------+
| EXPR$0 | EXPR$1 |
+--------+--------+
|      a |      c |
+--------+--------+
1 row in set
!ok
SELECT x, CASE x WHEN 1, 3 THEN 'odd' WHEN 2, 4 THEN 'even' END FROM (VALUES (1), (2), (3), (5)) AS t(x);
+---+--------+
| x | EXPR$1 |
+---+--------+
| 1 |    odd |
| 2 |   even |
| 3 |    odd |
| 5 | <NULL> |
+---+--------+
4 rows in set
!ok
SELECT '[' || TRIM(BOTH ' x ') || ']', '[' || TRIM(LEADING ' x ') || ']', '[' || TRIM(TRAILING ' x ') || ']';
+--------+--------+--------+
| EXPR$0 | EXPR$1 | EXPR$2 |
+--------+--------+--------+
|    [x] |   [x ] |   [ x] |
+--------+--------+--------+
1 row in set
!ok
# riffle-only: Riffle extension: INTERVAL 1.5 SECOND with a fractional unquoted count (Flink: Unsupported casting from DECIMAL(2, 1))
SELECT INTERVAL 1 DAY, INTERVAL 100 DAY, INTERVAL -2 HOUR, DATE '2020-01-01' + INTERVAL 3 DAY, INTERVAL 1.5 SECOND;
+-----------------+-------------------+-----------------+------------+-----------------+
|          EXPR$0 |            EXPR$1 |          EXPR$2 |     EXPR$3 |          EXPR$4 |
+-----------------+-------------------+-----------------+------------+-----------------+
| +1 00:00:00.000 | +100 00:00:00.000 | -0 02:00:00.000 | 2020-01-04 | +0 00:00:01.500 |
+-----------------+-------------------+-----------------+------------+-----------------+
1 row in set
!ok
SELECT x, INTERVAL x MINUTE, INTERVAL (x + 1) MINUTE FROM (VALUES (1), (2)) AS t(x);
+---+-----------------+-----------------+
| x |          EXPR$1 |          EXPR$2 |
+---+-----------------+-----------------+
| 1 | +0 00:01:00.000 | +0 00:02:00.000 |
| 2 | +0 00:02:00.000 | +0 00:03:00.000 |
+---+-----------------+-----------------+
2 rows in set
!ok
# riffle-only: ARRAY_AGG input order is undefined: Flink 2.3.0 gives [1, NULL] or [NULL, 1] from run to run
SELECT ARRAY_AGG(x RESPECT NULLS), ARRAY_AGG(x IGNORE NULLS) FROM (VALUES (1), (CAST(NULL AS INT))) AS t(x);
+-----------+--------+
|    EXPR$0 | EXPR$1 |
+-----------+--------+
| [1, NULL] |    [1] |
+-----------+--------+
1 row in set
!ok
# Flink's SqlArrayConstructor accepts the empty array, typed
# ARRAY<INT NOT NULL> NOT NULL
# riffle-only: Riffle extension: the empty ARRAY[] constructor (Flink: Require at least 1 argument)
SELECT ARRAY[] AS e, CARDINALITY(ARRAY[]) AS n, ARRAY[] IS NULL AS z;
+----+---+-------+
|  e | n |     z |
+----+---+-------+
| [] | 0 | FALSE |
+----+---+-------+
1 row in set
!ok
# riffle-only: Riffle extension: the empty ARRAY[] constructor (Flink: Require at least 1 argument)
CREATE TEMPORARY VIEW empty_array AS SELECT ARRAY[] AS e;
[INFO] Execute statement succeeded.
!info
# riffle-only: depends on the view of the empty ARRAY[] constructor (Riffle extension)
DESCRIBE empty_array;
+------+---------------------+-------+-----+--------+-----------+
| name |                type |  null | key | extras | watermark |
+------+---------------------+-------+-----+--------+-----------+
|    e | ARRAY<INT NOT NULL> | FALSE |     |        |           |
+------+---------------------+-------+-----+--------+-----------+
1 row in set
!ok
CREATE TABLE tsv (a STRING, b INT) WITH ('connector' = 'filesystem', 'path' = '${TESTDATA}/csv-spaces/tab.tsv', 'format' = 'csv', 'csv.field-delimiter' = U&'\0009');
[INFO] Execute statement succeeded.
!info
SELECT * FROM tsv;
+---+---+
| a | b |
+---+---+
| 1 | 2 |
+---+---+
1 row in set
!ok
