package expr

import (
	"regexp/syntax"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"
)

// A direct matcher for simple regular expressions, used for the first
// match of a pattern (REGEXP, REGEXP_EXTRACT, REGEXP_SUBSTR, REGEXP_INSTR)
// before Go's regexp engine, which spends about 10 ns per input character
// and must try every start position of an unanchored pattern.
//
// A simple pattern is built from literals, single characters (classes,
// '.', one-rune literals) with any quantifier, capturing and non-capturing
// groups, alternation, '?' over a group, and the text anchors ^ and $
// (\A, \z). Anything else (case-insensitive literals, line anchors under
// (?m), word boundaries, a quantifier other than '?' on a group) leaves the
// pattern to Go's engine. The matcher backtracks in the priority order of
// Perl and Java (alternatives left to right, greedy quantifiers longest
// first, reluctant ones shortest first), so it reports the same leftmost
// match and the same groups as regexp.FindStringSubmatchIndex; it runs only
// on valid UTF-8 and gives up, leaving the string to Go's engine, after a
// step budget linear in the input, so it is never much slower than RE2.
//
// Start positions are narrowed with a literal every match contains at a
// bounded distance from its start (for '(&|^)channel_id=([^&]*)' the
// literal "channel_id=" 0 or 1 bytes after the start): only positions up
// to that distance before an occurrence of the literal are tried.

type simpleOp uint8

const (
	sLit     simpleOp = iota // literal string
	sRep                     // single character class repeated min..max times
	sCapture                 // capturing group subs[0]
	sAlt                     // alternation of subs
	sQuest                   // subs[0] optional
	sBegin                   // beginning of text
	sEnd                     // end of text
)

type simpleNode struct {
	op       simpleOp
	lit      string
	cls      *simpleClass
	min, max int // sRep: max < 0 means unbounded
	greedy   bool
	capIdx   int
	subs     [][]*simpleNode
}

// simpleClass is a set of runes: a bitmap for ASCII and sorted inclusive
// ranges for the rest.
type simpleClass struct {
	ascii  [2]uint64
	ranges []rune // pairs lo, hi with lo >= 0x80
}

func newSimpleClass(ranges []rune) *simpleClass {
	c := &simpleClass{}
	for i := 0; i+1 < len(ranges); i += 2 {
		lo, hi := ranges[i], ranges[i+1]
		for r := lo; r <= hi && r < utf8.RuneSelf; r++ {
			c.ascii[r>>6] |= 1 << (r & 63)
		}
		if hi >= utf8.RuneSelf {
			c.ranges = append(c.ranges, max(lo, utf8.RuneSelf), hi)
		}
	}
	return c
}

func (c *simpleClass) has(r rune) bool {
	if r < utf8.RuneSelf {
		return c.ascii[r>>6]&(1<<(r&63)) != 0
	}
	for i := 0; i < len(c.ranges); i += 2 {
		if r < c.ranges[i] {
			return false
		}
		if r <= c.ranges[i+1] {
			return true
		}
	}
	return false
}

// simpleProg is a compiled simple pattern.
type simpleProg struct {
	seq    []*simpleNode
	groups int
	// anchored: every match starts at 0
	anchored bool
	// lit occurs in every match, between litMin and litMax bytes after
	// its start (litMax < 0: unbounded); "" when no such literal is known
	lit            string
	litMin, litMax int
	// calls and fallbacks count first-match calls and those that gave up;
	// a pattern that gives up often is left to Go's engine for good
	calls, fallbacks atomic.Int64
	disabled         atomic.Bool
	// pool holds *simpleMatcher scratch space (groups and continuations)
	pool sync.Pool
}

// compileSimple returns the direct matcher of an RE2 pattern, or nil when
// the pattern is not simple.
func compileSimple(pattern string) *simpleProg {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil
	}
	p := &simpleProg{groups: re.MaxCap()}
	seq, ok := simpleSeq(re)
	if !ok {
		return nil
	}
	p.seq = seq
	p.anchored = len(seq) > 0 && seq[0].op == sBegin
	p.lit, p.litMin, p.litMax = literalAtOffset(seq)
	return p
}

