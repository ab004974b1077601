# temporal.q - date, time, timestamp and interval functions.
# Sources: docs/data/sql_functions.yml ("temporal"; examples quoted in the
# comments), flink-table-planner/.../expressions/SqlExpressionTest.scala
# (testDateTimeFunctions), TimeFunctionsITCase.java (EXTRACT, FLOOR, CEIL,
# OVERLAPS), ExtractFunctionITCase.java, and the seed inventory §6
# (E-32..E-41). The session time zone is UTC unless a case sets another.

SET 'execution.runtime-mode' = 'batch';
[INFO] Execute statement succeeded.
!info
SET 'table.local-time-zone' = 'UTC';
[INFO] Execute statement succeeded.
!info

# SqlExpressionTest.testDateTimeFunctions
SELECT DATE '1990-10-14';
+------------+
|     EXPR$0 |
+------------+
| 1990-10-14 |
+------------+
1 row in set
!ok
SELECT TIME '12:12:12';
+----------+
|   EXPR$0 |
+----------+
| 12:12:12 |
+----------+
1 row in set
!ok
SELECT TIMESTAMP '1990-10-14 12:12:12.123';
+-------------------------+
|                  EXPR$0 |
+-------------------------+
| 1990-10-14 12:12:12.123 |
+-------------------------+
1 row in set
!ok
SELECT INTERVAL '10 00:00:00.004' DAY TO SECOND;
+------------------+
|           EXPR$0 |
+------------------+
| +10 00:00:00.004 |
+------------------+
1 row in set
!ok
SELECT INTERVAL '10 00:12' DAY TO MINUTE;
+------------------+
|           EXPR$0 |
+------------------+
| +10 00:12:00.000 |
+------------------+
1 row in set
!ok
SELECT INTERVAL '2-10' YEAR TO MONTH;
+--------+
| EXPR$0 |
+--------+
|  +2-10 |
+--------+
1 row in set
!ok
SELECT EXTRACT(DAY FROM DATE '1990-12-01');
+--------+
| EXPR$0 |
+--------+
|      1 |
+--------+
1 row in set
!ok
SELECT EXTRACT(DAY FROM INTERVAL '19 12:10:10.123' DAY TO SECOND(3));
+--------+
| EXPR$0 |
+--------+
|     19 |
+--------+
1 row in set
!ok
SELECT FLOOR(TIME '12:44:31' TO MINUTE);
+----------+
|   EXPR$0 |
+----------+
| 12:44:00 |
+----------+
1 row in set
!ok
SELECT CEIL(TIME '12:44:31' TO MINUTE);
+----------+
|   EXPR$0 |
+----------+
| 12:45:00 |
+----------+
1 row in set
!ok
SELECT QUARTER(DATE '2016-04-12');
+--------+
| EXPR$0 |
+--------+
|      2 |
+--------+
1 row in set
!ok

# sql_functions.yml: YEAR(DATE '1994-09-27') returns 1994, QUARTER 3, MONTH 9,
# WEEK 39, DAYOFYEAR 270, DAYOFMONTH 27, DAYOFWEEK 3
SELECT YEAR(DATE '1994-09-27');
+--------+
| EXPR$0 |
+--------+
|   1994 |
+--------+
1 row in set
!ok
SELECT QUARTER(DATE '1994-09-27');
+--------+
| EXPR$0 |
+--------+
|      3 |
+--------+
1 row in set
!ok
SELECT MONTH(DATE '1994-09-27');
+--------+
| EXPR$0 |
+--------+
|      9 |
+--------+
1 row in set
!ok
SELECT WEEK(DATE '1994-09-27');
+--------+
| EXPR$0 |
+--------+
|     39 |
+--------+
1 row in set
!ok
SELECT DAYOFYEAR(DATE '1994-09-27');
+--------+
| EXPR$0 |
+--------+
|    270 |
+--------+
1 row in set
!ok
SELECT DAYOFMONTH(DATE '1994-09-27');
+--------+
| EXPR$0 |
+--------+
|     27 |
+--------+
1 row in set
!ok
SELECT DAYOFWEEK(DATE '1994-09-27');
+--------+
| EXPR$0 |
+--------+
|      3 |
+--------+
1 row in set
!ok
# sql_functions.yml: HOUR / MINUTE / SECOND of TIMESTAMP '1994-09-27 13:14:15'
SELECT HOUR(TIMESTAMP '1994-09-27 13:14:15');
+--------+
| EXPR$0 |
+--------+
|     13 |
+--------+
1 row in set
!ok
SELECT MINUTE(TIMESTAMP '1994-09-27 13:14:15');
+--------+
| EXPR$0 |
+--------+
|     14 |
+--------+
1 row in set
!ok
SELECT SECOND(TIMESTAMP '1994-09-27 13:14:15');
+--------+
| EXPR$0 |
+--------+
|     15 |
+--------+
1 row in set
!ok
# seed §6 E-32: EXTRACT(DAY FROM DATE '2006-06-05') = 5
SELECT EXTRACT(DAY FROM DATE '2006-06-05');
+--------+
| EXPR$0 |
+--------+
|      5 |
+--------+
1 row in set
!ok

