-- Real data as a live stream: the flights of 2001-01-01 .. 14 replayed in
-- event time at 1,200x ('source.replay-speed', a Riffle extension), so a day
-- of departures passes in about 72 seconds. A TUMBLE window TVF counts the
-- departures and the average arrival delay per origin airport per hour of
-- event time; each hour appears when the watermark passes its end. Run the
-- whole tab (Ctrl+Shift+Enter), then open the result's Chart view (one line
-- per airport) and its Plan view (live rates, watermark, state).
SET 'execution.runtime-mode' = 'streaming';

CREATE TEMPORARY TABLE IF NOT EXISTS flights_live (
  `date`      TIMESTAMP(0),
  delay       INT,
  distance    INT,
  origin      STRING,
  destination STRING,
  -- the file is in ascending order of its (local, zone-less) timestamps
  WATERMARK FOR `date` AS `date` - INTERVAL '1' MINUTE
) WITH (
  'connector' = 'filesystem',
  'path' = '{{flights}}',
  'format' = 'csv',
  'csv.ignore-first-line' = 'true',
  'source.replay-speed' = '1200'
);

SELECT window_start,
       origin,
       COUNT(*)   AS departures,
       AVG(delay) AS avg_delay_min
FROM TABLE(TUMBLE(TABLE flights_live, DESCRIPTOR(`date`), INTERVAL '1' HOUR))
WHERE origin IN ('ORD', 'DFW', 'ATL', 'LAX', 'PHX')
GROUP BY window_start, window_end, origin;
