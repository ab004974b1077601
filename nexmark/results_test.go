package nexmark

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	nx "github.com/riffle-sql/riffle/engine/connector/nexmark"
	"github.com/riffle-sql/riffle/engine/types"
)

// These tests run the Nexmark queries on a few thousand generated events
// and compare their final results (the changelog applied to a multiset)
// with the same query computed directly in Go over the same events, taken
// from the generator package. The event rate is low (100 events/s of
// event time) so that the events span many windows.

const (
	testRate = 100
	day      = "2024-01-01"
)

var testBase = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

type bidEv struct {
	auction, bidder, price int64
	channel, url, extra    string
	ts                     int64
}

type eventSet struct {
	persons  []nx.Person
	auctions []nx.Auction
	bids     []bidEv
}

// generate produces the events the source produces for the options: one
// generator per parallel source instance, each with its own timeline.
func generate(events int64, parallelism int) eventSet {
	c := nx.DefaultConfig()
	c.NumEvents = events
	c.FirstEventRate, c.NextEventRate = testRate, testRate
	c.BaseTime = testBase.UnixMilli()
	c.Generators = parallelism
	var out eventSet
	for i := 0; i < parallelism; i++ {
		g := nx.NewGenerator(c, i)
		var e nx.Event
		for g.HasNext() {
			g.Next(&e)
			switch e.Type {
			case nx.PersonEvent:
				out.persons = append(out.persons, e.Person)
			case nx.AuctionEvent:
				out.auctions = append(out.auctions, e.Auction)
			default:
				b := e.Bid
				out.bids = append(out.bids, bidEv{b.Auction, b.Bidder, b.Price, b.Channel, b.URL, string(b.Extra), b.DateTime})
			}
		}
	}
	return out
}

// canon renders a value the same way for engine rows and expectations:
// timestamps as epoch milliseconds, decimals in plain notation.
func canon(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case time.Time:
		return fmt.Sprint(x.UnixMilli())
	case types.Decimal:
		return x.Rat().FloatString(int(x.Scale))
	}
	return fmt.Sprint(v)
}

func row(vals ...any) string {
	parts := make([]string, len(vals))
	for i, v := range vals {
		parts[i] = canon(v)
	}
	return strings.Join(parts, "|")
}

var insertPrefix = regexp.MustCompile(`(?s)^INSERT INTO \S+\s*`)

// runQuery runs the query's SELECT (optionally wrapped: wrap has one %s)
// and returns the final multiset of its rows.
func runQuery(t *testing.T, q Query, events int64, parallelism int, wrap string) map[string]int {
	t.Helper()
	env, done, err := Setup(q, Options{Events: events, Parallelism: parallelism, Rate: testRate, BaseTime: testBase})
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	query := insertPrefix.ReplaceAllString(q.Insert, "")
	if wrap != "" {
		query = fmt.Sprintf(wrap, query)
	}
	res, err := env.ExecuteSQL(query)
	if err != nil {
		t.Fatal(err)
	}
	it, err := res.Collect()
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	out := map[string]int{}
	for it.Next() {
		r := it.Row()
		k := row(r.Values...)
		switch r.Kind {
		case types.Insert, types.UpdateAfter:
			out[k]++
		default:
			out[k]--
			if out[k] == 0 {
				delete(out, k)
			}
		}
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	for k, n := range out {
		if n < 0 {
			t.Fatalf("retraction of a row never inserted: %s", k)
		}
	}
	return out
}

func multiset(rows []string) map[string]int {
	m := map[string]int{}
	for _, r := range rows {
		m[r]++
	}
	return m
}

func compare(t *testing.T, got, want map[string]int) {
	t.Helper()
	var missing, extra []string
	for k, n := range want {
		if got[k] < n {
			missing = append(missing, fmt.Sprintf("%dx %s", n-got[k], k))
		}
	}
	for k, n := range got {
		if n > want[k] {
			extra = append(extra, fmt.Sprintf("%dx %s", n-want[k], k))
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	if len(missing)+len(extra) > 0 {
		t.Errorf("%d expected rows missing, %d unexpected rows\nmissing: %s\nextra: %s", len(missing), len(extra),
			strings.Join(head(missing), "\n  "), strings.Join(head(extra), "\n  "))
	}
	if len(want) == 0 {
		t.Error("the expectation is empty: the test checks nothing")
	}
}

func head(s []string) []string {
	if len(s) > 10 {
		return append(s[:10:10], "...")
	}
	return s
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// milli renders an unscaled value of scale 3.
func milli(v int64) string { return fmt.Sprintf("%d.%03d", v/1000, v%1000) }

// channelID is the value of the first "channel_id=" parameter that starts
// the URL or follows '&', up to the next '&'.
func channelID(url string) (string, bool) {
	for i := 0; ; {
		j := strings.Index(url[i:], "channel_id=")
		if j < 0 {
			return "", false
		}
		j += i
		if j == 0 || url[j-1] == '&' {
			v := url[j+len("channel_id="):]
			if k := strings.IndexByte(v, '&'); k >= 0 {
				v = v[:k]
			}
			return v, true
		}
		i = j + 1
	}
}

// rankStats are q15/q16's counts: bids, distinct bidders and distinct
// auctions, in total and per price rank.
func rankStats(bs []bidEv) []any {
	var n [4]int64
	bidders := [4]map[int64]bool{{}, {}, {}, {}}
	auctions := [4]map[int64]bool{{}, {}, {}, {}}
	for _, b := range bs {
		r := 3
		if b.price < 10000 {
			r = 1
		} else if b.price < 1000000 {
			r = 2
		}
		for _, i := range []int{0, r} {
			n[i]++
			bidders[i][b.bidder] = true
			auctions[i][b.auction] = true
		}
	}
	return []any{n[0], n[1], n[2], n[3],
		int64(len(bidders[0])), int64(len(bidders[1])), int64(len(bidders[2])), int64(len(bidders[3])),
		int64(len(auctions[0])), int64(len(auctions[1])), int64(len(auctions[2])), int64(len(auctions[3]))}
}

func TestQueryResults(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every query")
	}
	for _, p := range []int{1, 2} {
		events := int64(20000)
		if p > 1 {
			events = 10000
		}
		ev := generate(events, p)
		for _, q := range Queries {
			exp, ok := expectations[q.Name]
			if !ok {
				continue
			}
			t.Run(fmt.Sprintf("%s/p%d", q.Name, p), func(t *testing.T) {
				got := runQuery(t, q, events, p, exp.wrap)
				compare(t, got, multiset(exp.want(ev)))
			})
		}
	}
}

// TestGeneratedEventCounts checks the proportions 1:3:46.
func TestGeneratedEventCounts(t *testing.T) {
	ev := generate(5000, 1)
	if len(ev.persons) != 100 || len(ev.auctions) != 300 || len(ev.bids) != 4600 {
		t.Errorf("persons %d, auctions %d, bids %d", len(ev.persons), len(ev.auctions), len(ev.bids))
	}
}
