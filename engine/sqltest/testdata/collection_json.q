# collection_json.q - collection functions, value construction and access,
# and the SQL/JSON functions.
# Sources: docs/data/sql_functions.yml ("collection", "json",
# "valueconstruction", "valueaccess"; examples quoted in the comments),
# SqlExpressionTest.scala (testValueConstructorFunctions, testArrayFunctions)
# and the seed inventory §6 (E-30, E-31, E-42, E-43). Values derived from a
# documented rule without an example say so.

SET 'execution.runtime-mode' = 'batch';
[INFO] Execute statement succeeded.
!info
SET 'sql-client.display.max-column-width' = '80';
[INFO] Execute statement succeeded.
!info

# SqlExpressionTest.testValueConstructorFunctions (display per CastRulesTest)
SELECT ROW('hello world', 12);
+-------------------+
|            EXPR$0 |
+-------------------+
| (hello world, 12) |
+-------------------+
1 row in set
!ok
SELECT ('hello world', 12);
+-------------------+
|            EXPR$0 |
+-------------------+
| (hello world, 12) |
+-------------------+
1 row in set
!ok
SELECT ('foo', ('bar', 12));
+------------------+
|           EXPR$0 |
+------------------+
| (foo, (bar, 12)) |
+------------------+
1 row in set
!ok
SELECT ARRAY[TRUE, FALSE][2];
+--------+
| EXPR$0 |
+--------+
|  FALSE |
+--------+
1 row in set
!ok
SELECT ARRAY[TRUE, TRUE];
+--------------+
|       EXPR$0 |
+--------------+
| [TRUE, TRUE] |
+--------------+
1 row in set
!ok
SELECT MAP['k1', 'v1', 'k2', 'v2']['k2'];
+--------+
| EXPR$0 |
+--------+
|     v2 |
+--------+
1 row in set
!ok
SELECT MAP['k1', CAST(true AS VARCHAR(256)), 'k2', 'foo']['k1'];
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
# SqlExpressionTest.testArrayFunctions
SELECT CARDINALITY(ARRAY[TRUE, TRUE, FALSE]);
+--------+
| EXPR$0 |
+--------+
|      3 |
+--------+
1 row in set
!ok
SELECT ELEMENT(ARRAY['HELLO WORLD']);
+-------------+
|      EXPR$0 |
+-------------+
| HELLO WORLD |
+-------------+
1 row in set
!ok
# seed §6 E-30: ELEMENT of [] is NULL, of more than one element an error
# riffle-only: Flink bug: ELEMENT of an empty array gives -1 instead of NULL
SELECT ELEMENT(ARRAY_REMOVE(ARRAY[1], 1));
+--------+
| EXPR$0 |
+--------+
| <NULL> |
+--------+
1 row in set
!ok
SELECT ELEMENT(ARRAY[1, 2]);
[ERROR] Could not execute SQL statement. Reason:
more than one element
!error
# seed §6 E-31: arrays are 1-based; maps by key; CARDINALITY counts entries
SELECT ARRAY['a', 'b', 'c'][1], MAP['x', 1, 'y', 2]['y'], CARDINALITY(MAP['x', 1, 'y', 2]);
+--------+--------+--------+
| EXPR$0 | EXPR$1 | EXPR$2 |
+--------+--------+--------+
|      a |      2 |      2 |
+--------+--------+--------+
1 row in set
!ok
# riffle-only: Flink bug: a missing MAP key gives -1 instead of NULL
SELECT MAP['x', 1]['z'];
+--------+
| EXPR$0 |
+--------+
| <NULL> |
+--------+
1 row in set
!ok
# sql_functions.yml ARRAY_CONTAINS: NULL elements can be searched; NULL array gives NULL
SELECT ARRAY_CONTAINS(ARRAY[1, 2, 3], 2), ARRAY_CONTAINS(ARRAY[1, 2, 3], 4);
+--------+--------+
| EXPR$0 | EXPR$1 |
+--------+--------+
|   TRUE |  FALSE |
+--------+--------+
1 row in set
!ok
SELECT ARRAY_CONTAINS(ARRAY[1, CAST(NULL AS INT)], CAST(NULL AS INT));
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT ARRAY_CONTAINS(CAST(NULL AS ARRAY<INT>), 1);
+--------+
| EXPR$0 |
+--------+
| <NULL> |
+--------+
1 row in set
!ok
# the needle is cast to the element type
SELECT ARRAY_CONTAINS(ARRAY[1.5, 2.0], 2);
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
# sql_functions.yml ARRAY_DISTINCT keeps the order
SELECT ARRAY_DISTINCT(ARRAY[3, 1, 3, 2, 1]);
+-----------+
|    EXPR$0 |
+-----------+
| [3, 1, 2] |
+-----------+
1 row in set
!ok
# sql_functions.yml ARRAY_POSITION: 1-based, 0 when absent
SELECT ARRAY_POSITION(ARRAY[5, 6, 7], 6), ARRAY_POSITION(ARRAY[5, 6, 7], 9);
+--------+--------+
| EXPR$0 | EXPR$1 |
+--------+--------+
|      2 |      0 |
+--------+--------+
1 row in set
!ok
# sql_functions.yml ARRAY_REMOVE / ARRAY_REVERSE / ARRAY_APPEND / ARRAY_PREPEND
SELECT ARRAY_REMOVE(ARRAY[1, 2, 1, 3], 1);
+--------+
| EXPR$0 |
+--------+
| [2, 3] |
+--------+
1 row in set
!ok
SELECT ARRAY_REVERSE(ARRAY['a', 'b', 'c']);
+-----------+
|    EXPR$0 |
+-----------+
| [c, b, a] |
+-----------+
1 row in set
!ok
SELECT ARRAY_APPEND(ARRAY[1, 2], 3), ARRAY_PREPEND(ARRAY[1, 2], 0);
+-----------+-----------+
|    EXPR$0 |    EXPR$1 |
+-----------+-----------+
| [1, 2, 3] | [0, 1, 2] |
+-----------+-----------+
1 row in set
!ok
SELECT ARRAY_APPEND(ARRAY[1, 2], CAST(NULL AS INT));
+--------------+
|       EXPR$0 |
+--------------+
| [1, 2, NULL] |
+--------------+
1 row in set
!ok
SELECT ARRAY_APPEND(CAST(NULL AS ARRAY<INT>), 1);
+--------+
| EXPR$0 |
+--------+
| <NULL> |
+--------+
1 row in set
!ok
# sql_functions.yml ARRAY_SLICE: 1-based inclusive offsets, 0 is the start, negative from the end
SELECT ARRAY_SLICE(ARRAY[1, 2, 3, 4, 5], 2, 4);
+-----------+
|    EXPR$0 |
+-----------+
| [2, 3, 4] |
+-----------+
1 row in set
!ok
SELECT ARRAY_SLICE(ARRAY[1, 2, 3, 4, 5], 0, 2);
+--------+
| EXPR$0 |
+--------+
| [1, 2] |
+--------+
1 row in set
!ok
SELECT ARRAY_SLICE(ARRAY[1, 2, 3, 4, 5], -2);
+--------+
| EXPR$0 |
+--------+
| [4, 5] |
+--------+
1 row in set
!ok
SELECT ARRAY_SLICE(ARRAY[1, 2, 3, 4, 5], 4, 2);
+--------+
| EXPR$0 |
+--------+
|     [] |
+--------+
1 row in set
!ok
# sql_functions.yml ARRAY_SORT: ascending with NULLs first by default; descending puts NULLs last
SELECT ARRAY_SORT(ARRAY[3, CAST(NULL AS INT), 1, 2]);
+-----------------+
|          EXPR$0 |
+-----------------+
| [NULL, 1, 2, 3] |
+-----------------+
1 row in set
!ok
SELECT ARRAY_SORT(ARRAY[3, CAST(NULL AS INT), 1, 2], FALSE);
+-----------------+
|          EXPR$0 |
+-----------------+
| [3, 2, 1, NULL] |
+-----------------+
1 row in set
!ok
SELECT ARRAY_SORT(ARRAY[3, CAST(NULL AS INT), 1, 2], TRUE, FALSE);
+-----------------+
|          EXPR$0 |
+-----------------+
| [1, 2, 3, NULL] |
+-----------------+
1 row in set
!ok
# sql_functions.yml ARRAY_UNION / ARRAY_CONCAT / ARRAY_EXCEPT / ARRAY_INTERSECT
SELECT ARRAY_UNION(ARRAY[1, 2, 2], ARRAY[2, 3]);
+-----------+
|    EXPR$0 |
+-----------+
| [1, 2, 3] |
+-----------+
1 row in set
!ok
SELECT ARRAY_CONCAT(ARRAY[1, 2], ARRAY[2, 3], ARRAY[4]);
+-----------------+
|          EXPR$0 |
+-----------------+
| [1, 2, 2, 3, 4] |
+-----------------+
1 row in set
!ok
SELECT ARRAY_CONCAT(ARRAY[1], CAST(NULL AS ARRAY<INT>));
+--------+
| EXPR$0 |
+--------+
| <NULL> |
+--------+
1 row in set
!ok
SELECT ARRAY_EXCEPT(ARRAY[1, 2, 2, 3], ARRAY[2]);
+--------+
| EXPR$0 |
+--------+
| [1, 3] |
+--------+
1 row in set
!ok
SELECT ARRAY_INTERSECT(ARRAY[1, 2, 2, 3], ARRAY[3, 2, 5]);
+--------+
| EXPR$0 |
+--------+
| [2, 3] |
+--------+
1 row in set
!ok
SELECT ARRAY_EXCEPT(ARRAY[1], ARRAY[1]);
+--------+
| EXPR$0 |
+--------+
|     [] |
+--------+
1 row in set
!ok
# sql_functions.yml ARRAY_MAX / ARRAY_MIN / ARRAY_JOIN
SELECT ARRAY_MAX(ARRAY[3, 7, 5]), ARRAY_MIN(ARRAY[3, 7, 5]);
+--------+--------+
| EXPR$0 | EXPR$1 |
+--------+--------+
|      7 |      3 |
+--------+--------+
1 row in set
!ok
SELECT ARRAY_MAX(ARRAY['b', 'c', 'a']);
+--------+
| EXPR$0 |
+--------+
|      c |
+--------+
1 row in set
!ok
SELECT ARRAY_JOIN(ARRAY['a', CAST(NULL AS STRING), 'c'], '-');
+--------+
| EXPR$0 |
+--------+
|    a-c |
+--------+
1 row in set
!ok
SELECT ARRAY_JOIN(ARRAY['a', CAST(NULL AS STRING), 'c'], '-', 'x');
+--------+
| EXPR$0 |
+--------+
|  a-x-c |
+--------+
1 row in set
!ok
# sql_functions.yml MAP_KEYS / MAP_VALUES / MAP_ENTRIES / MAP_UNION / MAP_FROM_ARRAYS
SELECT MAP_KEYS(MAP['a', 1, 'b', 2]), MAP_VALUES(MAP['a', 1, 'b', 2]);
+--------+--------+
| EXPR$0 | EXPR$1 |
+--------+--------+
| [a, b] | [1, 2] |
+--------+--------+
1 row in set
!ok
SELECT MAP_ENTRIES(MAP['a', 1, 'b', 2]);
+------------------+
|           EXPR$0 |
+------------------+
| [(a, 1), (b, 2)] |
+------------------+
1 row in set
!ok
# riffle-only: MAP rendering order: Flink keeps MAP_UNION entries in hash order
SELECT MAP_UNION(MAP['a', 1, 'b', 2], MAP['b', 3, 'c', 4]);
+-----------------+
|          EXPR$0 |
+-----------------+
| {a=1, b=3, c=4} |
+-----------------+
1 row in set
!ok
SELECT MAP_FROM_ARRAYS(ARRAY['a', 'b'], ARRAY[1, 2]);
+------------+
|     EXPR$0 |
+------------+
| {a=1, b=2} |
+------------+
1 row in set
!ok
SELECT MAP_FROM_ARRAYS(ARRAY['a', 'b'], ARRAY[1]);
[ERROR] Could not execute SQL statement. Reason:
The length of the keys array 2 is not equal to the length of the values array 1
!error
# a later duplicate key wins in a MAP constructor
SELECT MAP['a', 1, 'a', 2];
+--------+
| EXPR$0 |
+--------+
|  {a=2} |
+--------+
1 row in set
!ok