# ExtractFunctionITCase / TimeFunctionsITCase over TIMESTAMP '2000-01-31 11:22:33.123456789'
# (a TIMESTAMP(6) column keeps microseconds)
CREATE TEMPORARY VIEW ts AS SELECT CAST(TIMESTAMP '2000-01-31 11:22:33.123456789' AS TIMESTAMP(6)) AS f0, CAST(TIMESTAMP '2020-02-29 01:56:59.987654321' AS TIMESTAMP(6)) AS f1, DATE '1990-10-14' AS d, TIME '11:22:33' AS t;
[INFO] Execute statement succeeded.
!info
SELECT EXTRACT(NANOSECOND FROM f0), EXTRACT(NANOSECOND FROM f1) FROM ts;
+-----------+-----------+
|    EXPR$0 |    EXPR$1 |
+-----------+-----------+
| 123456000 | 987654000 |
+-----------+-----------+
1 row in set
!ok
SELECT EXTRACT(MICROSECOND FROM f0), EXTRACT(MICROSECOND FROM f1) FROM ts;
+--------+--------+
| EXPR$0 | EXPR$1 |
+--------+--------+
| 123456 | 987654 |
+--------+--------+
1 row in set
!ok
SELECT EXTRACT(MILLISECOND FROM f0), EXTRACT(MILLISECOND FROM f1) FROM ts;
+--------+--------+
| EXPR$0 | EXPR$1 |
+--------+--------+
|    123 |    987 |
+--------+--------+
1 row in set
!ok
SELECT EXTRACT(SECOND FROM f0), EXTRACT(MINUTE FROM f0), EXTRACT(HOUR FROM f0) FROM ts;
+--------+--------+--------+
| EXPR$0 | EXPR$1 | EXPR$2 |
+--------+--------+--------+
|     33 |     22 |     11 |
+--------+--------+--------+
1 row in set
!ok
SELECT EXTRACT(SECOND FROM f1), EXTRACT(MINUTE FROM f1), EXTRACT(HOUR FROM f1) FROM ts;
+--------+--------+--------+
| EXPR$0 | EXPR$1 | EXPR$2 |
+--------+--------+--------+
|     59 |     56 |      1 |
+--------+--------+--------+
1 row in set
!ok
SELECT EXTRACT(DAY FROM f0), EXTRACT(WEEK FROM f0), EXTRACT(MONTH FROM f0), EXTRACT(QUARTER FROM f0), EXTRACT(YEAR FROM f0) FROM ts;
+--------+--------+--------+--------+--------+
| EXPR$0 | EXPR$1 | EXPR$2 | EXPR$3 | EXPR$4 |
+--------+--------+--------+--------+--------+
|     31 |      5 |      1 |      1 |   2000 |
+--------+--------+--------+--------+--------+
1 row in set
!ok
SELECT EXTRACT(DAY FROM f1), EXTRACT(WEEK FROM f1), EXTRACT(MONTH FROM f1), EXTRACT(QUARTER FROM f1), EXTRACT(YEAR FROM f1) FROM ts;
+--------+--------+--------+--------+--------+
| EXPR$0 | EXPR$1 | EXPR$2 | EXPR$3 | EXPR$4 |
+--------+--------+--------+--------+--------+
|     29 |      9 |      2 |      1 |   2020 |
+--------+--------+--------+--------+--------+
1 row in set
!ok
SELECT EXTRACT(DECADE FROM f0), EXTRACT(CENTURY FROM f0), EXTRACT(MILLENNIUM FROM f0) FROM ts;
+--------+--------+--------+
| EXPR$0 | EXPR$1 | EXPR$2 |
+--------+--------+--------+
|    200 |     20 |      2 |
+--------+--------+--------+
1 row in set
!ok
SELECT EXTRACT(DECADE FROM f1), EXTRACT(CENTURY FROM f1), EXTRACT(MILLENNIUM FROM f1) FROM ts;
+--------+--------+--------+
| EXPR$0 | EXPR$1 | EXPR$2 |
+--------+--------+--------+
|    202 |     21 |      3 |
+--------+--------+--------+
1 row in set
!ok
SELECT EXTRACT(DOW FROM f0), EXTRACT(ISODOW FROM f0), EXTRACT(DOY FROM f0), EXTRACT(ISOYEAR FROM f0) FROM ts;
+--------+--------+--------+--------+
| EXPR$0 | EXPR$1 | EXPR$2 | EXPR$3 |
+--------+--------+--------+--------+
|      2 |      1 |     31 |   2000 |
+--------+--------+--------+--------+
1 row in set
!ok
SELECT EXTRACT(DOW FROM f1), EXTRACT(ISODOW FROM f1), EXTRACT(DOY FROM f1), EXTRACT(ISOYEAR FROM f1) FROM ts;
+--------+--------+--------+--------+
| EXPR$0 | EXPR$1 | EXPR$2 | EXPR$3 |
+--------+--------+--------+--------+
|      7 |      6 |     60 |   2020 |
+--------+--------+--------+--------+
1 row in set
!ok
SELECT EXTRACT(EPOCH FROM f0), EXTRACT(EPOCH FROM f1) FROM ts;
+-----------+------------+
|    EXPR$0 |     EXPR$1 |
+-----------+------------+
| 949317753 | 1582941419 |
+-----------+------------+
1 row in set
!ok
SELECT EXTRACT(DAY FROM d) FROM ts;
+--------+
| EXPR$0 |
+--------+
|     14 |
+--------+
1 row in set
!ok
# TimeFunctionsITCase: "NANOSECOND can not be applied" to a DATE
SELECT EXTRACT(NANOSECOND FROM d) FROM ts;
[ERROR] Could not execute SQL statement. Reason:
NANOSECOND
!error

