package csv

import (
	"encoding/binary"
	"math/bits"
)

// Word-at-a-time helpers for the tokenizer: eight input bytes are tested
// at once with the carry-free zero-byte test (no false positives), which
// lets the scanner step over the common unquoted field in one or two
// word loads instead of one table lookup per byte.

const (
	lowSevenBits = 0x7F7F7F7F7F7F7F7F
	highBits     = 0x8080808080808080
	wordNewline  = 0x0A0A0A0A0A0A0A0A
	wordReturn   = 0x0D0D0D0D0D0D0D0D
)

// everyByte returns c repeated in the eight bytes of a word.
func everyByte(c byte) uint64 { return uint64(c) * 0x0101010101010101 }

// zeroBytes returns a word with 0x80 in each byte position where x holds
// a zero byte, and 0 elsewhere (exact: no false positives from carries).
func zeroBytes(x uint64) uint64 { return ^(((x & lowSevenBits) + lowSevenBits) | x | lowSevenBits) }

// nonZeroBytes returns a word whose byte has its high bit set where x's
// byte is not zero (its low seven bits are noise): highBits &^ the AND of
// several is the OR of their zeroBytes, in fewer operations.
func nonZeroBytes(x uint64) uint64 { return ((x & lowSevenBits) + lowSevenBits) | x }

// skipPlain returns the offset of the first byte at or after i in buf that
// ends an unquoted field (the delimiter, '\n', '\r' or, when escaping is
// on, the escape character), or len(buf).
func (r *Reader) skipPlain(buf []byte, i int) int {
	delim, esc := r.wordDelim, r.wordEsc
	for i+8 <= len(buf) {
		w := binary.LittleEndian.Uint64(buf[i:])
		m := zeroBytes(w^delim) | zeroBytes(w^wordNewline) | zeroBytes(w^wordReturn) | zeroBytes(w^esc)
		if m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
		i += 8
	}
	for i < len(buf) && !r.special[buf[i]] {
		i++
	}
	return i
}

// asciiPrefix returns the end of the run of ASCII bytes in b that starts
// at from: b[from:end] holds no byte ≥ 0x80.
func asciiPrefix(b []byte, from int) int {
	i := from
	for i+8 <= len(b) {
		if binary.LittleEndian.Uint64(b[i:])&highBits != 0 {
			break
		}
		i += 8
	}
	for i < len(b) && b[i] < 0x80 {
		i++
	}
	return i
}

// scanWords tokenizes the record starting at buf[start] (physical line
// line) when it is a plain one: no quote character, no escape character
// and no '\r' before its terminating '\n', which lies at least eight bytes
// before the end of buf. It records the field boundaries in r.bounds
// (refsFromBounds turns them into refs) and whether the words it read
// were all ASCII (recASCII) and returns true; otherwise it
// changes nothing and returns false, and the byte-wise scanner takes the
// record (it also handles the end of the buffer).
//
// Each eight-byte word is tested once for delimiters and once for the
// bytes that end the fast path; the delimiters before the first such byte
// are the field boundaries.
func (r *Reader) scanWords(buf []byte, start int, line int64) bool {
	if len(buf) >= maxSpanBuf {
		return false // the bounds are int32
	}
	delim, quote, esc := r.wordDelim, r.wordQuote, r.wordStopEsc
	// with escaping off esc is the newline, already tested
	testEsc := esc != wordNewline
	bounds := r.bounds
	nb := len(bounds) - 1 // fields recorded
	nf := 0
	var all uint64 // the OR of the words read
	for i := start; i+8 <= len(buf); i += 8 {
		w := binary.LittleEndian.Uint64(buf[i:])
		all |= w
		md := zeroBytes(w ^ delim)
		other := nonZeroBytes(w^wordNewline) & nonZeroBytes(w^wordReturn) & nonZeroBytes(w^quote)
		if testEsc {
			other &= nonZeroBytes(w ^ esc)
		}
		stop := highBits &^ other
		if stop != 0 {
			first := bits.TrailingZeros64(stop)
			end := i + first>>3
			if buf[end] != '\n' {
				return false
			}
			md &= 1<<first - 1
			for md != 0 {
				if nf < nb {
					bounds[nf+1] = int32(i + bits.TrailingZeros64(md)>>3)
				}
				nf++
				md &= md - 1
			}
			if nf < nb {
				bounds[nf+1] = int32(end)
			}
			nf++
			bounds[0] = int32(start - 1)
			r.recASCII = all&highBits == 0
			r.scratch = r.scratch[:0]
			r.recLine = line
			r.nfields = nf
			r.recStartOff = start
			r.recEnd = end + 1
			r.pos, r.line = end+1, line+1
			return true
		}
		for md != 0 {
			if nf < nb {
				bounds[nf+1] = int32(i + bits.TrailingZeros64(md)>>3)
			}
			nf++
			md &= md - 1
		}
	}
	return false
}

// refsFromBounds records the wanted fields of the record scanWords just
// tokenized in refs, as the byte-wise scanner does.
func (r *Reader) refsFromBounds() {
	n := min(r.nfields, len(r.bounds)-1)
	for f := 0; f < n; f++ {
		if r.wanted[f] {
			r.refs[f] = fieldRef{start: int(r.bounds[f]) + 1, end: int(r.bounds[f+1]), line: r.recLine}
		}
	}
}
