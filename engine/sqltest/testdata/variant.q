# variant.q - the VARIANT type (Flink 2.1) and PARSE_JSON / TRY_PARSE_JSON,
# access by key and index, what CAST, comparisons and aggregates accept.
# Sources: Flink's docs (docs/data/sql_functions.yml, "PARSE_JSON",
# "TRY_PARSE_JSON"; types.md, "VARIANT"); every expectation was checked
# against Apache Flink 2.3.0 through its SQL Gateway (make test-interop).

SET 'execution.runtime-mode' = 'batch';
[INFO] Execute statement succeeded.
!info
SET 'sql-client.display.max-column-width' = '80';
[INFO] Execute statement succeeded.
!info
# printing: compact JSON, each object's keys sorted, decimals without trailing zeros, doubles as Java prints them
SELECT PARSE_JSON('{"a":1,"b":[1,2,"x"],"c":{"d":null}}') AS v;
+--------------------------------------+
|                                    v |
+--------------------------------------+
| {"a":1,"b":[1,2,"x"],"c":{"d":null}} |
+--------------------------------------+
1 row in set
!ok
SELECT PARSE_JSON('{ "b" : 2, "a" : 1, "c": {"z":1, "y":2} }') AS v;
+---------------------------------+
|                               v |
+---------------------------------+
| {"a":1,"b":2,"c":{"y":2,"z":1}} |
+---------------------------------+
1 row in set
!ok
SELECT PARSE_JSON('1.50') AS a, PARSE_JSON('1e3') AS b, PARSE_JSON('12345678901234567890') AS c, PARSE_JSON('-0.0') AS d, PARSE_JSON('1.0E-5') AS e;
+-----+--------+----------------------+---+--------+
|   a |      b |                    c | d |      e |
+-----+--------+----------------------+---+--------+
| 1.5 | 1000.0 | 12345678901234567890 | 0 | 1.0E-5 |
+-----+--------+----------------------+---+--------+
1 row in set
!ok
SELECT PARSE_JSON('123456789012345678901234567890123456789012') AS a, PARSE_JSON('1E400') AS b, PARSE_JSON('-9223372036854775808') AS c, PARSE_JSON('1.5e0') AS d;
+-----------------------+----------+----------------------+-----+
|                     a |        b |                    c |   d |
+-----------------------+----------+----------------------+-----+
| 1.2345678901234568E41 | Infinity | -9223372036854775808 | 1.5 |
+-----------------------+----------+----------------------+-----+
1 row in set
!ok
SELECT PARSE_JSON('"a\u00e9\n\"q\t\\"') AS s, PARSE_JSON('true') AS t, PARSE_JSON('null') AS n, PARSE_JSON('"x/y<>&"') AS sl;
+---------------+------+------+----------+
|             s |    t |    n |       sl |
+---------------+------+------+----------+
| "aé\n\"q\t\\" | true | null | "x/y<>&" |
+---------------+------+------+----------+
1 row in set
!ok
SELECT PARSE_JSON('  [ 1 , {"k" : [ ] } , { } ]  ') AS a, PARSE_JSON(' 1 ') AS b;
+-----------------+---+
|               a | b |
+-----------------+---+
| [1,{"k":[]},{}] | 1 |
+-----------------+---+
1 row in set
!ok
# only the first JSON value is read (Jackson's behaviour)
SELECT PARSE_JSON('1 2') AS a, PARSE_JSON('{"a":1}}') AS b;
+---+---------+
| a |       b |
+---+---------+
| 1 | {"a":1} |
+---+---------+
1 row in set
!ok
# a JSON null is a value; a NULL string gives SQL NULL
SELECT PARSE_JSON('null') IS NULL AS n1, PARSE_JSON(CAST(NULL AS STRING)) IS NULL AS n2;
+-------+------+
|    n1 |   n2 |
+-------+------+
| FALSE | TRUE |
+-------+------+
1 row in set
!ok
SELECT TYPEOF(PARSE_JSON('1')) AS t, TYPEOF(TRY_PARSE_JSON('1')) AS u;
+------------------+---------+
|                t |       u |
+------------------+---------+
| VARIANT NOT NULL | VARIANT |
+------------------+---------+
1 row in set
!ok
# access: keys are case-sensitive, indexes 1-based; a missing key or an index out of range is NULL
SELECT PARSE_JSON('{"a":1,"b":[1,2,"x"]}')['b'][1] AS x1, PARSE_JSON('{"a":1,"b":[1,2,"x"]}')['b'][3] AS x3, PARSE_JSON('{"a":1,"b":[1,2,"x"]}')['b'][0] AS x0, PARSE_JSON('{"a":1,"b":[1,2,"x"]}')['b'][4] AS x4, PARSE_JSON('{"a":1}')['zz'] AS miss;
+----+-----+--------+--------+--------+
| x1 |  x3 |     x0 |     x4 |   miss |
+----+-----+--------+--------+--------+
|  1 | "x" | <NULL> | <NULL> | <NULL> |
+----+-----+--------+--------+--------+
1 row in set
!ok
SELECT PARSE_JSON('[1,2]')[-1] AS n, PARSE_JSON('{"a":1}')['A'] AS c, PARSE_JSON('{"1":"one"}')['1'] AS d;
+--------+--------+-------+
|      n |      c |     d |
+--------+--------+-------+
| <NULL> | <NULL> | "one" |
+--------+--------+-------+
1 row in set
!ok
SELECT PARSE_JSON('{"a":{"b":"x"}}')['a']['b'] AS s, PARSE_JSON('{"a":{"b":"x"}}')['a'] AS o, PARSE_JSON('{"a":{"b":[10,20]}}')['a']['b'][2] AS c;
+-----+-----------+----+
|   s |         o |  c |
+-----+-----------+----+
| "x" | {"b":"x"} | 20 |
+-----+-----------+----+
1 row in set
!ok
SELECT PARSE_JSON('[1,2,3]')[CAST(2 AS BIGINT)] AS c, PARSE_JSON('[1,2,3]')[CAST(2 AS TINYINT)] AS d, PARSE_JSON('[1,2,3]')[2 + 1] AS e;
+---+---+---+
| c | d | e |
+---+---+---+
| 2 | 2 | 3 |
+---+---+---+
1 row in set
!ok
SELECT PARSE_JSON('{"a":1}')[CAST(NULL AS STRING)] AS c, PARSE_JSON('[1]')[CAST(NULL AS INT)] AS d;
+--------+--------+
|      c |      d |
+--------+--------+
| <NULL> | <NULL> |
+--------+--------+
1 row in set
!ok
SELECT id, PARSE_JSON(s)['k'] AS k FROM (VALUES (1, '{"k":[true]}'), (2, '{"j":1}'), (3, CAST(NULL AS STRING))) AS t(id, s);
+----+--------+
| id |      k |
+----+--------+
|  1 | [true] |
|  2 | <NULL> |
|  3 | <NULL> |
+----+--------+
3 rows in set
!unordered
# a key on a non-object fails the query
SELECT PARSE_JSON('[1,2]')['a'] AS k;
[ERROR] Could not execute SQL statement. Reason:
String key access on variant requires an object variant, but a non-object variant was provided.
!error
SELECT PARSE_JSON('{"a":1}')[1] AS i;
[ERROR] Could not execute SQL statement. Reason:
Integer index access on variant requires an array variant, but a non-array variant was provided.
!error
# TRY_PARSE_JSON: NULL for invalid JSON
SELECT TRY_PARSE_JSON('{bad') AS t, TRY_PARSE_JSON('[1]') AS u, TRY_PARSE_JSON(CAST(NULL AS STRING)) AS n, TRY_PARSE_JSON('') AS e;
+--------+-----+--------+--------+
|      t |   u |      n |      e |
+--------+-----+--------+--------+
| <NULL> | [1] | <NULL> | <NULL> |
+--------+-----+--------+--------+
1 row in set
!ok
SELECT TRY_PARSE_JSON(s) AS v FROM (VALUES ('{"a":1}'), ('nope')) AS t(s);
+---------+
|       v |
+---------+
| {"a":1} |
|  <NULL> |
+---------+
2 rows in set
!unordered
# repeated keys: an error unless allowDuplicateKeys, then the last value wins
SELECT PARSE_JSON('{"a":1,"a":2}', TRUE) AS t, TRY_PARSE_JSON('{"a":1,"a":2}') AS u, TRY_PARSE_JSON('{"a":1,"a":2}', TRUE) AS w;
+---------+--------+---------+
|       t |      u |       w |
+---------+--------+---------+
| {"a":2} | <NULL> | {"a":2} |
+---------+--------+---------+
1 row in set
!ok
SELECT PARSE_JSON(s, b) AS v FROM (VALUES ('{"a":1,"a":2}', TRUE)) AS t(s, b);
+---------+
|       v |
+---------+
| {"a":2} |
+---------+
1 row in set
!ok
SELECT PARSE_JSON('{"a":1,"a":2}') AS t;
[ERROR] Could not execute SQL statement. Reason:
VARIANT_DUPLICATE_KEY
!error
SELECT PARSE_JSON('{"a":1,"a":2}', FALSE) AS t;
[ERROR] Could not execute SQL statement. Reason:
VARIANT_DUPLICATE_KEY
!error
# invalid JSON: Jackson's message with the line and column
SELECT PARSE_JSON('{bad') AS t;
[ERROR] Could not execute SQL statement. Reason:
Unexpected character ('b' (code 98)): was expecting double-quote to start field name
 at [Source: UNKNOWN; line: 1, column: 2]
