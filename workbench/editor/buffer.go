package editor

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// pos is a location in the document: a 0-based line and a 0-based column
// counted in runes. Column len(runes) is the end of the line.
type pos struct {
	line, col int
}

// before reports whether p comes strictly before q.
func (p pos) before(q pos) bool {
	return p.line < q.line || (p.line == q.line && p.col < q.col)
}

// order returns p and q sorted.
func order(p, q pos) (pos, pos) {
	if q.before(p) {
		return q, p
	}
	return p, q
}

// line is one line of the document plus the highlighting cache for it.
type line struct {
	text string
	// state is the lexer state at the start of the line. It is only valid
	// for lines with an index below buffer.statesValid.
	state lexState
	// hl caches the highlighting of text when lexed from hl.state; nil
	// when the line changed since.
	hl *lineHighlight
}

// buffer is the document: never empty, always at least one line.
type buffer struct {
	lines []line
	// statesValid is the number of leading lines whose state field is up to
	// date. Line 0 always starts in stateCode.
	statesValid int
	// widest is an upper bound on the widest line in display cells, used for
	// the horizontal scroll extent. It grows as lines grow and is recomputed
	// only when the whole text is replaced.
	widest int
	// cachedLines counts lines whose hl was set since the last trim (an
	// upper bound: edits drop caches without counting down).
	cachedLines int
}

func newBuffer() *buffer {
	return &buffer{lines: []line{{}}, statesValid: 1}
}

// cleanText converts "\r\n" and lone "\r" line breaks to "\n" and replaces
// invalid UTF-8 with U+FFFD, so that rune columns stay stable when text is
// joined (two invalid fragments could otherwise merge into one rune).
func cleanText(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	if !strings.Contains(s, "\r") {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.ReplaceAll(s, "\r", "\n")
}

// setText replaces the whole document. Lines are substrings of s, so no
// per-line copies are made.
func (b *buffer) setText(s string) {
	s = cleanText(s)
	n := strings.Count(s, "\n") + 1
	lines := make([]line, 0, n)
	widest := 0
	for {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			break
		}
		lines = append(lines, line{text: s[:i]})
		widest = max(widest, cellWidthEstimate(s[:i]))
		s = s[i+1:]
	}
	lines = append(lines, line{text: s})
	widest = max(widest, cellWidthEstimate(s))
	b.lines = lines
	b.statesValid = 1
	b.cachedLines = 0
	b.widest = widest
}

// cellWidthEstimate is an upper bound on the display width of s: its byte
// length plus the extra cells tabs may take. It is cheap and never too small
// for ASCII text.
func cellWidthEstimate(s string) int {
	return len(s) + strings.Count(s, "\t")*(tabWidth-1)
}

// text joins the lines with "\n".
func (b *buffer) text() string {
	size := len(b.lines) - 1
	for i := range b.lines {
		size += len(b.lines[i].text)
	}
	var sb strings.Builder
	sb.Grow(size)
	for i := range b.lines {
		if i > 0 {
			sb.WriteByte('\n')
		}
		sb.WriteString(b.lines[i].text)
	}
	return sb.String()
}

// lineLen returns the number of runes in line l.
func (b *buffer) lineLen(l int) int {
	return utf8.RuneCountInString(b.lines[l].text)
}

// clamp returns the closest valid position to p.
func (b *buffer) clamp(p pos) pos {
	if p.line < 0 {
		return pos{}
	}
	if p.line >= len(b.lines) {
		last := len(b.lines) - 1
		return pos{last, b.lineLen(last)}
	}
	p.col = max(0, min(p.col, b.lineLen(p.line)))
	return p
}

// end returns the position after the last rune of the document.
func (b *buffer) end() pos {
	last := len(b.lines) - 1
	return pos{last, b.lineLen(last)}
}

// byteIndex returns the byte index of rune column col in s; columns past the
// end map to len(s).
func byteIndex(s string, col int) int {
	if col <= 0 {
		return 0
	}
	n := 0
	for i := range s {
		if n == col {
			return i
		}
		n++
	}
	return len(s)
}

