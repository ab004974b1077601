# catalog_table.q - catalogs, databases, tables and their metadata in the
# SQL Client, in Flink's .q test format (statement; !output; what the SQL
# Client prints; !ok / !info / !error). Outputs checked against Flink 2.3.0's
# SQL Client (the statements piped into scripts/flink.sh sql-client gateway
# --endpoint ..., which goes on after errors): identical but for the Java
# exception class Flink names before an error's message.

SET 'sql-client.execution.result-mode' = 'tableau';
!output
[INFO] Execute statement succeeded.
!info

SHOW CURRENT CATALOG;
!output
+----------------------+
| current catalog name |
+----------------------+
|      default_catalog |
+----------------------+
1 row in set
!ok

CREATE CATALOG cat1 WITH ('type' = 'generic_in_memory');
!output
[INFO] Execute statement succeeded.
!info

SHOW CATALOGS;
!output
+-----------------+
|    catalog name |
+-----------------+
|            cat1 |
| default_catalog |
+-----------------+
2 rows in set
!ok

USE CATALOG cat1;
!output
[INFO] Execute statement succeeded.
!info

SHOW DATABASES;
!output
+---------------+
| database name |
+---------------+
|       default |
+---------------+
1 row in set
!ok

CREATE DATABASE db2 COMMENT 'second';
!output
[INFO] Execute statement succeeded.
!info

USE db2;
!output
[INFO] Execute statement succeeded.
!info

SHOW CURRENT DATABASE;
!output
+-----------------------+
| current database name |
+-----------------------+
|                   db2 |
+-----------------------+
1 row in set
!ok

CREATE TABLE orders (
  `user` BIGINT NOT NULL COMMENT 'buyer',
  product VARCHAR(32),
  amount INT,
  ts TIMESTAMP(3),
  ptime AS PROCTIME(),
  PRIMARY KEY (`user`) NOT ENFORCED,
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'datagen');
!output
[INFO] Execute statement succeeded.
!info

SHOW TABLES;
!output
+------------+
| table name |
+------------+
|     orders |
+------------+
1 row in set
!ok

DESCRIBE orders;
!output
+---------+-----------------------------+-------+-----------+---------------+----------------------------+---------+
|    name |                        type |  null |       key |        extras |                  watermark | comment |
+---------+-----------------------------+-------+-----------+---------------+----------------------------+---------+
|    user |                      BIGINT | FALSE | PRI(user) |               |                            |   buyer |
| product |                 VARCHAR(32) |  TRUE |           |               |                            |         |
|  amount |                         INT |  TRUE |           |               |                            |         |
|      ts |      TIMESTAMP(3) *ROWTIME* |  TRUE |           |               | `ts` - INTERVAL '1' SECOND |         |
|   ptime | TIMESTAMP_LTZ(3) *PROCTIME* | FALSE |           | AS PROCTIME() |                            |         |
+---------+-----------------------------+-------+-----------+---------------+----------------------------+---------+
5 rows in set
!ok

SHOW COLUMNS FROM orders NOT LIKE '%r';
!output
+---------+-----------------------------+-------+-----+---------------+----------------------------+---------+
|    name |                        type |  null | key |        extras |                  watermark | comment |
+---------+-----------------------------+-------+-----+---------------+----------------------------+---------+
| product |                 VARCHAR(32) |  TRUE |     |               |                            |         |
|  amount |                         INT |  TRUE |     |               |                            |         |
|      ts |      TIMESTAMP(3) *ROWTIME* |  TRUE |     |               | `ts` - INTERVAL '1' SECOND |         |
|   ptime | TIMESTAMP_LTZ(3) *PROCTIME* | FALSE |     | AS PROCTIME() |                            |         |
+---------+-----------------------------+-------+-----+---------------+----------------------------+---------+
4 rows in set
!ok

ALTER TABLE orders ADD (total AS amount * 2, note STRING COMMENT 'free text');
!output
[INFO] Execute statement succeeded.
!info

SHOW CREATE TABLE orders;
!output
+-------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------+
|                                                                                                                                                                                                                                                                                                                                                                                                result |
+-------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------+
| CREATE TABLE `cat1`.`db2`.`orders` (
  `user` BIGINT NOT NULL COMMENT 'buyer',
  `product` VARCHAR(32),
  `amount` INT,
  `ts` TIMESTAMP(3),
  `ptime` AS PROCTIME(),
  `total` AS `amount` * 2,
  `note` VARCHAR(2147483647) COMMENT 'free text',
  WATERMARK FOR `ts` AS `ts` - INTERVAL '1' SECOND,
  CONSTRAINT `PK_user` PRIMARY KEY (`user`) NOT ENFORCED
)
WITH (
  'connector' = 'datagen'
)
 |
+-------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------+
1 row in set
!ok

ALTER TABLE orders RESET ();
!output
[ERROR] Could not execute SQL statement. Reason:
ALTER TABLE RESET does not support empty key
!error

SHOW DATABASES IN cat1.db2;
!output
[ERROR] Could not execute SQL statement. Reason:
Show databases from/in identifier [ cat1.db2 ] format error, catalog must be a single part identifier.
!error

DROP TABLE orders;
!output
[INFO] Execute statement succeeded.
!info

DROP TABLE orders;
!output
[ERROR] Could not execute SQL statement. Reason:
Table with identifier 'cat1.db2.orders' does not exist.
!error

USE CATALOG default_catalog;
!output
[INFO] Execute statement succeeded.
!info

DROP CATALOG cat1;
!output
[INFO] Execute statement succeeded.
!info

SHOW CATALOGS;
!output
+-----------------+
|    catalog name |
+-----------------+
| default_catalog |
+-----------------+
1 row in set
!ok
