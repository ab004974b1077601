# window_ooo.q - out-of-order rows in time-based operators, in batch and
# streaming mode.
#
# ev_ooo.csv holds seven rows; the watermark is ts - 2 s and
# pipeline.auto-watermark-interval is 0, so in streaming mode every row
# that advances the watermark is followed by it:
#
#   row  k  v  ts        watermark after the row (streaming)
#   1    a  1  00:00:01  23:59:59
#   2    a  2  00:00:07  00:00:05
#   3    b  3  00:00:12  00:00:10  -> [00:00, 00:10) complete
#   4    a  4  00:00:03  (late for [00:00, 00:10))
#   5    b  5  00:00:25  00:00:23
#   6    a  6  00:00:09  (late)
#   7    b  7  00:00:31  00:00:29
#
# In batch mode Flink ignores watermarks: the batch plan has no watermark
# assigner and every operator sees the whole bounded input, so no row is
# late and rows 4 and 6 count. In streaming mode they are dropped by the
# operators that wait for the watermark.

SET 'pipeline.auto-watermark-interval' = '0';
[INFO] Execute statement succeeded.
!info

SET 'parallelism.default' = '1';
[INFO] Execute statement succeeded.
!info

CREATE TABLE ev (
  k STRING,
  v INT,
  ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '2' SECOND
) WITH (
  'connector' = 'filesystem',
  'path' = '${TESTDATA}/ev_ooo.csv',
  'format' = 'csv'
);
[INFO] Execute statement succeeded.
!info

# sessions_ooo.csv: a@01, a@07, then a@03 while the watermark is 00:00:05
# (session [00:01, 00:06) is not complete yet), then b@30.
CREATE TABLE s (
  k STRING,
  v INT,
  ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '2' SECOND
) WITH (
  'connector' = 'filesystem',
  'path' = '${TESTDATA}/sessions_ooo.csv',
  'format' = 'csv'
);
[INFO] Execute statement succeeded.
!info

# ---------------------------------------------------------------- streaming
SET 'execution.runtime-mode' = 'streaming';
[INFO] Execute statement succeeded.
!info

# Window TVF aggregation.
SELECT k, window_start, COUNT(*) AS c, SUM(v) AS s
FROM TABLE(TUMBLE(TABLE ev, DESCRIPTOR(ts), INTERVAL '10' SECOND))
GROUP BY k, window_start, window_end;
+----+--------------------------------+-------------------------+----------------------+-------------+
| op |                              k |            window_start |                    c |           s |
+----+--------------------------------+-------------------------+----------------------+-------------+
| +I |                              a | 2024-01-01 00:00:00.000 |                    2 |           3 |
| +I |                              b | 2024-01-01 00:00:10.000 |                    1 |           3 |
| +I |                              b | 2024-01-01 00:00:20.000 |                    1 |           5 |
| +I |                              b | 2024-01-01 00:00:30.000 |                    1 |           7 |
+----+--------------------------------+-------------------------+----------------------+-------------+
Received a total of 4 rows
!unordered

# Legacy group window.
SELECT k, TUMBLE_START(ts, INTERVAL '10' SECOND) AS ws, COUNT(*) AS c, SUM(v) AS s
FROM ev GROUP BY k, TUMBLE(ts, INTERVAL '10' SECOND);
+----+--------------------------------+-------------------------+----------------------+-------------+
| op |                              k |                      ws |                    c |           s |
+----+--------------------------------+-------------------------+----------------------+-------------+
| +I |                              a | 2024-01-01 00:00:00.000 |                    2 |           3 |
| +I |                              b | 2024-01-01 00:00:10.000 |                    1 |           3 |
| +I |                              b | 2024-01-01 00:00:20.000 |                    1 |           5 |
| +I |                              b | 2024-01-01 00:00:30.000 |                    1 |           7 |
+----+--------------------------------+-------------------------+----------------------+-------------+
Received a total of 4 rows
!unordered

