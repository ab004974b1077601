package table

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// The seed examples' exporter: TestSeedExamplesExport runs every Go
// example labelled with a seed inventory id (E-01 to E-98, E-ROUND, E-PATH,
// E-RSCHEMA; see TestSeedExamplesCovered) and writes what it prints as
// JSON lines, one per example, for the interop test that compares them with
// the same examples run in PyFlink (interop/pyflink_examples_test.go).
//
// It runs only when RIFFLE_SEED_EXPORT names the output file:
//
//	RIFFLE_SEED_EXPORT=/tmp/go.jsonl go test -tags migrated_fynedo -run TestSeedExamplesExport ./engine/table/
//
// Each line is {"label": "E-57/E-58", "labels": [...], "example":
// "ExampleTableEnvironment_ExecuteSQL", "lines": [...printed lines...],
// "error": "panic text or empty"}. The examples are run as `go test` runs
// them (standard output captured); their `// Output:` assertions stay
// where they are and are checked by `go test` as usual.

// seedExampleFuncs maps the labelled examples' names to their functions;
// seed_export_streaming_test.go adds the riffle_streaming ones.
var seedExampleFuncs = map[string]func(){
	"ExampleExpression_Between":                          ExampleExpression_Between,
	"ExampleExpression_Between_dates":                    ExampleExpression_Between_dates,
	"ExampleExpression_NotBetween":                       ExampleExpression_NotBetween,
	"ExampleExpression_NotBetween_dates":                 ExampleExpression_NotBetween_dates,
	"ExampleExpression_In_nulls":                         ExampleExpression_In_nulls,
	"ExampleExpression_Then":                             ExampleExpression_Then,
	"ExampleIfThenElse":                                  ExampleIfThenElse,
	"ExampleExpression_IfNull":                           ExampleExpression_IfNull,
	"ExampleExpression_IsTrue":                           ExampleExpression_IsTrue,
	"ExampleExpression_Cast":                             ExampleExpression_Cast,
	"ExampleExpression_Round":                            ExampleExpression_Round,
	"ExampleLit":                                         ExampleLit,
	"ExampleExpression_Like":                             ExampleExpression_Like,
	"ExampleExpression_ToTimestamp":                      ExampleExpression_ToTimestamp,
	"ExampleExpression_Sum0":                             ExampleExpression_Sum0,
	"ExampleExpression_Distinct":                         ExampleExpression_Distinct,
	"ExampleWithColumns":                                 ExampleWithColumns,
	"ExampleExpression_In":                               ExampleExpression_In,
	"ExampleExpression_Bin":                              ExampleExpression_Bin,
	"ExampleExpression_Hex":                              ExampleExpression_Hex,
	"ExampleExpression_Truncate":                         ExampleExpression_Truncate,
	"ExampleExpression_Sign":                             ExampleExpression_Sign,
	"ExampleRand":                                        ExampleRand,
	"ExampleExpression_Lpad":                             ExampleExpression_Lpad,
	"ExampleExpression_Rpad":                             ExampleExpression_Rpad,
	"ExampleExpression_Overlay":                          ExampleExpression_Overlay,
	"ExampleExpression_Position":                         ExampleExpression_Position,
	"ExampleExpression_Replace":                          ExampleExpression_Replace,
	"ExampleExpression_Similar":                          ExampleExpression_Similar,
	"ExampleExpression_InitCap":                          ExampleExpression_InitCap,
	"ExampleConcatWs":                                    ExampleConcatWs,
	"ExampleExpression_Md5":                              ExampleExpression_Md5,
	"ExampleUUID":                                        ExampleUUID,
	"ExampleExpression_Element":                          ExampleExpression_Element,
	"ExampleExpression_At":                               ExampleExpression_At,
	"ExampleExpression_Extract":                          ExampleExpression_Extract,
	"ExampleExpression_Ceil":                             ExampleExpression_Ceil,
	"ExampleExpression_Floor":                            ExampleExpression_Floor,
	"ExampleTemporalOverlaps":                            ExampleTemporalOverlaps,
	"ExampleDateFormat":                                  ExampleDateFormat,
	"ExampleTimestampDiff":                               ExampleTimestampDiff,
	"ExampleCurrentTimestamp":                            ExampleCurrentTimestamp,
	"ExampleExpression_JSONExists":                       ExampleExpression_JSONExists,
	"ExampleExpression_JSONValue":                        ExampleExpression_JSONValue,
	"ExampleExpression_StddevPop":                        ExampleExpression_StddevPop,
	"ExampleTable_Limit":                                 ExampleTable_Limit,
	"ExampleTable_MinusAll":                              ExampleTable_MinusAll,
	"ExampleUDTAF":                                       ExampleUDTAF,
	"ExampleTable_FlatMap":                               ExampleTable_FlatMap,
	"ExampleExpression_Seconds":                          ExampleExpression_Seconds,
	"ExampleTableSchema_ToRowDataType":                   ExampleTableSchema_ToRowDataType,
	"ExampleTableEnvironment_FromElementsWithType":       ExampleTableEnvironment_FromElementsWithType,
	"ExampleTableEnvironment_FromDataStream":             ExampleTableEnvironment_FromDataStream,
	"ExampleDecimalContext_Round":                        ExampleDecimalContext_Round,
	"ExampleTableConfig_GetDecimalContext":               ExampleTableConfig_GetDecimalContext,
	"ExampleTableConfig_SetIdleStateRetention":           ExampleTableConfig_SetIdleStateRetention,
	"ExampleTableEnvironment_FromElements":               ExampleTableEnvironment_FromElements,
	"ExampleTableEnvironment_FromElements_schema":        ExampleTableEnvironment_FromElements_schema,
	"ExampleTableEnvironment_FromPath":                   ExampleTableEnvironment_FromPath,
	"ExampleParsePath":                                   ExampleParsePath,
	"ExampleTableEnvironment_ExecuteSQL":                 ExampleTableEnvironment_ExecuteSQL,
	"ExampleTableResult_GetTableSchema":                  ExampleTableResult_GetTableSchema,
	"ExampleSchemaBuilder_ColumnByExpression":            ExampleSchemaBuilder_ColumnByExpression,
	"ExampleSchemaBuilder_Column":                        ExampleSchemaBuilder_Column,
	"ExampleSchemaBuilder_Watermark":                     ExampleSchemaBuilder_Watermark,
	"ExampleTableEnvironment_ToChangelogStream":          ExampleTableEnvironment_ToChangelogStream,
	"ExampleTableEnvironment_ToChangelogStream_types":    ExampleTableEnvironment_ToChangelogStream_types,
	"ExampleSchemaBuilder_ColumnByMetadata":              ExampleSchemaBuilder_ColumnByMetadata,
	"ExampleSchemaBuilder_Watermark_declaration":         ExampleSchemaBuilder_Watermark_declaration,
	"ExampleSchemaBuilder_PrimaryKey":                    ExampleSchemaBuilder_PrimaryKey,
	"ExampleTableDescriptorBuilder_Format":               ExampleTableDescriptorBuilder_Format,
	"ExampleForFormat":                                   ExampleForFormat,
	"ExampleTableDescriptorBuilder_Option":               ExampleTableDescriptorBuilder_Option,
	"ExampleTableEnvironment_CreateTable":                ExampleTableEnvironment_CreateTable,
	"ExampleTable_Map":                                   ExampleTable_Map,
	"ExampleTable_window_rowtime":                        ExampleTable_window_rowtime,
	"ExampleTable_window_watermarkStrategy":              ExampleTable_window_watermarkStrategy,
	"ExampleTableEnvironment_FromElements_rowKeywords":   ExampleTableEnvironment_FromElements_rowKeywords,
	"ExampleTableEnvironment_FromElements_rowClass":      ExampleTableEnvironment_FromElements_rowClass,
	"ExampleTableEnvironment_FromElements_asDict":        ExampleTableEnvironment_FromElements_asDict,
	"ExampleTableEnvironment_FromChangelogStream_kinds":  ExampleTableEnvironment_FromChangelogStream_kinds,
	"ExampleTable_Explain_details":                       ExampleTable_Explain_details,
	"ExampleTableResult_GetResultKind":                   ExampleTableResult_GetResultKind,
	"ExampleTableConfig_SetSQLDialect":                   ExampleTableConfig_SetSQLDialect,
	"ExampleNewCsvTableSink":                             ExampleNewCsvTableSink,
	"ExampleTableConfig_GetExecutionConfig":              ExampleTableConfig_GetExecutionConfig,
	"ExampleJobClient_GetJobStatusAsync":                 ExampleJobClient_GetJobStatusAsync,
	"ExampleTableConfig_GetConfiguration":                ExampleTableConfig_GetConfiguration,
	"ExampleTableConfig_GetExecutionConfig_settings":     ExampleTableConfig_GetExecutionConfig_settings,
	"ExampleTableEnvironment_GetConfig":                  ExampleTableEnvironment_GetConfig,
	"ExampleEnvironmentSettings_ToConfiguration":         ExampleEnvironmentSettings_ToConfiguration,
	"ExampleTableEnvironment_RegisterTableSource":        ExampleTableEnvironment_RegisterTableSource,
	"ExampleNewCsvTableSource":                           ExampleNewCsvTableSource,
	"ExampleTableEnvironment_ToDataStream_serialization": ExampleTableEnvironment_ToDataStream_serialization,
}

