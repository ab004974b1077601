-- Flights by hour of departure (local time at the origin airport).
-- CAST(`date` AS STRING) is 'yyyy-MM-dd HH:mm:ss'; characters 12-13 are the hour.
SET 'execution.runtime-mode' = 'batch';

SELECT SUBSTRING(CAST(`date` AS STRING), 12, 2)  AS hour_of_day,
       COUNT(*)                                 AS flights,
       ROUND(AVG(CAST(delay AS DOUBLE)), 1)     AS avg_delay_min,
       MAX(delay)                               AS worst_delay_min
FROM flights
GROUP BY SUBSTRING(CAST(`date` AS STRING), 12, 2)
ORDER BY hour_of_day;
