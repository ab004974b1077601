package expr

import (
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/dlclark/regexp2/v2"
)

// Java regular expressions for REGEXP_* and SIMILAR TO.
//
// Flink evaluates these with java.util.regex. Riffle compiles a pattern with
// Go's RE2 engine (regexp) when it can, which covers the common syntax with
// the same meaning, and otherwise with the backtracking engine of
// github.com/dlclark/regexp2, which adds what RE2 lacks: backreferences
// (\1), lookahead and lookbehind ((?=…), (?!…), (?<=…), (?<!…)) and atomic
// groups ((?>…)). Java constructs neither engine has are not supported and
// make the pattern invalid (the function then returns NULL, as Flink does
// for an invalid pattern): possessive quantifiers (a*+), the Java-specific
// classes \p{Alpha}, \p{javaLowerCase} and friends, \G, and the
// UNIX_LINES/CANON_EQ/COMMENTS flags. Matching positions are reported in
// characters, as Java does.

// javaRegex is a compiled pattern.
type javaRegex struct {
	re2 *regexp.Regexp
	bt  *regexp2.Regexp
	// groups is the number of capturing groups.
	groups int
	// canEmpty reports an RE2 pattern that can match the empty string; its
	// matches are enumerated by the backtracking engine, which follows
	// Java's rule for an empty match right after a non-empty one.
	canEmpty bool
	btOnce   sync.Once
	btLazy   *regexp2.Regexp
	// required is a literal every match contains (RE2 patterns only; ""
	// if none is known): a string without it cannot match, which is
	// checked with a fast substring search before running the engine.
	required string
	// simple is the direct matcher of a simple RE2 pattern (nil if the
	// pattern is not simple), used for the first match (regex_simple.go)
	simple *simpleProg
}

var regexCache sync.Map // pattern string -> *javaRegex or error

const regexCacheMax = 512

var regexCacheSize int64
var regexCacheMu sync.Mutex

// compileJavaRegex compiles (and caches) a Java pattern.
func compileJavaRegex(pattern string) (*javaRegex, error) {
	if v, ok := regexCache.Load(pattern); ok {
		if err, isErr := v.(error); isErr {
			return nil, err
		}
		return v.(*javaRegex), nil
	}
	r, err := compileJavaRegexUncached(pattern)
	regexCacheMu.Lock()
	if regexCacheSize < regexCacheMax {
		regexCacheSize++
		if err != nil {
			regexCache.Store(pattern, err)
		} else {
			regexCache.Store(pattern, r)
		}
	}
	regexCacheMu.Unlock()
	return r, err
}

func compileJavaRegexUncached(pattern string) (*javaRegex, error) {
	if re, err := regexp.Compile(pattern); err == nil {
		return &javaRegex{re2: re, groups: re.NumSubexp(), canEmpty: re.MatchString(""), required: requiredLiteral(pattern),
			simple: compileSimple(pattern)}, nil
	}
	if strings.Contains(pattern, "*+") || strings.Contains(pattern, "++") || strings.Contains(pattern, "?+") {
		return nil, &EvalError{Msg: "possessive quantifiers are not supported: " + pattern}
	}
	bt, err := regexp2.Compile(pattern)
	if err != nil {
		return nil, err
	}
	return &javaRegex{bt: bt, groups: len(bt.GetGroupNumbers()) - 1}, nil
}

// matches returns up to n (n < 0: all) non-overlapping matches of s, each
// as byte offsets [start0, end0, start1, end1, ...] of the whole match and
// the groups (-1 for a group that did not take part).
func (r *javaRegex) matches(s string, n int) [][]int {
	if r.required != "" && !strings.Contains(s, r.required) {
		return nil
	}
	if n == 1 && r.simple != nil {
		if m, ok, done := r.simple.first(s); done {
			if !ok {
				r.simple.release(m)
				return nil
			}
			loc := append([]int(nil), m.caps...)
			r.simple.release(m)
			return [][]int{loc}
		}
	}
	if r.re2 != nil {
		return r.re2.FindAllStringSubmatchIndex(s, n)
	}
	return r.btMatches(r.bt, s, n)
}

