package gateway

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// FuzzServeHTTP sends the server random methods, paths and bodies: no
// input may panic it, every answer is a status code with a JSON body of
// the gateway's shapes, and 5xx answers only come with an error list.
func FuzzServeHTTP(f *testing.F) {
	for _, c := range []struct{ method, path, body string }{
		{"GET", "/v1/info", ""},
		{"GET", "/api_versions", ""},
		{"POST", "/v1/sessions", `{"properties":{"execution.runtime-mode":"batch"}}`},
		{"POST", "/v2/sessions", `{"sessionName":"x"}`},
		{"POST", "/v1/sessions/00000000-0000-0000-0000-000000000000/statements", `{"statement":"SELECT 1"}`},
		{"GET", "/v1/sessions/x/operations/y/result/0", ""},
		{"DELETE", "/v1/sessions/x", ""},
		{"POST", "/v3/sessions/x/complete-statement", `{"statement":"SEL","position":3}`},
		{"POST", "/v1/sessions", `{"properties":`},
		{"PUT", "/v1/sessions/%zz", "\xff"},
		{"GET", "/v1/sessions/../../etc/passwd", ""},
	} {
		f.Add(c.method, c.path, c.body)
	}
	s := NewServer(Config{MaxSessions: 20})
	f.Cleanup(func() { s.Close() })
	f.Fuzz(func(t *testing.T, method, path, body string) {
		if !strings.HasPrefix(path, "/") {
			path = "/" + path
		}
		req, err := http.NewRequest(method, "http://127.0.0.1:8083"+path, strings.NewReader(body))
		if err != nil {
			return // not a request a client can send
		}
		req.Host = "127.0.0.1:8083"
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		if rec.Code < 200 || rec.Code > 599 {
			t.Fatalf("%s %s: status %d", method, path, rec.Code)
		}
		if rec.Body.Len() > 0 && strings.Contains(rec.Header().Get("Content-Type"), "json") && !json.Valid(rec.Body.Bytes()) {
			t.Fatalf("%s %s: invalid JSON %q", method, path, rec.Body.String())
		}
		if rec.Code >= 500 {
			var e ErrorResponse
			if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || len(e.Errors) == 0 {
				t.Fatalf("%s %s: %d without errors: %q", method, path, rec.Code, rec.Body.String())
			}
		}
	})
}
