package json

import (
	"strconv"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/connector/internal/textconv"
	"github.com/riffle-sql/riffle/engine/connector/nexmark"
	"github.com/riffle-sql/riffle/engine/types"
)

// nexmarkMessages are JSON messages of Nexmark events as interop/nexflink
// writes them into Kafka: the nexmark connector's generator (1:3:46
// persons, auctions, bids; 10 M events/s of event time), one object per
// event with event_type and the person, auction and bid ROWs (null for
// the other kinds), timestamps in the SQL standard format.
type nexmarkMessages struct {
	data []byte
	ends []int
}

func (m *nexmarkMessages) msg(i int) []byte {
	s := 0
	if i > 0 {
		s = m.ends[i-1]
	}
	return m.data[s:m.ends[i]]
}

func genNexmarkMessages(n int) *nexmarkMessages {
	c := nexmark.DefaultConfig()
	c.FirstEventRate, c.NextEventRate = 10_000_000, 10_000_000
	c.NumEvents = int64(n)
	c.BaseTime = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli()
	g := nexmark.NewGenerator(c, 0)
	m := &nexmarkMessages{ends: make([]int, 0, n)}
	var e nexmark.Event
	b := m.data
	str := func(name, v string) {
		b = append(b, '"')
		b = append(b, name...)
		b = append(b, `":`...)
		b = strconv.AppendQuote(b, v)
		b = append(b, ',')
	}
	num := func(name string, v int64) {
		b = append(b, '"')
		b = append(b, name...)
		b = append(b, `":`...)
		b = strconv.AppendInt(b, v, 10)
		b = append(b, ',')
	}
	ts := func(name string, ms int64) {
		b = append(b, '"')
		b = append(b, name...)
		b = append(b, `":"`...)
		b = textconv.AppendTimestamp(b, ms/1000, ms%1000*1_000_000, ' ')
		b = append(b, `",`...)
	}
	for g.HasNext() {
		g.Next(&e)
		b = append(b, `{"event_type":`...)
		b = strconv.AppendInt(b, int64(e.Type), 10)
		switch e.Type {
		case nexmark.PersonEvent:
			p := e.Person
			b = append(b, `,"person":{`...)
			num("id", p.ID)
			str("name", p.Name)
			str("emailAddress", p.Email)
			str("creditCard", p.CreditCard)
			str("city", p.City)
			str("state", p.State)
			ts("dateTime", p.DateTime)
			str("extra", p.Extra)
			b = append(b[:len(b)-1], `},"auction":null,"bid":null}`...)
		case nexmark.AuctionEvent:
			a := e.Auction
			b = append(b, `,"person":null,"auction":{`...)
			num("id", a.ID)
			str("itemName", a.ItemName)
			str("description", a.Description)
			num("initialBid", a.InitialBid)
			num("reserve", a.Reserve)
			ts("dateTime", a.DateTime)
			ts("expires", a.Expires)
			num("seller", a.Seller)
			num("category", a.Category)
			str("extra", a.Extra)
			b = append(b[:len(b)-1], `},"bid":null}`...)
		default:
			d := e.Bid
			b = append(b, `,"person":null,"auction":null,"bid":{`...)
			num("auction", d.Auction)
			num("bidder", d.Bidder)
			num("price", d.Price)
			str("channel", d.Channel)
			str("url", d.URL)
			ts("dateTime", d.DateTime)
			str("extra", string(d.Extra))
			b = append(b[:len(b)-1], `}}`...)
		}
		m.ends = append(m.ends, len(b))
	}
	m.data = b
	return m
}

