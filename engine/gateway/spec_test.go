package gateway

import (
	"encoding/json"
	"net/http"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/types"
)

// Facts from Flink's published OpenAPI specifications of the SQL Gateway,
// apache/flink docs/static/generated/rest_v1_sql_gateway.yml and
// rest_v2_sql_gateway.yml, written down as Go tables. The tests below
// check Riffle's answers against them field by field.
//
// Where the generated OpenAPI and the wire differ, the wire wins, because
// Flink's custom serializers write the JSON: FetchResultsResponseBody's
// "queryResult" property is written "isQueryResult"
// (FetchResultsResponseBodySerializer), ResultInfo's "columnInfos" is
// written "columns" and RowData's {arity, rowKind} is written {kind,
// fields} (ResultInfoSerializer); LogicalType's {typeRoot, children,
// nullable} is written by LogicalTypeJsonSerializer as {type, nullable,
// ...type-specific fields}.

// jsonKind is the JSON type of an OpenAPI property.
type jsonKind string

const (
	jString  jsonKind = "string"
	jBool    jsonKind = "boolean"
	jObject  jsonKind = "object"
	jArray   jsonKind = "array"
	jInteger jsonKind = "integer"
)

// endpointSpec is one operation of the specification.
type endpointSpec struct {
	operationID string
	method      string
	path        string // {session_handle}, {operation_handle}, {token}
	inV1        bool   // present in rest_v1_sql_gateway.yml
	inV2        bool   // present in rest_v2_sql_gateway.yml
	request     map[string]jsonKind
	response    map[string]jsonKind // nil: the 200 answer has no schema
}

var specEndpoints = []endpointSpec{
	{"getApiVersion", "GET", "/api_versions", true, true, nil, map[string]jsonKind{"versions": jArray}},
	{"getInfo", "GET", "/info", true, true, nil, map[string]jsonKind{"productName": jString, "version": jString}},
	{"openSession", "POST", "/sessions", true, true,
		map[string]jsonKind{"properties": jObject, "sessionName": jString}, map[string]jsonKind{"sessionHandle": jString}},
	{"getSessionConfig", "GET", "/sessions/{session_handle}", true, true, nil, map[string]jsonKind{"properties": jObject}},
	{"closeSession", "DELETE", "/sessions/{session_handle}", true, true, nil, map[string]jsonKind{"status": jString}},
	{"completeStatement", "GET", "/sessions/{session_handle}/complete-statement", false, true,
		map[string]jsonKind{"position": jInteger, "statement": jString}, map[string]jsonKind{"candidates": jArray}},
	{"configureSession", "POST", "/sessions/{session_handle}/configure-session", false, true,
		map[string]jsonKind{"executionTimeout": jInteger, "statement": jString}, nil},
	{"triggerSession", "POST", "/sessions/{session_handle}/heartbeat", true, true, nil, nil},
	{"cancelOperation", "POST", "/sessions/{session_handle}/operations/{operation_handle}/cancel", true, true, nil, map[string]jsonKind{"status": jString}},
	{"closeOperation", "DELETE", "/sessions/{session_handle}/operations/{operation_handle}/close", true, true, nil, map[string]jsonKind{"status": jString}},
	{"fetchResults", "GET", "/sessions/{session_handle}/operations/{operation_handle}/result/{token}", true, true, nil,
		map[string]jsonKind{"jobID": jString, "nextResultUri": jString, "isQueryResult": jBool, "resultKind": jString, "resultType": jString, "results": jObject}},
	{"getOperationStatus", "GET", "/sessions/{session_handle}/operations/{operation_handle}/status", true, true, nil, map[string]jsonKind{"status": jString}},
	{"executeStatement", "POST", "/sessions/{session_handle}/statements", true, true,
		map[string]jsonKind{"executionConfig": jObject, "executionTimeout": jInteger, "statement": jString}, map[string]jsonKind{"operationHandle": jString}},
}

