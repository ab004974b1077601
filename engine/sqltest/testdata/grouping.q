# grouping.q - GROUPING SETS, ROLLUP, CUBE, GROUPING(), GROUPING_ID(), GROUP_ID().
# Source: flink-table-planner .../runtime/batch/sql/agg/GroupingSetsITCase.scala
# (tables emps, emp, dept, scott_emp, MyTable = TestData data3 as f0, f1, f2;
# cases named after its test methods; its checkResult ignores row order).
# Docs: docs/content/docs/dev/table/sql/queries/group-agg.md (GROUPING SETS,
# ROLLUP, CUBE).

SET 'execution.runtime-mode' = 'batch';
[INFO] Execute statement succeeded.
!info
SET 'sql-client.display.max-column-width' = '60';
[INFO] Execute statement succeeded.
!info

CREATE TEMPORARY VIEW emps (empno, name, deptno, gender, city, empid, age, slacker, manager, joinedat) AS VALUES (CAST(100 AS BIGINT), CAST('Fred' AS STRING), 10, CAST(NULL AS STRING), CAST(NULL AS STRING), CAST(40 AS BIGINT), 25, TRUE, FALSE, DATE '1996-08-03'), (110, 'Eric', 20, 'M', 'San Francisco', 3, 80, CAST(NULL AS BOOLEAN), FALSE, DATE '2001-01-01'), (110, 'John', 40, 'M', 'Vancouver', 2, CAST(NULL AS INT), FALSE, TRUE, DATE '2002-05-03'), (120, 'Wilma', 20, 'F', CAST(NULL AS STRING), 1, 5, CAST(NULL AS BOOLEAN), TRUE, DATE '2005-09-07'), (130, 'Alice', 40, 'F', 'Vancouver', 2, CAST(NULL AS INT), FALSE, TRUE, DATE '2007-01-01');
[INFO] Execute statement succeeded.
!info
CREATE TEMPORARY VIEW emp (ename, deptno, gender) AS VALUES (CAST('Adam' AS STRING), 50, CAST('M' AS STRING)), ('Alice', 30, 'F'), ('Bob', 10, 'M'), ('Eric', 20, 'M'), ('Eve', 50, 'F'), ('Grace', 60, 'F'), ('Jane', 10, 'F'), ('Susan', 30, 'F'), ('Wilma', CAST(NULL AS INT), 'F');
[INFO] Execute statement succeeded.
!info
CREATE TEMPORARY VIEW dept (deptno, dname) AS VALUES (10, CAST('Sales' AS STRING)), (20, 'Marketing'), (30, 'Engineering'), (40, 'Empty');
[INFO] Execute statement succeeded.
!info
CREATE TEMPORARY VIEW scott_emp (empno, ename, job, mgr, hiredate, sal, comm, deptno) AS VALUES (7369, CAST('SMITH' AS STRING), CAST('CLERK' AS STRING), 7902, DATE '1980-12-17', CAST(800.00 AS DOUBLE), CAST(NULL AS DOUBLE), 20), (7499, 'ALLEN', 'SALESMAN', 7698, DATE '1981-02-20', 1600.00, 300.00, 30), (7521, 'WARD', 'SALESMAN', 7698, DATE '1981-02-22', 1250.00, 500.00, 30), (7566, 'JONES', 'MANAGER', 7839, DATE '1981-02-04', 2975.00, CAST(NULL AS DOUBLE), 20), (7654, 'MARTIN', 'SALESMAN', 7698, DATE '1981-09-28', 1250.00, 1400.00, 30), (7698, 'BLAKE', 'MANAGER', 7839, DATE '1981-01-05', 2850.00, CAST(NULL AS DOUBLE), 30), (7782, 'CLARK', 'MANAGER', 7839, DATE '1981-06-09', 2450.00, CAST(NULL AS DOUBLE), 10), (7788, 'SCOTT', 'ANALYST', 7566, DATE '1987-04-19', 3000.00, CAST(NULL AS DOUBLE), 20), (7839, 'KING', 'PRESIDENT', CAST(NULL AS INT), DATE '1981-11-17', 5000.00, CAST(NULL AS DOUBLE), 10), (7844, 'TURNER', 'SALESMAN', 7698, DATE '1981-09-08', 1500.00, 0.00, 30), (7876, 'ADAMS', 'CLERK', 7788, DATE '1987-05-23', 1100.00, CAST(NULL AS DOUBLE), 20), (7900, 'JAMES', 'CLERK', 7698, DATE '1981-12-03', 950.00, CAST(NULL AS DOUBLE), 30), (7902, 'FORD', 'ANALYST', 7566, DATE '1981-12-03', 3000.00, CAST(NULL AS DOUBLE), 20), (7934, 'MILLER', 'CLERK', 7782, DATE '1982-01-23', 1300.00, CAST(NULL AS DOUBLE), 10);
[INFO] Execute statement succeeded.
!info
CREATE TEMPORARY VIEW MyTable (f0, f1, f2) AS VALUES (1, CAST(1 AS BIGINT), CAST('Hi' AS STRING)), (2, 2, 'Hello'), (3, 2, 'Hello world'), (4, 3, 'Hello world, how are you?'), (5, 3, 'I am fine.'), (6, 3, 'Luke Skywalker'), (7, 4, 'Comment#1'), (8, 4, 'Comment#2'), (9, 4, 'Comment#3'), (10, 4, 'Comment#4'), (11, 5, 'Comment#5'), (12, 5, 'Comment#6'), (13, 5, 'Comment#7'), (14, 5, 'Comment#8'), (15, 5, 'Comment#9'), (16, 6, 'Comment#10'), (17, 6, 'Comment#11'), (18, 6, 'Comment#12'), (19, 6, 'Comment#13'), (20, 6, 'Comment#14'), (21, 6, 'Comment#15');
[INFO] Execute statement succeeded.
!info
CREATE TEMPORARY VIEW MyTableWithNulls AS SELECT f0, f1, CASE WHEN f2 LIKE '%world%' THEN CAST(NULL AS STRING) ELSE f2 END AS f2 FROM MyTable;
[INFO] Execute statement succeeded.
!info