# TimeFunctionsITCase ceilTestCases / floorTestCases over TIME '11:22:33',
# DATE '1990-10-14' and TIMESTAMP '2020-02-29 01:56:59.987654'
SELECT CEIL(t TO MILLISECOND), CEIL(d TO MILLISECOND), CEIL(f1 TO MILLISECOND) FROM ts;
+----------+------------+----------------------------+
|   EXPR$0 |     EXPR$1 |                     EXPR$2 |
+----------+------------+----------------------------+
| 11:22:33 | 1990-10-14 | 2020-02-29 01:56:59.988000 |
+----------+------------+----------------------------+
1 row in set
!ok
SELECT CEIL(t TO SECOND), CEIL(d TO SECOND), CEIL(f1 TO SECOND) FROM ts;
+----------+------------+----------------------------+
|   EXPR$0 |     EXPR$1 |                     EXPR$2 |
+----------+------------+----------------------------+
| 11:22:33 | 1990-10-14 | 2020-02-29 01:57:00.000000 |
+----------+------------+----------------------------+
1 row in set
!ok
SELECT CEIL(t TO MINUTE), CEIL(d TO MINUTE), CEIL(f1 TO MINUTE) FROM ts;
+----------+------------+----------------------------+
|   EXPR$0 |     EXPR$1 |                     EXPR$2 |
+----------+------------+----------------------------+
| 11:23:00 | 1990-10-14 | 2020-02-29 01:57:00.000000 |
+----------+------------+----------------------------+
1 row in set
!ok
SELECT CEIL(t TO HOUR), CEIL(d TO HOUR), CEIL(f1 TO HOUR) FROM ts;
+----------+------------+----------------------------+
|   EXPR$0 |     EXPR$1 |                     EXPR$2 |
+----------+------------+----------------------------+
| 12:00:00 | 1990-10-14 | 2020-02-29 02:00:00.000000 |
+----------+------------+----------------------------+
1 row in set
!ok
SELECT CEIL(d TO DAY), CEIL(f1 TO DAY) FROM ts;
+------------+----------------------------+
|     EXPR$0 |                     EXPR$1 |
+------------+----------------------------+
| 1990-10-15 | 2020-03-01 00:00:00.000000 |
+------------+----------------------------+
1 row in set
!ok
SELECT CEIL(d TO WEEK), CEIL(f1 TO WEEK) FROM ts;
+------------+----------------------------+
|     EXPR$0 |                     EXPR$1 |
+------------+----------------------------+
| 1990-10-14 | 2020-03-01 00:00:00.000000 |
+------------+----------------------------+
1 row in set
!ok
SELECT CEIL(d TO MONTH), CEIL(f1 TO MONTH) FROM ts;
+------------+----------------------------+
|     EXPR$0 |                     EXPR$1 |
+------------+----------------------------+
| 1990-11-01 | 2020-03-01 00:00:00.000000 |
+------------+----------------------------+
1 row in set
!ok
SELECT CEIL(d TO QUARTER), CEIL(f1 TO QUARTER) FROM ts;
+------------+----------------------------+
|     EXPR$0 |                     EXPR$1 |
+------------+----------------------------+
| 1991-01-01 | 2020-04-01 00:00:00.000000 |
+------------+----------------------------+
1 row in set
!ok
SELECT CEIL(d TO YEAR), CEIL(f1 TO YEAR) FROM ts;
+------------+----------------------------+
|     EXPR$0 |                     EXPR$1 |
+------------+----------------------------+
| 1991-01-01 | 2021-01-01 00:00:00.000000 |
+------------+----------------------------+
1 row in set
!ok
SELECT CEIL(d TO DECADE), CEIL(f1 TO DECADE) FROM ts;
+------------+----------------------------+
|     EXPR$0 |                     EXPR$1 |
+------------+----------------------------+
| 2000-01-01 | 2030-01-01 00:00:00.000000 |
+------------+----------------------------+
1 row in set
!ok
SELECT CEIL(d TO CENTURY), CEIL(f1 TO CENTURY) FROM ts;
+------------+----------------------------+
|     EXPR$0 |                     EXPR$1 |
+------------+----------------------------+
| 2001-01-01 | 2101-01-01 00:00:00.000000 |
+------------+----------------------------+
1 row in set
!ok
SELECT CEIL(d TO MILLENNIUM), CEIL(f1 TO MILLENNIUM) FROM ts;
+------------+----------------------------+
|     EXPR$0 |                     EXPR$1 |
+------------+----------------------------+
| 2001-01-01 | 3001-01-01 00:00:00.000000 |
+------------+----------------------------+
1 row in set
!ok
SELECT FLOOR(t TO MILLISECOND), FLOOR(d TO MILLISECOND), FLOOR(f1 TO MILLISECOND) FROM ts;
+----------+------------+----------------------------+
|   EXPR$0 |     EXPR$1 |                     EXPR$2 |
+----------+------------+----------------------------+
| 11:22:33 | 1990-10-14 | 2020-02-29 01:56:59.987000 |
+----------+------------+----------------------------+
1 row in set
!ok
SELECT FLOOR(t TO SECOND), FLOOR(f1 TO SECOND) FROM ts;
+----------+----------------------------+
|   EXPR$0 |                     EXPR$1 |
+----------+----------------------------+
| 11:22:33 | 2020-02-29 01:56:59.000000 |
+----------+----------------------------+
1 row in set
!ok
SELECT FLOOR(t TO MINUTE), FLOOR(d TO MINUTE), FLOOR(f1 TO MINUTE) FROM ts;
+----------+------------+----------------------------+
|   EXPR$0 |     EXPR$1 |                     EXPR$2 |
+----------+------------+----------------------------+
| 11:22:00 | 1990-10-14 | 2020-02-29 01:56:00.000000 |
+----------+------------+----------------------------+
1 row in set
!ok
SELECT FLOOR(t TO HOUR), FLOOR(d TO HOUR), FLOOR(f1 TO HOUR) FROM ts;
+----------+------------+----------------------------+
|   EXPR$0 |     EXPR$1 |                     EXPR$2 |
+----------+------------+----------------------------+
| 11:00:00 | 1990-10-14 | 2020-02-29 01:00:00.000000 |
+----------+------------+----------------------------+
1 row in set
!ok
SELECT FLOOR(d TO DAY), FLOOR(f1 TO DAY) FROM ts;
+------------+----------------------------+
|     EXPR$0 |                     EXPR$1 |
+------------+----------------------------+
| 1990-10-14 | 2020-02-29 00:00:00.000000 |
+------------+----------------------------+
1 row in set
!ok
SELECT FLOOR(d TO WEEK), FLOOR(f1 TO WEEK) FROM ts;
+------------+----------------------------+
|     EXPR$0 |                     EXPR$1 |
+------------+----------------------------+
| 1990-10-14 | 2020-02-23 00:00:00.000000 |
+------------+----------------------------+
1 row in set
!ok
SELECT FLOOR(d TO MONTH), FLOOR(f1 TO MONTH) FROM ts;
+------------+----------------------------+
|     EXPR$0 |                     EXPR$1 |
+------------+----------------------------+
| 1990-10-01 | 2020-02-01 00:00:00.000000 |
+------------+----------------------------+
1 row in set
!ok
SELECT FLOOR(d TO QUARTER), FLOOR(f1 TO QUARTER) FROM ts;
+------------+----------------------------+
|     EXPR$0 |                     EXPR$1 |
+------------+----------------------------+
| 1990-10-01 | 2020-01-01 00:00:00.000000 |
+------------+----------------------------+
1 row in set
!ok
SELECT FLOOR(d TO YEAR), FLOOR(f1 TO YEAR) FROM ts;
+------------+----------------------------+
|     EXPR$0 |                     EXPR$1 |
+------------+----------------------------+
| 1990-01-01 | 2020-01-01 00:00:00.000000 |
+------------+----------------------------+
1 row in set
!ok
SELECT FLOOR(d TO DECADE), FLOOR(f1 TO DECADE) FROM ts;
+------------+----------------------------+
|     EXPR$0 |                     EXPR$1 |
+------------+----------------------------+
| 1990-01-01 | 2020-01-01 00:00:00.000000 |
+------------+----------------------------+
1 row in set
!ok
SELECT FLOOR(d TO CENTURY), FLOOR(f1 TO CENTURY) FROM ts;
+------------+----------------------------+
|     EXPR$0 |                     EXPR$1 |
+------------+----------------------------+
| 1901-01-01 | 2001-01-01 00:00:00.000000 |
+------------+----------------------------+
1 row in set
!ok
SELECT FLOOR(d TO MILLENNIUM), FLOOR(f1 TO MILLENNIUM) FROM ts;
+------------+----------------------------+
|     EXPR$0 |                     EXPR$1 |
+------------+----------------------------+
| 1001-01-01 | 2001-01-01 00:00:00.000000 |
+------------+----------------------------+
1 row in set
!ok
# seed §6 E-33 / E-34
SELECT CEIL(TIME '12:44:31' TO MINUTE), FLOOR(TIME '12:44:31' TO MINUTE);
+----------+----------+
|   EXPR$0 |   EXPR$1 |
+----------+----------+
| 12:45:00 | 12:44:00 |
+----------+----------+
1 row in set
!ok

