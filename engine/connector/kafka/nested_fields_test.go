package kafka_test

import (
	"fmt"
	"testing"
)

// A query that reads some fields of a ROW column (the Nexmark table's
// shape: a computed event time from the ROWs' fields, a watermark, a view
// per kind) gets the same rows as one reading the ROWs whole: the value
// decoder skips only the strings nobody reads (connector.ReadSpec.Uses).
func TestNestedFieldsRead(t *testing.T) {
	bs := broker(t, map[string]int32{"events": 2})
	produce(t, bs, "events",
		rec{p: 0, val: `{"event_type":0,"person":{"id":7,"name":"ann","dateTime":"2024-01-01 00:00:00.001"},"bid":null}`},
		rec{p: 0, val: `{"event_type":2,"person":null,"bid":{"auction":1,"price":10,"url":"u1","extra":"c","dateTime":"2024-01-01 00:00:00.002"}}`},
		rec{p: 1, val: `{"event_type":2,"person":null,"bid":{"auction":2,"price":20,"url":"u2","extra":"ccc","dateTime":"2024-01-01 00:00:00.003"}}`},
		rec{p: 1, val: `{"event_type":2,"person":null,"bid":{"auction":3,"price":30,"url":{"x":1},"extra":null,"dateTime":"2024-01-01 00:00:01.5"}}`},
	)
	for _, par := range []string{"1", "2"} {
		e := env(t, true)
		e.GetConfig().Set("parallelism.default", par)
		exec(t, e, fmt.Sprintf(`CREATE TABLE events (
			event_type INT,
			person ROW<id BIGINT, name STRING, dateTime TIMESTAMP(3)>,
			bid ROW<auction BIGINT, price BIGINT, url STRING, extra STRING, dateTime TIMESTAMP(3)>,
			dateTime AS CASE WHEN event_type = 0 THEN person.dateTime ELSE bid.dateTime END,
			WATERMARK FOR dateTime AS dateTime - INTERVAL '4' SECOND
		) WITH ('connector' = 'kafka', 'topic' = 'events', 'properties.bootstrap.servers' = '%s',
			'format' = 'json', 'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset')`, bs))
		exec(t, e, `CREATE VIEW bid AS SELECT bid.auction, bid.price, bid.url, dateTime, bid.extra FROM events WHERE event_type = 2`)
		same(t, "p"+par+" fields", sorted(query(t, e, "SELECT auction, price, dateTime, CHAR_LENGTH(extra) FROM bid")), []string{
			"+I[1, 10, 2024-01-01T00:00:00.002, 1]",
			"+I[2, 20, 2024-01-01T00:00:00.003, 3]",
			"+I[3, 30, 2024-01-01T00:00:01.500, null]",
		})
		same(t, "p"+par+" url", sorted(query(t, e, "SELECT url FROM bid WHERE auction > 1")), []string{`+I[u2]`, `+I[{"x":1}]`})
		same(t, "p"+par+" whole", sorted(query(t, e, "SELECT event_type, person, bid FROM events")), []string{
			"+I[0, +I[7, ann, 2024-01-01T00:00:00.001], null]",
			"+I[2, null, +I[1, 10, u1, c, 2024-01-01T00:00:00.002]]",
			"+I[2, null, +I[2, 20, u2, ccc, 2024-01-01T00:00:00.003]]",
			`+I[2, null, +I[3, 30, {"x":1}, null, 2024-01-01T00:00:01.500]]`,
		})
		same(t, "p"+par+" name", sorted(query(t, e, "SELECT person.name, person.id FROM events WHERE person IS NOT NULL")), []string{"+I[ann, 7]"})
	}
}