# sql_functions.yml IS JSON examples
SELECT '1' IS JSON, '[]' IS JSON, '{}' IS JSON;
+--------+--------+--------+
| EXPR$0 | EXPR$1 | EXPR$2 |
+--------+--------+--------+
|   TRUE |   TRUE |   TRUE |
+--------+--------+--------+
1 row in set
!ok
SELECT '"abc"' IS JSON, 'abc' IS JSON, CAST(NULL AS STRING) IS JSON;
+--------+--------+--------+
| EXPR$0 | EXPR$1 | EXPR$2 |
+--------+--------+--------+
|   TRUE |  FALSE |  FALSE |
+--------+--------+--------+
1 row in set
!ok
SELECT '1' IS JSON SCALAR, '1' IS JSON ARRAY, '1' IS JSON OBJECT;
+--------+--------+--------+
| EXPR$0 | EXPR$1 | EXPR$2 |
+--------+--------+--------+
|   TRUE |  FALSE |  FALSE |
+--------+--------+--------+
1 row in set
!ok
SELECT '{}' IS JSON SCALAR, '{}' IS JSON ARRAY, '{}' IS JSON OBJECT;
+--------+--------+--------+
| EXPR$0 | EXPR$1 | EXPR$2 |
+--------+--------+--------+
|  FALSE |  FALSE |   TRUE |
+--------+--------+--------+
1 row in set
!ok
SELECT 'abc' IS NOT JSON;
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
# sql_functions.yml JSON_EXISTS / seed §6 E-42
SELECT JSON_EXISTS('{"a": true}', '$.a');
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT JSON_EXISTS('{"a": true}', '$.b');
+--------+
| EXPR$0 |
+--------+
|  FALSE |
+--------+
1 row in set
!ok
SELECT JSON_EXISTS('{"a": [{ "b": 1 }]}', '$.a[0].b');
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT JSON_EXISTS('{"a": true}', 'strict $.b' TRUE ON ERROR);
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT JSON_EXISTS('{"a": true}', 'strict $.b' FALSE ON ERROR);
+--------+
| EXPR$0 |
+--------+
|  FALSE |
+--------+
1 row in set
!ok
SELECT JSON_EXISTS('{"a": true}', 'strict $.b' UNKNOWN ON ERROR);
+--------+
| EXPR$0 |
+--------+
| <NULL> |
+--------+
1 row in set
!ok
SELECT JSON_EXISTS('{"a": true}', 'strict $.b' ERROR ON ERROR);
[ERROR] Could not execute SQL statement. Reason:
No results for path
!error
# sql_functions.yml JSON_STRING examples
SELECT JSON_STRING(CAST(NULL AS INT));
+--------+
| EXPR$0 |
+--------+
| <NULL> |
+--------+
1 row in set
!ok
SELECT JSON_STRING(1), JSON_STRING(TRUE), JSON_STRING('Hello, World!'), JSON_STRING(ARRAY[1, 2]);
+--------+--------+-----------------+--------+
| EXPR$0 | EXPR$1 |          EXPR$2 | EXPR$3 |
+--------+--------+-----------------+--------+
|      1 |   true | "Hello, World!" |  [1,2] |
+--------+--------+-----------------+--------+
1 row in set
!ok
# sql_functions.yml JSON_VALUE examples / seed §6 E-43
SELECT JSON_VALUE('{"a": true}', '$.a');
+--------+
| EXPR$0 |
+--------+
|   true |
+--------+
1 row in set
!ok
SELECT JSON_VALUE('{"a": true}', '$.a' RETURNING BOOLEAN);
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT JSON_VALUE('{"a": true}', 'lax $.b' DEFAULT FALSE ON EMPTY);
+--------+
| EXPR$0 |
+--------+
|  false |
+--------+
1 row in set
!ok
SELECT JSON_VALUE('{"a": true}', 'strict $.b' DEFAULT FALSE ON ERROR);
+--------+
| EXPR$0 |
+--------+
|  false |
+--------+
1 row in set
!ok
SELECT JSON_VALUE('{"a.b": [0.998,0.996]}','$.["a.b"][0]' RETURNING DOUBLE);
+--------+
| EXPR$0 |
+--------+
|  0.998 |
+--------+
1 row in set
!ok
SELECT JSON_VALUE('{"contains blank": "right"}', 'strict $.[''contains blank'']' NULL ON EMPTY DEFAULT 'wrong' ON ERROR);
+--------+
| EXPR$0 |
+--------+
|  right |
+--------+
1 row in set
!ok
SELECT JSON_VALUE('{"a b": "true"}', '$.[''a b'']');
+--------+
| EXPR$0 |
+--------+
|   true |
+--------+
1 row in set
!ok
# defaults: NULL ON EMPTY, NULL ON ERROR
SELECT JSON_VALUE('{"a": 1}', '$.b'), JSON_VALUE('not json', '$.a');
+--------+--------+
| EXPR$0 | EXPR$1 |
+--------+--------+
| <NULL> | <NULL> |
+--------+--------+
1 row in set
!ok
# riffle-only: Flink returns NULL for JSON_VALUE ... ERROR ON EMPTY where the path matches nothing
SELECT JSON_VALUE('{"a": 1}', '$.b' ERROR ON EMPTY);
[ERROR] Could not execute SQL statement. Reason:
Empty result of JSON_VALUE function is not allowed
!error
SELECT JSON_VALUE('{"a": {"b": 1}}', '$.a');
+--------+
| EXPR$0 |
+--------+
| <NULL> |
+--------+
1 row in set
!ok
SELECT JSON_VALUE('{"a": 42}', '$.a' RETURNING INT) + 1;
+--------+
| EXPR$0 |
+--------+
|     43 |
+--------+
1 row in set
!ok
# sql_functions.yml JSON_QUERY examples
SELECT JSON_QUERY('{ "a": { "b": 1 } }', '$.a');
+---------+
|  EXPR$0 |
+---------+
| {"b":1} |
+---------+
1 row in set
!ok
SELECT JSON_QUERY('[1, 2]', '$');
+--------+
| EXPR$0 |
+--------+
|  [1,2] |
+--------+
1 row in set
!ok
SELECT JSON_QUERY(CAST(NULL AS STRING), '$');
+--------+
| EXPR$0 |
+--------+
| <NULL> |
+--------+
1 row in set
!ok
SELECT JSON_QUERY('{"a":[{"c":"c1"},{"c":"c2"}]}', 'lax $.a[*].c');
+-------------+
|      EXPR$0 |
+-------------+
| ["c1","c2"] |
+-------------+
1 row in set
!ok
SELECT JSON_QUERY('{"a":[{"c":"c1"},{"c":"c2"}]}', 'lax $.a[*].c' RETURNING ARRAY<STRING>);
+----------+
|   EXPR$0 |
+----------+
| [c1, c2] |
+----------+
1 row in set
!ok
SELECT JSON_QUERY('{}', '$' WITH CONDITIONAL ARRAY WRAPPER);
+--------+
| EXPR$0 |
+--------+
|   [{}] |
+--------+
1 row in set
!ok
SELECT JSON_QUERY('[1, 2]', '$' WITH CONDITIONAL ARRAY WRAPPER);
+--------+
| EXPR$0 |
+--------+
|  [1,2] |
+--------+
1 row in set
!ok
SELECT JSON_QUERY('[1, 2]', '$' WITH UNCONDITIONAL ARRAY WRAPPER);
+---------+
|  EXPR$0 |
+---------+
| [[1,2]] |
+---------+
1 row in set
!ok
SELECT JSON_QUERY('1', '$');
+--------+
| EXPR$0 |
+--------+
| <NULL> |
+--------+
1 row in set
!ok
SELECT JSON_QUERY('1', '$' WITH CONDITIONAL ARRAY WRAPPER);
+--------+
| EXPR$0 |
+--------+
|    [1] |
+--------+
1 row in set
!ok
SELECT JSON_QUERY('{}', 'lax $.invalid' EMPTY OBJECT ON EMPTY);
+--------+
| EXPR$0 |
+--------+
|     {} |
+--------+
1 row in set
!ok
SELECT JSON_QUERY('{}', 'strict $.invalid' EMPTY ARRAY ON ERROR);
+--------+
| EXPR$0 |
+--------+
|     [] |
+--------+
1 row in set
!ok
# sql_functions.yml JSON_OBJECT examples
SELECT JSON_OBJECT();
+--------+
| EXPR$0 |
+--------+
|     {} |
+--------+
1 row in set
!ok
SELECT JSON_OBJECT('K1' VALUE 'V1', 'K2' VALUE 'V2');
+-----------------------+
|                EXPR$0 |
+-----------------------+
| {"K1":"V1","K2":"V2"} |
+-----------------------+
1 row in set
!ok
SELECT JSON_OBJECT(KEY 'K1' VALUE CAST(NULL AS STRING) NULL ON NULL);
+-------------+
|      EXPR$0 |
+-------------+
| {"K1":null} |
+-------------+
1 row in set
!ok
SELECT JSON_OBJECT(KEY 'K1' VALUE CAST(NULL AS STRING) ABSENT ON NULL);
+--------+
| EXPR$0 |
+--------+
|     {} |
+--------+
1 row in set
!ok
SELECT JSON_OBJECT(KEY 'K1' VALUE JSON_OBJECT(KEY 'K2' VALUE 'V'));
+-------------------+
|            EXPR$0 |
+-------------------+
| {"K1":{"K2":"V"}} |
+-------------------+
1 row in set
!ok
SELECT JSON_OBJECT('orderNo' VALUE o) FROM (VALUES (42)) AS orders(o);
+----------------+
|         EXPR$0 |
+----------------+
| {"orderNo":42} |
+----------------+
1 row in set
!ok
# sql_functions.yml JSON_ARRAY examples
SELECT JSON_ARRAY();
+--------+
| EXPR$0 |
+--------+
|     [] |
+--------+
1 row in set
!ok
SELECT JSON_ARRAY(1, '2');
+---------+
|  EXPR$0 |
+---------+
| [1,"2"] |
+---------+
1 row in set
!ok
SELECT JSON_ARRAY(CAST(NULL AS STRING) NULL ON NULL);
+--------+
| EXPR$0 |
+--------+
| [null] |
+--------+
1 row in set
!ok
SELECT JSON_ARRAY(CAST(NULL AS STRING) ABSENT ON NULL);
+--------+
| EXPR$0 |
+--------+
|     [] |
+--------+
1 row in set
!ok
SELECT JSON_ARRAY(JSON_ARRAY(1));
+--------+
| EXPR$0 |
+--------+
|  [[1]] |
+--------+
1 row in set
!ok
