# intervals.q - interval literals and interval arithmetic.
# Sources: Calcite's SqlIntervalQualifier.evaluateIntervalLiteral (the
# patterns and ranges Flink's validator applies: the leading field fits its
# precision, DAY means DAY(2); HOUR < 24, MINUTE and SECOND < 60, MONTH <
# 12; fractional seconds kept to the millisecond), CalciteResource
# ("Interval field value {0,number} exceeds precision of {1} field",
# "Illegal interval literal format {0} for {1}", "Interval leading field
# precision ... out of range"), Flink's FlinkTypeFactory.toLogicalType
# ("DAY_INTERVAL_TYPES precision is not supported", tested in
# FlinkTypeFactoryTest), sql_functions.yml (date/timestamp +/- interval).
# Riffle holds INTERVAL DAY TO SECOND values as Go time.Duration (±106,751
# days); arithmetic beyond fails instead of wrapping.

SET 'execution.runtime-mode' = 'batch';
[INFO] Execute statement succeeded.
!info
SET 'table.local-time-zone' = 'UTC';
[INFO] Execute statement succeeded.
!info

# the leading field is limited by its precision (default 2)
SELECT INTERVAL '99' DAY, INTERVAL '999' DAY(3), INTERVAL '-99' DAY;
+------------------+-------------------+------------------+
|           EXPR$0 |            EXPR$1 |           EXPR$2 |
+------------------+-------------------+------------------+
| +99 00:00:00.000 | +999 00:00:00.000 | -99 00:00:00.000 |
+------------------+-------------------+------------------+
1 row in set
!ok
SELECT INTERVAL '99999999' DAY;
[ERROR] Could not execute SQL statement. Reason:
Interval field value 99,999,999 exceeds precision of DAY(2) field
!error
SELECT INTERVAL '-100' DAY;
[ERROR] Could not execute SQL statement. Reason:
Interval field value -100 exceeds precision of DAY(2) field
!error
SELECT INTERVAL '100' YEAR;
[ERROR] Could not execute SQL statement. Reason:
Interval field value 100 exceeds precision of YEAR(2) field
!error
SELECT INTERVAL '100' HOUR;
[ERROR] Could not execute SQL statement. Reason:
Interval field value 100 exceeds precision of HOUR(2) field
!error
SELECT INTERVAL '1000 10' DAY(3) TO HOUR;
[ERROR] Could not execute SQL statement. Reason:
Interval field value 1,000 exceeds precision of DAY(3) field
!error
SELECT INTERVAL '100:00' MINUTE TO SECOND;
[ERROR] Could not execute SQL statement. Reason:
Interval field value 100 exceeds precision of MINUTE(2) field
!error
SELECT INTERVAL '5' DAY(0);
[ERROR] Could not execute SQL statement. Reason:
Interval leading field precision '0' out of range for INTERVAL DAY(0)
!error
# Flink plans a day-time literal as INTERVAL SECOND(3) and rejects a
# leading precision above 3 (FlinkTypeFactory.toLogicalType)
SELECT INTERVAL '110000' DAY(6);
[ERROR] Could not execute SQL statement. Reason:
DAY_INTERVAL_TYPES precision is not supported: 6
!error
SELECT DATE '2020-01-01' + INTERVAL '200000' DAY(6);
[ERROR] Could not execute SQL statement. Reason:
DAY_INTERVAL_TYPES precision is not supported: 6
!error
SELECT INTERVAL '2' HOUR(4);
[ERROR] Could not execute SQL statement. Reason:
DAY_INTERVAL_TYPES precision is not supported: 4
!error
SELECT INTERVAL '9999' YEAR(4), INTERVAL '99-11' YEAR TO MONTH;
+----------+--------+
|   EXPR$0 | EXPR$1 |
+----------+--------+
| +9999-00 | +99-11 |
+----------+--------+
1 row in set
!ok

