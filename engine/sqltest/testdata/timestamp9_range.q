# riffle-only-file: Riffle stores TIMESTAMP(7..9) in int64 nanoseconds and rejects values outside 1677-09-21..2262-04-11 by design; Flink covers years 0000-9999
# timestamp9_range.q - TIMESTAMP(7..9) values outside the range Riffle can
# hold. Flink's TIMESTAMP(9) spans 0000-01-01 to 9999-12-31; Riffle stores
# precisions above 6 in int64 nanoseconds (1677-09-21 00:12:43.145224192 to
# 2262-04-11 23:47:16.854775807), so a value outside that range fails (CAST,
# literals, arithmetic, file formats) or is NULL (TRY_CAST) instead of
# wrapping to a wrong date. Precisions up to 6 keep Flink's full range.

SELECT CAST('0001-01-01 00:00:00' AS TIMESTAMP(9));
[ERROR] Could not execute SQL statement. Reason:
CAST: value 0001-01-01 00:00:00 is out of the range of TIMESTAMP(9): precisions above 6 are stored in int64 nanoseconds, from 1677-09-21 00:12:43.145224192 to 2262-04-11 23:47:16.854775807; use a precision of at most 6 for other dates
!error

SELECT TRY_CAST('0001-01-01 00:00:00' AS TIMESTAMP(9)) AS t;
+----+-------------------------------+
| op |                             t |
+----+-------------------------------+
| +I |                        <NULL> |
+----+-------------------------------+
Received a total of 1 row
!ok

SELECT CAST('0001-01-01 00:00:00' AS TIMESTAMP(6)) AS t;
+----+----------------------------+
| op |                          t |
+----+----------------------------+
| +I | 0001-01-01 00:00:00.000000 |
+----+----------------------------+
Received a total of 1 row
!ok

SELECT CAST('2262-04-11 23:47:16.854775807' AS TIMESTAMP(9)) AS t;
+----+-------------------------------+
| op |                             t |
+----+-------------------------------+
| +I | 2262-04-11 23:47:16.854775807 |
+----+-------------------------------+
Received a total of 1 row
!ok

SELECT CAST('2262-04-11 23:47:16.854775808' AS TIMESTAMP(9));
[ERROR] Could not execute SQL statement. Reason:
CAST: value 2262-04-11 23:47:16.854775808 is out of the range of TIMESTAMP(9): precisions above 6 are stored in int64 nanoseconds, from 1677-09-21 00:12:43.145224192 to 2262-04-11 23:47:16.854775807; use a precision of at most 6 for other dates
!error

SELECT TRY_CAST(s AS TIMESTAMP(9)) AS t FROM (VALUES ('0001-01-01 00:00:00'), ('2001-01-01 00:00:00.5')) AS v(s);
+----+-------------------------------+
| op |                             t |
+----+-------------------------------+
| +I |                        <NULL> |
| +I | 2001-01-01 00:00:00.500000000 |
+----+-------------------------------+
Received a total of 2 rows
!ok

SELECT CAST(s AS TIMESTAMP(9)) AS t FROM (VALUES ('0001-01-01 00:00:00'), ('2001-01-01 00:00:00.5')) AS v(s);
[ERROR] Could not execute SQL statement. Reason:
CAST: value 0001-01-01 00:00:00 is out of the range of TIMESTAMP(9): precisions above 6 are stored in int64 nanoseconds, from 1677-09-21 00:12:43.145224192 to 2262-04-11 23:47:16.854775807; use a precision of at most 6 for other dates
!error

SELECT TIMESTAMP '0001-01-01 00:00:00.123456789';
[ERROR] Could not execute SQL statement. Reason:
From line 1, column 8 to line 1, column 48: Illegal TIMESTAMP literal '0001-01-01 00:00:00.123456789': value 0001-01-01 00:00:00.123456789 is out of the range of TIMESTAMP(9): precisions above 6 are stored in int64 nanoseconds, from 1677-09-21 00:12:43.145224192 to 2262-04-11 23:47:16.854775807; use a precision of at most 6 for other dates
!error

SELECT TIMESTAMP '0001-01-01 00:00:00.123456' AS t;
+----+----------------------------+
| op |                          t |
+----+----------------------------+
| +I | 0001-01-01 00:00:00.123456 |
+----+----------------------------+
Received a total of 1 row
!ok

SELECT CAST(TO_TIMESTAMP('0001-01-01 00:00:00') AS TIMESTAMP(9));
[ERROR] Could not execute SQL statement. Reason:
CAST: value 0001-01-01 00:00:00 is out of the range of TIMESTAMP(9): precisions above 6 are stored in int64 nanoseconds, from 1677-09-21 00:12:43.145224192 to 2262-04-11 23:47:16.854775807; use a precision of at most 6 for other dates
!error

