# show_partitions.q - SHOW PARTITIONS t [PARTITION (k = v, ...)] (Flink's
# ShowPartitionsOperation): one column "partition name", k1=v1/k2=v2 in
# partition key order. For the filesystem connector the partitions are its
# k=v directories (parted/ holds d=2024-01-01/h=1, d=2024-01-01/h=2 and
# d=2024-01-02/h=1).

CREATE TABLE parted (v INT, d STRING, h INT) PARTITIONED BY (d, h)
WITH ('connector' = 'filesystem', 'path' = '${TESTDATA}/parted', 'format' = 'csv');
[INFO] Execute statement succeeded.
!info

# riffle-only: Riffle extension: SHOW PARTITIONS lists a filesystem table's partition folders (Flink's in-memory catalog knows none: Empty set)
SHOW PARTITIONS parted;
+------------------+
|   partition name |
+------------------+
| d=2024-01-01/h=1 |
| d=2024-01-01/h=2 |
| d=2024-01-02/h=1 |
+------------------+
3 rows in set
!ok

# riffle-only: Riffle extension: SHOW PARTITIONS lists a filesystem table's partition folders (Flink: Empty set)
SHOW PARTITIONS parted PARTITION (d = '2024-01-01');
+------------------+
|   partition name |
+------------------+
| d=2024-01-01/h=1 |
| d=2024-01-01/h=2 |
+------------------+
2 rows in set
!ok

# riffle-only: Riffle extension: SHOW PARTITIONS lists a filesystem table's partition folders (Flink: Empty set)
SHOW PARTITIONS parted PARTITION (h = 1);
+------------------+
|   partition name |
+------------------+
| d=2024-01-01/h=1 |
| d=2024-01-02/h=1 |
+------------------+
2 rows in set
!ok

SHOW PARTITIONS parted PARTITION (d = '2024-01-03');
Empty set
!ok

SHOW PARTITIONS sales_none;
[ERROR] Could not execute SQL statement. Reason:
Could not execute SHOW PARTITIONS default_catalog.default_database.sales_none
!error

CREATE TABLE flat (v INT) WITH ('connector' = 'filesystem', 'path' = '${TESTDATA}/parted', 'format' = 'csv');
[INFO] Execute statement succeeded.
!info

SHOW PARTITIONS flat;
[ERROR] Could not execute SQL statement. Reason:
Could not execute SHOW PARTITIONS default_catalog.default_database.flat
Table default_database.flat in catalog default_catalog is not partitioned.
!error
