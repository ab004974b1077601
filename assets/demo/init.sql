-- Riffle demo workspace: the init script runs when the workspace opens,
-- like the Flink SQL Client's -i file. It registers the bundled sample data
-- (extracted to the user cache directory on first use).

-- 228,738 US domestic flights of 2001-01-01 .. 2001-01-14 (US DOT/BTS data).
-- `date` is the departure time as local wall-clock time at the origin airport.
CREATE TABLE IF NOT EXISTS flights (
  `date`      TIMESTAMP(0) COMMENT 'departure, local time at the origin',
  delay       INT          COMMENT 'arrival delay in minutes',
  distance    INT          COMMENT 'miles',
  origin      STRING       COMMENT 'IATA code of the origin airport',
  destination STRING       COMMENT 'IATA code of the destination airport'
) WITH (
  'connector' = 'filesystem',
  'path' = '{{flights}}',
  'format' = 'csv',
  -- Riffle extension: skip the header row (Flink's csv format has no such option).
  'csv.ignore-first-line' = 'true'
);

-- 3,376 US airports (Data.gov), keyed by IATA code.
CREATE TABLE IF NOT EXISTS airports (
  iata      STRING,
  name      STRING,
  city      STRING,
  state     STRING,
  country   STRING,
  latitude  DOUBLE,
  longitude DOUBLE
) WITH (
  'connector' = 'filesystem',
  'path' = '{{airports}}',
  'format' = 'csv',
  'csv.ignore-first-line' = 'true'
);
