package common

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/config"
	"github.com/riffle-sql/riffle/engine/types"
)

func TestJSONRowSchemas(t *testing.T) {
	ti := TypeRowNamed([]string{"id", "name", "tags"}, []*TypeInformation{TypeLong(), TypeString(), TypeList(TypeString())})
	ser, err := NewJsonRowSerializationSchemaBuilder().WithTypeInfo(ti).Build()
	if err != nil {
		t.Fatal(err)
	}
	b, err := ser.Serialize(types.NewRow(int64(7), "a\"b", []any{"x", nil}))
	if err != nil || string(b) != `{"id":7,"name":"a\"b","tags":["x",null]}` {
		t.Fatalf("%s %v", b, err)
	}
	de, _ := NewJsonRowDeserializationSchemaBuilder().TypeInfo(ti).Build()
	v, err := de.Deserialize(b)
	if err != nil || v.(*types.Row).String() != "+I[7, a\"b, [x, null]]" {
		t.Fatalf("%v %v", v, err)
	}
	v, _ = de.Deserialize([]byte(`{"id": 1}`))
	if v.(*types.Row).Values[1] != nil {
		t.Fatal("a missing field is null")
	}
	strict, _ := NewJsonRowDeserializationSchemaBuilder().TypeInfo(ti).FailOnMissingField().Build()
	if _, err := strict.Deserialize([]byte(`{"id": 1}`)); err == nil {
		t.Fatal("a missing field must fail")
	}
	lenient, _ := NewJsonRowDeserializationSchemaBuilder().TypeInfo(ti).IgnoreParseErrors().Build()
	if v, err := lenient.Deserialize([]byte(`{"id": "x"`)); v != nil || err != nil {
		t.Fatal("a bad record is skipped")
	}
	fromSchema, err := NewJsonRowDeserializationSchemaBuilder().JSONSchema(`{"type":"object","properties":{"b":{"type":"boolean"},"n":{"type":"integer"}}}`).Build()
	if err != nil || fromSchema.ProducedType().DataType().String() != "ROW<`b` BOOLEAN, `n` BIGINT> NOT NULL" {
		t.Fatalf("%v %v", fromSchema.ProducedType(), err)
	}
}

func TestCSVRowSchemas(t *testing.T) {
	ti := TypeRowNamed([]string{"id", "name", "vals"}, []*TypeInformation{TypeInt(), TypeString(), TypeList(TypeInt())})
	ser, _ := NewCsvRowSerializationSchemaBuilder(ti).SetFieldDelimiter('|').SetNullLiteral("N/A").Build()
	b, _ := ser.Serialize(types.NewRow(int32(1), "a|b", []any{int32(1), int32(2)}))
	if string(b) != "1|\"a|b\"|1;2\n" {
		t.Fatalf("%q", b)
	}
	b, _ = ser.Serialize(types.NewRow(int32(2), nil, nil))
	if string(b) != "2|N/A|N/A\n" {
		t.Fatalf("%q", b)
	}
	de, _ := NewCsvRowDeserializationSchemaBuilder(ti).SetFieldDelimiter('|').SetNullLiteral("N/A").SetAllowComments(true).Build()
	v, err := de.Deserialize([]byte("1|\"a|b\"|1;2\n"))
	if err != nil || v.(*types.Row).String() != "+I[1, a|b, [1, 2]]" {
		t.Fatalf("%v %v", v, err)
	}
	if v, _ := de.Deserialize([]byte("# comment")); v != nil {
		t.Fatal("comments are skipped")
	}
	if _, err := de.Deserialize([]byte("x|y|1")); err == nil {
		t.Fatal("a bad int must fail")
	}
}

