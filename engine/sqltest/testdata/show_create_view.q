# show_create_view.q - SHOW CREATE VIEW prints the view's expanded query as
# Flink 2.3.0 keeps it (Calcite's unparse of the validated query): tables in
# full with an alias, * replaced by the columns, references qualified,
# built-in functions in upper case, LIMIT as FETCH NEXT, VALUES rows as ROW,
# BETWEEN ASYMMETRIC, CASE x WHEN as CASE WHEN x = ..., ELSE NULL, USING
# columns as COALESCE, window TVFs over the table's subquery, generated
# EXPR$n aliases, scalar subqueries in Calcite's parentheses. Checked on
# Flink 2.3.0.

CREATE TABLE t (a INT, b STRING, ts TIMESTAMP(3), arr ARRAY<INT>, m MAP<STRING, INT>, r ROW<f INT, g STRING>, pt AS PROCTIME(), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'datagen');
[INFO] Execute statement succeeded.
!info
CREATE TABLE u (a INT, c DOUBLE, PRIMARY KEY (a) NOT ENFORCED) WITH ('connector' = 'datagen');
[INFO] Execute statement succeeded.
!info
CREATE VIEW y1 AS WITH c1 AS (SELECT a FROM t), c2 AS (SELECT a FROM u) SELECT c1.a FROM c1, c2 WHERE c1.a = c2.a;
[INFO] Execute statement succeeded.
!info
SHOW CREATE VIEW y1;
CREATE VIEW `default_catalog`.`default_database`.`y1` (
  `a`
)
AS WITH `c1` AS (SELECT `t`.`a`
FROM `default_catalog`.`default_database`.`t` AS `t`), `c2` AS (SELECT `u`.`a`
FROM `default_catalog`.`default_database`.`u` AS `u`) SELECT `c1`.`a`
FROM `c1` AS `c1`,
`c2` AS `c2`
WHERE `c1`.`a` = `c2`.`a`
!ok
CREATE VIEW y2 AS SELECT w.window_start, COUNT(*) AS n FROM TABLE(HOP(TABLE t, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '10' SECOND)) AS w GROUP BY w.window_start, w.window_end;
[INFO] Execute statement succeeded.
!info
SHOW CREATE VIEW y2;
CREATE VIEW `default_catalog`.`default_database`.`y2` (
  `window_start`,
  `n`
)
AS SELECT `w`.`window_start`, COUNT(*) AS `n`
FROM TABLE(HOP((SELECT `t`.`a`, `t`.`b`, `t`.`ts`, `t`.`arr`, `t`.`m`, `t`.`r`, `t`.`pt`
FROM `default_catalog`.`default_database`.`t` AS `t`), DESCRIPTOR(`ts`), INTERVAL '5' SECOND, INTERVAL '10' SECOND)) AS `w`
GROUP BY `w`.`window_start`, `w`.`window_end`
!ok
CREATE VIEW y3 AS SELECT t.a, u.c FROM t JOIN u FOR SYSTEM_TIME AS OF t.pt ON t.a = u.a;
[INFO] Execute statement succeeded.
!info
SHOW CREATE VIEW y3;
CREATE VIEW `default_catalog`.`default_database`.`y3` (
  `a`,
  `c`
)
AS SELECT `t`.`a`, `u`.`c`
FROM `default_catalog`.`default_database`.`t` AS `t`
INNER JOIN `default_catalog`.`default_database`.`u` FOR SYSTEM_TIME AS OF `t`.`pt` AS `u` ON `t`.`a` = `u`.`a`
!ok
CREATE VIEW y4 AS SELECT b FROM t ORDER BY a;
[INFO] Execute statement succeeded.
!info
SHOW CREATE VIEW y4;
CREATE VIEW `default_catalog`.`default_database`.`y4` (
  `b`
)
AS SELECT `t`.`b`
FROM `default_catalog`.`default_database`.`t` AS `t`
ORDER BY `t`.`a`
!ok
CREATE VIEW y5 AS SELECT CAST(a AS STRING) AS s, CAST(b AS INT) AS i, CAST(ts AS DATE) AS d, EXTRACT(HOUR FROM ts) AS h, CASE a WHEN 1 THEN 'x' WHEN 2 THEN 'y' END AS cw, a NOT IN (1, 2) AS ni, (a > 1) IS TRUE AS bt, CURRENT_DATE AS cd FROM t;
[INFO] Execute statement succeeded.
!info
SHOW CREATE VIEW y5;
CREATE VIEW `default_catalog`.`default_database`.`y5` (
  `s`,
  `i`,
  `d`,
  `h`,
  `cw`,
  `ni`,
  `bt`,
  `cd`
)
AS SELECT CAST(`t`.`a` AS STRING) AS `s`, CAST(`t`.`b` AS INTEGER) AS `i`, CAST(`t`.`ts` AS DATE) AS `d`, EXTRACT(HOUR FROM `t`.`ts`) AS `h`, CASE WHEN `t`.`a` = 1 THEN 'x' WHEN `t`.`a` = 2 THEN 'y' ELSE NULL END AS `cw`, `t`.`a` NOT IN (1, 2) AS `ni`, `t`.`a` > 1 IS TRUE AS `bt`, CURRENT_DATE AS `cd`
FROM `default_catalog`.`default_database`.`t` AS `t`
!ok
CREATE VIEW y6 AS SELECT arr[1] AS e1, m['k'] AS mk, r.f AS rf, t.r.g AS rg, ARRAY[1, 2] AS ar, MAP['a', 1] AS mp, CONCAT(b, 'x') AS cc, IF(a > 1, 'p', 'q') AS iff, DATE '2020-01-01' AS dl, INTERVAL '2' HOUR AS ih FROM t;
[INFO] Execute statement succeeded.
!info
SHOW CREATE VIEW y6;
CREATE VIEW `default_catalog`.`default_database`.`y6` (
  `e1`,
  `mk`,
  `rf`,
  `rg`,
  `ar`,
  `mp`,
  `cc`,
  `iff`,
  `dl`,
  `ih`
)
AS SELECT `t`.`arr`[1] AS `e1`, `t`.`m`['k'] AS `mk`, `t`.`r`.`f` AS `rf`, `t`.`r`.`g` AS `rg`, ARRAY[1, 2] AS `ar`, MAP['a', 1] AS `mp`, CONCAT(`t`.`b`, 'x') AS `cc`, IF(`t`.`a` > 1, 'p', 'q') AS `iff`, DATE '2020-01-01' AS `dl`, INTERVAL '2' HOUR AS `ih`
FROM `default_catalog`.`default_database`.`t` AS `t`
!ok
CREATE VIEW y7 AS SELECT a, SUM(c) FILTER (WHERE c > 0) AS sp, LISTAGG(CAST(a AS STRING), ';') AS la FROM u GROUP BY a HAVING a > 0;
[INFO] Execute statement succeeded.
!info
SHOW CREATE VIEW y7;
CREATE VIEW `default_catalog`.`default_database`.`y7` (
  `a`,
  `sp`,
  `la`
)
AS SELECT `u`.`a`, SUM(`u`.`c`) FILTER (WHERE `u`.`c` > 0) AS `sp`, LISTAGG(CAST(`u`.`a` AS STRING), ';') AS `la`
FROM `default_catalog`.`default_database`.`u` AS `u`
GROUP BY `u`.`a`
HAVING `u`.`a` > 0
!ok
CREATE VIEW y8 AS SELECT * FROM (SELECT a, ROW_NUMBER() OVER (PARTITION BY b ORDER BY ts DESC) AS rn FROM t) WHERE rn <= 3;
[INFO] Execute statement succeeded.
!info
SHOW CREATE VIEW y8;
CREATE VIEW `default_catalog`.`default_database`.`y8` (
  `a`,
  `rn`
)
AS SELECT `EXPR$0`.`a`, `EXPR$0`.`rn`
FROM (SELECT `t`.`a`, ROW_NUMBER() OVER (PARTITION BY `t`.`b` ORDER BY `t`.`ts` DESC) AS `rn`
FROM `default_catalog`.`default_database`.`t` AS `t`) AS `EXPR$0`
WHERE `EXPR$0`.`rn` <= 3
!ok
CREATE VIEW y9 AS SELECT a, b FROM t WHERE a > (SELECT MAX(u.a) FROM u WHERE u.c > t.a);
[INFO] Execute statement succeeded.
!info
SHOW CREATE VIEW y9;
CREATE VIEW `default_catalog`.`default_database`.`y9` (
  `a`,
  `b`
)
AS SELECT `t`.`a`, `t`.`b`
FROM `default_catalog`.`default_database`.`t` AS `t`
WHERE `t`.`a` > (((SELECT MAX(`u`.`a`)
FROM `default_catalog`.`default_database`.`u` AS `u`
WHERE `u`.`c` > `t`.`a`)))
!ok
CREATE VIEW y10 AS SELECT a, SUM(a) OVER (PARTITION BY b ORDER BY ts ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS s FROM t;
[INFO] Execute statement succeeded.
!info
SHOW CREATE VIEW y10;
CREATE VIEW `default_catalog`.`default_database`.`y10` (
  `a`,
  `s`
)
AS SELECT `t`.`a`, SUM(`t`.`a`) OVER (PARTITION BY `t`.`b` ORDER BY `t`.`ts` ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS `s`
FROM `default_catalog`.`default_database`.`t` AS `t`
!ok
CREATE VIEW y11 AS SELECT a FROM t WHERE b LIKE 'a%' ESCAPE '!' AND b SIMILAR TO 'x' AND a IS DISTINCT FROM 3 AND NOT (a > 1 AND a < 5);
[INFO] Execute statement succeeded.
!info
SHOW CREATE VIEW y11;
CREATE VIEW `default_catalog`.`default_database`.`y11` (
  `a`
)
AS SELECT `t`.`a`
FROM `default_catalog`.`default_database`.`t` AS `t`
WHERE `t`.`b` LIKE 'a%' ESCAPE '!' AND `t`.`b` SIMILAR TO 'x' AND `t`.`a` IS DISTINCT FROM 3 AND NOT (`t`.`a` > 1 AND `t`.`a` < 5)
!ok
CREATE VIEW y12 AS SELECT b, COUNT(*) FROM t GROUP BY ROLLUP (b);
[INFO] Execute statement succeeded.
!info
SHOW CREATE VIEW y12;
CREATE VIEW `default_catalog`.`default_database`.`y12` (
  `b`,
  `EXPR$1`
)
AS SELECT `t`.`b`, COUNT(*)
FROM `default_catalog`.`default_database`.`t` AS `t`
GROUP BY ROLLUP(`t`.`b`)
!ok
CREATE VIEW y13 AS SELECT a FROM t LIMIT 10;
[INFO] Execute statement succeeded.
!info
SHOW CREATE VIEW y13;
CREATE VIEW `default_catalog`.`default_database`.`y13` (
  `a`
)
AS SELECT `t`.`a`
FROM `default_catalog`.`default_database`.`t` AS `t`
FETCH NEXT 10 ROWS ONLY
!ok
CREATE VIEW y14 AS SELECT u.a FROM u LEFT JOIN t ON u.a = t.a AND t.b = 'x' WHERE t.a IS NULL;
[INFO] Execute statement succeeded.
!info
SHOW CREATE VIEW y14;
CREATE VIEW `default_catalog`.`default_database`.`y14` (
  `a`
)
AS SELECT `u`.`a`
FROM `default_catalog`.`default_database`.`u` AS `u`
LEFT JOIN `default_catalog`.`default_database`.`t` AS `t` ON `u`.`a` = `t`.`a` AND `t`.`b` = 'x'
WHERE `t`.`a` IS NULL
!ok
CREATE VIEW z1 AS SELECT a, (SELECT MAX(a) FROM t) AS mx FROM t;
[INFO] Execute statement succeeded.
!info
SHOW CREATE VIEW z1;
CREATE VIEW `default_catalog`.`default_database`.`z1` (
  `a`,
  `mx`
)
AS SELECT `t`.`a`, (((SELECT MAX(`t`.`a`)
FROM `default_catalog`.`default_database`.`t` AS `t`))) AS `mx`
FROM `default_catalog`.`default_database`.`t` AS `t`
!ok
CREATE VIEW z2 AS SELECT a FROM t WHERE (SELECT MAX(a) FROM t) < a;
[INFO] Execute statement succeeded.
!info
SHOW CREATE VIEW z2;
CREATE VIEW `default_catalog`.`default_database`.`z2` (
  `a`
)
AS SELECT `t`.`a`
FROM `default_catalog`.`default_database`.`t` AS `t`
WHERE (((SELECT MAX(`t`.`a`)
FROM `default_catalog`.`default_database`.`t` AS `t`))) < `t`.`a`
!ok
CREATE VIEW z3 AS SELECT a FROM t WHERE a + (SELECT MIN(a) FROM t) > 2;
[INFO] Execute statement succeeded.
!info
SHOW CREATE VIEW z3;
CREATE VIEW `default_catalog`.`default_database`.`z3` (
  `a`
)
AS SELECT `t`.`a`
FROM `default_catalog`.`default_database`.`t` AS `t`
WHERE `t`.`a` + (((SELECT MIN(`t`.`a`)
FROM `default_catalog`.`default_database`.`t` AS `t`))) > 2
!ok
CREATE VIEW z4 AS SELECT COALESCE((SELECT MIN(a) FROM t), 0) AS z FROM t;
[INFO] Execute statement succeeded.
!info
SHOW CREATE VIEW z4;
CREATE VIEW `default_catalog`.`default_database`.`z4` (
  `z`
)
AS SELECT COALESCE(((SELECT MIN(`t`.`a`)
FROM `default_catalog`.`default_database`.`t` AS `t`)), 0) AS `z`
FROM `default_catalog`.`default_database`.`t` AS `t`
!ok
CREATE VIEW z5 AS SELECT CAST(a AS TINYINT) AS c1, CAST(a AS SMALLINT) AS c2, CAST(a AS BIGINT) AS c3, CAST(a AS FLOAT) AS c4, CAST(a AS DOUBLE) AS c5, CAST(a AS DECIMAL(10, 2)) AS c6, CAST(a AS BOOLEAN) AS c7, CAST(b AS VARCHAR(5)) AS c8, CAST(b AS CHAR(3)) AS c9, CAST(b AS TIMESTAMP(3)) AS c10, CAST(b AS BYTES) AS c11, CAST(b AS TIME) AS c12, CAST(b AS TIMESTAMP_LTZ(3)) AS c13, CAST(a AS DOUBLE PRECISION) AS c14, CASE WHEN a > 1 THEN 1 END AS c15 FROM t;
[INFO] Execute statement succeeded.
!info
SHOW CREATE VIEW z5;
CREATE VIEW `default_catalog`.`default_database`.`z5` (
  `c1`,
  `c2`,
  `c3`,
  `c4`,
  `c5`,
  `c6`,
  `c7`,
  `c8`,
  `c9`,
  `c10`,
  `c11`,
  `c12`,
  `c13`,
  `c14`,
  `c15`
)
AS SELECT CAST(`t`.`a` AS TINYINT) AS `c1`, CAST(`t`.`a` AS SMALLINT) AS `c2`, CAST(`t`.`a` AS BIGINT) AS `c3`, CAST(`t`.`a` AS FLOAT) AS `c4`, CAST(`t`.`a` AS DOUBLE) AS `c5`, CAST(`t`.`a` AS DECIMAL(10, 2)) AS `c6`, CAST(`t`.`a` AS BOOLEAN) AS `c7`, CAST(`t`.`b` AS VARCHAR(5)) AS `c8`, CAST(`t`.`b` AS CHAR(3)) AS `c9`, CAST(`t`.`b` AS TIMESTAMP(3)) AS `c10`, CAST(`t`.`b` AS BYTES) AS `c11`, CAST(`t`.`b` AS TIME) AS `c12`, CAST(`t`.`b` AS TIMESTAMP_LTZ(3)) AS `c13`, CAST(`t`.`a` AS DOUBLE) AS `c14`, CASE WHEN `t`.`a` > 1 THEN 1 ELSE NULL END AS `c15`
FROM `default_catalog`.`default_database`.`t` AS `t`
!ok
CREATE VIEW z6 AS SELECT * FROM (SELECT a FROM t), (SELECT b FROM t);
[INFO] Execute statement succeeded.
!info
SHOW CREATE VIEW z6;
CREATE VIEW `default_catalog`.`default_database`.`z6` (
  `a`,
  `b`
)
AS SELECT `EXPR$0`.`a`, `EXPR$1`.`b`
FROM (SELECT `t`.`a`
FROM `default_catalog`.`default_database`.`t` AS `t`) AS `EXPR$0`,
(SELECT `t`.`b`
FROM `default_catalog`.`default_database`.`t` AS `t`) AS `EXPR$1`
!ok
CREATE VIEW w1 AS SELECT s.a, s.n FROM (SELECT a, COUNT(*) AS n FROM t WHERE b LIKE 'x%' GROUP BY a HAVING COUNT(*) > 2) AS s ORDER BY s.n DESC LIMIT 3;
[INFO] Execute statement succeeded.
!info
SHOW CREATE VIEW w1;
CREATE VIEW `default_catalog`.`default_database`.`w1` (
  `a`,
  `n`
)
AS SELECT `s`.`a`, `s`.`n`
FROM (SELECT `t`.`a`, COUNT(*) AS `n`
FROM `default_catalog`.`default_database`.`t` AS `t`
WHERE `t`.`b` LIKE 'x%'
GROUP BY `t`.`a`
HAVING COUNT(*) > 2) AS `s`
ORDER BY `s`.`n` DESC
FETCH NEXT 3 ROWS ONLY
!ok
CREATE VIEW w2 AS WITH c AS (SELECT a, b FROM t) SELECT CAST(c.a AS BIGINT) AS ab, CASE WHEN c.b IS NULL THEN 'n' ELSE c.b END AS bb, c.a IN (SELECT a FROM t) AS inn FROM c LEFT JOIN t ON c.a = t.a;
[INFO] Execute statement succeeded.
!info
SHOW CREATE VIEW w2;
CREATE VIEW `default_catalog`.`default_database`.`w2` (
  `ab`,
  `bb`,
  `inn`
)
AS WITH `c` AS (SELECT `t`.`a`, `t`.`b`
FROM `default_catalog`.`default_database`.`t` AS `t`) SELECT CAST(`c`.`a` AS BIGINT) AS `ab`, CASE WHEN `c`.`b` IS NULL THEN 'n' ELSE `c`.`b` END AS `bb`, `c`.`a` IN (SELECT `t`.`a`
FROM `default_catalog`.`default_database`.`t` AS `t`) AS `inn`
FROM `c` AS `c`
LEFT JOIN `default_catalog`.`default_database`.`t` AS `t` ON `c`.`a` = `t`.`a`
!ok
CREATE VIEW w3 AS SELECT window_start, window_end, SUM(a) AS s FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '10' MINUTES)) GROUP BY window_start, window_end;
[INFO] Execute statement succeeded.
!info
SHOW CREATE VIEW w3;
CREATE VIEW `default_catalog`.`default_database`.`w3` (
  `window_start`,
  `window_end`,
  `s`
)
AS SELECT `EXPR$0`.`window_start`, `EXPR$0`.`window_end`, SUM(`EXPR$0`.`a`) AS `s`
FROM TABLE(TUMBLE((SELECT `t`.`a`, `t`.`b`, `t`.`ts`, `t`.`arr`, `t`.`m`, `t`.`r`, `t`.`pt`
FROM `default_catalog`.`default_database`.`t` AS `t`), DESCRIPTOR(`ts`), INTERVAL '10' MINUTE)) AS `EXPR$0`
GROUP BY `EXPR$0`.`window_start`, `EXPR$0`.`window_end`
!ok
CREATE VIEW w4 AS SELECT DISTINCT lower(b) AS lb, a + 1 AS a1, 'it''s' AS lit, TRUE AS tr, 2.5 AS d FROM t WHERE a BETWEEN 1 AND 3 AND b <> 'z' OR NOT (a = 2);
[INFO] Execute statement succeeded.
!info
SHOW CREATE VIEW w4;
CREATE VIEW `default_catalog`.`default_database`.`w4` (
  `lb`,
  `a1`,
  `lit`,
  `tr`,
  `d`
)
AS SELECT DISTINCT LOWER(`t`.`b`) AS `lb`, `t`.`a` + 1 AS `a1`, 'it''s' AS `lit`, TRUE AS `tr`, 2.5 AS `d`
FROM `default_catalog`.`default_database`.`t` AS `t`
WHERE `t`.`a` BETWEEN ASYMMETRIC 1 AND 3 AND `t`.`b` <> 'z' OR NOT `t`.`a` = 2
!ok
CREATE VIEW w5 AS SELECT a, ROW_NUMBER() OVER (PARTITION BY b ORDER BY ts) AS rn FROM t;
[INFO] Execute statement succeeded.
!info
SHOW CREATE VIEW w5;
CREATE VIEW `default_catalog`.`default_database`.`w5` (
  `a`,
  `rn`
)
AS SELECT `t`.`a`, ROW_NUMBER() OVER (PARTITION BY `t`.`b` ORDER BY `t`.`ts`) AS `rn`
FROM `default_catalog`.`default_database`.`t` AS `t`
!ok
CREATE VIEW w6 AS SELECT * FROM t UNION SELECT * FROM t;
[INFO] Execute statement succeeded.
!info
SHOW CREATE VIEW w6;
CREATE VIEW `default_catalog`.`default_database`.`w6` (
  `a`,
  `b`,
  `ts`,
  `arr`,
  `m`,
  `r`,
  `pt`
)
AS SELECT `t`.`a`, `t`.`b`, `t`.`ts`, `t`.`arr`, `t`.`m`, `t`.`r`, `t`.`pt`
FROM `default_catalog`.`default_database`.`t` AS `t`
UNION
SELECT `t`.`a`, `t`.`b`, `t`.`ts`, `t`.`arr`, `t`.`m`, `t`.`r`, `t`.`pt`
FROM `default_catalog`.`default_database`.`t` AS `t`
!ok
CREATE VIEW x1 AS SELECT b AS bb, COUNT(*) AS cnt FROM t GROUP BY b ORDER BY cnt DESC, bb LIMIT 5 OFFSET 2;
[INFO] Execute statement succeeded.
!info
SHOW CREATE VIEW x1;
CREATE VIEW `default_catalog`.`default_database`.`x1` (
  `bb`,
  `cnt`
)
AS SELECT `t`.`b` AS `bb`, COUNT(*) AS `cnt`
FROM `default_catalog`.`default_database`.`t` AS `t`
GROUP BY `t`.`b`
ORDER BY `cnt` DESC, `bb`
OFFSET 2 ROWS
FETCH NEXT 5 ROWS ONLY
!ok
CREATE VIEW x2 AS SELECT t.*, u.c FROM t, u WHERE t.a = u.a AND u.c > 1.5e0;
[INFO] Execute statement succeeded.
!info
SHOW CREATE VIEW x2;
CREATE VIEW `default_catalog`.`default_database`.`x2` (
  `a`,
  `b`,
  `ts`,
  `arr`,
  `m`,
  `r`,
  `pt`,
  `c`
)
AS SELECT `t`.`a`, `t`.`b`, `t`.`ts`, `t`.`arr`, `t`.`m`, `t`.`r`, `t`.`pt`, `u`.`c`
FROM `default_catalog`.`default_database`.`t` AS `t`,
`default_catalog`.`default_database`.`u` AS `u`
WHERE `t`.`a` = `u`.`a` AND `u`.`c` > 1.5E0
!ok
CREATE VIEW x3 AS SELECT a, c FROM t JOIN u USING (a);
[INFO] Execute statement succeeded.
!info
SHOW CREATE VIEW x3;
CREATE VIEW `default_catalog`.`default_database`.`x3` (
  `a`,
  `c`
)
AS SELECT COALESCE(`t`.`a`, `u`.`a`) AS `a`, `u`.`c`
FROM `default_catalog`.`default_database`.`t` AS `t`
INNER JOIN `default_catalog`.`default_database`.`u` AS `u` USING (`a`)
!ok
CREATE VIEW x4 AS SELECT a AS k FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.a = t.a) AND b IS NOT NULL AND ts > TIMESTAMP '2020-01-01 00:00:00' AND b IN ('p', 'q');
[INFO] Execute statement succeeded.
!info
SHOW CREATE VIEW x4;
CREATE VIEW `default_catalog`.`default_database`.`x4` (
  `k`
)
AS SELECT `t`.`a` AS `k`
FROM `default_catalog`.`default_database`.`t` AS `t`
WHERE EXISTS (SELECT 1
FROM `default_catalog`.`default_database`.`u` AS `u`
WHERE `u`.`a` = `t`.`a`) AND `t`.`b` IS NOT NULL AND `t`.`ts` > TIMESTAMP '2020-01-01 00:00:00' AND `t`.`b` IN ('p', 'q')
!ok
CREATE VIEW x5 AS SELECT COUNT(DISTINCT b) AS n, SUBSTRING(b FROM 1 FOR 2) AS s2, TRIM(b) AS tb, CURRENT_TIMESTAMP AS now1, a % 2 AS m, -a AS neg, b || 'x' AS cc FROM t GROUP BY b, a;
[INFO] Execute statement succeeded.
!info
SHOW CREATE VIEW x5;
CREATE VIEW `default_catalog`.`default_database`.`x5` (
  `n`,
  `s2`,
  `tb`,
  `now1`,
  `m`,
  `neg`,
  `cc`
)
AS SELECT COUNT(DISTINCT `t`.`b`) AS `n`, SUBSTRING(`t`.`b`, 1, 2) AS `s2`, TRIM(BOTH ' ' FROM `t`.`b`) AS `tb`, CURRENT_TIMESTAMP AS `now1`, `t`.`a` % 2 AS `m`, - `t`.`a` AS `neg`, `t`.`b` || 'x' AS `cc`
FROM `default_catalog`.`default_database`.`t` AS `t`
GROUP BY `t`.`b`, `t`.`a`
!ok
CREATE VIEW x6 AS SELECT v.k + 1 AS k1 FROM x4 v;
[INFO] Execute statement succeeded.
!info
SHOW CREATE VIEW x6;
CREATE VIEW `default_catalog`.`default_database`.`x6` (
  `k1`
)
AS SELECT `v`.`k` + 1 AS `k1`
FROM `default_catalog`.`default_database`.`x4` AS `v`
!ok
CREATE VIEW x7 AS SELECT a FROM t WHERE a > 1 UNION ALL (SELECT a FROM u) EXCEPT SELECT a FROM u;
[INFO] Execute statement succeeded.
!info
SHOW CREATE VIEW x7;
CREATE VIEW `default_catalog`.`default_database`.`x7` (
  `a`
)
AS SELECT `t`.`a`
FROM `default_catalog`.`default_database`.`t` AS `t`
WHERE `t`.`a` > 1
UNION ALL
SELECT `u`.`a`
FROM `default_catalog`.`default_database`.`u` AS `u`
EXCEPT
SELECT `u`.`a`
FROM `default_catalog`.`default_database`.`u` AS `u`
!ok
CREATE VIEW x8 AS SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS q(x, y);
[INFO] Execute statement succeeded.
!info
SHOW CREATE VIEW x8;
CREATE VIEW `default_catalog`.`default_database`.`x8` (
  `x`,
  `y`
)
AS SELECT `q`.`x`, `q`.`y`
FROM (VALUES ROW(1, 'a'),
ROW(2, 'b')) AS `q` (`x`, `y`)
!ok
