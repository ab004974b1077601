# function_semantics.q - built-in functions whose results differed from
# Flink's (expected values by hand from Flink's runtime code, named per case).

SET 'execution.runtime-mode' = 'batch';
[INFO] Execute statement succeeded.
!info

# TIMESTAMPDIFF over MONTH / QUARTER / YEAR is Flink's
# DateTimeUtils.subtractMonths: the most months that, added to the earlier
# date (the day clamped to the month's end), do not pass the later one; a
# timestamp's time of day counts only when the dates line up. So
# 2024-01-31 -> 2024-02-29 is a month (addMonths(01-31, 1) = 02-29), and
# 2020-02-29 -> 2021-02-28 a year.
SELECT TIMESTAMPDIFF(MONTH, DATE '2024-01-31', DATE '2024-02-29') AS a, TIMESTAMPDIFF(MONTH, DATE '2024-01-31', DATE '2024-02-28') AS b, TIMESTAMPDIFF(MONTH, DATE '2024-02-29', DATE '2024-01-31') AS c, TIMESTAMPDIFF(YEAR, DATE '2020-02-29', DATE '2021-02-28') AS d;
+---+---+----+---+
| a | b |  c | d |
+---+---+----+---+
| 1 | 0 | -1 | 1 |
+---+---+----+---+
1 row in set
!ok
# subtractMonths(long, long): 02-15 09:00 - 01-15 10:00 lines up the dates
# and the later time of day is earlier, so 0; the other way round the
# correction does not apply (millis0 10:00 is not below millis1 09:00): -1
SELECT TIMESTAMPDIFF(MONTH, TIMESTAMP '2024-01-15 10:00:00', TIMESTAMP '2024-02-15 09:00:00') AS e, TIMESTAMPDIFF(MONTH, TIMESTAMP '2024-02-15 09:00:00', TIMESTAMP '2024-01-15 10:00:00') AS f, TIMESTAMPDIFF(QUARTER, DATE '2024-01-01', DATE '2024-12-31') AS g, TIMESTAMPDIFF(MONTH, DATE '1969-12-31', DATE '1970-03-01') AS h;
+---+----+---+---+
| e |  f | g | h |
+---+----+---+---+
| 0 | -1 | 3 | 2 |
+---+----+---+---+
1 row in set
!ok

# Java patterns with adjacent numeric fields (java.time's adjacent value
# parsing, SimpleDateFormat alike): MM followed by dd takes two digits
SELECT TO_DATE('20240310', 'yyyyMMdd') AS a, TO_TIMESTAMP('20240310123000', 'yyyyMMddHHmmss') AS b, TO_DATE('10Mar2024', 'ddMMMyyyy') AS c;
+------------+-------------------------+------------+
|          a |                       b |          c |
+------------+-------------------------+------------+
| 2024-03-10 | 2024-03-10 12:30:00.000 | 2024-03-10 |
+------------+-------------------------+------------+
1 row in set
!ok
