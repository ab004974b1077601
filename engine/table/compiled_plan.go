package table

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/internal/plan/physical"
	"github.com/riffle-sql/riffle/engine/sql"
)

// Compiled plans: COMPILE PLAN 'file' [IF NOT EXISTS] FOR stmt, COMPILE AND
// EXECUTE PLAN 'file' FOR stmt and EXECUTE PLAN 'file', with Flink's rules
// for the file (TableEnvironmentImpl.compilePlanAndWrite): an existing file
// is kept and loaded when IF NOT EXISTS is given or for COMPILE AND EXECUTE,
// refused otherwise unless 'table.plan.force-recompile' is true (then
// rewritten). A path is a local file: absolute, relative to the working
// directory, or a file:// URI.
//
// Riffle's plan file is JSON but not Flink's ExecNode graph: it records the
// statement (an INSERT or a statement set), the catalog and database it was
// compiled in, and the optimized execution plan for reading. EXECUTE PLAN
// plans that statement again against the catalog as it is then; Flink
// instead runs the stored operators with the stored table definitions.

// PlanForceRecompileKey is Flink's option to overwrite an existing plan
// file on COMPILE PLAN (default false).
const PlanForceRecompileKey = "table.plan.force-recompile"

// compiledPlanFormat names the plan file's layout.
const compiledPlanFormat = "riffle-compiled-plan-1"

// compiledPlan is the JSON document a plan file holds.
type compiledPlan struct {
	FlinkVersion  string   `json:"flinkVersion"`
	Format        string   `json:"riffleFormat"`
	Statement     string   `json:"statement"`
	Catalog       string   `json:"catalog"`
	Database      string   `json:"database"`
	ExecutionPlan []string `json:"executionPlan,omitempty"`
}

// planFilePath turns a COMPILE/EXECUTE PLAN path into a local file path.
func planFilePath(p string) (string, error) {
	if strings.Contains(p, "://") {
		u, err := url.Parse(p)
		if err != nil {
			return "", errorf("Invalid plan file path '%s': %v", p, err)
		}
		if u.Scheme != "file" {
			return "", errorf("Could not find a file system implementation for scheme '%s' of the plan file '%s': Riffle reads and writes plans on the local file system (file://)", u.Scheme, p)
		}
		return filepath.FromSlash(u.Path), nil
	}
	return filepath.Clean(p), nil
}

// compilePlan runs COMPILE [AND EXECUTE] PLAN.
func (x *execution) compilePlan(s *sql.CompilePlan) (*TableResult, error) {
	t := x.env
	path, err := planFilePath(s.Path)
	if err != nil {
		return nil, err
	}
	var ins []*sql.Insert
	switch st := s.Stmt.(type) {
	case *sql.Insert:
		ins = []*sql.Insert{st}
	case *sql.StatementSet:
		ins = st.Statements
	default:
		return nil, errorf("COMPILE PLAN compiles an INSERT or a statement set, not %T", s.Stmt)
	}
	_, statErr := os.Stat(path)
	exists := statErr == nil
	if exists && !t.config.conf.GetBoolean(PlanForceRecompileKey, false) {
		if s.IfNotExists || s.AndExecute {
			if !s.AndExecute {
				return okResult(), nil
			}
			return x.env.executePlanFile(x, path)
		}
		return nil, errorf("Cannot overwrite the plan file '%s'. Either manually remove the file or, if you're debugging your job, set the option '%s' to true.", s.Path, PlanForceRecompileKey)
	}
	var sinks []plan.Node
	for _, i := range ins {
		p, err := x.insertPlan(i)
		if err != nil {
			return nil, err
		}
		sinks = append(sinks, p)
	}
	text, _, err := t.explainPlans(sinks, physical.ExplainDetail{})
	if err != nil {
		return nil, err
	}
	cp := compiledPlan{FlinkVersion: "2.3", Format: compiledPlanFormat, Statement: x.source(s.Stmt),
		Catalog: t.CurrentCatalog(), Database: t.CurrentDatabase(), ExecutionPlan: execSection(text)}
	b, err := json.MarshalIndent(cp, "", "  ")
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, errorf("Cannot write the plan file '%s': %v", s.Path, err)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return nil, errorf("Cannot write the plan file '%s': %v", s.Path, err)
	}
	if !s.AndExecute {
		return okResult(), nil
	}
	return t.runInserts(x.ctx, sinks, cp.Statement)
}

// execSection returns the lines of the "Optimized Execution Plan" section
// of an EXPLAIN text.
func execSection(text string) []string {
	const head = "== Optimized Execution Plan =="
	i := strings.Index(text, head)
	if i < 0 {
		return nil
	}
	body := strings.TrimSpace(text[i+len(head):])
	if j := strings.Index(body, "\n== "); j >= 0 {
		body = strings.TrimSpace(body[:j])
	}
	return strings.Split(body, "\n")
}

// executePlan runs EXECUTE PLAN 'file'.
func (x *execution) executePlan(s *sql.ExecutePlan) (*TableResult, error) {
	path, err := planFilePath(s.Path)
	if err != nil {
		return nil, err
	}
	return x.env.executePlanFile(x, path)
}

// executePlanFile loads a plan file and submits its statement's job, in
// the catalog and database it was compiled in.
func (t *TableEnvironment) executePlanFile(x *execution, path string) (*TableResult, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, errorf("Cannot load the plan file '%s': the file does not exist", path)
		}
		return nil, errorf("Cannot load the plan file '%s': %v", path, err)
	}
	var cp compiledPlan
	if err := json.Unmarshal(b, &cp); err != nil {
		return nil, errorf("Cannot load the plan file '%s': not a JSON plan: %v", path, err)
	}
	if cp.Format != compiledPlanFormat || cp.Statement == "" {
		return nil, errorf("Cannot load the plan file '%s': it was not compiled by Riffle (Riffle runs the plans its COMPILE PLAN writes, not Flink's ExecNode graphs)", path)
	}
	stmts, err := sql.ParseScript(cp.Statement)
	if err != nil || len(stmts) != 1 {
		return nil, errorf("Cannot load the plan file '%s': its statement does not parse: %v", path, err)
	}
	var ins []*sql.Insert
	switch st := stmts[0].(type) {
	case *sql.Insert:
		ins = []*sql.Insert{st}
	case *sql.StatementSet:
		ins = st.Statements
	default:
		return nil, errorf("Cannot load the plan file '%s': its statement is not an INSERT or a statement set", path)
	}
	cat, db := t.CurrentCatalog(), t.CurrentDatabase()
	if cp.Catalog != "" && cp.Database != "" && (cp.Catalog != cat || cp.Database != db) {
		if err := t.UseCatalog(cp.Catalog); err != nil {
			return nil, fmt.Errorf("Cannot execute the plan file '%s': %w", path, err)
		}
		defer func() { _ = t.UseCatalog(cat); _ = t.UseDatabase(db) }()
		if err := t.UseDatabase(cp.Database); err != nil {
			return nil, fmt.Errorf("Cannot execute the plan file '%s': %w", path, err)
		}
	}
	px := &execution{env: t, ctx: x.ctx, text: cp.Statement}
	return px.inserts(ins)
}
