// Package csv implements Flink's 'csv' format: a decoder that turns RFC
// 4180 text into Arrow batches and an encoder that writes batches back as
// CSV, both configured by Flink's csv.* options.
//
// Options (keys as written in a table's WITH clause):
//
//	csv.field-delimiter          ','   one character; Java escapes are unescaped
//	                                   ('\t' written as backslash-t is a tab, '\u0001' is 0x01)
//	csv.quote-character          '"'   one character
//	csv.disable-quote-character  false quotes are ordinary characters; excludes quote-character
//	csv.allow-comments           false lines starting with '#' are skipped
//	csv.ignore-parse-errors      false a field that does not parse becomes NULL and
//	                                   a row that cannot be read at all (wrong field
//	                                   count, bad quoting, invalid UTF-8) is skipped
//	                                   and counted (SkippedRows), as Flink does
//	csv.array-element-delimiter  ';'   separates ARRAY elements and nested ROW fields
//	csv.escape-character         none  makes the next character literal (\n, \r, \t
//	                                   and \0 after it are a newline, CR, tab and NUL)
//	csv.null-literal             none  an unquoted field with exactly this text is NULL
//	                                   (any type); quoted, it is a string
//	csv.write-bigdecimal-in-scientific-notation  true  encoder: DECIMAL as Java's
//	                                   BigDecimal.stripTrailingZeros().toString()
//	                                   ("1E+5"); false writes plain digits ("100000")
//
// Riffle extensions, not in Flink:
//
//	csv.ignore-first-line        false skip the first record of every file (a header)
//	csv.invalid-utf8             fail  'fail': text that is not UTF-8 is a row error
//	                                   (as Jackson, which Flink uses, fails); 'replace':
//	                                   invalid bytes in string fields become U+FFFD
//
// Value rules (decoding), following Flink's CsvToRowDataConverters:
//
//   - Fields map to columns by position. A UTF-8 byte order mark at the
//     start of a file is skipped; a UTF-16 one is an error.
//   - Records end at LF, CRLF or a lone CR. Quoted fields may contain
//     delimiters, doubled quotes and line breaks. Blank lines are skipped.
//   - CHAR/VARCHAR/STRING take the text as is; an empty field is the empty
//     string. For every other type an empty field is NULL (Flink fails on
//     it: FLINK-32665 is unresolved; Riffle reads it as NULL so that NULLs
//     written by the encoder read back).
//   - TINYINT..BIGINT: Java parseLong after trimming spaces. FLOAT/DOUBLE:
//     Java parseDouble after trimming. DECIMAL(p,s): BigDecimal syntax,
//     rounded HALF_UP to s digits; a value with more than p digits is an
//     error (Flink would silently yield NULL). BOOLEAN: true/false in any
//     case (Flink reads every other text as false; Riffle reports it).
//   - DATE: yyyy-[M]M-[d]d (java.sql.Date.valueOf). TIME: HH:mm[:ss[.f]]
//     (java.time LocalTime); TIME(p) with p > 3 is read too (Flink's csv
//     format rejects it). TIMESTAMP: yyyy-MM-dd HH:mm:ss[.f{1,9}] with a
//     space, after trimming (the ISO 'T' is rejected, as in Flink).
//     TIMESTAMP_LTZ: the same followed by 'Z', read as UTC. Fractional
//     digits beyond the column's precision are truncated.
//   - BINARY/VARBINARY/BYTES: base64.
//   - ARRAY<T>: elements split at the array-element delimiter. ROW<...>:
//     nested fields split at the same delimiter. Arrays of arrays or rows,
//     rows in rows, MAP, MULTISET and RAW are rejected, as in Flink.
//   - INTERVAL YEAR TO MONTH: a number of months; INTERVAL DAY TO SECOND: a
//     number of milliseconds.
//
// Errors are *connector.DataError values naming the file, the physical
// line (1-based, counting line breaks inside quoted fields), the 1-based
// field position and column name, and the offending text.
package csv

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/riffle-sql/riffle/engine/connector"
)

// Identifier is the 'format' value of this format.
const Identifier = "csv"

// Option keys (without the "csv." prefix).
const (
	OptFieldDelimiter        = "field-delimiter"
	OptQuoteCharacter        = "quote-character"
	OptDisableQuoteCharacter = "disable-quote-character"
	OptAllowComments         = "allow-comments"
	OptIgnoreParseErrors     = "ignore-parse-errors"
	OptArrayElementDelimiter = "array-element-delimiter"
	OptEscapeCharacter       = "escape-character"
	OptNullLiteral           = "null-literal"
	OptWriteBigDecimalSci    = "write-bigdecimal-in-scientific-notation"
	OptIgnoreFirstLine       = "ignore-first-line"
	OptInvalidUTF8           = "invalid-utf8"
)

