# aggregates.q - aggregate functions, DISTINCT and FILTER.
# Sources: docs/data/sql_functions.yml ("aggregate"; examples quoted),
# MathAggFunctionITCase.java (variance family over integral, approximate
# and decimal inputs), the seed inventory §6 (E-44..E-46, E-73),
# LogicalTypeMerging (SUM/AVG result types).

SET 'execution.runtime-mode' = 'batch';
[INFO] Execute statement succeeded.
!info
SET 'sql-client.display.max-column-width' = '60';
[INFO] Execute statement succeeded.
!info

CREATE TEMPORARY VIEW t AS SELECT * FROM (VALUES ('a', 1, 'x'), ('a', 2, 'y'), ('a', 2, CAST(NULL AS STRING)), ('b', 5, 'z'), ('c', CAST(NULL AS INT), 'w')) AS v(k, n, s);
[INFO] Execute statement succeeded.
!info

# seed §6 E-44: SUM of only NULLs is NULL, SUM0 is 0; COUNT counts non-NULL values
# riffle-only: Riffle extension: SUM0 is callable in SQL (Flink keeps $SUM0 internal: No match found for function signature SUM0)
SELECT k, SUM(n), SUM0(n), COUNT(n), COUNT(*) FROM t GROUP BY k;
+---+--------+--------+--------+--------+
| k | EXPR$1 | EXPR$2 | EXPR$3 | EXPR$4 |
+---+--------+--------+--------+--------+
| a |      5 |      5 |      3 |      3 |
| b |      5 |      5 |      1 |      1 |
| c | <NULL> |      0 |      0 |      1 |
+---+--------+--------+--------+--------+
3 rows in set
!unordered
SELECT MIN(n), MAX(n), AVG(n), COUNT(DISTINCT n), SUM(DISTINCT n) FROM t;
+--------+--------+--------+--------+--------+
| EXPR$0 | EXPR$1 | EXPR$2 | EXPR$3 | EXPR$4 |
+--------+--------+--------+--------+--------+
|      1 |      5 |      2 |      3 |      8 |
+--------+--------+--------+--------+--------+
1 row in set
!ok
# COUNT(DISTINCT) per group: NULL arguments are ignored, FILTER applies
# before the distinct set, a group with only NULLs counts 0
SELECT k, COUNT(DISTINCT s), COUNT(DISTINCT s) FILTER (WHERE n > 1), COUNT(DISTINCT n) FROM t GROUP BY k;
+---+--------+--------+--------+
| k | EXPR$1 | EXPR$2 | EXPR$3 |
+---+--------+--------+--------+
| a |      2 |      1 |      2 |
| b |      1 |      1 |      1 |
| c |      1 |      0 |      0 |
+---+--------+--------+--------+
3 rows in set
!unordered
# COUNT(1) counts rows (sql_functions.yml COUNT(*) / COUNT(1))
SELECT COUNT(1), COUNT(*) FROM t;
+--------+--------+
| EXPR$0 | EXPR$1 |
+--------+--------+
|      5 |      5 |
+--------+--------+
1 row in set
!ok
# a global aggregate over no rows returns one row (SQL standard)
SELECT COUNT(*), SUM(n), MAX(s) FROM t WHERE n > 100;
+--------+--------+--------+
| EXPR$0 | EXPR$1 | EXPR$2 |
+--------+--------+--------+
|      0 | <NULL> | <NULL> |
+--------+--------+--------+
1 row in set
!ok
# a grouped aggregate over no rows returns no rows
SELECT k, COUNT(*) FROM t WHERE n > 100 GROUP BY k;
Empty set
!ok
# AVG over an integer type is an integer (truncated); over DECIMAL a DECIMAL(38, max(6, s))
SELECT AVG(x) FROM (VALUES (1), (2)) AS v(x);
+--------+
| EXPR$0 |
+--------+
|      1 |
+--------+
1 row in set
!ok
SELECT AVG(x) FROM (VALUES (CAST(1 AS DECIMAL(10, 2))), (CAST(2 AS DECIMAL(10, 2)))) AS v(x);
+----------+
|   EXPR$0 |
+----------+
| 1.500000 |
+----------+
1 row in set
!ok
SELECT AVG(x) FROM (VALUES (1.0E0), (2.0E0)) AS v(x);
+--------+
| EXPR$0 |
+--------+
|    1.5 |
+--------+
1 row in set
!ok
SELECT SUM(x) FROM (VALUES (CAST(1.25 AS DECIMAL(10, 2))), (CAST(2.5 AS DECIMAL(10, 2)))) AS v(x);
+--------+
| EXPR$0 |
+--------+
|   3.75 |
+--------+
1 row in set
!ok
# FILTER (WHERE ...) and DISTINCT (seed §6 E-46: SUM(DISTINCT b))
SELECT k, COUNT(*) FILTER (WHERE n > 1), SUM(n) FILTER (WHERE s IS NOT NULL), SUM(DISTINCT n) FROM t GROUP BY k;
+---+--------+--------+--------+
| k | EXPR$1 | EXPR$2 | EXPR$3 |
+---+--------+--------+--------+
| a |      2 |      3 |      3 |
| b |      1 |      5 |      5 |
| c |      0 | <NULL> | <NULL> |
+---+--------+--------+--------+
3 rows in set
!unordered
# riffle-only: Riffle extension: COUNT(DISTINCT a, b) (Flink: We now only support the count of one field)
SELECT COUNT(DISTINCT k, n) FROM t;
+--------+
| EXPR$0 |
+--------+
|      3 |
+--------+
1 row in set
!ok
# HAVING
SELECT k, SUM(n) FROM t GROUP BY k HAVING SUM(n) > 4;
+---+--------+
| k | EXPR$1 |
+---+--------+
| a |      5 |
| b |      5 |
+---+--------+
2 rows in set
!unordered
SELECT k FROM t GROUP BY k HAVING COUNT(*) > 1;
+---+
| k |
+---+
| a |
+---+
1 row in set
!ok
# expressions over aggregates and group keys
SELECT k || '!', SUM(n) * 2 + 1 FROM t GROUP BY k ORDER BY k;
+--------+--------+
| EXPR$0 | EXPR$1 |
+--------+--------+
|     a! |     11 |
|     b! |     11 |
|     c! | <NULL> |
+--------+--------+
3 rows in set
!ok
SELECT n FROM t GROUP BY n ORDER BY n NULLS FIRST;
+--------+
|      n |
+--------+
| <NULL> |
|      1 |
|      2 |
|      5 |
+--------+
4 rows in set
!ok
# MIN / MAX of strings, dates, booleans
SELECT MIN(s), MAX(s) FROM t;
+--------+--------+
| EXPR$0 | EXPR$1 |
+--------+--------+
|      w |      z |
+--------+--------+
1 row in set
!ok
SELECT MIN(d), MAX(d) FROM (VALUES (DATE '2020-01-02'), (DATE '2019-05-01')) AS v(d);
+------------+------------+
|     EXPR$0 |     EXPR$1 |
+------------+------------+
| 2019-05-01 | 2020-01-02 |
+------------+------------+
1 row in set
!ok
SELECT MIN(b), MAX(b) FROM (VALUES (TRUE), (FALSE)) AS v(b);
+--------+--------+
| EXPR$0 | EXPR$1 |
+--------+--------+
|  FALSE |   TRUE |
+--------+--------+
1 row in set
!ok

