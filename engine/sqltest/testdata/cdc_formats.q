# cdc_formats.q - changelog files in the debezium-json, canal-json and
# maxwell-json formats on the filesystem connector, read in streaming mode
# (Flink's docs: connectors/table/formats/debezium.md, canal.md, maxwell.md;
# DebeziumJsonDeserializationSchema, CanalJsonDeserializationSchema,
# MaxwellJsonDeserializationSchema). Every envelope is one line; the rows
# come out as +I, -U/+U and -D. cdc/orders_*.json hold the same changes of
# an orders table: inserts of orders 1 and 2, order 1 paid, order 3
# inserted, order 2 deleted, order 3's amount raised, order 4 read by a
# snapshot (insert), order 1 deleted.

CREATE TABLE orders_dbz (order_id INT, customer STRING, amount DECIMAL(10, 2), status STRING)
WITH ('connector' = 'filesystem', 'path' = '${TESTDATA}/cdc/orders_debezium.json', 'format' = 'debezium-json');
[INFO] Execute statement succeeded.
!info

SELECT * FROM orders_dbz;
+----+-------------+--------------------------------+--------------+--------------------------------+
| op |    order_id |                       customer |       amount |                         status |
+----+-------------+--------------------------------+--------------+--------------------------------+
| +I |           1 |                          alice |        10.50 |                            NEW |
| +I |           2 |                            bob |        20.00 |                            NEW |
| -U |           1 |                          alice |        10.50 |                            NEW |
| +U |           1 |                          alice |        10.50 |                           PAID |
| +I |           3 |                          carol |         5.25 |                            NEW |
| -D |           2 |                            bob |        20.00 |                            NEW |
| -U |           3 |                          carol |         5.25 |                            NEW |
| +U |           3 |                          carol |         6.75 |                            NEW |
| +I |           4 |                           dave |       100.00 |                           PAID |
| -D |           1 |                          alice |        10.50 |                           PAID |
+----+-------------+--------------------------------+--------------+--------------------------------+
Received a total of 10 rows
!ok

# Filters and projections keep the row kinds.
SELECT order_id, amount FROM orders_dbz WHERE amount > 6;
+----+-------------+--------------+
| op |    order_id |       amount |
+----+-------------+--------------+
| +I |           1 |        10.50 |
| +I |           2 |        20.00 |
| -U |           1 |        10.50 |
| +U |           1 |        10.50 |
| -D |           2 |        20.00 |
| +U |           3 |         6.75 |
| +I |           4 |       100.00 |
| -D |           1 |        10.50 |
+----+-------------+--------------+
Received a total of 8 rows
!ok

# An aggregation over the changelog retracts the deleted and updated rows.
SELECT status, COUNT(*) AS orders, SUM(amount) AS total FROM orders_dbz GROUP BY status;
+----+--------------------------------+----------------------+------------------------------------------+
| op |                         status |               orders |                                    total |
+----+--------------------------------+----------------------+------------------------------------------+
| +I |                            NEW |                    1 |                                    10.50 |
| -U |                            NEW |                    1 |                                    10.50 |
| +U |                            NEW |                    2 |                                    30.50 |
| -U |                            NEW |                    2 |                                    30.50 |
| +U |                            NEW |                    1 |                                    20.00 |
| +I |                           PAID |                    1 |                                    10.50 |
| -U |                            NEW |                    1 |                                    20.00 |
| +U |                            NEW |                    2 |                                    25.25 |
| -U |                            NEW |                    2 |                                    25.25 |
| +U |                            NEW |                    1 |                                     5.25 |
| -D |                            NEW |                    1 |                                     5.25 |
| +I |                            NEW |                    1 |                                     6.75 |
| -U |                           PAID |                    1 |                                    10.50 |
| +U |                           PAID |                    2 |                                   110.50 |
| -U |                           PAID |                    2 |                                   110.50 |
| +U |                           PAID |                    1 |                                   100.00 |
+----+--------------------------------+----------------------+------------------------------------------+
Received a total of 16 rows
!ok

# Canal: one message may hold several rows; the DDL event (type CREATE) is
# skipped; 'canal-json.table.include' drops the refunds table's event.
CREATE TABLE orders_canal (order_id INT, customer STRING, amount DECIMAL(10, 2), status STRING)
WITH ('connector' = 'filesystem', 'path' = '${TESTDATA}/cdc/orders_canal.json', 'format' = 'canal-json',
      'canal-json.table.include' = 'orders');