# SESSION window TVF, 5 s gap.
SELECT k, window_start, window_end, COUNT(*) AS c, SUM(v) AS s
FROM TABLE(SESSION(TABLE ev PARTITION BY k, DESCRIPTOR(ts), INTERVAL '5' SECOND))
GROUP BY k, window_start, window_end;
+----+--------------------------------+-------------------------+-------------------------+----------------------+-------------+
| op |                              k |            window_start |              window_end |                    c |           s |
+----+--------------------------------+-------------------------+-------------------------+----------------------+-------------+
| +I |                              a | 2024-01-01 00:00:01.000 | 2024-01-01 00:00:06.000 |                    1 |           1 |
| +I |                              a | 2024-01-01 00:00:03.000 | 2024-01-01 00:00:12.000 |                    2 |           6 |
| +I |                              b | 2024-01-01 00:00:12.000 | 2024-01-01 00:00:17.000 |                    1 |           3 |
| +I |                              b | 2024-01-01 00:00:25.000 | 2024-01-01 00:00:30.000 |                    1 |           5 |
| +I |                              b | 2024-01-01 00:00:31.000 | 2024-01-01 00:00:36.000 |                    1 |           7 |
+----+--------------------------------+-------------------------+-------------------------+----------------------+-------------+
Received a total of 5 rows
!unordered

# Legacy SESSION group window.
SELECT k, SESSION_START(ts, INTERVAL '5' SECOND) AS ws, SESSION_END(ts, INTERVAL '5' SECOND) AS we, COUNT(*) AS c
FROM ev GROUP BY k, SESSION(ts, INTERVAL '5' SECOND);
+----+--------------------------------+-------------------------+-------------------------+----------------------+
| op |                              k |                      ws |                      we |                    c |
+----+--------------------------------+-------------------------+-------------------------+----------------------+
| +I |                              a | 2024-01-01 00:00:01.000 | 2024-01-01 00:00:06.000 |                    1 |
| +I |                              a | 2024-01-01 00:00:03.000 | 2024-01-01 00:00:12.000 |                    2 |
| +I |                              b | 2024-01-01 00:00:12.000 | 2024-01-01 00:00:17.000 |                    1 |
| +I |                              b | 2024-01-01 00:00:25.000 | 2024-01-01 00:00:30.000 |                    1 |
| +I |                              b | 2024-01-01 00:00:31.000 | 2024-01-01 00:00:36.000 |                    1 |
+----+--------------------------------+-------------------------+-------------------------+----------------------+
Received a total of 5 rows
!unordered

# Out-of-order rows within the watermark delay merge sessions.
SELECT k, window_start, window_end, COUNT(*) AS c, SUM(v) AS s
FROM TABLE(SESSION(TABLE s PARTITION BY k, DESCRIPTOR(ts), INTERVAL '5' SECOND))
GROUP BY k, window_start, window_end;
+----+--------------------------------+-------------------------+-------------------------+----------------------+-------------+
| op |                              k |            window_start |              window_end |                    c |           s |
+----+--------------------------------+-------------------------+-------------------------+----------------------+-------------+
| +I |                              a | 2024-01-01 00:00:01.000 | 2024-01-01 00:00:12.000 |                    3 |           7 |
| +I |                              b | 2024-01-01 00:00:30.000 | 2024-01-01 00:00:35.000 |                    1 |           5 |
+----+--------------------------------+-------------------------+-------------------------+----------------------+-------------+
Received a total of 2 rows
!unordered

# Window Top-N: the largest v of each window.
SELECT k, v, window_start FROM (
  SELECT k, v, window_start, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY v DESC) AS rn
  FROM TABLE(TUMBLE(TABLE ev, DESCRIPTOR(ts), INTERVAL '10' SECOND)))