// group returns group idx (0: the whole match) of the first match of s;
// ok is false when there is no match or the group did not take part.
func (r *javaRegex) group(s string, idx int) (string, bool) {
	if idx < 0 || idx > r.groups {
		return "", false
	}
	// the direct matcher looks for its literal itself
	selfFilter := r.simple != nil && r.simple.lit == r.required && r.simple.litMax >= 0
	if r.required != "" && !selfFilter && !strings.Contains(s, r.required) {
		return "", false
	}
	if r.simple != nil {
		if m, ok, done := r.simple.first(s); done {
			if !ok {
				r.simple.release(m)
				return "", false
			}
			a, b := m.caps[2*idx], m.caps[2*idx+1]
			r.simple.release(m)
			if a < 0 {
				return "", false
			}
			return s[a:b], true
		}
	}
	if r.re2 != nil {
		loc := r.re2.FindStringSubmatchIndex(s)
		if loc == nil || loc[2*idx] < 0 {
			return "", false
		}
		return s[loc[2*idx]:loc[2*idx+1]], true
	}
	ms := r.btMatches(r.bt, s, 1)
	if len(ms) == 0 || ms[0][2*idx] < 0 {
		return "", false
	}
	return s[ms[0][2*idx]:ms[0][2*idx+1]], true
}

// javaMatches lists all matches as java.util.regex.Matcher.find does: an
// empty match right after a non-empty one counts (Go's FindAll skips it).
func (r *javaRegex) javaMatches(s string) [][]int {
	if r.re2 == nil || !r.canEmpty {
		return r.matches(s, -1)
	}
	r.btOnce.Do(func() {
		r.btLazy, _ = regexp2.Compile(r.re2.String())
	})
	if r.btLazy == nil {
		return r.matches(s, -1)
	}
	return r.btMatches(r.btLazy, s, -1)
}

func (r *javaRegex) btMatches(bt *regexp2.Regexp, s string, n int) [][]int {
	var out [][]int
	var byteOf []int // rune index -> byte offset
	m, err := bt.FindStringMatch(s)
	for err == nil && m != nil && (n < 0 || len(out) < n) {
		if byteOf == nil {
			byteOf = runeByteOffsets(s)
		}
		loc := make([]int, 0, 2*(r.groups+1))
		for g := 0; g <= r.groups; g++ {
			grp := m.GroupByNumber(g)
			if grp == nil || len(grp.Captures) == 0 {
				loc = append(loc, -1, -1)
				continue
			}
			loc = append(loc, byteOf[grp.RuneIndex], byteOf[grp.RuneIndex+grp.RuneLength])
		}
		out = append(out, loc)
		m, err = bt.FindNextMatch(m)
	}
	return out
}

func runeByteOffsets(s string) []int {
	out := make([]int, 0, len(s)+1)
	for i := range s {
		out = append(out, i)
	}
	return append(out, len(s))
}

// find reports whether some substring of s matches.
func (r *javaRegex) find(s string) bool {
	if r.required != "" && !strings.Contains(s, r.required) {
		return false
	}
	if r.simple != nil {
		if m, ok, done := r.simple.first(s); done {
			r.simple.release(m)
			return ok
		}
	}
	if r.re2 != nil {
		return r.re2.MatchString(s)
	}
	ok, err := r.bt.MatchString(s)
	return err == nil && ok
}

// replaceAll replaces every match with a Java replacement string ($n group
// references, \ escapes), as String.replaceAll does.
func (r *javaRegex) replaceAll(s, repl string) (string, error) {
	parts, err := parseJavaReplacement(repl, r.groups)
	if err != nil {
		return "", err
	}
	ms := r.matches(s, -1)
	if len(ms) == 0 {
		return s, nil
	}
	var b strings.Builder
	last := 0
	for _, m := range ms {
		b.WriteString(s[last:m[0]])
		for _, p := range parts {
			if p.group < 0 {
				b.WriteString(p.lit)
			} else if m[2*p.group] >= 0 {
				b.WriteString(s[m[2*p.group]:m[2*p.group+1]])
			}
		}
		last = m[1]
	}
	b.WriteString(s[last:])
	return b.String(), nil
}

