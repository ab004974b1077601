# arithmetic.q - arithmetic operators, math functions and numeric result types.
# Sources: flink-table-planner/.../expressions/SqlExpressionTest.scala
# (testArithmeticFunctions, testDivideFunctions), MathFunctionsITCase.java
# (decimal result types), docs/data/sql_functions.yml ("arithmetic"), and the
# seed inventory §6 (E-12..E-17: BIN, HEX, ROUND, TRUNCATE, SIGN).

SET 'execution.runtime-mode' = 'batch';
[INFO] Execute statement succeeded.
!info

# SqlExpressionTest.testArithmeticFunctions
SELECT +5;
+--------+
| EXPR$0 |
+--------+
|      5 |
+--------+
1 row in set
!ok
SELECT -5;
+--------+
| EXPR$0 |
+--------+
|     -5 |
+--------+
1 row in set
!ok
SELECT 5+5;
+--------+
| EXPR$0 |
+--------+
|     10 |
+--------+
1 row in set
!ok
SELECT 5-5;
+--------+
| EXPR$0 |
+--------+
|      0 |
+--------+
1 row in set
!ok
SELECT 5*5;
+--------+
| EXPR$0 |
+--------+
|     25 |
+--------+
1 row in set
!ok
SELECT 5/5;
+--------+
| EXPR$0 |
+--------+
|      1 |
+--------+
1 row in set
!ok
SELECT 5%2;
+--------+
| EXPR$0 |
+--------+
|      1 |
+--------+
1 row in set
!ok
SELECT POWER(5, 5);
+--------+
| EXPR$0 |
+--------+
| 3125.0 |
+--------+
1 row in set
!ok
SELECT ABS(-5);
+--------+
| EXPR$0 |
+--------+
|      5 |
+--------+
1 row in set
!ok
SELECT MOD(-26, 5);
+--------+
| EXPR$0 |
+--------+
|     -1 |
+--------+
1 row in set
!ok
SELECT SQRT(4);
+--------+
| EXPR$0 |
+--------+
|    2.0 |
+--------+
1 row in set
!ok
SELECT LN(1);
+--------+
| EXPR$0 |
+--------+
|    0.0 |
+--------+
1 row in set
!ok
SELECT LOG10(1);
+--------+
| EXPR$0 |
+--------+
|    0.0 |
+--------+
1 row in set
!ok
SELECT EXP(0);
+--------+
| EXPR$0 |
+--------+
|    1.0 |
+--------+
1 row in set
!ok
SELECT CEIL(2.5);
+--------+
| EXPR$0 |
+--------+
|      3 |
+--------+
1 row in set
!ok
SELECT CEILING(2.5);
+--------+
| EXPR$0 |
+--------+
|      3 |
+--------+
1 row in set
!ok
SELECT FLOOR(2.5);
+--------+
| EXPR$0 |
+--------+
|      2 |
+--------+
1 row in set
!ok
SELECT SIN(2.5);
+--------------------+
|             EXPR$0 |
+--------------------+
| 0.5984721441039564 |
+--------------------+
1 row in set
!ok
SELECT SINH(2.5);
+--------------------+
|             EXPR$0 |
+--------------------+
| 6.0502044810397875 |
+--------------------+
1 row in set
!ok
SELECT COS(2.5);
+---------------------+
|              EXPR$0 |
+---------------------+
| -0.8011436155469337 |
+---------------------+
1 row in set
!ok
SELECT TAN(2.5);
+---------------------+
|              EXPR$0 |
+---------------------+
| -0.7470222972386603 |
+---------------------+
1 row in set
!ok
SELECT COT(2.5);
+---------------------+
|              EXPR$0 |
+---------------------+
| -1.3386481283041514 |
+---------------------+
1 row in set
!ok
SELECT ASIN(0.5);
+--------------------+
|             EXPR$0 |
+--------------------+
| 0.5235987755982989 |
+--------------------+
1 row in set
!ok
SELECT ACOS(0.5);
+--------------------+
|             EXPR$0 |
+--------------------+
| 1.0471975511965979 |
+--------------------+
1 row in set
!ok
SELECT ATAN(0.5);
+--------------------+
|             EXPR$0 |
+--------------------+
| 0.4636476090008061 |
+--------------------+
1 row in set
!ok
SELECT ATAN2(0.5, 0.5);
+--------------------+
|             EXPR$0 |
+--------------------+
| 0.7853981633974483 |
+--------------------+
1 row in set
!ok
SELECT COSH(2.5);
+-------------------+
|            EXPR$0 |
+-------------------+
| 6.132289479663686 |
+-------------------+
1 row in set
!ok
SELECT TANH(2.5);
+--------------------+
|             EXPR$0 |
+--------------------+
| 0.9866142981514303 |
+--------------------+
1 row in set
!ok
SELECT DEGREES(0.5);
+-------------------+
|            EXPR$0 |
+-------------------+
| 28.64788975654116 |
+-------------------+
1 row in set
!ok
SELECT RADIANS(0.5);
+----------------------+
|               EXPR$0 |
+----------------------+
| 0.008726646259971648 |
+----------------------+
1 row in set
!ok
# calcite: SIGN(Decimal(p,s)) => Decimal(p,s)
SELECT SIGN(-1.1);
+--------+
| EXPR$0 |
+--------+
|   -1.0 |
+--------+
1 row in set
!ok
SELECT ROUND(-12.345, 2);
+--------+
| EXPR$0 |
+--------+
| -12.35 |
+--------+
1 row in set
!ok
SELECT PI();
+-------------------+
|            EXPR$0 |
+-------------------+
| 3.141592653589793 |
+-------------------+
1 row in set
!ok
SELECT E();
+-------------------+
|            EXPR$0 |
+-------------------+
| 2.718281828459045 |
+-------------------+
1 row in set
!ok
SELECT truncate(42.345);
+--------+
| EXPR$0 |
+--------+
|     42 |
+--------+
1 row in set
!ok
SELECT truncate(cast(42.345 as decimal(5, 3)), 2);
+--------+
| EXPR$0 |
+--------+
|  42.34 |
+--------+
1 row in set
!ok

