# datagen_bounded.q - boundedness of the datagen connector (Flink's
# DataGenTableSource: the source is bounded only with 'number-of-rows';
# sequence fields end it by themselves, but do not make it bounded to the
# planner, so batch mode refuses such a table, as Flink 2.3.0 does).

SET 'parallelism.default' = '1';
[INFO] Execute statement succeeded.
!info

CREATE TEMPORARY TABLE seq (id BIGINT) WITH ('connector' = 'datagen',
  'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '3');
[INFO] Execute statement succeeded.
!info

CREATE TEMPORARY TABLE seq_rows (id BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '2',
  'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '3');
[INFO] Execute statement succeeded.
!info

CREATE TEMPORARY TABLE seq_more_rows (id BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '10',
  'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '3');
[INFO] Execute statement succeeded.
!info

# In streaming mode the sequence ends the rows.
SELECT id FROM seq;
+----+----------------------+
| op |                   id |
+----+----------------------+
| +I |                    1 |
| +I |                    2 |
| +I |                    3 |
+----+----------------------+
Received a total of 3 rows
!ok

SET 'execution.runtime-mode' = 'batch';
[INFO] Execute statement succeeded.
!info

SELECT id FROM seq;
[ERROR] Could not execute SQL statement. Reason:
Querying an unbounded table 'default_catalog.default_database.seq' in batch mode is not allowed. The table source is unbounded.
!error

SELECT COUNT(*) AS n FROM seq;
[ERROR] Could not execute SQL statement. Reason:
Querying an unbounded table 'default_catalog.default_database.seq' in batch mode is not allowed. The table source is unbounded.
!error

# A LIMIT does not make it bounded either.
SELECT id FROM seq LIMIT 2;
[ERROR] Could not execute SQL statement. Reason:
Querying an unbounded table 'default_catalog.default_database.seq' in batch mode is not allowed. The table source is unbounded.
!error

# number-of-rows bounds it: the rows end with whichever ends first.
SELECT id FROM seq_rows;
+----+
| id |
+----+
|  1 |
|  2 |
+----+
2 rows in set
!ok

SELECT id FROM seq_more_rows;
+----+
| id |
+----+
|  1 |
|  2 |
|  3 |
+----+
3 rows in set
!ok
