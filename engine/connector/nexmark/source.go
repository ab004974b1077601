// Package nexmark is the 'nexmark' connector: the event generator of the
// Nexmark benchmark as Flink's nexmark repository defines it
// (com.github.nexmark.flink.generator), producing persons, auctions and
// bids (proportions 1 : 3 : 46 by default) with event times derived from
// the event number, hot auctions, bidders and sellers, and the quirks of
// the Java generator (bidder ids are offset by FIRST_PERSON_ID twice).
//
// The table has the columns of Nexmark's ddl_gen.sql, matched by name:
//
//	event_type INT,
//	person  ROW<id, name, emailAddress, creditCard, city, state, dateTime, extra>,
//	auction ROW<id, itemName, description, initialBid, reserve, dateTime, expires, seller, category, extra>,
//	bid     ROW<auction, bidder, price, channel, url, dateTime, extra>
//
// (any subset of the ROW fields may be declared). Events are generated
// straight into Arrow columns, and only the columns a query reads.
//
// Options are those of NexmarkSourceOptions (first-event.rate, events.num,
// person.proportion, ...), plus two Riffle options: 'random.seed' (the
// Java generator seeds from the clock; the default here is a fixed seed so
// that runs repeat) and 'base-time' (the event time of the first event,
// epoch milliseconds or 'yyyy-MM-dd HH:mm:ss'; default: now). The number
// of generators (each with its own timeline) is 'scan.parallelism', else
// parallelism.default.
package nexmark

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// Identifier is the connector's 'connector' option value.
const Identifier = "nexmark"

// BatchRows is the number of events per generated batch.
const BatchRows = 4096

func init() { connector.Register(Factory{}) }

// Factory creates nexmark sources.
type Factory struct{}

// Identifier returns "nexmark".
func (Factory) Identifier() string { return Identifier }

// Options lists the connector's options.
func (Factory) Options() []connector.Option {
	return []connector.Option{
		{Key: "first-event.rate", Default: "10000", Kind: "int", Description: "Events per second; spaces the events' timestamps."},
		{Key: "next-event.rate", Default: "10000", Kind: "int", Description: "Events per second after the first period (SQUARE rate shape; same as first-event.rate here)."},
		{Key: "events.num", Default: "0", Kind: "int", Description: "Number of events to generate; 0 is unbounded."},
		{Key: "person.proportion", Default: "1", Kind: "int", Description: "Proportion of person events."},
		{Key: "auction.proportion", Default: "3", Kind: "int", Description: "Proportion of auction events."},
		{Key: "bid.proportion", Default: "46", Kind: "int", Description: "Proportion of bid events."},
		{Key: "person.avg-size", Default: "200b", Kind: "string", Description: "Average size of a person event."},
		{Key: "auction.avg-size", Default: "500b", Kind: "string", Description: "Average size of an auction event."},
		{Key: "bid.avg-size", Default: "100b", Kind: "string", Description: "Average size of a bid event."},
		{Key: "bid.hot-ratio.auctions", Default: "2", Kind: "int", Description: "Ratio of bids to hot auctions: P(hot) = 1 - 1/ratio."},
		{Key: "bid.hot-ratio.bidders", Default: "4", Kind: "int", Description: "Ratio of bids by hot bidders."},
		{Key: "auction.hot-ratio.sellers", Default: "4", Kind: "int", Description: "Ratio of auctions by hot sellers."},
		{Key: "rate.shape", Default: "SQUARE", Kind: "enum", Values: []string{"SQUARE", "SINE"}, Description: "Shape of the event rate (accepted; the rate is constant)."},
		{Key: "rate.period", Default: "600 s", Kind: "duration", Description: "Period of the rate shape (accepted; unused)."},
		{Key: "rate.limited", Default: "false", Kind: "bool", Description: "Accepted for compatibility (pacing is max-emit-speed)."},
		{Key: "keep-alive", Default: "false", Kind: "bool", Description: "Keep the source running after the last event."},
		{Key: "stop-at", Default: "-1", Kind: "int", Description: "Accepted for compatibility."},
		{Key: "max-emit-speed", Default: "true", Kind: "bool", Description: "Emit as fast as possible; false paces events by their timestamps."},
		{Key: "scan.parallelism", Kind: "int", Description: "Number of generators (Riffle; default parallelism.default)."},
		{Key: "random.seed", Default: "42", Kind: "int", Description: "Seed of the random numbers (Riffle)."},
		{Key: "base-time", Kind: "string", Description: "Event time of the first event: epoch ms or 'yyyy-MM-dd HH:mm:ss' UTC (Riffle; default now)."},
	}
}

