// Package sql is the lexer, parser and abstract syntax tree of Flink's SQL
// dialect (Flink SQL, built on Apache Calcite), including its DDL, DML,
// queries and the SQL Client's utility statements.
//
// Parse, ParseScript, ParseExpr and ParseDataType turn text into the AST
// defined in ast.go; every node records its source span (see Pos and
// Span). Errors are *Error values with Calcite's message wording and the
// line and column of the offending token. Format and each node's String
// method render canonical SQL that parses back to an equal tree;
// FormatSQL pretty-prints whole scripts. SplitStatements, StatementAt,
// Tokenize, Keywords and QuoteIdentIfNeeded serve editors.
//
// The package depends only on the standard library and never panics on
// any input.
package sql
