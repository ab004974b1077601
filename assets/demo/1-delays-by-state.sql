-- Departures and average arrival delay per origin state:
-- a batch aggregate joining flights with airports.
-- Ctrl+Enter runs the statement under the cursor, Ctrl+Shift+Enter the tab.
SET 'execution.runtime-mode' = 'batch';

SELECT a.state,
       COUNT(*)                                AS departures,
       ROUND(AVG(CAST(f.delay AS DOUBLE)), 1)  AS avg_delay_min,
       SUM(CASE WHEN f.delay > 15 THEN 1 ELSE 0 END) AS late_15_min
FROM flights AS f
JOIN airports AS a ON f.origin = a.iata
GROUP BY a.state
ORDER BY departures DESC
LIMIT 20;
