# comparison_logical.q - comparison and logical operators.
# Sources: Flink docs/data/sql_functions.yml ("comparison" and "logical"
# sections, examples quoted in the comments) and
# flink-table-planner/.../expressions/SqlExpressionTest.scala
# (testComparisonFunctions, testLogicalFunctions). Values print as the SQL
# Client prints them (CastRulesTest: BOOLEAN as TRUE/FALSE).

SET 'execution.runtime-mode' = 'batch';
[INFO] Execute statement succeeded.
!info

# SqlExpressionTest.testComparisonFunctions
SELECT 1 = 1;
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT 1 <> 1;
+--------+
| EXPR$0 |
+--------+
|  FALSE |
+--------+
1 row in set
!ok
SELECT 5 > 2;
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT 2 >= 2;
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT 5 < 2;
+--------+
| EXPR$0 |
+--------+
|  FALSE |
+--------+
1 row in set
!ok
SELECT 2 <= 2;
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT x'0c' <= x'0b';
+--------+
| EXPR$0 |
+--------+
|  FALSE |
+--------+
1 row in set
!ok
SELECT x'0c' > x'0b';
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT x'0c' = x'0c';
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT x'0c' <> x'0c';
+--------+
| EXPR$0 |
+--------+
|  FALSE |
+--------+
1 row in set
!ok
SELECT 1 IS NULL;
+--------+
| EXPR$0 |
+--------+
|  FALSE |
+--------+
1 row in set
!ok
SELECT 1 IS NOT NULL;
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT NULLIF(1,1) IS DISTINCT FROM NULLIF(1,1);
+--------+
| EXPR$0 |
+--------+
|  FALSE |
+--------+
1 row in set
!ok
SELECT NULLIF(1,1) IS NOT DISTINCT FROM NULLIF(1,1);
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT 12 BETWEEN 11 AND 13;
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT 12 BETWEEN ASYMMETRIC 13 AND 11;
+--------+
| EXPR$0 |
+--------+
|  FALSE |
+--------+
1 row in set
!ok
SELECT 12 BETWEEN SYMMETRIC 13 AND 11;
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT 12 NOT BETWEEN 11 AND 13;
+--------+
| EXPR$0 |
+--------+
|  FALSE |
+--------+
1 row in set
!ok
SELECT 12 NOT BETWEEN ASYMMETRIC 13 AND 11;
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT 12 NOT BETWEEN SYMMETRIC 13 AND 11;
+--------+
| EXPR$0 |
+--------+
|  FALSE |
+--------+
1 row in set
!ok
SELECT 'TEST' LIKE '%EST';
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT '%EST' LIKE '.%EST' ESCAPE '.';
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT 'TEST' NOT LIKE '%EST';
+--------+
| EXPR$0 |
+--------+
|  FALSE |
+--------+
1 row in set
!ok
SELECT '%EST' NOT LIKE '.%EST' ESCAPE '.';
+--------+
| EXPR$0 |
+--------+
|  FALSE |
+--------+
1 row in set
!ok
SELECT 'TEST' SIMILAR TO '.EST';
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT 'TEST' NOT SIMILAR TO '.EST';
+--------+
| EXPR$0 |
+--------+
|  FALSE |
+--------+
1 row in set
!ok
SELECT 'TEST' IN ('west', 'TEST', 'rest');
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT 'TEST' IN ('west', 'rest');
+--------+
| EXPR$0 |
+--------+
|  FALSE |
+--------+
1 row in set
!ok
SELECT 'TEST' NOT IN ('west', 'TEST', 'rest');
+--------+
| EXPR$0 |
+--------+
|  FALSE |
+--------+
1 row in set
!ok
SELECT 'TEST' NOT IN ('west', 'rest');
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok

# sql_functions.yml IS DISTINCT FROM: "1 IS DISTINCT FROM NULL returns TRUE;
# NULL IS DISTINCT FROM NULL returns FALSE"
SELECT 1 IS DISTINCT FROM NULL;
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT NULL IS DISTINCT FROM NULL;
+--------+
| EXPR$0 |
+--------+
|  FALSE |
+--------+
1 row in set
!ok
# sql_functions.yml IS NOT DISTINCT FROM: "1 IS NOT DISTINCT FROM NULL returns
# FALSE; NULL IS NOT DISTINCT FROM NULL returns TRUE"
SELECT 1 IS NOT DISTINCT FROM NULL;
+--------+
| EXPR$0 |
+--------+
|  FALSE |
+--------+
1 row in set
!ok
SELECT NULL IS NOT DISTINCT FROM NULL;
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok

# sql_functions.yml BETWEEN: "12 BETWEEN 15 AND 12 returns FALSE; 12 BETWEEN
# SYMMETRIC 15 AND 12 returns TRUE; 12 BETWEEN 10 AND NULL returns UNKNOWN;
# 12 BETWEEN NULL AND 10 returns FALSE; 12 BETWEEN SYMMETRIC NULL AND 12
# returns UNKNOWN"
SELECT 12 BETWEEN 15 AND 12;
+--------+
| EXPR$0 |
+--------+
|  FALSE |
+--------+
1 row in set
!ok
SELECT 12 BETWEEN SYMMETRIC 15 AND 12;
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT 12 BETWEEN 10 AND NULL;
+--------+
| EXPR$0 |
+--------+
| <NULL> |
+--------+
1 row in set
!ok
SELECT 12 BETWEEN NULL AND 10;
+--------+
| EXPR$0 |
+--------+
|  FALSE |
+--------+
1 row in set
!ok
SELECT 12 BETWEEN SYMMETRIC NULL AND 12;
+--------+
| EXPR$0 |
+--------+
| <NULL> |
+--------+
1 row in set
!ok
# sql_functions.yml NOT BETWEEN: "12 NOT BETWEEN 15 AND 12 returns TRUE; 12 NOT
# BETWEEN SYMMETRIC 15 AND 12 returns FALSE; 12 NOT BETWEEN NULL AND 15
# returns UNKNOWN; 12 NOT BETWEEN 15 AND NULL returns TRUE; 12 NOT BETWEEN
# SYMMETRIC 12 AND NULL returns UNKNOWN"
SELECT 12 NOT BETWEEN 15 AND 12;
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT 12 NOT BETWEEN SYMMETRIC 15 AND 12;
+--------+
| EXPR$0 |
+--------+
|  FALSE |
+--------+
1 row in set
!ok
SELECT 12 NOT BETWEEN NULL AND 15;
+--------+
| EXPR$0 |
+--------+
| <NULL> |
+--------+
1 row in set
!ok
SELECT 12 NOT BETWEEN 15 AND NULL;
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT 12 NOT BETWEEN SYMMETRIC 12 AND NULL;
+--------+
| EXPR$0 |
+--------+
| <NULL> |
+--------+
1 row in set
!ok

# sql_functions.yml IN: "4 IN (1, 2, 3) returns FALSE; 1 IN (1, 2, NULL)
# returns TRUE; 4 IN (1, 2, NULL) returns UNKNOWN"
SELECT 4 IN (1, 2, 3);
+--------+
| EXPR$0 |
+--------+
|  FALSE |
+--------+
1 row in set
!ok
SELECT 1 IN (1, 2, NULL);
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT 4 IN (1, 2, NULL);
+--------+
| EXPR$0 |
+--------+
| <NULL> |
+--------+
1 row in set
!ok
# sql_functions.yml NOT IN: "4 NOT IN (1, 2, 3) returns TRUE; 1 NOT IN (1, 2,
# NULL) returns FALSE; 4 NOT IN (1, 2, NULL) returns UNKNOWN"
SELECT 4 NOT IN (1, 2, 3);
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT 1 NOT IN (1, 2, NULL);
+--------+
| EXPR$0 |
+--------+
|  FALSE |
+--------+
1 row in set
!ok
SELECT 4 NOT IN (1, 2, NULL);
+--------+
| EXPR$0 |
+--------+
| <NULL> |
+--------+
1 row in set
!ok
# "Always returns UNKNOWN if value1 is NULL"
SELECT CAST(NULL AS INT) IN (1, 2);
+--------+
| EXPR$0 |
+--------+
| <NULL> |
+--------+
1 row in set
!ok

