# string.q - string functions.
# Sources: docs/data/sql_functions.yml ("string" section; the examples quoted
# in the comments), flink-table-planner/.../expressions/SqlExpressionTest.scala
# (testStringFunctions), StringFunctionsITCase.java (TRANSLATE, ELT),
# RegexpFunctionsITCase.java (REGEXP_*), and the seed inventory §6
# (E-19..E-29). A value derived from a documented rule (no example) says so.

SET 'execution.runtime-mode' = 'batch';
[INFO] Execute statement succeeded.
!info
SET 'sql-client.display.max-column-width' = '60';
[INFO] Execute statement succeeded.
!info

# SqlExpressionTest.testStringFunctions
SELECT 'test' || 'string';
+------------+
|     EXPR$0 |
+------------+
| teststring |
+------------+
1 row in set
!ok
SELECT CHAR_LENGTH('string');
+--------+
| EXPR$0 |
+--------+
|      6 |
+--------+
1 row in set
!ok
SELECT CHARACTER_LENGTH('string');
+--------+
| EXPR$0 |
+--------+
|      6 |
+--------+
1 row in set
!ok
SELECT UPPER('string');
+--------+
| EXPR$0 |
+--------+
| STRING |
+--------+
1 row in set
!ok
SELECT LOWER('STRING');
+--------+
| EXPR$0 |
+--------+
| string |
+--------+
1 row in set
!ok
SELECT POSITION('STR' IN 'STRING');
+--------+
| EXPR$0 |
+--------+
|      1 |
+--------+
1 row in set
!ok
# (the parser needs FROM after BOTH here: TRIM(BOTH ' STRING ') is not parsed yet)
SELECT TRIM(BOTH FROM ' STRING ');
+--------+
| EXPR$0 |
+--------+
| STRING |
+--------+
1 row in set
!ok
SELECT TRIM(LEADING 'x' FROM 'xxxxSTRINGxxxx');
+------------+
|     EXPR$0 |
+------------+
| STRINGxxxx |
+------------+
1 row in set
!ok
SELECT TRIM(TRAILING 'x' FROM 'xxxxSTRINGxxxx');
+------------+
|     EXPR$0 |
+------------+
| xxxxSTRING |
+------------+
1 row in set
!ok
SELECT OVERLAY('This is a old string' PLACING 'new' FROM 11 FOR 3);
+----------------------+
|               EXPR$0 |
+----------------------+
| This is a new string |
+----------------------+
1 row in set
!ok
SELECT SUBSTRING('hello world', 2);
+------------+
|     EXPR$0 |
+------------+
| ello world |
+------------+
1 row in set
!ok
SELECT SUBSTRING('hello world', 2, 3);
+--------+
| EXPR$0 |
+--------+
|    ell |
+--------+
1 row in set
!ok
SELECT SUBSTRING('hello world', 2, 300);
+------------+
|     EXPR$0 |
+------------+
| ello world |
+------------+
1 row in set
!ok
SELECT SUBSTR('hello world', 2, 3);
+--------+
| EXPR$0 |
+--------+
|    ell |
+--------+
1 row in set
!ok
SELECT SUBSTR('hello world', 2);
+------------+
|     EXPR$0 |
+------------+
| ello world |
+------------+
1 row in set
!ok
SELECT SUBSTR('hello world', 2, 300);
+------------+
|     EXPR$0 |
+------------+
| ello world |
+------------+
1 row in set
!ok
SELECT SUBSTR('hello world', 0, 3);
+--------+
| EXPR$0 |
+--------+
|    hel |
+--------+
1 row in set
!ok
SELECT INITCAP('hello world');
+-------------+
|      EXPR$0 |
+-------------+
| Hello World |
+-------------+
1 row in set
!ok
SELECT REGEXP_REPLACE('foobar', 'oo|ar', '');
+--------+
| EXPR$0 |
+--------+
|     fb |
+--------+
1 row in set
!ok
SELECT REGEXP_EXTRACT('foothebar', 'foo(.*?)(bar)', 2);
+--------+
| EXPR$0 |
+--------+
|    bar |
+--------+
1 row in set
!ok
SELECT REPEAT('This is a test String.', 2);
+----------------------------------------------+
|                                       EXPR$0 |
+----------------------------------------------+
| This is a test String.This is a test String. |
+----------------------------------------------+
1 row in set
!ok
SELECT REPLACE('hello world', 'world', 'flink');
+-------------+
|      EXPR$0 |
+-------------+
| hello flink |
+-------------+
1 row in set
!ok

