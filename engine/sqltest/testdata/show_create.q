# show_create.q - SHOW CREATE TABLE and SHOW CREATE VIEW in the text Flink
# 2.3.0's SQL Gateway answers (checked on Flink 2.3.0): types in their
# serializable form (STRING as VARCHAR(2147483647), BYTES as
# VARBINARY(2147483647), TIMESTAMP_LTZ(3) as TIMESTAMP(3) WITH LOCAL TIME
# ZONE, nested too), ')' alone on its line and COMMENT, PARTITIONED BY and
# WITH each on a line of their own; a view's columns one a line, then AS
# and the query.

CREATE TABLE sc1 (id INT NOT NULL, name STRING, price DECIMAL(10, 2), ts TIMESTAMP(3), v VARCHAR(10), c CHAR(3), b BYTES, arr ARRAY<STRING>, m MAP<STRING, INT>, r ROW<x INT, y STRING>, ltz TIMESTAMP_LTZ(3), WATERMARK FOR ts AS ts - INTERVAL '5' SECOND, PRIMARY KEY (id) NOT ENFORCED) COMMENT 'tbl comment' WITH ('connector' = 'datagen', 'number-of-rows' = '10');
[INFO] Execute statement succeeded.
!info
SHOW CREATE TABLE sc1;
CREATE TABLE `default_catalog`.`default_database`.`sc1` (
  `id` INT NOT NULL,
  `name` VARCHAR(2147483647),
  `price` DECIMAL(10, 2),
  `ts` TIMESTAMP(3),
  `v` VARCHAR(10),
  `c` CHAR(3),
  `b` VARBINARY(2147483647),
  `arr` ARRAY<VARCHAR(2147483647)>,
  `m` MAP<VARCHAR(2147483647), INT>,
  `r` ROW<`x` INT, `y` VARCHAR(2147483647)>,
  `ltz` TIMESTAMP(3) WITH LOCAL TIME ZONE,
  WATERMARK FOR `ts` AS `ts` - INTERVAL '5' SECOND,
  CONSTRAINT `PK_id` PRIMARY KEY (`id`) NOT ENFORCED
)
COMMENT 'tbl comment'
WITH (
  'connector' = 'datagen',
  'number-of-rows' = '10'
)
!ok
CREATE TABLE sc2 (a INT COMMENT 'col a', b STRING, pt AS PROCTIME(), c AS a + 1) PARTITIONED BY (b) WITH ('connector' = 'filesystem', 'path' = '/tmp/x', 'format' = 'csv');
[INFO] Execute statement succeeded.
!info
SHOW CREATE TABLE sc2;
CREATE TABLE `default_catalog`.`default_database`.`sc2` (
  `a` INT COMMENT 'col a',
  `b` VARCHAR(2147483647),
  `pt` AS PROCTIME(),
  `c` AS `a` + 1
)
PARTITIONED BY (`b`)
WITH (
  'connector' = 'filesystem',
  'format' = 'csv',
  'path' = '/tmp/x'
)
!ok
CREATE TABLE sc3 (a INT, `ts` TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL) WITH ('connector' = 'datagen');
[INFO] Execute statement succeeded.
!info
SHOW CREATE TABLE sc3;
CREATE TABLE `default_catalog`.`default_database`.`sc3` (
  `a` INT,
  `ts` TIMESTAMP(3) WITH LOCAL TIME ZONE METADATA FROM 'timestamp' VIRTUAL
)
WITH (
  'connector' = 'datagen'
)
!ok
CREATE TEMPORARY VIEW sctv AS SELECT 1 AS a, 'x' AS b;
[INFO] Execute statement succeeded.
!info
SHOW CREATE VIEW sctv;
CREATE TEMPORARY VIEW `default_catalog`.`default_database`.`sctv` (
  `a`,
  `b`
)
AS SELECT 1 AS `a`, 'x' AS `b`
!ok
CREATE VIEW scv2 (x, y) COMMENT 'view c' AS SELECT id, UPPER(name) FROM sc1;
[INFO] Execute statement succeeded.
!info
SHOW CREATE VIEW scv2;
CREATE VIEW `default_catalog`.`default_database`.`scv2` (
  `x`,
  `y`
)
COMMENT 'view c'
AS SELECT `sc1`.`id`, UPPER(`sc1`.`name`)
FROM `default_catalog`.`default_database`.`sc1` AS `sc1`
!ok
