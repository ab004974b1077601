package editor

import (
	"strings"
	"testing"
)

func classesOf(text string, st lexState) map[string]tokenClass {
	rs := []rune(text)
	out := map[string]tokenClass{}
	for _, sp := range lexLine(text, st) {
		out[string(rs[sp.start:sp.end])] = sp.class
	}
	return out
}

func TestLexLine(t *testing.T) {
	got := classesOf("SELECT CAST(`user id` AS VARCHAR(10)), count(*), 'it''s' -- done", stateCode)
	want := map[string]tokenClass{
		"SELECT":    classKeyword,
		"CAST":      classFunction,
		"`user id`": classQuoted,
		"AS":        classKeyword,
		"VARCHAR":   classType,
		"10":        classNumber,
		"count":     classFunction,
		"'it''s'":   classString,
		"-- done":   classComment,
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%q: class %d, want %d (all: %v)", k, got[k], v, got)
		}
	}
}

func TestLexLineCarriedState(t *testing.T) {
	got := classesOf("end of comment */ SELECT 1.5e3", stateComment)
	if got["end of comment */"] != classComment || got["SELECT"] != classKeyword || got["1.5e3"] != classNumber {
		t.Errorf("comment continuation: %v", got)
	}
	got = classesOf("rest' WHERE", stateString)
	if got["rest'"] != classString || got["WHERE"] != classKeyword {
		t.Errorf("string continuation: %v", got)
	}
	got = classesOf("x` FROM", stateQuoted)
	if got["x`"] != classQuoted || got["FROM"] != classKeyword {
		t.Errorf("quoted continuation: %v", got)
	}
}

func TestBufferHighlightInvalidation(t *testing.T) {
	b := newBuffer()
	b.setText("SELECT 1;\nSELECT 2;\nSELECT 3;")
	if b.highlight(2)[0].class != classKeyword {
		t.Fatal("line 2 should start with a keyword")
	}
	b.insert(pos{0, 0}, "/* ")
	if sp := b.highlight(2); len(sp) != 1 || sp[0].class != classComment {
		t.Fatalf("after opening a comment line 2 should be all comment, got %v", sp)
	}
	b.insert(pos{1, 0}, "*/")
	if b.highlight(2)[0].class != classKeyword {
		t.Fatal("after closing the comment line 2 should be code again")
	}
}

func TestLongLineNotLexed(t *testing.T) {
	long := make([]byte, maxLexLine+10)
	for i := range long {
		long[i] = 'a'
	}
	if sp := lexLine(string(long), stateCode); sp != nil {
		t.Errorf("long line should be plain, got %d spans", len(sp))
	}
	if sp := lexLine(string(long), stateComment); len(sp) != 1 || sp[0].class != classComment {
		t.Errorf("long line in a comment should be one comment span")
	}
}

func TestTableNameBeforeParenIsNotAFunction(t *testing.T) {
	got := classesOf("CREATE TABLE clicks (id INT) WITH (x) ; SELECT my_udf(a)", stateCode)
	if got["clicks"] != classPlain || got["my_udf"] != classFunction || got["WITH"] != classKeyword {
		t.Errorf("classes %v", got)
	}
}

func TestHighlightCacheIsBounded(t *testing.T) {
	b := newBuffer()
	b.setText(strings.Repeat("SELECT 1;\n", 3*maxCachedLines))
	for l := range b.lines {
		b.highlight(l)
		if l%1000 == 0 {
			b.trimCache(l-100, l+100)
		}
	}
	b.trimCache(len(b.lines)-100, len(b.lines))
	n := 0
	for i := range b.lines {
		if b.lines[i].hl != nil {
			n++
		}
	}
	if n > maxCachedLines+1000 {
		t.Fatalf("%d lines cached", n)
	}
}
