// Package completionpopup is the SQL editor's completion popup: a list of
// engine/completion candidates (kind, label, detail) under the editor's
// cursor that holds the keyboard while open (Up/Down/PageUp/PageDown
// choose, Enter or Tab accept, Esc closes; typed characters and Backspace
// go on to the editor and the candidates follow).
//
// It knows nothing of the workbench: it edits through Editor (what it
// needs of editor.Editor) and reaches the workbench through Host
// (Complete at the cursor now, Close, Reopen), which completionHost in
// package ui (completion.go) implements; the workbench keeps the open
// Popup, builds it with Open and shows it with Show.
package completionpopup