# MathAggFunctionITCase "integer numeric": results in the input type
SELECT STDDEV_POP(f1), STDDEV_SAMP(f1), VAR_POP(f1), VAR_SAMP(f1) FROM (VALUES (CAST(1 AS TINYINT)), (CAST(2 AS TINYINT)), (CAST(3 AS TINYINT))) AS v(f1);
+--------+--------+--------+--------+
| EXPR$0 | EXPR$1 | EXPR$2 | EXPR$3 |
+--------+--------+--------+--------+
|      0 |      1 |      0 |      1 |
+--------+--------+--------+--------+
1 row in set
!ok
SELECT STDDEV_POP(f2), STDDEV_SAMP(f2), VAR_POP(f2), VAR_SAMP(f2) FROM (VALUES (CAST(16 AS SMALLINT)), (CAST(32 AS SMALLINT)), (CAST(48 AS SMALLINT))) AS v(f2);
+--------+--------+--------+--------+
| EXPR$0 | EXPR$1 | EXPR$2 | EXPR$3 |
+--------+--------+--------+--------+
|     13 |     16 |    170 |    256 |
+--------+--------+--------+--------+
1 row in set
!ok
SELECT STDDEV_POP(f3), STDDEV_SAMP(f3), VAR_POP(f3), VAR_SAMP(f3) FROM (VALUES (256), (512), (768)) AS v(f3);
+--------+--------+--------+--------+
| EXPR$0 | EXPR$1 | EXPR$2 | EXPR$3 |
+--------+--------+--------+--------+
|    209 |    256 |  43690 |  65536 |
+--------+--------+--------+--------+
1 row in set
!ok
SELECT STDDEV_POP(f4), STDDEV_SAMP(f4), VAR_POP(f4), VAR_SAMP(f4) FROM (VALUES (CAST(4096 AS BIGINT)), (CAST(8192 AS BIGINT)), (CAST(12288 AS BIGINT))) AS v(f4);
+--------+--------+----------+----------+
| EXPR$0 | EXPR$1 |   EXPR$2 |   EXPR$3 |
+--------+--------+----------+----------+
|   3344 |   4096 | 11184810 | 16777216 |
+--------+--------+----------+----------+
1 row in set
!ok
# "approximate numeric"
SELECT ROUND(STDDEV_POP(f2), 6), ROUND(STDDEV_SAMP(f2), 6), ROUND(VAR_POP(f2), 6), ROUND(VAR_SAMP(f2), 6) FROM (VALUES (1.0E0), (1.5E0), (2.0E0)) AS v(f2);
+----------+--------+----------+--------+
|   EXPR$0 | EXPR$1 |   EXPR$2 | EXPR$3 |
+----------+--------+----------+--------+
| 0.408248 |    0.5 | 0.166667 |   0.25 |
+----------+--------+----------+--------+
1 row in set
!ok
# "decimal": DECIMAL(10, 2) inputs give DECIMAL(38, 6)
SELECT ROUND(STDDEV_POP(f1), 6), ROUND(STDDEV_SAMP(f1), 6), ROUND(VAR_POP(f1), 6), ROUND(VAR_SAMP(f1), 6) FROM (VALUES (CAST(0.27 AS DECIMAL(10, 2))), (CAST(0.28 AS DECIMAL(10, 2))), (CAST(0.29 AS DECIMAL(10, 2)))) AS v(f1);
+----------+----------+----------+----------+
|   EXPR$0 |   EXPR$1 |   EXPR$2 |   EXPR$3 |
+----------+----------+----------+----------+
| 0.008165 | 0.010000 | 0.000067 | 0.000100 |
+----------+----------+----------+----------+
1 row in set
!ok
# "failed case of FLINK-38740": no negative variance from rounding
SELECT STDDEV_POP(f1), STDDEV_SAMP(f1), VAR_POP(f1) < 0, VAR_SAMP(f1) < 0 FROM (VALUES (0.27E0), (0.27E0), (0.27E0)) AS v(f1);
+--------+--------+--------+--------+
| EXPR$0 | EXPR$1 | EXPR$2 | EXPR$3 |
+--------+--------+--------+--------+
|    0.0 |    0.0 |  FALSE |  FALSE |
+--------+--------+--------+--------+
1 row in set
!ok
# sample variants are NULL for one row; VARIANCE is VAR_SAMP (sql_functions.yml)
SELECT VAR_SAMP(x), STDDEV_SAMP(x), VARIANCE(x) FROM (VALUES (1.0E0)) AS v(x);
+--------+--------+--------+
| EXPR$0 | EXPR$1 | EXPR$2 |
+--------+--------+--------+
| <NULL> | <NULL> | <NULL> |
+--------+--------+--------+
1 row in set
!ok
SELECT VARIANCE(f3) FROM (VALUES (256), (512), (768)) AS v(f3);
+--------+
| EXPR$0 |
+--------+
|  65536 |
+--------+
1 row in set
!ok

