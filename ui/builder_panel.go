package ui

import "fyne.io/fyne/v2"

type builderPanel struct{}

func (wb *Workbench) editorArea() fyne.CanvasObject                        { return wb.editors.tabs }
func (wb *Workbench) builderButton() fyne.CanvasObject                     { return layoutSpacer() }
func (wb *Workbench) toggleBuilder()                                       {}
func (wb *Workbench) builderEditorChanged(t *editorTab)                    {}
func (wb *Workbench) builderTabChanged()                                   {}
func (wb *Workbench) catalogDragged(r catalogbrowserRef, at fyne.Position) {}
func (wb *Workbench) catalogDropped(r catalogbrowserRef, at fyne.Position) {}
func (wb *Workbench) builderTableCreated(path []string)                    {}
