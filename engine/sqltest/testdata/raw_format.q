# raw_format.q - the raw format on the filesystem connector (Flink's
# RawFormatFactory): one column; a file is read line by line as Flink's
# DeserializationSchemaAdapter splits it ('\n' ends a line, a '\r' before
# it is dropped, an empty line is an empty value).

SET 'execution.runtime-mode' = 'batch';
[INFO] Execute statement succeeded.
!info

CREATE TABLE lines (line STRING) WITH ('connector' = 'filesystem', 'path' = '${TESTDATA}/raw/lines.txt', 'format' = 'raw');
[INFO] Execute statement succeeded.
!info

SELECT line, CHAR_LENGTH(line) AS len FROM lines;
+---------------------------+-----+
|                      line | len |
+---------------------------+-----+
|                first line |  10 |
|                           |   0 |
|       third, with a comma |  19 |
| last line without a break |  25 |
+---------------------------+-----+
4 rows in set
!ok

CREATE TABLE two (a STRING, b STRING) WITH ('connector' = 'filesystem', 'path' = '${TESTDATA}/raw/lines.txt', 'format' = 'raw');
[INFO] Execute statement succeeded.
!info

SELECT * FROM two;
[ERROR] Could not execute SQL statement. Reason:
The 'raw' format only supports single physical column. However the defined schema contains multiple physical columns: [`a` STRING, `b` STRING]
!error
