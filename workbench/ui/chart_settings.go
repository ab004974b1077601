package ui

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"

	"fyne.io/fyne/v2"

	"github.com/riffle-sql/riffle/workbench/charts"
)

// chartDoc is what the workspace keeps per editor tab (persistence's
// chart settings blob): the chart settings of each statement the tab ran
// (by its text with whitespace collapsed), the newest last.
type chartDoc struct {
	V       int              `json:"v"`
	Results []chartDocResult `json:"results"`
}

type chartDocResult struct {
	Statement string          `json:"statement"`
	Settings  json.RawMessage `json:"settings"`
}

// maxChartDocResults bounds the statements remembered per editor tab.
const maxChartDocResults = 32

func chartKey(stmt string) string { return strings.Join(strings.Fields(stmt), " ") }

func parseChartDoc(b []byte) *chartDoc {
	d := &chartDoc{V: 1}
	if len(b) > 0 {
		_ = json.Unmarshal(b, d)
	}
	return d
}

func (d *chartDoc) get(stmt string) (charts.Settings, bool) {
	k := chartKey(stmt)
	for i := len(d.Results) - 1; i >= 0; i-- {
		if d.Results[i].Statement == k {
			s, err := charts.ParseSettings(d.Results[i].Settings)
			return s, err == nil && s.Kind != ""
		}
	}
	return charts.Settings{}, false
}

func (d *chartDoc) put(stmt string, s charts.Settings) error {
	b, err := s.Marshal()
	if err != nil {
		return err
	}
	k := chartKey(stmt)
	d.Results = slices.DeleteFunc(d.Results, func(r chartDocResult) bool { return r.Statement == k })
	d.Results = append(d.Results, chartDocResult{Statement: k, Settings: b})
	if n := len(d.Results); n > maxChartDocResults {
		d.Results = d.Results[n-maxChartDocResults:]
	}
	return nil
}

// savedChart returns the chart settings kept for rt's statement in its
// editor tab.
func (wb *Workbench) savedChart(rt *resultTab) (charts.Settings, bool) {
	if rt.editorTab < 0 {
		return charts.Settings{}, false
	}
	d := wb.mon.charts[rt.editorTab]
	if d == nil {
		return charts.Settings{}, false
	}
	return d.get(rt.stmt)
}

// saveChart keeps s for rt's statement in the workspace.
func (wb *Workbench) saveChart(rt *resultTab, s charts.Settings) {
	if rt.editorTab < 0 || wb.closed {
		return
	}
	d := wb.mon.charts[rt.editorTab]
	if d == nil {
		d = &chartDoc{V: 1}
		wb.mon.charts[rt.editorTab] = d
	}
	if err := d.put(rt.stmt, s); err != nil {
		return
	}
	b, err := json.Marshal(d)
	if err != nil {
		return
	}
	if err := wb.store.SaveChart(context.Background(), rt.editorTab, b); err != nil {
		wb.messages.add(levelWarning, "Could not keep the chart settings: "+err.Error(), nil)
	}
}

// chartHost is the workbench's side of a result's chart view
// (chartview.Host).
type chartHost struct{ rt *resultTab }

func (h chartHost) Do(f func())                            { h.rt.wb.do(f) }
func (h chartHost) Window() fyne.Window                    { return h.rt.wb.win }
func (h chartHost) SavedSettings() (charts.Settings, bool) { return h.rt.wb.savedChart(h.rt) }
func (h chartHost) KeepSettings(s charts.Settings)         { h.rt.wb.saveChart(h.rt, s) }
func (h chartHost) TabClosed() bool                        { return h.rt.mon.closed }
func (h chartHost) FileName() string                       { return fileNameFor(h.rt) }
func (h chartHost) LastDir() string                        { return h.rt.wb.exportSettings().LastDir }

// ChartSaved tells in Messages where the chart went, or why not.
func (h chartHost) ChartSaved(path string, err error) {
	wb := h.rt.wb
	if err != nil {
		wb.messages.add(levelError, "Saving the chart failed: "+err.Error(), nil)
		wb.showPanel(wb.messages.item)
		return
	}
	wb.messages.add(levelInfo, "Chart saved to "+path, nil)
	wb.setStatus("Chart saved to " + filepath.Base(path))
}
