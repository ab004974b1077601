# lazy_eval.q - AND, OR and CASE evaluated lazily, with the operands of AND
# and OR put in order of cost (a regular expression after a column) and
# expressions shared between the filter and the projection computed once.
# Expected values are SQL's three-valued logic (Flink docs/data/sql_functions.yml,
# "logical" section: TRUE OR UNKNOWN is TRUE, FALSE AND UNKNOWN is FALSE, ...):
# every pair of TRUE, FALSE and UNKNOWN is tested with the expensive operand
# written first and last.

SET 'execution.runtime-mode' = 'batch';
[INFO] Execute statement succeeded.
!info

# re: REGEXP(url, 'id=1') is TRUE for 'id=1', FALSE for 'id=2', NULL for NULL
CREATE TEMPORARY VIEW t AS SELECT * FROM (VALUES
  (1, 'id=1', TRUE), (2, 'id=1', FALSE), (3, 'id=1', CAST(NULL AS BOOLEAN)),
  (4, 'id=2', TRUE), (5, 'id=2', FALSE), (6, 'id=2', CAST(NULL AS BOOLEAN)),
  (7, CAST(NULL AS STRING), TRUE), (8, CAST(NULL AS STRING), FALSE), (9, CAST(NULL AS STRING), CAST(NULL AS BOOLEAN))
) AS v(id, url, flag);
[INFO] Execute statement succeeded.
!info

SELECT id, REGEXP(url, 'id=1') OR flag AS re_or_f, flag OR REGEXP(url, 'id=1') AS f_or_re,
  REGEXP(url, 'id=1') AND flag AS re_and_f, flag AND REGEXP(url, 'id=1') AS f_and_re FROM t;
+----+---------+---------+----------+----------+
| id | re_or_f | f_or_re | re_and_f | f_and_re |
+----+---------+---------+----------+----------+
|  1 |    TRUE |    TRUE |     TRUE |     TRUE |
|  2 |    TRUE |    TRUE |    FALSE |    FALSE |
|  3 |    TRUE |    TRUE |   <NULL> |   <NULL> |
|  4 |    TRUE |    TRUE |    FALSE |    FALSE |
|  5 |   FALSE |   FALSE |    FALSE |    FALSE |
|  6 |  <NULL> |  <NULL> |    FALSE |    FALSE |
|  7 |    TRUE |    TRUE |   <NULL> |   <NULL> |
|  8 |  <NULL> |  <NULL> |    FALSE |    FALSE |
|  9 |  <NULL> |  <NULL> |   <NULL> |   <NULL> |
+----+---------+---------+----------+----------+
9 rows in set
!unordered

SELECT id FROM t WHERE REGEXP(url, 'id=1') OR flag;
+----+
| id |
+----+
|  1 |
|  2 |
|  3 |
|  4 |
|  7 |
+----+
5 rows in set
!unordered

SELECT id FROM t WHERE REGEXP(url, 'id=1') AND flag IS NOT FALSE;
+----+
| id |
+----+
|  1 |
|  3 |
+----+
2 rows in set
!unordered

SELECT id FROM t WHERE NOT (REGEXP(url, 'id=1') AND flag);
+----+
| id |
+----+
|  2 |
|  4 |
|  5 |
|  6 |
|  8 |
+----+
5 rows in set
!unordered

# Nexmark q21's shape: LOWER(channel) in the filter and four CASE
# conditions is computed once per batch; the regular expression, in the
# filter and the ELSE branch, only on rows whose channel is not listed
CREATE TEMPORARY VIEW bids AS SELECT * FROM (VALUES
  (1, 'Apple', 'https://x/item.htm?query=1&channel_id=11'),
  (2, 'GOOGLE', CAST(NULL AS STRING)),
  (3, 'channel-3', 'https://x/item.htm?query=1&channel_id=33'),
  (4, 'channel-4', 'https://x/item.htm?query=1'),
  (5, CAST(NULL AS STRING), 'channel_id=55&a=b'),
  (6, CAST(NULL AS STRING), CAST(NULL AS STRING)),
  (7, 'Baidu', 'https://x/item.htm?query=1'),
  (8, 'channel-8', 'https://x/item.htm?query=1&channel_id='),
  (9, 'channel-9', 'https://x/item.htm?channel_id=9')
) AS v(id, channel, url);
[INFO] Execute statement succeeded.
!info

SELECT id, channel,
  CASE WHEN LOWER(channel) = 'apple' THEN '0' WHEN LOWER(channel) = 'google' THEN '1'
       WHEN LOWER(channel) = 'facebook' THEN '2' WHEN LOWER(channel) = 'baidu' THEN '3'
       ELSE REGEXP_EXTRACT(url, '(&|^)channel_id=([^&]*)', 2) END AS channel_id
FROM bids
WHERE REGEXP_EXTRACT(url, '(&|^)channel_id=([^&]*)', 2) IS NOT NULL OR LOWER(channel) IN ('apple', 'google', 'facebook', 'baidu');
+----+-----------+------------+
| id |   channel | channel_id |
+----+-----------+------------+
|  1 |     Apple |          0 |
|  2 |    GOOGLE |          1 |
|  3 | channel-3 |         33 |
|  5 |    <NULL> |         55 |
|  7 |     Baidu |          3 |
|  8 | channel-8 |            |
+----+-----------+------------+
6 rows in set
!unordered