// Options are the parsed csv.* options.
type Options struct {
	Delimiter       byte
	Quote           byte
	QuoteEnabled    bool
	Escape          byte
	EscapeEnabled   bool
	AllowComments   bool
	IgnoreParseErrs bool
	ArrayDelimiter  byte
	NullLiteral     string
	HasNullLiteral  bool
	WriteBigDecSci  bool
	IgnoreFirstLine bool
	ReplaceBadUTF8  bool
}

// DefaultOptions are the options of a table without csv.* keys.
func DefaultOptions() Options {
	return Options{Delimiter: ',', Quote: '"', QuoteEnabled: true, ArrayDelimiter: ';', WriteBigDecSci: true}
}

// optionList declares the format's options for validation and completion.
var optionList = []connector.Option{
	{Key: OptFieldDelimiter, Default: ",", Kind: "char", Description: "Field delimiter character (',' by default); Java escapes such as '\\t' are unescaped."},
	{Key: OptDisableQuoteCharacter, Default: "false", Kind: "bool", Description: "Disable the quote character for enclosing field values; then 'csv.quote-character' cannot be set."},
	{Key: OptQuoteCharacter, Default: "\"", Kind: "char", Description: "Quote character for enclosing field values."},
	{Key: OptAllowComments, Default: "false", Kind: "bool", Description: "Ignore comment lines that start with '#'."},
	{Key: OptIgnoreParseErrors, Default: "false", Kind: "bool", Description: "Skip fields and rows with parse errors instead of failing; fields are set to null in case of errors."},
	{Key: OptArrayElementDelimiter, Default: ";", Kind: "char", Description: "Array element delimiter for separating array and row element values."},
	{Key: OptEscapeCharacter, Kind: "char", Description: "Escape character for escaping values (disabled by default)."},
	{Key: OptNullLiteral, Kind: "string", Description: "Null literal string that is interpreted as a null value (disabled by default)."},
	{Key: OptWriteBigDecimalSci, Default: "true", Kind: "bool", Description: "Write DECIMAL values in scientific notation where Java's BigDecimal.toString would (1E+5); false writes plain digits."},
	{Key: OptIgnoreFirstLine, Default: "false", Kind: "bool", Description: "Riffle extension: skip the first record of each file (a header row)."},
	{Key: OptInvalidUTF8, Default: "fail", Kind: "enum", Values: []string{"fail", "replace"}, Description: "Riffle extension: what to do with text that is not valid UTF-8: fail (a row error) or replace invalid bytes in string fields with U+FFFD."},
}

// ParseOptions validates the csv.* options (keys without the prefix) as
// Flink's CsvCommons.validateFormatOptions does and returns them parsed.
func ParseOptions(opts map[string]string) (Options, error) {
	o := DefaultOptions()
	known := map[string]bool{}
	for _, d := range optionList {
		known[d.Key] = true
	}
	for k := range opts {
		if !known[k] {
			var keys []string
			for _, d := range optionList {
				keys = append(keys, "csv."+d.Key)
			}
			return o, fmt.Errorf("unsupported option 'csv.%s' for format 'csv'; supported options are: %s", k, strings.Join(keys, ", "))
		}
	}
	var err error
	if v, ok := opts[OptFieldDelimiter]; ok {
		if o.Delimiter, err = charOption(OptFieldDelimiter, v, true); err != nil {
			return o, err
		}
	}
	if o.QuoteEnabled, err = boolOption(opts, OptDisableQuoteCharacter, false); err != nil {
		return o, err
	}
	o.QuoteEnabled = !o.QuoteEnabled
	if v, ok := opts[OptQuoteCharacter]; ok {
		if !o.QuoteEnabled {
			return o, fmt.Errorf("format cannot define a quote character and disabled quote character at the same time")
		}
		if o.Quote, err = charOption(OptQuoteCharacter, v, false); err != nil {
			return o, err
		}
	}
	if o.AllowComments, err = boolOption(opts, OptAllowComments, false); err != nil {
		return o, err
	}
	if o.IgnoreParseErrs, err = boolOption(opts, OptIgnoreParseErrors, false); err != nil {
		return o, err
	}
	if v, ok := opts[OptArrayElementDelimiter]; ok {
		if o.ArrayDelimiter, err = charOption(OptArrayElementDelimiter, v, false); err != nil {
			return o, err
		}
	}
	if v, ok := opts[OptEscapeCharacter]; ok {
		if o.Escape, err = charOption(OptEscapeCharacter, v, false); err != nil {
			return o, err
		}
		o.EscapeEnabled = true
	}
	if v, ok := opts[OptNullLiteral]; ok {
		o.NullLiteral, o.HasNullLiteral = v, true
	}
	if o.WriteBigDecSci, err = boolOption(opts, OptWriteBigDecimalSci, true); err != nil {
		return o, err
	}
	if o.IgnoreFirstLine, err = boolOption(opts, OptIgnoreFirstLine, false); err != nil {
		return o, err
	}
	switch strings.ToLower(opts[OptInvalidUTF8]) {
	case "", "fail":
	case "replace":
		o.ReplaceBadUTF8 = true
	default:
		return o, fmt.Errorf("option 'csv.%s' must be 'fail' or 'replace', but was: %s", OptInvalidUTF8, opts[OptInvalidUTF8])
	}
	if o.QuoteEnabled && o.Quote == o.Delimiter {
		return o, fmt.Errorf("options 'csv.%s' and 'csv.%s' must differ", OptFieldDelimiter, OptQuoteCharacter)
	}
	switch o.Delimiter {
	case '\n', '\r':
		return o, fmt.Errorf("option 'csv.%s' cannot be a line break", OptFieldDelimiter)
	}
	return o, nil
}