type replPart struct {
	lit   string
	group int // -1 for a literal
}

// parseJavaReplacement splits a java.util.regex.Matcher replacement: "\x"
// is a literal x, "$n" a group (digits taken greedily while the number
// stays a valid group), "${name}" is not supported.
func parseJavaReplacement(repl string, groups int) ([]replPart, error) {
	var parts []replPart
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			parts = append(parts, replPart{lit: lit.String(), group: -1})
			lit.Reset()
		}
	}
	for i := 0; i < len(repl); i++ {
		c := repl[i]
		switch c {
		case '\\':
			i++
			if i >= len(repl) {
				return nil, &EvalError{Msg: "character to be escaped is missing"}
			}
			_, size := utf8.DecodeRuneInString(repl[i:])
			lit.WriteString(repl[i : i+size])
			i += size - 1
		case '$':
			i++
			if i >= len(repl) || repl[i] < '0' || repl[i] > '9' {
				return nil, &EvalError{Msg: "illegal group reference"}
			}
			g := int(repl[i] - '0')
			for i+1 < len(repl) && repl[i+1] >= '0' && repl[i+1] <= '9' {
				next := g*10 + int(repl[i+1]-'0')
				if next > groups {
					break
				}
				g = next
				i++
			}
			if g > groups {
				return nil, &EvalError{Msg: "No group " + strconv.Itoa(g)}
			}
			flush()
			parts = append(parts, replPart{group: g})
		default:
			lit.WriteByte(c)
		}
	}
	flush()
	return parts, nil
}

// similarToRegex translates a SQL SIMILAR TO pattern into a Java pattern
// matching the whole string (Calcite's SqlFunctions.similar): % is .*, _
// is ., the regular-expression operators | * + ? {m,n} ( ) [ ] keep their
// meaning (and so does ., as Calcite passes it through), every other
// character is literal; escape (may be 0) quotes the next character.
func similarToRegex(pattern string, escape rune) string {
	var b strings.Builder
	b.WriteString("(?s)^(?:")
	rs := []rune(pattern)
	inClass := false
	for i := 0; i < len(rs); i++ {
		c := rs[i]
		switch {
		case escape != 0 && c == escape && i+1 < len(rs):
			i++
			b.WriteString(regexp.QuoteMeta(string(rs[i])))
		case inClass:
			if c == ']' {
				inClass = false
			}
			if c == '\\' {
				b.WriteString(`\\`)
				continue
			}
			b.WriteRune(c)
		case c == '%':
			b.WriteString(".*")
		case c == '_':
			b.WriteString(".")
		case c == '[':
			inClass = true
			b.WriteRune(c)
		case strings.ContainsRune(".|*+?{}()", c):
			// Calcite passes the regular-expression operators through;
			// SqlExpressionTest: 'TEST' SIMILAR TO '.EST' is TRUE
			b.WriteRune(c)
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString(")$")
	return b.String()
}

// requiredLiteral returns the longest case-sensitive literal that every
// match of an RE2 pattern contains: a literal element of the top-level
// concatenation (looking into capturing groups), or "" when there is none.
func requiredLiteral(pattern string) string {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return ""
	}
	re = re.Simplify()
	best := ""
	var walk func(r *syntax.Regexp)
	walk = func(r *syntax.Regexp) {
		switch r.Op {
		case syntax.OpLiteral:
			if r.Flags&syntax.FoldCase == 0 && len(string(r.Rune)) > len(best) {
				best = string(r.Rune)
			}
		case syntax.OpCapture:
			walk(r.Sub[0])
		case syntax.OpConcat:
			for _, sub := range r.Sub {
				walk(sub)
			}
		}
	}
	walk(re)
	return best
}
