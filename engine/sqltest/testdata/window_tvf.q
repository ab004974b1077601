# window_tvf.q - window table-valued functions and window aggregation in
# streaming mode (Flink's docs/dev/table/sql/queries/window-tvf.md and
# window-agg.md).
#
# bids_ooo.csv holds nine bids, some out of order. The watermark is
# ts - 5 s and pipeline.auto-watermark-interval is 0, so, as in Flink's
# WatermarkAssignerOperator, every row that advances the watermark is
# followed by it: the windows fire at exactly the same rows whatever the
# batches the file is read in.
#
#   row  ts        item price  watermark after the row
#   1    10:00:01  A    1      09:59:56
#   2    10:00:04  B    2      09:59:59
#   3    10:00:03  C    3      (out of order, within the bound)
#   4    10:00:12  A    4      10:00:07
#   5    10:00:08  B    5      (out of order, within the bound)
#   6    10:00:16  C    6      10:00:11  -> [10:00:00, 10:00:10) fires
#   7    10:00:05  A    7      late for every 10 s tumbling window
#   8    10:00:21  B    8      10:00:16
#   9    10:00:26  A    9      10:00:21  -> [10:00:10, 10:00:20) fires

SET 'pipeline.auto-watermark-interval' = '0';
[INFO] Execute statement succeeded.
!info

