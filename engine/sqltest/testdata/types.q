# types.q - data types: literals, nullability, TYPEOF, implicit coercion,
# type derivation of set operations and aggregates, Flink's display of each
# type.
# Sources: MiscFunctionsITCase.java (TYPEOF, IFNULL types), the seed inventory
# §6 (E-09, E-18, E-48..E-51), LogicalTypeMerging (findCommonType,
# findSumAggType, findAvgAggType: DECIMAL(38, s) and DECIMAL(38, MAX(6, s))),
# CastRulesTest (display), Calcite literal typing (Flink's SQL parser).

SET 'execution.runtime-mode' = 'batch';
[INFO] Execute statement succeeded.
!info
SET 'sql-client.display.max-column-width' = '60';
[INFO] Execute statement succeeded.
!info

# literal types (seed §6 E-18: lit(12) is INT, lit("abc") is CHAR(3))
SELECT TYPEOF(12);
+--------------+
|       EXPR$0 |
+--------------+
| INT NOT NULL |
+--------------+
1 row in set
!ok
SELECT TYPEOF('abc');
+------------------+
|           EXPR$0 |
+------------------+
| CHAR(3) NOT NULL |
+------------------+
1 row in set
!ok
SELECT TYPEOF(2147483648);
+-----------------+
|          EXPR$0 |
+-----------------+
| BIGINT NOT NULL |
+-----------------+
1 row in set
!ok
SELECT TYPEOF(1.5);
+------------------------+
|                 EXPR$0 |
+------------------------+
| DECIMAL(2, 1) NOT NULL |
+------------------------+
1 row in set
!ok
SELECT TYPEOF(1.5E0);
+-----------------+
|          EXPR$0 |
+-----------------+
| DOUBLE NOT NULL |
+-----------------+
1 row in set
!ok
SELECT TYPEOF(TRUE);
+------------------+
|           EXPR$0 |
+------------------+
| BOOLEAN NOT NULL |
+------------------+
1 row in set
!ok
SELECT TYPEOF(x'0102');
+--------------------+
|             EXPR$0 |
+--------------------+
| BINARY(2) NOT NULL |
+--------------------+
1 row in set
!ok
SELECT TYPEOF(DATE '2020-01-01');
+---------------+
|        EXPR$0 |
+---------------+
| DATE NOT NULL |
+---------------+
1 row in set
!ok
SELECT TYPEOF(TIME '12:00:00');
+------------------+
|           EXPR$0 |
+------------------+
| TIME(0) NOT NULL |
+------------------+
1 row in set
!ok
SELECT TYPEOF(TIMESTAMP '2020-01-01 00:00:00');
+-----------------------+
|                EXPR$0 |
+-----------------------+
| TIMESTAMP(0) NOT NULL |
+-----------------------+
1 row in set
!ok
SELECT TYPEOF(TIMESTAMP '2020-01-01 00:00:00.123');
+-----------------------+
|                EXPR$0 |
+-----------------------+
| TIMESTAMP(3) NOT NULL |
+-----------------------+
1 row in set
!ok
# MiscFunctionsITCase: TYPEOF(NULL) is NULL
SELECT TYPEOF(NULL);
+--------+
| EXPR$0 |
+--------+
|   NULL |
+--------+
1 row in set
!ok
SELECT TYPEOF(ARRAY[1, 2]);
+------------------------------+
|                       EXPR$0 |
+------------------------------+
| ARRAY<INT NOT NULL> NOT NULL |
+------------------------------+
1 row in set
!ok
SELECT TYPEOF(MAP['a', 1]);
+----------------------------------------------+
|                                       EXPR$0 |
+----------------------------------------------+
| MAP<CHAR(1) NOT NULL, INT NOT NULL> NOT NULL |
+----------------------------------------------+
1 row in set
!ok
# every logical type in CAST
SELECT TYPEOF(CAST(NULL AS TINYINT)), TYPEOF(CAST(NULL AS SMALLINT)), TYPEOF(CAST(NULL AS INTEGER)), TYPEOF(CAST(NULL AS BIGINT));
+---------+----------+--------+--------+
|  EXPR$0 |   EXPR$1 | EXPR$2 | EXPR$3 |
+---------+----------+--------+--------+
| TINYINT | SMALLINT |    INT | BIGINT |
+---------+----------+--------+--------+
1 row in set
!ok
# riffle-only: Flink bug: TYPEOF(CAST(NULL AS FLOAT)) fails (Unexpected error in type inference logic of function TYPEOF. This is a bug.)
SELECT TYPEOF(CAST(NULL AS FLOAT)), TYPEOF(CAST(NULL AS REAL)), TYPEOF(CAST(NULL AS DOUBLE)), TYPEOF(CAST(NULL AS DOUBLE PRECISION));
+--------+--------+--------+--------+
| EXPR$0 | EXPR$1 | EXPR$2 | EXPR$3 |
+--------+--------+--------+--------+
|  FLOAT |  FLOAT | DOUBLE | DOUBLE |
+--------+--------+--------+--------+
1 row in set
!ok
SELECT TYPEOF(CAST(NULL AS DECIMAL)), TYPEOF(CAST(NULL AS DECIMAL(10, 2))), TYPEOF(CAST(NULL AS NUMERIC(5)));
+----------------+----------------+---------------+
|         EXPR$0 |         EXPR$1 |        EXPR$2 |
+----------------+----------------+---------------+
| DECIMAL(10, 0) | DECIMAL(10, 2) | DECIMAL(5, 0) |
+----------------+----------------+---------------+
1 row in set
!ok
SELECT TYPEOF(CAST(NULL AS CHAR)), TYPEOF(CAST(NULL AS VARCHAR(10))), TYPEOF(CAST(NULL AS STRING));
+---------+-------------+--------+
|  EXPR$0 |      EXPR$1 | EXPR$2 |
+---------+-------------+--------+
| CHAR(1) | VARCHAR(10) | STRING |
+---------+-------------+--------+
1 row in set
!ok
SELECT TYPEOF(CAST(NULL AS BINARY)), TYPEOF(CAST(NULL AS VARBINARY(10))), TYPEOF(CAST(NULL AS BYTES));
+-----------+---------------+--------+
|    EXPR$0 |        EXPR$1 | EXPR$2 |
+-----------+---------------+--------+
| BINARY(1) | VARBINARY(10) |  BYTES |
+-----------+---------------+--------+
1 row in set
!ok
SELECT TYPEOF(CAST(NULL AS DATE)), TYPEOF(CAST(NULL AS TIME)), TYPEOF(CAST(NULL AS TIME(3)));
+--------+---------+---------+
| EXPR$0 |  EXPR$1 |  EXPR$2 |
+--------+---------+---------+
|   DATE | TIME(0) | TIME(3) |
+--------+---------+---------+
1 row in set
!ok
SELECT TYPEOF(CAST(NULL AS TIMESTAMP)), TYPEOF(CAST(NULL AS TIMESTAMP(3))), TYPEOF(CAST(NULL AS TIMESTAMP_LTZ)), TYPEOF(CAST(NULL AS TIMESTAMP(3) WITH LOCAL TIME ZONE));
+--------------+--------------+------------------+------------------+
|       EXPR$0 |       EXPR$1 |           EXPR$2 |           EXPR$3 |
+--------------+--------------+------------------+------------------+
| TIMESTAMP(6) | TIMESTAMP(3) | TIMESTAMP_LTZ(6) | TIMESTAMP_LTZ(3) |
+--------------+--------------+------------------+------------------+
1 row in set
!ok
SELECT TYPEOF(CAST(NULL AS ARRAY<INT>)), TYPEOF(CAST(NULL AS MAP<STRING, INT>)), TYPEOF(CAST(NULL AS MULTISET<STRING>));
+------------+------------------+------------------+
|     EXPR$0 |           EXPR$1 |           EXPR$2 |
+------------+------------------+------------------+
| ARRAY<INT> | MAP<STRING, INT> | MULTISET<STRING> |
+------------+------------------+------------------+
1 row in set
!ok
SELECT TYPEOF(CAST(NULL AS ROW<a INT, b STRING>));
+--------------------------+
|                   EXPR$0 |
+--------------------------+
| ROW<`a` INT, `b` STRING> |
+--------------------------+
1 row in set
!ok
# riffle-only: Riffle extension: the INT NOT NULL ARRAY type suffix form; Flink 2.3 does not parse NOT NULL there
SELECT TYPEOF(CAST(NULL AS INT NOT NULL ARRAY));
+---------------------+
|              EXPR$0 |
+---------------------+
| ARRAY<INT NOT NULL> |
+---------------------+
1 row in set
!ok
# seed §6 E-50: DECIMAL precision 1..38, scale 0..p
# riffle-only: Riffle stricter: Flink accepts DECIMAL(39, 0) in a CAST without complaint
SELECT CAST(1 AS DECIMAL(39, 0));
[ERROR] Could not execute SQL statement. Reason:
Decimal precision must be between 1 and 38
!error
SELECT CAST(1 AS DECIMAL(5, 6));
[ERROR] Could not execute SQL statement. Reason:
Decimal scale must be between 0 and the precision 5
!error
# riffle-only: Riffle stricter: Flink accepts TIMESTAMP(10) in a CAST without complaint
SELECT CAST(NULL AS TIMESTAMP(10));
[ERROR] Could not execute SQL statement. Reason:
Timestamp precision must be between 0 and 9
!error