WHERE rn <= 1;
+----+--------------------------------+-------------+-------------------------+
| op |                              k |           v |            window_start |
+----+--------------------------------+-------------+-------------------------+
| +I |                              a |           2 | 2024-01-01 00:00:00.000 |
| +I |                              b |           3 | 2024-01-01 00:00:10.000 |
| +I |                              b |           5 | 2024-01-01 00:00:20.000 |
| +I |                              b |           7 | 2024-01-01 00:00:30.000 |
+----+--------------------------------+-------------+-------------------------+
Received a total of 4 rows
!unordered

# Window deduplication: the last row of each key and window.
SELECT k, v, ts, window_start FROM (
  SELECT k, v, ts, window_start, ROW_NUMBER() OVER (PARTITION BY k, window_start, window_end ORDER BY ts DESC) AS rn
  FROM TABLE(TUMBLE(TABLE ev, DESCRIPTOR(ts), INTERVAL '10' SECOND)))
WHERE rn = 1;
+----+--------------------------------+-------------+-------------------------+-------------------------+
| op |                              k |           v |                      ts |            window_start |
+----+--------------------------------+-------------+-------------------------+-------------------------+
| +I |                              a |           2 | 2024-01-01 00:00:07.000 | 2024-01-01 00:00:00.000 |
| +I |                              b |           3 | 2024-01-01 00:00:12.000 | 2024-01-01 00:00:10.000 |
| +I |                              b |           5 | 2024-01-01 00:00:25.000 | 2024-01-01 00:00:20.000 |
| +I |                              b |           7 | 2024-01-01 00:00:31.000 | 2024-01-01 00:00:30.000 |
+----+--------------------------------+-------------+-------------------------+-------------------------+
Received a total of 4 rows
!unordered

# (The streaming window join and interval join of ev with itself are left
# out: which rows are late there depends on how the two inputs' rows
# interleave, as in Flink; batch mode below has no such dependency.)

# OVER with a RANGE on the rowtime.
# riffle-only: event-time semantics: Flink's periodic watermarks judge other rows late in this streaming OVER window
SELECT k, v, ts, SUM(v) OVER (PARTITION BY k ORDER BY ts RANGE BETWEEN INTERVAL '5' SECOND PRECEDING AND CURRENT ROW) AS s
FROM ev;
+----+--------------------------------+-------------+-------------------------+-------------+
| op |                              k |           v |                      ts |           s |
+----+--------------------------------+-------------+-------------------------+-------------+
| +I |                              a |           1 | 2024-01-01 00:00:01.000 |           1 |
| +I |                              a |           2 | 2024-01-01 00:00:07.000 |           2 |
| +I |                              b |           3 | 2024-01-01 00:00:12.000 |           3 |
| +I |                              b |           5 | 2024-01-01 00:00:25.000 |           5 |
| +I |                              b |           7 | 2024-01-01 00:00:31.000 |           7 |
+----+--------------------------------+-------------+-------------------------+-------------+
Received a total of 5 rows
!unordered

# ORDER BY the rowtime.
SELECT k, v, ts FROM ev ORDER BY ts;
+----+--------------------------------+-------------+-------------------------+
| op |                              k |           v |                      ts |
+----+--------------------------------+-------------+-------------------------+
| +I |                              a |           1 | 2024-01-01 00:00:01.000 |
| +I |                              a |           2 | 2024-01-01 00:00:07.000 |
| +I |                              b |           3 | 2024-01-01 00:00:12.000 |
| +I |                              b |           5 | 2024-01-01 00:00:25.000 |
| +I |                              b |           7 | 2024-01-01 00:00:31.000 |
+----+--------------------------------+-------------+-------------------------+
Received a total of 5 rows
!ok

