package table

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/types"
)

// ---------------------------------------------------------------- math

// Abs is the absolute value (PyFlink's abs).
func (e Expression) Abs() Expression { return e.method("ABS") }

// Exp is e raised to the power of the receiver (PyFlink's exp).
func (e Expression) Exp() Expression { return e.method("EXP") }

// Sqrt is the square root (PyFlink's sqrt).
func (e Expression) Sqrt() Expression { return e.method("SQRT") }

// Ln is the natural logarithm (PyFlink's ln).
func (e Expression) Ln() Expression { return e.method("LN") }

// Log10 is the base-10 logarithm (PyFlink's log10).
func (e Expression) Log10() Expression { return e.method("LOG10") }

// Log2 is the base-2 logarithm (PyFlink's log2).
func (e Expression) Log2() Expression { return e.method("LOG2") }

// Log is the natural logarithm, or the logarithm to base when one is
// given (PyFlink's log(base=None)).
func (e Expression) Log(base ...any) Expression {
	if len(base) > 0 {
		return call("LOG", base[0], e)
	}
	return e.method("LOG")
}

// Sign is the signum, keeping a DECIMAL's scale: Lit(types.MustDecimal("1.23")).Sign()
// is 1.00 (PyFlink's sign).
func (e Expression) Sign() Expression { return e.method("SIGN") }

// Degrees converts radians to degrees (PyFlink's degrees).
func (e Expression) Degrees() Expression { return e.method("DEGREES") }

// Radians converts degrees to radians (PyFlink's radians).
func (e Expression) Radians() Expression { return e.method("RADIANS") }

// Sin is the sine (PyFlink's sin).
func (e Expression) Sin() Expression { return e.method("SIN") }

// Cos is the cosine (PyFlink's cos).
func (e Expression) Cos() Expression { return e.method("COS") }

// Tan is the tangent (PyFlink's tan).
func (e Expression) Tan() Expression { return e.method("TAN") }

// Cot is the cotangent (PyFlink's cot).
func (e Expression) Cot() Expression { return e.method("COT") }

// Asin is the arc sine (PyFlink's asin).
func (e Expression) Asin() Expression { return e.method("ASIN") }

// Acos is the arc cosine (PyFlink's acos).
func (e Expression) Acos() Expression { return e.method("ACOS") }

// Atan is the arc tangent (PyFlink's atan).
func (e Expression) Atan() Expression { return e.method("ATAN") }

// Sinh is the hyperbolic sine (PyFlink's sinh).
func (e Expression) Sinh() Expression { return e.method("SINH") }

// Cosh is the hyperbolic cosine (PyFlink's cosh).
func (e Expression) Cosh() Expression { return e.method("COSH") }

// Tanh is the hyperbolic tangent (PyFlink's tanh).
func (e Expression) Tanh() Expression { return e.method("TANH") }

// Round rounds to places decimal places, half away from zero; negative
// places round left of the decimal point (PyFlink's round):
// 646.646 rounds to 646.65 (2), 647 (0), 600 (-2).
func (e Expression) Round(places any) Expression { return e.method("ROUND", places) }

// Truncate cuts to n decimal places (default 0) without rounding; n may
// be negative (PyFlink's truncate): 42.345 truncated to 2 is 42.34.
func (e Expression) Truncate(n ...any) Expression {
	if len(n) > 0 {
		return e.method("TRUNCATE", n[0])
	}
	return e.method("TRUNCATE")
}

// Ceil rounds a number up, or a time point up to a unit when one is given
// (PyFlink's ceil(time_interval_unit=None)).
func (e Expression) Ceil(unit ...TimeIntervalUnit) Expression {
	if len(unit) > 0 {
		return callSyntax("CEIL", sql.SyntaxFloorCeil, e, symbolExpr(unit[0].sqlUnit()))
	}
	return e.method("CEIL")
}

// Floor rounds a number down, or a time point down to a unit when one is
// given (PyFlink's floor(time_interval_unit=None)).
func (e Expression) Floor(unit ...TimeIntervalUnit) Expression {
	if len(unit) > 0 {
		return callSyntax("FLOOR", sql.SyntaxFloorCeil, e, symbolExpr(unit[0].sqlUnit()))
	}
	return e.method("FLOOR")
}

// Bin is the binary string of an integer: 4 gives "100"; NULL gives NULL
// (PyFlink's bin).
func (e Expression) Bin() Expression { return e.method("BIN") }

