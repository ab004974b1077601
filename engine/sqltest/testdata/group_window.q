# group_window.q - legacy group window aggregation (GROUP BY TUMBLE/HOP/
# SESSION with TUMBLE_START, ..._END, ..._ROWTIME), Flink's
# docs/dev/table/sql/queries/window-agg.md "Group Window Aggregation".
# The data and watermarks are those of window_tvf.q: the late row
# (10:00:05, A, 7) is dropped.

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

SELECT
  TUMBLE_START(ts, INTERVAL '10' SECOND) AS wstart,
  TUMBLE_END(ts, INTERVAL '10' SECOND) AS wend,
  TUMBLE_ROWTIME(ts, INTERVAL '10' SECOND) AS rt,
  COUNT(*) AS cnt,
  SUM(price) AS total
FROM bids
GROUP BY TUMBLE(ts, INTERVAL '10' SECOND);
+----+-------------------------+-------------------------+-------------------------+----------------------+-------------+
| op |                  wstart |                    wend |                      rt |                  cnt |       total |
+----+-------------------------+-------------------------+-------------------------+----------------------+-------------+
| +I | 2024-03-01 10:00:00.000 | 2024-03-01 10:00:10.000 | 2024-03-01 10:00:09.999 |                    4 |          11 |
| +I | 2024-03-01 10:00:10.000 | 2024-03-01 10:00:20.000 | 2024-03-01 10:00:19.999 |                    2 |          10 |
| +I | 2024-03-01 10:00:20.000 | 2024-03-01 10:00:30.000 | 2024-03-01 10:00:29.999 |                    2 |          17 |
+----+-------------------------+-------------------------+-------------------------+----------------------+-------------+
Received a total of 3 rows
!ok

SELECT HOP_START(ts, INTERVAL '5' SECOND, INTERVAL '10' SECOND) AS wstart, COUNT(*) AS cnt
FROM bids
GROUP BY HOP(ts, INTERVAL '5' SECOND, INTERVAL '10' SECOND);
+----+-------------------------+----------------------+
| op |                  wstart |                  cnt |
+----+-------------------------+----------------------+
| +I | 2024-03-01 09:59:55.000 |                    3 |
| +I | 2024-03-01 10:00:00.000 |                    4 |
| +I | 2024-03-01 10:00:05.000 |                    3 |
| +I | 2024-03-01 10:00:10.000 |                    2 |
| +I | 2024-03-01 10:00:15.000 |                    2 |
| +I | 2024-03-01 10:00:20.000 |                    2 |
| +I | 2024-03-01 10:00:25.000 |                    1 |
+----+-------------------------+----------------------+
Received a total of 7 rows
!ok

SELECT item, SESSION_START(ts, INTERVAL '4' SECOND) AS sstart, SESSION_END(ts, INTERVAL '4' SECOND) AS send, COUNT(*) AS cnt
FROM bids
GROUP BY item, SESSION(ts, INTERVAL '4' SECOND);
+----+--------------------------------+-------------------------+-------------------------+----------------------+
| op |                           item |                  sstart |                    send |                  cnt |
+----+--------------------------------+-------------------------+-------------------------+----------------------+
| +I |                              A | 2024-03-01 10:00:01.000 | 2024-03-01 10:00:05.000 |                    1 |
| +I |                              C | 2024-03-01 10:00:03.000 | 2024-03-01 10:00:07.000 |                    1 |
| +I |                              B | 2024-03-01 10:00:04.000 | 2024-03-01 10:00:12.000 |                    2 |
| +I |                              A | 2024-03-01 10:00:12.000 | 2024-03-01 10:00:16.000 |                    1 |
| +I |                              C | 2024-03-01 10:00:16.000 | 2024-03-01 10:00:20.000 |                    1 |
| +I |                              B | 2024-03-01 10:00:21.000 | 2024-03-01 10:00:25.000 |                    1 |
| +I |                              A | 2024-03-01 10:00:26.000 | 2024-03-01 10:00:30.000 |                    1 |
+----+--------------------------------+-------------------------+-------------------------+----------------------+
Received a total of 7 rows
!unordered

# The window's rowtime feeds a second group window.
SELECT TUMBLE_START(rt, INTERVAL '20' SECOND) AS wstart, SUM(cnt) AS cnt
FROM (
  SELECT TUMBLE_ROWTIME(ts, INTERVAL '5' SECOND) AS rt, COUNT(*) AS cnt
  FROM bids GROUP BY TUMBLE(ts, INTERVAL '5' SECOND)
)
GROUP BY TUMBLE(rt, INTERVAL '20' SECOND);
+----+-------------------------+----------------------+
| op |                  wstart |                  cnt |
+----+-------------------------+----------------------+
| +I | 2024-03-01 10:00:00.000 |                    6 |
| +I | 2024-03-01 10:00:20.000 |                    2 |
+----+-------------------------+----------------------+
Received a total of 2 rows
!ok

# riffle-only: error wording differs (Flink: Call to auxiliary group function HOP_START must have matching call to group function $HOP in GROUP BY clause)
SELECT HOP_START(ts, INTERVAL '5' SECOND, INTERVAL '10' SECOND) FROM bids GROUP BY TUMBLE(ts, INTERVAL '10' SECOND);
[ERROR] Could not execute SQL statement. Reason:
From line 1, column 8 to line 1, column 63: HOP_START must be used with a corresponding GROUP BY HOP(...) group window
!error

# riffle-only: error wording differs (Flink: Cannot apply $TUMBLE to arguments of type $TUMBLE(<INTEGER>, <INTERVAL SECOND>))
SELECT COUNT(*) FROM bids GROUP BY TUMBLE(price, INTERVAL '10' SECOND);
[ERROR] Could not execute SQL statement. Reason:
From line 1, column 43 to line 1, column 47: Window aggregate can only be defined over a time attribute column, but INT encountered.
!error