# MiscFunctionsITCase IF_NULL: IFNULL(INT, DECIMAL(5, 2) NOT NULL) => DECIMAL(12, 2) NOT NULL;
# seed §6 E-09: the result of IFNULL with a NOT NULL replacement is never NULL
SELECT TYPEOF(IFNULL(CAST(NULL AS INT), CAST(123.45 AS DECIMAL(5, 2))));
+-------------------------+
|                  EXPR$0 |
+-------------------------+
| DECIMAL(12, 2) NOT NULL |
+-------------------------+
1 row in set
!ok
SELECT IFNULL(CAST(NULL AS INT), CAST(123.45 AS DECIMAL(5, 2)));
+--------+
| EXPR$0 |
+--------+
| 123.45 |
+--------+
1 row in set
!ok
SELECT TYPEOF(IFNULL(CAST(NULL AS INT), 12));
+--------------+
|       EXPR$0 |
+--------------+
| INT NOT NULL |
+--------------+
1 row in set
!ok
# COALESCE is nullable unless an argument is NOT NULL (sql_functions.yml COALESCE)
SELECT TYPEOF(COALESCE(CAST(NULL AS INT), CAST(NULL AS BIGINT)));
+--------+
| EXPR$0 |
+--------+
| BIGINT |
+--------+
1 row in set
!ok
SELECT TYPEOF(COALESCE(CAST(NULL AS INT), 1));
+--------------+
|       EXPR$0 |
+--------------+
| INT NOT NULL |
+--------------+
1 row in set
!ok

