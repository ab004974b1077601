package nexmark

import (
	"fmt"
	"math"
	"math/bits"
	"strconv"
)

// Constants of the Nexmark generator (com.github.nexmark.flink.generator).
const (
	firstAuctionID  = 1000
	firstPersonID   = 1000
	firstCategoryID = 10
	numCategories   = 5
	// fraction of hot auctions / bidders / sellers is 1 over these
	hotAuctionRatio = 100
	hotBidderRatio  = 100
	hotSellerRatio  = 100
	auctionIDLead   = 10
	personIDLead    = 10
	hotChannelRatio = 2
	channelsNumber  = 10_000
	minStringLength = 3
)

var (
	usStates    = []string{"AZ", "CA", "ID", "OR", "WA", "WY"}
	usCities    = []string{"Phoenix", "Los Angeles", "San Francisco", "Boise", "Portland", "Bend", "Redmond", "Seattle", "Kent", "Cheyenne"}
	firstNames  = []string{"Peter", "Paul", "Luke", "John", "Saul", "Vicky", "Kate", "Julie", "Sarah", "Deiter", "Walter"}
	lastNames   = []string{"Shultz", "Abrams", "Spencer", "White", "Bartels", "Walton", "Smith", "Jones", "Noris"}
	hotChannels = []string{"Google", "Facebook", "Baidu", "Apple"}
)

// Config holds the generator's parameters (NexmarkConfiguration and
// GeneratorConfig of the Java generator).
type Config struct {
	// Proportions of persons, auctions and bids (1 : 3 : 46).
	PersonProportion, AuctionProportion, BidProportion int64
	// FirstEventRate is the overall event rate in events per second; it
	// spaces the events' timestamps (1e6 / rate µs apart per generator).
	FirstEventRate, NextEventRate int64
	// NumEvents bounds the events (0 = unbounded).
	NumEvents int64
	// Average sizes in bytes, reached by padding the extra field.
	AvgPersonSize, AvgAuctionSize, AvgBidSize int
	// Hot key ratios: P(hot) = 1 - 1/ratio.
	HotAuctionRatio, HotSellersRatio, HotBiddersRatio int32
	NumInFlightAuctions                               int64
	NumActivePeople                                   int64
	OutOfOrderGroupSize                               int64
	// BaseTime is the timestamp of the first event (epoch ms).
	BaseTime int64
	// Generators is the number of parallel generators (each its own
	// timeline, as GeneratorConfig.split).
	Generators int
	// MaxEmitSpeed emits as fast as possible; else events are paced by
	// their timestamps.
	MaxEmitSpeed bool
	// Seed seeds the random numbers (the Java generator seeds from the
	// clock; a fixed seed makes runs repeatable).
	Seed int64
}

// DefaultConfig is the Nexmark benchmark's default configuration.
func DefaultConfig() Config {
	return Config{PersonProportion: 1, AuctionProportion: 3, BidProportion: 46, FirstEventRate: 10_000, NextEventRate: 10_000,
		AvgPersonSize: 200, AvgAuctionSize: 500, AvgBidSize: 100, HotAuctionRatio: 2, HotSellersRatio: 4, HotBiddersRatio: 4,
		NumInFlightAuctions: 100, NumActivePeople: 1000, OutOfOrderGroupSize: 1, Generators: 1, MaxEmitSpeed: true, Seed: 42}
}

func (c Config) total() int64 { return c.PersonProportion + c.AuctionProportion + c.BidProportion }

// interEventDelayUs is the delay between two events of one generator.
func (c Config) interEventDelayUs() float64 {
	return 1_000_000.0 / float64(c.FirstEventRate) * float64(max(c.Generators, 1))
}

// timestampForEvent is the event time of event number n (epoch ms).
func (c Config) timestampForEvent(n int64) int64 {
	return c.BaseTime + int64(float64(n)*c.interEventDelayUs())/1000
}

// Event types (the event_type column).
const (
	PersonEvent  int32 = 0
	AuctionEvent int32 = 1
	BidEvent     int32 = 2
)

