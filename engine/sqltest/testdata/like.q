# like.q - LIKE / SIMILAR TO with ESCAPE.
# Sources: Calcite's Like.sqlToRegexLike (which Flink's SqlLikeUtils
# copies): the ESCAPE string must be one character ("Invalid escape
# character '...'"), and the escape character must be followed by '_', '%'
# or itself ("Invalid escape sequence '<pattern>', <index>");
# sql_functions.yml (LIKE ... ESCAPE).

SET 'execution.runtime-mode' = 'batch';
[INFO] Execute statement succeeded.
!info

SELECT 'a_b' LIKE 'a!_b' ESCAPE '!', 'axb' LIKE 'a!_b' ESCAPE '!', 'a%b' LIKE 'a!%b' ESCAPE '!', 'a!b' LIKE 'a!!b' ESCAPE '!';
+--------+--------+--------+--------+
| EXPR$0 | EXPR$1 | EXPR$2 | EXPR$3 |
+--------+--------+--------+--------+
|   TRUE |  FALSE |   TRUE |   TRUE |
+--------+--------+--------+--------+
1 row in set
!ok
SELECT 'a_b' NOT LIKE 'a!_b' ESCAPE '!';
+--------+
| EXPR$0 |
+--------+
|  FALSE |
+--------+
1 row in set
!ok
SELECT 'a_b' LIKE 'a!_b' ESCAPE '!!';
[ERROR] Could not execute SQL statement. Reason:
Invalid escape character '!!'
!error
SELECT 'a_b' LIKE 'a_b' ESCAPE '';
[ERROR] Could not execute SQL statement. Reason:
Invalid escape character ''
!error
SELECT 'abc' LIKE 'a!bc' ESCAPE '!';
[ERROR] Could not execute SQL statement. Reason:
Invalid escape sequence 'a!bc', 1
!error
SELECT 'ab!' LIKE 'ab!' ESCAPE '!';
[ERROR] Could not execute SQL statement. Reason:
Invalid escape sequence 'ab!', 2
!error
SELECT s LIKE 'a!_b' ESCAPE e FROM (VALUES ('a_b', '!'), ('a_b', '!!')) AS t(s, e);
[ERROR] Could not execute SQL statement. Reason:
Invalid escape character '!!'
!error
SELECT 'ab' SIMILAR TO 'ab' ESCAPE 'xy';
[ERROR] Could not execute SQL statement. Reason:
Invalid escape character 'xy'
!error