# seed §6 E-39: TIMESTAMPDIFF(DAY, DATE '2016-06-15', DATE '2016-06-18') = 3
SELECT TIMESTAMPDIFF(DAY, DATE '2016-06-15', DATE '2016-06-18');
+--------+
| EXPR$0 |
+--------+
|      3 |
+--------+
1 row in set
!ok
# TIMESTAMPDIFF counts whole units (signed)
SELECT TIMESTAMPDIFF(HOUR, TIMESTAMP '2024-01-01 00:00:00', TIMESTAMP '2024-01-01 05:59:59');
+--------+
| EXPR$0 |
+--------+
|      5 |
+--------+
1 row in set
!ok
SELECT TIMESTAMPDIFF(MONTH, DATE '2024-01-31', DATE '2024-03-01');
+--------+
| EXPR$0 |
+--------+
|      1 |
+--------+
1 row in set
!ok
SELECT TIMESTAMPDIFF(YEAR, DATE '2024-06-01', DATE '2020-06-02');
+--------+
| EXPR$0 |
+--------+
|     -3 |
+--------+
1 row in set
!ok
SELECT TIMESTAMPADD(DAY, 3, DATE '2024-02-27');
+------------+
|     EXPR$0 |
+------------+
| 2024-03-01 |
+------------+
1 row in set
!ok
SELECT TIMESTAMPADD(MONTH, 1, TIMESTAMP '2024-01-31 10:00:00');
+---------------------+
|              EXPR$0 |
+---------------------+
| 2024-02-29 10:00:00 |
+---------------------+
1 row in set
!ok
SELECT TIMESTAMPADD(HOUR, -2, TIMESTAMP '2024-01-01 01:00:00');
+---------------------+
|              EXPR$0 |
+---------------------+
| 2023-12-31 23:00:00 |
+---------------------+
1 row in set
!ok
# date ± interval keeps the day of month within range (java.time plusMonths)
SELECT DATE '2024-01-31' + INTERVAL '1' MONTH;
+------------+
|     EXPR$0 |
+------------+
| 2024-02-29 |
+------------+
1 row in set
!ok
SELECT TIMESTAMP '2024-03-31 00:00:00' - INTERVAL '1' MONTH;
+---------------------+
|              EXPR$0 |
+---------------------+
| 2024-02-29 00:00:00 |
+---------------------+
1 row in set
!ok
SELECT DATE '2024-01-01' + INTERVAL '36' HOUR;
+------------+
|     EXPR$0 |
+------------+
| 2024-01-02 |
+------------+
1 row in set
!ok
SELECT TIME '23:30:00' + INTERVAL '1' HOUR;
+----------+
|   EXPR$0 |
+----------+
| 00:30:00 |
+----------+
1 row in set
!ok

