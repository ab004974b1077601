# alter_table.q - ALTER TABLE against computed columns, the watermark and
# the primary key, as Flink's AlterSchemaConverter checks them: a column a
# computed column, the watermark or the partition keys refer to can be
# neither renamed nor dropped, a primary key column can be renamed (the
# key follows) but not dropped, and a failed ALTER TABLE leaves the table
# as it was.

SET 'execution.runtime-mode' = 'batch';
[INFO] Execute statement succeeded.
!info

CREATE TABLE t1 (id INT, price DECIMAL(10, 2), cost AS price * 2)
WITH ('connector' = 'datagen', 'number-of-rows' = '2');
[INFO] Execute statement succeeded.
!info

ALTER TABLE t1 RENAME price TO amount;
[ERROR] Could not execute SQL statement. Reason:
Failed to execute ALTER TABLE statement.
The column `price` is referenced by computed column `cost`.
!error

ALTER TABLE t1 DROP price;
[ERROR] Could not execute SQL statement. Reason:
Failed to execute ALTER TABLE statement.
The column `price` is referenced by computed column `cost`.
!error

ALTER TABLE t1 DROP (price, price);
[ERROR] Could not execute SQL statement. Reason:
Failed to execute ALTER TABLE statement.
Duplicate column `price`.
!error

ALTER TABLE t1 RENAME nope TO x;
[ERROR] Could not execute SQL statement. Reason:
Failed to execute ALTER TABLE statement.
The column `nope` does not exist in the base table.
!error

ALTER TABLE t1 RENAME id TO cost;
[ERROR] Could not execute SQL statement. Reason:
Failed to execute ALTER TABLE statement.
The column `cost` already existed in table schema.
!error

# A type the computed column cannot use is refused too.
# riffle-only: error wording differs (Flink: Invalid SQL expression: `price` * 2)
ALTER TABLE t1 MODIFY price STRING;
[ERROR] Could not execute SQL statement. Reason:
Failed to execute ALTER TABLE statement.
Cannot apply '*' to arguments of type '<VARCHAR(2147483647)> * <INTEGER>'. Supported form(s): '<NUMERIC> * <NUMERIC>'
'<DATETIME_INTERVAL> * <DATETIME_INTERVAL>'
'<DATETIME> * <DATETIME_INTERVAL>'
!error

# The table is unchanged and usable.
SELECT COUNT(*) AS n, COUNT(cost) AS c FROM t1;
+---+---+
| n | c |
+---+---+
| 2 | 2 |
+---+---+
1 row in set
!ok

DESCRIBE t1;
+-------+----------------+------+-----+----------------+-----------+
|  name |           type | null | key |         extras | watermark |
+-------+----------------+------+-----+----------------+-----------+
|    id |            INT | TRUE |     |                |           |
| price | DECIMAL(10, 2) | TRUE |     |                |           |
|  cost | DECIMAL(21, 2) | TRUE |     | AS `price` * 2 |           |
+-------+----------------+------+-----+----------------+-----------+
3 rows in set
!ok

# A computed column and the columns it refers to can go together.
ALTER TABLE t1 DROP (price, cost);
[INFO] Execute statement succeeded.
!info

ALTER TABLE t1 RENAME id TO id2;
[INFO] Execute statement succeeded.
!info

SELECT COUNT(id2) AS n FROM t1;
+---+
| n |
+---+
| 2 |
+---+
1 row in set
!ok

CREATE TABLE e (
  id INT NOT NULL,
  ts TIMESTAMP(3),
  x AS id + 1,
  PRIMARY KEY (id) NOT ENFORCED,
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'datagen', 'number-of-rows' = '1');
[INFO] Execute statement succeeded.
!info

ALTER TABLE e RENAME ts TO ts2;
[ERROR] Could not execute SQL statement. Reason:
Failed to execute ALTER TABLE statement.
The column `ts` is referenced by watermark expression.
!error

ALTER TABLE e DROP ts;
[ERROR] Could not execute SQL statement. Reason:
Failed to execute ALTER TABLE statement.
The column `ts` is referenced by watermark expression.
!error

ALTER TABLE e DROP (id, x);
[ERROR] Could not execute SQL statement. Reason:
Failed to execute ALTER TABLE statement.
The column `id` is used as the primary key.
!error

ALTER TABLE e RENAME id TO id2;
[ERROR] Could not execute SQL statement. Reason:
Failed to execute ALTER TABLE statement.
The column `id` is referenced by computed column `x`.
!error

# in batch mode (this script's) Flink resolves no rowtime attribute: the
# watermarked column shows no *ROWTIME*
DESCRIBE e;
+------+--------------+-------+---------+-------------+----------------------------+
| name |         type |  null |     key |      extras |                  watermark |
+------+--------------+-------+---------+-------------+----------------------------+
|   id |          INT | FALSE | PRI(id) |             |                            |
|   ts | TIMESTAMP(3) |  TRUE |         |             | `ts` - INTERVAL '1' SECOND |
|    x |          INT | FALSE |         | AS `id` + 1 |                            |
+------+--------------+-------+---------+-------------+----------------------------+
3 rows in set
!ok

ALTER TABLE e RENAME x TO y;
[INFO] Execute statement succeeded.
!info

ALTER TABLE e DROP WATERMARK;
[INFO] Execute statement succeeded.
!info

# Without the watermark, ts may be renamed.
ALTER TABLE e RENAME ts TO ts2;
[INFO] Execute statement succeeded.
!info

DESCRIBE e;
+------+--------------+-------+---------+-------------+-----------+
| name |         type |  null |     key |      extras | watermark |
+------+--------------+-------+---------+-------------+-----------+
|   id |          INT | FALSE | PRI(id) |             |           |
|  ts2 | TIMESTAMP(3) |  TRUE |         |             |           |
|    y |          INT | FALSE |         | AS `id` + 1 |           |
+------+--------------+-------+---------+-------------+-----------+
3 rows in set
!ok

CREATE TABLE p (id INT NOT NULL, v INT, PRIMARY KEY (id) NOT ENFORCED)
WITH ('connector' = 'datagen', 'number-of-rows' = '1');
[INFO] Execute statement succeeded.
!info

# The primary key follows a renamed column.
ALTER TABLE p RENAME id TO pid;
[INFO] Execute statement succeeded.
!info

DESCRIBE p;
+------+------+-------+----------+--------+-----------+
| name | type |  null |      key | extras | watermark |
+------+------+-------+----------+--------+-----------+
|  pid |  INT | FALSE | PRI(pid) |        |           |
|    v |  INT |  TRUE |          |        |           |
+------+------+-------+----------+--------+-----------+
2 rows in set
!ok

ALTER TABLE p DROP pid;
[ERROR] Could not execute SQL statement. Reason:
Failed to execute ALTER TABLE statement.
The column `pid` is used as the primary key.
!error