// Hex is the hexadecimal string of an integer or a string's bytes: 20
// gives "14", "hello,world" gives "68656c6c6f2c776f726c64" (PyFlink's hex).
func (e Expression) Hex() Expression { return e.method("HEX") }

// ---------------------------------------------------------------- strings

// CharLength is the number of characters (PyFlink's char_length).
func (e Expression) CharLength() Expression { return e.method("CHAR_LENGTH") }

// UpperCase converts to upper case (PyFlink's upper_case).
func (e Expression) UpperCase() Expression { return e.method("UPPER") }

// LowerCase converts to lower case (PyFlink's lower_case).
func (e Expression) LowerCase() Expression { return e.method("LOWER") }

// InitCap upper-cases the first letter of each word; words are runs of
// [A-Za-z0-9] (PyFlink's init_cap).
func (e Expression) InitCap() Expression { return e.method("INITCAP") }

// Like is e LIKE pattern with _ and % wildcards (PyFlink's like).
func (e Expression) Like(pattern any) Expression {
	return derive(func(n []sql.Expr) sql.Expr { return &sql.LikeExpr{X: n[0], Op: "LIKE", Pattern: n[1]} }, e, pattern)
}

// Similar is e SIMILAR TO pattern, a SQL regular expression (PyFlink's
// similar).
func (e Expression) Similar(pattern any) Expression {
	return derive(func(n []sql.Expr) sql.Expr { return &sql.LikeExpr{X: n[0], Op: "SIMILAR TO", Pattern: n[1]} }, e, pattern)
}

// Position is the 1-based position of e in haystack, 0 when absent
// (PyFlink's position): Lit("a").Position("bbbbba") is 6.
func (e Expression) Position(haystack any) Expression {
	return callSyntax("POSITION", sql.SyntaxPosition, e, haystack)
}

// Lpad left-pads to length characters with pad, truncating a longer
// string to length (PyFlink's lpad): "hi" to 4 with "??" is "??hi", to 1
// is "h".
func (e Expression) Lpad(length, pad any) Expression { return e.method("LPAD", length, pad) }

// Rpad right-pads to length characters with pad, truncating a longer
// string (PyFlink's rpad).
func (e Expression) Rpad(length, pad any) Expression { return e.method("RPAD", length, pad) }

// Overlay replaces the characters from the 1-based position starting with
// newString, over length characters (default: the length of newString)
// (PyFlink's overlay).
func (e Expression) Overlay(newString, starting any, length ...any) Expression {
	if len(length) > 0 {
		return callSyntax("OVERLAY", sql.SyntaxOverlay, e, newString, starting, length[0])
	}
	return callSyntax("OVERLAY", sql.SyntaxOverlay, e, newString, starting)
}

// RegexpReplace replaces every match of regex with replacement (PyFlink's
// regexp_replace).
func (e Expression) RegexpReplace(regex, replacement any) Expression {
	return e.method("REGEXP_REPLACE", regex, replacement)
}

// RegexpExtract returns a group of the first match of regex: the group
// at extractIndex (0 is the whole match), or, without one, SQL
// REGEXP_EXTRACT's default (PyFlink's regexp_extract).
func (e Expression) RegexpExtract(regex any, extractIndex ...any) Expression {
	if len(extractIndex) > 0 {
		return e.method("REGEXP_EXTRACT", regex, extractIndex[0])
	}
	return e.method("REGEXP_EXTRACT", regex)
}

// Substring returns length characters (default: to the end) from the
// 1-based beginIndex (PyFlink's substring).
func (e Expression) Substring(beginIndex any, length ...any) Expression {
	if len(length) > 0 {
		return e.method("SUBSTRING", beginIndex, length[0])
	}
	return e.method("SUBSTRING", beginIndex)
}

// Replace replaces every non-overlapping occurrence of search (PyFlink's
// replace).
func (e Expression) Replace(search, replacement any) Expression {
	return e.method("REPLACE", search, replacement)
}

// Trim removes leading and trailing spaces, or the given character
// (PyFlink's trim).
func (e Expression) Trim(character ...any) Expression { return e.trim("BOTH", character) }

// TrimLeading removes leading spaces or the given character (PyFlink's
// trim_leading).
func (e Expression) TrimLeading(character ...any) Expression { return e.trim("LEADING", character) }

// TrimTrailing removes trailing spaces or the given character (PyFlink's
// trim_trailing).
func (e Expression) TrimTrailing(character ...any) Expression { return e.trim("TRAILING", character) }

