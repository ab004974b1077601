package nexmark

// The Nexmark queries as Flink's nexmark repository runs them
// (nexmark/nexmark: nexmark-flink/src/main/resources/queries/q*.sql,
// ddl_gen.sql and ddl_views.sql), written out here with their blackhole
// sinks. q6 is not run (Flink cannot plan it, FLINK-19059), as in the
// repository's suite.

// EventColumns is the schema of the nexmark suite's source table
// (ddl_gen.sql): the event type (0 person, 1 auction, 2 bid), one ROW per
// kind (null for the other kinds), the computed event time dateTime and
// its watermark, 4 seconds behind. A source of recorded events (a Kafka
// topic, see interop/nexflink) declares the same columns.
const EventColumns = `event_type INT,
  person ROW<id BIGINT, name VARCHAR, emailAddress VARCHAR, creditCard VARCHAR, city VARCHAR, state VARCHAR,
             dateTime TIMESTAMP(3), extra VARCHAR>,
  auction ROW<id BIGINT, itemName VARCHAR, description VARCHAR, initialBid BIGINT, reserve BIGINT,
              dateTime TIMESTAMP(3), expires TIMESTAMP(3), seller BIGINT, category BIGINT, extra VARCHAR>,
  bid ROW<auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR, url VARCHAR, dateTime TIMESTAMP(3), extra VARCHAR>,
  dateTime AS CASE
    WHEN event_type = 0 THEN person.dateTime
    WHEN event_type = 1 THEN auction.dateTime
    ELSE bid.dateTime
  END,
  WATERMARK FOR dateTime AS dateTime - INTERVAL '4' SECOND`

// sourceDDL creates the generator table; %d is the event count and %s
// the extra options.
const sourceDDL = `CREATE TABLE datagen (
  ` + EventColumns + `
) WITH (
  'connector' = 'nexmark',
  'first-event.rate' = '%d',
  'next-event.rate' = '%d',
  'events.num' = '%d',
  'person.proportion' = '1',
  'auction.proportion' = '3',
  'bid.proportion' = '46'%s
)`

// ViewsDDL returns the CREATE VIEW statements of the person, auction and
// bid views over the table datagen (ddl_views.sql).
func ViewsDDL() []string { return append([]string(nil), viewsDDL...) }

// SuiteConfig returns the table options the nexmark suite runs its
// queries with (its sql-client-defaults.yaml: mini-batch of 2 s or 50,000
// rows, split distinct aggregates) plus UTC as the session time zone;
// option key -> value, as Flink's SET takes them.
func SuiteConfig() map[string]string {
	return map[string]string{
		"table.local-time-zone":                      "UTC",
		"table.exec.mini-batch.enabled":              "true",
		"table.exec.mini-batch.allow-latency":        "2s",
		"table.exec.mini-batch.size":                 "50000",
		"table.optimizer.distinct-agg.split.enabled": "true",
	}
}

// viewsDDL are the person, auction and bid views over the generator.
var viewsDDL = []string{
	`CREATE VIEW person AS
SELECT person.id, person.name, person.emailAddress, person.creditCard, person.city, person.state, dateTime, person.extra
FROM datagen WHERE event_type = 0`,
	`CREATE VIEW auction AS
SELECT auction.id, auction.itemName, auction.description, auction.initialBid, auction.reserve, dateTime,
       auction.expires, auction.seller, auction.category, auction.extra
FROM datagen WHERE event_type = 1`,
	`CREATE VIEW bid AS
SELECT bid.auction, bid.bidder, bid.price, bid.channel, bid.url, dateTime, bid.extra
FROM datagen WHERE event_type = 2`,
}

// Query is one Nexmark query: statements run before (sink tables,
// functions) and the INSERT.
type Query struct {
	Name   string
	Title  string
	Setup  []string
	Insert string
}

