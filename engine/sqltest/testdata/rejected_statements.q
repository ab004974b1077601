# rejected_statements.q - statements Flink 2.3.0 refuses, with its
# messages (checked against Flink 2.3.0's SQL Gateway and SQL Client).

CREATE TABLE t1 (a INT) WITH ('connector' = 'datagen', 'number-of-rows' = '3');
[INFO] Execute statement succeeded.
!info
CREATE VIEW v1 AS SELECT * FROM t1;
[INFO] Execute statement succeeded.
!info
# an OPTIONS hint applies to tables only
SELECT * FROM v1 /*+ OPTIONS('number-of-rows' = '1') */;
[ERROR] Could not execute SQL statement. Reason:
View '`default_catalog`.`default_database`.`v1`' cannot be enriched with new options. Hints can only be applied to tables.
!error
# a temporary view shadowing a permanent one must be dropped first
CREATE TEMPORARY VIEW v1 AS SELECT a + 1 AS a FROM t1;
[INFO] Execute statement succeeded.
!info
DROP VIEW v1;
[ERROR] Could not execute SQL statement. Reason:
Temporary view with identifier '`default_catalog`.`default_database`.`v1`' exists. Drop it first before removing the permanent view.
!error
DROP TEMPORARY VIEW v1;
[INFO] Execute statement succeeded.
!info
DROP VIEW v1;
[INFO] Execute statement succeeded.
!info
# RESET needs at least one key
ALTER TABLE t1 RESET ();
[ERROR] Could not execute SQL statement. Reason:
ALTER TABLE RESET does not support empty key
!error
# SHOW DATABASES names a catalog by one name
CREATE CATALOG c0 WITH ('type' = 'generic_in_memory');
[INFO] Execute statement succeeded.
!info
SHOW DATABASES IN c0.t;
[ERROR] Could not execute SQL statement. Reason:
Show databases from/in identifier [ c0.t ] format error, catalog must be a single part identifier.
!error
SHOW DATABASES FROM c0;
+---------------+
| database name |
+---------------+
|       default |
+---------------+
1 row in set
!ok
# a statement set holds at least one INSERT
EXPLAIN STATEMENT SET BEGIN
END;
[ERROR] Could not execute SQL statement. Reason:
Encountered "END" at line 2, column 1.
Was expecting one of:
    "INSERT" ...
    "UPSERT" ...
!error
EXECUTE STATEMENT SET BEGIN
END;
[ERROR] Could not execute SQL statement. Reason:
Encountered "END" at line 2, column 1.
Was expecting one of:
    "INSERT" ...
    "UPSERT" ...
!error
CREATE TABLE s1 (a INT) WITH ('connector' = 'blackhole');
[INFO] Execute statement succeeded.
!info
EXECUTE STATEMENT SET BEGIN
INSERT INTO s1 SELECT 1;
SELECT 1;
END;
[ERROR] Could not execute SQL statement. Reason:
Encountered "SELECT" at line 3, column 1.
Was expecting one of:
    "END" ...
    "INSERT" ...
    "UPSERT" ...
!error
# the SQL dialect is DEFAULT or HIVE
SET 'table.sql-dialect' = 'unknown';
[ERROR] Could not execute SQL statement. Reason:
No enum constant org.apache.flink.table.api.SqlDialect.UNKNOWN
!error
# what Flink's messages name when an object does not exist: some quote the
# identifier, some do not
DROP TABLE nt1;
[ERROR] Could not execute SQL statement. Reason:
Table with identifier 'default_catalog.default_database.nt1' does not exist.
!error
DROP VIEW nv1;
[ERROR] Could not execute SQL statement. Reason:
View with identifier 'default_catalog.default_database.nv1' does not exist.
!error
DROP TEMPORARY TABLE nt2;
[ERROR] Could not execute SQL statement. Reason:
Temporary table or view with identifier 'default_catalog.default_database.nt2' does not exist.
!error
DROP TEMPORARY VIEW nv2;
[ERROR] Could not execute SQL statement. Reason:
Temporary table or view with identifier 'default_catalog.default_database.nv2' does not exist.
!error
ALTER TABLE nt1 RENAME TO nt3;
[ERROR] Could not execute SQL statement. Reason:
Table `default_catalog`.`default_database`.`nt1` doesn't exist or is a temporary table.
!error
ALTER VIEW nv1 RENAME TO nv3;
[ERROR] Could not execute SQL statement. Reason:
View `default_catalog`.`default_database`.`nv1` doesn't exist or is a temporary view.
!error
DROP FUNCTION nofn;
[ERROR] Could not execute SQL statement. Reason:
Function default_database.nofn does not exist in Catalog default_catalog.
!error
DESCRIBE nt1;
[ERROR] Could not execute SQL statement. Reason:
Tables or views with the identifier 'default_catalog.default_database.nt1' doesn't exist.
!error
SHOW CREATE TABLE nt1;
[ERROR] Could not execute SQL statement. Reason:
Could not execute SHOW CREATE TABLE. Table with identifier `default_catalog`.`default_database`.`nt1` does not exist.
!error
SHOW CREATE VIEW nv1;
[ERROR] Could not execute SQL statement. Reason:
Could not execute SHOW CREATE VIEW. View with identifier `default_catalog`.`default_database`.`nv1` does not exist.
!error
