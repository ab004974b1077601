package nexmark

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// expectations computes each query's result directly in Go; wrap, when
// set, projects the engine's result onto the columns compared.
var expectations = map[string]struct {
	wrap string
	want func(ev eventSet) []string
}{
	"q0": {want: func(ev eventSet) (out []string) {
		for _, b := range ev.bids {
			out = append(out, row(b.auction, b.bidder, b.price, b.ts, b.extra))
		}
		return
	}},
	"q1": {want: func(ev eventSet) (out []string) {
		for _, b := range ev.bids {
			out = append(out, row(b.auction, b.bidder, milli(b.price*908), b.ts, b.extra))
		}
		return
	}},
	"q2": {want: func(ev eventSet) (out []string) {
		for _, b := range ev.bids {
			if b.auction%123 == 0 {
				out = append(out, row(b.auction, b.price))
			}
		}
		return
	}},
	"q3": {want: func(ev eventSet) (out []string) {
		for _, a := range ev.auctions {
			if a.Category != 10 {
				continue
			}
			for _, p := range ev.persons {
				if p.ID == a.Seller && (p.State == "OR" || p.State == "ID" || p.State == "CA") {
					out = append(out, row(p.Name, p.City, p.State, a.ID))
				}
			}
		}
		return
	}},
	"q4": {want: func(ev eventSet) (out []string) {
		type catAgg struct{ sum, n int64 }
		cats := map[int64]*catAgg{}
		for _, a := range ev.auctions {
			best, found := int64(0), false
			for _, b := range ev.bids {
				if b.auction == a.ID && b.ts >= a.DateTime && b.ts <= a.Expires && (!found || b.price > best) {
					best, found = b.price, true
				}
			}
			if !found {
				continue
			}
			c := cats[a.Category]
			if c == nil {
				c = &catAgg{}
				cats[a.Category] = c
			}
			c.sum += best
			c.n++
		}
		for k, c := range cats {
			out = append(out, row(k, c.sum/c.n))
		}
		return
	}},
	"q5": {want: func(ev eventSet) (out []string) {
		type key struct{ auction, start int64 }
		counts := map[key]int64{}
		for _, b := range ev.bids {
			last := floorDiv(b.ts, 2000) * 2000
			for s := last; s > b.ts-10000; s -= 2000 {
				counts[key{b.auction, s}]++
			}
		}
		maxes := map[int64]int64{}
		for k, n := range counts {
			maxes[k.start] = max(maxes[k.start], n)
		}
		for k, n := range counts {
			if n >= maxes[k.start] {
				out = append(out, row(k.auction, n))
			}
		}
		return
	}},
	"q7": {want: func(ev eventSet) (out []string) {
		maxes := map[int64]int64{} // window end -> max price
		for _, b := range ev.bids {
			end := floorDiv(b.ts, 10000)*10000 + 10000
			if p, ok := maxes[end]; !ok || b.price > p {
				maxes[end] = b.price
			}
		}
		for _, b := range ev.bids {
			for end, p := range maxes {
				if b.price == p && b.ts >= end-10000 && b.ts <= end {
					out = append(out, row(b.auction, b.bidder, b.price, b.ts, b.extra))
				}
			}
		}
		return
	}},
	"q8": {want: func(ev eventSet) (out []string) {
		type pk struct {
			id    int64
			name  string
			start int64
		}
		type ak struct{ seller, start int64 }
		people := map[pk]bool{}
		for _, p := range ev.persons {
			people[pk{p.ID, p.Name, floorDiv(p.DateTime, 10000) * 10000}] = true
		}
		sellers := map[ak]bool{}
		for _, a := range ev.auctions {
			sellers[ak{a.Seller, floorDiv(a.DateTime, 10000) * 10000}] = true
		}
		for p := range people {
			if sellers[ak{p.id, p.start}] {
				out = append(out, row(p.id, p.name, p.start))
			}
		}
		return
	}},
	// ties in price and time would make the winning bid's other columns
	// arbitrary: compare the columns the ranking determines
	"q9": {wrap: "SELECT id, seller, category, expires, auction, price, bid_dateTime FROM (%s)", want: func(ev eventSet) (out []string) {
		for _, a := range ev.auctions {
			var best *bidEv
			for i := range ev.bids {
				b := &ev.bids[i]
				if b.auction != a.ID || b.ts < a.DateTime || b.ts > a.Expires {
					continue
				}
				if best == nil || b.price > best.price || b.price == best.price && b.ts < best.ts {
					best = b
				}
			}
			if best != nil {
				out = append(out, row(a.ID, a.Seller, a.Category, a.Expires, best.auction, best.price, best.ts))
			}
		}
		return
	}},
	"q11": {want: func(ev eventSet) (out []string) {
		byBidder := map[int64][]int64{}
		for _, b := range ev.bids {
			byBidder[b.bidder] = append(byBidder[b.bidder], b.ts)
		}
		for bidder, ts := range byBidder {
			sort.Slice(ts, func(i, j int) bool { return ts[i] < ts[j] })
			start, last, n := ts[0], ts[0], int64(1)
			for _, x := range ts[1:] {
				// Flink's TimeWindow.intersects is inclusive: a row at
				// exactly the session's end still joins it
				if x > last+10000 {
					out = append(out, row(bidder, n, start, last+10000))
					start, n = x, 0
				}
				last = x
				n++
			}
			out = append(out, row(bidder, n, start, last+10000))
		}
		return
	}},
	"q13": {want: func(ev eventSet) (out []string) {
		for _, b := range ev.bids {
			out = append(out, row(b.auction, b.bidder, b.price, b.ts, fmt.Sprint(b.auction%10000)))
		}
		return
	}},
	"q14": {want: func(ev eventSet) (out []string) {
		for _, b := range ev.bids {
			p := b.price * 908
			if p <= 1_000_000_000 || p >= 50_000_000_000 {
				continue
			}
			h := time.UnixMilli(b.ts).UTC().Hour()
			kind := "otherTime"
			if h >= 8 && h <= 18 {
				kind = "dayTime"
			} else if h <= 6 || h >= 20 {
				kind = "nightTime"
			}
			out = append(out, row(b.auction, b.bidder, milli(p), kind, b.ts, b.extra, int64(strings.Count(b.extra, "c"))))
		}
		return
	}},
	"q15": {want: func(ev eventSet) []string {
		return []string{row(append([]any{day}, rankStats(ev.bids)...)...)}
	}},
	"q16": {want: func(ev eventSet) (out []string) {
		byChannel := map[string][]bidEv{}
		for _, b := range ev.bids {
			byChannel[b.channel] = append(byChannel[b.channel], b)
		}
		for ch, bs := range byChannel {
			minute := ""
			for _, b := range bs {
				minute = max(minute, time.UnixMilli(b.ts).UTC().Format("15:04"))
			}
			out = append(out, row(append([]any{ch, day, minute}, rankStats(bs)...)...))
		}
		return
	}},
	"q17": {want: func(ev eventSet) (out []string) {
		type agg struct{ n, r1, r2, r3, lo, hi, sum int64 }
		m := map[int64]*agg{}
		for _, b := range ev.bids {
			a := m[b.auction]
			if a == nil {
				a = &agg{lo: b.price, hi: b.price}
				m[b.auction] = a
			}
			a.n++
			switch {
			case b.price < 10000:
				a.r1++
			case b.price < 1000000:
				a.r2++
			default:
				a.r3++
			}
			a.lo, a.hi, a.sum = min(a.lo, b.price), max(a.hi, b.price), a.sum+b.price
		}
		for k, a := range m {
			out = append(out, row(k, day, a.n, a.r1, a.r2, a.r3, a.lo, a.hi, a.sum/a.n, a.sum))
		}
		return
	}},
	"q18": {want: func(ev eventSet) (out []string) {
		type key struct{ bidder, auction int64 }
		last := map[key]bidEv{}
		for _, b := range ev.bids {
			k := key{b.bidder, b.auction}
			if p, ok := last[k]; !ok || b.ts >= p.ts {
				last[k] = b
			}
		}
		for _, b := range last {
			out = append(out, row(b.auction, b.bidder, b.price, b.channel, b.url, b.ts, b.extra))
		}
		return
	}},
	// equal prices may be ranked either way: compare the ranking itself
	"q19": {wrap: "SELECT auction, price, rank_number FROM (%s)", want: func(ev eventSet) (out []string) {
		byAuction := map[int64][]int64{}
		for _, b := range ev.bids {
			byAuction[b.auction] = append(byAuction[b.auction], b.price)
		}
		for a, ps := range byAuction {
			sort.Slice(ps, func(i, j int) bool { return ps[i] > ps[j] })
			for i, p := range ps[:min(len(ps), 10)] {
				out = append(out, row(a, p, int64(i+1)))
			}
		}
		return
	}},
	"q20": {want: func(ev eventSet) (out []string) {
		for _, a := range ev.auctions {
			if a.Category != 10 {
				continue
			}
			for _, b := range ev.bids {
				if b.auction == a.ID {
					out = append(out, row(b.auction, b.bidder, b.price, b.channel, b.url, b.ts, b.extra,
						a.ItemName, a.Description, a.InitialBid, a.Reserve, a.DateTime, a.Expires, a.Seller, a.Category, a.Extra))
				}
			}
		}
		return
	}},
	"q21": {want: func(ev eventSet) (out []string) {
		ids := map[string]string{"apple": "0", "google": "1", "facebook": "2", "baidu": "3"}
		for _, b := range ev.bids {
			id, hot := ids[strings.ToLower(b.channel)]
			if !hot {
				var ok bool
				if id, ok = channelID(b.url); !ok {
					continue
				}
			}
			out = append(out, row(b.auction, b.bidder, b.price, b.channel, id))
		}
		return
	}},
	"q22": {want: func(ev eventSet) (out []string) {
		for _, b := range ev.bids {
			parts := strings.Split(b.url, "/")
			dir := func(i int) any {
				if i < len(parts) {
					return parts[i]
				}
				return nil
			}
			out = append(out, row(b.auction, b.bidder, b.price, b.channel, dir(3), dir(4), dir(5)))
		}
		return
	}},
}
