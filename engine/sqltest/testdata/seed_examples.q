# seed_examples.q - the SQL-expressible documented examples of
# /work/shared/seed-inventory.md §6A (labels E-nn) that no area script
# covers already. The others live with their area: E-02, E-07..E-11 in
# comparison_logical.q / conditional.q / cast.q; E-12..E-17 in
# arithmetic.q; E-18, E-48, E-50, E-51 in types.q; E-19..E-29 in string.q;
# E-30, E-31, E-42, E-43 in collection_json.q; E-32..E-37, E-39, E-41 in
# temporal.q; E-44..E-46 in aggregates.q; E-73 in setops.q.
# Not SQL-expressible here: E-05 (a STRING compared with INT literals is a
# validation error in Flink SQL, see comparison_logical.q), E-35 and E-40
# (window and watermark functions: streaming), E-47 and E-54..E-56's
# Table API forms, E-59..E-98 (API objects).

SET 'execution.runtime-mode' = 'batch';
[INFO] Execute statement succeeded.
!info
SET 'sql-client.display.max-column-width' = '60';
[INFO] Execute statement succeeded.
!info

# E-01 / E-03: BETWEEN is inclusive at both ends
SELECT 2.1 BETWEEN 2.1 AND 2.1, 2.1 NOT BETWEEN 2.1 AND 2.1;
+--------+--------+
| EXPR$0 | EXPR$1 |
+--------+--------+
|   TRUE |  FALSE |
+--------+--------+
1 row in set
!ok
# E-02 / E-04 with dates
SELECT DATE '2018-05-05' BETWEEN DATE '2018-05-01' AND DATE '2018-05-10', DATE '2018-05-05' NOT BETWEEN DATE '2018-05-01' AND DATE '2018-05-10';
+--------+--------+
| EXPR$0 | EXPR$1 |
+--------+--------+
|   TRUE |  FALSE |
+--------+--------+
1 row in set
!ok
# E-06: IN with NULLs: a NULL element gives NULL; a set with NULL gives NULL when not found and TRUE when found
SELECT CAST(NULL AS INT) IN (1, 2), 3 IN (1, CAST(NULL AS INT)), 1 IN (1, CAST(NULL AS INT));
+--------+--------+--------+
| EXPR$0 | EXPR$1 | EXPR$2 |
+--------+--------+--------+
| <NULL> | <NULL> |   TRUE |
+--------+--------+--------+
1 row in set
!ok
SELECT 3 NOT IN (1, CAST(NULL AS INT)), 1 NOT IN (1, CAST(NULL AS INT)), 3 NOT IN (1, 2);
+--------+--------+--------+
| EXPR$0 | EXPR$1 | EXPR$2 |
+--------+--------+--------+
| <NULL> |  FALSE |   TRUE |
+--------+--------+--------+
1 row in set
!ok
# E-38 with Java pattern letters (DATE_FORMAT takes SimpleDateFormat patterns, sql_functions.yml)
SELECT DATE_FORMAT(TIMESTAMP '2017-05-05 10:00:00', 'yyyy, dd MMMM');
+--------------+
|       EXPR$0 |
+--------------+
| 2017, 05 May |
+--------------+
1 row in set
!ok

# E-52: the built-in catalog and database names
SHOW CURRENT CATALOG;
+----------------------+
| current catalog name |
+----------------------+
|      default_catalog |
+----------------------+
1 row in set
!ok
SHOW CURRENT DATABASE;
+-----------------------+
| current database name |
+-----------------------+
|      default_database |
+-----------------------+
1 row in set
!ok

# E-PATH: name resolution against the current catalog and database
CREATE CATALOG cat1 WITH ('type' = 'generic_in_memory');
[INFO] Execute statement succeeded.
!info
CREATE DATABASE db1;
[INFO] Execute statement succeeded.
!info
CREATE DATABASE cat1.db1;
[INFO] Execute statement succeeded.
!info
CREATE VIEW tab1 AS SELECT 'default_catalog.default_database.tab1' AS resolved;
[INFO] Execute statement succeeded.
!info
CREATE VIEW db1.tab1 AS SELECT 'default_catalog.db1.tab1' AS resolved;
[INFO] Execute statement succeeded.
!info
CREATE VIEW cat1.db1.tab1 AS SELECT 'cat1.db1.tab1' AS resolved;
[INFO] Execute statement succeeded.
!info
SELECT * FROM tab1;
+---------------------------------------+
|                              resolved |
+---------------------------------------+
| default_catalog.default_database.tab1 |
+---------------------------------------+
1 row in set
!ok
SELECT * FROM db1.tab1;
+--------------------------+
|                 resolved |
+--------------------------+
| default_catalog.db1.tab1 |
+--------------------------+
1 row in set
!ok
SELECT * FROM cat1.db1.tab1;
+---------------+
|      resolved |
+---------------+
| cat1.db1.tab1 |
+---------------+
1 row in set
!ok
SELECT * FROM default_catalog.default_database.tab1;
+---------------------------------------+
|                              resolved |
+---------------------------------------+
| default_catalog.default_database.tab1 |
+---------------------------------------+
1 row in set
!ok