func (e Expression) trim(side string, character []any) Expression {
	var c any = " "
	if len(character) > 0 {
		c = character[0]
	}
	return callSyntax("TRIM", sql.SyntaxTrim, symbolExpr(side), c, e)
}

// Ltrim removes leading whitespace (PyFlink's ltrim).
func (e Expression) Ltrim() Expression { return e.method("LTRIM") }

// Rtrim removes trailing whitespace (PyFlink's rtrim).
func (e Expression) Rtrim() Expression { return e.method("RTRIM") }

// Repeat repeats the string n times (PyFlink's repeat).
func (e Expression) Repeat(n any) Expression { return e.method("REPEAT", n) }

// FromBase64 decodes a base64 string (PyFlink's from_base64).
func (e Expression) FromBase64() Expression { return e.method("FROM_BASE64") }

// ToBase64 encodes a string as base64 (PyFlink's to_base64).
func (e Expression) ToBase64() Expression { return e.method("TO_BASE64") }

// ---------------------------------------------------------------- hashes

// Md5 is the MD5 hash as 32 hex digits; NULL gives NULL (PyFlink's md5).
func (e Expression) Md5() Expression { return e.method("MD5") }

// Sha1 is the SHA-1 hash as 40 hex digits (PyFlink's sha1).
func (e Expression) Sha1() Expression { return e.method("SHA1") }

// Sha224 is the SHA-224 hash as 56 hex digits (PyFlink's sha224).
func (e Expression) Sha224() Expression { return e.method("SHA224") }

// Sha256 is the SHA-256 hash as 64 hex digits (PyFlink's sha256).
func (e Expression) Sha256() Expression { return e.method("SHA256") }

// Sha384 is the SHA-384 hash as 96 hex digits (PyFlink's sha384).
func (e Expression) Sha384() Expression { return e.method("SHA384") }

// Sha512 is the SHA-512 hash as 128 hex digits (PyFlink's sha512).
func (e Expression) Sha512() Expression { return e.method("SHA512") }

// Sha2 is the SHA-2 hash of hashLength bits (224, 256, 384 or 512); NULL
// if an argument is NULL (PyFlink's sha2).
func (e Expression) Sha2(hashLength any) Expression { return e.method("SHA2", hashLength) }

// ---------------------------------------------------------------- temporal

// ToDate parses "yyyy-MM-dd" into a DATE: CAST(e AS DATE) (PyFlink's
// to_date).
func (e Expression) ToDate() Expression { return e.Cast(types.DateType()) }

// ToTime parses "HH:mm:ss" into a TIME: CAST(e AS TIME) (PyFlink's
// to_time).
func (e Expression) ToTime() Expression { return e.Cast(types.TimeType(0)) }

// ToTimestamp parses "yyyy-MM-dd HH:mm:ss[.SSS]" into a TIMESTAMP(3):
// CAST(e AS TIMESTAMP(3)) (PyFlink's to_timestamp).
func (e Expression) ToTimestamp() Expression { return e.Cast(types.TimestampType(3)) }

// Extract returns a part of a time point or interval as a BIGINT
// (PyFlink's extract): Lit("2006-06-05").ToDate().Extract(TimeIntervalUnitDay) is 5.
func (e Expression) Extract(unit TimeIntervalUnit) Expression {
	return callSyntax("EXTRACT", sql.SyntaxExtract, symbolExpr(unit.sqlUnit()), e)
}

