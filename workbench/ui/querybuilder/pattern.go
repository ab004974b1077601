package querybuilder

import (
	"fmt"
	"slices"
	"strings"

	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/workbench/authoring"
)

// PatternTemplate writes a MATCH_RECOGNIZE query over table (its SQL
// path, quoted where needed) with schema s, using its real columns so
// that it runs as written (docs/match-recognize.md):
//
//   - PARTITION BY a key column: the first primary-key column, else the
//     first character-string column, else the first integer column other
//     than the measured one (none: no PARTITION BY, one task matches all);
//   - ORDER BY the time attribute: the first rowtime attribute, else the
//     first processing-time attribute;
//   - MEASURES FIRST/LAST of a numeric column that is not the key (the
//     first DOUBLE, DECIMAL or other non-integer column, else the last
//     integer one), and the match's first and last row time on a rowtime
//     attribute;
//   - ONE ROW PER MATCH, AFTER MATCH SKIP PAST LAST ROW,
//     PATTERN (A B+ C) WITHIN INTERVAL '1' HOUR;
//   - DEFINE B as a rise above A, C as a fall below the last B.
//
// It fails, saying why, when s has no time attribute (MATCH_RECOGNIZE
// orders rows by one) or no numeric column for the conditions.
func PatternTemplate(table string, s *types.Schema) (string, error) {
	if s == nil {
		return "", fmt.Errorf("the schema of %s is not known", table)
	}
	timeCol, rowtime := "", false
	if tc := authoring.TimeColumns(s, true); len(tc) > 0 {
		timeCol, rowtime = tc[0], true
	} else {
		for _, c := range s.Columns {
			if c.Type != nil && c.Type.IsProctime() {
				timeCol = c.Name
				break
			}
		}
	}
	if timeCol == "" {
		return "", fmt.Errorf("%s has no time attribute: MATCH_RECOGNIZE orders each partition's rows by one. "+
			"Add a rowtime (a TIMESTAMP(3) column with WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) "+
			"or a processing-time column (pt AS PROCTIME()) to the table", table)
	}
	key := ""
	if s.PrimaryKey != nil && len(s.PrimaryKey.Columns) > 0 {
		key = s.PrimaryKey.Columns[0]
	}
	for _, c := range s.Columns {
		if key == "" && c.Type != nil && c.Name != timeCol && c.Type.IsString() {
			key = c.Name
		}
	}
	// the measured column: the first DOUBLE, DECIMAL, ...; else the last
	// integer column (the first is more often an id, the key)
	num := ""
	for _, c := range s.Columns {
		if c.Type == nil || c.Name == key || c.Name == timeCol || !c.Type.IsNumeric() {
			continue
		}
		if !c.Type.IsIntegral() {
			num = c.Name
			break
		}
		num = c.Name
	}
	if num == "" {
		return "", fmt.Errorf("%s has no numeric column besides its key: the template's DEFINE conditions compare one (a rise, then a fall)", table)
	}
	for _, c := range s.Columns {
		if key == "" && c.Type != nil && c.Name != timeCol && c.Name != num && c.Type.IsIntegral() {
			key = c.Name
		}
	}
	q := sql.QuoteIdentIfNeeded
	n, t := q(num), q(timeCol)
	// output names, kept apart from the partition column's
	name := func(base string) string {
		for key == base {
			base += "_"
		}
		return q(base)
	}
	var b strings.Builder
	b.WriteString("SELECT *\nFROM " + table + "\n    MATCH_RECOGNIZE (\n")
	if key != "" {
		b.WriteString("        PARTITION BY " + q(key) + "\n")
	}
	b.WriteString("        ORDER BY " + t + "\n")
	measures := []string{
		"FIRST(A." + n + ") AS " + name("start_"+num),
		"LAST(B." + n + ") AS " + name("peak_"+num),
		"LAST(C." + n + ") AS " + name("end_"+num),
	}
	if rowtime {
		measures = append(measures, "FIRST(A."+t+") AS "+name("match_start"), "LAST(C."+t+") AS "+name("match_end"))
	}
	b.WriteString("        MEASURES\n            " + strings.Join(measures, ",\n            ") + "\n")
	b.WriteString("        ONE ROW PER MATCH\n")
	b.WriteString("        AFTER MATCH SKIP PAST LAST ROW\n")
	b.WriteString("        PATTERN (A B+ C) WITHIN INTERVAL '1' HOUR\n")
	b.WriteString("        DEFINE\n")
	b.WriteString("            B AS B." + n + " > A." + n + ",\n")
	b.WriteString("            C AS C." + n + " < LAST(B." + n + ")\n")
	b.WriteString("    ) AS mr")
	return b.String(), nil
}

// writePattern appends the pattern template for the builder's table to
// its tab, as a statement of its own (Pattern (MATCH_RECOGNIZE)…). The
// builder then leaves that statement to the editor: it has no form for
// MATCH_RECOGNIZE.
func (b *Panel) writePattern() {
	if b.tab == nil {
		b.tab = b.host.CurrentTab()
	}
	if b.tab == nil {
		return
	}
	if name, embedded := b.tab.Engine(); !embedded {
		b.setStatus("⚠ This tab runs on "+name+": the pattern template reads the embedded engine's tables.", widget.WarningImportance)
		return
	}
	var path []string
	if b.q != nil {
		path = b.q.From.Path
	} else if l := b.tableSel.Selected; l != "" {
		path = b.tableRefs[l]
	}
	if len(path) == 0 {
		b.setStatus("⚠ Choose a table first: the pattern template is written for the builder's table.", widget.WarningImportance)
		return
	}
	ref := authoring.TableRef{Path: slices.Clone(path)}
	text, err := PatternTemplate(ref.String(), b.schema(ref))
	if err != nil {
		b.setStatus("✕ "+err.Error(), widget.DangerImportance)
		return
	}
	ed := b.tab.Editor()
	cur := ed.Text()
	trimmed := strings.TrimRight(cur, " \t\r\n")
	sep := ""
	if trimmed != "" {
		if !strings.HasSuffix(trimmed, ";") {
			sep = ";"
		}
		sep += "\n\n"
	}
	b.writing = true
	ed.ReplaceRange(len(trimmed), len(cur), sep+text)
	ed.ScrollToColumn(0)
	b.writing = false
	// the builder has no form for MATCH_RECOGNIZE: the statement is the
	// editor's, and choosing a table or New query starts another
	b.start = len(trimmed) + len(sep)
	b.end = b.start + len(text)
	b.q, b.owned, b.lastSQL = nil, false, ""
	b.unsupported = "the pattern (MATCH_RECOGNIZE) query is edited in the editor"
	b.render()
	b.setStatus("✓ The editor shows a MATCH_RECOGNIZE template on "+ref.String()+": rows rising above A, then falling (Run or Ctrl+Enter runs it; edit DEFINE for your pattern)", widget.SuccessImportance)
}

// PatternButton is Pattern (MATCH_RECOGNIZE)…, which writes the template.
func (b *Panel) PatternButton() *widget.Button { return b.patternBtn }