// simpleSeq converts re into a sequence of nodes (false: not simple).
func simpleSeq(re *syntax.Regexp) ([]*simpleNode, bool) {
	switch re.Op {
	case syntax.OpConcat:
		var out []*simpleNode
		for _, sub := range re.Sub {
			s, ok := simpleSeq(sub)
			if !ok {
				return nil, false
			}
			out = append(out, s...)
		}
		return out, true
	case syntax.OpEmptyMatch:
		return nil, true
	}
	n, ok := simpleOne(re)
	if !ok {
		return nil, false
	}
	return []*simpleNode{n}, true
}

func simpleOne(re *syntax.Regexp) (*simpleNode, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 {
			return nil, false
		}
		for _, r := range re.Rune {
			if r == utf8.RuneError {
				// an invalid input byte decodes to U+FFFD in Go's engine
				return nil, false
			}
		}
		return &simpleNode{op: sLit, lit: string(re.Rune)}, true
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		c, ok := singleClass(re)
		if !ok {
			return nil, false
		}
		return &simpleNode{op: sRep, cls: c, min: 1, max: 1, greedy: true}, true
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		greedy := re.Flags&syntax.NonGreedy == 0
		if c, ok := singleClass(re.Sub[0]); ok {
			n := &simpleNode{op: sRep, cls: c, greedy: greedy}
			switch re.Op {
			case syntax.OpStar:
				n.min, n.max = 0, -1
			case syntax.OpPlus:
				n.min, n.max = 1, -1
			case syntax.OpQuest:
				n.min, n.max = 0, 1
			default:
				n.min, n.max = re.Min, re.Max
			}
			return n, true
		}
		if re.Op != syntax.OpQuest {
			return nil, false
		}
		sub, ok := simpleSeq(re.Sub[0])
		if !ok {
			return nil, false
		}
		return &simpleNode{op: sQuest, greedy: greedy, subs: [][]*simpleNode{sub}}, true
	case syntax.OpCapture:
		sub, ok := simpleSeq(re.Sub[0])
		if !ok {
			return nil, false
		}
		return &simpleNode{op: sCapture, capIdx: re.Cap, subs: [][]*simpleNode{sub}}, true
	case syntax.OpAlternate:
		n := &simpleNode{op: sAlt}
		for _, sub := range re.Sub {
			s, ok := simpleSeq(sub)
			if !ok {
				return nil, false
			}
			n.subs = append(n.subs, s)
		}
		return n, true
	case syntax.OpBeginText:
		return &simpleNode{op: sBegin}, true
	case syntax.OpEndText:
		return &simpleNode{op: sEnd}, true
	}
	return nil, false
}

// singleClass returns the rune set of a pattern matching one character.
func singleClass(re *syntax.Regexp) (*simpleClass, bool) {
	switch re.Op {
	case syntax.OpCharClass:
		return newSimpleClass(re.Rune), true
	case syntax.OpAnyChar:
		return newSimpleClass([]rune{0, utf8.MaxRune}), true
	case syntax.OpAnyCharNotNL:
		return newSimpleClass([]rune{0, '\n' - 1, '\n' + 1, utf8.MaxRune}), true
	case syntax.OpLiteral:
		if len(re.Rune) == 1 && re.Flags&syntax.FoldCase == 0 && re.Rune[0] != utf8.RuneError {
			return newSimpleClass([]rune{re.Rune[0], re.Rune[0]}), true
		}
	}
	return nil, false
}

// seqWidth returns the minimum and maximum number of bytes a sequence
// matches (max < 0: unbounded).
func seqWidth(seq []*simpleNode) (int, int) {
	lo, hi := 0, 0
	for _, n := range seq {
		a, b := nodeWidth(n)
		lo, hi = addWidth(lo, hi, a, b)
	}
	return lo, hi
}

// addWidth appends a part matching a..b bytes to a sequence matching
// lo..hi bytes (a max below 0 is unbounded).
func addWidth(lo, hi, a, b int) (int, int) {
	switch {
	case hi < 0:
		return lo + a, hi
	case b < 0:
		return lo + a, -1
	}
	return lo + a, hi + b
}

func nodeWidth(n *simpleNode) (int, int) {
	switch n.op {
	case sLit:
		return len(n.lit), len(n.lit)
	case sRep:
		cmin, cmax := classWidth(n.cls)
		if n.max < 0 {
			return n.min * cmin, -1
		}
		return n.min * cmin, n.max * cmax
	case sCapture:
		return seqWidth(n.subs[0])
	case sQuest:
		_, hi := seqWidth(n.subs[0])
		return 0, hi
	case sAlt:
		lo, hi := -1, 0
		for _, s := range n.subs {
			a, b := seqWidth(s)
			if lo < 0 || a < lo {
				lo = a
			}
			if hi >= 0 && (b < 0 || b > hi) {
				hi = b
			}
		}
		return max(lo, 0), hi
	}
	return 0, 0
}