# SqlExpressionTest.testDivideFunctions: Decimal(2,1) / Decimal(2,1) => Decimal(8,6)
SELECT 1.0/8.0;
+----------+
|   EXPR$0 |
+----------+
| 0.125000 |
+----------+
1 row in set
!ok
SELECT 2.0/3.0;
+----------+
|   EXPR$0 |
+----------+
| 0.666667 |
+----------+
1 row in set
!ok
# Integer => Decimal(10, 0); Decimal(10,0) / Decimal(2,1) => Decimal(17,6)
SELECT -2/3.0;
+-----------+
|    EXPR$0 |
+-----------+
| -0.666667 |
+-----------+
1 row in set
!ok
# Decimal(2,1) / Decimal(10,0) => Decimal(23,12)
SELECT 2.0/(-3);
+-----------------+
|          EXPR$0 |
+-----------------+
| -0.666666666667 |
+-----------------+
1 row in set
!ok
SELECT -7.9/2;
+-----------------+
|          EXPR$0 |
+-----------------+
| -3.950000000000 |
+-----------------+
1 row in set
!ok
SELECT TYPEOF(1.0/8.0);
+------------------------+
|                 EXPR$0 |
+------------------------+
| DECIMAL(8, 6) NOT NULL |
+------------------------+
1 row in set
!ok
SELECT TYPEOF(2.0/(-3));
+--------------------------+
|                   EXPR$0 |
+--------------------------+
| DECIMAL(13, 12) NOT NULL |
+--------------------------+
1 row in set
!ok