// Queries lists q0-q22 without q6.
var Queries = []Query{
	{Name: "q0", Title: "Pass Through", Setup: []string{
		`CREATE TABLE nexmark_q0 (auction BIGINT, bidder BIGINT, price BIGINT, dateTime TIMESTAMP(3), extra VARCHAR) WITH ('connector' = 'blackhole')`},
		Insert: `INSERT INTO nexmark_q0 SELECT auction, bidder, price, dateTime, extra FROM bid`},
	{Name: "q1", Title: "Currency Conversion", Setup: []string{
		`CREATE TABLE nexmark_q1 (auction BIGINT, bidder BIGINT, price DECIMAL(23, 3), dateTime TIMESTAMP(3), extra VARCHAR) WITH ('connector' = 'blackhole')`},
		Insert: `INSERT INTO nexmark_q1 SELECT auction, bidder, 0.908 * price AS price, dateTime, extra FROM bid`},
	{Name: "q2", Title: "Selection", Setup: []string{
		`CREATE TABLE nexmark_q2 (auction BIGINT, price BIGINT) WITH ('connector' = 'blackhole')`},
		Insert: `INSERT INTO nexmark_q2 SELECT auction, price FROM bid WHERE MOD(auction, 123) = 0`},
	{Name: "q3", Title: "Local Item Suggestion", Setup: []string{
		`CREATE TABLE nexmark_q3 (name VARCHAR, city VARCHAR, state VARCHAR, id BIGINT) WITH ('connector' = 'blackhole')`},
		Insert: `INSERT INTO nexmark_q3
SELECT P.name, P.city, P.state, A.id
FROM auction AS A INNER JOIN person AS P ON A.seller = P.id
WHERE A.category = 10 AND (P.state = 'OR' OR P.state = 'ID' OR P.state = 'CA')`},
	{Name: "q4", Title: "Average Price for a Category", Setup: []string{
		`CREATE TABLE nexmark_q4 (id BIGINT, final BIGINT) WITH ('connector' = 'blackhole')`},
		Insert: `INSERT INTO nexmark_q4
SELECT Q.category, AVG(Q.final)
FROM (
  SELECT MAX(B.price) AS final, A.category
  FROM auction A, bid B
  WHERE A.id = B.auction AND B.dateTime BETWEEN A.dateTime AND A.expires
  GROUP BY A.id, A.category
) Q
GROUP BY Q.category`},
	{Name: "q5", Title: "Hot Items", Setup: []string{
		`CREATE TABLE nexmark_q5 (auction BIGINT, num BIGINT) WITH ('connector' = 'blackhole')`},
		Insert: `INSERT INTO nexmark_q5
SELECT AuctionBids.auction, AuctionBids.num
FROM (
  SELECT auction, COUNT(*) AS num, window_start AS starttime, window_end AS endtime
  FROM TABLE(HOP(TABLE bid, DESCRIPTOR(dateTime), INTERVAL '2' SECOND, INTERVAL '10' SECOND))
  GROUP BY auction, window_start, window_end
) AS AuctionBids
JOIN (
  SELECT MAX(CountBids.num) AS maxn, CountBids.starttime, CountBids.endtime
  FROM (
    SELECT COUNT(*) AS num, window_start AS starttime, window_end AS endtime
    FROM TABLE(HOP(TABLE bid, DESCRIPTOR(dateTime), INTERVAL '2' SECOND, INTERVAL '10' SECOND))
    GROUP BY auction, window_start, window_end
  ) AS CountBids
  GROUP BY CountBids.starttime, CountBids.endtime
) AS MaxBids
ON AuctionBids.starttime = MaxBids.starttime AND AuctionBids.endtime = MaxBids.endtime AND AuctionBids.num >= MaxBids.maxn`},
	{Name: "q7", Title: "Highest Bid", Setup: []string{
		`CREATE TABLE nexmark_q7 (auction BIGINT, bidder BIGINT, price BIGINT, dateTime TIMESTAMP(3), extra VARCHAR) WITH ('connector' = 'blackhole')`},
		Insert: `INSERT INTO nexmark_q7
SELECT B.auction, B.bidder, B.price, B.dateTime, B.extra
FROM bid B
JOIN (
  SELECT MAX(price) AS maxprice, window_end AS dateTime
  FROM TABLE(TUMBLE(TABLE bid, DESCRIPTOR(dateTime), INTERVAL '10' SECOND))
  GROUP BY window_start, window_end
) B1
ON B.price = B1.maxprice
WHERE B.dateTime BETWEEN B1.dateTime - INTERVAL '10' SECOND AND B1.dateTime`},
	{Name: "q8", Title: "Monitor New Users", Setup: []string{
		`CREATE TABLE nexmark_q8 (id BIGINT, name VARCHAR, stime TIMESTAMP(3)) WITH ('connector' = 'blackhole')`},
		Insert: `INSERT INTO nexmark_q8
SELECT P.id, P.name, P.starttime
FROM (
  SELECT id, name, window_start AS starttime, window_end AS endtime
  FROM TABLE(TUMBLE(TABLE person, DESCRIPTOR(dateTime), INTERVAL '10' SECOND))
  GROUP BY id, name, window_start, window_end
) P
JOIN (
  SELECT seller, window_start AS starttime, window_end AS endtime
  FROM TABLE(TUMBLE(TABLE auction, DESCRIPTOR(dateTime), INTERVAL '10' SECOND))
  GROUP BY seller, window_start, window_end
) A
ON P.id = A.seller AND P.starttime = A.starttime AND P.endtime = A.endtime`},
	{Name: "q9", Title: "Winning Bids", Setup: []string{
		`CREATE TABLE nexmark_q9 (id BIGINT, itemName VARCHAR, description VARCHAR, initialBid BIGINT, reserve BIGINT,
  dateTime TIMESTAMP(3), expires TIMESTAMP(3), seller BIGINT, category BIGINT, extra VARCHAR,
  auction BIGINT, bidder BIGINT, price BIGINT, bid_dateTime TIMESTAMP(3), bid_extra VARCHAR) WITH ('connector' = 'blackhole')`},
		Insert: `INSERT INTO nexmark_q9
SELECT id, itemName, description, initialBid, reserve, dateTime, expires, seller, category, extra,
       auction, bidder, price, bid_dateTime, bid_extra
FROM (
  SELECT A.*, B.auction, B.bidder, B.price, B.dateTime AS bid_dateTime, B.extra AS bid_extra,
         ROW_NUMBER() OVER (PARTITION BY A.id ORDER BY B.price DESC, B.dateTime ASC) AS rownum
  FROM auction A, bid B
  WHERE A.id = B.auction AND B.dateTime BETWEEN A.dateTime AND A.expires
)
WHERE rownum <= 1`},
	{Name: "q10", Title: "Log to File System", Setup: []string{
		`CREATE TABLE nexmark_q10 (auction BIGINT, bidder BIGINT, price BIGINT, dateTime TIMESTAMP(3), extra VARCHAR, dt STRING, hm STRING)
PARTITIONED BY (dt, hm) WITH ('connector' = 'filesystem', 'path' = '${OUTPUT}', 'format' = 'csv')`},
		Insert: `INSERT INTO nexmark_q10
SELECT auction, bidder, price, dateTime, extra, DATE_FORMAT(dateTime, 'yyyy-MM-dd'), DATE_FORMAT(dateTime, 'HH:mm')
FROM bid`},
	{Name: "q11", Title: "User Sessions", Setup: []string{
		`CREATE TABLE nexmark_q11 (bidder BIGINT, bid_count BIGINT, starttime TIMESTAMP(3), endtime TIMESTAMP(3)) WITH ('connector' = 'blackhole')`},
		Insert: `INSERT INTO nexmark_q11
SELECT B.bidder, COUNT(*) AS bid_count,
       SESSION_START(B.dateTime, INTERVAL '10' SECOND) AS starttime,
       SESSION_END(B.dateTime, INTERVAL '10' SECOND) AS endtime
FROM bid B
GROUP BY B.bidder, SESSION(B.dateTime, INTERVAL '10' SECOND)`},
	{Name: "q12", Title: "Processing Time Windows", Setup: []string{
		`CREATE TABLE nexmark_q12 (bidder BIGINT, bid_count BIGINT, starttime TIMESTAMP(3), endtime TIMESTAMP(3)) WITH ('connector' = 'blackhole')`,
		`CREATE VIEW B AS SELECT *, PROCTIME() AS p_time FROM bid`},
		Insert: `INSERT INTO nexmark_q12
SELECT bidder, COUNT(*) AS bid_count, window_start AS starttime, window_end AS endtime
FROM TABLE(TUMBLE(TABLE B, DESCRIPTOR(p_time), INTERVAL '10' SECOND))
GROUP BY bidder, window_start, window_end`},
	{Name: "q13", Title: "Bounded Side Input Join", Setup: []string{
		`CREATE TABLE side_input (key BIGINT, ` + "`value`" + ` VARCHAR) WITH ('connector' = 'filesystem', 'path' = '${SIDE_INPUT}', 'format' = 'csv')`,
		`CREATE TABLE nexmark_q13 (auction BIGINT, bidder BIGINT, price BIGINT, dateTime TIMESTAMP(3), ` + "`value`" + ` VARCHAR) WITH ('connector' = 'blackhole')`},
		Insert: `INSERT INTO nexmark_q13
SELECT B.auction, B.bidder, B.price, B.dateTime, S.` + "`value`" + `
FROM (SELECT *, PROCTIME() AS p_time FROM bid) B
JOIN side_input FOR SYSTEM_TIME AS OF B.p_time AS S
ON MOD(B.auction, 10000) = S.key`},
	{Name: "q14", Title: "Calculation", Setup: []string{
		`CREATE FUNCTION count_char AS 'com.github.nexmark.flink.udf.CountChar'`,
		`CREATE TABLE nexmark_q14 (auction BIGINT, bidder BIGINT, price DECIMAL(23, 3), bidTimeType VARCHAR, dateTime TIMESTAMP(3),
  extra VARCHAR, c_counts BIGINT) WITH ('connector' = 'blackhole')`},
		Insert: `INSERT INTO nexmark_q14
SELECT auction, bidder, 0.908 * price AS price,
  CASE
    WHEN HOUR(dateTime) >= 8 AND HOUR(dateTime) <= 18 THEN 'dayTime'
    WHEN HOUR(dateTime) <= 6 OR HOUR(dateTime) >= 20 THEN 'nightTime'
    ELSE 'otherTime'
  END AS bidTimeType,
  dateTime, extra, count_char(extra, 'c') AS c_counts
FROM bid
WHERE 0.908 * price > 1000000 AND 0.908 * price < 50000000`},
	{Name: "q15", Title: "Bidding Statistics Report", Setup: []string{
		`CREATE TABLE nexmark_q15 (` + "`day`" + ` VARCHAR, total_bids BIGINT, rank1_bids BIGINT, rank2_bids BIGINT, rank3_bids BIGINT,
  total_bidders BIGINT, rank1_bidders BIGINT, rank2_bidders BIGINT, rank3_bidders BIGINT,
  total_auctions BIGINT, rank1_auctions BIGINT, rank2_auctions BIGINT, rank3_auctions BIGINT) WITH ('connector' = 'blackhole')`},
		Insert: `INSERT INTO nexmark_q15
SELECT DATE_FORMAT(dateTime, 'yyyy-MM-dd') AS ` + "`day`" + `,
  COUNT(*) AS total_bids,
  COUNT(*) FILTER (WHERE price < 10000) AS rank1_bids,
  COUNT(*) FILTER (WHERE price >= 10000 AND price < 1000000) AS rank2_bids,
  COUNT(*) FILTER (WHERE price >= 1000000) AS rank3_bids,
  COUNT(DISTINCT bidder) AS total_bidders,
  COUNT(DISTINCT bidder) FILTER (WHERE price < 10000) AS rank1_bidders,
  COUNT(DISTINCT bidder) FILTER (WHERE price >= 10000 AND price < 1000000) AS rank2_bidders,
  COUNT(DISTINCT bidder) FILTER (WHERE price >= 1000000) AS rank3_bidders,
  COUNT(DISTINCT auction) AS total_auctions,
  COUNT(DISTINCT auction) FILTER (WHERE price < 10000) AS rank1_auctions,
  COUNT(DISTINCT auction) FILTER (WHERE price >= 10000 AND price < 1000000) AS rank2_auctions,
  COUNT(DISTINCT auction) FILTER (WHERE price >= 1000000) AS rank3_auctions
FROM bid
GROUP BY DATE_FORMAT(dateTime, 'yyyy-MM-dd')`},
	{Name: "q16", Title: "Channel Statistics Report", Setup: []string{
		`CREATE TABLE nexmark_q16 (channel VARCHAR, ` + "`day`" + ` VARCHAR, ` + "`minute`" + ` VARCHAR,
  total_bids BIGINT, rank1_bids BIGINT, rank2_bids BIGINT, rank3_bids BIGINT,
  total_bidders BIGINT, rank1_bidders BIGINT, rank2_bidders BIGINT, rank3_bidders BIGINT,
  total_auctions BIGINT, rank1_auctions BIGINT, rank2_auctions BIGINT, rank3_auctions BIGINT) WITH ('connector' = 'blackhole')`},
		Insert: `INSERT INTO nexmark_q16
SELECT channel, DATE_FORMAT(dateTime, 'yyyy-MM-dd') AS ` + "`day`" + `,
  MAX(DATE_FORMAT(dateTime, 'HH:mm')) AS ` + "`minute`" + `,
  COUNT(*) AS total_bids,
  COUNT(*) FILTER (WHERE price < 10000) AS rank1_bids,
  COUNT(*) FILTER (WHERE price >= 10000 AND price < 1000000) AS rank2_bids,
  COUNT(*) FILTER (WHERE price >= 1000000) AS rank3_bids,
  COUNT(DISTINCT bidder) AS total_bidders,
  COUNT(DISTINCT bidder) FILTER (WHERE price < 10000) AS rank1_bidders,
  COUNT(DISTINCT bidder) FILTER (WHERE price >= 10000 AND price < 1000000) AS rank2_bidders,
  COUNT(DISTINCT bidder) FILTER (WHERE price >= 1000000) AS rank3_bidders,
  COUNT(DISTINCT auction) AS total_auctions,
  COUNT(DISTINCT auction) FILTER (WHERE price < 10000) AS rank1_auctions,
  COUNT(DISTINCT auction) FILTER (WHERE price >= 10000 AND price < 1000000) AS rank2_auctions,
  COUNT(DISTINCT auction) FILTER (WHERE price >= 1000000) AS rank3_auctions
FROM bid
GROUP BY channel, DATE_FORMAT(dateTime, 'yyyy-MM-dd')`},
	{Name: "q17", Title: "Auction Statistics Report", Setup: []string{
		`CREATE TABLE nexmark_q17 (auction BIGINT, ` + "`day`" + ` VARCHAR, total_bids BIGINT, rank1_bids BIGINT, rank2_bids BIGINT,
  rank3_bids BIGINT, min_price BIGINT, max_price BIGINT, avg_price BIGINT, sum_price BIGINT) WITH ('connector' = 'blackhole')`},
		Insert: `INSERT INTO nexmark_q17
SELECT auction, DATE_FORMAT(dateTime, 'yyyy-MM-dd') AS ` + "`day`" + `,
  COUNT(*) AS total_bids,
  COUNT(*) FILTER (WHERE price < 10000) AS rank1_bids,
  COUNT(*) FILTER (WHERE price >= 10000 AND price < 1000000) AS rank2_bids,
  COUNT(*) FILTER (WHERE price >= 1000000) AS rank3_bids,
  MIN(price) AS min_price,
  MAX(price) AS max_price,
  AVG(price) AS avg_price,
  SUM(price) AS sum_price
FROM bid
GROUP BY auction, DATE_FORMAT(dateTime, 'yyyy-MM-dd')`},
	{Name: "q18", Title: "Find Last Bid", Setup: []string{
		`CREATE TABLE nexmark_q18 (auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR, url VARCHAR, dateTime TIMESTAMP(3), extra VARCHAR) WITH ('connector' = 'blackhole')`},
		Insert: `INSERT INTO nexmark_q18
SELECT auction, bidder, price, channel, url, dateTime, extra
FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY bidder, auction ORDER BY dateTime DESC) AS rank_number
  FROM bid
)
WHERE rank_number <= 1`},
	{Name: "q19", Title: "Auction TOP-10 Price", Setup: []string{
		`CREATE TABLE nexmark_q19 (auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR, url VARCHAR, dateTime TIMESTAMP(3), extra VARCHAR,
  rank_number BIGINT) WITH ('connector' = 'blackhole')`},
		Insert: `INSERT INTO nexmark_q19
SELECT * FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY auction ORDER BY price DESC) AS rank_number FROM bid
)
WHERE rank_number <= 10`},
	{Name: "q20", Title: "Expand Bid with Auction", Setup: []string{
		`CREATE TABLE nexmark_q20 (auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR, url VARCHAR, bid_dateTime TIMESTAMP(3),
  bid_extra VARCHAR, itemName VARCHAR, description VARCHAR, initialBid BIGINT, reserve BIGINT, auction_dateTime TIMESTAMP(3),
  expires TIMESTAMP(3), seller BIGINT, category BIGINT, auction_extra VARCHAR) WITH ('connector' = 'blackhole')`},
		Insert: `INSERT INTO nexmark_q20
SELECT auction, bidder, price, channel, url, B.dateTime, B.extra,
       itemName, description, initialBid, reserve, A.dateTime, expires, seller, category, A.extra
FROM bid AS B INNER JOIN auction AS A ON B.auction = A.id
WHERE A.category = 10`},
	{Name: "q21", Title: "Add Channel ID", Setup: []string{
		`CREATE TABLE nexmark_q21 (auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR, channel_id VARCHAR) WITH ('connector' = 'blackhole')`},
		Insert: `INSERT INTO nexmark_q21
SELECT auction, bidder, price, channel,
  CASE
    WHEN LOWER(channel) = 'apple' THEN '0'
    WHEN LOWER(channel) = 'google' THEN '1'
    WHEN LOWER(channel) = 'facebook' THEN '2'
    WHEN LOWER(channel) = 'baidu' THEN '3'
    ELSE REGEXP_EXTRACT(url, '(&|^)channel_id=([^&]*)', 2)
  END AS channel_id
FROM bid
WHERE REGEXP_EXTRACT(url, '(&|^)channel_id=([^&]*)', 2) IS NOT NULL OR LOWER(channel) IN ('apple', 'google', 'facebook', 'baidu')`},
	{Name: "q22", Title: "Get URL Directories", Setup: []string{
		`CREATE TABLE nexmark_q22 (auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR, dir1 VARCHAR, dir2 VARCHAR, dir3 VARCHAR) WITH ('connector' = 'blackhole')`},
		Insert: `INSERT INTO nexmark_q22
SELECT auction, bidder, price, channel,
  SPLIT_INDEX(url, '/', 3) AS dir1,
  SPLIT_INDEX(url, '/', 4) AS dir2,
  SPLIT_INDEX(url, '/', 5) AS dir3
FROM bid`},
}
