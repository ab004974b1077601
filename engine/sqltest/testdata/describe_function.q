# describe_function.q - DESCRIBE FUNCTION [EXTENDED] as Flink 2.3.0 answers
# it (checked against its SQL Gateway and SQL Client). Flink's EXTENDED
# form also prints the function's signature in its type inference's
# notation, which Riffle does not describe: those cases are Riffle-only.

DESCRIBE FUNCTION concat_ws;
+--------------------+------------+
|          info name | info value |
+--------------------+------------+
| is system function |       true |
|       is temporary |      false |
+--------------------+------------+
2 rows in set
!ok
DESCRIBE FUNCTION `sum`;
+--------------------+------------+
|          info name | info value |
+--------------------+------------+
| is system function |       true |
|       is temporary |      false |
+--------------------+------------+
2 rows in set
!ok
DESCRIBE FUNCTION nofn;
[ERROR] Could not execute SQL statement. Reason:
Function with the identifier '`nofn`' doesn't exist.
!error
DESCRIBE FUNCTION default_catalog.default_database.nofn;
[ERROR] Could not execute SQL statement. Reason:
Function with the identifier '`default_catalog`.`default_database`.`nofn`' doesn't exist.
!error
DESCRIBE FUNCTION EXTENDED TUMBLE;
[ERROR] Could not execute SQL statement. Reason:
Function with the identifier '`TUMBLE`' doesn't exist.
!error
# the in-memory catalogs list no procedures
SHOW PROCEDURES;
[ERROR] Could not execute SQL statement. Reason:
listProcedures is not implemented for class org.apache.flink.table.catalog.GenericInMemoryCatalog.
!error