# HOP with a slide longer than its size: a row gets only the windows
# that contain it (b@12 and b@31 fall in gaps).
SELECT k, ts, window_start, window_end
FROM TABLE(HOP(TABLE ev, DESCRIPTOR(ts), INTERVAL '20' SECOND, INTERVAL '10' SECOND));
+----+--------------------------------+-------------------------+-------------------------+-------------------------+
| op |                              k |                      ts |            window_start |              window_end |
+----+--------------------------------+-------------------------+-------------------------+-------------------------+
| +I |                              a | 2024-01-01 00:00:01.000 | 2024-01-01 00:00:00.000 | 2024-01-01 00:00:10.000 |
| +I |                              a | 2024-01-01 00:00:07.000 | 2024-01-01 00:00:00.000 | 2024-01-01 00:00:10.000 |
| +I |                              a | 2024-01-01 00:00:03.000 | 2024-01-01 00:00:00.000 | 2024-01-01 00:00:10.000 |
| +I |                              b | 2024-01-01 00:00:25.000 | 2024-01-01 00:00:20.000 | 2024-01-01 00:00:30.000 |
| +I |                              a | 2024-01-01 00:00:09.000 | 2024-01-01 00:00:00.000 | 2024-01-01 00:00:10.000 |
+----+--------------------------------+-------------------------+-------------------------+-------------------------+
Received a total of 5 rows
!unordered

# Legacy HOP group window with a slide longer than its size.
SELECT k, HOP_START(ts, INTERVAL '20' SECOND, INTERVAL '10' SECOND) AS ws, COUNT(*) AS c
FROM ev GROUP BY k, HOP(ts, INTERVAL '20' SECOND, INTERVAL '10' SECOND);
+----+--------------------------------+-------------------------+----------------------+
| op |                              k |                      ws |                    c |
+----+--------------------------------+-------------------------+----------------------+
| +I |                              a | 2024-01-01 00:00:00.000 |                    2 |
| +I |                              b | 2024-01-01 00:00:20.000 |                    1 |
+----+--------------------------------+-------------------------+----------------------+
Received a total of 2 rows
!unordered

# A HOP window aggregate needs a size that is a multiple of the slide
# (Flink's slicing window aggregate), with the position of the HOP call.
# riffle-only: error wording differs (Flink gives the message without its position)
SELECT k, window_start, window_end, COUNT(*) AS c
FROM TABLE(HOP(TABLE ev, DESCRIPTOR(ts), INTERVAL '20' SECOND, INTERVAL '10' SECOND))
GROUP BY k, window_start, window_end;
[ERROR] Could not execute SQL statement. Reason:
From line 2, column 12 to line 2, column 84: HOP table function based aggregate requires size must be an integral multiple of slide, but got size 10000 ms and slide 20000 ms
!error

# riffle-only: error wording differs (Flink gives the message without its position)
SELECT window_start, COUNT(*) AS c
FROM TABLE(
  HOP(TABLE ev, DESCRIPTOR(ts), INTERVAL '4' SECOND, INTERVAL '10' SECOND))
GROUP BY window_start, window_end;
[ERROR] Could not execute SQL statement. Reason:
From line 3, column 3 to line 3, column 74: HOP table function based aggregate requires size must be an integral multiple of slide, but got size 10000 ms and slide 4000 ms
!error

# ---------------------------------------------------------------- batch
SET 'execution.runtime-mode' = 'batch';
[INFO] Execute statement succeeded.
!info

# Window TVF aggregation.
SELECT k, window_start, COUNT(*) AS c, SUM(v) AS s
FROM TABLE(TUMBLE(TABLE ev, DESCRIPTOR(ts), INTERVAL '10' SECOND))
GROUP BY k, window_start, window_end;
+---+-------------------------+---+----+
| k |            window_start | c |  s |
+---+-------------------------+---+----+
| a | 2024-01-01 00:00:00.000 | 4 | 13 |
| b | 2024-01-01 00:00:10.000 | 1 |  3 |
| b | 2024-01-01 00:00:20.000 | 1 |  5 |
| b | 2024-01-01 00:00:30.000 | 1 |  7 |
+---+-------------------------+---+----+
4 rows in set
!unordered