# sql_functions.yml OVERLAPS / seed §6 E-37; TimeFunctionsITCase temporalOverlapsTestCases
SELECT (TIME '2:55:00', INTERVAL '1' HOUR) OVERLAPS (TIME '3:30:00', INTERVAL '2' HOUR);
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT (TIME '9:00:00', TIME '10:00:00') OVERLAPS (TIME '10:15:00', INTERVAL '3' HOUR);
+--------+
| EXPR$0 |
+--------+
|  FALSE |
+--------+
1 row in set
!ok
SELECT (TIME '9:00:00', TIME '9:30:00') OVERLAPS (TIME '9:29:00', TIME '9:31:00');
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT (DATE '2011-03-10', INTERVAL '10' DAY) OVERLAPS (DATE '2011-03-19', INTERVAL '10' DAY);
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok

# sql_functions.yml CONVERT_TZ: '1970-01-01 00:00:00' from UTC to America/Los_Angeles
SELECT CONVERT_TZ('1970-01-01 00:00:00', 'UTC', 'America/Los_Angeles');
+---------------------+
|              EXPR$0 |
+---------------------+
| 1969-12-31 16:00:00 |
+---------------------+
1 row in set
!ok
# sql_functions.yml FROM_UNIXTIME(44) is '1970-01-01 00:00:44' in UTC
SELECT FROM_UNIXTIME(44);
+---------------------+
|              EXPR$0 |
+---------------------+
| 1970-01-01 00:00:44 |
+---------------------+
1 row in set
!ok
SELECT FROM_UNIXTIME(44, 'yyyy/MM/dd HH-mm-ss');
+---------------------+
|              EXPR$0 |
+---------------------+
| 1970/01/01 00-00-44 |
+---------------------+
1 row in set
!ok
# sql_functions.yml: "returns '1970-01-01 09:00:44' if in 'Asia/Tokyo' time zone"
SET 'table.local-time-zone' = 'Asia/Tokyo';
[INFO] Execute statement succeeded.
!info
SELECT FROM_UNIXTIME(44);
+---------------------+
|              EXPR$0 |
+---------------------+
| 1970-01-01 09:00:44 |
+---------------------+
1 row in set
!ok
# sql_functions.yml UNIX_TIMESTAMP examples in Europe/Berlin
SET 'table.local-time-zone' = 'Europe/Berlin';
[INFO] Execute statement succeeded.
!info
SELECT UNIX_TIMESTAMP('1970-01-01 08:00:01.001', 'yyyy-MM-dd HH:mm:ss.SSS');
+--------+
| EXPR$0 |
+--------+
|  25201 |
+--------+
1 row in set
!ok
SELECT UNIX_TIMESTAMP('1970-01-01 08:00:01.001 +0800', 'yyyy-MM-dd HH:mm:ss.SSS X');
+--------+
| EXPR$0 |
+--------+
|      1 |
+--------+
1 row in set
!ok
# text after the pattern is ignored (Java's SimpleDateFormat.parse): the
# offset is not read, the wall clock is taken in the session zone
SELECT UNIX_TIMESTAMP('1970-01-01 08:00:01.001 +0800', 'yyyy-MM-dd HH:mm:ss.SSS');
+--------+
| EXPR$0 |
+--------+
|  25201 |
+--------+
1 row in set
!ok
SELECT UNIX_TIMESTAMP('1970-01-01 08:00:01.001', 'yyyy-MM-dd HH:mm:ss.SSS X');
+----------------------+
|               EXPR$0 |
+----------------------+
| -9223372036854775808 |
+----------------------+
1 row in set
!ok
SET 'table.local-time-zone' = 'UTC';
[INFO] Execute statement succeeded.
!info
SELECT UNIX_TIMESTAMP('1970-01-01 00:00:05xyz', 'yyyy-MM-dd HH:mm:ss') AS a, UNIX_TIMESTAMP('1970-01-01 00:01:05', 'yyyy-MM-dd HH:mm') AS b, UNIX_TIMESTAMP('1970-01-01', 'yyyy-MM-dd HH') AS c;
+---+----+----------------------+
| a |  b |                    c |
+---+----+----------------------+
| 5 | 60 | -9223372036854775808 |
+---+----+----------------------+
1 row in set
!ok
SELECT UNIX_TIMESTAMP('1970-01-01 00:00:44');
+--------+
| EXPR$0 |
+--------+
|     44 |
+--------+
1 row in set
!ok

