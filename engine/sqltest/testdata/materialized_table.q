# Materialized tables (Flink 2.3's CREATE / ALTER / DROP MATERIALIZED TABLE;
# docs/materialized-tables.md). With table.dml-sync a CONTINUOUS table's
# refresh job over a bounded source has ended when CREATE returns, on both
# engines, so the table can be read at once.
SET 'table.dml-sync' = 'true';
[INFO] Execute statement succeeded.
!info

CREATE TABLE src (k INT, v STRING) WITH ('connector' = 'filesystem', 'path' = '${TESTDATA}/mt_src.csv', 'format' = 'csv');
[INFO] Execute statement succeeded.
!info

CREATE MATERIALIZED TABLE m1
  COMMENT 'upper-cased'
  WITH ('connector' = 'filesystem', 'path' = '${SCRATCH}/m1', 'format' = 'csv')
  FRESHNESS = INTERVAL '1' SECOND
  AS SELECT k, v, UPPER(v) AS u FROM src;
[INFO] Execute statement succeeded.
!info

SHOW TABLES;
+------------+
| table name |
+------------+
|         m1 |
|        src |
+------------+
2 rows in set
!ok

SHOW MATERIALIZED TABLES;
+--------------------+
| materialized table |
+--------------------+
|                 m1 |
+--------------------+
1 row in set
!ok

DESCRIBE m1;
+------+--------+------+-----+--------+-----------+
| name |   type | null | key | extras | watermark |
+------+--------+------+-----+--------+-----------+
|    k |    INT | TRUE |     |        |           |
|    v | STRING | TRUE |     |        |           |
|    u | STRING | TRUE |     |        |           |
+------+--------+------+-----+--------+-----------+
3 rows in set
!ok

SELECT * FROM m1;
+----+-------------+--------------------------------+--------------------------------+
| op |           k |                              v |                              u |
+----+-------------+--------------------------------+--------------------------------+
| +I |           1 |                              a |                              A |
| +I |           2 |                              b |                              B |
| +I |           3 |                              a |                              A |
+----+-------------+--------------------------------+--------------------------------+
Received a total of 3 rows
!unordered

# RESUME of an ACTIVATED table whose job has ended starts the job again (as
# in Flink): the filesystem table gets the rows a second time
ALTER MATERIALIZED TABLE m1 RESUME;
[INFO] Execute statement succeeded.
!info

SELECT * FROM m1;
+----+-------------+--------------------------------+--------------------------------+
| op |           k |                              v |                              u |
+----+-------------+--------------------------------+--------------------------------+
| +I |           1 |                              a |                              A |
| +I |           2 |                              b |                              B |
| +I |           3 |                              a |                              A |
| +I |           1 |                              a |                              A |
| +I |           2 |                              b |                              B |
| +I |           3 |                              a |                              A |
+----+-------------+--------------------------------+--------------------------------+
Received a total of 6 rows
!unordered

# without a savepoint directory a CONTINUOUS table cannot be suspended
ALTER MATERIALIZED TABLE m1 SUSPEND;
[ERROR] Could not execute SQL statement. Reason:
Failed to suspend the continuous refresh job for materialized table `default_catalog`.`default_database`.`m1`.
Savepoint directory is not configured, can't stop job with savepoint.
!error

# a materialized table is not a table for DROP TABLE and SHOW CREATE TABLE
DROP TABLE m1;
[ERROR] Could not execute SQL statement. Reason:
Table with identifier 'default_catalog.default_database.m1' does not exist.
!error

SHOW CREATE TABLE m1;
[ERROR] Could not execute SQL statement. Reason:
SHOW CREATE TABLE is only supported for tables, but `default_catalog`.`default_database`.`m1` is a materialized table. Please use SHOW CREATE MATERIALIZED TABLE instead.
!error

DROP MATERIALIZED TABLE m1;
[INFO] Execute statement succeeded.
!info

