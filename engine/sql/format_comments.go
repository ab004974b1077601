package sql

import (
	"sort"
	"strings"
)

// maxCommentAlign bounds the work of aligning tokens (input × output
// tokens) when comments are put back into a formatted statement.
const maxCommentAlign = 4_000_000

// formatKeepingComments pretty-prints st, parsed from text, and puts the
// comments of text back where they were relative to the code: a comment on
// a line of its own goes on a line of its own before the token that
// followed it, an end-of-line comment goes at the end of the line of the
// token before it, and a block comment between tokens of one line stays
// after the token before it (before the token after it when it follows a
// comma or an opening parenthesis). The formatted tokens are matched to the source tokens by
// a longest common subsequence (keywords and identifiers compared case
// insensitively), as formatting only adds or drops a few tokens.
//
// ok is false when the comments cannot all be placed so that the result
// parses to the same statement with the same comments in the same order,
// or when a comment follows the statement's last token (the caller's ";"
// would land inside it); the caller then keeps text as written.
func formatKeepingComments(text string, st Statement) (string, bool) {
	p := &printer{pretty: true}
	p.node(st)
	out := p.b.String()
	src := Tokenize(text)
	dst := Tokenize(out)
	var srcCode, dstCode []Token
	for _, t := range src {
		if t.Kind != TokComment {
			srcCode = append(srcCode, t)
		}
	}
	for _, t := range dst {
		if t.Kind == TokComment {
			return "", false
		}
		dstCode = append(dstCode, t)
	}
	if len(srcCode) == 0 || len(dstCode) == 0 || len(srcCode)*len(dstCode) > maxCommentAlign {
		return "", false
	}
	match := alignTokens(srcCode, dstCode)

	type insertion struct {
		at   int // byte offset in out
		text string
		seq  int // source order, for insertions at one offset
	}
	var ins []insertion
	code := 0 // source code tokens before the current comment
	for seq, t := range src {
		if t.Kind != TokComment {
			code++
			continue
		}
		if code == len(srcCode) {
			return "", false // after the last token
		}
		comment := strings.TrimRight(t.Text, "\r\n")
		line := strings.HasPrefix(t.Text, "--")
		ownLine := strings.TrimSpace(text[lineStart(text, t.Pos.Offset):t.Pos.Offset]) == ""
		codeAfter := !line && sameLine(text, t.End, srcCode[code].Pos.Offset)
		switch {
		case ownLine || code == 0:
			next := firstMatched(match, code, 1)
			if next < 0 {
				return "", false
			}
			at := dstCode[next].Pos.Offset
			ls := lineStart(out, at)
			indent := out[ls : ls+len(out[ls:])-len(strings.TrimLeft(out[ls:], " \t"))]
			if strings.TrimSpace(out[ls:at]) == "" {
				ins = append(ins, insertion{at: ls, text: indent + comment + "\n", seq: seq})
			} else {
				ins = append(ins, insertion{at: at, text: "\n" + indent + comment + "\n" + indent, seq: seq})
			}
		case codeAfter && (srcCode[code-1].Text == "," || srcCode[code-1].Text == "("):
			// "a, /* note */ b": it belongs to the token after it
			next := firstMatched(match, code, 1)
			if next < 0 {
				return "", false
			}
			ins = append(ins, insertion{at: dstCode[next].Pos.Offset, text: comment + " ", seq: seq})
		case codeAfter:
			// "sum(b) /* note */ FROM": it stays after the token before it
			prev := firstMatched(match, code-1, -1)
			if prev < 0 {
				return "", false
			}
			ins = append(ins, insertion{at: dstCode[prev].End, text: " " + comment, seq: seq})
		default: // at the end of the line of the token before it
			prev := firstMatched(match, code-1, -1)
			if prev < 0 {
				return "", false
			}
			ins = append(ins, insertion{at: lineEnd(out, dstCode[prev].End), text: " " + comment, seq: seq})
		}
	}
	sort.SliceStable(ins, func(i, j int) bool {
		if ins[i].at != ins[j].at {
			return ins[i].at > ins[j].at
		}
		return ins[i].seq > ins[j].seq
	})
	res := out
	for _, x := range ins {
		res = res[:x.at] + x.text + res[x.at:]
	}
	// Check: the same statement, the same comments in order, and code last.
	got, err := ParseAt(res, Pos{Line: 1, Column: 1})
	if err != nil || Format(got) != Format(st) {
		return "", false
	}
	if strings.Join(commentsIn(res), "\x00") != strings.Join(commentsIn(text), "\x00") {
		return "", false
	}
	if toks := Tokenize(res); len(toks) == 0 || toks[len(toks)-1].Kind == TokComment {
		return "", false
	}
	return res, true
}

// alignTokens matches source tokens to formatted tokens: match[i] is the
// index in dst of src[i], or -1 (a longest common subsequence).
func alignTokens(src, dst []Token) []int {
	key := func(t Token) string {
		if t.Value != "" {
			return strings.ToUpper(t.Value)
		}
		return strings.ToUpper(t.Text)
	}
	a := make([]string, len(src))
	for i, t := range src {
		a[i] = key(t)
	}
	b := make([]string, len(dst))
	for j, t := range dst {
		b[j] = key(t)
	}
	n, m := len(a), len(b)
	// l[i][j] = LCS length of a[i:], b[j:]
	l := make([][]int32, n+1)
	for i := range l {
		l[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				l[i][j] = l[i+1][j+1] + 1
			} else {
				l[i][j] = max(l[i+1][j], l[i][j+1])
			}
		}
	}
	match := make([]int, n)
	for i := range match {
		match[i] = -1
	}
	for i, j := 0, 0; i < n && j < m; {
		switch {
		case a[i] == b[j]:
			match[i] = j
			i++
			j++
		case l[i+1][j] >= l[i][j+1]:
			i++
		default:
			j++
		}
	}
	return match
}

// firstMatched returns the formatted index of the first matched source
// token from i on, stepping by step (+1 forward, -1 backward); -1 if none.
func firstMatched(match []int, i, step int) int {
	for ; i >= 0 && i < len(match); i += step {
		if match[i] >= 0 {
			return match[i]
		}
	}
	return -1
}

// lineStart is the offset of the start of the line holding off.
func lineStart(s string, off int) int { return strings.LastIndexByte(s[:off], '\n') + 1 }

// lineEnd is the offset of the end (the '\n' or the end of s) of the line
// holding off.
func lineEnd(s string, off int) int {
	if i := strings.IndexByte(s[off:], '\n'); i >= 0 {
		return off + i
	}
	return len(s)
}

// sameLine reports whether no line break lies between offsets a <= b.
func sameLine(s string, a, b int) bool { return a <= b && !strings.Contains(s[a:b], "\n") }