SELECT CAST(d AS TIMESTAMP(9)) FROM (VALUES (DATE '0001-01-01')) AS v(d);
[ERROR] Could not execute SQL statement. Reason:
CAST: value 0001-01-01 00:00:00 is out of the range of TIMESTAMP(9): precisions above 6 are stored in int64 nanoseconds, from 1677-09-21 00:12:43.145224192 to 2262-04-11 23:47:16.854775807; use a precision of at most 6 for other dates
!error

SELECT TIMESTAMPADD(DAY, 1, CAST('2262-04-11 00:00:00' AS TIMESTAMP(9)));
[ERROR] Could not execute SQL statement. Reason:
TIMESTAMPADD: value 2262-04-12 00:00:00 is out of the range of TIMESTAMP(9): precisions above 6 are stored in int64 nanoseconds, from 1677-09-21 00:12:43.145224192 to 2262-04-11 23:47:16.854775807; use a precision of at most 6 for other dates
!error

SELECT CAST('2262-04-11 00:00:00' AS TIMESTAMP(9)) + INTERVAL '1' DAY;
[ERROR] Could not execute SQL statement. Reason:
+: value 2262-04-12 00:00:00 is out of the range of TIMESTAMP(9): precisions above 6 are stored in int64 nanoseconds, from 1677-09-21 00:12:43.145224192 to 2262-04-11 23:47:16.854775807; use a precision of at most 6 for other dates
!error

CREATE TABLE c9 (id INT, ts TIMESTAMP(9))
WITH ('connector' = 'filesystem', 'path' = '${TESTDATA}/ts9_range.csv', 'format' = 'csv');
[INFO] Execute statement succeeded.
!info

SELECT * FROM c9 WHERE id < 3;
[ERROR] Could not execute SQL statement. Reason:
ts9_range.csv:3:2: column `ts`: cannot parse "0001-01-01 00:00:00" as TIMESTAMP(9): value 0001-01-01 00:00:00 is out of the range of TIMESTAMP(9): precisions above 6 are stored in int64 nanoseconds, from 1677-09-21 00:12:43.145224192 to 2262-04-11 23:47:16.854775807; use a precision of at most 6 for other dates
!error

CREATE TABLE c6 (id INT, ts TIMESTAMP(6))
WITH ('connector' = 'filesystem', 'path' = '${TESTDATA}/ts9_range.csv', 'format' = 'csv');
[INFO] Execute statement succeeded.
!info

SELECT * FROM c6;
+----+-------------+----------------------------+
| op |          id |                         ts |
+----+-------------+----------------------------+
| +I |           1 | 2001-02-03 04:05:06.123456 |
| +I |           2 | 2262-04-11 23:47:16.854775 |
| +I |           3 | 0001-01-01 00:00:00.000000 |
+----+-------------+----------------------------+
Received a total of 3 rows
!ok

# column plus a constant interval (the typed fast path) and TIMESTAMPADD
SELECT id, CAST(ts AS TIMESTAMP(9)) + INTERVAL '1' SECOND AS t FROM c6 WHERE id = 1;
+----+-------------+-------------------------------+
| op |          id |                             t |
+----+-------------+-------------------------------+
| +I |           1 | 2001-02-03 04:05:07.123456000 |
+----+-------------+-------------------------------+
Received a total of 1 row
!ok

SELECT CAST(ts AS TIMESTAMP(9)) + INTERVAL '1' SECOND FROM c6 WHERE id = 2;
[ERROR] Could not execute SQL statement. Reason:
value 2262-04-11 23:47:17.854775 is out of the range of TIMESTAMP(9): precisions above 6 are stored in int64 nanoseconds, from 1677-09-21 00:12:43.145224192 to 2262-04-11 23:47:16.854775807; use a precision of at most 6 for other dates
!error

SELECT TIMESTAMPADD(YEAR, 300, CAST(ts AS TIMESTAMP(9))) FROM c6 WHERE id = 1;
[ERROR] Could not execute SQL statement. Reason:
value 2301-02-03 04:05:06.123456 is out of the range of TIMESTAMP(9): precisions above 6 are stored in int64 nanoseconds, from 1677-09-21 00:12:43.145224192 to 2262-04-11 23:47:16.854775807; use a precision of at most 6 for other dates
!error

CREATE TABLE j9 (id INT, ts TIMESTAMP(9))
WITH ('connector' = 'filesystem', 'path' = '${TESTDATA}/ts9_range.json', 'format' = 'json');
[INFO] Execute statement succeeded.
!info

SELECT * FROM j9;
[ERROR] Could not execute SQL statement. Reason:
ts9_range.json:2:14: column `ts`: value 9999-12-31 23:59:59.999999999 is out of the range of TIMESTAMP(9): precisions above 6 are stored in int64 nanoseconds, from 1677-09-21 00:12:43.145224192 to 2262-04-11 23:47:16.854775807; use a precision of at most 6 for other dates
!error
