# view_set.q - views, SET/RESET, statement sets and a query in the SQL
# Client, in Flink's .q test format. Outputs checked against Flink 2.3.0's
# SQL Client (statements piped into scripts/flink.sh sql-client gateway
# --endpoint ..., which goes on after errors), with one difference: Flink's
# client against a gateway ignores a SET of sql-client.display.max-column-width
# (it prints 30 wide); its embedded mode applies it as here (Flink's own
# select.q).

SET 'table.dml-sync' = 'true';
!output
[INFO] Execute statement succeeded.
!info

CREATE TABLE src (id INT, name STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '5');
!output
[INFO] Execute statement succeeded.
!info

CREATE VIEW v1 AS SELECT id FROM src;
!output
[INFO] Execute statement succeeded.
!info

SHOW VIEWS;
!output
+-----------+
| view name |
+-----------+
|        v1 |
+-----------+
1 row in set
!ok

DESCRIBE v1;
!output
+------+------+------+-----+--------+-----------+
| name | type | null | key | extras | watermark |
+------+------+------+-----+--------+-----------+
|   id |  INT | TRUE |     |        |           |
+------+------+------+-----+--------+-----------+
1 row in set
!ok

SELECT * FROM v1 /*+ OPTIONS('number-of-rows' = '1') */;
!output
[ERROR] Could not execute SQL statement. Reason:
View '`default_catalog`.`default_database`.`v1`' cannot be enriched with new options. Hints can only be applied to tables.
!error

CREATE TEMPORARY VIEW v1 AS SELECT id + 1 AS id FROM src;
!output
[INFO] Execute statement succeeded.
!info

DROP VIEW v1;
!output
[ERROR] Could not execute SQL statement. Reason:
Temporary view with identifier '`default_catalog`.`default_database`.`v1`' exists. Drop it first before removing the permanent view.
!error

DROP TEMPORARY VIEW v1;
!output
[INFO] Execute statement succeeded.
!info

SET 'table.sql-dialect' = 'unknown';
!output
[ERROR] Could not execute SQL statement. Reason:
No enum constant org.apache.flink.table.api.SqlDialect.UNKNOWN
!error

SET 'sql-client.display.max-column-width' = '10';
!output
[INFO] Execute statement succeeded.
!info

SELECT 'a rather long string' AS s, TIMESTAMP '2024-01-02 03:04:05.123' AS ts, TRUE AS b;
!output
+----+------------+-------------------------+--------+
| op |          s |                      ts |      b |
+----+------------+-------------------------+--------+
| +I | a rathe... | 2024-01-02 03:04:05.123 |   TRUE |
+----+------------+-------------------------+--------+
Received a total of 1 row
!ok

RESET 'sql-client.display.max-column-width';
!output
[INFO] Execute statement succeeded.
!info

CREATE TABLE snk (id INT) WITH ('connector' = 'blackhole');
!output
[INFO] Execute statement succeeded.
!info

BEGIN STATEMENT SET;
!output
[INFO] Execute statement succeeded.
!info

SELECT 1;
!output
[ERROR] Could not execute SQL statement. Reason:
Only 'INSERT/CREATE TABLE AS' statement is allowed in Statement Set or use 'END' statement to submit Statement Set.
!error

INSERT INTO snk SELECT id FROM src;
!output
[INFO] Execute statement succeeded.
!info

END;
!output
[INFO] Complete execution of the SQL update statement.
!info

END;
!output
[ERROR] Could not execute SQL statement. Reason:
No Statement Set to submit. 'END' statement should be used after 'BEGIN STATEMENT SET'.
!error

BEGIN STATEMENT SET;
!output
[INFO] Execute statement succeeded.
!info

END;
!output
[INFO] Execute statement succeeded.
!info

EXPLAIN STATEMENT SET BEGIN
END;
!output
[ERROR] Could not execute SQL statement. Reason:
Encountered "END" at line 2, column 1.
Was expecting one of:
    "INSERT" ...
    "UPSERT" ...
!error

SELECT nosuchfn(1, 'x');
!output
[ERROR] Could not execute SQL statement. Reason:
From line 1, column 8 to line 1, column 15: No match found for function signature nosuchfn(<NUMERIC>, <CHARACTER>)
!error