# sql_functions.yml REPLACE: "'ababab'.replace('abab', 'z') returns 'zab'"
SELECT REPLACE('ababab', 'abab', 'z');
+--------+
| EXPR$0 |
+--------+
|    zab |
+--------+
1 row in set
!ok
# seed §6 E-23
SELECT REPLACE('This is a test String.', ' ', '_');
+------------------------+
|                 EXPR$0 |
+------------------------+
| This_is_a_test_String. |
+------------------------+
1 row in set
!ok
# sql_functions.yml CONCAT: "CONCAT('AA', 'BB', 'CC') returns AABBCC"; NULL if any argument is NULL (E-27)
SELECT CONCAT('AA', 'BB', 'CC');
+--------+
| EXPR$0 |
+--------+
| AABBCC |
+--------+
1 row in set
!ok
SELECT CONCAT('AA', CAST(NULL AS STRING), 'CC');
+--------+
| EXPR$0 |
+--------+
| <NULL> |
+--------+
1 row in set
!ok
# sql_functions.yml CONCAT_WS: "concat_ws('~', 'AA', Null(STRING), 'BB', '', 'CC') returns AA~BB~~CC"
SELECT CONCAT_WS('~', 'AA', CAST(NULL AS STRING), 'BB', '', 'CC');
+-----------+
|    EXPR$0 |
+-----------+
| AA~BB~~CC |
+-----------+
1 row in set
!ok
# E-27: a NULL separator gives NULL
SELECT CONCAT_WS(CAST(NULL AS STRING), 'AA', 'BB');
+--------+
| EXPR$0 |
+--------+
| <NULL> |
+--------+
1 row in set
!ok
# sql_functions.yml / seed §6 E-19, E-20: LPAD('hi', 4, '??') = '??hi', LPAD('hi', 1, '??') = 'h'
SELECT LPAD('hi', 4, '??');
+--------+
| EXPR$0 |
+--------+
|   ??hi |
+--------+
1 row in set
!ok
SELECT LPAD('hi', 1, '??');
+--------+
| EXPR$0 |
+--------+
|      h |
+--------+
1 row in set
!ok
SELECT RPAD('hi', 4, '??');
+--------+
| EXPR$0 |
+--------+
|   hi?? |
+--------+
1 row in set
!ok
SELECT RPAD('hi', 1, '??');
+--------+
| EXPR$0 |
+--------+
|      h |
+--------+
1 row in set
!ok
# seed §6 E-21 / sql_functions.yml OVERLAY
SELECT OVERLAY('xxxxxtest' PLACING 'xxxx' FROM 6);
+-----------+
|    EXPR$0 |
+-----------+
| xxxxxxxxx |
+-----------+
1 row in set
!ok
SELECT OVERLAY('xxxxxtest' PLACING 'xxxx' FROM 6 FOR 2);
+-------------+
|      EXPR$0 |
+-------------+
| xxxxxxxxxst |
+-------------+
1 row in set
!ok
# seed §6 E-22 / sql_functions.yml POSITION: 1-based; 0 when not found
SELECT POSITION('a' IN 'bbbbba');
+--------+
| EXPR$0 |
+--------+
|      6 |
+--------+
1 row in set
!ok
SELECT POSITION('c' IN 'bbbbba');
+--------+
| EXPR$0 |
+--------+
|      0 |
+--------+
1 row in set
!ok
# sql_functions.yml FROM_BASE64 / TO_BASE64
SELECT FROM_BASE64('aGVsbG8gd29ybGQ=');
+-------------+
|      EXPR$0 |
+-------------+
| hello world |
+-------------+
1 row in set
!ok
SELECT TO_BASE64('hello world');
+------------------+
|           EXPR$0 |
+------------------+
| aGVsbG8gd29ybGQ= |
+------------------+
1 row in set
!ok
SELECT TO_BASE64(FROM_BASE64(CAST(NULL AS VARCHAR)));
+--------+
| EXPR$0 |
+--------+
| <NULL> |
+--------+
1 row in set
!ok
# sql_functions.yml ASCII: "ascii('abc') returns 97, and ascii(CAST(NULL AS VARCHAR)) returns NULL"
SELECT ASCII('abc');
+--------+
| EXPR$0 |
+--------+
|     97 |
+--------+
1 row in set
!ok
SELECT ASCII(CAST(NULL AS VARCHAR));
+--------+
| EXPR$0 |
+--------+
| <NULL> |
+--------+
1 row in set
!ok
# sql_functions.yml CHR: "chr(97) returns a, chr(353) returns a"
SELECT CHR(97);
+--------+
| EXPR$0 |
+--------+
|      a |
+--------+
1 row in set
!ok
SELECT CHR(353);
+--------+
| EXPR$0 |
+--------+
|      a |
+--------+
1 row in set
!ok
# sql_functions.yml LTRIM / RTRIM examples
SELECT LTRIM(' This is a test String.');
+------------------------+
|                 EXPR$0 |
+------------------------+
| This is a test String. |
+------------------------+
1 row in set
!ok
SELECT RTRIM('This is a test String. ') || '>';
+-------------------------+
|                  EXPR$0 |
+-------------------------+
| This is a test String.> |
+-------------------------+
1 row in set
!ok
# sql_functions.yml LTRIM/RTRIM/BTRIM(str, trimStr): characters within trimStr are removed
SELECT LTRIM('xxabcxx', 'x');
+--------+
| EXPR$0 |
+--------+
|  abcxx |
+--------+
1 row in set
!ok
SELECT RTRIM('xxabcxx', 'x');
+--------+
| EXPR$0 |
+--------+
|  xxabc |
+--------+
1 row in set
!ok
SELECT BTRIM('  abc  ') || '>';
+--------+
| EXPR$0 |
+--------+
|   abc> |
+--------+
1 row in set
!ok
SELECT BTRIM('xyabcyx', 'xy');
+--------+
| EXPR$0 |
+--------+
|    abc |
+--------+
1 row in set
!ok
# sql_functions.yml PARSE_URL examples
SELECT PARSE_URL('http://facebook.com/path1/p.php?k1=v1&k2=v2#Ref1', 'HOST');
+--------------+
|       EXPR$0 |
+--------------+
| facebook.com |
+--------------+
1 row in set
!ok
SELECT PARSE_URL('http://facebook.com/path1/p.php?k1=v1&k2=v2#Ref1', 'QUERY', 'k1');
+--------+
| EXPR$0 |
+--------+
|     v1 |
+--------+
1 row in set
!ok
# PARSE_URL parts (java.net.URL): PATH, QUERY, REF, PROTOCOL, FILE
SELECT PARSE_URL('http://facebook.com/path1/p.php?k1=v1&k2=v2#Ref1', 'PATH');
+--------------+
|       EXPR$0 |
+--------------+
| /path1/p.php |
+--------------+
1 row in set
!ok
SELECT PARSE_URL('http://facebook.com/path1/p.php?k1=v1&k2=v2#Ref1', 'QUERY');
+-------------+
|      EXPR$0 |
+-------------+
| k1=v1&k2=v2 |
+-------------+
1 row in set
!ok
SELECT PARSE_URL('http://facebook.com/path1/p.php?k1=v1&k2=v2#Ref1', 'REF');
+--------+
| EXPR$0 |
+--------+
|   Ref1 |
+--------+
1 row in set
!ok
SELECT PARSE_URL('http://facebook.com/path1/p.php?k1=v1&k2=v2#Ref1', 'PROTOCOL');
+--------+
| EXPR$0 |
+--------+
|   http |
+--------+
1 row in set
!ok
SELECT PARSE_URL('http://facebook.com/path1/p.php?k1=v1&k2=v2#Ref1', 'FILE');
+--------------------------+
|                   EXPR$0 |
+--------------------------+
| /path1/p.php?k1=v1&k2=v2 |
+--------------------------+
1 row in set
!ok
# seed §6 E-24: LIKE 'Jo_n%' matches strings starting with "Jo", one character and "n"
SELECT 'John Smith' LIKE 'Jo_n%';
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT 'Joan' LIKE 'Jo_n%';
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT 'Jon' LIKE 'Jo_n%';
+--------+
| EXPR$0 |
+--------+
|  FALSE |
+--------+
1 row in set
!ok
# seed §6 E-25: SIMILAR TO 'A+' matches strings of at least one "A"
SELECT 'AAA' SIMILAR TO 'A+';
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT 'AAB' SIMILAR TO 'A+';
+--------+
| EXPR$0 |
+--------+
|  FALSE |
+--------+
1 row in set
!ok
SELECT '' SIMILAR TO 'A+';
+--------+
| EXPR$0 |
+--------+
|  FALSE |
+--------+
1 row in set
!ok
# seed §6 E-26 / sql_functions.yml INITCAP: words are runs of letters and digits
SELECT INITCAP('hello wOrLD');
+-------------+
|      EXPR$0 |
+-------------+
| Hello World |
+-------------+
1 row in set
!ok
SELECT INITCAP('o''rEILLy 123abc');
+-----------------+
|          EXPR$0 |
+-----------------+
| O'Reilly 123abc |
+-----------------+
1 row in set
!ok
# sql_functions.yml SPLIT_INDEX: zero-based index; NULL for a negative or too large index (rule)
SELECT SPLIT_INDEX('Jack,John,Mary', ',', 2);
+--------+
| EXPR$0 |
+--------+
|   Mary |
+--------+
1 row in set
!ok
SELECT SPLIT_INDEX('Jack,John,Mary', ',', 3);
+--------+
| EXPR$0 |
+--------+
| <NULL> |
+--------+
1 row in set
!ok
SELECT SPLIT_INDEX('Jack,John,Mary', ',', -1);
+--------+
| EXPR$0 |
+--------+
| <NULL> |
+--------+
1 row in set
!ok
# sql_functions.yml INSTR/LOCATE/LEFT/RIGHT (rules)
SELECT INSTR('hello world', 'o');
+--------+
| EXPR$0 |
+--------+
|      5 |
+--------+
1 row in set
!ok
SELECT LOCATE('o', 'hello world');
+--------+
| EXPR$0 |
+--------+
|      5 |
+--------+
1 row in set
!ok
SELECT LOCATE('o', 'hello world', 6);
+--------+
| EXPR$0 |
+--------+
|      8 |
+--------+
1 row in set
!ok
SELECT LOCATE('z', 'hello world');
+--------+
| EXPR$0 |
+--------+
|      0 |
+--------+
1 row in set
!ok
SELECT LEFT('hello', 2);
+--------+
| EXPR$0 |
+--------+
|     he |
+--------+
1 row in set
!ok
SELECT LEFT('hello', -1) || '>';
+--------+
| EXPR$0 |
+--------+
|      > |
+--------+
1 row in set
!ok
SELECT RIGHT('hello', 2);
+--------+
| EXPR$0 |
+--------+
|     lo |
+--------+
1 row in set
!ok
SELECT REVERSE('hello');
+--------+
| EXPR$0 |
+--------+
|  olleh |
+--------+
1 row in set
!ok
# sql_functions.yml REGEXP: TRUE if any substring matches
SELECT REGEXP('foobar', 'o+b');
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT REGEXP('foobar', '^o');
+--------+
| EXPR$0 |
+--------+
|  FALSE |
+--------+
1 row in set
!ok
# sql_functions.yml STR_TO_MAP: default delimiters ',' and '='
SELECT STR_TO_MAP('k1=v1,k2=v2');
+----------------+
|         EXPR$0 |
+----------------+
| {k1=v1, k2=v2} |
+----------------+
1 row in set
!ok
SELECT STR_TO_MAP('k1:v1;k2:v2', ';', ':')['k2'];
+--------+
| EXPR$0 |
+--------+
|     v2 |
+--------+
1 row in set
!ok
# StringFunctionsITCase: TRANSLATE
SELECT TRANSLATE('www.apache.org', 'abc', '123');
+----------------+
|         EXPR$0 |
+----------------+
| www.1p13he.org |
+----------------+
1 row in set
!ok
SELECT TRANSLATE('www.apache.org', 'abcde', '123');
+---------------+
|        EXPR$0 |
+---------------+
| www.1p13h.org |
+---------------+
1 row in set
!ok
SELECT TRANSLATE('www.apache.org', 'abcae', '12345');
+----------------+
|         EXPR$0 |
+----------------+
| www.1p13h5.org |
+----------------+
1 row in set
!ok
SELECT TRANSLATE('www.apache.org', 'abc', 'ABC');
+----------------+
|         EXPR$0 |
+----------------+
| www.ApAChe.org |
+----------------+
1 row in set
!ok
SELECT '[' || TRANSLATE('www.apache.org', 'abcworg', '123 ') || ']';
+---------------+
|        EXPR$0 |
+---------------+
| [   .1p13he.] |
+---------------+
1 row in set
!ok
SELECT TRANSLATE('www.apache.org', CAST(NULL AS STRING), '123');
+----------------+
|         EXPR$0 |
+----------------+
| www.apache.org |
+----------------+
1 row in set
!ok
SELECT TRANSLATE('www.apache.org', 'abc', CAST(NULL AS STRING));
+-------------+
|      EXPR$0 |
+-------------+
| www.phe.org |
+-------------+
1 row in set
!ok
SELECT TRANSLATE(CAST(NULL AS STRING), 'abc', '123');
+--------+
| EXPR$0 |
+--------+
| <NULL> |
+--------+
1 row in set
!ok
# StringFunctionsITCase: ELT
SELECT ELT(1, 'scala', 'java');
+--------+
| EXPR$0 |
+--------+
|  scala |
+--------+
1 row in set
!ok
SELECT ELT(2, 'a', 'b');
+--------+
| EXPR$0 |
+--------+
|      b |
+--------+
1 row in set
!ok
SELECT ELT(CAST(NULL AS INT), 'a', 'b');
+--------+
| EXPR$0 |
+--------+
| <NULL> |
+--------+
1 row in set
!ok
# an index out of range gives NULL (Flink's EltFunction, FLINK-35987)
SELECT ELT(4, 'a', 'b', 'c') AS x, ELT(0, 'a') AS y;
+--------+--------+
|      x |      y |
+--------+--------+
| <NULL> | <NULL> |
+--------+--------+
1 row in set
!ok
# a negative literal index is rejected while planning; at run time a
# negative index gives NULL like any other out of range
SELECT ELT(-1, 'a') AS z;
[ERROR] Could not execute SQL statement. Reason:
Index must be an integer starting from '0', but was '-1'.
!error
SELECT ELT(x, 'a') AS z FROM (VALUES (-1), (1)) AS t(x);
+--------+
|      z |
+--------+
| <NULL> |
|      a |
+--------+
2 rows in set
!ok
# RegexpFunctionsITCase: REGEXP_COUNT
SELECT REGEXP_COUNT('hello world! Hello everyone!', 'Hello');
+--------+
| EXPR$0 |
+--------+
|      1 |
+--------+
1 row in set
!ok
SELECT REGEXP_COUNT('abcabcabc', 'abcab');
+--------+
| EXPR$0 |
+--------+
|      1 |
+--------+
1 row in set
!ok
SELECT REGEXP_COUNT('abcd', 'z');
+--------+
| EXPR$0 |
+--------+
|      0 |
+--------+
1 row in set
!ok
SELECT REGEXP_COUNT('a.b.c.d', '\.');
+--------+
| EXPR$0 |
+--------+
|      3 |
+--------+
1 row in set
!ok
SELECT REGEXP_COUNT('abc123xyz456', '\d');
+--------+
| EXPR$0 |
+--------+
|      6 |
+--------+
1 row in set
!ok
SELECT REGEXP_COUNT('Helloworld! Hello everyone!', '\bHello\b');
+--------+
| EXPR$0 |
+--------+
|      1 |
+--------+
1 row in set
!ok
SELECT REGEXP_COUNT('abcdeabde', '(');
+--------+
| EXPR$0 |
+--------+
| <NULL> |
+--------+
1 row in set
!ok
# RegexpFunctionsITCase: REGEXP_EXTRACT_ALL
SELECT REGEXP_EXTRACT_ALL('100-200, 300-400', '(\d+)-(\d+)', 0);
+--------------------+
|             EXPR$0 |
+--------------------+
| [100-200, 300-400] |
+--------------------+
1 row in set
!ok
SELECT REGEXP_EXTRACT_ALL('100-200, 300-400', '(\d+)-(\d+)', 1);
+------------+
|     EXPR$0 |
+------------+
| [100, 300] |
+------------+
1 row in set
!ok
SELECT REGEXP_EXTRACT_ALL('100-200, 300-400', '(\d+)-(\d+)', 2);
+------------+
|     EXPR$0 |
+------------+
| [200, 400] |
+------------+
1 row in set
!ok
SELECT REGEXP_EXTRACT_ALL('100-200, 300-400', '(\d+).*', 1);
+--------+
| EXPR$0 |
+--------+
|  [100] |
+--------+
1 row in set
!ok
SELECT REGEXP_EXTRACT_ALL('abcdeabde', '(ab)([a-z]+)(e)', 2);
+----------+
|   EXPR$0 |
+----------+
| [cdeabd] |
+----------+
1 row in set
!ok
SELECT REGEXP_EXTRACT_ALL('abcdeabde', '(abcdeabde)|([a-z]*)', 2);
+----------+
|   EXPR$0 |
+----------+
| [NULL, ] |
+----------+
1 row in set
!ok
SELECT REGEXP_EXTRACT_ALL('abcdeabde', 'ab((c)|(.?))de', 2);
+-----------+
|    EXPR$0 |
+-----------+
| [c, NULL] |
+-----------+
1 row in set
!ok
SELECT REGEXP_EXTRACT_ALL('100-200, 300-400', '[a-z]', 0);
+--------+
| EXPR$0 |
+--------+
|     [] |
+--------+
1 row in set
!ok
SELECT REGEXP_EXTRACT_ALL('abcdeabde', 'abcdeabde');
+--------+
| EXPR$0 |
+--------+
| <NULL> |
+--------+
1 row in set
!ok
SELECT REGEXP_EXTRACT_ALL('abcdeabde', '(abcdeabde)', -1);
+--------+
| EXPR$0 |
+--------+
| <NULL> |
+--------+
1 row in set
!ok
# RegexpFunctionsITCase: REGEXP_INSTR
SELECT REGEXP_INSTR('hello world! Hello everyone!', 'Hello');
+--------+
| EXPR$0 |
+--------+
|     14 |
+--------+
1 row in set
!ok
SELECT REGEXP_INSTR('a.b.c.d', '\.');
+--------+
| EXPR$0 |
+--------+
|      2 |
+--------+
1 row in set
!ok
SELECT REGEXP_INSTR('abc123xyz456', '\d');
+--------+
| EXPR$0 |
+--------+
|      4 |
+--------+
1 row in set
!ok
SELECT REGEXP_INSTR('Helloworld! Hello everyone!', '\bHello\b');
+--------+
| EXPR$0 |
+--------+
|     13 |
+--------+
1 row in set
!ok
SELECT REGEXP_INSTR('100-200, 300-400', '[a-z]');
+--------+
| EXPR$0 |
+--------+
|      0 |
+--------+
1 row in set
!ok
# RegexpFunctionsITCase: REGEXP_EXTRACT returns NULL without a match
SELECT REGEXP_EXTRACT('22', '[A-Z]+');
+--------+
| EXPR$0 |
+--------+
| <NULL> |
+--------+
1 row in set
!ok
SELECT REGEXP_EXTRACT('ABC', '[A-Z]+');
+--------+
| EXPR$0 |
+--------+
|    ABC |
+--------+
1 row in set
!ok
# sql_functions.yml REGEXP_SUBSTR: the first match, NULL when none
SELECT REGEXP_SUBSTR('abc123xyz456', '\d+');
+--------+
| EXPR$0 |
+--------+
|    123 |
+--------+
1 row in set
!ok
SELECT REGEXP_SUBSTR('abc', '\d+');
+--------+
| EXPR$0 |
+--------+
| <NULL> |
+--------+
1 row in set
!ok
# Java regex constructs RE2 lacks (backreference, lookahead) work too
SELECT REGEXP('abcabc', '(abc)\1');
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT REGEXP_EXTRACT('price: 100 USD', '\d+(?= USD)');
+--------+
| EXPR$0 |
+--------+
|    100 |
+--------+
1 row in set
!ok
# sql_functions.yml STARTSWITH / ENDSWITH: an empty prefix or suffix is TRUE
SELECT STARTSWITH('Apache Flink', 'Apache');
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT STARTSWITH('Apache Flink', '');
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT ENDSWITH('Apache Flink', 'Flink');
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT ENDSWITH('Apache Flink', 'Apache');
+--------+
| EXPR$0 |
+--------+
|  FALSE |
+--------+
1 row in set
!ok
# sql_functions.yml SPLIT: delimiter not found -> the string; '' -> every character; empty strings kept
SELECT SPLIT('a,b,c', ',');
+-----------+
|    EXPR$0 |
+-----------+
| [a, b, c] |
+-----------+
1 row in set
!ok
SELECT SPLIT('abc', ',');
+--------+
| EXPR$0 |
+--------+
|  [abc] |
+--------+
1 row in set
!ok
SELECT SPLIT('abc', '');
+-----------+
|    EXPR$0 |
+-----------+
| [a, b, c] |
+-----------+
1 row in set
!ok
SELECT SPLIT(',a,,b,', ',');
+--------------+
|       EXPR$0 |
+--------------+
| [, a, , b, ] |
+--------------+
1 row in set
!ok
# sql_functions.yml URL_ENCODE / URL_DECODE (application/x-www-form-urlencoded, UTF-8)
SELECT URL_ENCODE('a b&c=d/e');
+-----------------+
|          EXPR$0 |
+-----------------+
| a+b%26c%3Dd%2Fe |
+-----------------+
1 row in set
!ok
SELECT URL_DECODE('a+b%26c%3Dd%2Fe');
+-----------+
|    EXPR$0 |
+-----------+
| a b&c=d/e |
+-----------+
1 row in set
!ok
SELECT URL_DECODE('%zz');
+--------+
| EXPR$0 |
+--------+
| <NULL> |
+--------+
1 row in set
!ok
# sql_functions.yml JSON_QUOTE / JSON_UNQUOTE
SELECT JSON_QUOTE('a"b');
+--------+
| EXPR$0 |
+--------+
| "a\"b" |
+--------+
1 row in set
!ok
SELECT JSON_UNQUOTE('"a\"b"');
+--------+
| EXPR$0 |
+--------+
|    a"b |
+--------+
1 row in set
!ok
SELECT JSON_UNQUOTE('abc');
+--------+
| EXPR$0 |
+--------+
|    abc |
+--------+
1 row in set
!ok
# sql_functions.yml IS_ALPHA / IS_DIGIT / IS_DECIMAL
SELECT IS_ALPHA('abc');
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT IS_ALPHA('ab1');
+--------+
| EXPR$0 |
+--------+
|  FALSE |
+--------+
1 row in set
!ok
SELECT IS_DIGIT('123');
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT IS_DECIMAL('12.5');
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
SELECT IS_DECIMAL('abc');
+--------+
| EXPR$0 |
+--------+
|  FALSE |
+--------+
1 row in set
!ok
# sql_functions.yml ENCODE / DECODE with a charset
SELECT DECODE(ENCODE('hello', 'UTF-8'), 'UTF-8');
+--------+
| EXPR$0 |
+--------+
|  hello |
+--------+
1 row in set
!ok
SELECT ENCODE('hi', 'UTF-16BE');
+-------------+
|      EXPR$0 |
+-------------+
| x'00680069' |
+-------------+
1 row in set
!ok
# sql_functions.yml PRINTF (java.util.Formatter, Locale.US); null formats as "null"
# riffle-only: Flink returns NULL for PRINTF with %d and %.2f over INT and DECIMAL arguments
SELECT PRINTF('%s has %d items at %.2f', 'cart', 3, 4.5);
+--------------------------+
|                   EXPR$0 |
+--------------------------+
| cart has 3 items at 4.50 |
+--------------------------+
1 row in set
!ok
SELECT PRINTF('[%5d][%-5s]', 42, 'ab');
+----------------+
|         EXPR$0 |
+----------------+
| [   42][ab   ] |
+----------------+
1 row in set
!ok
SELECT PRINTF('%s', CAST(NULL AS STRING));
+--------+
| EXPR$0 |
+--------+
|   null |
+--------+
1 row in set
!ok
# seed §6 E-29 / sql_functions.yml UUID: 36 characters in 8-4-4-4-12 form, version 4
SELECT CHAR_LENGTH(UUID());
+--------+
| EXPR$0 |
+--------+
|     36 |
+--------+
1 row in set
!ok
SELECT REGEXP(UUID(), '^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$');
+--------+
| EXPR$0 |
+--------+
|   TRUE |
+--------+
1 row in set
!ok
