# describe_catalog.q - DESCRIBE CATALOG as Flink 2.3.0 answers it: name,
# type and comment (NULL when CREATE CATALOG gave none), EXTENDED adds the
# options but 'type' as option:<key>; a catalog not made by CREATE CATALOG
# (default_catalog) has no descriptor to describe. Checked with Flink
# 2.3.0's SQL Gateway (the comment of dc2 arrives as JSON null) and SQL
# Client, which prints the NULL cells of non-query results empty, as this
# harness does.

CREATE CATALOG dc1 COMMENT 'hi' WITH ('type' = 'generic_in_memory');
[INFO] Execute statement succeeded.
!info
DESCRIBE CATALOG dc1;
+-----------+-------------------+
| info name |        info value |
+-----------+-------------------+
|      name |               dc1 |
|      type | generic_in_memory |
|   comment |                hi |
+-----------+-------------------+
3 rows in set
!ok
CREATE CATALOG dc2 WITH ('type' = 'generic_in_memory');
[INFO] Execute statement succeeded.
!info
DESCRIBE CATALOG EXTENDED dc2;
+-----------+-------------------+
| info name |        info value |
+-----------+-------------------+
|      name |               dc2 |
|      type | generic_in_memory |
|   comment |                   |
+-----------+-------------------+
3 rows in set
!ok
CREATE CATALOG dc3 COMMENT 'x' WITH ('type' = 'generic_in_memory', 'default-database' = 'db1');
[INFO] Execute statement succeeded.
!info
DESCRIBE CATALOG EXTENDED dc3;
+-------------------------+-------------------+
|               info name |        info value |
+-------------------------+-------------------+
|                    name |               dc3 |
|                    type | generic_in_memory |
|                 comment |                 x |
| option:default-database |               db1 |
+-------------------------+-------------------+
4 rows in set
!ok
DESC CATALOG dc3;
+-----------+-------------------+
| info name |        info value |
+-----------+-------------------+
|      name |               dc3 |
|      type | generic_in_memory |
|   comment |                 x |
+-----------+-------------------+
3 rows in set
!ok
DESCRIBE CATALOG default_catalog;
[ERROR] Could not execute SQL statement. Reason:
Cannot obtain metadata information from Catalog default_catalog.
!error
DROP CATALOG dc3;
[INFO] Execute statement succeeded.
!info
DESCRIBE CATALOG dc3;
[ERROR] Could not execute SQL statement. Reason:
Cannot obtain metadata information from Catalog dc3.
!error