# sql_functions.yml TO_DATE / TO_TIMESTAMP / TO_TIMESTAMP_LTZ
SELECT TO_DATE('2016-06-15');
+------------+
|     EXPR$0 |
+------------+
| 2016-06-15 |
+------------+
1 row in set
!ok
SELECT TO_DATE('15/06/2016', 'dd/MM/yyyy');
+------------+
|     EXPR$0 |
+------------+
| 2016-06-15 |
+------------+
1 row in set
!ok
SELECT TO_TIMESTAMP('2016-06-15 03:30:00');
+-------------------------+
|                  EXPR$0 |
+-------------------------+
| 2016-06-15 03:30:00.000 |
+-------------------------+
1 row in set
!ok
SELECT TO_TIMESTAMP('15.06.2016 03:30', 'dd.MM.yyyy HH:mm');
+-------------------------+
|                  EXPR$0 |
+-------------------------+
| 2016-06-15 03:30:00.000 |
+-------------------------+
1 row in set
!ok
SELECT TO_TIMESTAMP('not a timestamp');
+--------+
| EXPR$0 |
+--------+
| <NULL> |
+--------+
1 row in set
!ok
SELECT TYPEOF(TO_TIMESTAMP('2016-06-15 03:30:00'));
+--------------+
|       EXPR$0 |
+--------------+
| TIMESTAMP(3) |
+--------------+
1 row in set
!ok
# TO_TIMESTAMP_LTZ(numeric, 0) takes epoch seconds, (numeric, 3) epoch milliseconds
SELECT TO_TIMESTAMP_LTZ(1, 0);
+-------------------------+
|                  EXPR$0 |
+-------------------------+
| 1970-01-01 00:00:01.000 |
+-------------------------+
1 row in set
!ok
SELECT TO_TIMESTAMP_LTZ(1500, 3);
+-------------------------+
|                  EXPR$0 |
+-------------------------+
| 1970-01-01 00:00:01.500 |
+-------------------------+
1 row in set
!ok
# TO_TIMESTAMP_LTZ is nullable whatever its arguments (ToTimestampLtzTypeStrategy;
# Flink 2.3.0 answers TIMESTAMP_LTZ(3))
SELECT TYPEOF(TO_TIMESTAMP_LTZ(1, 0));
+------------------+
|           EXPR$0 |
+------------------+
| TIMESTAMP_LTZ(3) |
+------------------+
1 row in set
!ok
# riffle-only: Riffle stricter: Flink accepts precision 5 in TO_TIMESTAMP_LTZ
SELECT TO_TIMESTAMP_LTZ(1, 5);
[ERROR] Could not execute SQL statement. Reason:
The precision value '5' for function TO_TIMESTAMP_LTZ(numeric, precision) is unsupported
!error
# TIMESTAMP_LTZ prints in the session time zone (table.local-time-zone)
SET 'table.local-time-zone' = 'Asia/Shanghai';
[INFO] Execute statement succeeded.
!info
SELECT TO_TIMESTAMP_LTZ(0, 0);
+-------------------------+
|                  EXPR$0 |
+-------------------------+
| 1970-01-01 08:00:00.000 |
+-------------------------+
1 row in set
!ok
SELECT CAST(TO_TIMESTAMP_LTZ(0, 0) AS TIMESTAMP(3));
+-------------------------+
|                  EXPR$0 |
+-------------------------+
| 1970-01-01 08:00:00.000 |
+-------------------------+
1 row in set
!ok
SELECT CAST(TIMESTAMP '1970-01-01 08:00:00' AS TIMESTAMP_LTZ(0)) = TO_TIMESTAMP_LTZ(0, 0);
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT HOUR(TO_TIMESTAMP_LTZ(0, 0));
+--------+
| EXPR$0 |
+--------+
|      8 |
+--------+
1 row in set
!ok
SET 'table.local-time-zone' = 'UTC';
[INFO] Execute statement succeeded.
!info