// interval turns a number into an interval of unit (PyFlink's
// lit(10).minutes and friends): a literal integer becomes an interval
// literal, anything else e * INTERVAL '1' unit.
func (e Expression) interval(unit string, scale int64) Expression {
	if err := e.Err(); err != nil {
		return failed(err)
	}
	n, neg := e.x.node, false
	if u, ok := n.(*sql.UnaryExpr); ok && u.Op == "-" {
		n, neg = u.X, true
	}
	if c, ok := n.(*sql.CastExpr); ok {
		n = c.X
	}
	if u, ok := n.(*sql.UnaryExpr); ok && u.Op == "-" && !neg {
		n, neg = u.X, true
	}
	if num, ok := n.(*sql.NumberLit); ok && num.Kind == sql.NumInteger && e.x.kind == kindPlain {
		v, err := strconv.ParseInt(num.Text, 10, 64)
		if err == nil {
			v *= scale
			q := &sql.IntervalQualifier{StartUnit: unit, StartPrecision: -1, FracPrecision: -1}
			switch unit {
			case "MONTH", "YEAR":
				q.StartPrecision = min(digitsPrecision(v, 2), 4)
				if unit == "MONTH" {
					q.StartPrecision = digitsPrecision(v, 2)
				}
			case "DAY", "HOUR", "MINUTE", "SECOND":
				q.StartPrecision = digitsPrecision(v, 2)
				if q.StartPrecision > 3 {
					// beyond a literal Flink accepts: see sql.DayTimeInterval
					unitMs := map[string]int64{"DAY": 86_400_000, "HOUR": 3_600_000, "MINUTE": 60_000, "SECOND": 1000}[unit]
					if v > MaxIntervalMillis/unitMs {
						return failedf("%d %s is beyond the ±%d days an INTERVAL DAY TO SECOND holds in Riffle", v, unit, MaxIntervalMillis/86_400_000)
					}
					return Expression{&exprData{node: sql.DayTimeInterval(int64(sign(neg)) * v * unitMs), deps: e.x.deps}}
				}
			case "MILLISECOND":
				return Expression{&exprData{node: durationLit(time.Duration(v) * time.Millisecond * sign(neg)), deps: e.x.deps}}
			}
			return Expression{&exprData{node: &sql.IntervalLit{Negative: neg, Value: strconv.FormatInt(v, 10), Qualifier: q}, deps: e.x.deps}}
		}
	}
	one := &sql.IntervalLit{Value: strconv.FormatInt(scale, 10), Qualifier: &sql.IntervalQualifier{StartUnit: unit, StartPrecision: -1, FracPrecision: -1}}
	if unit == "MILLISECOND" {
		one = durationLit(time.Duration(scale) * time.Millisecond).(*sql.IntervalLit)
	}
	return binary("*", plain(one), e)
}

// MaxIntervalMillis is the largest INTERVAL DAY TO SECOND, in
// milliseconds, that Riffle holds (a Go time.Duration: ±106,751 days).
const MaxIntervalMillis = math.MaxInt64 / int64(time.Millisecond)

func sign(neg bool) time.Duration {
	if neg {
		return -1
	}
	return 1
}

// Year is an interval of e years (PyFlink's year).
func (e Expression) Year() Expression { return e.interval("YEAR", 1) }

// Years is Year (PyFlink's years).
func (e Expression) Years() Expression { return e.Year() }

// Quarter is an interval of e quarters, 3 months each (PyFlink's quarter).
func (e Expression) Quarter() Expression { return e.interval("MONTH", 3) }

// Quarters is Quarter (PyFlink's quarters).
func (e Expression) Quarters() Expression { return e.Quarter() }

// Month is an interval of e months (PyFlink's month).
func (e Expression) Month() Expression { return e.interval("MONTH", 1) }

// Months is Month (PyFlink's months).
func (e Expression) Months() Expression { return e.Month() }

// Week is an interval of e weeks, 7 days each (PyFlink's week).
func (e Expression) Week() Expression { return e.interval("DAY", 7) }

// Weeks is Week (PyFlink's weeks).
func (e Expression) Weeks() Expression { return e.Week() }

// Day is an interval of e days (PyFlink's day).
func (e Expression) Day() Expression { return e.interval("DAY", 1) }

// Days is Day (PyFlink's days).
func (e Expression) Days() Expression { return e.Day() }

// Hour is an interval of e hours (PyFlink's hour).
func (e Expression) Hour() Expression { return e.interval("HOUR", 1) }

// Hours is Hour (PyFlink's hours).
func (e Expression) Hours() Expression { return e.Hour() }

// Minute is an interval of e minutes (PyFlink's minute).
func (e Expression) Minute() Expression { return e.interval("MINUTE", 1) }

// Minutes is Minute (PyFlink's minutes).
func (e Expression) Minutes() Expression { return e.Minute() }

// Second is an interval of e seconds (PyFlink's second).
func (e Expression) Second() Expression { return e.interval("SECOND", 1) }

// Seconds is Second (PyFlink's seconds).
func (e Expression) Seconds() Expression { return e.Second() }

// Milli is an interval of e milliseconds (PyFlink's milli).
func (e Expression) Milli() Expression { return e.interval("MILLISECOND", 1) }

// Millis is Milli (PyFlink's millis).
func (e Expression) Millis() Expression { return e.Milli() }

// ---------------------------------------------------------------- time attributes and window properties

// Rowtime declares the column as the event-time attribute in a DataStream
// field mapping, or, on a group window alias, is the window's rowtime (its
// end minus 1 ms, usable as the rowtime of a following window) (PyFlink's
// rowtime).
func (e Expression) Rowtime() Expression { return e.timeAttr("rowtime") }

