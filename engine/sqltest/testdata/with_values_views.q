# with_values_views.q - WITH (common table expressions), VALUES anywhere a
# table or row list may stand, views (temporary and catalog) over views.
# Sources: docs/content/docs/dev/table/sql/queries/with.md (its example
# quoted), select.md ("VALUES"), create.md / drop.md (CREATE [TEMPORARY]
# VIEW, DROP VIEW), ValuesITCase.scala; SQL standard scoping for WITH.

SET 'execution.runtime-mode' = 'batch';
[INFO] Execute statement succeeded.
!info
SET 'sql-client.display.max-column-width' = '60';
[INFO] Execute statement succeeded.
!info

CREATE TEMPORARY VIEW Orders (product, amount) AS VALUES ('rubber', 2), ('pen', 3), ('rubber', 5), ('pencil', 1);
[INFO] Execute statement succeeded.
!info

# with.md: WITH orders_with_total AS (SELECT order_id, price + tax AS total ...) SELECT order_id, SUM(total) ... GROUP BY order_id
WITH orders_with_total AS (SELECT product, amount * 10 AS total FROM Orders) SELECT product, SUM(total) FROM orders_with_total GROUP BY product;
+---------+--------+
| product | EXPR$1 |
+---------+--------+
|  rubber |     70 |
|     pen |     30 |
|  pencil |     10 |
+---------+--------+
3 rows in set
!unordered
# several CTEs; a later one may use an earlier one
WITH a AS (SELECT product, amount FROM Orders WHERE amount > 1), b AS (SELECT product, SUM(amount) AS s FROM a GROUP BY product) SELECT * FROM b WHERE s > 3;
+---------+---+
| product | s |
+---------+---+
|  rubber | 7 |
+---------+---+
1 row in set
!ok
# a CTE with a column list
WITH t (p, n) AS (SELECT product, amount FROM Orders) SELECT p, n FROM t WHERE n = 3;
+-----+---+
|   p | n |
+-----+---+
| pen | 3 |
+-----+---+
1 row in set
!ok
# a CTE used twice
WITH t AS (SELECT product, amount FROM Orders) SELECT t1.product, t2.product FROM t t1 JOIN t t2 ON t1.amount + 1 = t2.amount;
+---------+----------+
| product | product0 |
+---------+----------+
|  rubber |      pen |
|  pencil |   rubber |
+---------+----------+
2 rows in set
!unordered
# a CTE shadows a table of the same name inside its query
WITH Orders AS (SELECT 'shadow' AS product) SELECT product FROM Orders;
+---------+
| product |
+---------+
|  shadow |
+---------+
1 row in set
!ok
# WITH inside a subquery
SELECT * FROM (WITH x AS (SELECT 42 AS v) SELECT v + 1 AS w FROM x);
+----+
|  w |
+----+
| 43 |
+----+
1 row in set
!ok
# a CTE is not visible after its query
WITH x AS (SELECT 1 AS v) SELECT v FROM x;
+---+
| v |
+---+
| 1 |
+---+
1 row in set
!ok
SELECT v FROM x;
[ERROR] Could not execute SQL statement. Reason:
Object 'x' not found
!error