# the other fields keep their ranges, and the value matches the qualifier
SELECT INTERVAL '1 23' DAY TO HOUR, INTERVAL '23:59:59.999' HOUR TO SECOND;
+-----------------+-----------------+
|          EXPR$0 |          EXPR$1 |
+-----------------+-----------------+
| +1 23:00:00.000 | +0 23:59:59.999 |
+-----------------+-----------------+
1 row in set
!ok
SELECT INTERVAL '1 24' DAY TO HOUR;
[ERROR] Could not execute SQL statement. Reason:
Illegal interval literal format '1 24' for INTERVAL DAY TO HOUR
!error
SELECT INTERVAL '10:60' HOUR TO MINUTE;
[ERROR] Could not execute SQL statement. Reason:
Illegal interval literal format '10:60' for INTERVAL HOUR TO MINUTE
!error
SELECT INTERVAL '1-12' YEAR TO MONTH;
[ERROR] Could not execute SQL statement. Reason:
Illegal interval literal format '1-12' for INTERVAL YEAR TO MONTH
!error
SELECT INTERVAL '1 02:03' DAY TO SECOND;
[ERROR] Could not execute SQL statement. Reason:
Illegal interval literal format '1 02:03' for INTERVAL DAY TO SECOND
!error
SELECT INTERVAL 'x' DAY;
[ERROR] Could not execute SQL statement. Reason:
Illegal interval literal format 'x' for INTERVAL DAY
!error
# riffle-only: error wording differs (Flink: Illegal INTERVAL literal  SECOND; at line 1, column 8)
SELECT INTERVAL '' SECOND;
[ERROR] Could not execute SQL statement. Reason:
Illegal interval literal format '' for INTERVAL SECOND
!error
# fractional seconds: at most the fractional precision's digits (6 by
# default), kept to the millisecond
SELECT INTERVAL '1.2345' SECOND, INTERVAL '-0.5' SECOND, INTERVAL '1 02:03:04.5' DAY TO SECOND;
+-----------------+-----------------+-----------------+
|          EXPR$0 |          EXPR$1 |          EXPR$2 |
+-----------------+-----------------+-----------------+
| +0 00:00:01.234 | -0 00:00:00.500 | +1 02:03:04.500 |
+-----------------+-----------------+-----------------+
1 row in set
!ok
SELECT INTERVAL '1.2345678' SECOND;
[ERROR] Could not execute SQL statement. Reason:
Illegal interval literal format '1.2345678' for INTERVAL SECOND
!error
SELECT INTERVAL '1.2345' SECOND(2, 3);
[ERROR] Could not execute SQL statement. Reason:
Illegal interval literal format '1.2345' for INTERVAL SECOND(2, 3)
!error

# date and timestamp +/- interval over long spans are exact (java.time)
SELECT DATE '2020-01-01' + INTERVAL '999' DAY(3) * 100, TIMESTAMP '2020-01-01 00:00:00' - INTERVAL '999' DAY(3) * 100;
+------------+---------------------+
|     EXPR$0 |              EXPR$1 |
+------------+---------------------+
| 2293-07-08 | 1746-06-26 00:00:00 |
+------------+---------------------+
1 row in set
!ok
# riffle-only: Riffle extension: INTERVAL times a DECIMAL (Flink: Unsupported casting from DECIMAL(2, 1) to INTERVAL SECOND(3))
SELECT INTERVAL '999' DAY(3) * 100, INTERVAL '99' DAY * 1.5, INTERVAL '99' DAY / 4;
+---------------------+-------------------+------------------+
|              EXPR$0 |            EXPR$1 |           EXPR$2 |
+---------------------+-------------------+------------------+
| +99900 00:00:00.000 | +148 12:00:00.000 | +24 18:00:00.000 |
+---------------------+-------------------+------------------+
1 row in set
!ok
SELECT DATE '2020-01-01' + INTERVAL '99' YEAR * 50;
+------------+
|     EXPR$0 |
+------------+
| 6970-01-01 |
+------------+
1 row in set
!ok
SELECT TIMESTAMPADD(HOUR, 3000000, TIMESTAMP '2000-01-01 00:00:00');
+---------------------+
|              EXPR$0 |
+---------------------+
| 2342-03-29 00:00:00 |
+---------------------+
1 row in set
!ok
# past ±106,751 days Riffle fails rather than wrap
# riffle-only: Flink bug: INTERVAL DAY TO SECOND multiplication overflows silently (-68519 21:52:48.547)
SELECT INTERVAL '999' DAY(3) * 1000;
[ERROR] Could not execute SQL statement. Reason:
INTERVAL DAY TO SECOND overflow
!error
# riffle-only: Flink bug: INTERVAL YEAR TO MONTH multiplication overflows silently (-121590357-04)
SELECT INTERVAL '99' YEAR * 100000000;
[ERROR] Could not execute SQL statement. Reason:
INTERVAL YEAR TO MONTH overflow
!error
# riffle-only: error wording differs (Flink: Division by zero)
SELECT INTERVAL '99' DAY / 0;
[ERROR] Could not execute SQL statement. Reason:
division by zero
!error
# MILLISECOND and finer are Riffle's extensions, without a leading precision
# riffle-only: Riffle extension: MILLISECOND and MICROSECOND interval units (Flink 2.3 does not parse them)
SELECT INTERVAL '500' MILLISECOND, INTERVAL '1500000' MICROSECOND, TIMESTAMP '2020-01-01 00:00:00' + INTERVAL '2500' MILLISECOND;
+-----------------+-----------------+---------------------+
|          EXPR$0 |          EXPR$1 |              EXPR$2 |
+-----------------+-----------------+---------------------+
| +0 00:00:00.500 | +0 00:00:01.500 | 2020-01-01 00:00:02 |
+-----------------+-----------------+---------------------+
1 row in set
!ok