// Proctime declares a processing-time attribute in a DataStream field
// mapping, or, on a group window alias, is the window's proctime
// (PyFlink's proctime).
func (e Expression) Proctime() Expression { return e.timeAttr("proctime") }

func (e Expression) timeAttr(p string) Expression {
	if err := e.Err(); err != nil {
		return failed(err)
	}
	return Expression{&exprData{kind: kindTimeAttr, prop: p, args: []Expression{e}, deps: e.x.deps,
		node: &sql.FuncCall{Name: objName("$" + strings.ToUpper(p)), Args: []sql.Expr{e.x.node}}}}
}

// Start is the inclusive start of a group window, on the window's alias:
// Col("w").Start() (PyFlink's start).
func (e Expression) Start() Expression { return e.windowProp("start") }

// End is the exclusive end of a group window (PyFlink's end): a window
// whose last instant is 10:59:59.999 ends at 11:00:00.000.
func (e Expression) End() Expression { return e.windowProp("end") }

func (e Expression) windowProp(p string) Expression {
	if err := e.Err(); err != nil {
		return failed(err)
	}
	return Expression{&exprData{kind: kindWindowProp, prop: p, args: []Expression{e}, deps: e.x.deps,
		node: &sql.FuncCall{Name: objName("$" + strings.ToUpper(p)), Args: []sql.Expr{e.x.node}}}}
}

// ---------------------------------------------------------------- aggregates

// Sum is SUM(e): NULL when all inputs are NULL (PyFlink's sum).
func (e Expression) Sum() Expression { return e.method("SUM") }

// Sum0 is SUM0(e): 0 when all inputs are NULL (PyFlink's sum0).
func (e Expression) Sum0() Expression { return e.method("SUM0") }

// Min is MIN(e) (PyFlink's min).
func (e Expression) Min() Expression { return e.method("MIN") }

// Max is MAX(e) (PyFlink's max).
func (e Expression) Max() Expression { return e.method("MAX") }

// Count is COUNT(e), the number of non-NULL values (PyFlink's count).
func (e Expression) Count() Expression { return e.method("COUNT") }

// Avg is AVG(e), the arithmetic mean (PyFlink's avg).
func (e Expression) Avg() Expression { return e.method("AVG") }

// StddevPop is the population standard deviation (PyFlink's stddev_pop).
func (e Expression) StddevPop() Expression { return e.method("STDDEV_POP") }

// StddevSamp is the sample standard deviation (PyFlink's stddev_samp).
func (e Expression) StddevSamp() Expression { return e.method("STDDEV_SAMP") }

// VarPop is the population variance (PyFlink's var_pop).
func (e Expression) VarPop() Expression { return e.method("VAR_POP") }

// VarSamp is the sample variance (PyFlink's var_samp).
func (e Expression) VarSamp() Expression { return e.method("VAR_SAMP") }

// Collect gathers the values into a MULTISET (PyFlink's collect).
func (e Expression) Collect() Expression { return e.method("COLLECT") }

// Distinct makes an aggregate call distinct: Col("b").Sum().Distinct() is
// SUM(DISTINCT b) (PyFlink's distinct).
func (e Expression) Distinct() Expression {
	if err := e.Err(); err != nil {
		return failed(err)
	}
	f, ok := e.x.node.(*sql.FuncCall)
	if !ok || e.x.kind != kindPlain || f.Over != nil {
		return failedf("Distinct applies to an aggregate function call, not to %s", e)
	}
	cp := *f
	cp.Quantifier = "DISTINCT"
	return Expression{&exprData{node: &cp, deps: e.x.deps}}
}

// Over applies an aggregate to an over window defined with OverWindow:
// Col("b").Count().Over(Col("ow")) (PyFlink's over).
func (e Expression) Over(alias any) Expression {
	if err := e.Err(); err != nil {
		return failed(err)
	}
	var name string
	switch a := alias.(type) {
	case string:
		name = a
	case Expression:
		if a.Err() != nil {
			return failedf("Over: the window must be referenced by its alias, e.g. Col(\"w\"): %v", a.Err())
		}
		id, ok := a.x.node.(*sql.Identifier)
		if !ok || len(id.Parts) != 1 {
			return failedf("Over: the window must be referenced by its alias, e.g. Col(\"w\")")
		}
		name = id.Parts[0].Name
	default:
		return failedf("Over: the window must be referenced by its alias, got %T", alias)
	}
	f, ok := e.x.node.(*sql.FuncCall)
	if !ok || e.x.kind != kindPlain {
		return failedf("Over applies to an aggregate function call, not to %s", e)
	}
	cp := *f
	cp.Over = &sql.WindowSpec{Name: ident(name), Ref: true}
	return Expression{&exprData{node: &cp, deps: e.x.deps}}
}

