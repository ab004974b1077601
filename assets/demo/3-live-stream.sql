-- A live stream: datagen produces sensor readings forever, and the running
-- count per sensor updates as they arrive. Run the whole tab (Ctrl+Shift+Enter).
-- The table view shows the current counts (an updated row moves to the end,
-- as in Flink's SQL Client); the changelog view shows every +I/-U/+U change.
-- Pause freezes the grid while the job runs on; Stop cancels the job.
SET 'execution.runtime-mode' = 'streaming';

CREATE TEMPORARY TABLE IF NOT EXISTS sensor_readings (
  sensor_id INT,
  reading   DOUBLE
) WITH (
  'connector' = 'datagen',
  'rows-per-second' = '20',
  'fields.sensor_id.kind' = 'random',
  'fields.sensor_id.min' = '1',
  'fields.sensor_id.max' = '8',
  'fields.reading.min' = '0',
  'fields.reading.max' = '100'
);

SELECT sensor_id,
       COUNT(*)               AS readings,
       ROUND(AVG(reading), 2) AS avg_reading,
       MAX(reading)           AS max_reading
FROM sensor_readings
GROUP BY sensor_id;
