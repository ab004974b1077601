package gateway

import (
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"

	jsonformat "github.com/riffle-sql/riffle/engine/connector/format/json"
	"github.com/riffle-sql/riffle/engine/types"
)

func TestAppendJSONStringMatchesEncodingJSON(t *testing.T) {
	for _, s := range []string{"", "plain", `q"uote`, `back\slash`, "tab\tnl\ncr\r", "\x00\x01\x1f", "\b\f", "ünïcödé ✓ 😀", "\u2028", "a/b<c>&"} {
		raw := jsonformat.AppendString(nil, s)
		var back string
		if err := json.Unmarshal(raw, &back); err != nil || back != s {
			t.Errorf("%q -> %s -> %q (%v)", s, raw, back, err)
		}
		r := &jreader{data: raw}
		if got := r.str(); got != s || r.err != nil {
			t.Errorf("jreader %s -> %q (%v)", raw, got, r.err)
		}
	}
	if got := string(jsonformat.AppendString(nil, "a\xffb")); got != `"a\ufffdb"` {
		t.Errorf("invalid UTF-8: %s", got)
	}
	if got := string(jsonformat.AppendString(nil, "\x01")); got != `"\u0001"` {
		t.Errorf("control character: %s", got)
	}
}

func TestJReaderEscapes(t *testing.T) {
	r := &jreader{data: []byte(`"a\u00e9\ud83d\ude00\/\"\\\n"`)}
	if got := r.str(); got != "aé😀/\"\\\n" || r.err != nil {
		t.Errorf("%q %v", got, r.err)
	}
	for _, bad := range []string{`"abc`, `"\q"`, `{"a" 1}`, `[1,`, `tru`} {
		r := &jreader{data: []byte(bad)}
		r.skip()
		if r.err == nil && r.pos == len(bad) {
			t.Errorf("%s accepted", bad)
		}
	}
}

func TestCivilDates(t *testing.T) {
	for days := int64(-1_000_000); days <= 3_000_000; days += 997 {
		want := time.Unix(days*86400, 0).UTC()
		y, m, d := civil(days)
		if y != int64(want.Year()) || m != int(want.Month()) || d != want.Day() {
			t.Fatalf("day %d: %d-%d-%d, want %s", days, y, m, d, want.Format("2006-01-02"))
		}
	}
	cases := map[int64]string{0: "1970-01-01", -1: "1969-12-31", 19782: "2024-02-29", -719528: "0000-01-01", 2932897: "+10000-01-01", -719529: "-0001-12-31"}
	for days, want := range cases {
		if got := string(appendISODate(nil, days)); got != want {
			t.Errorf("day %d: %s, want %s", days, got, want)
		}
	}
}

func TestTimestampTexts(t *testing.T) {
	ts := func(s string) int64 {
		v, err := time.Parse("2006-01-02 15:04:05.999999999", s)
		if err != nil {
			t.Fatal(err)
		}
		return v.UnixNano()
	}
	cases := []struct {
		in, iso string
	}{
		{"2024-01-02 03:04:05.123", "2024-01-02T03:04:05.123"},
		{"2024-01-02 03:04:05.1", "2024-01-02T03:04:05.1"},
		{"2024-01-02 03:04:05.000123", "2024-01-02T03:04:05.000123"},
		{"2024-01-02 03:04:05.000000001", "2024-01-02T03:04:05.000000001"},
		{"2024-01-02 03:04:00", "2024-01-02T03:04:00"},
		{"2024-01-02 03:04:05", "2024-01-02T03:04:05"},
		{"1969-12-31 23:59:59.5", "1969-12-31T23:59:59.5"},
	}
	for _, c := range cases {
		n := ts(c.in)
		if got := string(appendISOTimestamp(nil, n, 1e9)); got != c.iso {
			t.Errorf("%s: ISO %s, want %s", c.in, got, c.iso)
		}
		back, ok := parseISOTimestamp(c.iso)
		if !ok || back.UnixNano() != n {
			t.Errorf("%s: parsed back %v %v", c.iso, back, ok)
		}
	}
	// milliseconds and microseconds units
	if got := string(appendISOTimestamp(nil, -1, 1000)); got != "1969-12-31T23:59:59.999" {
		t.Errorf("-1 ms: %s", got)
	}
	if got := string(appendTimeOfDay(nil, 12*3600e9+34*60e9+56e9+789e6)); got != "12:34:56.789" {
		t.Errorf("time %s", got)
	}
}