# MathFunctionsITCase: DECIMAL result types of + - * / MOD ROUND TRUNCATE
SELECT CAST(1514356320000 AS DECIMAL(19, 0)) + 6;
+---------------+
|        EXPR$0 |
+---------------+
| 1514356320006 |
+---------------+
1 row in set
!ok
SELECT TYPEOF(CAST(1514356320000 AS DECIMAL(19, 0)) + 6);
+-------------------------+
|                  EXPR$0 |
+-------------------------+
| DECIMAL(20, 0) NOT NULL |
+-------------------------+
1 row in set
!ok
SELECT CAST(1514356320000 AS DECIMAL(19, 0)) - CAST(1514356320000 AS DECIMAL(19, 0));
+--------+
| EXPR$0 |
+--------+
|      0 |
+--------+
1 row in set
!ok
SELECT CAST(1514356320000 AS DECIMAL(19, 0)) / 6;
+--------------------------+
|                   EXPR$0 |
+--------------------------+
| 252392720000.00000000000 |
+--------------------------+
1 row in set
!ok
SELECT TYPEOF(CAST(1514356320000 AS DECIMAL(19, 0)) / 6);
+--------------------------+
|                   EXPR$0 |
+--------------------------+
| DECIMAL(30, 11) NOT NULL |
+--------------------------+
1 row in set
!ok
SELECT CAST(1514356320000 AS DECIMAL(19, 0)) / CAST(1514356320000 AS DECIMAL(19, 0));
+-----------------------+
|                EXPR$0 |
+-----------------------+
| 1.0000000000000000000 |
+-----------------------+
1 row in set
!ok
SELECT TYPEOF(CAST(1514356320000 AS DECIMAL(19, 0)) / CAST(1514356320000 AS DECIMAL(19, 0)));
+--------------------------+
|                   EXPR$0 |
+--------------------------+
| DECIMAL(38, 19) NOT NULL |
+--------------------------+
1 row in set
!ok
SELECT CAST(1514356320000 AS DECIMAL(19, 0)) * 6;
+---------------+
|        EXPR$0 |
+---------------+
| 9086137920000 |
+---------------+
1 row in set
!ok
SELECT TYPEOF(CAST(1514356320000 AS DECIMAL(19, 0)) * 6);
+-------------------------+
|                  EXPR$0 |
+-------------------------+
| DECIMAL(30, 0) NOT NULL |
+-------------------------+
1 row in set
!ok
SELECT CAST(1514356320000 AS DECIMAL(19, 0)) * CAST(1514356320000 AS DECIMAL(19, 0));
+---------------------------+
|                    EXPR$0 |
+---------------------------+
| 2293275063923942400000000 |
+---------------------------+
1 row in set
!ok
SELECT TYPEOF(CAST(1514356320000 AS DECIMAL(19, 0)) * CAST(1514356320000 AS DECIMAL(19, 0)));
+-------------------------+
|                  EXPR$0 |
+-------------------------+
| DECIMAL(38, 0) NOT NULL |
+-------------------------+
1 row in set
!ok
SELECT MOD(CAST(1514356320000 AS DECIMAL(19, 0)), CAST(1514356320000 AS DECIMAL(19, 0)));
+--------+
| EXPR$0 |
+--------+
|      0 |
+--------+
1 row in set
!ok
SELECT TYPEOF(MOD(CAST(1514356320000 AS DECIMAL(19, 0)), CAST(1514356320000 AS DECIMAL(19, 0))));
+-------------------------+
|                  EXPR$0 |
+-------------------------+
| DECIMAL(19, 0) NOT NULL |
+-------------------------+
1 row in set
!ok
SELECT MOD(CAST(1514356320000 AS DECIMAL(19, 0)), 6);
+--------+
| EXPR$0 |
+--------+
|      0 |
+--------+
1 row in set
!ok
SELECT TYPEOF(MOD(CAST(1514356320000 AS DECIMAL(19, 0)), 6));
+--------------+
|       EXPR$0 |
+--------------+
| INT NOT NULL |
+--------------+
1 row in set
!ok
SELECT MOD(CAST(44 AS BIGINT), 3);
+--------+
| EXPR$0 |
+--------+
|      2 |
+--------+
1 row in set
!ok
SELECT TYPEOF(MOD(CAST(44 AS BIGINT), 3));
+--------------+
|       EXPR$0 |
+--------------+
| INT NOT NULL |
+--------------+
1 row in set
!ok
SELECT ROUND(CAST(12345.12345 AS DECIMAL(10, 5)), 2);
+----------+
|   EXPR$0 |
+----------+
| 12345.12 |
+----------+
1 row in set
!ok
SELECT TYPEOF(ROUND(CAST(12345.12345 AS DECIMAL(10, 5)), 2));
+------------------------+
|                 EXPR$0 |
+------------------------+
| DECIMAL(8, 2) NOT NULL |
+------------------------+
1 row in set
!ok
SELECT TRUNCATE(CAST(123.456 AS DECIMAL(6, 3)), 2);
+--------+
| EXPR$0 |
+--------+
| 123.45 |
+--------+
1 row in set
!ok
SELECT TYPEOF(TRUNCATE(CAST(123.456 AS DECIMAL(6, 3)), 2));
+------------------------+
|                 EXPR$0 |
+------------------------+
| DECIMAL(6, 2) NOT NULL |
+------------------------+
1 row in set
!ok
SELECT INTERVAL '2' SECOND(3) * 3;
+-----------------+
|          EXPR$0 |
+-----------------+
| +0 00:00:06.000 |
+-----------------+
1 row in set
!ok
SELECT 2 * INTERVAL '3' SECOND(3);
+-----------------+
|          EXPR$0 |
+-----------------+
| +0 00:00:06.000 |
+-----------------+
1 row in set
!ok