// CreateSource validates the options and the schema.
func (f Factory) CreateSource(ctx *connector.Context) (connector.Source, error) {
	if err := connector.ValidateOptions(ctx, f.Options()); err != nil {
		return nil, err
	}
	c := DefaultConfig()
	c.BaseTime = time.Now().UnixMilli()
	c.Generators = ctx.Config.Parallelism()
	keepAlive := false
	var err error
	for k, v := range ctx.Options {
		v = strings.TrimSpace(v)
		switch k {
		case "first-event.rate":
			c.FirstEventRate, err = positive(k, v)
		case "next-event.rate":
			c.NextEventRate, err = positive(k, v)
		case "events.num":
			c.NumEvents, err = strconv.ParseInt(v, 10, 64)
			if err == nil && c.NumEvents < 0 {
				err = fmt.Errorf("'events.num' must not be negative")
			}
		case "person.proportion":
			c.PersonProportion, err = nonNegative(k, v)
		case "auction.proportion":
			c.AuctionProportion, err = nonNegative(k, v)
		case "bid.proportion":
			c.BidProportion, err = nonNegative(k, v)
		case "person.avg-size":
			c.AvgPersonSize, err = memorySize(v)
		case "auction.avg-size":
			c.AvgAuctionSize, err = memorySize(v)
		case "bid.avg-size":
			c.AvgBidSize, err = memorySize(v)
		case "bid.hot-ratio.auctions":
			c.HotAuctionRatio, err = ratio(k, v)
		case "bid.hot-ratio.bidders":
			c.HotBiddersRatio, err = ratio(k, v)
		case "auction.hot-ratio.sellers":
			c.HotSellersRatio, err = ratio(k, v)
		case "max-emit-speed":
			c.MaxEmitSpeed, err = strconv.ParseBool(v)
		case "keep-alive":
			keepAlive, err = strconv.ParseBool(v)
		case "scan.parallelism":
			var n int64
			n, err = positive(k, v)
			c.Generators = int(n)
		case "random.seed":
			c.Seed, err = strconv.ParseInt(v, 10, 64)
		case "base-time":
			c.BaseTime, err = parseBaseTime(v)
		}
		if err != nil {
			return nil, fmt.Errorf("table %s: invalid value '%s' for option '%s': %v", ctx.Table, v, k, err)
		}
	}
	if c.total() <= 0 || c.PersonProportion <= 0 && c.AuctionProportion <= 0 && c.BidProportion <= 0 {
		return nil, fmt.Errorf("table %s: the event proportions must not all be zero", ctx.Table)
	}
	cols, err := bindColumns(ctx)
	if err != nil {
		return nil, err
	}
	return &Source{c: c, cols: cols, keepAlive: keepAlive, table: ctx.Table}, nil
}

func positive(k, v string) (int64, error) {
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("'%s' must be a positive integer", k)
	}
	return n, nil
}

func nonNegative(k, v string) (int64, error) {
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("'%s' must be a non-negative integer", k)
	}
	return n, nil
}

func ratio(k, v string) (int32, error) {
	n, err := positive(k, v)
	return int32(n), err
}

// memorySize parses "200b", "1kb", "500".
func memorySize(v string) (int, error) {
	s := strings.ToLower(strings.TrimSpace(v))
	mult := 1
	for _, u := range []struct {
		suffix string
		m      int
	}{{"kb", 1024}, {"k", 1024}, {"mb", 1 << 20}, {"m", 1 << 20}, {"bytes", 1}, {"b", 1}} {
		if strings.HasSuffix(s, u.suffix) {
			s, mult = strings.TrimSpace(strings.TrimSuffix(s, u.suffix)), u.m
			break
		}
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("not a memory size")
	}
	return n * mult, nil
}