# DATE_FORMAT with Java (SimpleDateFormat) pattern letters
SELECT DATE_FORMAT(TIMESTAMP '2024-01-05 14:03:09.123', 'yyyy-MM-dd HH:mm:ss.SSS');
+-------------------------+
|                  EXPR$0 |
+-------------------------+
| 2024-01-05 14:03:09.123 |
+-------------------------+
1 row in set
!ok
SELECT DATE_FORMAT(TIMESTAMP '2024-01-05 14:03:09', 'yy/M/d h:m a');
+---------------+
|        EXPR$0 |
+---------------+
| 24/1/5 2:3 PM |
+---------------+
1 row in set
!ok
SELECT DATE_FORMAT(TIMESTAMP '2024-01-05 14:03:09', 'EEE, d MMM yyyy');
+-----------------+
|          EXPR$0 |
+-----------------+
| Fri, 5 Jan 2024 |
+-----------------+
1 row in set
!ok
SELECT DATE_FORMAT(TIMESTAMP '2024-01-05 14:03:09', 'EEEE MMMM dd');
+-------------------+
|            EXPR$0 |
+-------------------+
| Friday January 05 |
+-------------------+
1 row in set
!ok
SELECT DATE_FORMAT(TIMESTAMP '2024-01-05 14:03:09', '''at'' HH''h''');
+--------+
| EXPR$0 |
+--------+
| at 14h |
+--------+
1 row in set
!ok
SELECT DATE_FORMAT(TIMESTAMP '2024-03-05 00:00:00', 'D');
+--------+
| EXPR$0 |
+--------+
|     65 |
+--------+
1 row in set
!ok
SELECT DATE_FORMAT('2024-01-05 14:03:09', 'yyyyMMdd');
+----------+
|   EXPR$0 |
+----------+
| 20240105 |
+----------+
1 row in set
!ok
# Nexmark q10 partitions with DATE_FORMAT(ts, 'yyyy-MM-dd') and 'HH:mm'
SELECT DATE_FORMAT(TIMESTAMP '2015-07-15 12:05:00', 'yyyy-MM-dd'), DATE_FORMAT(TIMESTAMP '2015-07-15 12:05:00', 'HH:mm');
+------------+--------+
|     EXPR$0 | EXPR$1 |
+------------+--------+
| 2015-07-15 |  12:05 |
+------------+--------+
1 row in set
!ok