# Nexmark q1 (notes/engine.md): 0.908 * BIGINT price => DECIMAL(24, 3): the
# literal 0.908 is DECIMAL(4, 3) (Calcite counts every digit written, the
# leading zero too) and BIGINT is DECIMAL(19, 0); the product has
# precision p1 + p2 + 1 = 24
SELECT TYPEOF(0.908 * CAST(100 AS BIGINT));
+-------------------------+
|                  EXPR$0 |
+-------------------------+
| DECIMAL(24, 3) NOT NULL |
+-------------------------+
1 row in set
!ok
SELECT 0.908 * CAST(100 AS BIGINT);
+--------+
| EXPR$0 |
+--------+
| 90.800 |
+--------+
1 row in set
!ok

# integer arithmetic keeps the wider integer type (INT / INT is INT)
SELECT 7 / 2;
+--------+
| EXPR$0 |
+--------+
|      3 |
+--------+
1 row in set
!ok
SELECT TYPEOF(CAST(1 AS TINYINT) + CAST(1 AS SMALLINT));
+-------------------+
|            EXPR$0 |
+-------------------+
| SMALLINT NOT NULL |
+-------------------+
1 row in set
!ok
SELECT TYPEOF(1 + CAST(1 AS BIGINT));
+-----------------+
|          EXPR$0 |
+-----------------+
| BIGINT NOT NULL |
+-----------------+
1 row in set
!ok
SELECT TYPEOF(1 + 1.5E0);
+-----------------+
|          EXPR$0 |
+-----------------+
| DOUBLE NOT NULL |
+-----------------+
1 row in set
!ok
SELECT TYPEOF(CAST(1 AS FLOAT) + 1);
+----------------+
|         EXPR$0 |
+----------------+
| FLOAT NOT NULL |
+----------------+
1 row in set
!ok