func parseBaseTime(v string) (int64, error) {
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		return n, nil
	}
	t, err := time.Parse("2006-01-02 15:04:05", v)
	if err != nil {
		return 0, fmt.Errorf("expected epoch milliseconds or 'yyyy-MM-dd HH:mm:ss'")
	}
	return t.UnixMilli(), nil
}

// Source generates events; one split per generator.
type Source struct {
	c         Config
	cols      []columnSpec
	keepAlive bool
	table     string
}

// Bounded reports whether events.num is set.
func (s *Source) Bounded() bool { return s.c.NumEvents > 0 && !s.keepAlive }

// ChangelogMode is insert-only.
func (s *Source) ChangelogMode() types.ChangelogMode { return types.InsertOnlyMode }

// Split is generator Index of Count.
type Split struct{ Index, Count int }

func (s Split) String() string { return fmt.Sprintf("nexmark-%d-of-%d", s.Index+1, s.Count) }

// Splits returns one split per generator.
func (s *Source) Splits(context.Context) ([]connector.Split, error) {
	out := make([]connector.Split, s.c.Generators)
	for i := range out {
		out[i] = Split{Index: i, Count: s.c.Generators}
	}
	return out, nil
}

// Open starts one generator.
func (s *Source) Open(ctx context.Context, split connector.Split, spec connector.ReadSpec) (connector.Reader, error) {
	r, err := s.open(split, spec, s.c)
	if err != nil {
		return nil, err
	}
	return r, nil
}

// open starts one generator of configuration c (the source's, or a
// checkpoint's base time).
func (s *Source) open(split connector.Split, spec connector.ReadSpec, c Config) (*Reader, error) {
	sp, ok := split.(Split)
	if !ok {
		return nil, fmt.Errorf("nexmark: unexpected split %T", split)
	}
	if len(spec.Metadata) > 0 {
		return nil, fmt.Errorf("table %s: the nexmark connector has no metadata columns", s.table)
	}
	want := spec.Columns
	if want == nil {
		for i := range s.cols {
			want = append(want, i)
		}
	}
	r := &Reader{split: sp, gen: NewGenerator(c, sp.Index), keepAlive: s.keepAlive, pace: !c.MaxEmitSpeed, limit: spec.Limit}
	for _, c := range want {
		r.cols = append(r.cols, newColumnWriter(s.cols[c]))
	}
	return r, nil
}

// Reader generates batches of one generator.
type Reader struct {
	split     Split
	gen       *Generator
	cols      []columnWriter
	keepAlive bool
	pace      bool
	limit     int64
	start     time.Time
	ev        Event
	emitted   int64
}

// Next generates the next batch of up to BatchRows events.
func (r *Reader) Next(ctx context.Context) (*types.Batch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if !r.gen.HasNext() || (r.limit > 0 && r.emitted >= r.limit) {
		if r.keepAlive {
			<-ctx.Done()
			return nil, ctx.Err()
		}
		return nil, io.EOF
	}
	n := BatchRows
	if left := r.gen.maxEvents - r.gen.count; left < int64(n) {
		n = int(left)
	}
	if r.limit > 0 && r.limit-r.emitted < int64(n) {
		n = int(r.limit - r.emitted)
	}
	if r.pace {
		// emit an event when the wall clock reaches its event time
		// (relative to the first event), at most ~10 ms of events a batch
		if r.start.IsZero() {
			// The next event is due now (a resumed generator's next event
			// is not the first of its timeline).
			r.start = time.Now().Add(-time.Duration(r.gen.NextTimestamp()-r.gen.c.BaseTime) * time.Millisecond)
		}
		first := r.gen.NextTimestamp() - r.gen.c.BaseTime
		due := r.start.Add(time.Duration(first) * time.Millisecond)
		if wait := time.Until(due); wait > 0 {
			t := time.NewTimer(wait)
			select {
			case <-t.C:
			case <-ctx.Done():
				t.Stop()
				return nil, ctx.Err()
			}
		}
		per := int(float64(r.gen.c.FirstEventRate)/100) + 1
		n = min(n, per)
	}
	for _, c := range r.cols {
		c.reset(n)
	}
	for i := 0; i < n; i++ {
		r.gen.Next(&r.ev)
		for _, c := range r.cols {
			c.add(&r.ev)
		}
	}
	r.emitted += int64(n)
	out := make([]arrow.Array, len(r.cols))
	for i, c := range r.cols {
		out[i] = c.build()
	}
	return types.NewBatch(out, nil, n), nil
}