# seed §6 E-36: DATE/TIME/TIMESTAMP from strings as CAST does
SELECT CAST('2016-06-15' AS DATE);
+------------+
|     EXPR$0 |
+------------+
| 2016-06-15 |
+------------+
1 row in set
!ok
SELECT CAST('3:30:00' AS TIME);
+----------+
|   EXPR$0 |
+----------+
| 03:30:00 |
+----------+
1 row in set
!ok
SELECT CAST('2016-06-15 3:30:00.001' AS TIMESTAMP(3));
+-------------------------+
|                  EXPR$0 |
+-------------------------+
| 2016-06-15 03:30:00.001 |
+-------------------------+
1 row in set
!ok
# seed §6 E-02: DATE BETWEEN
SELECT CAST('2018-05-05' AS DATE) BETWEEN CAST('2018-05-01' AS DATE) AND CAST('2018-05-10' AS DATE);
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT CAST('2018-05-05' AS DATE) NOT BETWEEN CAST('2018-05-01' AS DATE) AND CAST('2018-05-10' AS DATE);
+--------+
| EXPR$0 |
+--------+
|  FALSE |
+--------+
1 row in set
!ok
# seed §6 E-41 / sql_functions.yml: CURRENT_TIMESTAMP is TIMESTAMP_LTZ(3), LOCALTIMESTAMP TIMESTAMP(3),
# LOCALTIME TIME(0), CURRENT_DATE DATE
SELECT TYPEOF(CURRENT_TIMESTAMP), TYPEOF(NOW()), TYPEOF(LOCALTIMESTAMP), TYPEOF(LOCALTIME), TYPEOF(CURRENT_DATE), TYPEOF(CURRENT_ROW_TIMESTAMP());
+---------------------------+---------------------------+-----------------------+------------------+---------------+---------------------------+
|                    EXPR$0 |                    EXPR$1 |                EXPR$2 |           EXPR$3 |        EXPR$4 |                    EXPR$5 |
+---------------------------+---------------------------+-----------------------+------------------+---------------+---------------------------+
| TIMESTAMP_LTZ(3) NOT NULL | TIMESTAMP_LTZ(3) NOT NULL | TIMESTAMP(3) NOT NULL | TIME(0) NOT NULL | DATE NOT NULL | TIMESTAMP_LTZ(3) NOT NULL |
+---------------------------+---------------------------+-----------------------+------------------+---------------+---------------------------+
1 row in set
!ok
# in batch mode CURRENT_TIMESTAMP is evaluated once per query
SELECT CURRENT_TIMESTAMP = NOW();
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT CAST(CURRENT_TIMESTAMP AS TIMESTAMP(3)) = LOCALTIMESTAMP;
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT CURRENT_DATE = CAST(LOCALTIMESTAMP AS DATE);
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT UNIX_TIMESTAMP() > 1700000000;
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
