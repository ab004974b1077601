// Command demo opens a window with the SQL editor and a sample Flink SQL
// script, for looking at the widget by hand. It is not part of Riffle.
//
//	go run -tags migrated_fynedo ./editor/internal/demo [-error] [-big N]
//
// FYNE_THEME=light or dark picks the theme variant.
package main

import (
	"flag"
	"fmt"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/workbench/editor"
)

const script = `-- Riffle demo: clicks per user in 1 minute tumbling windows
CREATE TABLE clicks (
    ` + "`user`" + `     STRING,
    url        VARCHAR(2048),
    price      DECIMAL(10, 2),
    ts         TIMESTAMP(3),
    WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH (
    'connector' = 'datagen',
    'rows-per-second' = '100',
    'fields.url.length' = '12'
);

/* Window TVF aggregation:
   one row per user and window */
SELECT window_start, window_end, ` + "`user`" + `, COUNT(*) AS cnt,
       SUM(price) AS total, MAX(CHAR_LENGTH(url)) AS longest
FROM TABLE(
    TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '1' MINUTES))
WHERE url LIKE 'https://%' AND price > 10.5e0
GROUP BY window_start, window_end, ` + "`user`" + `;

SET 'table.exec.state.ttl' = '1 h';

EXECUTE STATEMENT SET
BEGIN
    INSERT INTO sink_a SELECT * FROM clicks WHERE price < 100;
    INSERT INTO sink_b SELECT ` + "`user`" + `, CURRENT_TIMESTAMP FROM clicks;
END;
`

func main() {
	withError := flag.Bool("error", false, "set an error marker")
	big := flag.Int("big", 0, "repeat the script this many times")
	flag.Parse()

	a := app.NewWithID("io.riffle.editor-demo")
	w := a.NewWindow("Riffle editor demo")
	status := widget.NewLabel("Ln 1, Col 1")

	ed := editor.New()
	text := script
	if *big > 0 {
		text = strings.Repeat(script+"\n", *big)
	}
	ed.SetText(text)
	ed.OnCursorMoved = func(line, col int) {
		msg, _ := ed.ErrorAt(line)
		status.SetText(fmt.Sprintf("Ln %d, Col %d  %s", line+1, col+1, msg))
	}
	ed.OnRunStatement = func(stmt string, start int) {
		ed.HighlightRange(start, start+len(stmt), 700*time.Millisecond)
		status.SetText(fmt.Sprintf("run %d bytes at offset %d: %.40q", len(stmt), start, stmt))
	}
	ed.OnRunAll = func(string) { status.SetText("run all") }
	ed.OnCancel = func() { status.SetText("cancel") }
	ed.OnComplete = func() {
		prefix, _ := ed.WordBeforeCursor()
		pop := widget.NewPopUp(widget.NewLabel("completions for "+prefix), w.Canvas())
		pop.ShowAtPosition(ed.CursorScreenPosition())
	}
	if *withError {
		ed.SetErrorMarker(19, 6, "Column 'url' not found in table 'clicks'; did you mean 'uri'?")
	}

	w.SetContent(container.NewBorder(nil, status, nil, nil, ed))
	w.Resize(fyne.NewSize(1100, 700))
	w.Canvas().Focus(ed)
	w.ShowAndRun()
}
