# csv_whitespace.q - surrounding spaces in CSV fields, type by type.
# Source: Flink's CsvToRowDataConverters: BOOLEAN, TINYINT, SMALLINT, INT,
# BIGINT, FLOAT and DOUBLE parse jsonNode.asText().trim(); DECIMAL parses
# new BigDecimal(text) and DATE Date.valueOf(text), TIME LocalTime.parse
# (text), without trimming, so spaces are a parse error; TIMESTAMP
# parses Timestamp.valueOf(text), which trims; STRING keeps the spaces.
# CsvRowDataSerDeSchemaTest: testFieldDeserialization(INT(), "  12  ", 12).

SET 'execution.runtime-mode' = 'batch';
[INFO] Execute statement succeeded.
!info

CREATE TABLE ints (a INT, b DOUBLE, c BOOLEAN, s STRING) WITH ('connector' = 'filesystem', 'path' = '${TESTDATA}/csv-spaces/ints.csv', 'format' = 'csv');
[INFO] Execute statement succeeded.
!info
SELECT a, b, c, CHAR_LENGTH(s) FROM ints;
+---+-----+------+--------+
| a |   b |    c | EXPR$3 |
+---+-----+------+--------+
| 1 | 2.5 | TRUE |      1 |
+---+-----+------+--------+
1 row in set
!ok
CREATE TABLE ints_as_text (a STRING, b STRING, c STRING, s STRING) WITH ('connector' = 'filesystem', 'path' = '${TESTDATA}/csv-spaces/ints.csv', 'format' = 'csv');
[INFO] Execute statement succeeded.
!info
SELECT CHAR_LENGTH(a), CHAR_LENGTH(b), CHAR_LENGTH(c) FROM ints_as_text;
+--------+--------+--------+
| EXPR$0 | EXPR$1 | EXPR$2 |
+--------+--------+--------+
|      3 |      5 |      6 |
+--------+--------+--------+
1 row in set
!ok
CREATE TABLE ts (a INT, t TIMESTAMP(0)) WITH ('connector' = 'filesystem', 'path' = '${TESTDATA}/csv-spaces/ts.csv', 'format' = 'csv');
[INFO] Execute statement succeeded.
!info
SELECT * FROM ts;
+---+---------------------+
| a |                   t |
+---+---------------------+
| 1 | 2020-01-01 10:00:00 |
+---+---------------------+
1 row in set
!ok
CREATE TABLE dec_lead (a INT, d DECIMAL(5, 2)) WITH ('connector' = 'filesystem', 'path' = '${TESTDATA}/csv-spaces/dec_lead.csv', 'format' = 'csv');
[INFO] Execute statement succeeded.
!info
# riffle-only: error wording differs (Flink: Character   is neither a decimal digit number, decimal point, nor "e" notation exponential mark.)
SELECT * FROM dec_lead;
[ERROR] Could not execute SQL statement. Reason:
dec_lead.csv:1:2: column `d`: cannot parse " 2.50" as DECIMAL(5, 2)
!error
CREATE TABLE dec_trail (a INT, d DECIMAL(5, 2)) WITH ('connector' = 'filesystem', 'path' = '${TESTDATA}/csv-spaces/dec_trail.csv', 'format' = 'csv');
[INFO] Execute statement succeeded.
!info
# riffle-only: error wording differs (Flink: Character   is neither a decimal digit number, decimal point, nor "e" notation exponential mark.)
SELECT * FROM dec_trail;
[ERROR] Could not execute SQL statement. Reason:
dec_trail.csv:1:2: column `d`: cannot parse "2.50 " as DECIMAL(5, 2)
!error
CREATE TABLE dates (a INT, d DATE) WITH ('connector' = 'filesystem', 'path' = '${TESTDATA}/csv-spaces/date.csv', 'format' = 'csv');
[INFO] Execute statement succeeded.
!info
# riffle-only: error wording differs (Flink: java.lang.IllegalArgumentException)
SELECT * FROM dates;
[ERROR] Could not execute SQL statement. Reason:
date.csv:1:2: column `d`: cannot parse " 2020-01-01" as DATE
!error
CREATE TABLE times (a INT, t TIME) WITH ('connector' = 'filesystem', 'path' = '${TESTDATA}/csv-spaces/time.csv', 'format' = 'csv');
[INFO] Execute statement succeeded.
!info
# riffle-only: error wording differs (Flink: Text ' 10:00:00' could not be parsed at index 0)
SELECT * FROM times;
[ERROR] Could not execute SQL statement. Reason:
time.csv:1:2: column `t`: cannot parse " 10:00:00" as TIME(0)
!error
# with csv.ignore-parse-errors the field becomes NULL, as in Flink
CREATE TABLE dec_lenient (a INT, d DECIMAL(5, 2)) WITH ('connector' = 'filesystem', 'path' = '${TESTDATA}/csv-spaces/dec_lead.csv', 'format' = 'csv', 'csv.ignore-parse-errors' = 'true');
[INFO] Execute statement succeeded.
!info
SELECT * FROM dec_lenient;
+---+--------+
| a |      d |
+---+--------+
| 1 | <NULL> |
+---+--------+
1 row in set
!ok
