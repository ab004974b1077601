// Package editor is Riffle's SQL editor widget: an editable, syntax-highlighted
// text area for Flink SQL scripts, built on top of [widget.TextGrid].
//
// The widget owns its document (a slice of lines) and only ever renders the
// rows and columns that are visible: the inner TextGrid is filled with the
// viewport's cells on every change, so typing, scrolling and highlighting cost
// the same in a 50-line script and in a 10 MB one. Highlighting uses a chroma
// lexer for the Flink SQL dialect; each line is lexed on demand when it becomes
// visible, starting from the lexer state carried over from the previous line
// (outside any quote or comment, inside a '…' string, a `…` identifier, or a
// /* … */ comment). That state is computed by a cheap scanner shared with the
// statement splitter, so an edit only invalidates the states from the edited
// line down, and only to the bottom of what is actually shown.
//
// # Keys
//
// Arrows, Home (to the indentation, then column 0), End, PageUp/PageDown,
// Ctrl+Home/End, Ctrl+Left/Right (by word) and Ctrl+Up/Down (scroll) move
// the cursor; with Shift they extend the selection. Ctrl+A selects all,
// Ctrl+C/X/V use the clipboard, Ctrl+Z undoes, Ctrl+Y and Ctrl+Shift+Z
// redo, Tab/Shift+Tab indent/outdent (the selected lines), Enter keeps the
// indentation (one more after "("), Ctrl+Backspace/Delete delete a word and
// Ctrl+/ toggles "-- " comments. Ctrl+F opens the find bar, Ctrl+H the
// replace row, F3/Ctrl+G and Shift+F3/Ctrl+Shift+G find next/previous, Esc
// closes the bar. Ctrl+Enter, Ctrl+Shift+Enter, Ctrl+E, Ctrl+Shift+F,
// Ctrl+Space and Esc call the On… hooks. On macOS Cmd works as Ctrl.
// The mouse places the cursor (Shift+click extends), drags a selection,
// double-click selects a word, a click in the gutter selects a line, the
// wheel scrolls (Shift+wheel sideways) and the right button opens a menu.
//
// # Positions
//
// Lines and columns in this API are 0-based and columns count runes
// (characters), not bytes or display cells; a tab is one column. Offsets are
// byte offsets into the string returned by [Editor.Text], as in Go strings.
// Line breaks are normalised to "\n" and invalid UTF-8 to U+FFFD when text
// is set, inserted or pasted.
//
// # Threading
//
// Like every Fyne widget, an [Editor] must only be used from the Fyne UI
// goroutine: event handlers and callbacks already run there; code on other
// goroutines must use [fyne.Do]. The callbacks (OnChanged, OnRunStatement, …)
// are invoked on the UI goroutine. The package-level functions
// [SplitStatements] and [StatementAt] are pure and safe from any goroutine.
package editor