// Person is a new person event.
type Person struct {
	ID                                   int64
	Name, Email, CreditCard, City, State string
	DateTime                             int64
	Extra                                string
}

// Auction is a new auction event.
type Auction struct {
	ID                    int64
	ItemName, Description string
	InitialBid, Reserve   int64
	DateTime, Expires     int64
	Seller, Category      int64
	Extra                 string
}

// Bid is a bid event. Extra aliases a buffer reused by the next event:
// copy it to keep it.
type Bid struct {
	Auction, Bidder, Price int64
	Channel, URL           string
	DateTime               int64
	Extra                  []byte
}

// Event is one generated event; only the field of its Type is set.
type Event struct {
	Type    int32
	Person  Person
	Auction Auction
	Bid     Bid
}

// Generator produces the events of one generator (split) in order.
type Generator struct {
	c            Config
	firstEventID int64
	maxEvents    int64
	count        int64
	rnd          *javaRandom
	extra        []byte
	channels     []channelURL
	hotURLs      []string
}

type channelURL struct {
	channel, url string
}

// NewGenerator returns generator index of c.Generators.
func NewGenerator(c Config, index int) *Generator {
	n := int64(max(c.Generators, 1))
	total := c.NumEvents
	if total == 0 {
		total = math.MaxInt64 / (c.total() * int64(max(c.AvgPersonSize, c.AvgAuctionSize, c.AvgBidSize)))
	}
	sub := total / n
	first := sub * int64(index)
	if int64(index) == n-1 {
		sub = total - sub*(n-1)
	}
	g := &Generator{c: c, firstEventID: first, maxEvents: sub, rnd: newJavaRandom(c.Seed + int64(index)*0x9E3779B9)}
	g.channels = make([]channelURL, channelsNumber)
	for i := range hotChannels {
		g.hotURLs = append(g.hotURLs, baseURL(newJavaRandom(c.Seed^int64(1000003*(i+1)))))
	}
	return g
}

// HasNext reports whether more events remain.
func (g *Generator) HasNext() bool { return g.count < g.maxEvents }

// Count is the number of events generated so far.
func (g *Generator) Count() int64 { return g.count }

// adjustedEventNumber applies the out-of-order grouping.
func (g *Generator) adjustedEventNumber(n int64) int64 {
	k := g.c.OutOfOrderGroupSize
	if k <= 1 {
		return n
	}
	return (n/k)*k + (n*953)%k
}

// NextTimestamp is the event time of the next event (ms).
func (g *Generator) NextTimestamp() int64 {
	return g.c.timestampForEvent(g.adjustedEventNumber(g.count))
}

// Next generates the next event into e.
func (g *Generator) Next(e *Event) {
	eventNumber := g.adjustedEventNumber(g.count)
	ts := g.c.timestampForEvent(eventNumber)
	id := g.firstEventID + eventNumber
	rem := id % g.c.total()
	switch {
	case rem < g.c.PersonProportion:
		e.Type = PersonEvent
		g.nextPerson(id, ts, &e.Person)
	case rem < g.c.PersonProportion+g.c.AuctionProportion:
		e.Type = AuctionEvent
		g.nextAuction(g.count, id, ts, &e.Auction)
	default:
		e.Type = BidEvent
		g.nextBid(id, ts, &e.Bid)
	}
	g.count++
}

func (g *Generator) lastBase0AuctionID(eventID int64) int64 {
	c := &g.c
	epoch := eventID / c.total()
	offset := eventID % c.total()
	switch {
	case offset < c.PersonProportion:
		epoch--
		offset = c.AuctionProportion - 1
	case offset >= c.PersonProportion+c.AuctionProportion:
		offset = c.AuctionProportion - 1
	default:
		offset -= c.PersonProportion
	}
	return epoch*c.AuctionProportion + offset
}

func (g *Generator) nextBase0AuctionID(eventID int64) int64 {
	maxA := g.lastBase0AuctionID(eventID)
	minA := max(maxA-g.c.NumInFlightAuctions, 0)
	return minA + g.rnd.nextLongN(maxA-minA+1+auctionIDLead)
}