DROP MATERIALIZED TABLE m1;
[ERROR] Could not execute SQL statement. Reason:
Materialized table with identifier `default_catalog`.`default_database`.`m1` does not exist.
!error

DROP MATERIALIZED TABLE IF EXISTS m1;
[INFO] Execute statement succeeded.
!info

# primary key, partitions, the expanded query in SHOW CREATE
CREATE MATERIALIZED TABLE m2 (PRIMARY KEY (k) NOT ENFORCED)
  PARTITIONED BY (v)
  WITH ('connector' = 'blackhole')
  FRESHNESS = INTERVAL '10' MINUTE
  REFRESH_MODE = CONTINUOUS
  AS SELECT COALESCE(k, 0) AS k, v, k * 10 AS k10 FROM src;
[INFO] Execute statement succeeded.
!info

DESCRIBE m2;
+------+--------+-------+--------+--------+-----------+
| name |   type |  null |    key | extras | watermark |
+------+--------+-------+--------+--------+-----------+
|    k |    INT | FALSE | PRI(k) |        |           |
|    v | STRING |  TRUE |        |        |           |
|  k10 |    INT |  TRUE |        |        |           |
+------+--------+-------+--------+--------+-----------+
3 rows in set
!ok

SHOW CREATE MATERIALIZED TABLE m2;
CREATE MATERIALIZED TABLE `default_catalog`.`default_database`.`m2` (
  `k` INT NOT NULL,
  `v` VARCHAR(2147483647),
  `k10` INT,
  CONSTRAINT `PK_k` PRIMARY KEY (`k`) NOT ENFORCED
)
PARTITIONED BY (`v`)
WITH (
  'connector' = 'blackhole'
)
START_MODE = FROM_BEGINNING
FRESHNESS = INTERVAL '10' MINUTE
REFRESH_MODE = CONTINUOUS
AS SELECT COALESCE(`src`.`k`, 0) AS `k`, `src`.`v`, `src`.`k` * 10 AS `k10`
FROM `default_catalog`.`default_database`.`src` AS `src`
!ok

SHOW MATERIALIZED TABLES LIKE 'm%';
+--------------------+
| materialized table |
+--------------------+
|                 m2 |
+--------------------+
1 row in set
!ok

ALTER MATERIALIZED TABLE m2 REFRESH PARTITION (zz = 'a');
[ERROR] Could not execute SQL statement. Reason:
The partition spec contains unknown partition keys:

zz

All known partition keys are:

v
!error

ALTER MATERIALIZED TABLE m2 REFRESH PARTITION (k = '1');
[ERROR] Could not execute SQL statement. Reason:
Currently, refreshing materialized table only supports referring to char, varchar and string type partition keys. All specified partition keys in partition specs with unsupported types are:

k
!error

DROP MATERIALIZED TABLE m2;
[INFO] Execute statement succeeded.
!info

# START_MODE (what SHOW CREATE prints), plural units, WEEK, the default
# freshness of a CONTINUOUS table (3 minutes)
CREATE MATERIALIZED TABLE s1 WITH ('connector' = 'blackhole') START_MODE = FROM_BEGINNING FRESHNESS = INTERVAL '5' SECONDS AS SELECT k FROM src;
[INFO] Execute statement succeeded.
!info

SHOW CREATE MATERIALIZED TABLE s1;
CREATE MATERIALIZED TABLE `default_catalog`.`default_database`.`s1` (
  `k` INT
)
WITH (
  'connector' = 'blackhole'
)
START_MODE = FROM_BEGINNING
FRESHNESS = INTERVAL '5' SECOND
REFRESH_MODE = CONTINUOUS
AS SELECT `src`.`k`
FROM `default_catalog`.`default_database`.`src` AS `src`
!ok

CREATE MATERIALIZED TABLE s2 WITH ('connector' = 'blackhole') AS SELECT k FROM src;
[INFO] Execute statement succeeded.
!info

