# riffle-only-file: the flights CSV in assets/ has a header line, which Flink 2.3.0's filesystem source reads as data (csv.ignore-first-line for it came with FLINK-20746, after 2.3); reading it can also end a task before its collect sink opened, which crashes the TaskManager (FLINK-39330)
# flights_batch.q - the bundled flights and airports data in batch mode.
# Expected values were computed independently with the sqlite3 command-line
# tool over the same CSV files (see README.md in this directory).

SET 'execution.runtime-mode' = 'batch';
[INFO] Execute statement succeeded.
!info

CREATE TABLE flights (
  `date` TIMESTAMP(0),
  delay INT,
  distance INT,
  origin STRING,
  destination STRING
) WITH (
  'connector' = 'filesystem',
  'path' = '${ASSETS}/flights-2001-01-01_14.csv',
  'format' = 'csv',
  'csv.ignore-first-line' = 'true'
);
[INFO] Execute statement succeeded.
!info

CREATE TABLE airports (
  iata STRING,
  name STRING,
  city STRING,
  state STRING,
  country STRING,
  latitude DOUBLE,
  longitude DOUBLE
) WITH (
  'connector' = 'filesystem',
  'path' = '${ASSETS}/airports.csv',
  'format' = 'csv',
  'csv.ignore-first-line' = 'true'
);
[INFO] Execute statement succeeded.
!info

SELECT COUNT(*) AS n FROM flights;
+--------+
|      n |
+--------+
| 228738 |
+--------+
1 row in set
!ok

# group by with Flink's AVG over INT (an INT, truncated)
SELECT origin, COUNT(*) AS flights, AVG(delay) AS avg_delay, MAX(distance) AS max_dist
FROM flights GROUP BY origin ORDER BY flights DESC, origin LIMIT 10;
+--------+---------+-----------+----------+
| origin | flights | avg_delay | max_dist |
+--------+---------+-----------+----------+
|    ORD |   12498 |         6 |     4244 |
|    DFW |   12053 |         9 |     3784 |
|    ATL |    9552 |         8 |     4502 |
|    LAX |    8758 |        13 |     3386 |
|    PHX |    7195 |        14 |     2300 |
|    STL |    6209 |         8 |     4130 |
|    DTW |    5489 |         2 |     2079 |
|    MSP |    5275 |         1 |     3972 |
|    DEN |    5148 |         7 |     1754 |
|    LAS |    5119 |        14 |     2381 |
+--------+---------+-----------+----------+
10 rows in set
!ok

# join with the dimension table
SELECT a.state, COUNT(*) AS n
FROM flights f JOIN airports a ON f.origin = a.iata
GROUP BY a.state ORDER BY n DESC, a.state LIMIT 10;
+-------+-------+
| state |     n |
+-------+-------+
|    CA | 27847 |
|    TX | 27264 |
|    FL | 15536 |
|    IL | 14638 |
|    NY | 10413 |
|    GA |  9789 |
|    PA |  9221 |
|    MO |  8733 |
|    AZ |  7964 |
|    NC |  7061 |
+-------+-------+
10 rows in set
!ok

# filter
SELECT COUNT(*) AS n, SUM(distance) AS total FROM flights WHERE delay > 60 AND origin IN ('ORD', 'ATL');
+------+--------+
|    n |  total |
+------+--------+
| 1267 | 895754 |
+------+--------+
1 row in set
!ok

# top-N
SELECT origin, destination, delay, `date` FROM flights ORDER BY delay DESC, origin, destination LIMIT 5;
+--------+-------------+-------+---------------------+
| origin | destination | delay |                date |
+--------+-------------+-------+---------------------+
|    MCO |         MSP |  1575 | 2001-01-06 15:01:00 |
|    HNL |         MSP |  1486 | 2001-01-08 19:29:00 |
|    LAX |         HNL |  1191 | 2001-01-01 11:37:00 |
|    OGG |         LAX |  1143 | 2001-01-07 08:30:00 |
|    HNL |         SEA |  1088 | 2001-01-01 16:25:00 |
+--------+-------------+-------+---------------------+
5 rows in set
!ok

# every destination has an airport
SELECT COUNT(*) AS unmatched FROM flights f LEFT JOIN airports a ON f.destination = a.iata WHERE a.iata IS NULL;
+-----------+
| unmatched |
+-----------+
|         0 |
+-----------+
1 row in set
!ok

# a misspelt column: line, column and a suggestion
SELECT origin, dely FROM flights;
[ERROR] Could not execute SQL statement. Reason:
From line 1, column 16 to line 1, column 19: Column 'dely' not found in any table; did you mean 'delay'?
!error

SELECT * FROM flight;
[ERROR] Could not execute SQL statement. Reason:
Object 'flight' not found; did you mean 'flights'?
!error
