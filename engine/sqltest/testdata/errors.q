# errors.q - bad input fails with a position and a message naming the
# function, column, type or value; runtime failures fail the job with the
# value that caused them.
# Sources for the message texts: Calcite's CalciteResource (as Flink reports
# them: "No match found for function signature", "Column '...' not found in
# any table", "Object '...' not found", "Cannot apply '...' to arguments of
# type", "Illegal ... literal", "Aggregate function calls cannot be nested",
# "Expression '...' is not being grouped"); Flink's TypeInferenceUtil
# ("Invalid number of arguments to function '...'. Was expecting ...",
# "Invalid function call"); Flink's parser (FlinkSqlParserImpl:
# "Encountered ... at line L, column C"); the planner test
# ImplicitConversionEqualsFunctionITCase ("implicit type conversion between
# ... is not supported now").

SET 'execution.runtime-mode' = 'batch';
[INFO] Execute statement succeeded.
!info

# unknown function, with its argument types and position
# riffle-only: error wording differs (Flink: From line 1, column 8 to line 1, column 13: No match found for function signature FOO(<NUMERIC>))
SELECT FOO(1);
[ERROR] Could not execute SQL statement. Reason:
From line 1, column 8 to line 1, column 10: No match found for function signature FOO(
!error
# riffle-only: error wording differs (Flink: From line 3, column 3 to line 3, column 13: No match found for function signature BAR(<CHARACTER>, <NUMERIC>))
SELECT
  1,
  BAR('x', 2);
[ERROR] Could not execute SQL statement. Reason:
From line 3, column 3 to line 3, column 5: No match found for function signature BAR(
!error
# wrong number of arguments names the function and the expected count
SELECT LPAD('a');
[ERROR] Could not execute SQL statement. Reason:
Invalid number of arguments to function 'LPAD'. Was expecting 3 arguments
!error
SELECT ROUND(1, 2, 3);
[ERROR] Could not execute SQL statement. Reason:
Invalid number of arguments to function 'ROUND'
!error
SELECT
  UPPER();
[ERROR] Could not execute SQL statement. Reason:
line 2, column 3
!error
# argument types that fit no signature
# riffle-only: error wording differs (Flink: From line 1, column 8 to line 1, column 15: Cannot apply 'UPPER' to arguments of type 'UPPER(<INTEGER>)'. Supported form(s): 'UPPER(<CHAR)
SELECT UPPER(1);
[ERROR] Could not execute SQL statement. Reason:
Invalid function call
!error
# riffle-only: error wording differs (Flink: From line 1, column 8 to line 1, column 29: Cannot apply 'DATE_FORMAT' to arguments of type 'DATE_FORMAT(<INTEGER>, <CHAR(4)>)'. Supporte)
SELECT DATE_FORMAT(1, 'yyyy');
[ERROR] Could not execute SQL statement. Reason:
DATE_FORMAT(INT NOT NULL, CHAR(4) NOT NULL)
!error
# riffle-only: error wording differs (Flink: From line 1, column 8 to line 1, column 15: Cannot apply 'SUM' to arguments of type 'SUM(<CHAR(1)>)'. Supported form(s): 'SUM(<NUMERIC>)')
SELECT SUM('a');
[ERROR] Could not execute SQL statement. Reason:
SUM(CHAR(1) NOT NULL)
!error
# operators: no implicit conversion between unrelated families
SELECT 1 + TRUE;
[ERROR] Could not execute SQL statement. Reason:
Cannot apply '+' to arguments of type '<INTEGER> + <BOOLEAN>'
!error
SELECT 1 = TRUE;
[ERROR] Could not execute SQL statement. Reason:
Cannot apply '=' to arguments of type '<INTEGER> = <BOOLEAN>'
!error
SELECT 'a' = 1;
[ERROR] Could not execute SQL statement. Reason:
implicit type conversion between CHAR and INTEGER is not supported now
!error
SELECT 1 LIKE 'a';
[ERROR] Could not execute SQL statement. Reason:
Cannot apply 'LIKE' to arguments of type
!error
SELECT CASE WHEN TRUE THEN 1 ELSE 'a' END;
[ERROR] Could not execute SQL statement. Reason:
Illegal mixing of types in CASE or COALESCE statement
!error
# riffle-only: error wording differs (Flink: From line 1, column 8 to line 1, column 29: Expected a boolean type)
SELECT CASE WHEN 1 THEN 2 END;
[ERROR] Could not execute SQL statement. Reason:
CASE
!error
SELECT ARRAY[1, 'a'];
[ERROR] Could not execute SQL statement. Reason:
Parameters must be of the same type
!error
# riffle-only: error wording differs (Flink: From line 1, column 8 to line 1, column 25: Cast function cannot convert value of type BOOLEAN to type DATE)
SELECT CAST(TRUE AS DATE);
[ERROR] Could not execute SQL statement. Reason:
Cast function cannot convert value of type BOOLEAN to type DATE
!error
# unknown column and table, with positions
SELECT x FROM (VALUES 1) AS t(a);
[ERROR] Could not execute SQL statement. Reason:
line 1, column 8: Column 'x' not found in any table
!error
# riffle-only: error wording differs (Flink: At line 3, column 9: Column 'b' not found in table 't')
SELECT a
FROM (VALUES 1) AS t(a)
WHERE t.b > 0;
[ERROR] Could not execute SQL statement. Reason:
line 3, column 7
!error
SELECT * FROM nope;
[ERROR] Could not execute SQL statement. Reason:
From line 1, column 15 to line 1, column 18: Object 'nope' not found
!error
# riffle-only: error wording differs (Flink: From line 1, column 15 to line 1, column 37: Object 'no_db' not found within 'default_catalog')
SELECT * FROM default_catalog.no_db.t;
[ERROR] Could not execute SQL statement. Reason:
Object 'default_catalog.no_db.t' not found
!error
# unknown types and out-of-range type parameters
# riffle-only: error wording differs (Flink: From line 1, column 18 to line 1, column 20: Unknown identifier 'FOO')
SELECT CAST(1 AS FOO);
[ERROR] Could not execute SQL statement. Reason:
Unknown type
!error
# riffle-only: Riffle stricter: Flink accepts DECIMAL(40, 2) in a CAST without complaint
SELECT CAST(1 AS DECIMAL(40, 2));
[ERROR] Could not execute SQL statement. Reason:
Decimal precision must be between 1 and 38 (both inclusive)
!error
# riffle-only: Riffle stricter: Flink accepts VARCHAR(0) in a CAST without complaint
SELECT CAST('a' AS VARCHAR(0));
[ERROR] Could not execute SQL statement. Reason:
Variable character string length must be between 1 and 2147483647 (both inclusive)
!error
# riffle-only: Riffle stricter: Flink accepts TIMESTAMP(10) in a CAST without complaint
SELECT CAST(TIMESTAMP '2020-01-01 00:00:00' AS TIMESTAMP(10));
[ERROR] Could not execute SQL statement. Reason:
precision must be between 0 and 9 (both inclusive)
!error
# bad literals name the literal
SELECT DATE '2020-13-01';
[ERROR] Could not execute SQL statement. Reason:
Illegal DATE literal '2020-13-01'
!error
SELECT TIME '25:00:00';
[ERROR] Could not execute SQL statement. Reason:
Illegal TIME literal '25:00:00'
!error
SELECT TIMESTAMP '2020-01-01 25:00:00';
[ERROR] Could not execute SQL statement. Reason:
Illegal TIMESTAMP literal '2020-01-01 25:00:00'
!error
SELECT x'zz';
[ERROR] Could not execute SQL statement. Reason:
Binary literal string must contain only characters '0' - '9', 'A' - 'F'
!error
# syntax errors point at the token
SELECT FROM t;
[ERROR] Could not execute SQL statement. Reason:
line 1, column 8
!error
# riffle-only: error wording differs (Flink: SQL parse failed. Encountered "+ <EOF>" at line 1, column 10. Was expecting one of: <EOF> "AS" ... "EXCEPT" ... "FETCH" ... "FROM" ... "INTE); the position agrees
SELECT 1 +;
[ERROR] Could not execute SQL statement. Reason:
Encountered "<EOF>" at line 1, column 10
!error
# riffle-only: error wording differs (Flink: SQL parse failed. Non-query expression encountered in illegal context)
SELEC 1;
[ERROR] Could not execute SQL statement. Reason:
Encountered "SELEC" at line 1, column 1
!error
SELECT INTERVAL '1' FOO;
[ERROR] Could not execute SQL statement. Reason:
Encountered "FOO" at line 1, column 21
!error
# aggregates in the wrong place
# riffle-only: error wording differs (Flink: From line 1, column 47 to line 1, column 54: Aggregate expression is illegal in WHERE clause)
SELECT COUNT(*) FROM (VALUES 1) AS t(a) WHERE COUNT(*) > 1;
[ERROR] Could not execute SQL statement. Reason:
Aggregate functions are not allowed in WHERE
!error
# riffle-only: error wording differs (Flink: From line 1, column 8 to line 1, column 18: Aggregate expressions cannot be nested)
SELECT SUM(SUM(a)) FROM (VALUES 1) AS t(a);
[ERROR] Could not execute SQL statement. Reason:
Aggregate function calls cannot be nested
!error
SELECT a FROM (VALUES (1, 2)) AS t(a, b) GROUP BY b;
[ERROR] Could not execute SQL statement. Reason:
is not being grouped
!error
SELECT a FROM (VALUES 1) AS t(a) WHERE a;
[ERROR] Could not execute SQL statement. Reason:
WHERE clause must be a condition
!error
SELECT a FROM (VALUES 1) AS t(a) ORDER BY 2;
[ERROR] Could not execute SQL statement. Reason:
Ordinal out of range
!error

# runtime failures name the value: CAST of a bad string fails the job (Flink
# CastRulesTest: string to numeric / boolean casts throw on bad input)
# riffle-only: error wording differs (Flink: For input string: 'abc'. Invalid character found.)
SELECT CAST(s AS INT) FROM (VALUES ('1'), ('abc')) AS t(s);
[ERROR] Could not execute SQL statement. Reason:
cannot cast 'abc' to INT
!error
# riffle-only: error wording differs (Flink: Cannot parse 'maybe' as BOOLEAN.)
SELECT CAST(s AS BOOLEAN) FROM (VALUES ('maybe')) AS t(s);
[ERROR] Could not execute SQL statement. Reason:
cannot cast 'maybe' to BOOLEAN
!error
# TRY_CAST returns NULL instead (sql_functions.yml)
SELECT TRY_CAST(s AS INT) FROM (VALUES ('x')) AS t(s);
+--------+
| EXPR$0 |
+--------+
| <NULL> |
+--------+
1 row in set
!ok
# integer division and MOD by zero fail with the operands (Java ArithmeticException "/ by zero")
# riffle-only: error wording differs (Flink: / by zero)
SELECT a / b FROM (VALUES (1, 0)) AS t(a, b);
[ERROR] Could not execute SQL statement. Reason:
division by zero: 1 / 0
!error
# riffle-only: error wording differs (Flink: / by zero)
SELECT a % b FROM (VALUES (7, 0)) AS t(a, b);
[ERROR] Could not execute SQL statement. Reason:
division by zero: MOD(7, 0)
!error
# ELEMENT of an array with more than one element (sql_functions.yml: throws)
SELECT ELEMENT(a) FROM (VALUES (ARRAY[1, 2])) AS t(a);
[ERROR] Could not execute SQL statement. Reason:
more than one element
!error
# JSON_VALUE ... ERROR ON ERROR rethrows the parse error
# riffle-only: error wording differs (Flink: Unexpected end-of-input: expected close marker for Object (start marker at [Source: REDACTED (`StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION`)
SELECT JSON_VALUE(s, '$.a' ERROR ON ERROR) FROM (VALUES ('{')) AS t(s);
[ERROR] Could not execute SQL statement. Reason:
invalid JSON
!error