# testGroupingSetsWithOneGrouping
select deptno, avg(age) as a, group_id() as g, grouping(deptno) as gb, grouping_id(deptno)as gib from emps group by grouping sets (deptno);
+--------+--------+---+----+-----+
| deptno |      a | g | gb | gib |
+--------+--------+---+----+-----+
|     10 |     25 | 0 |  0 |   0 |
|     20 |     42 | 0 |  0 |   0 |
|     40 | <NULL> | 0 |  0 |   0 |
+--------+--------+---+----+-----+
3 rows in set
!unordered
# testBasicGroupingSets
select deptno, count(*) as c from emps group by grouping sets ((), (deptno));
+--------+---+
| deptno | c |
+--------+---+
| <NULL> | 5 |
|     10 | 1 |
|     20 | 2 |
|     40 | 2 |
+--------+---+
4 rows in set
!unordered
# testGroupingSetsOnExpression
select deptno + 1, count(*) as c from emps group by grouping sets ((), (deptno + 1));
+--------+---+
| EXPR$0 | c |
+--------+---+
| <NULL> | 5 |
|     11 | 1 |
|     21 | 2 |
|     41 | 2 |
+--------+---+
4 rows in set
!unordered
# testBooleanColumnOnGroupingSets
select gender, city, manager, count(*) as cnt from emps group by grouping sets ((city), (gender, city, manager));
+--------+---------------+---------+-----+
| gender |          city | manager | cnt |
+--------+---------------+---------+-----+
| <NULL> |        <NULL> |  <NULL> |   2 |
| <NULL> |        <NULL> |   FALSE |   1 |
| <NULL> | San Francisco |  <NULL> |   1 |
|      M | San Francisco |   FALSE |   1 |
| <NULL> |     Vancouver |  <NULL> |   2 |
|      M |     Vancouver |    TRUE |   1 |
|      F |        <NULL> |    TRUE |   1 |
|      F |     Vancouver |    TRUE |   1 |
+--------+---------------+---------+-----+
8 rows in set
!unordered
# testCoalesceOnGroupingSets
select gender, city, coalesce(deptno, -1) as deptno, count(*) as cnt from emps group by grouping sets ((gender, city), (gender, city, deptno));
+--------+---------------+--------+-----+
| gender |          city | deptno | cnt |
+--------+---------------+--------+-----+
| <NULL> |        <NULL> |     -1 |   1 |
| <NULL> |        <NULL> |     10 |   1 |
|      M | San Francisco |     -1 |   1 |
|      M | San Francisco |     20 |   1 |
|      M |     Vancouver |     -1 |   1 |
|      M |     Vancouver |     40 |   1 |
|      F |        <NULL> |     -1 |   1 |
|      F |        <NULL> |     20 |   1 |
|      F |     Vancouver |     -1 |   1 |
|      F |     Vancouver |     40 |   1 |
+--------+---------------+--------+-----+
10 rows in set
!unordered
# testCube
select deptno + 1, count(*) as c from emp group by cube(deptno, gender);
+--------+---+
| EXPR$0 | c |
+--------+---+
|     51 | 1 |
|     51 | 2 |
| <NULL> | 3 |
| <NULL> | 9 |
|     31 | 2 |
|     31 | 2 |
| <NULL> | 6 |
|     11 | 1 |
|     11 | 2 |
|     21 | 1 |
|     21 | 1 |
|     51 | 1 |
|     61 | 1 |
|     61 | 1 |
|     11 | 1 |
| <NULL> | 1 |
| <NULL> | 1 |
+--------+---+
17 rows in set
!unordered
# testRollupOn1Column
select deptno + 1, count(*) as c from emp group by rollup(deptno);
+--------+---+
| EXPR$0 | c |
+--------+---+
|     51 | 2 |
| <NULL> | 9 |
|     31 | 2 |
|     11 | 2 |
|     21 | 1 |
|     61 | 1 |
| <NULL> | 1 |
+--------+---+
7 rows in set
!unordered
# testRollupOn2Column
select gender, deptno + 1, count(*) as c from emp group by rollup(deptno, gender);
+--------+--------+---+
| gender | EXPR$1 | c |
+--------+--------+---+
|      M |     51 | 1 |
| <NULL> |     51 | 2 |
| <NULL> | <NULL> | 9 |
|      F |     31 | 2 |
| <NULL> |     31 | 2 |
|      M |     11 | 1 |
| <NULL> |     11 | 2 |
|      M |     21 | 1 |
| <NULL> |     21 | 1 |
|      F |     51 | 1 |
|      F |     61 | 1 |
| <NULL> |     61 | 1 |
|      F |     11 | 1 |
|      F | <NULL> | 1 |
| <NULL> | <NULL> | 1 |
+--------+--------+---+
15 rows in set
!unordered
# testRollupOnColumnWithNulls
select gender, count(*) as c from emp group by rollup(gender);
+--------+---+
| gender | c |
+--------+---+
|      M | 3 |
| <NULL> | 9 |
|      F | 6 |
+--------+---+
3 rows in set
!unordered
# testRollupPlusOrderBy
select gender, count(*) as c from emp group by rollup(gender) order by c desc;
+--------+---+
| gender | c |
+--------+---+
| <NULL> | 9 |
|      F | 6 |
|      M | 3 |
+--------+---+
3 rows in set
!ok
# testRollupCartesianProduct: ROLLUP(a), ROLLUP(b) is the cross product of the sets
select deptno, count(*) as c from emp group by rollup(deptno), rollup(gender);
+--------+---+
| deptno | c |
+--------+---+
|     50 | 1 |
|     50 | 2 |
| <NULL> | 3 |
| <NULL> | 9 |
|     30 | 2 |
|     30 | 2 |
| <NULL> | 6 |
|     10 | 1 |
|     10 | 2 |
|     20 | 1 |
|     20 | 1 |
|     50 | 1 |
|     60 | 1 |
|     60 | 1 |
|     10 | 1 |
| <NULL> | 1 |
| <NULL> | 1 |
+--------+---+
17 rows in set
!unordered
# testRollupWithHaving
select deptno + 1 as d1, count(*) as c from emp group by rollup(deptno)having count(*) > 3;
+--------+---+
|     d1 | c |
+--------+---+
| <NULL> | 9 |
+--------+---+
1 row in set
!ok
# testCubeAndDistinct
select distinct count(*) from emp group by cube(deptno, gender);
+--------+
| EXPR$0 |
+--------+
|      1 |
|      2 |
|      3 |
|      9 |
|      6 |
+--------+
5 rows in set
!unordered
# testCubeAndJoin: CUBE over a USING join
select e.deptno, e.gender, min(e.ename) as min_name from emp as e join dept as d using (deptno) group by cube(e.deptno, d.deptno, e.gender) having count(*) > 2 or gender = 'M' and e.deptno = 10;
+--------+--------+----------+
| deptno | gender | min_name |
+--------+--------+----------+
| <NULL> |      F |    Alice |
| <NULL> | <NULL> |    Alice |
|     10 |      M |      Bob |
|     10 |      M |      Bob |
+--------+--------+----------+
4 rows in set
!unordered
# testGroupingInSelectClauseOfGroupByQuery: GROUPING in a plain GROUP BY is 0
select count(*) as c, grouping(deptno) as g from emp group by deptno;
+---+---+
| c | g |
+---+---+
| 2 | 0 |
| 2 | 0 |
| 2 | 0 |
| 1 | 0 |
| 1 | 0 |
| 1 | 0 |
+---+---+
6 rows in set
!unordered
# testGroupingInSelectClauseOfCubeQuery: GROUPING(a, b) is a bit vector like GROUPING_ID
select deptno, job, count(*) as c, grouping(deptno) as d, grouping(job) j, grouping(deptno, job) as x from scott_emp group by cube(deptno, job);
+--------+-----------+----+---+---+---+
| deptno |       job |  c | d | j | x |
+--------+-----------+----+---+---+---+
|     20 |     CLERK |  2 | 0 | 0 | 0 |
|     20 |    <NULL> |  5 | 0 | 1 | 1 |
| <NULL> |     CLERK |  4 | 1 | 0 | 2 |
| <NULL> |    <NULL> | 14 | 1 | 1 | 3 |
|     30 |  SALESMAN |  4 | 0 | 0 | 0 |
|     30 |    <NULL> |  6 | 0 | 1 | 1 |
| <NULL> |  SALESMAN |  4 | 1 | 0 | 2 |
|     20 |   MANAGER |  1 | 0 | 0 | 0 |
| <NULL> |   MANAGER |  3 | 1 | 0 | 2 |
|     30 |   MANAGER |  1 | 0 | 0 | 0 |
|     10 |   MANAGER |  1 | 0 | 0 | 0 |
|     10 |    <NULL> |  3 | 0 | 1 | 1 |
|     20 |   ANALYST |  2 | 0 | 0 | 0 |
| <NULL> |   ANALYST |  2 | 1 | 0 | 2 |
|     10 | PRESIDENT |  1 | 0 | 0 | 0 |
| <NULL> | PRESIDENT |  1 | 1 | 0 | 2 |
|     30 |     CLERK |  1 | 0 | 0 | 0 |
|     10 |     CLERK |  1 | 0 | 0 | 0 |
+--------+-----------+----+---+---+---+
18 rows in set
!unordered
# testGroupingGroup_idGrouping_idInSelectClauseOfGroupByQuery
select count(*) as c, grouping(deptno) as g, group_id() as gid, grouping_id(deptno) as gd, grouping_id(gender) as gg, grouping_id(gender, deptno) as ggd, grouping_id(deptno, gender) as gdg from emp group by rollup(deptno, gender);
+---+---+-----+----+----+-----+-----+
| c | g | gid | gd | gg | ggd | gdg |
+---+---+-----+----+----+-----+-----+
| 1 | 0 |   0 |  0 |  0 |   0 |   0 |
| 2 | 0 |   0 |  0 |  1 |   2 |   1 |
| 9 | 1 |   0 |  1 |  1 |   3 |   3 |
| 2 | 0 |   0 |  0 |  0 |   0 |   0 |
| 2 | 0 |   0 |  0 |  1 |   2 |   1 |
| 1 | 0 |   0 |  0 |  0 |   0 |   0 |
| 2 | 0 |   0 |  0 |  1 |   2 |   1 |
| 1 | 0 |   0 |  0 |  0 |   0 |   0 |
| 1 | 0 |   0 |  0 |  1 |   2 |   1 |
| 1 | 0 |   0 |  0 |  0 |   0 |   0 |
| 1 | 0 |   0 |  0 |  0 |   0 |   0 |
| 1 | 0 |   0 |  0 |  1 |   2 |   1 |
| 1 | 0 |   0 |  0 |  0 |   0 |   0 |
| 1 | 0 |   0 |  0 |  0 |   0 |   0 |
| 1 | 0 |   0 |  0 |  1 |   2 |   1 |
+---+---+-----+----+----+-----+-----+
15 rows in set
!unordered
# testGroupingAcceptsMultipleArgumentsGivesSameResultAsGrouping_id
select count(*) as c, grouping(deptno) as gd, grouping_id(deptno) as gid, grouping(deptno, gender, deptno) as gdgd, grouping_id(deptno, gender, deptno) as gidgd from emp group by rollup(deptno, gender) having grouping(deptno) <= grouping_id(deptno, gender, deptno);
+---+----+-----+------+-------+
| c | gd | gid | gdgd | gidgd |
+---+----+-----+------+-------+
| 1 |  0 |   0 |    0 |     0 |
| 2 |  0 |   0 |    2 |     2 |
| 9 |  1 |   1 |    7 |     7 |
| 2 |  0 |   0 |    0 |     0 |
| 2 |  0 |   0 |    2 |     2 |
| 1 |  0 |   0 |    0 |     0 |
| 2 |  0 |   0 |    2 |     2 |
| 1 |  0 |   0 |    0 |     0 |
| 1 |  0 |   0 |    2 |     2 |
| 1 |  0 |   0 |    0 |     0 |
| 1 |  0 |   0 |    0 |     0 |
| 1 |  0 |   0 |    2 |     2 |
| 1 |  0 |   0 |    0 |     0 |
| 1 |  0 |   0 |    0 |     0 |
| 1 |  0 |   0 |    2 |     2 |
+---+----+-----+------+-------+
15 rows in set
!unordered
# testGroupingInOrderByClause
select count(*) as c from emp group by rollup(deptno) order by grouping(deptno), c;
+---+
| c |
+---+
| 1 |
| 1 |
| 1 |
| 2 |
| 2 |
| 2 |
| 9 |
+---+
7 rows in set
!ok
# testDuplicateArgumentToGrouping_id
select deptno, gender, grouping_id(deptno, gender, deptno), count(*) as c from emp where deptno = 10 group by rollup(gender, deptno);
+--------+--------+--------+---+
| deptno | gender | EXPR$2 | c |
+--------+--------+--------+---+
|     10 |      M |      0 | 1 |
| <NULL> |      M |      5 | 1 |
| <NULL> | <NULL> |      7 | 2 |
|     10 |      F |      0 | 1 |
| <NULL> |      F |      5 | 1 |
+--------+--------+--------+---+
5 rows in set
!unordered
# testGroupingInSelectClauseOfRollupQuery
select count(*) as c, deptno, grouping(deptno) as g from emp group by rollup(deptno);
+---+--------+---+
| c | deptno | g |
+---+--------+---+
| 2 |     50 | 0 |
| 9 | <NULL> | 1 |
| 2 |     30 | 0 |
| 2 |     10 | 0 |
| 1 |     20 | 0 |
| 1 |     60 | 0 |
| 1 | <NULL> | 0 |
+---+--------+---+
7 rows in set
!unordered
# testGroupingGrouping_idAndGroup_id
select deptno, gender, grouping(deptno) gd, grouping(gender) gg, grouping_id(deptno, gender) dg, grouping_id(gender, deptno) gd, group_id() gid, count(*) c from emp group by cube(deptno, gender);
+--------+--------+----+----+----+-----+-----+---+
| deptno | gender | gd | gg | dg | gd0 | gid | c |
+--------+--------+----+----+----+-----+-----+---+
|     50 |      M |  0 |  0 |  0 |   0 |   0 | 1 |
|     50 | <NULL> |  0 |  1 |  1 |   2 |   0 | 2 |
| <NULL> |      M |  1 |  0 |  2 |   1 |   0 | 3 |
| <NULL> | <NULL> |  1 |  1 |  3 |   3 |   0 | 9 |
|     30 |      F |  0 |  0 |  0 |   0 |   0 | 2 |
|     30 | <NULL> |  0 |  1 |  1 |   2 |   0 | 2 |
| <NULL> |      F |  1 |  0 |  2 |   1 |   0 | 6 |
|     10 |      M |  0 |  0 |  0 |   0 |   0 | 1 |
|     10 | <NULL> |  0 |  1 |  1 |   2 |   0 | 2 |
|     20 |      M |  0 |  0 |  0 |   0 |   0 | 1 |
|     20 | <NULL> |  0 |  1 |  1 |   2 |   0 | 1 |
|     50 |      F |  0 |  0 |  0 |   0 |   0 | 1 |
|     60 |      F |  0 |  0 |  0 |   0 |   0 | 1 |
|     60 | <NULL> |  0 |  1 |  1 |   2 |   0 | 1 |
|     10 |      F |  0 |  0 |  0 |   0 |   0 | 1 |
| <NULL> |      F |  0 |  0 |  0 |   0 |   0 | 1 |
| <NULL> | <NULL> |  0 |  1 |  1 |   2 |   0 | 1 |
+--------+--------+----+----+----+-----+-----+---+
17 rows in set
!unordered
# testAllowExpressionInCubeAndRollup
select deptno + 1 as d1, deptno + 1 - 1 as d0, count(*) as c from emp group by rollup (deptno + 1);
+--------+--------+---+
|     d1 |     d0 | c |
+--------+--------+---+
|     51 |     50 | 2 |
| <NULL> | <NULL> | 9 |
|     31 |     30 | 2 |
|     11 |     10 | 2 |
|     21 |     20 | 1 |
|     61 |     60 | 1 |
| <NULL> | <NULL> | 1 |
+--------+--------+---+
7 rows in set
!unordered
select mod(deptno, 20) as d, count(*) as c, gender as g from emp group by cube(mod(deptno, 20), gender);
+--------+---+--------+
|      d | c |      g |
+--------+---+--------+
|     10 | 2 |      M |
|     10 | 6 | <NULL> |
| <NULL> | 3 |      M |
| <NULL> | 9 | <NULL> |
|     10 | 4 |      F |
| <NULL> | 6 |      F |
|      0 | 1 |      M |
|      0 | 2 | <NULL> |
|      0 | 1 |      F |
| <NULL> | 1 |      F |
| <NULL> | 1 | <NULL> |
+--------+---+--------+
11 rows in set
!unordered
select mod(deptno, 20) as d, count(*) as c, gender as g from emp group by rollup(mod(deptno, 20), gender);
+--------+---+--------+
|      d | c |      g |
+--------+---+--------+
|     10 | 2 |      M |
|     10 | 6 | <NULL> |
| <NULL> | 9 | <NULL> |
|     10 | 4 |      F |
|      0 | 1 |      M |
|      0 | 2 | <NULL> |
|      0 | 1 |      F |
| <NULL> | 1 |      F |
| <NULL> | 1 | <NULL> |
+--------+---+--------+
9 rows in set
!unordered
select count(*) as c from emp group by cube(1);
+---+
| c |
+---+
| 9 |
| 9 |
+---+
2 rows in set
!unordered
# testCALCITE1824 (grouping sets (deptno, (), ())) is left out on purpose:
# Flink expects GROUP_ID() = 1 on the deptno rows and a single () row, an
# artefact of Calcite's CALCITE-1824; Riffle gives GROUP_ID() = 1 to the
# second () set as the SQL standard says (README "Differences").
# testFromBlogspot: ROLLUP with a composite element (empno, ename)
select deptno, job, empno, ename, sum(sal) sumsal, case grouping_id(deptno, job, empno) when 0 then cast('grouped by deptno,job,empno,ename' as varchar) when 1 then cast('grouped by deptno,job' as varchar) when 3 then cast('grouped by deptno' as varchar) when 7 then cast('grouped by ()' as varchar) end gr_text from scott_emp group by rollup(deptno, job, (empno,ename)) order by deptno, job, empno;
+--------+-----------+--------+--------+---------+-----------------------------------+
| deptno |       job |  empno |  ename |  sumsal |                           gr_text |
+--------+-----------+--------+--------+---------+-----------------------------------+
| <NULL> |    <NULL> | <NULL> | <NULL> | 29025.0 |                     grouped by () |
|     10 |    <NULL> | <NULL> | <NULL> |  8750.0 |                 grouped by deptno |
|     10 |     CLERK | <NULL> | <NULL> |  1300.0 |             grouped by deptno,job |
|     10 |     CLERK |   7934 | MILLER |  1300.0 | grouped by deptno,job,empno,ename |
|     10 |   MANAGER | <NULL> | <NULL> |  2450.0 |             grouped by deptno,job |
|     10 |   MANAGER |   7782 |  CLARK |  2450.0 | grouped by deptno,job,empno,ename |
|     10 | PRESIDENT | <NULL> | <NULL> |  5000.0 |             grouped by deptno,job |
|     10 | PRESIDENT |   7839 |   KING |  5000.0 | grouped by deptno,job,empno,ename |
|     20 |    <NULL> | <NULL> | <NULL> | 10875.0 |                 grouped by deptno |
|     20 |   ANALYST | <NULL> | <NULL> |  6000.0 |             grouped by deptno,job |
|     20 |   ANALYST |   7788 |  SCOTT |  3000.0 | grouped by deptno,job,empno,ename |
|     20 |   ANALYST |   7902 |   FORD |  3000.0 | grouped by deptno,job,empno,ename |
|     20 |     CLERK | <NULL> | <NULL> |  1900.0 |             grouped by deptno,job |
|     20 |     CLERK |   7369 |  SMITH |   800.0 | grouped by deptno,job,empno,ename |
|     20 |     CLERK |   7876 |  ADAMS |  1100.0 | grouped by deptno,job,empno,ename |
|     20 |   MANAGER | <NULL> | <NULL> |  2975.0 |             grouped by deptno,job |
|     20 |   MANAGER |   7566 |  JONES |  2975.0 | grouped by deptno,job,empno,ename |
|     30 |    <NULL> | <NULL> | <NULL> |  9400.0 |                 grouped by deptno |
|     30 |     CLERK | <NULL> | <NULL> |   950.0 |             grouped by deptno,job |
|     30 |     CLERK |   7900 |  JAMES |   950.0 | grouped by deptno,job,empno,ename |
|     30 |   MANAGER | <NULL> | <NULL> |  2850.0 |             grouped by deptno,job |
|     30 |   MANAGER |   7698 |  BLAKE |  2850.0 | grouped by deptno,job,empno,ename |
|     30 |  SALESMAN | <NULL> | <NULL> |  5600.0 |             grouped by deptno,job |
|     30 |  SALESMAN |   7499 |  ALLEN |  1600.0 | grouped by deptno,job,empno,ename |
|     30 |  SALESMAN |   7521 |   WARD |  1250.0 | grouped by deptno,job,empno,ename |
|     30 |  SALESMAN |   7654 | MARTIN |  1250.0 | grouped by deptno,job,empno,ename |
|     30 |  SALESMAN |   7844 | TURNER |  1500.0 | grouped by deptno,job,empno,ename |
+--------+-----------+--------+--------+---------+-----------------------------------+
27 rows in set
!unordered
# testGroupingSets
SELECT f1, f2, avg(f0) as a, GROUP_ID() as g, GROUPING(f1) as gf1, GROUPING(f2) as gf2, GROUPING_ID(f1) as gif1, GROUPING_ID(f2) as gif2, GROUPING_ID(f1, f2) as gid, COUNT(*) as cnt FROM MyTable GROUP BY GROUPING SETS (f1, f2, ());
+--------+---------------------------+----+---+-----+-----+------+------+-----+-----+
|     f1 |                        f2 |  a | g | gf1 | gf2 | gif1 | gif2 | gid | cnt |
+--------+---------------------------+----+---+-----+-----+------+------+-----+-----+
|      1 |                    <NULL> |  1 | 0 |   0 |   1 |    0 |    1 |   1 |   1 |
| <NULL> |                        Hi |  1 | 0 |   1 |   0 |    1 |    0 |   2 |   1 |
| <NULL> |                    <NULL> | 11 | 0 |   1 |   1 |    1 |    1 |   3 |  21 |
|      2 |                    <NULL> |  2 | 0 |   0 |   1 |    0 |    1 |   1 |   2 |
| <NULL> |                     Hello |  2 | 0 |   1 |   0 |    1 |    0 |   2 |   1 |
| <NULL> |               Hello world |  3 | 0 |   1 |   0 |    1 |    0 |   2 |   1 |
|      3 |                    <NULL> |  5 | 0 |   0 |   1 |    0 |    1 |   1 |   3 |
| <NULL> | Hello world, how are you? |  4 | 0 |   1 |   0 |    1 |    0 |   2 |   1 |
| <NULL> |                I am fine. |  5 | 0 |   1 |   0 |    1 |    0 |   2 |   1 |
| <NULL> |            Luke Skywalker |  6 | 0 |   1 |   0 |    1 |    0 |   2 |   1 |
|      4 |                    <NULL> |  8 | 0 |   0 |   1 |    0 |    1 |   1 |   4 |
| <NULL> |                 Comment#1 |  7 | 0 |   1 |   0 |    1 |    0 |   2 |   1 |
| <NULL> |                 Comment#2 |  8 | 0 |   1 |   0 |    1 |    0 |   2 |   1 |
| <NULL> |                 Comment#3 |  9 | 0 |   1 |   0 |    1 |    0 |   2 |   1 |
| <NULL> |                 Comment#4 | 10 | 0 |   1 |   0 |    1 |    0 |   2 |   1 |
|      5 |                    <NULL> | 13 | 0 |   0 |   1 |    0 |    1 |   1 |   5 |
| <NULL> |                 Comment#5 | 11 | 0 |   1 |   0 |    1 |    0 |   2 |   1 |
| <NULL> |                 Comment#6 | 12 | 0 |   1 |   0 |    1 |    0 |   2 |   1 |
| <NULL> |                 Comment#7 | 13 | 0 |   1 |   0 |    1 |    0 |   2 |   1 |
| <NULL> |                 Comment#8 | 14 | 0 |   1 |   0 |    1 |    0 |   2 |   1 |
| <NULL> |                 Comment#9 | 15 | 0 |   1 |   0 |    1 |    0 |   2 |   1 |
|      6 |                    <NULL> | 18 | 0 |   0 |   1 |    0 |    1 |   1 |   6 |
| <NULL> |                Comment#10 | 16 | 0 |   1 |   0 |    1 |    0 |   2 |   1 |
| <NULL> |                Comment#11 | 17 | 0 |   1 |   0 |    1 |    0 |   2 |   1 |
| <NULL> |                Comment#12 | 18 | 0 |   1 |   0 |    1 |    0 |   2 |   1 |
| <NULL> |                Comment#13 | 19 | 0 |   1 |   0 |    1 |    0 |   2 |   1 |
| <NULL> |                Comment#14 | 20 | 0 |   1 |   0 |    1 |    0 |   2 |   1 |
| <NULL> |                Comment#15 | 21 | 0 |   1 |   0 |    1 |    0 |   2 |   1 |
+--------+---------------------------+----+---+-----+-----+------+------+-----+-----+
28 rows in set
!unordered
# testGroupingSetsWithNulls
SELECT f1, f2, avg(f0) as a, GROUP_ID() as g FROM MyTableWithNulls GROUP BY GROUPING SETS (f1, f2);
+--------+----------------+----+---+
|     f1 |             f2 |  a | g |
+--------+----------------+----+---+
|      1 |         <NULL> |  1 | 0 |
| <NULL> |             Hi |  1 | 0 |
|      2 |         <NULL> |  2 | 0 |
| <NULL> |          Hello |  2 | 0 |
| <NULL> |         <NULL> |  3 | 0 |
|      3 |         <NULL> |  5 | 0 |
| <NULL> |     I am fine. |  5 | 0 |
| <NULL> | Luke Skywalker |  6 | 0 |
|      4 |         <NULL> |  8 | 0 |
| <NULL> |      Comment#1 |  7 | 0 |
| <NULL> |      Comment#2 |  8 | 0 |
| <NULL> |      Comment#3 |  9 | 0 |
| <NULL> |      Comment#4 | 10 | 0 |
|      5 |         <NULL> | 13 | 0 |
| <NULL> |      Comment#5 | 11 | 0 |
| <NULL> |      Comment#6 | 12 | 0 |
| <NULL> |      Comment#7 | 13 | 0 |
| <NULL> |      Comment#8 | 14 | 0 |
| <NULL> |      Comment#9 | 15 | 0 |
|      6 |         <NULL> | 18 | 0 |
| <NULL> |     Comment#10 | 16 | 0 |
| <NULL> |     Comment#11 | 17 | 0 |
| <NULL> |     Comment#12 | 18 | 0 |
| <NULL> |     Comment#13 | 19 | 0 |
| <NULL> |     Comment#14 | 20 | 0 |
| <NULL> |     Comment#15 | 21 | 0 |
+--------+----------------+----+---+
26 rows in set
!unordered
# testRollupAsGroupingSets / testCubeAsGroupingSets: ROLLUP and CUBE are shorthands
SELECT COUNT(*) FROM ((SELECT f1, f2, avg(f0) as a, GROUPING_ID(f1, f2) as gid FROM MyTable GROUP BY ROLLUP (f1, f2)) EXCEPT (SELECT f1, f2, avg(f0) as a, GROUPING_ID(f1, f2) as gid FROM MyTable GROUP BY GROUPING SETS ((f1, f2), (f1), ())));
+--------+
| EXPR$0 |
+--------+
|      0 |
+--------+
1 row in set
!ok
SELECT COUNT(*) FROM (SELECT f1, f2, avg(f0) as a, GROUPING_ID(f1, f2) as gid FROM MyTable GROUP BY CUBE (f1, f2));
+--------+
| EXPR$0 |
+--------+
|     49 |
+--------+
1 row in set
!ok
SELECT COUNT(*) FROM ((SELECT f1, f2, avg(f0) as a, GROUPING_ID(f1, f2) as gid FROM MyTable GROUP BY CUBE (f1, f2)) EXCEPT (SELECT f1, f2, avg(f0) as a, GROUPING_ID(f1, f2) as gid FROM MyTable GROUP BY GROUPING SETS ((f1, f2), (f1), (f2), ())));
+--------+
| EXPR$0 |
+--------+
|      0 |
+--------+
1 row in set
!ok

# GROUPING outside an aggregate query is an error (Calcite)
SELECT GROUPING(deptno) FROM emp;
[ERROR] Could not execute SQL statement. Reason:
GROUPING
!error