SHOW CREATE MATERIALIZED TABLE s2;
CREATE MATERIALIZED TABLE `default_catalog`.`default_database`.`s2` (
  `k` INT
)
WITH (
  'connector' = 'blackhole'
)
START_MODE = FROM_BEGINNING
FRESHNESS = INTERVAL '3' MINUTE
REFRESH_MODE = CONTINUOUS
AS SELECT `src`.`k`
FROM `default_catalog`.`default_database`.`src` AS `src`
!ok

CREATE MATERIALIZED TABLE s3 WITH ('connector' = 'blackhole') FRESHNESS = INTERVAL '1' WEEK REFRESH_MODE = CONTINUOUS AS SELECT k FROM src;
[INFO] Execute statement succeeded.
!info

SHOW CREATE MATERIALIZED TABLE s3;
CREATE MATERIALIZED TABLE `default_catalog`.`default_database`.`s3` (
  `k` INT
)
WITH (
  'connector' = 'blackhole'
)
START_MODE = FROM_BEGINNING
FRESHNESS = INTERVAL '1' WEEK
REFRESH_MODE = CONTINUOUS
AS SELECT `src`.`k`
FROM `default_catalog`.`default_database`.`src` AS `src`
!ok

DROP MATERIALIZED TABLE s1;
[INFO] Execute statement succeeded.
!info

DROP MATERIALIZED TABLE s2;
[INFO] Execute statement succeeded.
!info

DROP MATERIALIZED TABLE s3;
[INFO] Execute statement succeeded.
!info

# errors
CREATE TEMPORARY MATERIALIZED TABLE e1 FRESHNESS = INTERVAL '1' SECOND AS SELECT k FROM src;
[ERROR] Could not execute SQL statement. Reason:
CREATE TEMPORARY MATERIALIZED TABLE is not supported.
!error

CREATE MATERIALIZED TABLE e1 WITH ('connector' = 'blackhole') FRESHNESS = INTERVAL '0' SECOND AS SELECT k FROM src;
[ERROR] Could not execute SQL statement. Reason:
The freshness interval currently only supports positive integer type values. But was: 0
!error

CREATE MATERIALIZED TABLE e1 WITH ('connector' = 'blackhole') FRESHNESS = INTERVAL '1' YEAR AS SELECT k FROM src;
[ERROR] Could not execute SQL statement. Reason:
Materialized table freshness only supports SECOND, MINUTE, HOUR, DAY, WEEK as the time unit.
!error

CREATE MATERIALIZED TABLE e1 WITH ('connector' = 'blackhole') FRESHNESS = INTERVAL '1' DAY TO HOUR AS SELECT k FROM src;
[ERROR] Could not execute SQL statement. Reason:
Materialized table freshness only supports SECOND, MINUTE, HOUR, DAY, WEEK as the time unit.
!error

CREATE MATERIALIZED TABLE e1 WITH ('connector' = 'blackhole') FRESHNESS = INTERVAL '-1' SECOND AS SELECT k FROM src;
[ERROR] Could not execute SQL statement. Reason:
The freshness interval currently only supports positive integer type values. But was: -1
!error

CREATE MATERIALIZED TABLE e1 FRESHNESS = '1' AS SELECT k FROM src;
[ERROR] Could not execute SQL statement. Reason:
MATERIALIZED TABLE only supports define interval type FRESHNESS, please refer to the materialized table document.
!error

CREATE MATERIALIZED TABLE e1 (PRIMARY KEY (k) NOT ENFORCED) WITH ('connector' = 'blackhole') FRESHNESS = INTERVAL '1' SECOND AS SELECT k, v FROM src;
[ERROR] Could not execute SQL statement. Reason:
Invalid primary key 'PK_k'. Column 'k' is nullable.
!error

CREATE MATERIALIZED TABLE e1 (PRIMARY KEY (z) NOT ENFORCED) WITH ('connector' = 'blackhole') FRESHNESS = INTERVAL '1' SECOND AS SELECT k, v FROM src;
[ERROR] Could not execute SQL statement. Reason:
Primary key column 'z' is not defined in the schema at line 1, column 44
!error

