package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/layout"

	"github.com/riffle-sql/riffle/catalogbrowser"
)

type catalogbrowserRef = catalogbrowser.Ref

func layoutSpacer() fyne.CanvasObject { return layout.NewSpacer() }