// seedLabel finds the seed ids an example's doc comment starts with:
// "// E-57, E-58: ..." gives [E-57 E-58].
var seedLabel = regexp.MustCompile(`^E-(\d\d|ROUND|PATH|RSCHEMA)\b`)
var seedIDs = regexp.MustCompile(`E-(\d\d|ROUND|PATH|RSCHEMA)\b`)

// seedExample is one labelled example found in the example files.
type seedExample struct {
	Labels []string
	Name   string
	File   string
}

// labelledSeedExamples parses example_*_test.go (all of them, whatever
// their build tags) and returns the examples whose doc comment starts with
// seed ids, in file order.
func labelledSeedExamples() ([]seedExample, error) {
	files, err := filepath.Glob("example_*_test.go")
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var out []seedExample
	fset := token.NewFileSet()
	for _, f := range files {
		af, err := parser.ParseFile(fset, f, nil, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		for _, d := range af.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Doc == nil || !strings.HasPrefix(fd.Name.Name, "Example") {
				continue
			}
			text := fd.Doc.Text()
			if !seedLabel.MatchString(text) {
				continue
			}
			head, _, _ := strings.Cut(strings.SplitN(text, "\n", 2)[0], ":")
			out = append(out, seedExample{Labels: seedIDs.FindAllString(head, -1), Name: fd.Name.Name, File: f})
		}
	}
	return out, nil
}