CREATE MATERIALIZED TABLE e1 PARTITIONED BY (z) WITH ('connector' = 'blackhole') FRESHNESS = INTERVAL '1' SECOND AS SELECT k, v FROM src;
[ERROR] Could not execute SQL statement. Reason:
Partition column 'z' not defined in the query's schema. Available columns: ['k', 'v'].
!error

CREATE MATERIALIZED TABLE e1 WITH ('connector' = 'blackhole', 'partition.fields.v.date-formatter' = 'yyyy-MM-dd') FRESHNESS = INTERVAL '1' SECOND AS SELECT k, v FROM src;
[ERROR] Could not execute SQL statement. Reason:
Column 'v' referenced by materialized table option 'partition.fields.v.date-formatter' isn't a partition column. Available partition columns: [''].
!error

# no connector: the refresh job cannot write, and the table is dropped again
CREATE MATERIALIZED TABLE e1 FRESHNESS = INTERVAL '1' SECOND AS SELECT k, v FROM src;
[ERROR] Could not execute SQL statement. Reason:
Submit continuous refresh job for materialized table `default_catalog`.`default_database`.`e1` occur exception.
!error

SHOW MATERIALIZED TABLES;
Empty set
!ok

CREATE MATERIALIZED TABLE src FRESHNESS = INTERVAL '1' SECOND AS SELECT k, v FROM src;
[ERROR] Could not execute SQL statement. Reason:
Table (or view) default_database.src already exists in Catalog default_catalog.
!error

ALTER MATERIALIZED TABLE src SUSPEND;
[ERROR] Could not execute SQL statement. Reason:
Table `default_catalog`.`default_database`.`src` is not a materialized table, does not support materialized table related operation.
!error

ALTER MATERIALIZED TABLE nope SUSPEND;
[ERROR] Could not execute SQL statement. Reason:
Cannot find table '`default_catalog`.`default_database`.`nope`' in any of the catalogs [default_catalog], nor as a temporary table.
!error

DROP MATERIALIZED TABLE src;
[ERROR] Could not execute SQL statement. Reason:
Table `default_catalog`.`default_database`.`src` is not a materialized table, does not support materialized table related operation.
!error

SHOW CREATE MATERIALIZED TABLE nope;
[ERROR] Could not execute SQL statement. Reason:
Could not execute SHOW CREATE MATERIALIZED TABLE default_catalog.default_database.nope. Materialized table with identifier `default_catalog`.`default_database`.`nope` does not exist.
!error

# FULL mode: Riffle refreshes in-process every freshness interval; the
# first refresh comes one interval after CREATE, so this script refreshes
# by hand
# riffle-only: Flink 2.3 needs a workflow scheduler plugin for FULL mode (The workflow scheduler must be configured when creating materialized table in full refresh mode.)
CREATE MATERIALIZED TABLE f1
  PARTITIONED BY (v)
  WITH ('connector' = 'filesystem', 'path' = '${SCRATCH}/f1', 'format' = 'csv')
  FRESHNESS = INTERVAL '1' HOUR
  AS SELECT v, COUNT(*) AS n FROM src GROUP BY v;
[INFO] Execute statement succeeded.
!info

# riffle-only: depends on the FULL table f1; Flink prints the refresh job's id
ALTER MATERIALIZED TABLE f1 REFRESH;
[INFO] Complete execution of the SQL update statement.
!info

# riffle-only: depends on the FULL table f1 (see above)
SELECT * FROM f1;
+----+--------------------------------+----------------------+
| op |                              v |                    n |
+----+--------------------------------+----------------------+
| +I |                              a |                    2 |
| +I |                              b |                    1 |
+----+--------------------------------+----------------------+
Received a total of 2 rows
!unordered