// classWidth is the byte length of the shortest and longest rune of c.
func classWidth(c *simpleClass) (int, int) {
	lo, hi := 0, 0
	if c.ascii != [2]uint64{} {
		lo, hi = 1, 1
	}
	if len(c.ranges) > 0 {
		if lo == 0 {
			lo = utf8.RuneLen(c.ranges[0])
		}
		hi = utf8.RuneLen(c.ranges[len(c.ranges)-1])
		if hi < 0 {
			hi = 4
		}
	}
	return lo, hi
}

// literalAtOffset finds the longest literal of the top-level sequence (or
// of a capturing group in it, recursively) with the bounds of its offset
// from the start of a match.
func literalAtOffset(seq []*simpleNode) (string, int, int) {
	best, bestMin, bestMax := "", 0, -1
	var walk func(seq []*simpleNode, lo, hi int) (int, int)
	walk = func(seq []*simpleNode, lo, hi int) (int, int) {
		for _, n := range seq {
			if n.op == sLit && len(n.lit) > len(best) {
				best, bestMin, bestMax = n.lit, lo, hi
			}
			var a, b int
			if n.op == sCapture {
				a, b = walk(n.subs[0], lo, hi)
				lo, hi = a, b
				continue
			}
			a, b = nodeWidth(n)
			lo, hi = addWidth(lo, hi, a, b)
		}
		return lo, hi
	}
	walk(seq, 0, 0)
	return best, bestMin, bestMax
}

// simpleMatcher is the state of one match attempt.
type simpleMatcher struct {
	s      string
	caps   []int
	steps  int
	budget int
	gaveUp bool
	// conts is a stack of continuations; a continuation is referred to
	// by its index (-1: none) and popped when the call that pushed it
	// returns
	conts []cont
	// calls counts uses not yet added to simpleProg.calls
	calls int64
}

// cont is what remains to match after a group: the rest of the enclosing
// sequence, closing capture capClose (-1: none) first.
type cont struct {
	seq      []*simpleNode
	capClose int
	next     int
}

// with runs seq at pos followed by continuation {rest, capClose, k}.
func (m *simpleMatcher) with(seq []*simpleNode, pos int, rest []*simpleNode, capClose, k int) bool {
	i := len(m.conts)
	m.conts = append(m.conts, cont{seq: rest, capClose: capClose, next: k})
	ok := m.run(seq, pos, i)
	m.conts = m.conts[:i]
	return ok
}

func (m *simpleMatcher) run(seq []*simpleNode, pos int, k int) bool {
	for {
		m.steps++
		if m.steps > m.budget {
			m.gaveUp = true
			return false
		}
		if len(seq) == 0 {
			if k < 0 {
				m.caps[1] = pos
				return true
			}
			kc := m.conts[k]
			if c := kc.capClose; c >= 0 {
				old := m.caps[2*c+1]
				m.caps[2*c+1] = pos
				if m.run(kc.seq, pos, kc.next) {
					return true
				}
				m.caps[2*c+1] = old
				return false
			}
			seq, k = kc.seq, kc.next
			continue
		}
		n := seq[0]
		seq = seq[1:]
		switch n.op {
		case sLit:
			if !strings.HasPrefix(m.s[pos:], n.lit) {
				return false
			}
			pos += len(n.lit)
		case sBegin:
			if pos != 0 {
				return false
			}
		case sEnd:
			if pos != len(m.s) {
				return false
			}
		case sRep:
			if n.min == 1 && n.max == 1 {
				r, w := m.next(pos)
				if w == 0 || !n.cls.has(r) {
					return false
				}
				pos += w
				continue
			}
			return m.rep(n, seq, pos, k)
		case sCapture:
			c := n.capIdx
			old0, old1 := m.caps[2*c], m.caps[2*c+1]
			m.caps[2*c] = pos
			if m.with(n.subs[0], pos, seq, c, k) {
				return true
			}
			m.caps[2*c], m.caps[2*c+1] = old0, old1
			return false
		case sAlt:
			for _, br := range n.subs {
				if m.with(br, pos, seq, -1, k) {
					return true
				}
				if m.gaveUp {
					return false
				}
			}
			return false
		case sQuest:
			if n.greedy {
				if m.with(n.subs[0], pos, seq, -1, k) {
					return true
				}
				if m.gaveUp {
					return false
				}
				continue
			}
			if m.run(seq, pos, k) {
				return true
			}
			if m.gaveUp {
				return false
			}
			return m.with(n.subs[0], pos, seq, -1, k)
		}
	}
}

