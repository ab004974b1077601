# sql_client_metadata.q - what Flink 2.3.0's SQL Client prints for metadata
# statements and how sql-client.display.max-column-width cuts a streaming
# query's cells. Checked against Flink 2.3.0 (its SQL Gateway through this
# harness, and its SQL Client in tableau mode):
# - DESCRIBE and SHOW COLUMNS return real NULLs for an absent key, extras
#   and watermark (JSON null over the gateway's REST API); the SQL Client
#   prints NULL cells of a result that is not a query empty, a query's as
#   <NULL>.
# - a comment column is added when some column has a comment.
# - CREATE CATALOG of type generic_in_memory has default database 'default'.
# - max-column-width sets the width of variable-width columns (strings,
#   DOUBLE, INTERVAL, arrays) only; a TIMESTAMP, BOOLEAN or number column is
#   as wide as its type needs (at least as wide as <NULL>) and never cut.

CREATE TABLE orders (
  `user` BIGINT NOT NULL COMMENT 'who ordered',
  product VARCHAR(32),
  amount INT COMMENT 'how many',
  ts TIMESTAMP(3),
  ptime AS PROCTIME(),
  PRIMARY KEY (`user`) NOT ENFORCED,
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'datagen');
[INFO] Execute statement succeeded.
!info
DESCRIBE orders;
+---------+-----------------------------+-------+-----------+---------------+----------------------------+-------------+
|    name |                        type |  null |       key |        extras |                  watermark |     comment |
+---------+-----------------------------+-------+-----------+---------------+----------------------------+-------------+
|    user |                      BIGINT | FALSE | PRI(user) |               |                            | who ordered |
| product |                 VARCHAR(32) |  TRUE |           |               |                            |             |
|  amount |                         INT |  TRUE |           |               |                            |    how many |
|      ts |      TIMESTAMP(3) *ROWTIME* |  TRUE |           |               | `ts` - INTERVAL '1' SECOND |             |
|   ptime | TIMESTAMP_LTZ(3) *PROCTIME* | FALSE |           | AS PROCTIME() |                            |             |
+---------+-----------------------------+-------+-----------+---------------+----------------------------+-------------+
5 rows in set
!ok
SHOW COLUMNS FROM orders LIKE '%u%';
+---------+-------------+-------+-----------+--------+-----------+-------------+
|    name |        type |  null |       key | extras | watermark |     comment |
+---------+-------------+-------+-----------+--------+-----------+-------------+
|    user |      BIGINT | FALSE | PRI(user) |        |           | who ordered |
| product | VARCHAR(32) |  TRUE |           |        |           |             |
|  amount |         INT |  TRUE |           |        |           |    how many |
+---------+-------------+-------+-----------+--------+-----------+-------------+
3 rows in set
!ok
SHOW COLUMNS FROM orders LIKE 'p%';
+---------+-----------------------------+-------+-----+---------------+-----------+---------+
|    name |                        type |  null | key |        extras | watermark | comment |
+---------+-----------------------------+-------+-----+---------------+-----------+---------+
| product |                 VARCHAR(32) |  TRUE |     |               |           |         |
|   ptime | TIMESTAMP_LTZ(3) *PROCTIME* | FALSE |     | AS PROCTIME() |           |         |
+---------+-----------------------------+-------+-----+---------------+-----------+---------+
2 rows in set
!ok
CREATE TABLE plain (a INT, b STRING) WITH ('connector' = 'datagen');
[INFO] Execute statement succeeded.
!info
DESC plain;
+------+--------+------+-----+--------+-----------+
| name |   type | null | key | extras | watermark |
+------+--------+------+-----+--------+-----------+
|    a |    INT | TRUE |     |        |           |
|    b | STRING | TRUE |     |        |           |
+------+--------+------+-----+--------+-----------+
2 rows in set
!ok
CREATE VIEW v1 AS SELECT 1 AS a, CAST(NULL AS STRING) AS b;
[INFO] Execute statement succeeded.
!info
DESCRIBE v1;
+------+--------+-------+-----+--------+-----------+
| name |   type |  null | key | extras | watermark |
+------+--------+-------+-----+--------+-----------+
|    a |    INT | FALSE |     |        |           |
|    b | STRING |  TRUE |     |        |           |
+------+--------+-------+-----+--------+-----------+
2 rows in set
!ok