func boolOption(opts map[string]string, key string, def bool) (bool, error) {
	v, ok := opts[key]
	if !ok {
		return def, nil
	}
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, fmt.Errorf("unrecognized option for boolean: %s. Expected either true or false(case insensitive) for option 'csv.%s'", v, key)
}

// charOption checks that an option is a single character (after Java
// unescaping for the field delimiter, as Flink does). Riffle supports
// single-byte (ASCII) characters only.
func charOption(key, v string, unescape bool) (byte, error) {
	s := v
	if unescape {
		u, err := UnescapeJava(v)
		if err != nil {
			return 0, fmt.Errorf("option 'csv.%s': %v", key, err)
		}
		s = u
	}
	if utf8.RuneCountInString(s) != 1 {
		return 0, fmt.Errorf("option 'csv.%s' must be a string with single character, but was: %s", key, v)
	}
	if len(s) != 1 {
		return 0, fmt.Errorf("option 'csv.%s' is %q: Riffle supports only single-byte (ASCII) characters here", key, s)
	}
	return s[0], nil
}

// UnescapeJava resolves Java string escapes (\t, \n, \r, \b, \f, \\, \',
// \", octal \0..\377 and \uXXXX) as Apache Commons' unescapeJava, which
// Flink applies to csv.field-delimiter.
func UnescapeJava(s string) (string, error) {
	if !strings.Contains(s, `\`) {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch s[i] {
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case '\\', '\'', '"':
			b.WriteByte(s[i])
		case 'u':
			j := i + 1
			for j < len(s) && s[j] == 'u' {
				j++
			}
			if j+4 > len(s) {
				return "", fmt.Errorf("unable to parse unicode value: %s", s[i:])
			}
			r, err := strconv.ParseUint(s[j:j+4], 16, 32)
			if err != nil {
				return "", fmt.Errorf("unable to parse unicode value: %s", s[j:j+4])
			}
			b.WriteRune(rune(r))
			i = j + 3
		default:
			if s[i] >= '0' && s[i] <= '7' {
				j := i
				v := 0
				for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' && v*8+int(s[j]-'0') <= 0377 {
					v = v*8 + int(s[j]-'0')
					j++
				}
				b.WriteRune(rune(v))
				i = j - 1
			} else {
				b.WriteByte(s[i])
			}
		}
	}
	return b.String(), nil
}

// FieldWriter returns the writer of fields these options describe:
// field-delimiter, quote-character (none with disable-quote-character),
// escape-character, and the format's rule that a field starting with '#'
// is quoted. NULL is written by the Encoder (null-literal, or nothing).
func (o Options) FieldWriter() FieldWriter {
	fw := FieldWriter{Delimiter: string([]byte{o.Delimiter}), QuoteLeadingHash: true}
	if o.QuoteEnabled {
		fw.Quote = string([]byte{o.Quote})
	}
	if o.EscapeEnabled {
		fw.Escape = string([]byte{o.Escape})
	}
	return fw
}