# Legacy group window.
SELECT k, TUMBLE_START(ts, INTERVAL '10' SECOND) AS ws, COUNT(*) AS c, SUM(v) AS s
FROM ev GROUP BY k, TUMBLE(ts, INTERVAL '10' SECOND);
+---+-------------------------+---+----+
| k |                      ws | c |  s |
+---+-------------------------+---+----+
| a | 2024-01-01 00:00:00.000 | 4 | 13 |
| b | 2024-01-01 00:00:10.000 | 1 |  3 |
| b | 2024-01-01 00:00:20.000 | 1 |  5 |
| b | 2024-01-01 00:00:30.000 | 1 |  7 |
+---+-------------------------+---+----+
4 rows in set
!unordered

# SESSION window TVF, 5 s gap.
# riffle-only: Flink limitation: session window TVF in batch mode (Unaligned windows like session are not supported in batch mode yet)
SELECT k, window_start, window_end, COUNT(*) AS c, SUM(v) AS s
FROM TABLE(SESSION(TABLE ev PARTITION BY k, DESCRIPTOR(ts), INTERVAL '5' SECOND))
GROUP BY k, window_start, window_end;
+---+-------------------------+-------------------------+---+----+
| k |            window_start |              window_end | c |  s |
+---+-------------------------+-------------------------+---+----+
| a | 2024-01-01 00:00:01.000 | 2024-01-01 00:00:14.000 | 4 | 13 |
| b | 2024-01-01 00:00:12.000 | 2024-01-01 00:00:17.000 | 1 |  3 |
| b | 2024-01-01 00:00:25.000 | 2024-01-01 00:00:30.000 | 1 |  5 |
| b | 2024-01-01 00:00:31.000 | 2024-01-01 00:00:36.000 | 1 |  7 |
+---+-------------------------+-------------------------+---+----+
4 rows in set
!unordered

# Legacy SESSION group window.
# riffle-only: Flink limitation: GROUP BY SESSION in batch mode (Window SessionGroupWindow ... is not supported right now)
SELECT k, SESSION_START(ts, INTERVAL '5' SECOND) AS ws, SESSION_END(ts, INTERVAL '5' SECOND) AS we, COUNT(*) AS c
FROM ev GROUP BY k, SESSION(ts, INTERVAL '5' SECOND);
+---+-------------------------+-------------------------+---+
| k |                      ws |                      we | c |
+---+-------------------------+-------------------------+---+
| a | 2024-01-01 00:00:01.000 | 2024-01-01 00:00:14.000 | 4 |
| b | 2024-01-01 00:00:12.000 | 2024-01-01 00:00:17.000 | 1 |
| b | 2024-01-01 00:00:25.000 | 2024-01-01 00:00:30.000 | 1 |
| b | 2024-01-01 00:00:31.000 | 2024-01-01 00:00:36.000 | 1 |
+---+-------------------------+-------------------------+---+
4 rows in set
!unordered

# Out-of-order rows within the watermark delay merge sessions.
# riffle-only: Flink limitation: session window TVF in batch mode (Unaligned windows like session are not supported in batch mode yet)
SELECT k, window_start, window_end, COUNT(*) AS c, SUM(v) AS s
FROM TABLE(SESSION(TABLE s PARTITION BY k, DESCRIPTOR(ts), INTERVAL '5' SECOND))
GROUP BY k, window_start, window_end;
+---+-------------------------+-------------------------+---+---+
| k |            window_start |              window_end | c | s |
+---+-------------------------+-------------------------+---+---+
| a | 2024-01-01 00:00:01.000 | 2024-01-01 00:00:12.000 | 3 | 7 |
| b | 2024-01-01 00:00:30.000 | 2024-01-01 00:00:35.000 | 1 | 5 |
+---+-------------------------+-------------------------+---+---+
2 rows in set
!unordered