func (g *Generator) lastBase0PersonID(eventID int64) int64 {
	c := &g.c
	epoch := eventID / c.total()
	offset := eventID % c.total()
	if offset >= c.PersonProportion {
		offset = c.PersonProportion - 1
	}
	return epoch*c.PersonProportion + offset
}

func (g *Generator) nextBase0PersonID(eventID int64) int64 {
	numPeople := g.lastBase0PersonID(eventID) + 1
	active := min(numPeople, g.c.NumActivePeople)
	n := g.rnd.nextLongN(active + personIDLead)
	return numPeople - active + n
}

// nextPrice is round(10^(U*6) * 100): log-uniform between 1 and 10^8.
func (g *Generator) nextPrice() int64 {
	return int64(math.Floor(math.Pow(10.0, g.rnd.nextDouble()*6.0)*100.0 + 0.5))
}

// nextString is a random string of 3 to maxLength-1 letters with some
// spaces (special), trimmed (StringsGenerator.nextString).
func (g *Generator) nextString(maxLength int32, special byte) string {
	n := minStringLength + g.rnd.nextIntN(maxLength-minStringLength)
	b := make([]byte, 0, n)
	for ; n > 0; n-- {
		if g.rnd.nextIntN(13) == 0 {
			b = append(b, special)
		} else {
			b = append(b, byte('a'+g.rnd.nextIntN(26)))
		}
	}
	if special == ' ' {
		for len(b) > 0 && b[0] == ' ' {
			b = b[1:]
		}
		for len(b) > 0 && b[len(b)-1] == ' ' {
			b = b[:len(b)-1]
		}
	}
	return string(b)
}

// appendExactString appends length random characters, six per random int
// (StringsGenerator.nextExactString, including its Java remainder
// semantics for negative ints).
func (g *Generator) appendExactString(buf []byte, length int) []byte {
	var rnd int32
	left := 0
	for ; length > 0; length-- {
		if left == 0 {
			rnd = g.rnd.nextInt()
			left = 6
		}
		buf = append(buf, byte(int32('a')+rnd%26))
		rnd /= 26
		left--
	}
	return buf
}

// appendExtra pads an event of currentSize bytes to desiredAverage on
// average (StringsGenerator.nextExtra).
func (g *Generator) appendExtra(buf []byte, currentSize, desiredAverage int) []byte {
	if currentSize > desiredAverage {
		return buf
	}
	desiredAverage -= currentSize
	delta := int(math.Floor(float64(desiredAverage)*0.2 + 0.5))
	minSize := desiredAverage - delta
	size := minSize
	if delta != 0 {
		size += int(g.rnd.nextIntN(int32(2 * delta)))
	}
	return g.appendExactString(buf, size)
}

func (g *Generator) nextPerson(eventID, ts int64, p *Person) {
	p.ID = g.lastBase0PersonID(eventID) + firstPersonID
	p.Name = firstNames[g.rnd.nextIntN(int32(len(firstNames)))] + " " + lastNames[g.rnd.nextIntN(int32(len(lastNames)))]
	p.Email = g.nextString(7, ' ') + "@" + g.nextString(5, ' ') + ".com"
	var cc []byte
	for i := 0; i < 4; i++ {
		if i > 0 {
			cc = append(cc, ' ')
		}
		v := g.rnd.nextIntN(10000)
		cc = append(cc, fmt.Sprintf("%04d", v)...)
	}
	p.CreditCard = string(cc)
	p.City = usCities[g.rnd.nextIntN(int32(len(usCities)))]
	p.State = usStates[g.rnd.nextIntN(int32(len(usStates)))]
	size := 8 + len(p.Name) + len(p.Email) + len(p.CreditCard) + len(p.City) + len(p.State)
	g.extra = g.appendExtra(g.extra[:0], size, g.c.AvgPersonSize)
	p.Extra = string(g.extra)
	p.DateTime = ts
}

