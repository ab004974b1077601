package sql

// TokenClass is the category of a token for an editor: what colour it gets
// and how completion treats it.
type TokenClass uint8

// Token classes.
const (
	// ClassOther is the zero class (never produced by Tokenize).
	ClassOther TokenClass = iota
	// ClassKeyword is a keyword (reserved, or a non-reserved keyword used
	// structurally such as ASC, NULLS, TEMPORARY).
	ClassKeyword
	// ClassIdentifier is an unquoted identifier.
	ClassIdentifier
	// ClassQuotedIdentifier is a backquoted identifier.
	ClassQuotedIdentifier
	// ClassString is a string or binary string literal.
	ClassString
	// ClassNumber is a numeric literal.
	ClassNumber
	// ClassComment is a -- or /* */ comment.
	ClassComment
	// ClassOperator is an operator such as = + || =>.
	ClassOperator
	// ClassPunctuation is ( ) [ ] , ; . { }.
	ClassPunctuation
	// ClassTypeName is a data type name such as INT or STRING.
	ClassTypeName
	// ClassFunctionName is a word followed by "(" that names a function.
	ClassFunctionName
	// ClassHint is the /*+ and */ delimiters of a hint.
	ClassHint
	// ClassError is text that could not be read (stray character,
	// unterminated quote or comment).
	ClassError
)

var classNames = [...]string{"other", "keyword", "identifier", "quoted identifier", "string", "number",
	"comment", "operator", "punctuation", "type name", "function name", "hint", "error"}

// String names the class.
func (c TokenClass) String() string {
	if int(c) < len(classNames) {
		return classNames[c]
	}
	return "class?"
}

// structuralWords are non-reserved keywords that an editor should show as
// keywords anyway.
var structuralWords = map[string]bool{
	"ASC": true, "DESC": true, "NULLS": true, "FIRST": true, "LAST": true, "TEMPORARY": true,
	"VIEW": true, "DATABASE": true, "CATALOG": true, "IF": true, "OVERWRITE": true,
	"PARTITIONED": true, "METADATA": true, "VIRTUAL": true, "ENFORCED": true, "PRECEDING": true,
	"FOLLOWING": true, "UNBOUNDED": true, "ADD": true, "CASCADE": true, "RESTRICT": true,
	"JAR": true, "JOB": true, "JOBS": true, "LOAD": true, "UNLOAD": true, "OPTIONS": true,
	"EXCLUDING": true, "INCLUDING": true, "OVERWRITING": true, "PLAN": true, "COLUMNS": true,
	"PARTITIONS": true, "ORDINALITY": true, "RESPECT": true, "IGNORE": true, "DRAIN": true,
	"STOP": true, "REMOVE": true,
}

// notFunctions are keywords that are followed by "(" without being calls.
var notFunctions = map[string]bool{
	"IN": true, "VALUES": true, "EXISTS": true, "AS": true, "ON": true, "USING": true,
	"OVER": true, "FILTER": true, "TABLE": true, "LATERAL": true, "ROW": false, "WITH": true,
	"FROM": true, "JOIN": true, "AND": true, "OR": true, "NOT": true, "SELECT": true,
	"WHERE": true, "BY": true, "SETS": true, "ROLLUP": true, "CUBE": true, "INTO": true,
	"PARTITION": true, "KEY": true, "SET": true, "RESET": true, "ADD": true, "MODIFY": true,
	"DROP": true, "GROUP": true, "THEN": true, "ELSE": true, "WHEN": true, "CASE": true,
	"UNION": true, "INTERSECT": true, "EXCEPT": true, "MINUS": true, "ALL": true,
	"DISTINCT": true, "ARRAY": false, "MAP": false, "PARTITIONED": true, "WINDOW": true,
	"UNIQUE": true, "RAW": true, "DECIMAL": true, "VARCHAR": true, "CHAR": true,
	"TIMESTAMP": true, "TIME": true, "BINARY": true, "VARBINARY": true, "TIMESTAMP_LTZ": true,
	"DEC": true, "NUMERIC": true, "CHARACTER": true, "DESCRIPTOR": false, "BETWEEN": true,
	"LIKE": true, "ESCAPE": true, "AT": true, "HAVING": true, "QUALIFY": true,
}

// Tokenize splits text into tokens for an editor, including comments, and
// sets each token's Class. Unlike the parser it never stops: a stray
// character becomes a ClassError token and lexing continues; an
// unterminated string, quoted identifier or comment extends to the end.
// Whitespace is not returned (it lies between tokens' End and the next
// token's Pos.Offset).
func Tokenize(text string) []Token {
	l := newLexer(text)
	l.comments = true
	l.recover = true
	toks := make([]Token, 0, len(text)/5+1)
	for {
		t := l.next()
		if t.Kind == TokEOF {
			break
		}
		toks = append(toks, t)
	}
	for i := range toks {
		t := &toks[i]
		switch t.Kind {
		case TokIdent:
			nextParen := false
			for j := i + 1; j < len(toks); j++ {
				if toks[j].Kind == TokComment {
					continue
				}
				nextParen = toks[j].Kind == TokOp && toks[j].Text == "("
				break
			}
			reserved, isKw := keywordTable[t.upper]
			switch {
			case nextParen && !notFunctions[t.upper] && !(typeNames[t.upper] && !reservedFuncs[t.upper]):
				t.Class = ClassFunctionName
			case typeNames[t.upper]:
				t.Class = ClassTypeName
			case isKw && (reserved || structuralWords[t.upper]):
				t.Class = ClassKeyword
			default:
				t.Class = ClassIdentifier
			}
		case TokQuotedIdent:
			t.Class = ClassQuotedIdentifier
		case TokString, TokUnicodeString, TokBinary:
			t.Class = ClassString
		case TokInteger, TokDecimal, TokApprox:
			t.Class = ClassNumber
		case TokComment:
			t.Class = ClassComment
		case TokOp:
			switch t.Text {
			case "(", ")", "[", "]", ",", ";", ".", "{", "}":
				t.Class = ClassPunctuation
			default:
				t.Class = ClassOperator
			}
		case TokHintStart, TokHintEnd:
			t.Class = ClassHint
		case TokError:
			t.Class = ClassError
		}
	}
	return toks
}