# common types of set operations and VALUES (LogicalTypeMerging.findCommonType)
SELECT TYPEOF(x) FROM (SELECT 1 AS x UNION ALL SELECT CAST(2 AS BIGINT)) LIMIT 1;
+-----------------+
|          EXPR$0 |
+-----------------+
| BIGINT NOT NULL |
+-----------------+
1 row in set
!ok
SELECT TYPEOF(x) FROM (SELECT 1.5 AS x UNION ALL SELECT 100) LIMIT 1;
+-------------------------+
|                  EXPR$0 |
+-------------------------+
| DECIMAL(11, 1) NOT NULL |
+-------------------------+
1 row in set
!ok
SELECT TYPEOF(x) FROM (SELECT 'ab' AS x UNION ALL SELECT 'abc') LIMIT 1;
+---------------------+
|              EXPR$0 |
+---------------------+
| VARCHAR(3) NOT NULL |
+---------------------+
1 row in set
!ok
SELECT TYPEOF(x) FROM (SELECT 1 AS x UNION ALL SELECT 2.5E0) LIMIT 1;
+-----------------+
|          EXPR$0 |
+-----------------+
| DOUBLE NOT NULL |
+-----------------+
1 row in set
!ok
SELECT TYPEOF(x) FROM (SELECT CAST(1 AS DECIMAL(10, 2)) AS x UNION ALL SELECT 2.5E0) LIMIT 1;
+-----------------+
|          EXPR$0 |
+-----------------+
| DOUBLE NOT NULL |
+-----------------+
1 row in set
!ok
SELECT TYPEOF(x) FROM (SELECT TIMESTAMP '2020-01-01 00:00:00' AS x UNION ALL SELECT TIMESTAMP '2020-01-01 00:00:00.123') LIMIT 1;
+-----------------------+
|                EXPR$0 |
+-----------------------+
| TIMESTAMP(3) NOT NULL |
+-----------------------+
1 row in set
!ok
SELECT * FROM (VALUES (1, 'a'), (2, CAST(NULL AS STRING)));
+--------+--------+
| EXPR$0 | EXPR$1 |
+--------+--------+
|      1 |      a |
|      2 | <NULL> |
+--------+--------+
2 rows in set
!unordered
# riffle-only: Flink bug: TYPEOF over VALUES is typed per row (STRING NOT NULL for 'a', STRING for the NULL row); a column has one type
SELECT TYPEOF(EXPR$0), TYPEOF(EXPR$1) FROM (VALUES (1, 'a'), (2, CAST(NULL AS STRING))) LIMIT 1;
+--------------+--------+
|       EXPR$0 | EXPR$1 |
+--------------+--------+
| INT NOT NULL | STRING |
+--------------+--------+
1 row in set
!ok
# unrelated families have no common type
SELECT 1 UNION ALL SELECT 'a';
[ERROR] Could not execute SQL statement. Reason:
Type mismatch in column 1 of UNION
!error