// ---------------------------------------------------------------- JSON

// JSONExistsOnError is the ON ERROR behaviour of JSONExists (PyFlink's
// JsonExistsOnError).
type JSONExistsOnError string

// ON ERROR behaviours of JSONExists.
const (
	JSONExistsOnErrorTrue    JSONExistsOnError = "TRUE"
	JSONExistsOnErrorFalse   JSONExistsOnError = "FALSE"
	JSONExistsOnErrorUnknown JSONExistsOnError = "UNKNOWN"
	JSONExistsOnErrorError   JSONExistsOnError = "ERROR"
)

// JSONValueOnEmptyOrError is the ON EMPTY / ON ERROR behaviour of
// JSONValue (PyFlink's JsonValueOnEmptyOrError).
type JSONValueOnEmptyOrError string

// ON EMPTY / ON ERROR behaviours of JSONValue.
const (
	JSONValueNull    JSONValueOnEmptyOrError = "NULL"
	JSONValueError   JSONValueOnEmptyOrError = "ERROR"
	JSONValueDefault JSONValueOnEmptyOrError = "DEFAULT"
)

// JSONExists reports whether the JSON string e holds a value at path
// (SQL/JSON path, "lax" by default; "strict $.b" raises an error for a
// missing member, which onError turns into a value) (PyFlink's
// json_exists).
func (e Expression) JSONExists(path string, onError ...JSONExistsOnError) Expression {
	x := e.method("JSON_EXISTS", path)
	if len(onError) > 0 && x.x.err == nil {
		f := *x.x.node.(*sql.FuncCall)
		f.JSON = &sql.JSONClauses{OnError: &sql.JSONBehavior{Kind: string(onError[0])}}
		x.x.node = &f
	}
	return x
}

// JSONValueOption configures JSONValue.
type JSONValueOption func(*sql.JSONClauses) error

// JSONReturning sets JSONValue's result type (STRING by default; BOOLEAN,
// INT and DOUBLE are supported) (PyFlink's returning_type).
func JSONReturning(t *types.DataType) JSONValueOption {
	return func(c *sql.JSONClauses) error {
		n, err := dataTypeNode(t)
		c.Returning = n
		return err
	}
}

// JSONOnEmpty sets what JSONValue returns for a missing value: NULL (the
// default), ERROR, or DEFAULT with a value (PyFlink's on_empty and
// default_on_empty).
func JSONOnEmpty(b JSONValueOnEmptyOrError, defaultValue ...any) JSONValueOption {
	return func(c *sql.JSONClauses) error {
		beh, err := jsonBehavior(b, defaultValue)
		c.OnEmpty = beh
		return err
	}
}

// JSONOnError sets what JSONValue returns on an error (PyFlink's on_error
// and default_on_error).
func JSONOnError(b JSONValueOnEmptyOrError, defaultValue ...any) JSONValueOption {
	return func(c *sql.JSONClauses) error {
		beh, err := jsonBehavior(b, defaultValue)
		c.OnError = beh
		return err
	}
}

func jsonBehavior(b JSONValueOnEmptyOrError, def []any) (*sql.JSONBehavior, error) {
	beh := &sql.JSONBehavior{Kind: string(b)}
	if b == JSONValueDefault {
		if len(def) == 0 {
			return nil, errors.New("JSONValueDefault needs a default value")
		}
		n, _, err := operand(def[0])
		if err != nil {
			return nil, err
		}
		beh.Default = n
	}
	return beh, nil
}

// JSONValue extracts a scalar from the JSON string e at path, as STRING
// unless JSONReturning says otherwise (PyFlink's json_value).
func (e Expression) JSONValue(path string, opts ...JSONValueOption) Expression {
	x := e.method("JSON_VALUE", path)
	if x.x.err != nil || len(opts) == 0 {
		return x
	}
	f := *x.x.node.(*sql.FuncCall)
	f.JSON = &sql.JSONClauses{}
	for _, o := range opts {
		if err := o(f.JSON); err != nil {
			return failed(err)
		}
	}
	x.x.node = &f
	return x
}