// Enumerations of the specification.
var (
	specResultKinds = []string{"SUCCESS", "SUCCESS_WITH_CONTENT"}
	specResultTypes = []string{"NOT_READY", "PAYLOAD", "EOS"}
	specRowFormats  = []string{"JSON", "PLAIN_TEXT"}
	specRowKinds    = []string{"INSERT", "UPDATE_BEFORE", "UPDATE_AFTER", "DELETE"}
	specTypeRoots   = []string{"CHAR", "VARCHAR", "BOOLEAN", "BINARY", "VARBINARY", "DECIMAL", "TINYINT", "SMALLINT",
		"INTEGER", "BIGINT", "FLOAT", "DOUBLE", "DATE", "TIME_WITHOUT_TIME_ZONE", "TIMESTAMP_WITHOUT_TIME_ZONE",
		"TIMESTAMP_WITH_TIME_ZONE", "TIMESTAMP_WITH_LOCAL_TIME_ZONE", "INTERVAL_YEAR_MONTH", "INTERVAL_DAY_TIME",
		"ARRAY", "MULTISET", "MAP", "ROW", "DISTINCT_TYPE", "STRUCTURED_TYPE", "NULL", "RAW", "SYMBOL", "UNRESOLVED",
		"DESCRIPTOR", "VARIANT", "BITMAP"}
	// JobID, SessionHandle and OperationHandle formats.
	specJobID = regexp.MustCompile(`^[0-9a-f]{32}$`)
	specUUID  = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
	// Wire objects inside "results" (ResultInfoSerializer, ColumnInfo).
	wireResultInfo = map[string]jsonKind{"columns": jArray, "rowFormat": jString, "data": jArray}
	wireColumnInfo = map[string]jsonKind{"name": jString, "logicalType": jObject, "comment": jString}
	wireRowData    = map[string]jsonKind{"kind": jString, "fields": jArray}
)

// kindOf returns the JSON type of a decoded value ("" for null).
func kindOf(v any) jsonKind {
	switch x := v.(type) {
	case string:
		return jString
	case bool:
		return jBool
	case map[string]any:
		return jObject
	case []any:
		return jArray
	case float64:
		if x == float64(int64(x)) {
			return jInteger
		}
		return "number"
	}
	return ""
}

// checkObject checks that every field of m is in spec with the right JSON
// type (null allowed for optional strings) and that the required fields
// are present.
func checkObject(t *testing.T, what string, m map[string]any, spec map[string]jsonKind, required ...string) {
	t.Helper()
	for k, v := range m {
		want, ok := spec[k]
		if !ok {
			t.Errorf("%s: field %q is not in the specification (%v)", what, k, keys(spec))
			continue
		}
		if got := kindOf(v); got != want && !(got == "" && want == jString) {
			t.Errorf("%s: field %q is %s, the specification says %s", what, k, got, want)
		}
	}
	for _, k := range required {
		if _, ok := m[k]; !ok {
			t.Errorf("%s: field %q missing in %v", what, k, m)
		}
	}
}