# riffle-only: depends on the FULL table f1; Flink prints the refresh job's id
ALTER MATERIALIZED TABLE f1 REFRESH PARTITION (v = 'a');
[INFO] Complete execution of the SQL update statement.
!info

# riffle-only: depends on the FULL table f1 (see above)
SELECT * FROM f1;
+----+--------------------------------+----------------------+
| op |                              v |                    n |
+----+--------------------------------+----------------------+
| +I |                              a |                    2 |
| +I |                              b |                    1 |
+----+--------------------------------+----------------------+
Received a total of 2 rows
!unordered

# riffle-only: depends on the FULL table f1 (see above)
ALTER MATERIALIZED TABLE f1 SUSPEND;
[INFO] Execute statement succeeded.
!info

# riffle-only: depends on the FULL table f1 (see above)
ALTER MATERIALIZED TABLE f1 SUSPEND;
[ERROR] Could not execute SQL statement. Reason:
Materialized table `default_catalog`.`default_database`.`f1` refresh workflow has been suspended.
!error

# riffle-only: depends on the FULL table f1 (see above)
ALTER MATERIALIZED TABLE f1 RESUME;
[INFO] Execute statement succeeded.
!info

# riffle-only: depends on the FULL table f1 (see above)
ALTER MATERIALIZED TABLE f1 RESUME;
[ERROR] Could not execute SQL statement. Reason:
Materialized table `default_catalog`.`default_database`.`f1` refresh workflow has been resumed.
!error

# riffle-only: depends on the FULL table f1 (see above)
ALTER MATERIALIZED TABLE f1 AS SELECT v FROM src;
[ERROR] Could not execute SQL statement. Reason:
Failed to modify query because drop column is unsupported. When modifying a query, you can only append new columns at the end of original schema. The original schema has 2 columns, but the newly derived schema from the query has 1 columns.
!error

# riffle-only: depends on the FULL table f1 (see above)
ALTER MATERIALIZED TABLE f1 AS SELECT v, COUNT(*) AS n, MAX(k) AS top FROM src GROUP BY v;
[INFO] Execute statement succeeded.
!info

# riffle-only: depends on the FULL table f1; Flink prints the refresh job's id
ALTER MATERIALIZED TABLE f1 REFRESH;
[INFO] Complete execution of the SQL update statement.
!info

# riffle-only: depends on the FULL table f1 (see above)
SELECT * FROM f1;
+----+--------------------------------+----------------------+-------------+
| op |                              v |                    n |         top |
+----+--------------------------------+----------------------+-------------+
| +I |                              a |                    2 |           3 |
| +I |                              b |                    1 |           2 |
+----+--------------------------------+----------------------+-------------+
Received a total of 2 rows
!unordered

# riffle-only: depends on the FULL table f1 (see above)
DROP MATERIALIZED TABLE f1;
[INFO] Execute statement succeeded.
!info

# a freshness of 30 minutes or more without REFRESH_MODE derives FULL
# riffle-only: Flink 2.3 needs a workflow scheduler plugin for FULL mode
CREATE MATERIALIZED TABLE f2 WITH ('connector' = 'blackhole') FRESHNESS = INTERVAL '1' DAY AS SELECT k FROM src;
[INFO] Execute statement succeeded.
!info

# riffle-only: depends on the FULL table f2 (see above)
SHOW CREATE MATERIALIZED TABLE f2;
CREATE MATERIALIZED TABLE `default_catalog`.`default_database`.`f2` (
  `k` INT
)
WITH (
  'connector' = 'blackhole'
)
START_MODE = FROM_BEGINNING
FRESHNESS = INTERVAL '1' DAY
REFRESH_MODE = FULL
AS SELECT `src`.`k`
FROM `default_catalog`.`default_database`.`src` AS `src`
!ok

# riffle-only: depends on the FULL table f2 (see above)
DROP MATERIALIZED TABLE f2;
[INFO] Execute statement succeeded.
!info
