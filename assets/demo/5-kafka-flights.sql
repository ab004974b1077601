-- A live stream from Kafka: the flights of "Live flights" as JSON messages in
-- the topic riffle-demo-flights, read by the 'kafka' connector. It needs a
-- Kafka cluster; without one this tab only explains (nothing runs by itself).
--  1. Add the cluster: the + above the Kafka tree (left, under the catalog),
--     or File > Kafka connections...
--  2. Right-click the connection > "Produce demo flights into
--     riffle-demo-flights": the workbench writes the bundled flights there
--     (one JSON message a flight, keyed by origin airport, 4 partitions) and
--     opens this query with the connection's bootstrap servers filled in.
--  3. Run the whole tab (Ctrl+Shift+Enter). The Jobs panel follows the job
--     and lists each partition's offset, log end, lag, watermark and whether
--     it is idle (no record for 10 s: it then holds no watermark back).
SET 'execution.runtime-mode' = 'streaming';

CREATE TEMPORARY TABLE IF NOT EXISTS flights_kafka (
  `date`      TIMESTAMP(0),
  delay       INT,
  distance    INT,
  origin      STRING,
  destination STRING,
  -- each partition is in ascending order of its timestamps
  WATERMARK FOR `date` AS `date` - INTERVAL '1' MINUTE
) WITH (
  'connector' = 'kafka',
  'topic' = 'riffle-demo-flights',
  'properties.bootstrap.servers' = '{{kafka}}',
  'scan.startup.mode' = 'earliest-offset',
  'scan.watermark.idle-timeout' = '10 s',
  'format' = 'json'
);

SELECT window_start,
       origin,
       COUNT(*)   AS departures,
       AVG(delay) AS avg_delay_min
FROM TABLE(TUMBLE(TABLE flights_kafka, DESCRIPTOR(`date`), INTERVAL '1' HOUR))
WHERE origin IN ('ORD', 'DFW', 'ATL', 'LAX', 'PHX')
GROUP BY window_start, window_end, origin;
