package ui

// The Kafka demo: a Kafka connection's context menu offers to produce the
// bundled flights into the topic the demo workspace's "Kafka flights" tab
// reads, and opens that tab's query with the connection's bootstrap
// servers filled in. A workspace without a Kafka connection keeps the
// tab's instructions; nothing contacts a broker unless asked.

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/riffle-sql/riffle/assets"
	"github.com/riffle-sql/riffle/workbench/kafkabrowser"
	"github.com/riffle-sql/riffle/workbench/ui/widgets"
)

// demoPartitions is the demo topic's partition count.
const demoPartitions = 4

// produceDemoFlights writes the bundled flights to the demo topic of c in
// the background, then opens the demo query on c.
func (wb *Workbench) produceDemoFlights(c *kafkaConn) {
	if c == nil {
		return
	}
	cfg := c.config()
	topic := assets.DemoKafkaTopic
	wb.setStatus("Producing the demo flights into " + topic + " on " + cfg.Name + "…")
	a := wb.authoring()
	a.bg.Add(1)
	go func() {
		defer a.bg.Done()
		started := time.Now()
		var held int64 // messages the topic held already
		n, err := func() (int, error) {
			dir, err := wb.dataDir()
			if err != nil {
				return 0, err
			}
			paths, err := assets.ExtractDataTo(dir)
			if err != nil {
				return 0, err
			}
			f, err := os.Open(paths.Flights)
			if err != nil {
				return 0, err
			}
			defer f.Close()
			cl, err := c.cli()
			if err != nil {
				return 0, err
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			// a second produce would hold every flight twice (and the
			// demo count each departure twice): the flights there are read
			if topics, err := cl.Topics(ctx, false); err == nil {
				for _, t := range topics {
					if t.Name == topic && t.Err == nil && t.Messages() > 0 {
						held = t.Messages()
						return 0, nil
					}
				}
			}
			last := time.Now()
			return cl.ProduceCSV(ctx, topic, demoPartitions, f, "origin", func(k int) {
				if time.Since(last) > 500*time.Millisecond {
					last = time.Now()
					wb.do(func() {
						wb.setStatus(fmt.Sprintf("Producing the demo flights into %s: %s messages…", topic, widgets.GroupDigits(k)))
					})
				}
			})
		}()
		took := time.Since(started)
		wb.do(func() {
			if wb.closed {
				return
			}
			if err != nil {
				wb.setStatus("Producing the demo flights failed")
				wb.messages.add(levelError, fmt.Sprintf("Producing the demo flights into %s on %s (%d written): %s", topic, cfg.Name, n, err), nil)
				return
			}
			msg := fmt.Sprintf("Produced %s flights into %s on %s in %s.", widgets.GroupDigits(n), topic, cfg.Name, widgets.FormatDuration(took))
			if held > 0 {
				msg = fmt.Sprintf("%s on %s holds %s already: not produced again (every flight would be there twice); the demo query reads them. Delete the topic to produce afresh.",
					topic, cfg.Name, widgets.Plural(int(held), "message"))
			}
			wb.messages.add(levelInfo, msg, nil)
			wb.setStatus(msg)
			wb.kafka.browser.RefreshAll()
			wb.openDemoKafkaTab(cfg)
		})
	}()
}

// openDemoKafkaTab selects the demo query's tab for cfg, or opens one: a
// tab of that title still holding the query, unedited, is reused (each
// click opened another).
func (wb *Workbench) openDemoKafkaTab(cfg kafkabrowser.Config) *editorTab {
	title, text := "Kafka flights ("+cfg.Name+")", demoKafkaSQL(cfg)
	for _, t := range wb.editors.list {
		if t.title == title && t.ed.Text() == text {
			wb.editors.tabs.Select(t.item)
			return t
		}
	}
	return wb.editors.newTab(title, text)
}

// demoKafkaSQL is the demo query reading cfg's cluster; a secured
// cluster's options are added with the password masked (the tab is saved
// in the workspace).
func demoKafkaSQL(cfg kafkabrowser.Config) string {
	text := assets.DemoKafkaSQL(strings.Join(cfg.Brokers(), ","))
	opts := cfg.TableOptions(true)
	if len(opts) <= 1 {
		return text
	}
	var more strings.Builder
	for _, o := range opts[1:] {
		fmt.Fprintf(&more, "  '%s' = '%s',\n", o[0], strings.ReplaceAll(o[1], "'", "''"))
	}
	return strings.Replace(text, "  'scan.startup.mode'", "  -- the password is masked: type it in before running\n"+more.String()+"  'scan.startup.mode'", 1)
}