CREATE TABLE bids (
  ts TIMESTAMP(3),
  item STRING,
  price INT,
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH (
  'connector' = 'filesystem',
  'path' = '${TESTDATA}/bids_ooo.csv',
  'format' = 'csv'
);
[INFO] Execute statement succeeded.
!info

# A window TVF on its own emits every row at once with its window.
SELECT ts, item, window_start, window_end, window_time
FROM TABLE(TUMBLE(TABLE bids, DESCRIPTOR(ts), INTERVAL '10' SECOND));
+----+-------------------------+--------------------------------+-------------------------+-------------------------+-------------------------+
| op |                      ts |                           item |            window_start |              window_end |             window_time |
+----+-------------------------+--------------------------------+-------------------------+-------------------------+-------------------------+
| +I | 2024-03-01 10:00:01.000 |                              A | 2024-03-01 10:00:00.000 | 2024-03-01 10:00:10.000 | 2024-03-01 10:00:09.999 |
| +I | 2024-03-01 10:00:04.000 |                              B | 2024-03-01 10:00:00.000 | 2024-03-01 10:00:10.000 | 2024-03-01 10:00:09.999 |
| +I | 2024-03-01 10:00:03.000 |                              C | 2024-03-01 10:00:00.000 | 2024-03-01 10:00:10.000 | 2024-03-01 10:00:09.999 |
| +I | 2024-03-01 10:00:12.000 |                              A | 2024-03-01 10:00:10.000 | 2024-03-01 10:00:20.000 | 2024-03-01 10:00:19.999 |
| +I | 2024-03-01 10:00:08.000 |                              B | 2024-03-01 10:00:00.000 | 2024-03-01 10:00:10.000 | 2024-03-01 10:00:09.999 |
| +I | 2024-03-01 10:00:16.000 |                              C | 2024-03-01 10:00:10.000 | 2024-03-01 10:00:20.000 | 2024-03-01 10:00:19.999 |
| +I | 2024-03-01 10:00:05.000 |                              A | 2024-03-01 10:00:00.000 | 2024-03-01 10:00:10.000 | 2024-03-01 10:00:09.999 |
| +I | 2024-03-01 10:00:21.000 |                              B | 2024-03-01 10:00:20.000 | 2024-03-01 10:00:30.000 | 2024-03-01 10:00:29.999 |
| +I | 2024-03-01 10:00:26.000 |                              A | 2024-03-01 10:00:20.000 | 2024-03-01 10:00:30.000 | 2024-03-01 10:00:29.999 |
+----+-------------------------+--------------------------------+-------------------------+-------------------------+-------------------------+
Received a total of 9 rows
!ok

# HOP: one row per window, in order of window start.
SELECT ts, item, window_start, window_end
FROM TABLE(HOP(TABLE bids, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '10' SECOND))
WHERE item = 'A';
+----+-------------------------+--------------------------------+-------------------------+-------------------------+
| op |                      ts |                           item |            window_start |              window_end |
+----+-------------------------+--------------------------------+-------------------------+-------------------------+
| +I | 2024-03-01 10:00:01.000 |                              A | 2024-03-01 09:59:55.000 | 2024-03-01 10:00:05.000 |
| +I | 2024-03-01 10:00:01.000 |                              A | 2024-03-01 10:00:00.000 | 2024-03-01 10:00:10.000 |
| +I | 2024-03-01 10:00:12.000 |                              A | 2024-03-01 10:00:05.000 | 2024-03-01 10:00:15.000 |
| +I | 2024-03-01 10:00:12.000 |                              A | 2024-03-01 10:00:10.000 | 2024-03-01 10:00:20.000 |
| +I | 2024-03-01 10:00:05.000 |                              A | 2024-03-01 10:00:00.000 | 2024-03-01 10:00:10.000 |
| +I | 2024-03-01 10:00:05.000 |                              A | 2024-03-01 10:00:05.000 | 2024-03-01 10:00:15.000 |
| +I | 2024-03-01 10:00:26.000 |                              A | 2024-03-01 10:00:20.000 | 2024-03-01 10:00:30.000 |
| +I | 2024-03-01 10:00:26.000 |                              A | 2024-03-01 10:00:25.000 | 2024-03-01 10:00:35.000 |
+----+-------------------------+--------------------------------+-------------------------+-------------------------+
Received a total of 8 rows
!unordered

# CUMULATE: one row per step up to the end of the max-size window.
SELECT ts, item, window_start, window_end
FROM TABLE(CUMULATE(TABLE bids, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '15' SECOND))
WHERE item = 'B';
+----+-------------------------+--------------------------------+-------------------------+-------------------------+
| op |                      ts |                           item |            window_start |              window_end |
+----+-------------------------+--------------------------------+-------------------------+-------------------------+
| +I | 2024-03-01 10:00:04.000 |                              B | 2024-03-01 10:00:00.000 | 2024-03-01 10:00:05.000 |
| +I | 2024-03-01 10:00:04.000 |                              B | 2024-03-01 10:00:00.000 | 2024-03-01 10:00:10.000 |
| +I | 2024-03-01 10:00:04.000 |                              B | 2024-03-01 10:00:00.000 | 2024-03-01 10:00:15.000 |
| +I | 2024-03-01 10:00:08.000 |                              B | 2024-03-01 10:00:00.000 | 2024-03-01 10:00:10.000 |
| +I | 2024-03-01 10:00:08.000 |                              B | 2024-03-01 10:00:00.000 | 2024-03-01 10:00:15.000 |
| +I | 2024-03-01 10:00:21.000 |                              B | 2024-03-01 10:00:15.000 | 2024-03-01 10:00:25.000 |
| +I | 2024-03-01 10:00:21.000 |                              B | 2024-03-01 10:00:15.000 | 2024-03-01 10:00:30.000 |
+----+-------------------------+--------------------------------+-------------------------+-------------------------+
Received a total of 7 rows
!ok

# Named parameters, and an offset (positional).
SELECT ts, window_start, window_end
FROM TABLE(TUMBLE(DATA => TABLE bids, TIMECOL => DESCRIPTOR(ts), SIZE => INTERVAL '10' SECOND));
+----+-------------------------+-------------------------+-------------------------+
| op |                      ts |            window_start |              window_end |
+----+-------------------------+-------------------------+-------------------------+
| +I | 2024-03-01 10:00:01.000 | 2024-03-01 10:00:00.000 | 2024-03-01 10:00:10.000 |
| +I | 2024-03-01 10:00:04.000 | 2024-03-01 10:00:00.000 | 2024-03-01 10:00:10.000 |
| +I | 2024-03-01 10:00:03.000 | 2024-03-01 10:00:00.000 | 2024-03-01 10:00:10.000 |
| +I | 2024-03-01 10:00:12.000 | 2024-03-01 10:00:10.000 | 2024-03-01 10:00:20.000 |
| +I | 2024-03-01 10:00:08.000 | 2024-03-01 10:00:00.000 | 2024-03-01 10:00:10.000 |
| +I | 2024-03-01 10:00:16.000 | 2024-03-01 10:00:10.000 | 2024-03-01 10:00:20.000 |
| +I | 2024-03-01 10:00:05.000 | 2024-03-01 10:00:00.000 | 2024-03-01 10:00:10.000 |
| +I | 2024-03-01 10:00:21.000 | 2024-03-01 10:00:20.000 | 2024-03-01 10:00:30.000 |
| +I | 2024-03-01 10:00:26.000 | 2024-03-01 10:00:20.000 | 2024-03-01 10:00:30.000 |
+----+-------------------------+-------------------------+-------------------------+
Received a total of 9 rows
!ok

SELECT ts, window_start, window_end
FROM TABLE(TUMBLE(TABLE bids, DESCRIPTOR(ts), INTERVAL '10' SECOND, INTERVAL '3' SECOND));
+----+-------------------------+-------------------------+-------------------------+
| op |                      ts |            window_start |              window_end |
+----+-------------------------+-------------------------+-------------------------+
| +I | 2024-03-01 10:00:01.000 | 2024-03-01 09:59:53.000 | 2024-03-01 10:00:03.000 |
| +I | 2024-03-01 10:00:04.000 | 2024-03-01 10:00:03.000 | 2024-03-01 10:00:13.000 |
| +I | 2024-03-01 10:00:03.000 | 2024-03-01 10:00:03.000 | 2024-03-01 10:00:13.000 |
| +I | 2024-03-01 10:00:12.000 | 2024-03-01 10:00:03.000 | 2024-03-01 10:00:13.000 |
| +I | 2024-03-01 10:00:08.000 | 2024-03-01 10:00:03.000 | 2024-03-01 10:00:13.000 |
| +I | 2024-03-01 10:00:16.000 | 2024-03-01 10:00:13.000 | 2024-03-01 10:00:23.000 |
| +I | 2024-03-01 10:00:05.000 | 2024-03-01 10:00:03.000 | 2024-03-01 10:00:13.000 |
| +I | 2024-03-01 10:00:21.000 | 2024-03-01 10:00:13.000 | 2024-03-01 10:00:23.000 |
| +I | 2024-03-01 10:00:26.000 | 2024-03-01 10:00:23.000 | 2024-03-01 10:00:33.000 |
+----+-------------------------+-------------------------+-------------------------+
Received a total of 9 rows
!ok

# The offset as a named parameter (OFFSET is a reserved word: quoted), in
# a window aggregation: [09:59:53, 10:00:03) holds row 1, [10:00:03,
# 10:00:13) rows 2-5 and the row at 10:00:05, which is not late for it.
SELECT window_start, window_end, SUM(price) AS total
FROM TABLE(TUMBLE(DATA => TABLE bids, TIMECOL => DESCRIPTOR(ts), SIZE => INTERVAL '10' SECOND, `OFFSET` => INTERVAL '3' SECOND))
GROUP BY window_start, window_end;
+----+-------------------------+-------------------------+-------------+
| op |            window_start |              window_end |       total |
+----+-------------------------+-------------------------+-------------+
| +I | 2024-03-01 09:59:53.000 | 2024-03-01 10:00:03.000 |           1 |
| +I | 2024-03-01 10:00:03.000 | 2024-03-01 10:00:13.000 |          21 |
| +I | 2024-03-01 10:00:13.000 | 2024-03-01 10:00:23.000 |          14 |
| +I | 2024-03-01 10:00:23.000 | 2024-03-01 10:00:33.000 |           9 |
+----+-------------------------+-------------------------+-------------+
Received a total of 4 rows
!ok

# Tumbling window aggregation: the late row 7 is dropped.
SELECT window_start, window_end, COUNT(*) AS cnt, SUM(price) AS total
FROM TABLE(TUMBLE(TABLE bids, DESCRIPTOR(ts), INTERVAL '10' SECOND))
GROUP BY window_start, window_end;
+----+-------------------------+-------------------------+----------------------+-------------+
| op |            window_start |              window_end |                  cnt |       total |
+----+-------------------------+-------------------------+----------------------+-------------+
| +I | 2024-03-01 10:00:00.000 | 2024-03-01 10:00:10.000 |                    4 |          11 |
| +I | 2024-03-01 10:00:10.000 | 2024-03-01 10:00:20.000 |                    2 |          10 |
| +I | 2024-03-01 10:00:20.000 | 2024-03-01 10:00:30.000 |                    2 |          17 |
+----+-------------------------+-------------------------+----------------------+-------------+
Received a total of 3 rows
!ok

# Per key; Flink does not define the order of keys within a window.
SELECT item, window_start, window_end, COUNT(*) AS cnt, SUM(price) AS total
FROM TABLE(TUMBLE(TABLE bids, DESCRIPTOR(ts), INTERVAL '10' SECOND))
GROUP BY item, window_start, window_end;
+----+--------------------------------+-------------------------+-------------------------+----------------------+-------------+
| op |                           item |            window_start |              window_end |                  cnt |       total |
+----+--------------------------------+-------------------------+-------------------------+----------------------+-------------+
| +I |                              A | 2024-03-01 10:00:00.000 | 2024-03-01 10:00:10.000 |                    1 |           1 |
| +I |                              B | 2024-03-01 10:00:00.000 | 2024-03-01 10:00:10.000 |                    2 |           7 |
| +I |                              C | 2024-03-01 10:00:00.000 | 2024-03-01 10:00:10.000 |                    1 |           3 |
| +I |                              A | 2024-03-01 10:00:10.000 | 2024-03-01 10:00:20.000 |                    1 |           4 |
| +I |                              C | 2024-03-01 10:00:10.000 | 2024-03-01 10:00:20.000 |                    1 |           6 |
| +I |                              B | 2024-03-01 10:00:20.000 | 2024-03-01 10:00:30.000 |                    1 |           8 |
| +I |                              A | 2024-03-01 10:00:20.000 | 2024-03-01 10:00:30.000 |                    1 |           9 |
+----+--------------------------------+-------------------------+-------------------------+----------------------+-------------+
Received a total of 7 rows
!unordered

# HOP aggregation over slices: row 7 falls in the slice [10:00:05,
# 10:00:10), whose first window fired but whose second, [10:00:05,
# 10:00:15), did not: it counts there (Flink's slice-shared windows).
SELECT window_start, window_end, COUNT(*) AS cnt, SUM(price) AS total
FROM TABLE(HOP(TABLE bids, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '10' SECOND))
GROUP BY window_start, window_end;
+----+-------------------------+-------------------------+----------------------+-------------+
| op |            window_start |              window_end |                  cnt |       total |
+----+-------------------------+-------------------------+----------------------+-------------+
| +I | 2024-03-01 09:59:55.000 | 2024-03-01 10:00:05.000 |                    3 |           6 |
| +I | 2024-03-01 10:00:00.000 | 2024-03-01 10:00:10.000 |                    4 |          11 |
| +I | 2024-03-01 10:00:05.000 | 2024-03-01 10:00:15.000 |                    3 |          16 |
| +I | 2024-03-01 10:00:10.000 | 2024-03-01 10:00:20.000 |                    2 |          10 |
| +I | 2024-03-01 10:00:15.000 | 2024-03-01 10:00:25.000 |                    2 |          14 |
| +I | 2024-03-01 10:00:20.000 | 2024-03-01 10:00:30.000 |                    2 |          17 |
| +I | 2024-03-01 10:00:25.000 | 2024-03-01 10:00:35.000 |                    1 |           9 |
+----+-------------------------+-------------------------+----------------------+-------------+
Received a total of 7 rows
!ok

# CUMULATE aggregation.
SELECT window_start, window_end, COUNT(*) AS cnt, MAX(price) AS top
FROM TABLE(CUMULATE(TABLE bids, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '15' SECOND))
GROUP BY window_start, window_end;
+----+-------------------------+-------------------------+----------------------+-------------+
| op |            window_start |              window_end |                  cnt |         top |
+----+-------------------------+-------------------------+----------------------+-------------+
| +I | 2024-03-01 10:00:00.000 | 2024-03-01 10:00:05.000 |                    3 |           3 |
| +I | 2024-03-01 10:00:00.000 | 2024-03-01 10:00:10.000 |                    4 |           5 |
| +I | 2024-03-01 10:00:00.000 | 2024-03-01 10:00:15.000 |                    6 |           7 |
| +I | 2024-03-01 10:00:15.000 | 2024-03-01 10:00:20.000 |                    1 |           6 |
| +I | 2024-03-01 10:00:15.000 | 2024-03-01 10:00:25.000 |                    2 |           8 |
| +I | 2024-03-01 10:00:15.000 | 2024-03-01 10:00:30.000 |                    3 |           9 |
+----+-------------------------+-------------------------+----------------------+-------------+
Received a total of 6 rows
!ok

# window_time is a rowtime attribute: a second window over the first.
SELECT window_start, window_end, SUM(cnt) AS cnt
FROM TABLE(TUMBLE((
  SELECT window_time AS t, COUNT(*) AS cnt
  FROM TABLE(TUMBLE(TABLE bids, DESCRIPTOR(ts), INTERVAL '5' SECOND))
  GROUP BY window_start, window_end, window_time
), DESCRIPTOR(t), INTERVAL '20' SECOND))
GROUP BY window_start, window_end;
+----+-------------------------+-------------------------+----------------------+
| op |            window_start |              window_end |                  cnt |
+----+-------------------------+-------------------------+----------------------+
| +I | 2024-03-01 10:00:00.000 | 2024-03-01 10:00:20.000 |                    6 |
| +I | 2024-03-01 10:00:20.000 | 2024-03-01 10:00:40.000 |                    2 |
+----+-------------------------+-------------------------+----------------------+
Received a total of 2 rows
!ok

# Cascading window aggregation reuses the windows of the first one.
SELECT window_start, window_end, MAX(cnt) AS top_count
FROM (
  SELECT item, window_start, window_end, COUNT(*) AS cnt
  FROM TABLE(TUMBLE(TABLE bids, DESCRIPTOR(ts), INTERVAL '10' SECOND))
  GROUP BY item, window_start, window_end
)
GROUP BY window_start, window_end;
+----+-------------------------+-------------------------+----------------------+
| op |            window_start |              window_end |            top_count |
+----+-------------------------+-------------------------+----------------------+
| +I | 2024-03-01 10:00:00.000 | 2024-03-01 10:00:10.000 |                    2 |
| +I | 2024-03-01 10:00:10.000 | 2024-03-01 10:00:20.000 |                    1 |
| +I | 2024-03-01 10:00:20.000 | 2024-03-01 10:00:30.000 |                    1 |
+----+-------------------------+-------------------------+----------------------+
Received a total of 3 rows
!ok

# SESSION windows per item with a 4 s gap.
SELECT item, window_start, window_end, COUNT(*) AS cnt, SUM(price) AS total
FROM TABLE(SESSION(TABLE bids PARTITION BY item, DESCRIPTOR(ts), INTERVAL '4' SECOND))
GROUP BY item, window_start, window_end;
+----+--------------------------------+-------------------------+-------------------------+----------------------+-------------+
| op |                           item |            window_start |              window_end |                  cnt |       total |
+----+--------------------------------+-------------------------+-------------------------+----------------------+-------------+
| +I |                              A | 2024-03-01 10:00:01.000 | 2024-03-01 10:00:05.000 |                    1 |           1 |
| +I |                              C | 2024-03-01 10:00:03.000 | 2024-03-01 10:00:07.000 |                    1 |           3 |
| +I |                              B | 2024-03-01 10:00:04.000 | 2024-03-01 10:00:12.000 |                    2 |           7 |
| +I |                              A | 2024-03-01 10:00:12.000 | 2024-03-01 10:00:16.000 |                    1 |           4 |
| +I |                              C | 2024-03-01 10:00:16.000 | 2024-03-01 10:00:20.000 |                    1 |           6 |
| +I |                              B | 2024-03-01 10:00:21.000 | 2024-03-01 10:00:25.000 |                    1 |           8 |
| +I |                              A | 2024-03-01 10:00:26.000 | 2024-03-01 10:00:30.000 |                    1 |           9 |
+----+--------------------------------+-------------------------+-------------------------+----------------------+-------------+
Received a total of 7 rows
!unordered

# The SESSION TVF alone emits the rows of a session when it closes.
SELECT ts, item, window_start, window_end
FROM TABLE(SESSION(TABLE bids PARTITION BY item, DESCRIPTOR(ts), INTERVAL '4' SECOND));
+----+-------------------------+--------------------------------+-------------------------+-------------------------+
| op |                      ts |                           item |            window_start |              window_end |
+----+-------------------------+--------------------------------+-------------------------+-------------------------+
| +I | 2024-03-01 10:00:01.000 |                              A | 2024-03-01 10:00:01.000 | 2024-03-01 10:00:05.000 |
| +I | 2024-03-01 10:00:03.000 |                              C | 2024-03-01 10:00:03.000 | 2024-03-01 10:00:07.000 |
| +I | 2024-03-01 10:00:04.000 |                              B | 2024-03-01 10:00:04.000 | 2024-03-01 10:00:12.000 |
| +I | 2024-03-01 10:00:08.000 |                              B | 2024-03-01 10:00:04.000 | 2024-03-01 10:00:12.000 |
| +I | 2024-03-01 10:00:12.000 |                              A | 2024-03-01 10:00:12.000 | 2024-03-01 10:00:16.000 |
| +I | 2024-03-01 10:00:16.000 |                              C | 2024-03-01 10:00:16.000 | 2024-03-01 10:00:20.000 |
| +I | 2024-03-01 10:00:21.000 |                              B | 2024-03-01 10:00:21.000 | 2024-03-01 10:00:25.000 |
| +I | 2024-03-01 10:00:26.000 |                              A | 2024-03-01 10:00:26.000 | 2024-03-01 10:00:30.000 |
+----+-------------------------+--------------------------------+-------------------------+-------------------------+
Received a total of 8 rows
!unordered

# Grouping by window_start alone is a regular (updating) aggregation.
SELECT window_start, COUNT(*) AS cnt
FROM TABLE(TUMBLE(TABLE bids, DESCRIPTOR(ts), INTERVAL '10' SECOND))
GROUP BY window_start;
+----+-------------------------+----------------------+
| op |            window_start |                  cnt |
+----+-------------------------+----------------------+
| +I | 2024-03-01 10:00:00.000 |                    1 |
| -U | 2024-03-01 10:00:00.000 |                    1 |
| +U | 2024-03-01 10:00:00.000 |                    2 |
| -U | 2024-03-01 10:00:00.000 |                    2 |
| +U | 2024-03-01 10:00:00.000 |                    3 |
| +I | 2024-03-01 10:00:10.000 |                    1 |
| -U | 2024-03-01 10:00:00.000 |                    3 |
| +U | 2024-03-01 10:00:00.000 |                    4 |
| -U | 2024-03-01 10:00:10.000 |                    1 |
| +U | 2024-03-01 10:00:10.000 |                    2 |
| -U | 2024-03-01 10:00:00.000 |                    4 |
| +U | 2024-03-01 10:00:00.000 |                    5 |
| +I | 2024-03-01 10:00:20.000 |                    1 |
| -U | 2024-03-01 10:00:20.000 |                    1 |
| +U | 2024-03-01 10:00:20.000 |                    2 |
+----+-------------------------+----------------------+
Received a total of 15 rows
!ok

# riffle-only: EXPLAIN text: Riffle plans are its own (aggregate naming differs)
EXPLAIN CHANGELOG_MODE
SELECT item, window_start, window_end, COUNT(*) AS cnt
FROM TABLE(HOP(TABLE bids, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '10' SECOND))
GROUP BY item, window_start, window_end;
== Abstract Syntax Tree ==
LogicalProject(item=[$0], window_start=[$1], window_end=[$2], cnt=[$3])
+- LogicalAggregate(group=[{0, 1, 2}], EXPR$3=[COUNT()])
   +- LogicalProject(item=[$1], window_start=[$3], window_end=[$4])
      +- LogicalTableFunctionScan(invocation=[HOP(DESCRIPTOR($0), 5000:INTERVAL SECOND, 10000:INTERVAL SECOND)], rowType=[RecordType(TIMESTAMP(3) ts, STRING item, INT price, TIMESTAMP(3) NOT NULL window_start, TIMESTAMP(3) NOT NULL window_end, TIMESTAMP(3) NOT NULL *ROWTIME* window_time)])
         +- LogicalWatermarkAssigner(rowtime=[ts], watermark=[-($0, 5000:INTERVAL SECOND)])
            +- LogicalProject(ts=[$0], item=[$1], price=[$2])
               +- LogicalTableScan(table=[[default_catalog, default_database, bids]])

== Optimized Physical Plan ==
Calc(select=[item, window_start, window_end, EXPR$3 AS cnt], changelogMode=[I])
+- WindowAggregate(groupBy=[item], window=[HOP(time_col=[ts], size=[10 s], slide=[5 s])], select=[item, COUNT(*) AS EXPR$3, start('w$) AS window_start, end('w$) AS window_end, rowtime('w$) AS window_time], changelogMode=[I])
   +- Exchange(distribution=[hash[item]], changelogMode=[I])
      +- Calc(select=[item, ts], changelogMode=[I])
         +- WatermarkAssigner(rowtime=[ts], watermark=[-(ts, 5000:INTERVAL SECOND)], changelogMode=[I])
            +- TableSourceScan(table=[[default_catalog, default_database, bids, project=[ts, item]]], fields=[ts, item], changelogMode=[I])

== Optimized Execution Plan ==
Calc(select=[item, window_start, window_end, EXPR$3 AS cnt])
+- WindowAggregate(groupBy=[item], window=[HOP(time_col=[ts], size=[10 s], slide=[5 s])], select=[item, COUNT(*) AS EXPR$3, start('w$) AS window_start, end('w$) AS window_end, rowtime('w$) AS window_time])
   +- Exchange(distribution=[hash[item]])
      +- Calc(select=[item, ts])
         +- WatermarkAssigner(rowtime=[ts], watermark=[(ts - 5000:INTERVAL SECOND)])
            +- TableSourceScan(table=[[default_catalog, default_database, bids, project=[ts, item]]], fields=[ts, item])
!ok

# Window Top-N (window-topn.md): the two highest prices of each window,
# emitted when the window closes; the late row is dropped.
SELECT * FROM (
  SELECT ts, item, price, window_start, window_end,
    ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY price DESC) AS rn
  FROM TABLE(TUMBLE(TABLE bids, DESCRIPTOR(ts), INTERVAL '10' SECOND)))
WHERE rn <= 2;
+----+-------------------------+--------------------------------+-------------+-------------------------+-------------------------+----------------------+
| op |                      ts |                           item |       price |            window_start |              window_end |                   rn |
+----+-------------------------+--------------------------------+-------------+-------------------------+-------------------------+----------------------+
| +I | 2024-03-01 10:00:08.000 |                              B |           5 | 2024-03-01 10:00:00.000 | 2024-03-01 10:00:10.000 |                    1 |
| +I | 2024-03-01 10:00:03.000 |                              C |           3 | 2024-03-01 10:00:00.000 | 2024-03-01 10:00:10.000 |                    2 |
| +I | 2024-03-01 10:00:16.000 |                              C |           6 | 2024-03-01 10:00:10.000 | 2024-03-01 10:00:20.000 |                    1 |
| +I | 2024-03-01 10:00:12.000 |                              A |           4 | 2024-03-01 10:00:10.000 | 2024-03-01 10:00:20.000 |                    2 |
| +I | 2024-03-01 10:00:26.000 |                              A |           9 | 2024-03-01 10:00:20.000 | 2024-03-01 10:00:30.000 |                    1 |
| +I | 2024-03-01 10:00:21.000 |                              B |           8 | 2024-03-01 10:00:20.000 | 2024-03-01 10:00:30.000 |                    2 |
+----+-------------------------+--------------------------------+-------------+-------------------------+-------------------------+----------------------+
Received a total of 6 rows
!ok

# Window Top-N over a window aggregation.
SELECT * FROM (
  SELECT item, window_start, window_end, SUM(price) AS total,
    ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY SUM(price) DESC) AS rn
  FROM TABLE(TUMBLE(TABLE bids, DESCRIPTOR(ts), INTERVAL '10' SECOND))
  GROUP BY item, window_start, window_end)
WHERE rn <= 1;
+----+--------------------------------+-------------------------+-------------------------+-------------+----------------------+
| op |                           item |            window_start |              window_end |       total |                   rn |
+----+--------------------------------+-------------------------+-------------------------+-------------+----------------------+
| +I |                              B | 2024-03-01 10:00:00.000 | 2024-03-01 10:00:10.000 |           7 |                    1 |
| +I |                              C | 2024-03-01 10:00:10.000 | 2024-03-01 10:00:20.000 |           6 |                    1 |
| +I |                              A | 2024-03-01 10:00:20.000 | 2024-03-01 10:00:30.000 |           9 |                    1 |
+----+--------------------------------+-------------------------+-------------------------+-------------+----------------------+
Received a total of 3 rows
!ok

# Window deduplication (window-deduplication.md): the last bid per item
# and window.
SELECT ts, item, price, window_start FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end, item ORDER BY ts DESC) AS rn
  FROM TABLE(TUMBLE(TABLE bids, DESCRIPTOR(ts), INTERVAL '10' SECOND)))
WHERE rn <= 1;
+----+-------------------------+--------------------------------+-------------+-------------------------+
| op |                      ts |                           item |       price |            window_start |
+----+-------------------------+--------------------------------+-------------+-------------------------+
| +I | 2024-03-01 10:00:01.000 |                              A |           1 | 2024-03-01 10:00:00.000 |
| +I | 2024-03-01 10:00:08.000 |                              B |           5 | 2024-03-01 10:00:00.000 |
| +I | 2024-03-01 10:00:03.000 |                              C |           3 | 2024-03-01 10:00:00.000 |
| +I | 2024-03-01 10:00:12.000 |                              A |           4 | 2024-03-01 10:00:10.000 |
| +I | 2024-03-01 10:00:16.000 |                              C |           6 | 2024-03-01 10:00:10.000 |
| +I | 2024-03-01 10:00:26.000 |                              A |           9 | 2024-03-01 10:00:20.000 |
| +I | 2024-03-01 10:00:21.000 |                              B |           8 | 2024-03-01 10:00:20.000 |
+----+-------------------------+--------------------------------+-------------+-------------------------+
Received a total of 7 rows
!unordered

# riffle-only: EXPLAIN text: Riffle plans are its own
EXPLAIN SELECT ts, item, price, window_start FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end, item ORDER BY ts DESC) AS rn
  FROM TABLE(TUMBLE(TABLE bids, DESCRIPTOR(ts), INTERVAL '10' SECOND)))
WHERE rn <= 1;
== Abstract Syntax Tree ==
LogicalProject(ts=[$0], item=[$1], price=[$2], window_start=[$3])
+- LogicalFilter(condition=[<=($6, 1)])
   +- LogicalProject(ts=[$0], item=[$1], price=[$2], window_start=[$3], window_end=[$4], window_time=[$5], rn=[$6])
      +- LogicalWindow(window#0=[window(partition {$3, $4, $1} order by [$0 DESC-nulls-last] range between UNBOUNDED PRECEDING and CURRENT ROW aggs [ROW_NUMBER()])])
         +- LogicalTableFunctionScan(invocation=[TUMBLE(DESCRIPTOR($0), 10000:INTERVAL SECOND)], rowType=[RecordType(TIMESTAMP(3) ts, STRING item, INT price, TIMESTAMP(3) NOT NULL window_start, TIMESTAMP(3) NOT NULL window_end, TIMESTAMP(3) NOT NULL *ROWTIME* window_time)])
            +- LogicalWatermarkAssigner(rowtime=[ts], watermark=[-($0, 5000:INTERVAL SECOND)])
               +- LogicalProject(ts=[$0], item=[$1], price=[$2])
                  +- LogicalTableScan(table=[[default_catalog, default_database, bids]])

== Optimized Physical Plan ==
Calc(select=[ts, item, price, window_start])
+- WindowDeduplicate(window=[TUMBLE(win_start=[window_start], win_end=[window_end], size=[10 s])], keep=[LastRow], partitionKeys=[item], orderKey=[ts], order=[ROWTIME])
   +- Exchange(distribution=[hash[item]])
      +- WindowTableFunction(window=[TUMBLE(time_col=[ts], size=[10 s])])
         +- WatermarkAssigner(rowtime=[ts], watermark=[-(ts, 5000:INTERVAL SECOND)])
            +- TableSourceScan(table=[[default_catalog, default_database, bids]], fields=[ts, item, price])

== Optimized Execution Plan ==
Calc(select=[ts, item, price, window_start])
+- WindowDeduplicate(window=[TUMBLE(win_start=[window_start], win_end=[window_end], size=[10 s])], keep=[LastRow], partitionKeys=[item], orderKey=[ts], order=[ROWTIME])
   +- Exchange(distribution=[hash[item]])
      +- WindowTableFunction(window=[TUMBLE(time_col=[ts], size=[10 s])])
         +- WatermarkAssigner(rowtime=[ts], watermark=[(ts - 5000:INTERVAL SECOND)])
            +- TableSourceScan(table=[[default_catalog, default_database, bids]], fields=[ts, item, price])
!ok

CREATE TABLE plain (ts TIMESTAMP(3), item STRING, price INT) WITH (
  'connector' = 'filesystem', 'path' = '${TESTDATA}/bids_ooo.csv', 'format' = 'csv');
[INFO] Execute statement succeeded.
!info

# riffle-only: error wording differs (Flink: The window function requires the timecol is a time attribute type, but is TIMESTAMP(3).)
SELECT * FROM TABLE(TUMBLE(TABLE plain, DESCRIPTOR(ts), INTERVAL '10' SECOND));
[ERROR] Could not execute SQL statement. Reason:
From line 1, column 41 to line 1, column 54: The window function TUMBLE(TABLE table_name, DESCRIPTOR(timecol), datetime interval[, datetime interval]) requires the timecol to be a time attribute type, but is TIMESTAMP(3).
!error

# riffle-only: error wording differs (Flink: CUMULATE table function based aggregate requires maxSize must be an integral multiple of step ...)
SELECT * FROM TABLE(CUMULATE(TABLE bids, DESCRIPTOR(ts), INTERVAL '4' SECOND, INTERVAL '10' SECOND));
[ERROR] Could not execute SQL statement. Reason:
From line 1, column 21 to line 1, column 99: CUMULATE table function requires size must be an integral multiple of step, but got size 10000 ms and step 4000 ms
!error

# The same results at parallelism 4.
SET 'parallelism.default' = '4';
[INFO] Execute statement succeeded.
!info

SELECT window_start, window_end, COUNT(*) AS cnt, SUM(price) AS total
FROM TABLE(HOP(TABLE bids, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '10' SECOND))
GROUP BY window_start, window_end;
+----+-------------------------+-------------------------+----------------------+-------------+
| op |            window_start |              window_end |                  cnt |       total |
+----+-------------------------+-------------------------+----------------------+-------------+
| +I | 2024-03-01 09:59:55.000 | 2024-03-01 10:00:05.000 |                    3 |           6 |
| +I | 2024-03-01 10:00:00.000 | 2024-03-01 10:00:10.000 |                    4 |          11 |
| +I | 2024-03-01 10:00:05.000 | 2024-03-01 10:00:15.000 |                    3 |          16 |
| +I | 2024-03-01 10:00:10.000 | 2024-03-01 10:00:20.000 |                    2 |          10 |
| +I | 2024-03-01 10:00:15.000 | 2024-03-01 10:00:25.000 |                    2 |          14 |
| +I | 2024-03-01 10:00:20.000 | 2024-03-01 10:00:30.000 |                    2 |          17 |
| +I | 2024-03-01 10:00:25.000 | 2024-03-01 10:00:35.000 |                    1 |           9 |
+----+-------------------------+-------------------------+----------------------+-------------+
Received a total of 7 rows
!ok

SELECT item, window_start, window_end, COUNT(*) AS cnt, SUM(price) AS total
FROM TABLE(TUMBLE(TABLE bids, DESCRIPTOR(ts), INTERVAL '10' SECOND))
GROUP BY item, window_start, window_end;
+----+--------------------------------+-------------------------+-------------------------+----------------------+-------------+
| op |                           item |            window_start |              window_end |                  cnt |       total |
+----+--------------------------------+-------------------------+-------------------------+----------------------+-------------+
| +I |                              C | 2024-03-01 10:00:00.000 | 2024-03-01 10:00:10.000 |                    1 |           3 |
| +I |                              C | 2024-03-01 10:00:10.000 | 2024-03-01 10:00:20.000 |                    1 |           6 |
| +I |                              A | 2024-03-01 10:00:00.000 | 2024-03-01 10:00:10.000 |                    1 |           1 |
| +I |                              B | 2024-03-01 10:00:00.000 | 2024-03-01 10:00:10.000 |                    2 |           7 |
| +I |                              A | 2024-03-01 10:00:10.000 | 2024-03-01 10:00:20.000 |                    1 |           4 |
| +I |                              B | 2024-03-01 10:00:20.000 | 2024-03-01 10:00:30.000 |                    1 |           8 |
| +I |                              A | 2024-03-01 10:00:20.000 | 2024-03-01 10:00:30.000 |                    1 |           9 |
+----+--------------------------------+-------------------------+-------------------------+----------------------+-------------+
Received a total of 7 rows
!unordered

SELECT item, window_start, window_end, COUNT(*) AS cnt, SUM(price) AS total
FROM TABLE(SESSION(TABLE bids PARTITION BY item, DESCRIPTOR(ts), INTERVAL '4' SECOND))
GROUP BY item, window_start, window_end;
+----+--------------------------------+-------------------------+-------------------------+----------------------+-------------+
| op |                           item |            window_start |              window_end |                  cnt |       total |
+----+--------------------------------+-------------------------+-------------------------+----------------------+-------------+
| +I |                              C | 2024-03-01 10:00:03.000 | 2024-03-01 10:00:07.000 |                    1 |           3 |
| +I |                              C | 2024-03-01 10:00:16.000 | 2024-03-01 10:00:20.000 |                    1 |           6 |
| +I |                              A | 2024-03-01 10:00:01.000 | 2024-03-01 10:00:05.000 |                    1 |           1 |
| +I |                              B | 2024-03-01 10:00:04.000 | 2024-03-01 10:00:12.000 |                    2 |           7 |
| +I |                              A | 2024-03-01 10:00:12.000 | 2024-03-01 10:00:16.000 |                    1 |           4 |
| +I |                              B | 2024-03-01 10:00:21.000 | 2024-03-01 10:00:25.000 |                    1 |           8 |
| +I |                              A | 2024-03-01 10:00:26.000 | 2024-03-01 10:00:30.000 |                    1 |           9 |
+----+--------------------------------+-------------------------+-------------------------+----------------------+-------------+
Received a total of 7 rows
!unordered

# Batch mode: watermarks are ignored (no watermark assigner in the batch
# plan), nothing is late: row 7 (10:00:05, price 7) counts in the first
# window, 1+2+3+5+7 = 18.
SET 'execution.runtime-mode' = 'batch';
[INFO] Execute statement succeeded.
!info

SET 'parallelism.default' = '1';
[INFO] Execute statement succeeded.
!info

SELECT window_start, window_end, COUNT(*) AS cnt, SUM(price) AS total
FROM TABLE(TUMBLE(TABLE bids, DESCRIPTOR(ts), INTERVAL '10' SECOND))
GROUP BY window_start, window_end;
+-------------------------+-------------------------+-----+-------+
|            window_start |              window_end | cnt | total |
+-------------------------+-------------------------+-----+-------+
| 2024-03-01 10:00:00.000 | 2024-03-01 10:00:10.000 |   5 |    18 |
| 2024-03-01 10:00:10.000 | 2024-03-01 10:00:20.000 |   2 |    10 |
| 2024-03-01 10:00:20.000 | 2024-03-01 10:00:30.000 |   2 |    17 |
+-------------------------+-------------------------+-----+-------+
3 rows in set
!ok