[INFO] Execute statement succeeded.
!info

SELECT * FROM orders_canal;
+----+-------------+--------------------------------+--------------+--------------------------------+
| op |    order_id |                       customer |       amount |                         status |
+----+-------------+--------------------------------+--------------+--------------------------------+
| +I |           1 |                          alice |        10.50 |                            NEW |
| +I |           2 |                            bob |        20.00 |                            NEW |
| -U |           1 |                          alice |        10.50 |                            NEW |
| +U |           1 |                          alice |        10.50 |                           PAID |
| +I |           3 |                          carol |         5.25 |                            NEW |
| -D |           2 |                            bob |        20.00 |                            NEW |
| -U |           3 |                          carol |         5.25 |                            NEW |
| +U |           3 |                          carol |         6.75 |                            NEW |
| -D |           1 |                          alice |        10.50 |                           PAID |
+----+-------------+--------------------------------+--------------+--------------------------------+
Received a total of 9 rows
!ok

# Maxwell: "old" holds the changed columns of an update.
CREATE TABLE orders_maxwell (order_id INT, customer STRING, amount DECIMAL(10, 2), status STRING)
WITH ('connector' = 'filesystem', 'path' = '${TESTDATA}/cdc/orders_maxwell.json', 'format' = 'maxwell-json');
[INFO] Execute statement succeeded.
!info

SELECT * FROM orders_maxwell;
+----+-------------+--------------------------------+--------------+--------------------------------+
| op |    order_id |                       customer |       amount |                         status |
+----+-------------+--------------------------------+--------------+--------------------------------+
| +I |           1 |                          alice |        10.50 |                            NEW |
| +I |           2 |                            bob |        20.00 |                            NEW |
| -U |           1 |                          alice |        10.50 |                            NEW |
| +U |           1 |                          alice |        10.50 |                           PAID |
| +I |           3 |                          carol |         5.25 |                            NEW |
| -D |           2 |                            bob |        20.00 |                            NEW |
| -U |           3 |                          carol |         5.25 |                            NEW |
| +U |           3 |                          carol |         6.75 |                            NEW |
| +I |           4 |                           dave |       100.00 |                           PAID |
| -D |           1 |                          alice |        10.50 |                           PAID |
+----+-------------+--------------------------------+--------------+--------------------------------+
Received a total of 10 rows
!ok

SELECT customer, SUM(amount) AS total FROM orders_maxwell GROUP BY customer;
+----+--------------------------------+------------------------------------------+
| op |                       customer |                                    total |
+----+--------------------------------+------------------------------------------+
| +I |                          alice |                                    10.50 |
| +I |                            bob |                                    20.00 |
| -D |                          alice |                                    10.50 |
| +I |                          alice |                                    10.50 |
| +I |                          carol |                                     5.25 |
| -D |                            bob |                                    20.00 |
| -D |                          carol |                                     5.25 |
| +I |                          carol |                                     6.75 |
| +I |                           dave |                                   100.00 |
| -D |                          alice |                                    10.50 |
+----+--------------------------------+------------------------------------------+
Received a total of 10 rows
!ok

# ignore-parse-errors skips the line that is not JSON and the unknown op,
# and sets the amount that does not convert to NULL.
CREATE TABLE orders_bad (order_id INT, customer STRING, amount DECIMAL(10, 2), status STRING)
WITH ('connector' = 'filesystem', 'path' = '${TESTDATA}/cdc/orders_debezium_bad.json', 'format' = 'debezium-json',
      'debezium-json.ignore-parse-errors' = 'true');
[INFO] Execute statement succeeded.
!info

SELECT * FROM orders_bad;
+----+-------------+--------------------------------+--------------+--------------------------------+
| op |    order_id |                       customer |       amount |                         status |
+----+-------------+--------------------------------+--------------+--------------------------------+
| +I |           1 |                          alice |        10.50 |                            NEW |
| +I |           2 |                            bob |       <NULL> |                            NEW |
| -D |           1 |                          alice |        10.50 |                            NEW |
+----+-------------+--------------------------------+--------------+--------------------------------+
Received a total of 3 rows
!ok
