package table

import (
	"fmt"
	"strings"

	"github.com/riffle-sql/riffle/engine/types"
)

// A gateway sends EXPLAIN as text only. To show it as the embedded
// engine's plans are shown, ParseExplainPlan reads the text's plan trees
// back into PlanNodes: operator, attributes, inputs; an Exchange's
// distribution; a node's changelog mode when EXPLAIN CHANGELOG_MODE
// printed it. EXPLAIN says nothing of parallelism or columns.

// ParseExplainPlan reads the plan of EXPLAIN's text (Riffle's or
// Flink's): the "Optimized Execution Plan" section (exchanges and reused
// nodes as the job runs them), or the "Optimized Physical Plan" when only
// that one carries changelog modes (EXPLAIN CHANGELOG_MODE prints them
// there). The result's Text is text; Streaming is set when the plan has
// changelog modes or operators only streaming plans have. It fails when
// the text has no plan it can read (it never panics, whatever the text).
func ParseExplainPlan(text string) (p *ExplainedPlan, err error) {
	defer func() {
		if r := recover(); r != nil { // an unforeseen text is an error, never a crash
			p, err = nil, fmt.Errorf("cannot read the plan: %v", r)
		}
	}()
	secs := explainSections(text)
	lines, ok := secs["Optimized Execution Plan"]
	if phys, has := secs["Optimized Physical Plan"]; has && (!ok || strings.Contains(strings.Join(phys, "\n"), "changelogMode=[")) {
		lines, ok = phys, true
	}
	if !ok {
		return nil, fmt.Errorf("EXPLAIN has no optimized plan section")
	}
	roots, err := parsePlanTrees(lines)
	if err != nil {
		return nil, err
	}
	streaming := false
	seen := map[*PlanNode]bool{}
	var walk func(n *PlanNode)
	walk = func(n *PlanNode) {
		if seen[n] {
			return
		}
		seen[n] = true
		if n.ChangelogMode != (types.ChangelogMode{}) || streamingOnlyOps[n.Name] {
			streaming = true
		}
		for _, in := range n.Inputs {
			walk(in)
		}
	}
	for _, r := range roots {
		walk(r)
	}
	return &ExplainedPlan{Text: text, Roots: roots, Streaming: streaming}, nil
}

// TextPlanNode returns the node of an operator known only by its EXPLAIN
// text: name and attributes as printed ("table=[[c, d, flights]]"). What
// the attributes tell is filled in: the table of a scan or sink
// (table=[...]), a query's collect sink, the keys (the first non-empty
// groupBy, partitionBy or key), an Exchange's distribution and hash keys,
// the changelog mode (changelogMode=[I,UB,UA,D]) and a MultipleInput's
// members. Add its inputs to Inputs.
func TextPlanNode(name string, attrs ...string) *PlanNode {
	n := &PlanNode{Name: name, Attrs: ParsePlanAttrs(attrs...)}
	if t, ok := n.Attr("table"); ok {
		if strings.HasPrefix(t, "*anonymous_collect") {
			n.CollectsResult = true
		} else {
			n.Table = tableName(t)
		}
	}
	for _, k := range []string{"groupBy", "partitionBy", "key"} {
		if v, ok := n.Attr(k); ok && v != "" {
			n.Keys = splitList(v)
			break
		}
	}
	if m, ok := attrValue(attrs, "changelogMode"); ok {
		n.ChangelogMode = parseChangelogMode(m)
	}
	if name == "Exchange" {
		n.Distribution = exchangeDist(attrs)
		if d, _ := attrValue(attrs, "distribution"); n.Distribution == DistributionHash {
			n.DistributionKeys = splitTopLevel(strings.TrimSuffix(strings.TrimPrefix(d, "hash["), "]"))
		}
	}
	n.Members = multipleInputMembers(attrs)
	return n
}

// explainSections splits EXPLAIN's text into its "== Title ==" sections.
func explainSections(text string) map[string][]string {
	out := map[string][]string{}
	cur := ""
	for _, line := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		if t := strings.TrimSpace(line); strings.HasPrefix(t, "== ") && strings.HasSuffix(t, " ==") {
			cur = strings.TrimSpace(t[3 : len(t)-3])
			continue
		}
		if cur != "" {
			out[cur] = append(out[cur], line)
		}
	}
	return out
}