// Close implements connector.Reader.
func (r *Reader) Close() error { return nil }

// ---------------------------------------------------------------- columns

// field ids of the event model
const (
	fEventType = iota
	fPersonID
	fPersonName
	fPersonEmail
	fPersonCreditCard
	fPersonCity
	fPersonState
	fPersonDateTime
	fPersonExtra
	fAuctionID
	fAuctionItemName
	fAuctionDescription
	fAuctionInitialBid
	fAuctionReserve
	fAuctionDateTime
	fAuctionExpires
	fAuctionSeller
	fAuctionCategory
	fAuctionExtra
	fBidAuction
	fBidBidder
	fBidPrice
	fBidChannel
	fBidURL
	fBidDateTime
	fBidExtra
)

var structFields = map[string]map[string]int{
	"person": {"id": fPersonID, "name": fPersonName, "emailaddress": fPersonEmail, "creditcard": fPersonCreditCard,
		"city": fPersonCity, "state": fPersonState, "datetime": fPersonDateTime, "extra": fPersonExtra},
	"auction": {"id": fAuctionID, "itemname": fAuctionItemName, "description": fAuctionDescription, "initialbid": fAuctionInitialBid,
		"reserve": fAuctionReserve, "datetime": fAuctionDateTime, "expires": fAuctionExpires, "seller": fAuctionSeller,
		"category": fAuctionCategory, "extra": fAuctionExtra},
	"bid": {"auction": fBidAuction, "bidder": fBidBidder, "price": fBidPrice, "channel": fBidChannel, "url": fBidURL,
		"datetime": fBidDateTime, "extra": fBidExtra},
}

var structType = map[string]int32{"person": PersonEvent, "auction": AuctionEvent, "bid": BidEvent}

// columnSpec is a declared column bound to the event model.
type columnSpec struct {
	t        *types.DataType
	field    int          // scalar column (event_type)
	event    int32        // ROW columns: the event type filling it
	children []columnSpec // ROW columns
}

func bindColumns(ctx *connector.Context) ([]columnSpec, error) {
	var out []columnSpec
	for _, col := range ctx.Schema.Physical() {
		name := strings.ToLower(col.Name)
		if name == "event_type" {
			if !col.Type.IsIntegral() {
				return nil, fmt.Errorf("table %s: nexmark column event_type must be INT, got %s", ctx.Table, col.Type)
			}
			out = append(out, columnSpec{t: col.Type, field: fEventType})
			continue
		}
		fields, ok := structFields[name]
		if !ok || col.Type.Root != types.RowRoot {
			return nil, fmt.Errorf("table %s: unknown nexmark column %s %s (expected event_type INT, person ROW<...>, auction ROW<...>, bid ROW<...>)", ctx.Table, col.Name, col.Type)
		}
		cs := columnSpec{t: col.Type, field: -1, event: structType[name]}
		for _, f := range col.Type.Fields {
			id, ok := fields[strings.ToLower(f.Name)]
			if !ok {
				return nil, fmt.Errorf("table %s: unknown field %s of nexmark column %s", ctx.Table, f.Name, col.Name)
			}
			if err := checkFieldType(id, f.Type); err != nil {
				return nil, fmt.Errorf("table %s: field %s.%s: %v", ctx.Table, col.Name, f.Name, err)
			}
			cs.children = append(cs.children, columnSpec{t: f.Type, field: id})
		}
		out = append(out, cs)
	}
	return out, nil
}