// next decodes the rune at pos (width 0 at the end).
func (m *simpleMatcher) next(pos int) (rune, int) {
	if pos >= len(m.s) {
		return 0, 0
	}
	if c := m.s[pos]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRuneInString(m.s[pos:])
}

// rep matches a repeated class, then seq and k.
func (m *simpleMatcher) rep(n *simpleNode, seq []*simpleNode, pos int, k int) bool {
	cnt := 0
	if n.greedy {
		p := pos
		for n.max < 0 || cnt < n.max {
			r, w := m.next(p)
			if w == 0 || !n.cls.has(r) {
				break
			}
			p += w
			cnt++
		}
		m.steps += cnt
		if cnt < n.min {
			return false
		}
		for {
			if m.run(seq, p, k) {
				return true
			}
			if m.gaveUp || cnt == n.min {
				return false
			}
			// valid UTF-8: step back one rune
			_, w := utf8.DecodeLastRuneInString(m.s[:p])
			p -= w
			cnt--
		}
	}
	p := pos
	for {
		if cnt >= n.min {
			if m.run(seq, p, k) {
				return true
			}
			if m.gaveUp {
				return false
			}
		}
		if n.max >= 0 && cnt >= n.max {
			return false
		}
		r, w := m.next(p)
		if w == 0 || !n.cls.has(r) {
			return false
		}
		p += w
		cnt++
		m.steps++
	}
}

// first finds the leftmost match of s. ok reports a match, whose byte
// offsets are in m.caps (2*(groups+1) entries: the whole match, then each
// group, -1 for a group that did not take part); done is false when the
// matcher gave up (invalid UTF-8, or the step budget ran out) and Go's
// engine must answer instead. Release m with p.release when done with
// its groups.
func (p *simpleProg) first(s string) (m *simpleMatcher, ok, done bool) {
	if p.disabled.Load() || !utf8.ValidString(s) {
		return nil, false, false
	}
	m, _ = p.pool.Get().(*simpleMatcher)
	if m == nil {
		m = &simpleMatcher{caps: make([]int, 2*(p.groups+1)), conts: make([]cont, 0, 16)}
	}
	m.s, m.steps, m.budget, m.gaveUp, m.conts = s, 0, 32*len(s)+256, false, m.conts[:0]
	caps := m.caps
	k, litAt := 0, -1
	for k <= len(s) {
		if p.lit != "" && p.litMax >= 0 {
			// a match at k has the literal in [k+litMin, k+litMax]
			if litAt < k+p.litMin {
				if k+p.litMin > len(s) {
					break
				}
				i := strings.Index(s[k+p.litMin:], p.lit)
				if i < 0 {
					break
				}
				litAt = k + p.litMin + i
			}
			if k < litAt-p.litMax {
				k = litAt - p.litMax
			}
		}
		if k < len(s) && s[k]&0xC0 == 0x80 {
			// inside a rune
			k++
			continue
		}
		for i := range caps {
			caps[i] = -1
		}
		caps[0] = k
		if m.run(p.seq, k, -1) {
			p.count(m)
			return m, true, true
		}
		if m.gaveUp {
			p.gaveUp()
			p.release(m)
			return nil, false, false
		}
		if p.anchored {
			break
		}
		k++
	}
	p.count(m)
	return m, false, true
}

// count counts a call, adding to the shared counter every 1,024 calls.
func (p *simpleProg) count(m *simpleMatcher) {
	if m.calls++; m.calls == 1024 {
		p.calls.Add(m.calls)
		m.calls = 0
	}
}

// release returns a matcher from first to the pool.
func (p *simpleProg) release(m *simpleMatcher) {
	if m != nil {
		m.s = ""
		p.pool.Put(m)
	}
}

// gaveUp counts a fallback and disables the matcher for a pattern that
// gives up on more than one string in eight.
func (p *simpleProg) gaveUp() {
	f := p.fallbacks.Add(1)
	c := p.calls.Load() + f
	if f >= 64 && f*8 > c {
		p.disabled.Store(true)
	}
}
