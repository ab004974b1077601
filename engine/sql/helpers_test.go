package sql

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

func init() { strictPanics = true }

// ignoredFields are cosmetic: positions and identifier quoting.
var ignoredFields = map[string]bool{"Span": true, "OpPos": true, "KeyPos": true, "Quoted": true}

// astDiff compares two trees ignoring positions and quoting; it returns ""
// when they are equal, else a description of the first difference.
func astDiff(a, b any) string {
	return diffValue(reflect.ValueOf(a), reflect.ValueOf(b), "root")
}

func diffValue(a, b reflect.Value, path string) string {
	if a.IsValid() != b.IsValid() {
		return path + ": validity differs"
	}
	if !a.IsValid() {
		return ""
	}
	if a.Type() != b.Type() {
		return fmt.Sprintf("%s: type %s vs %s", path, a.Type(), b.Type())
	}
	switch a.Kind() {
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return path + ": nil vs non-nil"
			}
			return ""
		}
		return diffValue(a.Elem(), b.Elem(), path)
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			f := a.Type().Field(i)
			if ignoredFields[f.Name] || !f.IsExported() {
				continue
			}
			if d := diffValue(a.Field(i), b.Field(i), path+"."+f.Name); d != "" {
				return d
			}
		}
		return ""
	case reflect.Slice:
		if a.Len() != b.Len() {
			return fmt.Sprintf("%s: len %d vs %d", path, a.Len(), b.Len())
		}
		for i := 0; i < a.Len(); i++ {
			if d := diffValue(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i)); d != "" {
				return d
			}
		}
		return ""
	default:
		if !reflect.DeepEqual(a.Interface(), b.Interface()) {
			return fmt.Sprintf("%s: %v vs %v", path, a.Interface(), b.Interface())
		}
		return ""
	}
}

var placeholder = regexp.MustCompile(`\$\{([A-Z_]+)\}`)

// corpus returns every statement of testdata/valid/*.sql and
// testdata/nexmark/*.sql, with ${VAR} placeholders outside strings made
// identifiers.
func corpus(t testing.TB) []StatementSpan {
	var out []StatementSpan
	for _, pat := range []string{"testdata/valid/*.sql", "testdata/nexmark/*.sql"} {
		files, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			text := placeholder.ReplaceAllString(string(b), "$1")
			for _, sp := range SplitStatements(text) {
				sp.Text = strings.TrimSpace(sp.Text)
				out = append(out, sp)
			}
		}
	}
	return out
}

// checkRoundTrip parses text, renders it canonically and pretty, parses
// both again and compares the trees.
func checkRoundTrip(t testing.TB, text string) Statement {
	st, err := Parse(text)
	if err != nil {
		t.Errorf("parse %q: %v", text, err)
		return nil
	}
	canon := st.String()
	st2, err := Parse(canon)
	if err != nil {
		t.Errorf("reparse canonical of %q:\n%s\n%v", text, canon, err)
		return st
	}
	if d := astDiff(st, st2); d != "" {
		t.Errorf("canonical round trip of %q:\n%s\ndiffers: %s", text, canon, d)
	}
	pretty, err := FormatSQL(text)
	if err != nil {
		t.Errorf("FormatSQL %q: %v", text, err)
		return st
	}
	st3, err := Parse(pretty)
	if err != nil {
		t.Errorf("reparse pretty of %q:\n%s\n%v", text, pretty, err)
		return st
	}
	if d := astDiff(st, st3); d != "" {
		t.Errorf("pretty round trip of %q:\n%s\ndiffers: %s", text, pretty, d)
	}
	return st
}