!error
SELECT PARSE_JSON('') AS t;
[ERROR] Could not execute SQL statement. Reason:
Unexpected null token
 at [Source: UNKNOWN; line: 1, column: 1]
!error
SELECT PARSE_JSON('[1,]') AS t;
[ERROR] Could not execute SQL statement. Reason:
Unexpected character (']' (code 93)): expected a valid value (JSON String, Number, Array, Object or token 'null', 'true' or 'false')
 at [Source: UNKNOWN; line: 1, column: 4]
!error
SELECT PARSE_JSON(s) AS v FROM (VALUES ('{"a":1}'), ('nope')) AS t(s);
[ERROR] Could not execute SQL statement. Reason:
Unrecognized token 'nope': was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false')
 at [Source: UNKNOWN; line: 1, column: 5]
!error
SELECT PARSE_JSON('01') AS v;
[ERROR] Could not execute SQL statement. Reason:
Invalid numeric value: Leading zeroes not allowed
 at [Source: UNKNOWN; line: 1, column: 2]
!error
SELECT PARSE_JSON('{"a":1,' || CHR(10) || '"b":x}') AS v;
[ERROR] Could not execute SQL statement. Reason:
Unrecognized token 'x': was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false')
 at [Source: UNKNOWN; line: 2, column: 6]