# Window Top-N: the largest v of each window.
SELECT k, v, window_start FROM (
  SELECT k, v, window_start, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY v DESC) AS rn
  FROM TABLE(TUMBLE(TABLE ev, DESCRIPTOR(ts), INTERVAL '10' SECOND)))
WHERE rn <= 1;
+---+---+-------------------------+
| k | v |            window_start |
+---+---+-------------------------+
| a | 6 | 2024-01-01 00:00:00.000 |
| b | 3 | 2024-01-01 00:00:10.000 |
| b | 5 | 2024-01-01 00:00:20.000 |
| b | 7 | 2024-01-01 00:00:30.000 |
+---+---+-------------------------+
4 rows in set
!unordered

# Window deduplication: the last row of each key and window.
SELECT k, v, ts, window_start FROM (
  SELECT k, v, ts, window_start, ROW_NUMBER() OVER (PARTITION BY k, window_start, window_end ORDER BY ts DESC) AS rn
  FROM TABLE(TUMBLE(TABLE ev, DESCRIPTOR(ts), INTERVAL '10' SECOND)))
WHERE rn = 1;
+---+---+-------------------------+-------------------------+
| k | v |                      ts |            window_start |
+---+---+-------------------------+-------------------------+
| a | 6 | 2024-01-01 00:00:09.000 | 2024-01-01 00:00:00.000 |
| b | 3 | 2024-01-01 00:00:12.000 | 2024-01-01 00:00:10.000 |
| b | 5 | 2024-01-01 00:00:25.000 | 2024-01-01 00:00:20.000 |
| b | 7 | 2024-01-01 00:00:31.000 | 2024-01-01 00:00:30.000 |
+---+---+-------------------------+-------------------------+
4 rows in set
!unordered

# Window join.
SELECT L.k, L.v AS lv, R.v AS rv, L.window_start
FROM (SELECT * FROM TABLE(TUMBLE(TABLE ev, DESCRIPTOR(ts), INTERVAL '10' SECOND))) L
JOIN (SELECT * FROM TABLE(TUMBLE(TABLE ev, DESCRIPTOR(ts), INTERVAL '10' SECOND))) R
ON L.window_start = R.window_start AND L.window_end = R.window_end AND L.k = R.k AND L.v + 2 = R.v;
+---+----+----+-------------------------+
| k | lv | rv |            window_start |
+---+----+----+-------------------------+
| a |  2 |  4 | 2024-01-01 00:00:00.000 |
| a |  4 |  6 | 2024-01-01 00:00:00.000 |
+---+----+----+-------------------------+
2 rows in set
!unordered

# Interval join.
# riffle-only: Flink bug: a rowtime (WATERMARK) column in batch mode breaks the plan (Conversion to relational algebra failed to preserve datatypes; cf. FLINK-25082)
SELECT L.k, L.ts AS lts, R.ts AS rts FROM ev L, ev R
WHERE L.k = R.k AND L.v < R.v AND R.ts BETWEEN L.ts - INTERVAL '3' SECOND AND L.ts + INTERVAL '3' SECOND;
+---+-------------------------+-------------------------+
| k |                     lts |                     rts |
+---+-------------------------+-------------------------+
| a | 2024-01-01 00:00:01.000 | 2024-01-01 00:00:03.000 |
| a | 2024-01-01 00:00:07.000 | 2024-01-01 00:00:09.000 |
+---+-------------------------+-------------------------+
2 rows in set
!unordered