// runExample runs f with standard output captured, as `go test` runs an
// example; a panic becomes the returned error text.
func runExample(f func()) (out string, panicked string) {
	r, w, err := os.Pipe()
	if err != nil {
		return "", err.Error()
	}
	stdout := os.Stdout
	os.Stdout = w
	done := make(chan string)
	go func() {
		var b bytes.Buffer
		_, _ = io.Copy(&b, r)
		done <- b.String()
	}()
	func() {
		defer func() {
			if p := recover(); p != nil {
				panicked = fmt.Sprint(p)
			}
		}()
		f()
	}()
	_ = w.Close()
	os.Stdout = stdout
	out = <-done
	_ = r.Close()
	return out, panicked
}

// seedRecord is one exported example.
type seedRecord struct {
	Label   string   `json:"label"`
	Labels  []string `json:"labels"`
	Example string   `json:"example"`
	Lines   []string `json:"lines"`
	Error   string   `json:"error,omitempty"`
}

// TestSeedExamplesRegistry checks that seedExampleFuncs names exactly the
// labelled examples compiled into this build, so the exporter cannot drift
// from the examples.
func TestSeedExamplesRegistry(t *testing.T) {
	exs, err := labelledSeedExamples()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, e := range exs {
		seen[e.Name] = true
		if _, ok := seedExampleFuncs[e.Name]; !ok && e.File != "example_streaming_test.go" {
			t.Errorf("%s (%s, %v) is not in seedExampleFuncs", e.Name, e.File, e.Labels)
		}
	}
	for name := range seedExampleFuncs {
		if !seen[name] {
			t.Errorf("seedExampleFuncs names %s, which is not a labelled example", name)
		}
	}
}

// TestSeedExamplesExport writes the labelled examples' output to the file
// named by RIFFLE_SEED_EXPORT; without it the test is skipped.
func TestSeedExamplesExport(t *testing.T) {
	path := os.Getenv("RIFFLE_SEED_EXPORT")
	if path == "" {
		t.Skip("set RIFFLE_SEED_EXPORT to a file to export the seed examples' output")
	}
	exs, err := labelledSeedExamples()
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	n := 0
	for _, e := range exs {
		f, ok := seedExampleFuncs[e.Name]
		if !ok {
			continue // an example of a build tag not set in this run
		}
		out, perr := runExample(f)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		for i, l := range lines {
			lines[i] = strings.TrimRight(l, " \t")
		}
		if err := enc.Encode(seedRecord{Label: strings.Join(e.Labels, "/"), Labels: e.Labels, Example: e.Name, Lines: lines, Error: perr}); err != nil {
			t.Fatal(err)
		}
		n++
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("exported %d examples to %s", n, path)
}
