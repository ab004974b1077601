// Package ui is Riffle's workbench window. It builds Fyne objects only; the
// fyne.App is created in package main, so this package is testable with
// Fyne's headless test driver.
//
// For now the window holds a placeholder label; the workbench (editor,
// catalog tree, result grid) replaces it.
package ui

import (
	"context"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// Options configure the workbench.
type Options struct {
	// Workspace is the SQLite workspace file; empty = the default workspace.
	Workspace string
}

// NewContent builds the window's content.
func NewContent(opts Options) fyne.CanvasObject {
	return container.NewCenter(widget.NewLabel("Riffle workbench"))
}

// Run opens the main window on a and blocks until it is closed or ctx is
// cancelled (SIGINT/SIGTERM), in which case the app quits.
func Run(ctx context.Context, a fyne.App, opts Options) error {
	w := a.NewWindow("Riffle")
	w.SetContent(NewContent(opts))
	w.Resize(fyne.NewSize(1200, 800))
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-ctx.Done():
			fyne.Do(a.Quit)
		case <-done:
		}
	}()
	w.ShowAndRun()
	return nil
}