!error
# arguments
SELECT PARSE_JSON(123) AS t;
[ERROR] Could not execute SQL statement. Reason:
Invalid function call:
PARSE_JSON(INT NOT NULL)
!error
SELECT PARSE_JSON('1', 'x') AS t;
[ERROR] Could not execute SQL statement. Reason:
Invalid function call:
PARSE_JSON(CHAR(1) NOT NULL, CHAR(1) NOT NULL)
!error
SELECT PARSE_JSON('{"a":1}')[TRUE] AS c;
[ERROR] Could not execute SQL statement. Reason:
From line 1, column 8 to line 1, column 34: Cannot apply 'ITEM' to arguments of type 'ITEM(<VARIANT>, <BOOLEAN>)'. Supported form(s): <ARRAY>[<INTEGER>]
!error
# no CAST from or to VARIANT (only NULL)
SELECT CAST(NULL AS VARIANT) AS v;
+--------+
|      v |
+--------+
| <NULL> |
+--------+
1 row in set
!ok
SELECT CAST(PARSE_JSON('1') AS INT) AS i;
[ERROR] Could not execute SQL statement. Reason:
From line 1, column 8 to line 1, column 35: Cast function cannot convert value of type VARIANT to type INTEGER
!error
SELECT CAST(PARSE_JSON('{"a":1}') AS STRING) AS s;
[ERROR] Could not execute SQL statement. Reason:
From line 1, column 8 to line 1, column 44: Cast function cannot convert value of type VARIANT to type VARCHAR(2147483647)
!error
SELECT TRY_CAST(PARSE_JSON('"x"') AS INT) AS i;
[ERROR] Could not execute SQL statement. Reason:
From line 1, column 8 to line 1, column 41: Cast function cannot convert value of type VARIANT to type INTEGER
!error
SELECT CAST(1 AS VARIANT) AS v;
[ERROR] Could not execute SQL statement. Reason:
From line 1, column 8 to line 1, column 25: Cast function cannot convert value of type INTEGER to type VARIANT
!error
SELECT CAST(PARSE_JSON('1') AS VARIANT) AS v;
[ERROR] Could not execute SQL statement. Reason:
From line 1, column 8 to line 1, column 39: Cast function cannot convert value of type VARIANT to type VARIANT
!error
# equality compares the values as stored: key order and number kind count
SELECT PARSE_JSON('{"a":1}') = PARSE_JSON('{ "a" : 1 }') AS e1, PARSE_JSON('1') = PARSE_JSON('1.0') AS e2, PARSE_JSON('{"a":1,"b":2}') = PARSE_JSON('{"b":2,"a":1}') AS e3, PARSE_JSON('1') <> PARSE_JSON('2') AS e4;
+------+-------+-------+------+
|   e1 |    e2 |    e3 |   e4 |
+------+-------+-------+------+
| TRUE | FALSE | FALSE | TRUE |
+------+-------+-------+------+
1 row in set
!ok
SELECT PARSE_JSON('1') = PARSE_JSON('1e0') AS e1, PARSE_JSON('"1"') = PARSE_JSON('1') AS e2, PARSE_JSON('null') = PARSE_JSON('null') AS e3, PARSE_JSON('1') IS DISTINCT FROM PARSE_JSON('2') AS e4;
+-------+-------+------+------+
|    e1 |    e2 |   e3 |   e4 |
+-------+-------+------+------+
| FALSE | FALSE | TRUE | TRUE |
+-------+-------+------+------+
1 row in set
!ok
SELECT * FROM (VALUES (1, PARSE_JSON('1')), (2, PARSE_JSON('2'))) AS t(a, v) WHERE v = PARSE_JSON('2');
+---+---+
| a | v |
+---+---+
| 2 | 2 |
+---+---+
1 row in set
!ok
SELECT * FROM (VALUES (1, PARSE_JSON('1')), (2, PARSE_JSON('2'))) AS t(a, v) WHERE v IN (PARSE_JSON('2'));
+---+---+
| a | v |
+---+---+
| 2 | 2 |
+---+---+
1 row in set
!ok
SELECT 1 AS x FROM (VALUES (PARSE_JSON('1'))) AS a(v) JOIN (VALUES (PARSE_JSON('1'))) AS b(v) ON a.v = b.v;
+---+
| x |
+---+
| 1 |
+---+
1 row in set
!ok
# ...but no order
SELECT PARSE_JSON('1') < PARSE_JSON('2') AS e;
[ERROR] Could not execute SQL statement. Reason:
Comparable type expected, but was 'VARIANT NOT NULL'.
!error
SELECT v FROM (VALUES (PARSE_JSON('2')), (PARSE_JSON('1'))) AS t(v) ORDER BY v;
[ERROR] Could not execute SQL statement. Reason:
Type(VARIANT NOT NULL) is not an orderable data type, it is not supported as a ORDER_BY/GROUP_BY/JOIN_EQUAL field.
!error
SELECT MAX(v) FROM (VALUES (PARSE_JSON('1'))) AS t(v);
[ERROR] Could not execute SQL statement. Reason:
Max aggregate function does not support type: ''VARIANT''.
Please re-check the data type.
!error
SELECT PARSE_JSON('{"a":1}')['a'] + 1 AS x;
[ERROR] Could not execute SQL statement. Reason:
From line 1, column 8 to line 1, column 37: Cannot apply '+' to arguments of type '<VARIANT> + <INTEGER>'. Supported form(s): '<NUMERIC> + <NUMERIC>'
!error
# VARIANT inside other values and expressions
SELECT ARRAY[PARSE_JSON('1'), PARSE_JSON('"a"')] AS a, ROW(PARSE_JSON('[1, "a"]'), 1) AS r, MAP['k', PARSE_JSON('{"x":1}')] AS m;
+----------+--------------+-------------+
|        a |            r |           m |
+----------+--------------+-------------+
| [1, "a"] | ([1,"a"], 1) | {k={"x":1}} |
+----------+--------------+-------------+
1 row in set
!ok
SELECT COALESCE(TRY_PARSE_JSON('x'), PARSE_JSON('0')) AS c, CASE WHEN 1 = 1 THEN PARSE_JSON('1') ELSE PARSE_JSON('2') END AS w;
+---+---+
| c | w |
+---+---+
| 0 | 1 |
+---+---+
1 row in set
!ok
SELECT JSON_VALUE(PARSE_JSON('{"a":1}'), '$.a') AS x, JSON_STRING(PARSE_JSON('{"b":1,"a":[2]}')) AS y;
+---+-----------------+
| x |               y |
+---+-----------------+
| 1 | {"a":[2],"b":1} |
+---+-----------------+
1 row in set
!ok
# DDL
CREATE TABLE tv (id INT, v VARIANT NOT NULL, w VARIANT) WITH ('connector' = 'datagen');
[INFO] Execute statement succeeded.
!info
DESCRIBE tv;
+------+---------+-------+-----+--------+-----------+
| name |    type |  null | key | extras | watermark |
+------+---------+-------+-----+--------+-----------+
|   id |     INT |  TRUE |     |        |           |
|    v | VARIANT | FALSE |     |        |           |
|    w | VARIANT |  TRUE |     |        |           |
+------+---------+-------+-----+--------+-----------+
3 rows in set
!ok
SHOW CREATE TABLE tv;
CREATE TABLE `default_catalog`.`default_database`.`tv` (
  `id` INT,
  `v` VARIANT NOT NULL,
  `w` VARIANT
)
WITH (
  'connector' = 'datagen'
)
!ok
# the json format reads no VARIANT column (as Flink 2.3)
CREATE TABLE jin (id INT, v VARIANT) WITH ('connector' = 'filesystem', 'path' = '${TESTDATA}/variant', 'format' = 'json');
[INFO] Execute statement succeeded.
!info
SELECT * FROM jin;
[ERROR] Could not execute SQL statement. Reason:
Unsupported type: VARIANT
!error
# streaming: the changelog prints the same JSON text
SET 'execution.runtime-mode' = 'streaming';
[INFO] Execute statement succeeded.
!info
SELECT PARSE_JSON(s)['a'] AS a FROM (VALUES ('{"a":[1,{"y":2,"x":1}]}'), ('{"a":"t"}')) AS t(s);
+----+----------------------------------------------------------------------------------+
| op |                                                                                a |
+----+----------------------------------------------------------------------------------+
| +I |                                                                [1,{"x":1,"y":2}] |
| +I |                                                                              "t" |
+----+----------------------------------------------------------------------------------+
Received a total of 2 rows
!ok