func TestRestartStrategiesAndExecutionConfig(t *testing.T) {
	c := config.New()
	e := NewExecutionConfig(c)
	e.SetRestartStrategy(RestartStrategiesFailureRateRestart(3, 5*time.Minute, 10*time.Second))
	rs, err := RestartStrategyFromConfiguration(c)
	if err != nil {
		t.Fatal(err)
	}
	fr := rs.(*FailureRateRestartStrategyConfiguration)
	if fr.MaxFailureRate() != 3 || fr.FailureInterval() != 5*time.Minute || fr.Delay() != 10*time.Second {
		t.Fatalf("%+v", fr)
	}
	if c.GetString("restart-strategy.failure-rate.failure-rate-interval", "") != "5 min" {
		t.Fatal(c.ToMap())
	}
	e.SetRestartStrategy(RestartStrategiesNoRestart())
	if rs, _ := RestartStrategyFromConfiguration(c); rs.Description() != "Restart deactivated." {
		t.Fatal(rs.Description())
	}
	e.SetRestartStrategy(RestartStrategiesFallBackRestart())
	if c.ContainsKey("restart-strategy") {
		t.Fatal("fallback removes the keys")
	}
	if _, err := e.SetParallelism(0); err == nil {
		t.Fatal("parallelism 0 must fail")
	}
	_, _ = e.SetParallelism(4)
	if e.Parallelism() != 4 || c.GetString("parallelism.default", "") != "4" {
		t.Fatal("parallelism")
	}
	_, _ = e.SetParallelism(ParallelismDefault)
	if e.Parallelism() != ParallelismDefault {
		t.Fatal("reset parallelism")
	}
	e.SetAutoWatermarkInterval(500)
	if e.AutoWatermarkInterval() != 500 || c.GetString("pipeline.auto-watermark-interval", "") != "500 ms" {
		t.Fatal("watermark interval")
	}
	e.SetGlobalJobParameters(map[string]string{"a:b": "c,d", "k": "v"})
	if p := e.GlobalJobParameters(); p["a:b"] != "c,d" || p["k"] != "v" {
		t.Fatalf("%v %s", p, c.GetString("pipeline.global-job-parameters", ""))
	}
	if !e.EnableObjectReuse().IsObjectReuseEnabled() || e.DisableObjectReuse().IsObjectReuseEnabled() {
		t.Fatal("object reuse")
	}
}

func TestFutureTimeAndTypes(t *testing.T) {
	f := Go(func() (int, error) { return 42, nil }, nil)
	v, err := f.Result(context.Background())
	if v != 42 || err != nil || !f.Done() || f.Cancelled() {
		t.Fatal("future result")
	}
	cancelled := false
	g := NewCompletableFuture[int](func() { cancelled = true })
	if !g.Cancel() || !g.Cancelled() || !cancelled || g.Complete(1) || !errors.Is(g.Exception(), ErrFutureCanceled) {
		t.Fatal("cancel")
	}
	if InstantOfEpochMilli(-1).ToEpochMilli() != -1 || InstantOfEpochMilli(1500).String() != "1970-01-01T00:00:01.5Z" {
		t.Fatal("instant")
	}
	if TimeMinutes(2).ToMilliseconds() != 120000 || DurationOfDays(1) != 24*time.Hour {
		t.Fatal("time")
	}
	if _, err := TypeInt().ToInternalType(nil); err == nil {
		t.Fatal("INT does not accept null")
	}
	if v, err := TypeString().ToInternalType(nil); v != nil || err != nil {
		t.Fatal("STRING accepts null")
	}
	if !strings.HasPrefix(TypeRowNamed([]string{"a"}, []*TypeInformation{TypeInt()}).String(), "Row(a: Integer)") {
		t.Fatal("row type name")
	}
	if _, err := ParseJobID("xyz"); err == nil {
		t.Fatal("job id")
	}
}

// PyFlink's get_restart_strategy().get_description() ports one-to-one:
// GetDescription is callable on the RestartStrategyConfiguration that
// GetRestartStrategy returns, and says what Description says.
func TestRestartStrategyGetDescriptionThroughInterface(t *testing.T) {
	e := NewExecutionConfig(config.New())
	for _, s := range []RestartStrategyConfiguration{
		RestartStrategiesFixedDelayRestart(10, time.Second),
		RestartStrategiesFailureRateRestart(3, 5*time.Minute, 10*time.Second),
		RestartStrategiesNoRestart(),
		RestartStrategiesFallBackRestart(),
	} {
		e.SetRestartStrategy(s)
		got := e.GetRestartStrategy().GetDescription()
		if got == "" || got != s.Description() || got != e.GetRestartStrategy().Description() {
			t.Errorf("%T: GetDescription %q, Description %q", s, got, s.Description())
		}
	}
	e.SetRestartStrategy(RestartStrategiesFixedDelayRestart(10, time.Second))
	if got, want := e.GetRestartStrategy().GetDescription(), "Restart with fixed delay (1s). #10 restart attempts."; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