func TestJSONValueForms(t *testing.T) {
	cases := []struct {
		v    any
		t    *types.DataType
		json string
	}{
		{true, types.BooleanType(), `true`},
		{int8(-3), types.TinyIntType(), `-3`},
		{int64(1) << 60, types.BigIntType(), `1152921504606846976`},
		{float32(1.1), types.FloatType(), `1.1`},
		{1e21, types.DoubleType(), `1.0E21`},
		{math.NaN(), types.DoubleType(), `"NaN"`},
		{math.Inf(-1), types.DoubleType(), `"-Infinity"`},
		{types.MustDecimal("-0.50"), types.DecimalType(3, 2), `-0.50`},
		{[]byte{0xca, 0xfe}, types.BytesType(), `"yv4="`},
		{types.Date(19782), types.DateType(), `"2024-02-29"`},
		{types.Months(14), types.IntervalYearMonthType(types.ResYearToMonth, 2), `14`},
		{36 * time.Hour, types.IntervalDayTimeType(types.ResDayToSecond, 2, 3), `129600000`},
		{time.Date(2024, 5, 6, 7, 8, 9, 500e6, time.UTC), types.TimestampLTZType(3), `"2024-05-06T07:08:09.5Z"`},
		{[]any{int32(1), nil}, types.ArrayType(types.IntType()), `[1,null]`},
		{&types.Map{Keys: []any{"k", nil}, Values: []any{int32(1), int32(2)}}, types.MapType(types.StringType(), types.IntType()), `{"k":1,"null":2}`},
		{&types.Map{Keys: []any{"x"}, Values: []any{int32(3)}}, types.MultisetType(types.StringType()), `{"x":3}`},
		{&types.Row{Values: []any{int32(1), "a"}}, types.RowType(types.NewField("i", types.IntType()), types.NewField("s", types.StringType())), `{"i":1,"s":"a"}`},
	}
	for _, c := range cases {
		got := string(jsonformat.AppendGoValue(nil, c.v, c.t, true))
		if got != c.json {
			t.Errorf("%v %s: %s, want %s", c.v, c.t, got, c.json)
			continue
		}
		back := decodeValue(&jreader{data: []byte(got)}, c.t)
		if f, ok := c.v.(float64); ok && math.IsNaN(f) {
			if b, ok := back.(float64); !ok || !math.IsNaN(b) {
				t.Errorf("NaN decodes to %v", back)
			}
			continue
		}
		if types.FormatValue(back) != types.FormatValue(c.v) {
			t.Errorf("%s decodes to %#v, want %#v", got, back, c.v)
		}
	}
	// what a Flink server may send
	flink := []struct {
		json string
		t    *types.DataType
		want string
	}{
		{`1E+2`, types.DecimalType(5, 2), "100.00"},
		{`1.5`, types.DecimalType(5, 2), "1.50"},
		{`"Infinity"`, types.FloatType(), "Infinity"},
		{`"12:34:56"`, types.TimeType(0), "12:34:56"},
		{`"2024-01-02T03:04:05"`, types.TimestampType(0), "2024-01-02T03:04:05"},
	}
	for _, c := range flink {
		r := &jreader{data: []byte(c.json)}
		v := decodeValue(r, c.t)
		if r.err != nil {
			t.Errorf("%s: %v", c.json, r.err)
			continue
		}
		got := types.FormatValue(v)
		if d, ok := v.(types.Decimal); ok {
			got = d.String()
		}
		if !strings.Contains(got, c.want) {
			t.Errorf("%s as %s: %s, want %s", c.json, c.t, got, c.want)
		}
	}
}

func TestRootCause(t *testing.T) {
	flink := "<Exception on server side:\norg.apache.flink.table.gateway.api.utils.SqlGatewayException: Failed to fetchResults.\n" +
		"\tat org.apache.flink.table.gateway.rest.handler.statement.FetchResultsHandler.handleRequest(FetchResultsHandler.java:91)\n" +
		"Caused by: org.apache.flink.table.api.ValidationException: SQL validation failed. From line 1, column 8 to line 1, column 8: Column 'x' not found\n" +
		"\tat org.apache.flink.table.planner.calcite.FlinkPlannerImpl.validate(FlinkPlannerImpl.scala:200)\n\t... 12 more\n\nEnd of exception on server side>"
	if got := RootCause(flink); got != "SQL validation failed. From line 1, column 8 to line 1, column 8: Column 'x' not found" {
		t.Errorf("root cause %q", got)
	}
	if got := RootCause("Not found: /x"); got != "Not found: /x" {
		t.Errorf("plain %q", got)
	}
	e := &Error{StatusCode: 401}
	if e.Error() != "Unauthorized" || e.Positioned() {
		t.Errorf("empty error %q", e.Error())
	}
}