# seed §6 E-12: BIN(4) = '100', BIN(12) = '1100', NULL -> NULL
SELECT BIN(4);
+--------+
| EXPR$0 |
+--------+
|    100 |
+--------+
1 row in set
!ok
SELECT BIN(12);
+--------+
| EXPR$0 |
+--------+
|   1100 |
+--------+
1 row in set
!ok
SELECT BIN(CAST(NULL AS INT));
+--------+
| EXPR$0 |
+--------+
| <NULL> |
+--------+
1 row in set
!ok
# seed §6 E-13 / sql_functions.yml HEX: 20 -> '14', 100 -> '64',
# 'hello,world' -> '68656C6C6F2C776F726C64'
SELECT HEX(20);
+--------+
| EXPR$0 |
+--------+
|     14 |
+--------+
1 row in set
!ok
SELECT HEX(100);
+--------+
| EXPR$0 |
+--------+
|     64 |
+--------+
1 row in set
!ok
SELECT HEX('hello,world');
+------------------------+
|                 EXPR$0 |
+------------------------+
| 68656C6C6F2C776F726C64 |
+------------------------+
1 row in set
!ok
SELECT HEX(CAST(NULL AS INT));
+--------+
| EXPR$0 |
+--------+
| <NULL> |
+--------+
1 row in set
!ok
# seed §6 E-14: ROUND(646.646, 2) = 646.65, 3 -> 646.646, 0 -> 647, -2 -> 600
SELECT ROUND(646.646, 2);
+--------+
| EXPR$0 |
+--------+
| 646.65 |
+--------+
1 row in set
!ok
SELECT ROUND(646.646, 3);
+---------+
|  EXPR$0 |
+---------+
| 646.646 |
+---------+
1 row in set
!ok
SELECT ROUND(646.646, 0);
+--------+
| EXPR$0 |
+--------+
|    647 |
+--------+
1 row in set
!ok
SELECT ROUND(646.646, -2);
+--------+
| EXPR$0 |
+--------+
|    600 |
+--------+
1 row in set
!ok
# seed §6 E-15: truncate(42.345, 2) = 42.34; 42.truncate(-1) = 40
SELECT TRUNCATE(42.345, 2);
+--------+
| EXPR$0 |
+--------+
|  42.34 |
+--------+
1 row in set
!ok
SELECT TRUNCATE(42, -1);
+--------+
| EXPR$0 |
+--------+
|     40 |
+--------+
1 row in set
!ok
# sql_functions.yml TRUNCATE: 42.324.truncate(2) to 42.32
SELECT TRUNCATE(42.324, 2);
+--------+
| EXPR$0 |
+--------+
|  42.32 |
+--------+
1 row in set
!ok
# seed §6 E-16: SIGN(1.23) = 1.00, SIGN(-1.23) = -1.00
SELECT SIGN(1.23);
+--------+
| EXPR$0 |
+--------+
|   1.00 |
+--------+
1 row in set
!ok
SELECT SIGN(-1.23);
+--------+
| EXPR$0 |
+--------+
|  -1.00 |
+--------+
1 row in set
!ok
# sql_functions.yml LOG: one argument is the natural logarithm
SELECT LOG(1);
+--------+
| EXPR$0 |
+--------+
|    0.0 |
+--------+
1 row in set
!ok
SELECT LOG(2, 8);
+--------+
| EXPR$0 |
+--------+
|    3.0 |
+--------+
1 row in set
!ok
SELECT LOG2(8);
+--------+
| EXPR$0 |
+--------+
|    3.0 |
+--------+
1 row in set
!ok
# sql_functions.yml UNHEX: odd lengths get a leading 0; non-hex gives NULL
SELECT UNHEX('414243');
+-----------+
|    EXPR$0 |
+-----------+
| x'414243' |
+-----------+
1 row in set
!ok
# riffle-only: Flink gives x'00' for UNHEX of an odd-length string
SELECT UNHEX('F');
+--------+
| EXPR$0 |
+--------+
|  x'0f' |
+--------+
1 row in set
!ok
SELECT UNHEX('zz');
+--------+
| EXPR$0 |
+--------+
| <NULL> |
+--------+
1 row in set
!ok
# seed §6 E-17: RAND(seed) gives the same sequence; values in [0, 1)
SELECT RAND(42) = RAND(42);
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT RAND() >= 0 AND RAND() < 1;
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT RAND_INTEGER(7, 10) < 10;
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
# java.util.Random(42).nextDouble() is 0.7275636800328681 (JDK spec of the LCG)
SELECT RAND(42);
+--------------------+
|             EXPR$0 |
+--------------------+
| 0.7275636800328681 |
+--------------------+
1 row in set
!ok