// streamingOnlyOps are operators Flink's planner uses in streaming plans only.
var streamingOnlyOps = map[string]bool{
	"GroupAggregate": true, "GlobalGroupAggregate": true, "LocalGroupAggregate": true, "IncrementalGroupAggregate": true,
	"ChangelogNormalize": true, "WindowAggregate": true, "GroupWindowAggregate": true, "Deduplicate": true,
	"Join": true, "IntervalJoin": true, "TemporalJoin": true, "WindowJoin": true, "Rank": true, "WindowRank": true,
	"MiniBatchAssigner": true, "DropUpdateBefore": true, "SinkMaterializer": true, "WindowTableFunction": true,
	"LocalWindowAggregate": true, "GlobalWindowAggregate": true, "WindowDeduplicate": true, "WatermarkAssigner": true,
}

// parsePlanTrees reads plan trees as Flink prints them: one operator a
// line, "Op(key=[value], ...)", its inputs below it, each prefixed by
// "+- " (the last input) or ":- " (the others) three columns further in,
// with ":  " and "   " continuing the branches above. A node printed with
// "(reuse_id=[n])" is referred to again by "Reused(reference_id=[n])".
// Blank lines separate the trees of several sinks.
func parsePlanTrees(lines []string) ([]*PlanNode, error) {
	var roots []*PlanNode
	var stack []*PlanNode // stack[d] is the last node read at depth d
	reused := map[string]*PlanNode{}
	for i, line := range lines {
		line = strings.TrimRight(line, " \t")
		if strings.TrimSpace(line) == "" {
			stack = stack[:0]
			continue
		}
		at := strings.IndexFunc(line, func(r rune) bool { return !strings.ContainsRune(" :+-|", r) })
		if at < 0 || at%3 != 0 {
			return nil, fmt.Errorf("plan line %d: cannot read %q", i+1, line)
		}
		depth := at / 3
		if depth > len(stack) || depth > 0 && len(stack) == 0 {
			return nil, fmt.Errorf("plan line %d: an input without its operator above: %q", i+1, line)
		}
		op, groups := splitOperator(line[at:])
		var n *PlanNode
		if op == "Reused" && len(groups) > 0 {
			id, _ := attrValue(splitTopLevel(groups[0]), "reference_id")
			if n = reused[id]; n == nil {
				return nil, fmt.Errorf("plan line %d: Reused(reference_id=[%s]) refers to no node", i+1, id)
			}
		} else {
			var attrs []string
			if len(groups) > 0 {
				attrs = splitTopLevel(groups[0])
			}
			n = TextPlanNode(op, attrs...)
			for k := 1; k < len(groups); k++ {
				if id, ok := attrValue(splitTopLevel(groups[k]), "reuse_id"); ok {
					reused[id] = n
				}
			}
		}
		stack = append(stack[:depth], n)
		if depth == 0 {
			roots = append(roots, n)
		} else {
			parent := stack[depth-1]
			parent.Inputs = append(parent.Inputs, n)
		}
	}
	if len(roots) == 0 {
		return nil, fmt.Errorf("the plan is empty")
	}
	return roots, nil
}

// splitOperator splits "Op(a=[1], b=[2])(reuse_id=[1])" into the
// operator's name and the texts inside its top-level parentheses.
func splitOperator(s string) (string, []string) {
	open := strings.IndexByte(s, '(')
	if open < 0 {
		return strings.TrimSpace(s), nil
	}
	op := strings.TrimSpace(s[:open])
	var groups []string
	depth, start := 0, open+1
	scanBrackets(s[open:], func(i int, c byte) {
		i += open
		switch c {
		case '(', '[', '{':
			if depth == 0 && c == '(' {
				start = i + 1
			}
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 && c == ')' && start <= i {
				groups = append(groups, s[start:i])
			}
		}
	})
	return op, groups
}