# a catalog of type generic_in_memory starts with database 'default'
CREATE CATALOG mc WITH ('type' = 'generic_in_memory');
[INFO] Execute statement succeeded.
!info
SHOW DATABASES IN mc;
+---------------+
| database name |
+---------------+
|       default |
+---------------+
1 row in set
!ok
USE CATALOG mc;
[INFO] Execute statement succeeded.
!info
SHOW CURRENT DATABASE;
+-----------------------+
| current database name |
+-----------------------+
|               default |
+-----------------------+
1 row in set
!ok
CREATE TABLE t_in_mc (x INT) WITH ('connector' = 'datagen');
[INFO] Execute statement succeeded.
!info
SHOW TABLES FROM mc.`default`;
+------------+
| table name |
+------------+
|    t_in_mc |
+------------+
1 row in set
!ok
CREATE CATALOG mc2 WITH ('type' = 'generic_in_memory', 'default-database' = 'db1');
[INFO] Execute statement succeeded.
!info
SHOW DATABASES IN mc2;
+---------------+
| database name |
+---------------+
|           db1 |
+---------------+
1 row in set
!ok
USE CATALOG default_catalog;
[INFO] Execute statement succeeded.
!info

# a query prints NULL as <NULL>, and each column is at least that wide
SELECT CAST(NULL AS BOOLEAN) AS bo, CAST(1 AS TINYINT) AS ti, CAST(NULL AS STRING) AS s;
+----+--------+--------+--------------------------------+
| op |     bo |     ti |                              s |
+----+--------+--------+--------------------------------+
| +I | <NULL> |      1 |                         <NULL> |
+----+--------+--------+--------------------------------+
Received a total of 1 row
!ok

# max-column-width cuts strings only, never a TIMESTAMP or BOOLEAN
CREATE TEMPORARY VIEW users (name, dob, isHappy, ts1, ts5, ts9) AS VALUES
  ('7b1c3a62-3f0e-4c55-9d61-a4b1f0e2c001', TIMESTAMP '2001-01-13 20:11:11.123', true,
   CAST(TIMESTAMP '2001-01-13 20:11:11.1' AS TIMESTAMP(1)), CAST(TIMESTAMP '2001-01-13 20:11:11.12345' AS TIMESTAMP(5)),
   CAST(TIMESTAMP '2001-01-13 20:11:11.123456789' AS TIMESTAMP(9))),
  ('0d4e9f18-8a27-4b3c-b5d2-77c9e1a40b02', TIMESTAMP '1994-02-14 21:12:11.123', false,
   CAST(TIMESTAMP '1994-02-14 21:12:11.1' AS TIMESTAMP(1)), CAST(TIMESTAMP '1994-02-14 21:12:11.12345' AS TIMESTAMP(5)),
   CAST(TIMESTAMP '1994-02-14 21:12:11.123456789' AS TIMESTAMP(9)));
