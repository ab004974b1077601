//go:build interop

package interop

import (
	"os"
	"path/filepath"
	"testing"
)

// TestMain runs the package's tests, then removes what they built for
// every test (the riffle binary riffleBin built).
func TestMain(m *testing.M) {
	code := m.Run()
	if builtRiffle.path != "" {
		_ = os.RemoveAll(filepath.Dir(builtRiffle.path))
	}
	os.Exit(code)
}