// runeAt returns the rune at column col of line l, or 0 outside the line.
func (b *buffer) runeAt(l, col int) rune {
	if l < 0 || l >= len(b.lines) || col < 0 {
		return 0
	}
	s := b.lines[l].text
	i := byteIndex(s, col)
	if i >= len(s) {
		return 0
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return r
}

// invalidateFrom marks lexer states from line l+1 on as stale and drops the
// highlight cache of line l.
func (b *buffer) invalidateFrom(l int) {
	if l < len(b.lines) {
		b.lines[l].hl = nil
	}
	b.statesValid = max(1, min(b.statesValid, l+1))
}

// insert inserts s (which may hold "\n") at p and returns the position after
// the inserted text. p must be valid.
func (b *buffer) insert(p pos, s string) pos {
	if s == "" {
		return p
	}
	cur := b.lines[p.line].text
	i := byteIndex(cur, p.col)
	head, tail := cur[:i], cur[i:]
	if !strings.Contains(s, "\n") {
		nt := head + s + tail
		b.lines[p.line].text = nt
		b.widest = max(b.widest, cellWidthEstimate(nt))
		b.invalidateFrom(p.line)
		return pos{p.line, p.col + utf8.RuneCountInString(s)}
	}
	parts := strings.Split(s, "\n")
	newLines := make([]line, len(parts)-1)
	b.lines[p.line].text = head + parts[0]
	b.widest = max(b.widest, cellWidthEstimate(b.lines[p.line].text))
	for k := 1; k < len(parts); k++ {
		t := parts[k]
		if k == len(parts)-1 {
			t += tail
		}
		newLines[k-1] = line{text: t}
		b.widest = max(b.widest, cellWidthEstimate(t))
	}
	b.lines = insertLines(b.lines, p.line+1, newLines)
	b.invalidateFrom(p.line)
	last := parts[len(parts)-1]
	return pos{p.line + len(parts) - 1, utf8.RuneCountInString(last)}
}

// insertLines inserts add into ls at index at.
func insertLines(ls []line, at int, add []line) []line {
	n := len(ls) + len(add)
	if n > cap(ls) {
		grown := make([]line, len(ls), n+n/4)
		copy(grown, ls)
		ls = grown
	}
	ls = ls[:n]
	copy(ls[at+len(add):], ls[at:n-len(add)])
	copy(ls[at:], add)
	return ls
}

// textRange returns the text between a and b (in either order).
func (b *buffer) textRange(a, c pos) string {
	a, c = order(b.clamp(a), b.clamp(c))
	if a.line == c.line {
		s := b.lines[a.line].text
		return s[byteIndex(s, a.col):byteIndex(s, c.col)]
	}
	var sb strings.Builder
	first := b.lines[a.line].text
	sb.WriteString(first[byteIndex(first, a.col):])
	for l := a.line + 1; l < c.line; l++ {
		sb.WriteByte('\n')
		sb.WriteString(b.lines[l].text)
	}
	last := b.lines[c.line].text
	sb.WriteByte('\n')
	sb.WriteString(last[:byteIndex(last, c.col)])
	return sb.String()
}

// remove deletes the text between a and b and returns it.
func (b *buffer) remove(a, c pos) string {
	a, c = order(b.clamp(a), b.clamp(c))
	if a == c {
		return ""
	}
	removed := b.textRange(a, c)
	first := b.lines[a.line].text
	last := b.lines[c.line].text
	b.lines[a.line].text = first[:byteIndex(first, a.col)] + last[byteIndex(last, c.col):]
	if c.line > a.line {
		tailStart := c.line + 1
		copy(b.lines[a.line+1:], b.lines[tailStart:])
		n := len(b.lines) - (c.line - a.line)
		clear(b.lines[n:])
		b.lines = b.lines[:n]
	}
	b.invalidateFrom(a.line)
	return removed
}

// offsetOf returns the byte offset of p in text().
func (b *buffer) offsetOf(p pos) int {
	p = b.clamp(p)
	off := 0
	for l := 0; l < p.line; l++ {
		off += len(b.lines[l].text) + 1
	}
	return off + byteIndex(b.lines[p.line].text, p.col)
}

// posOf returns the position of byte offset off in text(), clamped to the
// document. An offset inside a multi-byte rune maps to that rune's column.
func (b *buffer) posOf(off int) pos {
	if off <= 0 {
		return pos{}
	}
	for l := range b.lines {
		s := b.lines[l].text
		if off <= len(s) {
			for off > 0 && off < len(s) && !utf8.RuneStart(s[off]) {
				off--
			}
			return pos{l, utf8.RuneCountInString(s[:off])}
		}
		off -= len(s) + 1
	}
	return b.end()
}

// endOf returns the position after inserting s at p, without inserting.
func endOf(p pos, s string) pos {
	n := strings.Count(s, "\n")
	if n == 0 {
		return pos{p.line, p.col + utf8.RuneCountInString(s)}
	}
	return pos{p.line + n, utf8.RuneCountInString(s[strings.LastIndexByte(s, '\n')+1:])}
}

// isWordRune reports whether r belongs to an identifier-like word.
func isWordRune(r rune) bool {
	return r == '_' || r == '$' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// wordBounds returns the columns of the word around column col of line l;
// start == end when there is no word there.
func (b *buffer) wordBounds(l, col int) (int, int) {
	rs := []rune(b.lines[l].text)
	col = max(0, min(col, len(rs)))
	start, end := col, col
	if (end >= len(rs) || !isWordRune(rs[end])) && start > 0 && isWordRune(rs[start-1]) {
		// Right after a word: select that word.
		end = start
	}
	for start > 0 && isWordRune(rs[start-1]) {
		start--
	}
	for end < len(rs) && isWordRune(rs[end]) {
		end++
	}
	if start == end && col < len(rs) {
		// Not on a word: take the run of same-class runes (spaces or symbols).
		space := unicode.IsSpace(rs[col])
		start, end = col, col+1
		for start > 0 && !isWordRune(rs[start-1]) && unicode.IsSpace(rs[start-1]) == space {
			start--
		}
		for end < len(rs) && !isWordRune(rs[end]) && unicode.IsSpace(rs[end]) == space {
			end++
		}
	}
	return start, end
}

// wordRight returns the position at the end of the next word after p,
// moving to the next line at the end of a line.
func (b *buffer) wordRight(p pos) pos {
	rs := []rune(b.lines[p.line].text)
	if p.col >= len(rs) {
		if p.line+1 < len(b.lines) {
			return pos{p.line + 1, 0}
		}
		return p
	}
	c := p.col
	for c < len(rs) && !isWordRune(rs[c]) && unicode.IsSpace(rs[c]) {
		c++
	}
	switch {
	case c < len(rs) && isWordRune(rs[c]):
		for c < len(rs) && isWordRune(rs[c]) {
			c++
		}
	case c < len(rs):
		for c < len(rs) && !isWordRune(rs[c]) && !unicode.IsSpace(rs[c]) {
			c++
		}
	}
	return pos{p.line, c}
}

// wordLeft returns the position at the start of the word before p, moving to
// the end of the previous line at the start of a line.
func (b *buffer) wordLeft(p pos) pos {
	if p.col == 0 {
		if p.line > 0 {
			return pos{p.line - 1, b.lineLen(p.line - 1)}
		}
		return p
	}
	rs := []rune(b.lines[p.line].text)
	c := min(p.col, len(rs))
	for c > 0 && !isWordRune(rs[c-1]) && unicode.IsSpace(rs[c-1]) {
		c--
	}
	switch {
	case c > 0 && isWordRune(rs[c-1]):
		for c > 0 && isWordRune(rs[c-1]) {
			c--
		}
	case c > 0:
		for c > 0 && !isWordRune(rs[c-1]) && !unicode.IsSpace(rs[c-1]) {
			c--
		}
	}
	return pos{p.line, c}
}

// leadingSpace returns the indentation (spaces and tabs) of line l.
func (b *buffer) leadingSpace(l int) string {
	s := b.lines[l].text
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return s[:i]
}

// tabWidth is the number of cells a tab advances to (the next multiple).
const tabWidth = 4

// visualCol converts rune column col of s to a display column, expanding tabs.
func visualCol(s string, col int) int {
	v, n := 0, 0
	for _, r := range s {
		if n >= col {
			break
		}
		if r == '\t' {
			v += tabWidth - v%tabWidth
		} else {
			v++
		}
		n++
	}
	if col > n {
		v += col - n
	}
	return v
}

// runeColForVisual converts display column v of s to the nearest rune column;
// if round is true a click on the right half of a cell maps to the column
// after it. Columns past the end map to the line length.
func runeColForVisual(s string, v float32, round bool) int {
	x, n := 0, 0
	for _, r := range s {
		w := 1
		if r == '\t' {
			w = tabWidth - x%tabWidth
		}
		limit := float32(x + w)
		if round {
			limit = float32(x) + float32(w)/2
		}
		if v < limit {
			return n
		}
		x += w
		n++
	}
	return n
}