# COLLECT: a MULTISET of the non-NULL values
SELECT k, COLLECT(s) FROM t WHERE k <> 'a' GROUP BY k;
+---+--------+
| k | EXPR$1 |
+---+--------+
| b |  {z=1} |
| c |  {w=1} |
+---+--------+
2 rows in set
!unordered
SELECT COLLECT(x) FROM (VALUES ('a'), ('a'), ('b')) AS v(x) WHERE x = 'a';
+--------+
| EXPR$0 |
+--------+
|  {a=2} |
+--------+
1 row in set
!ok
SELECT COLLECT(DISTINCT x) FROM (VALUES ('a'), ('a')) AS v(x);
+--------+
| EXPR$0 |
+--------+
|  {a=1} |
+--------+
1 row in set
!ok
# LISTAGG: separator ',' by default; NULLs skipped
# riffle-only: order of LISTAGG/ARRAY_AGG input undefined: Flink aggregates in another order (b,a)
SELECT LISTAGG(x) FROM (VALUES ('a'), (CAST(NULL AS STRING)), ('b')) AS v(x);
+--------+
| EXPR$0 |
+--------+
|    a,b |
+--------+
1 row in set
!ok
# riffle-only: order of LISTAGG input undefined (as above)
SELECT LISTAGG(x, '; ') FROM (VALUES ('a'), ('b')) AS v(x);
+--------+
| EXPR$0 |
+--------+
|   a; b |
+--------+
1 row in set
!ok
# FIRST_VALUE / LAST_VALUE ignore NULLs
# riffle-only: FIRST_VALUE/LAST_VALUE depend on the input order, undefined over VALUES: Flink 2.3.0 gave other values on some runs
SELECT FIRST_VALUE(x), LAST_VALUE(x) FROM (VALUES (CAST(NULL AS INT)), (1), (2), (CAST(NULL AS INT))) AS v(x);
+--------+--------+
| EXPR$0 | EXPR$1 |
+--------+--------+
|      1 |      2 |
+--------+--------+
1 row in set
!ok
# ARRAY_AGG: NULLs respected by default; NULL for no rows
# (ARRAY_AGG(x IGNORE NULLS) needs parser support, not yet there)
# riffle-only: ARRAY_AGG input order is undefined: Flink gives the elements in varying orders from run to run
SELECT ARRAY_AGG(x) FROM (VALUES (1), (CAST(NULL AS INT)), (2)) AS v(x);
+--------------+
|       EXPR$0 |
+--------------+
| [1, NULL, 2] |
+--------------+
1 row in set
!ok
SELECT ARRAY_AGG(DISTINCT x) FROM (VALUES (1), (1), (2)) AS v(x);
+--------+
| EXPR$0 |
+--------+
| [1, 2] |
+--------+
1 row in set
!ok
# riffle-only: Flink bug: ARRAY_AGG over no rows is typed NOT NULL yet yields NULL (sink not-null enforcer fails)
SELECT ARRAY_AGG(x) FROM (VALUES (1)) AS v(x) WHERE x > 1;
+--------+
| EXPR$0 |
+--------+
| <NULL> |
+--------+
1 row in set
!ok
# sql_functions.yml JSON_OBJECTAGG / JSON_ARRAYAGG examples over an orders table
CREATE TEMPORARY VIEW orders AS SELECT * FROM (VALUES ('Apple', 2), ('Banana', 17), ('Orange', 0)) AS o(product, cnt);
[INFO] Execute statement succeeded.
!info
SELECT JSON_OBJECTAGG(KEY product VALUE cnt) FROM orders;
+------------------------------------+
|                             EXPR$0 |
+------------------------------------+
| {"Apple":2,"Banana":17,"Orange":0} |
+------------------------------------+
1 row in set
!ok
SELECT JSON_ARRAYAGG(product) FROM orders;
+-----------------------------+
|                      EXPR$0 |
+-----------------------------+
| ["Apple","Banana","Orange"] |
+-----------------------------+
1 row in set
!ok
SELECT JSON_ARRAYAGG(x) FROM (VALUES (1), (CAST(NULL AS INT))) AS v(x);
+--------+
| EXPR$0 |
+--------+
|    [1] |
+--------+
1 row in set
!ok
# riffle-only: JSON_ARRAYAGG input order is undefined: Flink gives the elements in varying orders from run to run
SELECT JSON_ARRAYAGG(x NULL ON NULL) FROM (VALUES (1), (CAST(NULL AS INT))) AS v(x);
+----------+
|   EXPR$0 |
+----------+
| [1,null] |
+----------+
1 row in set
!ok
# "If a key occurs multiple times, an error will be thrown"
SELECT JSON_OBJECTAGG(KEY k VALUE n) FROM (VALUES ('a', 1), ('a', 2)) AS v(k, n);
[ERROR] Could not execute SQL statement. Reason:
Key 'a' is already present. Duplicate keys are not allowed in JSON_OBJECTAGG. Please ensure that keys are unique.
!error
# sql_functions.yml PERCENTILE: linear interpolation; an array of percentages gives an array
SELECT PERCENTILE(x, 0.5) FROM (VALUES (1), (2), (3), (4)) AS v(x);
+--------+
| EXPR$0 |
+--------+
|    2.5 |
+--------+
1 row in set
!ok
SELECT PERCENTILE(x, ARRAY[0.0, 1.0]) FROM (VALUES (1), (2), (3), (4)) AS v(x);
+------------+
|     EXPR$0 |
+------------+
| [1.0, 4.0] |
+------------+
1 row in set
!ok
SELECT PERCENTILE(x, 0.5, f) FROM (VALUES (1, 3), (10, 1)) AS v(x, f);
+--------+
| EXPR$0 |
+--------+
|    1.0 |
+--------+
1 row in set
!ok