func (g *Generator) nextAuction(count, eventID, ts int64, a *Auction) {
	a.ID = g.lastBase0AuctionID(eventID) + firstAuctionID
	// seller: a hot seller with probability 1 - 1/HotSellersRatio
	if g.rnd.nextIntN(g.c.HotSellersRatio) > 0 {
		a.Seller = (g.lastBase0PersonID(eventID) / hotSellerRatio) * hotSellerRatio
	} else {
		a.Seller = g.nextBase0PersonID(eventID)
	}
	a.Seller += firstPersonID
	a.Category = firstCategoryID + int64(g.rnd.nextIntN(numCategories))
	a.InitialBid = g.nextPrice()
	// length of the auction: on average the time until numInFlightAuctions
	// more auctions are generated
	current := g.adjustedEventNumber(count)
	eventsForAuctions := g.c.NumInFlightAuctions * g.c.total() / g.c.AuctionProportion
	future := g.c.timestampForEvent(current + eventsForAuctions)
	horizon := future - ts
	a.Expires = ts + 1 + g.rnd.nextLongN(max(horizon*2, 1))
	a.ItemName = g.nextString(20, ' ')
	a.Description = g.nextString(100, ' ')
	a.Reserve = a.InitialBid + g.nextPrice()
	size := 8 + len(a.ItemName) + len(a.Description) + 8 + 8 + 8 + 8 + 8
	g.extra = g.appendExtra(g.extra[:0], size, g.c.AvgAuctionSize)
	a.Extra = string(g.extra)
	a.DateTime = ts
}

func (g *Generator) nextBid(eventID, ts int64, b *Bid) {
	if g.rnd.nextIntN(g.c.HotAuctionRatio) > 0 {
		b.Auction = (g.lastBase0AuctionID(eventID) / hotAuctionRatio) * hotAuctionRatio
	} else {
		b.Auction = g.nextBase0AuctionID(eventID)
	}
	b.Auction += firstAuctionID
	if g.rnd.nextIntN(g.c.HotBiddersRatio) > 0 {
		b.Bidder = (g.lastBase0PersonID(eventID)/hotBidderRatio)*hotBidderRatio + 1
	} else {
		b.Bidder = g.nextBase0PersonID(eventID)
	}
	b.Bidder += firstPersonID
	b.Price = g.nextPrice()
	if g.rnd.nextIntN(hotChannelRatio) > 0 {
		i := g.rnd.nextIntN(int32(len(hotChannels)))
		b.Channel, b.URL = hotChannels[i], g.hotURLs[i]
	} else {
		b.Channel, b.URL = g.channel(g.rnd.nextIntN(channelsNumber))
	}
	// the Java generator adds FIRST_PERSON_ID a second time here; kept so
	// that bidder ids match it
	b.Bidder += firstPersonID
	g.extra = g.appendExtra(g.extra[:0], 8+8+8+8, g.c.AvgBidSize)
	b.Extra = g.extra
	b.DateTime = ts
}

// channel returns the name and URL of a cold channel; nine in ten URLs
// carry "&channel_id=" (BidGenerator.getNextChannelAndurl).
func (g *Generator) channel(n int32) (string, string) {
	c := &g.channels[n]
	if c.channel == "" {
		r := newJavaRandom(g.c.Seed ^ (int64(n)*0x5851F42D + 17))
		c.url = baseURL(r)
		if r.nextIntN(10) > 0 {
			c.url += "&channel_id=" + strconv.Itoa(abs32(int32(bits.Reverse32(uint32(n)))))
		}
		c.channel = "channel-" + strconv.Itoa(int(n))
	}
	return c.channel, c.url
}

// abs32 is Java's Math.abs(int): MIN_VALUE stays negative.
func abs32(v int32) int {
	if v < 0 && v != math.MinInt32 {
		return -int(v)
	}
	return int(v)
}

// baseURL is "https://www.nexmark.com/<a>/<b>/<c>/item.htm?query=1" with
// random path parts using '_' as the special character.
func baseURL(r *javaRandom) string {
	g := &Generator{rnd: r}
	return "https://www.nexmark.com/" + g.nextString(5, '_') + "/" + g.nextString(5, '_') + "/" + g.nextString(5, '_') + "/item.htm?query=1"
}