func TestIsLoopbackAndCheckBind(t *testing.T) {
	cases := map[string]bool{"127.0.0.1:8083": true, "127.1.2.3:1": true, "localhost:8083": true, "[::1]:8083": true,
		"0.0.0.0:8083": false, ":8083": false, "192.168.1.5:8083": false, "[::]:8083": false, "example.com:80": false}
	for addr, want := range cases {
		if got := IsLoopback(addr); got != want {
			t.Errorf("IsLoopback(%s) = %v", addr, got)
		}
		err := CheckBind(addr, Config{})
		if (err == nil) != want {
			t.Errorf("CheckBind(%s, no token) = %v", addr, err)
		}
		tok := strings.Repeat("t", MinTokenLength)
		err = CheckBind(addr, Config{Token: tok})
		if (err == nil) != want || (!want && !errors.Is(err, ErrTLSRequired)) {
			t.Errorf("CheckBind(%s, token, no TLS) = %v", addr, err)
		}
		if err := CheckBind(addr, Config{Token: tok, Insecure: true}); err != nil {
			t.Errorf("CheckBind(%s, token, insecure) = %v", addr, err)
		}
		if err := CheckBind(addr, Config{Token: tok, TLSCertFile: "c.pem", TLSKeyFile: "k.pem"}); err != nil {
			t.Errorf("CheckBind(%s, token, TLS) = %v", addr, err)
		}
		if err := CheckBind(addr, Config{Token: "t", Insecure: true}); err == nil || !strings.Contains(err.Error(), "needs at least 16") {
			t.Errorf("CheckBind(%s, one-character token) = %v", addr, err)
		}
	}
	if err := ListenAndServe(t.Context(), "0.0.0.0:0", Config{}, nil); err == nil || !strings.Contains(err.Error(), "requires a bearer token") {
		t.Errorf("ListenAndServe without token: %v", err)
	}
}

func TestUnauthorizedGetsNothingElse(t *testing.T) {
	g := newTestGateway(t, Config{Token: "right"})
	for _, h := range [][]string{nil, {"Authorization", "Bearer wrong"}, {"Authorization", "Basic cmlnaHQ="}, {"Authorization", "Bearer "}, {"Authorization", "Bearer rightt"}} {
		for _, p := range []string{"/v2/sessions", "/v2/info", "/v2/nowhere"} {
			status, raw := g.call(t, "POST", p, nil, h...)
			if status != http.StatusUnauthorized || string(raw) != `{"errors":["Unauthorized."]}` {
				t.Errorf("%v %s: %d %s", h, p, status, raw)
			}
		}
	}
	if n := g.srv.SessionCount(); n != 0 {
		t.Errorf("unauthorised requests opened %d sessions", n)
	}
	for _, scheme := range []string{"Bearer", "bearer"} {
		status, raw := g.call(t, "POST", "/v2/sessions", nil, "Authorization", scheme+" right")
		if status != http.StatusOK {
			t.Errorf("%s right: %d %s", scheme, status, raw)
		}
	}
}

func FuzzDecodeFetchResults(f *testing.F) {
	f.Add([]byte(`{"resultType":"PAYLOAD","isQueryResult":true,"jobID":"0123456789abcdef0123456789abcdef","resultKind":"SUCCESS_WITH_CONTENT","results":{"columns":[{"name":"a","logicalType":{"type":"INTEGER","nullable":true},"comment":null},{"name":"t","logicalType":{"type":"TIMESTAMP_WITHOUT_TIME_ZONE","nullable":true,"precision":3}}],"rowFormat":"JSON","data":[{"kind":"INSERT","fields":[1,"2024-01-02T03:04:05.123"]},{"kind":"DELETE","fields":[null,null]}]},"nextResultUri":"/v2/sessions/x/operations/y/result/1?rowFormat=JSON"}`))
	f.Add([]byte(`{"resultType":"NOT_READY","nextResultUri":"/v2/x"}`))
	f.Add([]byte(`{"results":{"data":[{"fields":[[1,2],{"k":"v"}],"kind":"UPDATE_AFTER"}],"columns":[{"name":"a","logicalType":{"type":"ARRAY","nullable":true,"elementType":{"type":"INTEGER","nullable":true}}},{"name":"m","logicalType":{"type":"MAP","nullable":true,"keyType":{"type":"VARCHAR","nullable":true,"length":3},"valueType":{"type":"VARCHAR","nullable":true,"length":3}}}]},"resultType":"EOS"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = DecodeFetchResults(data) // must not panic
	})
}

// TestForeignHostWithoutToken: a server without a token answers only
// requests addressed to a loopback host (no DNS rebinding from a web page).
func TestForeignHostWithoutToken(t *testing.T) {
	for _, token := range []string{"", "tok"} {
		g := newTestGateway(t, Config{Token: token})
		for host, want := range map[string]int{"evil.example.com": http.StatusForbidden, "evil.example.com:8083": http.StatusForbidden,
			"localhost:8083": http.StatusOK, "127.0.0.1": http.StatusOK, "[::1]:1": http.StatusOK} {
			req, _ := http.NewRequest("GET", g.url+"/v2/info", nil)
			req.Host = host
			if token != "" {
				req.Header.Set("Authorization", "Bearer tok")
				want = http.StatusOK // a token is the check; the host does not matter
			}
			resp, err := g.hc.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != want {
				t.Errorf("token %q, Host %s: %d, want %d", token, host, resp.StatusCode, want)
			}
		}
	}
}