# SqlExpressionTest.testLogicalFunctions
SELECT TRUE OR FALSE;
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT TRUE AND FALSE;
+--------+
| EXPR$0 |
+--------+
|  FALSE |
+--------+
1 row in set
!ok
SELECT NOT TRUE;
+--------+
| EXPR$0 |
+--------+
|  FALSE |
+--------+
1 row in set
!ok
SELECT TRUE IS FALSE;
+--------+
| EXPR$0 |
+--------+
|  FALSE |
+--------+
1 row in set
!ok
SELECT TRUE IS NOT FALSE;
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT TRUE IS TRUE;
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT TRUE IS NOT TRUE;
+--------+
| EXPR$0 |
+--------+
|  FALSE |
+--------+
1 row in set
!ok
SELECT NULLIF(TRUE,TRUE) IS UNKNOWN;
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT NULLIF(TRUE,TRUE) IS NOT UNKNOWN;
+--------+
| EXPR$0 |
+--------+
|  FALSE |
+--------+
1 row in set
!ok
# sql_functions.yml OR: "true || Null(BOOLEAN) returns TRUE"; AND: "true &&
# Null(BOOLEAN) returns UNKNOWN"
SELECT TRUE OR CAST(NULL AS BOOLEAN);
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT TRUE AND CAST(NULL AS BOOLEAN);
+--------+
| EXPR$0 |
+--------+
| <NULL> |
+--------+
1 row in set
!ok
# sql_functions.yml NOT: "returns UNKNOWN if boolean is UNKNOWN"
SELECT NOT CAST(NULL AS BOOLEAN);
+--------+
| EXPR$0 |
+--------+
| <NULL> |
+--------+
1 row in set
!ok
# sql_functions.yml IS FALSE / IS NOT FALSE / IS TRUE / IS NOT TRUE with UNKNOWN
SELECT CAST(NULL AS BOOLEAN) IS FALSE;
+--------+
| EXPR$0 |
+--------+
|  FALSE |
+--------+
1 row in set
!ok
SELECT CAST(NULL AS BOOLEAN) IS NOT FALSE;
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT CAST(NULL AS BOOLEAN) IS TRUE;
+--------+
| EXPR$0 |
+--------+
|  FALSE |
+--------+
1 row in set
!ok
SELECT CAST(NULL AS BOOLEAN) IS NOT TRUE;
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT FALSE IS UNKNOWN;
+--------+
| EXPR$0 |
+--------+
|  FALSE |
+--------+
1 row in set
!ok

# ImplicitConversionEqualsFunctionITCase: numeric comparisons across types
SELECT CAST(1 AS TINYINT) = CAST(1 AS BIGINT);
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT CAST(1 AS INT) = CAST(1.0 AS DOUBLE);
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT CAST(1 AS FLOAT) = CAST(1 AS DECIMAL(1, 0));
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
# ... DATE, TIME and TIMESTAMP compare with strings
SELECT DATE '2001-01-01' = '2001-01-01';
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT TIME '00:00:00' = '00:00:00';
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT TIMESTAMP '2001-01-01 00:00:00' = '2001-01-01 00:00:00';
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
# ... but strings never compare with numbers (FLINK-24914)
SELECT '1' = 1;
[ERROR] Could not execute SQL statement. Reason:
implicit type conversion between CHAR and INTEGER is not supported now
!error
SELECT CAST('1' AS STRING) = CAST(1 AS DOUBLE);
[ERROR] Could not execute SQL statement. Reason:
implicit type conversion between VARCHAR and DOUBLE is not supported now
!error
# unrelated families do not compare (Calcite: Cannot apply '=' ...)
SELECT 1 = TRUE;
[ERROR] Could not execute SQL statement. Reason:
Cannot apply '='
!error