# aggregate result types (LogicalTypeMerging.findSumAggType / findAvgAggType)
SELECT TYPEOF(SUM(x)), TYPEOF(AVG(x)), TYPEOF(COUNT(x)) FROM (VALUES (1), (2)) AS t(x);
+--------+--------+-----------------+
| EXPR$0 | EXPR$1 |          EXPR$2 |
+--------+--------+-----------------+
|    INT |    INT | BIGINT NOT NULL |
+--------+--------+-----------------+
1 row in set
!ok
SELECT TYPEOF(SUM(x)), TYPEOF(AVG(x)) FROM (VALUES (CAST(1.25 AS DECIMAL(10, 2)))) AS t(x);
+----------------+----------------+
|         EXPR$0 |         EXPR$1 |
+----------------+----------------+
| DECIMAL(38, 2) | DECIMAL(38, 6) |
+----------------+----------------+
1 row in set
!ok
SELECT TYPEOF(SUM(x)), TYPEOF(MIN(x)), TYPEOF(MAX(x)) FROM (VALUES (1.5E0)) AS t(x);
+--------+--------+--------+
| EXPR$0 | EXPR$1 | EXPR$2 |
+--------+--------+--------+
| DOUBLE | DOUBLE | DOUBLE |
+--------+--------+--------+
1 row in set
!ok

# seed §6 E-48: INTERVAL display: 70 seconds, 50 months
SELECT INTERVAL '70' SECOND;
+-----------------+
|          EXPR$0 |
+-----------------+
| +0 00:01:10.000 |
+-----------------+
1 row in set
!ok
SELECT INTERVAL '50' MONTH;
+--------+
| EXPR$0 |
+--------+
|  +4-02 |
+--------+
1 row in set
!ok
SELECT INTERVAL '-2' DAY;
+-----------------+
|          EXPR$0 |
+-----------------+
| -2 00:00:00.000 |
+-----------------+
1 row in set
!ok
SELECT INTERVAL '1-2' YEAR TO MONTH + INTERVAL '3' MONTH;
+--------+
| EXPR$0 |
+--------+
|  +1-05 |
+--------+
1 row in set
!ok
SELECT INTERVAL '1 02:03:04.5' DAY TO SECOND - INTERVAL '4' SECOND;
+-----------------+
|          EXPR$0 |
+-----------------+
| +1 02:03:00.500 |
+-----------------+
1 row in set
!ok