[INFO] Execute statement succeeded.
!info
SET 'sql-client.display.max-column-width' = '10';
[INFO] Execute statement succeeded.
!info
SELECT * FROM users;
+----+------------+-------------------------+---------+-------------------------+----------------------------+-------------------------------+
| op |       name |                     dob | isHappy |                     ts1 |                        ts5 |                           ts9 |
+----+------------+-------------------------+---------+-------------------------+----------------------------+-------------------------------+
| +I | 7b1c3a6... | 2001-01-13 20:11:11.123 |    TRUE |   2001-01-13 20:11:11.1 |  2001-01-13 20:11:11.12345 | 2001-01-13 20:11:11.123456789 |
| +I | 0d4e9f1... | 1994-02-14 21:12:11.123 |   FALSE |   1994-02-14 21:12:11.1 |  1994-02-14 21:12:11.12345 | 1994-02-14 21:12:11.123456789 |
+----+------------+-------------------------+---------+-------------------------+----------------------------+-------------------------------+
Received a total of 2 rows
!ok
SET 'sql-client.display.max-column-width' = '40';
[INFO] Execute statement succeeded.
!info
SELECT name, isHappy FROM users;
+----+------------------------------------------+---------+
| op |                                     name | isHappy |
+----+------------------------------------------+---------+
| +I |     7b1c3a62-3f0e-4c55-9d61-a4b1f0e2c001 |    TRUE |
| +I |     0d4e9f18-8a27-4b3c-b5d2-77c9e1a40b02 |   FALSE |
+----+------------------------------------------+---------+
Received a total of 2 rows
!ok
# a result that is not a query is never cut
SET 'sql-client.display.max-column-width' = '5';
[INFO] Execute statement succeeded.
!info
SHOW COLUMNS FROM orders LIKE 'ts';
+------+------------------------+------+-----+--------+----------------------------+---------+
| name |                   type | null | key | extras |                  watermark | comment |
+------+------------------------+------+-----+--------+----------------------------+---------+
|   ts | TIMESTAMP(3) *ROWTIME* | TRUE |     |        | `ts` - INTERVAL '1' SECOND |         |
+------+------------------------+------+-----+--------+----------------------------+---------+
1 row in set
!ok
# a batch query's columns are sized to their content, then every one, a
# TIMESTAMP's too, is cut at the maximum width (Flink's columnWidthsByContent)
SET 'execution.runtime-mode' = 'batch';
[INFO] Execute statement succeeded.
!info
SET 'sql-client.display.max-column-width' = '12';
[INFO] Execute statement succeeded.
!info
SELECT name, dob, isHappy FROM users ORDER BY name DESC;
+--------------+--------------+---------+
|         name |          dob | isHappy |
+--------------+--------------+---------+
| 7b1c3a62-... | 2001-01-1... |    TRUE |
| 0d4e9f18-... | 1994-02-1... |   FALSE |
+--------------+--------------+---------+
2 rows in set
!ok

# a computed column keeps its expression as Flink's validator expands it:
# built-in functions in upper case; ALTER TABLE ADD stores the expression
# unvalidated, so a function that is not a keyword stays as written, quoted
SET 'execution.runtime-mode' = 'streaming';
[INFO] Execute statement succeeded.
!info
CREATE TABLE fx (a INT, b STRING, d AS upper(b), e AS coalesce(b, 'x'), g AS concat_ws('-', b, lower(b)), l AS cast(a as string), n AS to_timestamp(b)) WITH ('connector' = 'datagen');
[INFO] Execute statement succeeded.
!info
ALTER TABLE fx ADD (c STRING, d2 AS upper(b), e2 AS coalesce(b, 'x') COMMENT 'ce', g2 AS concat_ws('-', b, lower(b)), n2 AS `TO_TIMESTAMP`(b), f2 AS cast(a AS bigint) + 1);
[INFO] Execute statement succeeded.
!info
SHOW CREATE TABLE fx;
CREATE TABLE `default_catalog`.`default_database`.`fx` (
  `a` INT,
  `b` VARCHAR(2147483647),
  `d` AS UPPER(`b`),
  `e` AS COALESCE(`b`, 'x'),
  `g` AS CONCAT_WS('-', `b`, LOWER(`b`)),
  `l` AS CAST(`a` AS STRING),
  `n` AS TO_TIMESTAMP(`b`),
  `c` VARCHAR(2147483647),
  `d2` AS UPPER(`b`),
  `e2` AS COALESCE(`b`, 'x') COMMENT 'ce',
  `g2` AS `concat_ws`('-', `b`, LOWER(`b`)),
  `n2` AS `TO_TIMESTAMP`(`b`),
  `f2` AS CAST(`a` AS BIGINT) + 1
)
WITH (
  'connector' = 'datagen'
)
!ok

# an unknown function's signature names its arguments' type families
SELECT nosuchfn(1, 'a', TRUE, 1.5, DATE '2020-01-01', TIMESTAMP '2020-01-01 00:00:00', X'01', INTERVAL '1' DAY, ARRAY[1]);
[ERROR] Could not execute SQL statement. Reason:
No match found for function signature nosuchfn(<NUMERIC>, <CHARACTER>, <BOOLEAN>, <NUMERIC>, <DATE>, <TIMESTAMP>, <BINARY>, <INTERVAL_DAY_TIME>, <INTEGER ARRAY>)
!error
SELECT nosuchfn(CAST(NULL AS ARRAY<STRING>), INTERVAL '1' YEAR, MAP['a', 1]);
[ERROR] Could not execute SQL statement. Reason:
No match found for function signature nosuchfn(<VARCHAR(2147483647) ARRAY>, <INTERVAL_YEAR_MONTH>, <(CHAR(1), INTEGER) MAP>)
!error