// splitTopLevel splits "a=[x, y], b=[f(1, 2)]" at the commas outside
// brackets, parentheses and quotes.
func splitTopLevel(s string) []string {
	var out []string
	depth, start := 0, 0
	scanBrackets(s, func(i int, c byte) {
		switch c {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	})
	if rest := strings.TrimSpace(s[start:]); rest != "" {
		out = append(out, rest)
	}
	return out
}

// scanBrackets calls f with the position of each bracket and comma of s
// outside quoted literals. Flink prints a literal's quote inside it
// undoubled ('it's') and window properties with a lone quote
// (start('w$)), so a literal is taken to run from a quote to the next
// quote that is not followed by a letter or digit; a quote with no such
// end is an ordinary character.
func scanBrackets(s string, f func(i int, c byte)) {
	word := func(c byte) bool {
		return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\'' {
			end := -1
			for j := i + 1; j < len(s); j++ {
				if s[j] == '\'' && (j+1 == len(s) || !word(s[j+1])) {
					end = j
					break
				}
			}
			if end > 0 {
				i = end
				continue
			}
		}
		switch c {
		case '(', '[', '{', ')', ']', '}', ',':
			f(i, c)
		}
	}
}

// attrValue returns the value of key=[value] among attrs.
func attrValue(attrs []string, key string) (string, bool) {
	for _, a := range attrs {
		if v, ok := strings.CutPrefix(a, key+"=["); ok && strings.HasSuffix(v, "]") {
			return v[:len(v)-1], true
		}
	}
	return "", false
}

// parseChangelogMode reads EXPLAIN's "I,UB,UA,D".
func parseChangelogMode(s string) types.ChangelogMode {
	var kinds []types.RowKind
	for _, k := range strings.Split(s, ",") {
		switch strings.TrimSpace(k) {
		case "I":
			kinds = append(kinds, types.Insert)
		case "UB":
			kinds = append(kinds, types.UpdateBefore)
		case "UA":
			kinds = append(kinds, types.UpdateAfter)
		case "D":
			kinds = append(kinds, types.Delete)
		}
	}
	return types.ChangelogModeOf(kinds...)
}

// exchangeDist reads an Exchange's distribution=[...]: hash[keys],
// broadcast, single, forward, or another (rebalance, any) as rebalance.
func exchangeDist(attrs []string) Distribution {
	d, _ := attrValue(attrs, "distribution")
	switch {
	case strings.HasPrefix(d, "hash["):
		return DistributionHash
	case d == "broadcast":
		return DistributionBroadcast
	case d == "single":
		return DistributionSingle
	case d == "forward":
		return DistributionForward
	}
	return DistributionRebalance
}

// multipleInputMembers names the operators a batch MultipleInput runs
// (its members=[...] attribute, a plan tree with "\n" for line breaks),
// each once; none when there are none.
func multipleInputMembers(attrs []string) []string {
	m, ok := attrValue(attrs, "members")
	if !ok {
		return nil
	}
	var names []string
	seen := map[string]bool{}
	for _, line := range strings.Split(m, `\n`) {
		line = strings.TrimLeft(line, " :+-|")
		if strings.HasPrefix(line, "[#") { // an input: "[#1] Exchange(...)"
			continue
		}
		op, _ := splitOperator(line)
		if op != "" && !seen[op] {
			seen[op] = true
			names = append(names, op)
		}
	}
	return names
}

// tableName shortens "[default_catalog, default_database, flights]" to
// "flights".
func tableName(t string) string {
	t = strings.TrimSuffix(strings.TrimPrefix(t, "["), "]")
	parts := splitList(t)
	// the object name is the last part that is not a pushed-down ability
	// (project=[...], filter=[...], partitions=[...], limit=[...], ...)
	for i := len(parts) - 1; i >= 0; i-- {
		if !strings.Contains(parts[i], "=") {
			return parts[i]
		}
	}
	return t
}

// splitList splits "a, f(b, c), d" at top-level commas (brackets only;
// quotes are not special, as in the names of keys and tables).
func splitList(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	if rest := strings.TrimSpace(s[start:]); rest != "" {
		out = append(out, rest)
	}
	return out
}