# display of each type (CastRulesTest, printing mode)
SELECT CAST(-1 AS TINYINT), CAST(-2 AS SMALLINT), -3, CAST(-4 AS BIGINT);
+--------+--------+--------+--------+
| EXPR$0 | EXPR$1 | EXPR$2 | EXPR$3 |
+--------+--------+--------+--------+
|     -1 |     -2 |     -3 |     -4 |
+--------+--------+--------+--------+
1 row in set
!ok
SELECT CAST(0.1 AS FLOAT), 0.1E0, CAST(1.0E10 AS DOUBLE), CAST(1.0E-4 AS DOUBLE);
+--------+--------+--------+--------+
| EXPR$0 | EXPR$1 | EXPR$2 | EXPR$3 |
+--------+--------+--------+--------+
|    0.1 |    0.1 | 1.0E10 | 1.0E-4 |
+--------+--------+--------+--------+
1 row in set
!ok
SELECT CAST('NaN' AS DOUBLE), CAST('-Infinity' AS DOUBLE);
+--------+-----------+
| EXPR$0 |    EXPR$1 |
+--------+-----------+
|    NaN | -Infinity |
+--------+-----------+
1 row in set
!ok
SELECT CAST(-0.5 AS DECIMAL(5, 2));
+--------+
| EXPR$0 |
+--------+
|  -0.50 |
+--------+
1 row in set
!ok
SELECT TIME '12:34:56.1', TIME '12:34:56.123';
+------------+--------------+
|     EXPR$0 |       EXPR$1 |
+------------+--------------+
| 12:34:56.1 | 12:34:56.123 |
+------------+--------------+
1 row in set
!ok
SELECT TIMESTAMP '2021-09-24 12:34:56', CAST(TIMESTAMP '2021-09-24 12:34:56.1' AS TIMESTAMP(6));
+---------------------+----------------------------+
|              EXPR$0 |                     EXPR$1 |
+---------------------+----------------------------+
| 2021-09-24 12:34:56 | 2021-09-24 12:34:56.100000 |
+---------------------+----------------------------+
1 row in set
!ok
SELECT x'00fffe', CAST(x'852bfc7d05' AS BYTES);
+-----------+---------------+
|    EXPR$0 |        EXPR$1 |
+-----------+---------------+
| x'00fffe' | x'852bfc7d05' |
+-----------+---------------+
1 row in set
!ok
SELECT ARRAY[1, 2], MAP['a', 1], ROW(1, 'x');
+--------+--------+--------+
| EXPR$0 | EXPR$1 | EXPR$2 |
+--------+--------+--------+
| [1, 2] |  {a=1} | (1, x) |
+--------+--------+--------+
1 row in set
!ok
SELECT CAST(NULL AS ARRAY<INT>), ARRAY[CAST(NULL AS INT)];
+--------+--------+
| EXPR$0 | EXPR$1 |
+--------+--------+
| <NULL> | [NULL] |
+--------+--------+
1 row in set
!ok
SELECT MAP['k', CAST(NULL AS STRING)];
+----------+
|   EXPR$0 |
+----------+
| {k=NULL} |
+----------+
1 row in set
!ok
# a MULTISET comes from COLLECT
SELECT COLLECT(x) FROM (VALUES ('a'), ('a'), (CAST(NULL AS STRING))) AS t(x);
+--------+
| EXPR$0 |
+--------+
|  {a=2} |
+--------+
1 row in set
!ok
# ROW field access and nested access
# field access on an expression that is not a name gives no column name
# (EXPR$n); on a dotted name the last part names it
SELECT ROW(1, 'x').EXPR$1;
+--------+
| EXPR$0 |
+--------+
|      x |
+--------+
1 row in set
!ok
SELECT (CAST(ROW(1, 'x') AS ROW<a INT, b STRING>)).b, r.b FROM (SELECT CAST(ROW(1, 'x') AS ROW<a INT, b STRING>) AS r);
+--------+---+
| EXPR$0 | b |
+--------+---+
|      x | x |
+--------+---+
1 row in set
!ok
SELECT r.b FROM (SELECT CAST(ROW(1, 'x') AS ROW<a INT, b STRING>) AS r);
+---+
| b |
+---+
| x |
+---+
1 row in set
!ok
SELECT ARRAY[10, 20, 30][2], MAP['a', 1, 'b', 2]['b'];
+--------+--------+
| EXPR$0 | EXPR$1 |
+--------+--------+
|     20 |      2 |
+--------+--------+
1 row in set
!ok
# riffle-only: Flink bug: ARRAY[10, 20, 30][4] gives -1 instead of NULL
SELECT ARRAY[10, 20, 30][4];
+--------+
| EXPR$0 |
+--------+
| <NULL> |
+--------+
1 row in set
!ok