# OVER with a RANGE on the rowtime.
# riffle-only: Flink bug: a rowtime (WATERMARK) column in batch mode breaks the plan (Conversion to relational algebra failed to preserve datatypes; cf. FLINK-25082)
SELECT k, v, ts, SUM(v) OVER (PARTITION BY k ORDER BY ts RANGE BETWEEN INTERVAL '5' SECOND PRECEDING AND CURRENT ROW) AS s
FROM ev;
+---+---+-------------------------+---+
| k | v |                      ts | s |
+---+---+-------------------------+---+
| a | 1 | 2024-01-01 00:00:01.000 | 1 |
| a | 4 | 2024-01-01 00:00:03.000 | 5 |
| a | 2 | 2024-01-01 00:00:07.000 | 6 |
| a | 6 | 2024-01-01 00:00:09.000 | 8 |
| b | 3 | 2024-01-01 00:00:12.000 | 3 |
| b | 5 | 2024-01-01 00:00:25.000 | 5 |
| b | 7 | 2024-01-01 00:00:31.000 | 7 |
+---+---+-------------------------+---+
7 rows in set
!unordered

# ORDER BY the rowtime.
# riffle-only: Flink bug: a rowtime (WATERMARK) column in batch mode breaks the plan (Conversion to relational algebra failed to preserve datatypes; cf. FLINK-25082)
SELECT k, v, ts FROM ev ORDER BY ts;
+---+---+-------------------------+
| k | v |                      ts |
+---+---+-------------------------+
| a | 1 | 2024-01-01 00:00:01.000 |
| a | 4 | 2024-01-01 00:00:03.000 |
| a | 2 | 2024-01-01 00:00:07.000 |
| a | 6 | 2024-01-01 00:00:09.000 |
| b | 3 | 2024-01-01 00:00:12.000 |
| b | 5 | 2024-01-01 00:00:25.000 |
| b | 7 | 2024-01-01 00:00:31.000 |
+---+---+-------------------------+
7 rows in set
!ok

# HOP with a slide longer than its size: a row gets only the windows
# that contain it (b@12 and b@31 fall in gaps).
# riffle-only: Flink bug: a rowtime (WATERMARK) column in batch mode breaks the plan (Type mismatch ... TIMESTAMP(3) *ROWTIME*; cf. FLINK-25082)
SELECT k, ts, window_start, window_end
FROM TABLE(HOP(TABLE ev, DESCRIPTOR(ts), INTERVAL '20' SECOND, INTERVAL '10' SECOND));
+---+-------------------------+-------------------------+-------------------------+
| k |                      ts |            window_start |              window_end |
+---+-------------------------+-------------------------+-------------------------+
| a | 2024-01-01 00:00:01.000 | 2024-01-01 00:00:00.000 | 2024-01-01 00:00:10.000 |
| a | 2024-01-01 00:00:07.000 | 2024-01-01 00:00:00.000 | 2024-01-01 00:00:10.000 |
| a | 2024-01-01 00:00:03.000 | 2024-01-01 00:00:00.000 | 2024-01-01 00:00:10.000 |
| b | 2024-01-01 00:00:25.000 | 2024-01-01 00:00:20.000 | 2024-01-01 00:00:30.000 |
| a | 2024-01-01 00:00:09.000 | 2024-01-01 00:00:00.000 | 2024-01-01 00:00:10.000 |
+---+-------------------------+-------------------------+-------------------------+
5 rows in set
!unordered

# Legacy HOP group window with a slide longer than its size.
# riffle-only: Flink bug: HOP_START over a rowtime column in batch mode fails at run time (TimestampData cannot be cast to java.lang.Long)
SELECT k, HOP_START(ts, INTERVAL '20' SECOND, INTERVAL '10' SECOND) AS ws, COUNT(*) AS c
FROM ev GROUP BY k, HOP(ts, INTERVAL '20' SECOND, INTERVAL '10' SECOND);
+---+-------------------------+---+
| k |                      ws | c |
+---+-------------------------+---+
| a | 2024-01-01 00:00:00.000 | 4 |
| b | 2024-01-01 00:00:20.000 | 1 |
+---+-------------------------+---+
2 rows in set
!unordered

