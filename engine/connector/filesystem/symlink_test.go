package filesystem

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
)

// A table whose path is a symbolic link to a directory reads the files of
// that directory (listed under the link's path), as a path naming the
// directory itself does, and INSERT OVERWRITE through the link replaces
// them (it read nothing, and the overwrite kept the old files).
func TestReadALinkedDirectory(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real")
	write(t, filepath.Join(real, "a.csv"), "1,one\n")
	write(t, filepath.Join(real, "sub", "b.csv"), "2,two\n")
	write(t, filepath.Join(real, "_SUCCESS"), "")
	link := filepath.Join(dir, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	for _, path := range []string{link, link + "/", "file://" + link} {
		src, err := connector.CreateSource(newCtx(map[string]string{"path": path, "format": "csv"}, names, tys))
		if err != nil {
			t.Fatal(err)
		}
		rows, err := readAll(t, src, connector.ReadSpec{Limit: -1}, tys)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(rows, ";"); got != "+I[1, one];+I[2, two]" {
			t.Fatalf("path %s: rows %q", path, got)
		}
	}
	files, err := listFiles(link, nil)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range files {
		paths = append(paths, f.Path)
	}
	want := filepath.Join(link, "a.csv") + ";" + filepath.Join(link, "sub", "b.csv")
	if got := strings.Join(paths, ";"); got != want {
		t.Fatalf("listed %q, want %q", got, want)
	}
	// INSERT OVERWRITE through the link replaces the files there
	sink, err := connector.CreateSink(newCtx(map[string]string{"path": link, "format": "csv"}, names, tys))
	if err != nil {
		t.Fatal(err)
	}
	bg := context.Background()
	w, err := sink.Open(bg, connector.WriteSpec{Names: names, Types: tys, Overwrite: true}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(bg, batchOf(t, types.NewRow(int32(9), "nine"))); err != nil {
		t.Fatal(err)
	}
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	src, _ := connector.CreateSource(newCtx(map[string]string{"path": real, "format": "csv"}, names, tys))
	rows, err := readAll(t, src, connector.ReadSpec{Limit: -1}, tys)
	if err != nil || strings.Join(rows, ";") != "+I[9, nine]" {
		t.Fatalf("after INSERT OVERWRITE through the link: %v %v", rows, err)
	}
}
