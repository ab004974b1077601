# rounding.q - ROUND and TRUNCATE at extreme digit counts.
# Sources: Flink's LogicalTypeMerging.findRoundDecimalType (a rounding
# position at or past the scale keeps DECIMAL(p, s); a negative one gives
# DECIMAL(1 + p - s, 0)), SqlFunctionUtils.sround / struncate (BigDecimal
# setScale HALF_UP / DOWN, longValue for integers), sql_functions.yml.

SET 'execution.runtime-mode' = 'batch';
[INFO] Execute statement succeeded.
!info

# digits past the scale keep the value and its type
SELECT ROUND(123.456, 38), ROUND(123.456, 3), ROUND(123.456, 2), ROUND(123.456, -1), ROUND(-123.456, -1);
+---------+---------+--------+--------+--------+
|  EXPR$0 |  EXPR$1 | EXPR$2 | EXPR$3 | EXPR$4 |
+---------+---------+--------+--------+--------+
| 123.456 | 123.456 | 123.46 |    120 |   -120 |
+---------+---------+--------+--------+--------+
1 row in set
!ok
SELECT TRUNCATE(123.456, 38), TRUNCATE(-123.456, 2), TRUNCATE(-123.456, -1);
+---------+---------+--------+
|  EXPR$0 |  EXPR$1 | EXPR$2 |
+---------+---------+--------+
| 123.456 | -123.45 |   -120 |
+---------+---------+--------+
1 row in set
!ok
SELECT ROUND(CAST(123.456 AS DOUBLE), 38), ROUND(CAST(-1.5 AS DOUBLE), 0), ROUND(CAST(1.5 AS DOUBLE), 400), TRUNCATE(CAST(1.5 AS DOUBLE), 400);
+---------+--------+--------+--------+
|  EXPR$0 | EXPR$1 | EXPR$2 | EXPR$3 |
+---------+--------+--------+--------+
| 123.456 |   -2.0 |    1.5 |    1.5 |
+---------+--------+--------+--------+
1 row in set
!ok
# digits far to the left round to zero
SELECT ROUND(123, -20), ROUND(CAST(123 AS BIGINT), -19), ROUND(123.45, -50), TRUNCATE(123.45, -50), TRUNCATE(123, -20);
+--------+--------+--------+--------+--------+
| EXPR$0 | EXPR$1 | EXPR$2 | EXPR$3 | EXPR$4 |
+--------+--------+--------+--------+--------+
|      0 |      0 |      0 |      0 |      0 |
+--------+--------+--------+--------+--------+
1 row in set
!ok
# riffle-only: Flink fails on extreme ROUND/TRUNCATE scales (Underflow)
SELECT ROUND(1.5, -100), ROUND(12.5, 2147483647), TRUNCATE(12.5, 2147483647), ROUND(12.5, -2147483648);
+--------+--------+--------+--------+
| EXPR$0 | EXPR$1 | EXPR$2 | EXPR$3 |
+--------+--------+--------+--------+
|      0 |   12.5 |   12.5 |      0 |
+--------+--------+--------+--------+
1 row in set
!ok
SELECT ROUND(CAST(1.5 AS DOUBLE), -400), ROUND(-125, -1), ROUND(CAST(5 AS TINYINT), -1);
+--------+--------+--------+
| EXPR$0 | EXPR$1 | EXPR$2 |
+--------+--------+--------+
|    0.0 |   -130 |     10 |
+--------+--------+--------+
1 row in set
!ok
# a BIGINT rounded past its range wraps as Java's BigDecimal.longValue
SELECT ROUND(CAST(9223372036854775807 AS BIGINT), -1);
+----------------------+
|               EXPR$0 |
+----------------------+
| -9223372036854775806 |
+----------------------+
1 row in set
!ok