# Batch mode aggregates the window table function's rows with any size
# and slide.
SELECT k, window_start, window_end, COUNT(*) AS c
FROM TABLE(HOP(TABLE ev, DESCRIPTOR(ts), INTERVAL '20' SECOND, INTERVAL '10' SECOND))
GROUP BY k, window_start, window_end;
+---+-------------------------+-------------------------+---+
| k |            window_start |              window_end | c |
+---+-------------------------+-------------------------+---+
| a | 2024-01-01 00:00:00.000 | 2024-01-01 00:00:10.000 | 4 |
| b | 2024-01-01 00:00:20.000 | 2024-01-01 00:00:30.000 | 1 |
+---+-------------------------+-------------------------+---+
2 rows in set
!unordered

SELECT window_start, COUNT(*) AS c
FROM TABLE(
  HOP(TABLE ev, DESCRIPTOR(ts), INTERVAL '4' SECOND, INTERVAL '10' SECOND))
GROUP BY window_start, window_end;
+-------------------------+---+
|            window_start | c |
+-------------------------+---+
| 2023-12-31 23:59:52.000 | 1 |
| 2023-12-31 23:59:56.000 | 2 |
| 2024-01-01 00:00:00.000 | 4 |
| 2024-01-01 00:00:04.000 | 3 |
| 2024-01-01 00:00:08.000 | 2 |
| 2024-01-01 00:00:12.000 | 1 |
| 2024-01-01 00:00:16.000 | 1 |
| 2024-01-01 00:00:20.000 | 1 |
| 2024-01-01 00:00:24.000 | 2 |
| 2024-01-01 00:00:28.000 | 1 |
+-------------------------+---+
10 rows in set
!unordered

# The batch plan has no watermark assigner.
# riffle-only: EXPLAIN text: Riffle plans are its own
EXPLAIN SELECT k, window_start, COUNT(*) AS c
FROM TABLE(TUMBLE(TABLE ev, DESCRIPTOR(ts), INTERVAL '10' SECOND))
GROUP BY k, window_start, window_end;
== Abstract Syntax Tree ==
LogicalProject(k=[$0], window_start=[$1], c=[$3])
+- LogicalAggregate(group=[{0, 1, 2}], EXPR$3=[COUNT()])
   +- LogicalProject(k=[$0], window_start=[$3], window_end=[$4])
      +- LogicalTableFunctionScan(invocation=[TUMBLE(DESCRIPTOR($2), 10000:INTERVAL SECOND)], rowType=[RecordType(STRING k, INT v, TIMESTAMP(3) ts, TIMESTAMP(3) NOT NULL window_start, TIMESTAMP(3) NOT NULL window_end, TIMESTAMP(3) NOT NULL *ROWTIME* window_time)])
         +- LogicalWatermarkAssigner(rowtime=[ts], watermark=[-($2, 2000:INTERVAL SECOND)])
            +- LogicalProject(k=[$0], v=[$1], ts=[$2])
               +- LogicalTableScan(table=[[default_catalog, default_database, ev]])

== Optimized Physical Plan ==
Calc(select=[k, window_start, EXPR$3 AS c])
+- WindowAggregate(groupBy=[k], window=[TUMBLE(time_col=[ts], size=[10 s])], select=[k, COUNT(*) AS EXPR$3, start('w$) AS window_start, end('w$) AS window_end, rowtime('w$) AS window_time])
   +- Exchange(distribution=[hash[k]])
      +- TableSourceScan(table=[[default_catalog, default_database, ev, project=[k, ts]]], fields=[k, ts])

== Optimized Execution Plan ==
Calc(select=[k, window_start, EXPR$3 AS c])
+- WindowAggregate(groupBy=[k], window=[TUMBLE(time_col=[ts], size=[10 s])], select=[k, COUNT(*) AS EXPR$3, start('w$) AS window_start, end('w$) AS window_end, rowtime('w$) AS window_time])
   +- Exchange(distribution=[hash[k]])
      +- TableSourceScan(table=[[default_catalog, default_database, ev, project=[k, ts]]], fields=[k, ts])
!ok