// nexmarkEventType is the row type of the Nexmark source table's
// physical columns (nexmark.EventColumns).
func nexmarkEventType() ([]string, []*types.DataType) {
	row := func(fs ...any) *types.DataType {
		t := types.RowType()
		for i := 0; i < len(fs); i += 2 {
			t.Fields = append(t.Fields, types.NewField(fs[i].(string), fs[i+1].(*types.DataType)))
		}
		return t
	}
	s, l, ts := types.StringType(), types.BigIntType(), types.TimestampType(3)
	person := row("id", l, "name", s, "emailAddress", s, "creditCard", s, "city", s, "state", s, "dateTime", ts, "extra", s)
	auction := row("id", l, "itemName", s, "description", s, "initialBid", l, "reserve", l, "dateTime", ts, "expires", ts,
		"seller", l, "category", l, "extra", s)
	bid := row("auction", l, "bidder", l, "price", l, "channel", s, "url", s, "dateTime", ts, "extra", s)
	return []string{"event_type", "person", "auction", "bid"}, []*types.DataType{types.IntType(), person, auction, bid}
}

var benchNexmark *nexmarkMessages

// BenchmarkNexmarkMessageDecode decodes 1 M Nexmark event messages
// (genNexmarkMessages) into the source table's four columns, one message
// at a time, flushing every 8192 as the Kafka source does. One op is one
// message; run it with -benchtime=1000000x to decode each message once.
func BenchmarkNexmarkMessageDecode(b *testing.B) {
	if benchNexmark == nil {
		benchNexmark = genNexmarkMessages(1_000_000)
	}
	m := benchNexmark
	names, ts := nexmarkEventType()
	d, err := Factory{}.CreateMessageDecoder(&connector.FormatContext{Names: names, Types: ts, Options: map[string]string{}})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(m.data) / len(m.ends)))
	b.ReportAllocs()
	b.ResetTimer()
	start, cpu0 := time.Now(), cpuSeconds()
	for i := 0; i < b.N; i++ {
		if _, err := d.Decode(m.msg(i % len(m.ends))); err != nil {
			b.Fatal(err)
		}
		if i%8192 == 8191 {
			d.Flush()
		}
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "records/s")
	b.ReportMetric(float64(b.N)/(cpuSeconds()-cpu0), "records/cpu-s")
}

// BenchmarkNexmarkMessageDecodeUses is BenchmarkNexmarkMessageDecode with
// the fields a query reads (connector.FormatContext.Uses, as the job
// graph finds them): q2 reads event_type, bid.auction, bid.price and the
// three dateTime fields; q0 and q14 also bid.bidder and bid.extra (every
// bid field but channel and url); all reads every field.
func BenchmarkNexmarkMessageDecodeUses(b *testing.B) {
	if benchNexmark == nil {
		benchNexmark = genNexmarkMessages(1_000_000)
	}
	m := benchNexmark
	names, ts := nexmarkEventType()
	// fields reads the named fields of a ROW type, whole
	fields := func(t *types.DataType, read ...string) *connector.FieldUse {
		u := &connector.FieldUse{Fields: make([]*connector.FieldUse, len(t.Fields))}
		for _, n := range read {
			u.Fields[t.FieldIndex(n)] = connector.WholeUse
		}
		return u
	}
	person, auction, bid := ts[1], ts[2], ts[3]
	for _, c := range []struct {
		name string
		uses []*connector.FieldUse
	}{
		{"all", nil},
		{"q2", []*connector.FieldUse{connector.WholeUse, fields(person, "dateTime"), fields(auction, "dateTime"),
			fields(bid, "auction", "price", "dateTime")}},
		{"q0_q14", []*connector.FieldUse{connector.WholeUse, fields(person, "dateTime"), fields(auction, "dateTime"),
			fields(bid, "auction", "bidder", "price", "dateTime", "extra")}},
	} {
		b.Run(c.name, func(b *testing.B) {
			d, err := Factory{}.CreateMessageDecoder(&connector.FormatContext{Names: names, Types: ts, Options: map[string]string{}, Uses: c.uses})
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(m.data) / len(m.ends)))
			b.ReportAllocs()
			b.ResetTimer()
			start, cpu0 := time.Now(), cpuSeconds()
			for i := 0; i < b.N; i++ {
				if _, err := d.Decode(m.msg(i % len(m.ends))); err != nil {
					b.Fatal(err)
				}
				if i%8192 == 8191 {
					d.Flush()
				}
			}
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "records/s")
			b.ReportMetric(float64(b.N)/(cpuSeconds()-cpu0), "records/cpu-s")
		})
	}
}
