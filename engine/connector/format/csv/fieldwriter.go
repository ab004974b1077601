package csv

import "unicode/utf8"

// FieldWriter writes the fields of a CSV record as text: it decides which
// fields are quoted, doubles quote (and escape) characters inside quoted
// fields, escapes fields when quoting is disabled, and writes NULL. It is
// Riffle's one CSV field writer: the csv format's Encoder (Flink's csv
// format options), the workbench's CSV export (engine/results) and
// `riffle sql --format csv` (sqlclient) each configure one and differ only
// in that configuration.
//
// Delimiter, Quote and Escape are the bytes of one character each (a
// single byte for the csv format, whose options are bytes; the UTF-8
// encoding of a rune for the export). A FieldWriter is not modified by its
// methods and is safe for concurrent use once configured.
type FieldWriter struct {
	// Delimiter separates fields (not written by the Append methods; the
	// caller writes it between fields). Required.
	Delimiter string
	// Quote encloses quoted fields; "" disables quoting (the format's
	// csv.disable-quote-character), fields that need it are then escaped
	// with Escape, or written as they are when Escape is "" too.
	Quote string
	// Escape, when not "", is doubled inside quoted fields and, with
	// quoting disabled, written before a delimiter, an escape character
	// or a line break (CR as Escape "r", LF as Escape "n").
	Escape string
	// NullText is how a NULL is written (AppendNull).
	NullText string
	// QuoteEdgeSpaces quotes a field that starts or ends with a space
	// (riffle sql's --format csv, so readers that trim keep the spaces).
	QuoteEdgeSpaces bool
	// QuoteLeadingHash quotes a field that starts with '#' when quoting is
	// enabled (the csv format, so that csv.allow-comments readers do not
	// skip the line).
	QuoteLeadingHash bool
	// ReplaceInvalidUTF8 writes each byte of a value that is not part of a
	// valid UTF-8 sequence as U+FFFD, so the output is valid UTF-8 (the
	// export and riffle sql; the csv format writes bytes as they are).
	ReplaceInvalidUTF8 bool
}

// NeedsQuotes reports whether val must be quoted (or, with quoting
// disabled, escaped) to be read back as one field: it contains the
// delimiter, the quote or escape character, CR or LF, or it has a leading
// '#' or edge spaces when the writer says so. The empty value and a value
// equal to NullText are the caller's decision (see AppendField's force).
func (w *FieldWriter) NeedsQuotes(val []byte) bool {
	if len(val) == 0 {
		return false
	}
	if w.Quote != "" && (w.QuoteLeadingHash && val[0] == '#') {
		return true
	}
	if w.QuoteEdgeSpaces && (val[0] == ' ' || val[len(val)-1] == ' ') {
		return true
	}
	// q0 and e0 are '\n' when there is no quote or escape character, so
	// that the first test below stays one comparison per candidate
	d0, q0, e0 := w.Delimiter[0], byte('\n'), byte('\n')
	if w.Quote != "" {
		q0 = w.Quote[0]
	}
	if w.Escape != "" {
		e0 = w.Escape[0]
	}
	for i, c := range val {
		if c != '\n' && c != '\r' && c != d0 && c != q0 && c != e0 {
			continue
		}
		switch {
		case c == '\n' || c == '\r':
			return true
		case c == d0 && hasPrefixAt(val, i, w.Delimiter):
			return true
		case w.Quote != "" && c == q0 && hasPrefixAt(val, i, w.Quote):
			return true
		case w.Escape != "" && c == e0 && hasPrefixAt(val, i, w.Escape):
			return true
		}
	}
	return false
}

// hasPrefixAt reports whether s occurs in val at i (s[0] == val[i] known).
func hasPrefixAt(val []byte, i int, s string) bool {
	return len(s) == 1 || len(val)-i >= len(s) && string(val[i:i+len(s)]) == s
}

