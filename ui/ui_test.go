package ui

import (
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

func TestPlaceholderWindowShowsTitle(t *testing.T) {
	test.NewTempApp(t)
	w := test.NewTempWindow(t, NewContent(Options{}))
	found := false
	for _, o := range test.LaidOutObjects(w.Content()) {
		if l, ok := o.(*widget.Label); ok && l.Text == "Riffle workbench" {
			found = true
		}
	}
	if !found {
		t.Error("label 'Riffle workbench' not shown")
	}
}
