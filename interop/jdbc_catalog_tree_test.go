//go:build interop

package interop

import (
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/riffle-sql/riffle/engine/testwait"
	"github.com/riffle-sql/riffle/workbench/catalogbrowser"
)

// jcQueue stands in for fyne.Do: the tree's background reads post their
// answers, the test runs them.
type jcQueue struct {
	mu  sync.Mutex
	fns []func()
}

func (q *jcQueue) Do(f func()) { q.mu.Lock(); q.fns = append(q.fns, f); q.mu.Unlock() }

func (q *jcQueue) drain() {
	q.mu.Lock()
	fns := q.fns
	q.fns = nil
	q.mu.Unlock()
	for _, f := range fns {
		f()
	}
}

// TestJdbcCatalogTree: the workbench's catalog tree over JDBC catalogs on
// the real servers: each catalog with its kind, databases → tables →
// columns read in the background, and an unmappable table's error on its
// node.
func TestJdbcCatalogTree(t *testing.T) {
	pg := PostgresFromEnv(t)
	db := pg.CreateDatabase(t, "jcat_tree")
	db.Exec(t,
		`CREATE TABLE public.orders (id serial PRIMARY KEY, customer varchar(20) NOT NULL, amount numeric(10, 2), placed timestamptz)`,
		`CREATE TABLE public.docs (id int, doc jsonb)`)
	m := MariaDBFromEnv(t)
	mdb := m.CreateDatabase(t, "jcat_tree")
	mdb.Exec(t, `CREATE TABLE items (sku varchar(12) NOT NULL PRIMARY KEY, qty int unsigned, price decimal(8,2))`)

	env := jcEnv(t)
	pgBase := "jdbc:postgresql://" + net.JoinHostPort(pg.Host, strconv.Itoa(pg.Port))
	myBase := "jdbc:mariadb://" + net.JoinHostPort(m.Host, strconv.Itoa(m.Port))
	jcRun(t, env, jcCreateCatalog("pg", pgBase, "jcat_tree", pg.User, pg.Password))
	jcRun(t, env, jcCreateCatalog("shop", myBase, "jcat_tree", m.User, m.Password))
	jcRun(t, env, "CREATE CATALOG scratch WITH ('type' = 'generic_in_memory')")

	test.NewTempApp(t)
	q := &jcQueue{}
	b := catalogbrowser.New(catalogbrowser.EnvSource{Env: env})
	b.Do = q.Do
	var reported []string
	b.OnError = func(err error) { reported = append(reported, err.Error()) }
	w := test.NewTempWindow(t, b)
	w.Resize(fyne.NewSize(600, 800))
	b.OpenPath("pg", "jcat_tree", "public.orders")
	b.OpenPath("pg", "jcat_tree", "public.docs")
	b.OpenPath("shop", "jcat_tree", "items")

	var got []string
	if !testwait.Poll(time.Minute, func() bool {
		q.drain()
		got = b.VisibleLabels()
		return b.Reading() == 0 && !strings.Contains(strings.Join(got, "\n"), "loading…")
	}) {
		t.Fatalf("still loading: %q", got)
	}
	var pgPart, shopPart []string
	var in *[]string
	for _, l := range got {
		switch {
		case strings.HasPrefix(l, "pg "):
			in = &pgPart
		case strings.HasPrefix(l, "shop "):
			in = &shopPart
		case !strings.HasPrefix(l, " "):
			in = nil
		}
		if in != nil && (!strings.HasPrefix(l, "  ") || strings.HasPrefix(l, "  jcat_tree") || strings.HasPrefix(l, "    ")) {
			*in = append(*in, l)
		}
	}
	tree := strings.Join(got, "\n")
	for _, line := range []string{"default_catalog in-memory", "scratch in-memory",
		"pg JDBC · PostgreSQL " + net.JoinHostPort(pg.Host, strconv.Itoa(pg.Port)),
		"shop JDBC · MariaDB " + net.JoinHostPort(m.Host, strconv.Itoa(m.Port))} {
		if !strings.Contains(tree, line+"\n") {
			t.Errorf("tree lacks %q:\n%s", line, tree)
		}
	}
	jcEqual(t, "pg", pgPart, []string{
		"pg JDBC · PostgreSQL " + net.JoinHostPort(pg.Host, strconv.Itoa(pg.Port)),
		"  jcat_tree",
		"    public.docs",
		"      error Doesn't support Postgres type 'jsonb' on column 'doc' of table jcat_tree.public.docs in catalog pg yet",
		"    public.orders",
		"      id INT NOT NULL · PK",
		"      customer VARCHAR(20) NOT NULL",
		"      amount DECIMAL(10, 2)",
		"      placed TIMESTAMP_LTZ(6)",
	})
	jcEqual(t, "shop", shopPart, []string{
		"shop JDBC · MariaDB " + net.JoinHostPort(m.Host, strconv.Itoa(m.Port)),
		"  jcat_tree",
		"    items",
		"      sku VARCHAR(12) NOT NULL · PK",
		"      qty BIGINT",
		"      price DECIMAL(8, 2)",
	})
	if len(reported) != 1 || !strings.Contains(reported[0], "jsonb") {
		t.Errorf("reported %q", reported)
	}
}