// AppendField appends val as one field (without delimiter): quoted when
// force is set or NeedsQuotes says so, as it is otherwise. With quoting
// disabled a field that needs quotes is escaped instead (or written as it
// is when there is no escape character either), and force has no effect.
// With ReplaceInvalidUTF8 invalid bytes become U+FFFD first.
func (w *FieldWriter) AppendField(dst, val []byte, force bool) []byte {
	if w.ReplaceInvalidUTF8 && !utf8.Valid(val) {
		return w.AppendField(dst, AppendValidUTF8(nil, val), force)
	}
	if !force && !w.NeedsQuotes(val) {
		return append(dst, val...)
	}
	if w.Quote == "" {
		if w.Escape == "" {
			return append(dst, val...)
		}
		return w.appendEscaped(dst, val)
	}
	return w.AppendQuoted(dst, val)
}

// AppendQuoted appends val enclosed in quote characters, each quote
// character inside doubled (and each escape character doubled when there
// is one). Quoting must be enabled.
func (w *FieldWriter) AppendQuoted(dst, val []byte) []byte {
	dst = append(dst, w.Quote...)
	q0 := w.Quote[0]
	var e0 byte
	if w.Escape != "" {
		e0 = w.Escape[0]
	}
	for i := 0; i < len(val); {
		c := val[i]
		switch {
		case c == q0 && hasPrefixAt(val, i, w.Quote):
			dst = append(append(dst, w.Quote...), w.Quote...)
			i += len(w.Quote)
		case w.Escape != "" && c == e0 && hasPrefixAt(val, i, w.Escape):
			dst = append(append(dst, w.Escape...), w.Escape...)
			i += len(w.Escape)
		default:
			dst = append(dst, c)
			i++
		}
	}
	return append(dst, w.Quote...)
}

// appendEscaped writes val with the escape character before each
// delimiter, escape character and line break (CR as "r", LF as "n").
func (w *FieldWriter) appendEscaped(dst, val []byte) []byte {
	d0, e0 := w.Delimiter[0], w.Escape[0]
	for i := 0; i < len(val); {
		c := val[i]
		switch {
		case c == '\n':
			dst = append(append(dst, w.Escape...), 'n')
			i++
		case c == '\r':
			dst = append(append(dst, w.Escape...), 'r')
			i++
		case c == d0 && hasPrefixAt(val, i, w.Delimiter):
			dst = append(append(dst, w.Escape...), w.Delimiter...)
			i += len(w.Delimiter)
		case c == e0 && hasPrefixAt(val, i, w.Escape):
			dst = append(append(dst, w.Escape...), w.Escape...)
			i += len(w.Escape)
		default:
			dst = append(dst, c)
			i++
		}
	}
	return dst
}

// AppendNull appends NULL: NullText, quoted when quoted is set (the
// export's 'all' quote policy) and quoting is enabled.
func (w *FieldWriter) AppendNull(dst []byte, quoted bool) []byte {
	if quoted && w.Quote != "" {
		return w.AppendQuoted(dst, []byte(w.NullText))
	}
	return append(dst, w.NullText...)
}

// AppendRecord appends one record (without the line end): the fields
// joined by the delimiter, nulls[i] (when nulls is not nil) writing field
// i as NULL, and an empty value quoted when emptyQuoted is set, to tell it
// from a NULL written as an empty field.
func (w *FieldWriter) AppendRecord(dst []byte, fields [][]byte, nulls []bool, emptyQuoted bool) []byte {
	for i, f := range fields {
		if i > 0 {
			dst = append(dst, w.Delimiter...)
		}
		if nulls != nil && nulls[i] {
			dst = w.AppendNull(dst, false)
			continue
		}
		dst = w.AppendField(dst, f, emptyQuoted && len(f) == 0)
	}
	return dst
}

// AppendValidUTF8 appends val with each byte that is not part of a valid
// UTF-8 sequence replaced by U+FFFD (one per byte, as the json format
// writes \ufffd).
func AppendValidUTF8(dst, val []byte) []byte {
	for i := 0; i < len(val); {
		r, n := utf8.DecodeRune(val[i:])
		if r == utf8.RuneError && n == 1 {
			dst = utf8.AppendRune(dst, utf8.RuneError)
		} else {
			dst = append(dst, val[i:i+n]...)
		}
		i += n
	}
	return dst
}