# select.md: VALUES as a query, as a table in FROM, in INSERT, in IN and in UNION
VALUES (1, 'a'), (2, 'b');
+--------+--------+
| EXPR$0 | EXPR$1 |
+--------+--------+
|      1 |      a |
|      2 |      b |
+--------+--------+
2 rows in set
!ok
SELECT EXPR$0, EXPR$1 FROM (VALUES (1, 'a'), (2, 'b'));
+--------+--------+
| EXPR$0 | EXPR$1 |
+--------+--------+
|      1 |      a |
|      2 |      b |
+--------+--------+
2 rows in set
!ok
SELECT x * 2 FROM (VALUES (1), (2), (3)) AS t(x) WHERE x IN (SELECT * FROM (VALUES 1, 3));
+--------+
| EXPR$0 |
+--------+
|      2 |
|      6 |
+--------+
2 rows in set
!unordered
SELECT * FROM (VALUES 1, 2) AS t(x) UNION ALL VALUES 3;
+---+
| x |
+---+
| 3 |
| 1 |
| 2 |
+---+
3 rows in set
!unordered
# the row type of VALUES is the common type of each column (ValuesITCase)
SELECT TYPEOF(x), TYPEOF(y) FROM (VALUES (1, 'a'), (2.5, 'bcd')) AS t(x, y) LIMIT 1;
+-------------------------+---------------------+
|                  EXPR$0 |              EXPR$1 |
+-------------------------+---------------------+
| DECIMAL(11, 1) NOT NULL | VARCHAR(3) NOT NULL |
+-------------------------+---------------------+
1 row in set
!ok
# riffle-only: Flink bug: TYPEOF over VALUES is typed per row (BIGINT NOT NULL for 1, BIGINT for the NULL row); a column has one type
SELECT TYPEOF(x) FROM (VALUES (1), (CAST(NULL AS BIGINT))) AS t(x) LIMIT 1;
+--------+
| EXPR$0 |
+--------+
| BIGINT |
+--------+
1 row in set
!ok
SELECT * FROM (VALUES (1, 'a'), (2.5, 'bcd')) AS t(x, y);
+-----+-----+
|   x |   y |
+-----+-----+
| 1.0 |   a |
| 2.5 | bcd |
+-----+-----+
2 rows in set
!ok
# VALUES rows must have the same width (Calcite)
VALUES (1, 2), (3);
[ERROR] Could not execute SQL statement. Reason:
Values passed to VALUES operator must have compatible types
!error
# a VALUES table in a join
SELECT o.product, v.price FROM Orders o JOIN (VALUES ('pen', 1.5), ('rubber', 0.5)) AS v(product, price) ON o.product = v.product;
+---------+-------+
| product | price |
+---------+-------+
|  rubber |   0.5 |
|     pen |   1.5 |
|  rubber |   0.5 |
+---------+-------+
3 rows in set
!unordered

# create.md: views over views, temporary and catalog views
CREATE TEMPORARY VIEW v1 AS SELECT product, amount FROM Orders WHERE amount > 1;
[INFO] Execute statement succeeded.
!info
CREATE TEMPORARY VIEW v2 AS SELECT product, SUM(amount) AS total FROM v1 GROUP BY product;
[INFO] Execute statement succeeded.
!info
CREATE VIEW v3 (name, total_amount) AS SELECT product, total FROM v2 WHERE total > 3;
[INFO] Execute statement succeeded.
!info
SELECT * FROM v3;
+--------+--------------+
|   name | total_amount |
+--------+--------------+
| rubber |            7 |
+--------+--------------+
1 row in set
!ok
SHOW VIEWS;
+-----------+
| view name |
+-----------+
|    Orders |
|        v1 |
|        v2 |
|        v3 |
+-----------+
4 rows in set
!unordered
# a view's column list renames its columns; a grouped SUM of a NOT NULL
# column is NOT NULL (Calcite ReturnTypes.AGG_SUM)
DESCRIBE v3;
+--------------+------------+-------+-----+--------+-----------+
|         name |       type |  null | key | extras | watermark |
+--------------+------------+-------+-----+--------+-----------+
|         name | VARCHAR(6) | FALSE |     |        |           |
| total_amount |        INT | FALSE |     |        |           |
+--------------+------------+-------+-----+--------+-----------+
2 rows in set
!ok
# a view sees the objects as they are when it is queried
CREATE TEMPORARY VIEW v4 AS SELECT COUNT(*) AS n FROM v3;
[INFO] Execute statement succeeded.
!info
SELECT n FROM v4;
+---+
| n |
+---+
| 1 |
+---+
1 row in set
!ok
# drop.md: DROP VIEW, DROP TEMPORARY VIEW, IF EXISTS
DROP VIEW v3;
[INFO] Execute statement succeeded.
!info
SELECT n FROM v4;
[ERROR] Could not execute SQL statement. Reason:
v3
!error
DROP TEMPORARY VIEW v4;
[INFO] Execute statement succeeded.
!info
DROP VIEW IF EXISTS v3;
[INFO] Execute statement succeeded.
!info
DROP TEMPORARY VIEW IF EXISTS no_such_view;
[INFO] Execute statement succeeded.
!info
# a permanent view may share the name of a temporary one, which shadows it
CREATE VIEW v1 AS SELECT 1 AS x;
[INFO] Execute statement succeeded.
!info
CREATE TEMPORARY VIEW v1 AS SELECT 1 AS x;
[ERROR] Could not execute SQL statement. Reason:
already exists
!error
# a view over a WITH query with VALUES
CREATE TEMPORARY VIEW v5 AS WITH c AS (SELECT * FROM (VALUES ('x', 1), ('y', 2)) AS t(k, n)) SELECT k, n * 100 AS m FROM c;
[INFO] Execute statement succeeded.
!info
SELECT * FROM v5 ORDER BY k DESC;
+---+-----+
| k |   m |
+---+-----+
| y | 200 |
| x | 100 |
+---+-----+
2 rows in set
!ok