func checkFieldType(id int, t *types.DataType) error {
	switch id {
	case fPersonName, fPersonEmail, fPersonCreditCard, fPersonCity, fPersonState, fPersonExtra,
		fAuctionItemName, fAuctionDescription, fAuctionExtra, fBidChannel, fBidURL, fBidExtra:
		if !t.IsString() {
			return fmt.Errorf("expected a string type, got %s", t)
		}
	case fPersonDateTime, fAuctionDateTime, fAuctionExpires, fBidDateTime:
		if !t.IsTimestamp() {
			return fmt.Errorf("expected TIMESTAMP(3), got %s", t)
		}
	default:
		if t.Root != types.BigInt {
			return fmt.Errorf("expected BIGINT, got %s", t)
		}
	}
	return nil
}

// columnWriter accumulates one output column of a batch.
type columnWriter interface {
	reset(n int)
	add(e *Event)
	build() arrow.Array
}

func newColumnWriter(c columnSpec) columnWriter {
	if c.field == fEventType {
		return &eventTypeWriter{t: c.t}
	}
	if c.children != nil || c.t.Root == types.RowRoot {
		w := &structWriter{t: c.t, event: c.event}
		for _, ch := range c.children {
			w.children = append(w.children, newFieldWriter(ch))
		}
		return w
	}
	return topField{newFieldWriter(c)}
}

// topField adapts a field writer as a top-level column (never NULL).
type topField struct{ f fieldWriter }

func (t topField) reset(n int)        { t.f.reset(n) }
func (t topField) add(e *Event)       { t.f.addField(e, true) }
func (t topField) build() arrow.Array { return t.f.build(nil) }

type eventTypeWriter struct {
	t    *types.DataType
	vals []int32
}

func (w *eventTypeWriter) reset(n int)  { w.vals = make([]int32, 0, n) }
func (w *eventTypeWriter) add(e *Event) { w.vals = append(w.vals, e.Type) }
func (w *eventTypeWriter) build() arrow.Array {
	switch w.t.Root {
	case types.BigInt:
		v := make([]int64, len(w.vals))
		for i, x := range w.vals {
			v[i] = int64(x)
		}
		return vector.FromValues(arrow.PrimitiveTypes.Int64, v, nil, 0)
	case types.SmallInt:
		v := make([]int16, len(w.vals))
		for i, x := range w.vals {
			v[i] = int16(x)
		}
		return vector.FromValues(arrow.PrimitiveTypes.Int16, v, nil, 0)
	case types.TinyInt:
		v := make([]int8, len(w.vals))
		for i, x := range w.vals {
			v[i] = int8(x)
		}
		return vector.FromValues(arrow.PrimitiveTypes.Int8, v, nil, 0)
	}
	return vector.FromValues(arrow.PrimitiveTypes.Int32, w.vals, nil, 0)
}

// fieldWriter writes a nested field; set tells whether the event is of
// the struct's type (else a placeholder is written: the struct is NULL).
type fieldWriter interface {
	reset(n int)
	addField(e *Event, set bool)
	build(valid []byte) arrow.Array
}

type structWriter struct {
	t        *types.DataType
	event    int32
	children []fieldWriter
	valid    []byte
	n        int
	nulls    int
}

func (w *structWriter) reset(n int) {
	w.valid = make([]byte, (n+7)/8)
	w.n, w.nulls = 0, 0
	for _, c := range w.children {
		c.reset(n)
	}
}

func (w *structWriter) add(e *Event) {
	set := e.Type == w.event
	if set {
		vector.SetBit(w.valid, w.n)
	} else {
		w.nulls++
	}
	w.n++
	for _, c := range w.children {
		c.addField(e, set)
	}
}

func (w *structWriter) build() arrow.Array {
	st := types.ToArrow(w.t).(*arrow.StructType)
	children := make([]arrow.ArrayData, len(w.children))
	for i, c := range w.children {
		children[i] = c.build(w.valid).Data()
	}
	return structArray(st, w.n, w.valid, w.nulls, children)
}