# E-56: backquotes escape dots in names
CREATE CATALOG `cat.1` WITH ('type' = 'generic_in_memory');
[INFO] Execute statement succeeded.
!info
CREATE DATABASE `cat.1`.`db`;
[INFO] Execute statement succeeded.
!info
CREATE VIEW `cat.1`.`db`.`Table` AS SELECT 'cat.1 / db / Table' AS resolved;
[INFO] Execute statement succeeded.
!info
SELECT * FROM `cat.1`.`db`.`Table`;
+--------------------+
|           resolved |
+--------------------+
| cat.1 / db / Table |
+--------------------+
1 row in set
!ok
CREATE DATABASE `db.Name`;
[INFO] Execute statement succeeded.
!info
CREATE VIEW `db.Name`.`Table` AS SELECT 'default_catalog / db.Name / Table' AS resolved;
[INFO] Execute statement succeeded.
!info
SELECT * FROM default_catalog.`db.Name`.`Table`;
+-----------------------------------+
|                          resolved |
+-----------------------------------+
| default_catalog / db.Name / Table |
+-----------------------------------+
1 row in set
!ok

# E-57 / E-58: DDL answers SUCCESS without rows (the SQL client prints [INFO])
CREATE TEMPORARY VIEW names (name) AS VALUES ('a'), ('b'), ('c'), ('d'), ('e'), ('f'), ('g'), ('h'), ('i'), ('j'), ('k'), ('l'), ('m'), ('n'), ('o'), ('p');
[INFO] Execute statement succeeded.
!info

# E-67: an unnamed primary key is named PK_ plus its columns joined by _
CREATE TABLE pk_table (col1 INT, col2 INT, v STRING, PRIMARY KEY (col1, col2) NOT ENFORCED) WITH ('connector' = 'datagen');
[INFO] Execute statement succeeded.
!info
SHOW CREATE TABLE pk_table;
CREATE TABLE `default_catalog`.`default_database`.`pk_table` (
  `col1` INT NOT NULL,
  `col2` INT NOT NULL,
  `v` VARCHAR(2147483647),
  CONSTRAINT `PK_col1_col2` PRIMARY KEY (`col1`, `col2`) NOT ENFORCED
)
WITH (
  'connector' = 'datagen'
)
!ok

# E-72: limit(3) is the first three records
SELECT COUNT(*) FROM (SELECT name FROM names LIMIT 3);
+--------+
| EXPR$0 |
+--------+
|      3 |
+--------+
1 row in set
!ok
# E-72: limit(5, 10) skips 10 and returns the next 5
SELECT name FROM (SELECT name FROM names ORDER BY name LIMIT 5 OFFSET 10);
+------+
| name |
+------+
|    k |
|    l |
|    m |
|    n |
|    o |
+------+
5 rows in set
!ok
# E-72: order_by(name.desc).fetch(3)
SELECT name FROM names ORDER BY name DESC FETCH FIRST 3 ROWS ONLY;
+------+
| name |
+------+
|    p |
|    o |
|    n |
+------+
3 rows in set
!ok
# E-72: order_by(name.desc).offset(10).fetch(5) returns rows 11..15
SELECT name FROM names ORDER BY name DESC OFFSET 10 ROWS FETCH NEXT 5 ROWS ONLY;
+------+
| name |
+------+
|    f |
|    e |
|    d |
|    c |
|    b |
+------+
5 rows in set
!ok
# E-72: order_by(name.desc).offset(3) returns all rows after the first 3
# riffle-only: Flink limitation: OFFSET without FETCH fails (Not support limitEnd is max value now!)
SELECT name FROM names ORDER BY name DESC OFFSET 3 ROWS;
+------+
| name |
+------+
|    m |
|    l |
|    k |
|    j |
|    i |
|    h |
|    g |
|    f |
|    e |
|    d |
|    c |
|    b |
|    a |
+------+
13 rows in set
!ok