func keys(m map[string]jsonKind) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestSpecEndpoints calls every endpoint of the specification at v1 and v2
// and checks the answers field by field; endpoints missing from a version
// are 404 there.
func TestSpecEndpoints(t *testing.T) {
	g := newTestGateway(t, Config{})
	for _, v := range []APIVersion{V1, V2} {
		prefix := "/" + v.Prefix()
		session := g.openSession(t, batchMode)
		op := g.execute(t, session, "SELECT 1 AS n")
		g.fetchUntilReady(t, session, op)
		slow := g.execute(t, session, "SELECT * FROM (VALUES (1)) AS t(a)") // kept for cancel/close
		for _, ep := range specEndpoints {
			in := ep.inV1
			if v == V2 {
				in = ep.inV2
			}
			path := strings.NewReplacer("{session_handle}", session, "{operation_handle}", op, "{token}", "0").Replace(ep.path)
			if ep.operationID == "cancelOperation" || ep.operationID == "closeOperation" {
				path = strings.ReplaceAll(ep.path, "{session_handle}", session)
				path = strings.ReplaceAll(path, "{operation_handle}", slow)
			}
			if ep.operationID == "closeSession" {
				continue // below, last
			}
			if ep.operationID == "fetchResults" && v >= V2 {
				path += "?rowFormat=JSON"
			}
			var body any
			switch ep.operationID {
			case "openSession":
				body = map[string]any{"sessionName": "s", "properties": map[string]string{"k": "v"}}
			case "completeStatement":
				body = map[string]any{"statement": "SEL", "position": 3}
			case "configureSession":
				body = map[string]any{"statement": "SET 'k2' = 'v2'", "executionTimeout": 0}
			case "executeStatement":
				body = map[string]any{"statement": "SELECT 2", "executionTimeout": 0, "executionConfig": map[string]string{}}
			}
			for _, k := range keysOfBody(body) {
				if _, ok := ep.request[k]; !ok {
					t.Errorf("%s: test sends %q, not in the specification", ep.operationID, k)
				}
			}
			status, raw := g.call(t, ep.method, prefix+path, body)
			if !in {
				if status != http.StatusNotFound {
					t.Errorf("%s %s: status %d, want 404 (not in %s)", ep.method, prefix+path, status, v)
				}
				continue
			}
			if ep.operationID == "cancelOperation" && status != http.StatusOK {
				// the statement may have finished already; Flink refuses to
				// cancel a FINISHED operation with a 500
				if status != http.StatusInternalServerError {
					t.Errorf("cancel: status %d %s", status, raw)
				}
				continue
			}
			if status != http.StatusOK {
				t.Errorf("%s %s: status %d: %s", ep.method, prefix+path, status, raw)
				continue
			}
			var m map[string]any
			if err := json.Unmarshal(raw, &m); err != nil {
				t.Errorf("%s: answer %q: %v", ep.operationID, raw, err)
				continue
			}
			if ep.response == nil {
				if len(m) != 0 {
					t.Errorf("%s: want an empty answer, got %v", ep.operationID, m)
				}
				continue
			}
			var required []string
			for k := range ep.response {
				required = append(required, k)
			}
			switch ep.operationID {
			case "fetchResults":
				required = []string{"resultType", "isQueryResult", "jobID", "resultKind", "results", "nextResultUri"}
			}
			checkObject(t, v.String()+" "+ep.operationID, m, ep.response, required...)
			switch ep.operationID {
			case "openSession":
				if !specUUID.MatchString(m["sessionHandle"].(string)) {
					t.Errorf("session handle %v is not a UUID", m["sessionHandle"])
				}
			case "executeStatement":
				if !specUUID.MatchString(m["operationHandle"].(string)) {
					t.Errorf("operation handle %v is not a UUID", m["operationHandle"])
				}
			case "getApiVersion":
				if got := m["versions"].([]any); len(got) != 2 || got[0] != "V1" || got[1] != "V2" {
					t.Errorf("versions %v", got)
				}
			case "getOperationStatus":
				if m["status"] != "FINISHED" {
					t.Errorf("status %v", m["status"])
				}
			case "closeOperation":
				if m["status"] != "CLOSED" {
					t.Errorf("close: %v", m)
				}
			case "fetchResults":
				checkFetch(t, v, m)
			case "getSessionConfig":
				props := m["properties"].(map[string]any)
				if props["execution.runtime-mode"] != "batch" {
					t.Errorf("session properties %v", props)
				}
			}
		}
		if v == V2 {
			props := g.mustOK(t, "GET", prefix+"/sessions/"+session, nil)["properties"].(map[string]any)
			if props["k2"] != "v2" {
				t.Errorf("configure-session did not set k2: %v", props)
			}
		}
		m := g.mustOK(t, "DELETE", prefix+"/sessions/"+session, nil)
		checkObject(t, "closeSession", m, map[string]jsonKind{"status": jString}, "status")
		if m["status"] != "CLOSED" {
			t.Errorf("close session: %v", m)
		}
	}
}

