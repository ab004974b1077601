# catalog_alter.q - SHOW CREATE CATALOG and ALTER CATALOG SET / RESET /
# COMMENT as Flink 2.3.0 answers them (checked against its SQL Gateway and
# SQL Client): ALTER changes what DESCRIBE CATALOG and SHOW CREATE CATALOG
# report; a generic_in_memory catalog knows only default-database and
# property-version, and ALTER CATALOG SET of another key fails after the
# new options were stored (Flink stores, then re-creates the catalog).

CREATE CATALOG cc1 COMMENT 'hello ''x''' WITH ('type' = 'generic_in_memory', 'default-database' = 'db');
[INFO] Execute statement succeeded.
!info
SHOW CREATE CATALOG cc1;
CREATE CATALOG `cc1`
COMMENT 'hello ''x'''
WITH (
  'default-database' = 'db',
  'type' = 'generic_in_memory'
)

!ok
ALTER CATALOG cc1 SET ('default-database' = 'db_new');
[INFO] Execute statement succeeded.
!info
DESCRIBE CATALOG EXTENDED cc1;
+-------------------------+-------------------+
|               info name |        info value |
+-------------------------+-------------------+
|                    name |               cc1 |
|                    type | generic_in_memory |
|                 comment |         hello 'x' |
| option:default-database |            db_new |
+-------------------------+-------------------+
4 rows in set
!ok
ALTER CATALOG cc1 SET ('k1' = 'v1');
[ERROR] Could not execute SQL statement. Reason:
Unsupported options found for 'generic_in_memory'.
!error
DESCRIBE CATALOG EXTENDED cc1;
+-------------------------+-------------------+
|               info name |        info value |
+-------------------------+-------------------+
|                    name |               cc1 |
|                    type | generic_in_memory |
|                 comment |         hello 'x' |
| option:default-database |            db_new |
|               option:k1 |                v1 |
+-------------------------+-------------------+
5 rows in set
!ok
ALTER CATALOG cc1 RESET ('k1', 'nokey');
[INFO] Execute statement succeeded.
!info
ALTER CATALOG cc1 RESET ('default-database');
[INFO] Execute statement succeeded.
!info
ALTER CATALOG cc1 COMMENT 'comment for catalog ''cc1''';
[INFO] Execute statement succeeded.
!info
DESC CATALOG EXTENDED cc1;
+-----------+---------------------------+
| info name |                info value |
+-----------+---------------------------+
|      name |                       cc1 |
|      type |         generic_in_memory |
|   comment | comment for catalog 'cc1' |
+-----------+---------------------------+
3 rows in set
!ok
ALTER CATALOG cc1 COMMENT '';
[INFO] Execute statement succeeded.
!info
SHOW CREATE CATALOG cc1;
CREATE CATALOG `cc1`
COMMENT ''
WITH (
  'type' = 'generic_in_memory'
)

!ok
ALTER CATALOG cc1 RESET ();
[ERROR] Could not execute SQL statement. Reason:
ALTER CATALOG RESET does not support empty key
!error
ALTER CATALOG cc1 RESET ('type');
[ERROR] Could not execute SQL statement. Reason:
ALTER CATALOG RESET does not support changing 'type'
!error
ALTER CATALOG nocat COMMENT 'x';
[ERROR] Could not execute SQL statement. Reason:
Catalog nocat does not exist in the catalog store.
!error
ALTER CATALOG default_catalog COMMENT 'x';
[ERROR] Could not execute SQL statement. Reason:
Catalog default_catalog does not exist in the catalog store.
!error
SHOW CREATE CATALOG default_catalog;
[ERROR] Could not execute SQL statement. Reason:
Cannot obtain metadata information from Catalog default_catalog.
!error
CREATE CATALOG bad1 WITH ('type' = 'generic_in_memory', 'foo' = 'bar');
[ERROR] Could not execute SQL statement. Reason:
Unsupported options found for 'generic_in_memory'.
Unsupported options:
foo
Supported options:
default-database
property-version
!error
SHOW CATALOGS;
+-----------------+
|    catalog name |
+-----------------+
|             cc1 |
| default_catalog |
+-----------------+
2 rows in set
!ok