func newFieldWriter(c columnSpec) fieldWriter {
	switch c.field {
	case fPersonName, fPersonEmail, fPersonCreditCard, fPersonCity, fPersonState, fPersonExtra,
		fAuctionItemName, fAuctionDescription, fAuctionExtra, fBidChannel, fBidURL, fBidExtra:
		return &stringField{id: c.field}
	case fPersonDateTime, fAuctionDateTime, fAuctionExpires, fBidDateTime:
		unit := types.TimestampUnit(c.t.Precision)
		return &int64Field{id: c.field, dt: types.ToArrow(c.t), scale: types.UnitsPerSecond(unit) / 1000}
	}
	return &int64Field{id: c.field, dt: arrow.PrimitiveTypes.Int64, scale: 1}
}

type int64Field struct {
	id    int
	dt    arrow.DataType
	scale int64
	vals  []int64
}

func (f *int64Field) reset(n int) { f.vals = make([]int64, 0, n) }

func (f *int64Field) addField(e *Event, set bool) {
	if !set {
		f.vals = append(f.vals, 0)
		return
	}
	var v int64
	switch f.id {
	case fPersonID:
		v = e.Person.ID
	case fPersonDateTime:
		v = e.Person.DateTime
	case fAuctionID:
		v = e.Auction.ID
	case fAuctionInitialBid:
		v = e.Auction.InitialBid
	case fAuctionReserve:
		v = e.Auction.Reserve
	case fAuctionDateTime:
		v = e.Auction.DateTime
	case fAuctionExpires:
		v = e.Auction.Expires
	case fAuctionSeller:
		v = e.Auction.Seller
	case fAuctionCategory:
		v = e.Auction.Category
	case fBidAuction:
		v = e.Bid.Auction
	case fBidBidder:
		v = e.Bid.Bidder
	case fBidPrice:
		v = e.Bid.Price
	case fBidDateTime:
		v = e.Bid.DateTime
	}
	if f.scale > 1 {
		v *= f.scale
	}
	f.vals = append(f.vals, v)
}

func (f *int64Field) build(valid []byte) arrow.Array {
	return vector.FromValues(f.dt, f.vals, valid, -1)
}

type stringField struct {
	id   int
	offs []int32
	data []byte
	// perRow is the bytes per row of the previous batch, to size the
	// next batch's buffer without regrowing it
	perRow int
}

func (f *stringField) reset(n int) {
	if rows := len(f.offs) - 1; rows > 0 {
		f.perRow = len(f.data)/rows + 1
	}
	f.offs = make([]int32, 1, n+1)
	f.data = make([]byte, 0, n*max(f.perRow+f.perRow/8, 16))
}

func (f *stringField) addField(e *Event, set bool) {
	if set {
		switch f.id {
		case fPersonName:
			f.data = append(f.data, e.Person.Name...)
		case fPersonEmail:
			f.data = append(f.data, e.Person.Email...)
		case fPersonCreditCard:
			f.data = append(f.data, e.Person.CreditCard...)
		case fPersonCity:
			f.data = append(f.data, e.Person.City...)
		case fPersonState:
			f.data = append(f.data, e.Person.State...)
		case fPersonExtra:
			f.data = append(f.data, e.Person.Extra...)
		case fAuctionItemName:
			f.data = append(f.data, e.Auction.ItemName...)
		case fAuctionDescription:
			f.data = append(f.data, e.Auction.Description...)
		case fAuctionExtra:
			f.data = append(f.data, e.Auction.Extra...)
		case fBidChannel:
			f.data = append(f.data, e.Bid.Channel...)
		case fBidURL:
			f.data = append(f.data, e.Bid.URL...)
		case fBidExtra:
			f.data = append(f.data, e.Bid.Extra...)
		}
	}
	f.offs = append(f.offs, int32(len(f.data)))
}

func (f *stringField) build(valid []byte) arrow.Array {
	return vector.StringsFrom(f.offs, f.data, valid, false)
}

// structArray assembles a Struct array from its children.
func structArray(st *arrow.StructType, n int, valid []byte, nulls int, children []arrow.ArrayData) arrow.Array {
	var vb *memory.Buffer
	if nulls > 0 {
		vb = memory.NewBufferBytes(valid)
	}
	data := array.NewData(st, n, []*memory.Buffer{vb}, children, nulls, 0)
	return array.MakeFromData(data)
}