func keysOfBody(body any) []string {
	m, _ := body.(map[string]any)
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// checkFetch checks a PAYLOAD answer of "SELECT 1 AS n".
func checkFetch(t *testing.T, v APIVersion, m map[string]any) {
	t.Helper()
	if !contains(specResultTypes, m["resultType"].(string)) || m["resultType"] != "PAYLOAD" {
		t.Errorf("resultType %v", m["resultType"])
	}
	if !contains(specResultKinds, m["resultKind"].(string)) || m["resultKind"] != "SUCCESS_WITH_CONTENT" {
		t.Errorf("resultKind %v", m["resultKind"])
	}
	if m["isQueryResult"] != true {
		t.Errorf("isQueryResult %v", m["isQueryResult"])
	}
	if !specJobID.MatchString(m["jobID"].(string)) {
		t.Errorf("jobID %v", m["jobID"])
	}
	uri := m["nextResultUri"].(string)
	wantURI := regexp.MustCompile(`^/` + v.Prefix() + `/sessions/[0-9a-f-]{36}/operations/[0-9a-f-]{36}/result/1` + map[bool]string{true: `\?rowFormat=JSON`, false: ``}[v >= V2] + `$`)
	if !wantURI.MatchString(uri) {
		t.Errorf("nextResultUri %q, want %s", uri, wantURI)
	}
	res := m["results"].(map[string]any)
	checkObject(t, "results", res, wireResultInfo, "columns", "rowFormat", "data")
	if !contains(specRowFormats, res["rowFormat"].(string)) || res["rowFormat"] != "JSON" {
		t.Errorf("rowFormat %v", res["rowFormat"])
	}
	cols := res["columns"].([]any)
	if len(cols) != 1 {
		t.Fatalf("columns %v", cols)
	}
	col := cols[0].(map[string]any)
	checkObject(t, "column", col, wireColumnInfo, "name", "logicalType", "comment")
	if col["name"] != "n" || col["comment"] != nil {
		t.Errorf("column %v", col)
	}
	lt := col["logicalType"].(map[string]any)
	if lt["type"] != "INTEGER" || lt["nullable"] != false || len(lt) != 2 {
		t.Errorf("logicalType %v", lt)
	}
	data := res["data"].([]any)
	if len(data) != 1 {
		t.Fatalf("data %v", data)
	}
	row := data[0].(map[string]any)
	checkObject(t, "row", row, wireRowData, "kind", "fields")
	if !contains(specRowKinds, row["kind"].(string)) || row["kind"] != "INSERT" {
		t.Errorf("kind %v", row["kind"])
	}
	if f := row["fields"].([]any); len(f) != 1 || f[0] != float64(1) {
		t.Errorf("fields %v", f)
	}
}

// TestSpecEnums checks the names Riffle puts on the wire against the
// specification's enumerations.
func TestSpecEnums(t *testing.T) {
	for _, s := range []ResultType{ResultNotReady, ResultPayload, ResultEOS} {
		if !contains(specResultTypes, string(s)) {
			t.Errorf("result type %s", s)
		}
	}
	for _, s := range []RowFormat{RowFormatJSON, RowFormatPlainText} {
		if !contains(specRowFormats, string(s)) {
			t.Errorf("row format %s", s)
		}
	}
	for _, s := range []string{ResultKindSuccess, ResultKindSuccessWithContent} {
		if !contains(specResultKinds, s) {
			t.Errorf("result kind %s", s)
		}
	}
	for k := types.Insert; k <= types.Delete; k++ {
		if name := strings.Trim(rowKindNames[k], `"`); name != specRowKinds[k] || name != k.String() {
			t.Errorf("row kind %d: %s", k, name)
		}
	}
	all := []*types.DataType{types.CharType(1), types.VarCharType(5), types.BooleanType(), types.BinaryType(2), types.VarBinaryType(3),
		types.DecimalType(10, 2), types.TinyIntType(), types.SmallIntType(), types.IntType(), types.BigIntType(), types.FloatType(),
		types.DoubleType(), types.DateType(), types.TimeType(3), types.TimestampType(3), types.TimestampLTZType(3),
		types.IntervalYearMonthType(types.ResYearToMonth, 2), types.IntervalDayTimeType(types.ResDayToSecond, 2, 3),
		types.ArrayType(types.IntType()), types.MultisetType(types.IntType()), types.MapType(types.StringType(), types.IntType()),
		types.RowType(types.NewField("a", types.IntType())), types.NullType(), types.RawType("x")}
	for _, dt := range all {
		if r := typeRootName(dt); !contains(specTypeRoots, r) {
			t.Errorf("%s: type root %s not in the specification", dt, r)
		}
	}
}

// TestSpecOperationStatus checks the states and transitions of
// OperationStatus.java.
func TestSpecOperationStatus(t *testing.T) {
	all := []OperationStatus{StatusInitialized, StatusPending, StatusRunning, StatusFinished, StatusCanceled, StatusClosed, StatusError, StatusTimeout}
	legal := map[OperationStatus][]OperationStatus{
		StatusInitialized: {StatusPending, StatusCanceled, StatusClosed, StatusTimeout, StatusError},
		StatusPending:     {StatusRunning, StatusCanceled, StatusClosed, StatusTimeout, StatusError},
		StatusRunning:     {StatusFinished, StatusCanceled, StatusClosed, StatusTimeout, StatusError},
		StatusFinished:    {StatusClosed},
		StatusCanceled:    {StatusClosed},
		StatusTimeout:     {StatusClosed},
		StatusError:       {StatusClosed},
		StatusClosed:      {},
	}
	terminal := map[OperationStatus]bool{StatusFinished: true, StatusCanceled: true, StatusClosed: true, StatusError: true, StatusTimeout: true}
	for _, from := range all {
		if from.IsTerminal() != terminal[from] {
			t.Errorf("%s terminal = %v", from, from.IsTerminal())
		}
		for _, to := range all {
			want := false
			for _, l := range legal[from] {
				want = want || l == to
			}
			if got := from.CanTransition(to); got != want {
				t.Errorf("%s -> %s: %v, want %v", from, to, got, want)
			}
		}
	}
}

// TestSpecLogicalTypes checks the JSON of every logical type against
// LogicalTypeJsonSerializer, field by field and in its field order, and
// that it decodes back.
func TestSpecLogicalTypes(t *testing.T) {
	cases := []struct {
		t    *types.DataType
		json string
	}{
		{types.BooleanType(), `{"type":"BOOLEAN","nullable":true}`},
		{types.TinyIntType().NotNull(), `{"type":"TINYINT","nullable":false}`},
		{types.SmallIntType(), `{"type":"SMALLINT","nullable":true}`},
		{types.IntType().NotNull(), `{"type":"INTEGER","nullable":false}`},
		{types.BigIntType(), `{"type":"BIGINT","nullable":true}`},
		{types.FloatType(), `{"type":"FLOAT","nullable":true}`},
		{types.DoubleType(), `{"type":"DOUBLE","nullable":true}`},
		{types.DateType(), `{"type":"DATE","nullable":true}`},
		{types.CharType(3).NotNull(), `{"type":"CHAR","nullable":false,"length":3}`},
		{types.StringType(), `{"type":"VARCHAR","nullable":true,"length":2147483647}`},
		{types.BinaryType(4), `{"type":"BINARY","nullable":true,"length":4}`},
		{types.BytesType(), `{"type":"VARBINARY","nullable":true,"length":2147483647}`},
		{types.DecimalType(10, 2), `{"type":"DECIMAL","nullable":true,"precision":10,"scale":2}`},
		{types.TimeType(0), `{"type":"TIME_WITHOUT_TIME_ZONE","nullable":true,"precision":0}`},
		{types.TimestampType(3), `{"type":"TIMESTAMP_WITHOUT_TIME_ZONE","nullable":true,"precision":3}`},
		{types.TimestampLTZType(6).NotNull(), `{"type":"TIMESTAMP_WITH_LOCAL_TIME_ZONE","nullable":false,"precision":6}`},
		{types.IntervalYearMonthType(types.ResYearToMonth, 4), `{"type":"INTERVAL_YEAR_MONTH","nullable":true,"precision":4,"resolution":"YEAR_TO_MONTH"}`},
		{types.IntervalYearMonthType(types.ResMonth, 2), `{"type":"INTERVAL_YEAR_MONTH","nullable":true,"precision":2,"resolution":"MONTH"}`},
		{types.IntervalDayTimeType(types.ResDayToSecond, 2, 3), `{"type":"INTERVAL_DAY_TIME","nullable":true,"precision":2,"fractionalPrecision":3,"resolution":"DAY_TO_SECOND"}`},
		{types.IntervalDayTimeType(types.ResHour, 2, 6), `{"type":"INTERVAL_DAY_TIME","nullable":true,"precision":2,"fractionalPrecision":6,"resolution":"HOUR"}`},
		{types.ArrayType(types.IntType().NotNull()), `{"type":"ARRAY","nullable":true,"elementType":{"type":"INTEGER","nullable":false}}`},
		{types.MultisetType(types.StringType()), `{"type":"MULTISET","nullable":true,"elementType":{"type":"VARCHAR","nullable":true,"length":2147483647}}`},
		{types.MapType(types.StringType().NotNull(), types.DoubleType()), `{"type":"MAP","nullable":true,"keyType":{"type":"VARCHAR","nullable":false,"length":2147483647},"valueType":{"type":"DOUBLE","nullable":true}}`},
		{types.RowType(types.NewField("a", types.IntType()), types.Field{Name: "b", Type: types.StringType(), Description: "the b"}),
			`{"type":"ROW","nullable":true,"fields":[{"name":"a","fieldType":{"type":"INTEGER","nullable":true}},{"name":"b","fieldType":{"type":"VARCHAR","nullable":true,"length":2147483647},"description":"the b"}]}`},
		{types.NullType(), `{"type":"NULL"}`},
	}
	for _, c := range cases {
		got := string(AppendLogicalType(nil, c.t))
		if got != c.json {
			t.Errorf("%s:\n got %s\nwant %s", c.t, got, c.json)
		}
		back, err := ParseLogicalType([]byte(c.json))
		if err != nil {
			t.Errorf("%s: %v", c.json, err)
			continue
		}
		if !back.Equals(c.t) {
			t.Errorf("%s decodes to %s, want %s", c.json, back, c.t)
		}
	}
	if _, err := ParseLogicalType([]byte(`{"type":"STRUCTURED_TYPE","nullable":true}`)); err == nil {
		t.Error("an unsupported type root decoded")
	}
}