# seed §6 E-45: the aggregate example over every function, per group
# riffle-only: Riffle extension: SUM0 is callable in SQL (Flink keeps $SUM0 internal: No match found for function signature SUM0)
SELECT a, SUM(b) AS d, SUM0(b) AS e, MIN(b) AS f, MAX(b) AS g, COUNT(b) AS h, AVG(b) AS i, STDDEV_POP(b) AS j, STDDEV_SAMP(b) AS k, VAR_POP(b) AS l, VAR_SAMP(b) AS m FROM (VALUES ('x', 2.0E0), ('x', 4.0E0)) AS v(a, b) GROUP BY a;
+---+-----+-----+-----+-----+---+-----+-----+--------------------+-----+-----+
| a |   d |   e |   f |   g | h |   i |   j |                  k |   l |   m |
+---+-----+-----+-----+-----+---+-----+-----+--------------------+-----+-----+
| x | 6.0 | 6.0 | 2.0 | 4.0 | 2 | 3.0 | 1.0 | 1.4142135623730951 | 1.0 | 2.0 |
+---+-----+-----+-----+-----+---+-----+-----+--------------------+-----+-----+
1 row in set
!ok

# SUM and AVG of an integer column cast to DOUBLE, over 100,000 rows (13
# batches): at run time the Calc passes the integers through and the
# DOUBLE accumulators convert them (jobgraph agg_cast_input.go), and at
# parallelism 1 the Calc under the GROUP BY recycles its EXTRACT results
# from batch to batch (expr.Scratch). Expected values computed
# independently: hour = (id / 60) mod 24 over id 0..99999.
CREATE TEMPORARY TABLE minutes (id BIGINT, ts AS TIMESTAMPADD(MINUTE, CAST(id AS INT), TIMESTAMP '2001-01-01 00:00:00')) WITH ('connector' = 'datagen', 'fields.id.kind' = 'sequence', 'fields.id.start' = '0', 'fields.id.end' = '99999', 'number-of-rows' = '100000');
[INFO] Execute statement succeeded.
!info
SELECT EXTRACT(HOUR FROM ts) AS h, COUNT(*) AS n, SUM(CAST(id AS DOUBLE)) AS s, AVG(CAST(id AS DOUBLE)) AS a, MAX(id) AS m FROM minutes GROUP BY EXTRACT(HOUR FROM ts);
+----+------+-------------+------------------+-------+
|  h |    n |           s |                a |     m |
+----+------+-------------+------------------+-------+
|  0 | 4200 |  2.087799E8 |          49709.5 | 99419 |
|  1 | 4200 |  2.090319E8 |          49769.5 | 99479 |
|  2 | 4200 |  2.092839E8 |          49829.5 | 99539 |
|  3 | 4200 |  2.095359E8 |          49889.5 | 99599 |
|  4 | 4200 |  2.097879E8 |          49949.5 | 99659 |
|  5 | 4200 |  2.100399E8 |          50009.5 | 99719 |
|  6 | 4200 |  2.102919E8 |          50069.5 | 99779 |
|  7 | 4200 |  2.105439E8 |          50129.5 | 99839 |
|  8 | 4200 |  2.107959E8 |          50189.5 | 99899 |
|  9 | 4200 |  2.110479E8 |          50249.5 | 99959 |
| 10 | 4180 | 2.0929971E8 | 50071.7009569378 | 99999 |
| 11 | 4140 | 2.0554893E8 |          49649.5 | 98639 |
| 12 | 4140 | 2.0579733E8 |          49709.5 | 98699 |
| 13 | 4140 | 2.0604573E8 |          49769.5 | 98759 |
| 14 | 4140 | 2.0629413E8 |          49829.5 | 98819 |
| 15 | 4140 | 2.0654253E8 |          49889.5 | 98879 |
| 16 | 4140 | 2.0679093E8 |          49949.5 | 98939 |
| 17 | 4140 | 2.0703933E8 |          50009.5 | 98999 |
| 18 | 4140 | 2.0728773E8 |          50069.5 | 99059 |
| 19 | 4140 | 2.0753613E8 |          50129.5 | 99119 |
| 20 | 4140 | 2.0778453E8 |          50189.5 | 99179 |
| 21 | 4140 | 2.0803293E8 |          50249.5 | 99239 |
| 22 | 4140 | 2.0828133E8 |          50309.5 | 99299 |
| 23 | 4140 | 2.0852973E8 |          50369.5 | 99359 |
+----+------+-------------+------------------+-------+
24 rows in set
!unordered
# the rewrite keeps DISTINCT out: 2^53 and 2^53 + 1 are one DOUBLE, so
# SUM(DISTINCT) adds it once, SUM twice; NULLs are skipped by both
SELECT SUM(DISTINCT CAST(x AS DOUBLE)), SUM(CAST(x AS DOUBLE)), AVG(CAST(x AS DOUBLE)), COUNT(*) FROM (VALUES (9007199254740992), (9007199254740993), (CAST(NULL AS BIGINT))) AS v(x);
+----------------------+-----------------------+----------------------+--------+
|               EXPR$0 |                EXPR$1 |               EXPR$2 | EXPR$3 |
+----------------------+-----------------------+----------------------+--------+
| 9.007199254740992E15 | 1.8014398509481984E16 | 9.007199254740992E15 |      3 |
+----------------------+-----------------------+----------------------+--------+
1 row in set
!ok
