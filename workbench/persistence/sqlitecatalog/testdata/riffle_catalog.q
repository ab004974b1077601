# riffle_catalog.q - the persistent catalog type 'riffle' (riffle-only: Flink
# has no such type): objects made in it are still there after the catalog
# is dropped (its file closed) and created again on the same file, and
# SHOW / DESCRIBE answer as for any other catalog. ${TESTDATA} is a
# private copy of this folder (golden_test.go), so the file is new each run.

CREATE CATALOG keep COMMENT 'kept in SQLite' WITH ('type' = 'riffle', 'path' = '${TESTDATA}/keep.db');
[INFO] Execute statement succeeded.
!info
CREATE CATALOG bad WITH ('type' = 'riffle', 'path' = '${TESTDATA}/bad.db', 'colour' = 'red');
[ERROR] Could not execute SQL statement. Reason:
Unsupported options found for 'riffle'.

Unsupported options:

colour

Supported options:

default-database
lock-timeout
path
property-version
!error
CREATE DATABASE keep.sales COMMENT 'sales data' WITH ('team' = 'ops');
[INFO] Execute statement succeeded.
!info
CREATE TABLE keep.sales.orders (id BIGINT, amount DECIMAL(10, 2), ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND, PRIMARY KEY (id) NOT ENFORCED) COMMENT 'orders' WITH ('connector' = 'datagen');
[INFO] Execute statement succeeded.
!info
CREATE VIEW keep.sales.small AS SELECT x FROM (VALUES (1), (20)) AS t(x) WHERE x < 10;
[INFO] Execute statement succeeded.
!info
DROP CATALOG keep;
[INFO] Execute statement succeeded.
!info
CREATE CATALOG keep WITH ('type' = 'riffle', 'path' = '${TESTDATA}/keep.db');
[INFO] Execute statement succeeded.
!info
DESCRIBE CATALOG keep;
+-----------+------------+
| info name | info value |
+-----------+------------+
|      name |       keep |
|      type |     riffle |
|   comment |            |
+-----------+------------+
3 rows in set
!ok
SHOW DATABASES IN keep;
+---------------+
| database name |
+---------------+
|       default |
|         sales |
+---------------+
2 rows in set
!ok
DESCRIBE DATABASE EXTENDED keep.sales;
+---------------+------------+
|     info name | info value |
+---------------+------------+
| database name |      sales |
|       comment | sales data |
|          team |        ops |
+---------------+------------+
3 rows in set
!ok
SHOW TABLES IN keep.sales;
+------------+
| table name |
+------------+
|     orders |
|      small |
+------------+
2 rows in set
!ok
SHOW VIEWS IN keep.sales;
+-----------+
| view name |
+-----------+
|     small |
+-----------+
1 row in set
!ok
SHOW CREATE TABLE keep.sales.orders;
CREATE TABLE `keep`.`sales`.`orders` (
  `id` BIGINT NOT NULL,
  `amount` DECIMAL(10, 2),
  `ts` TIMESTAMP(3),
  WATERMARK FOR `ts` AS `ts` - INTERVAL '1' SECOND,
  CONSTRAINT `PK_id` PRIMARY KEY (`id`) NOT ENFORCED
)
COMMENT 'orders'
WITH (
  'connector' = 'datagen'
)
!ok
DESCRIBE keep.sales.orders;
+--------+------------------------+-------+---------+--------+----------------------------+
|   name |                   type |  null |     key | extras |                  watermark |
+--------+------------------------+-------+---------+--------+----------------------------+
|     id |                 BIGINT | FALSE | PRI(id) |        |                            |
| amount |         DECIMAL(10, 2) |  TRUE |         |        |                            |
|     ts | TIMESTAMP(3) *ROWTIME* |  TRUE |         |        | `ts` - INTERVAL '1' SECOND |
+--------+------------------------+-------+---------+--------+----------------------------+
3 rows in set
!ok
SELECT * FROM keep.sales.small;
+----+-------------+
| op |           x |
+----+-------------+
| +I |           1 |
+----+-------------+
Received a total of 1 row
!ok
CREATE TABLE keep.sales.orders (id BIGINT) WITH ('connector' = 'datagen');
[ERROR] Could not execute SQL statement. Reason:
Table (or view) sales.orders already exists in Catalog keep.
!error
