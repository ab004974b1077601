package config

import (
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// TestParallelismDefaultsToTheCores: unset, -1 and refused values give
// the number of cores (Flink's local execution default), a set value in
// 1..512 is kept, and the registered option lists the cores as its
// default.
func TestParallelismDefaultsToTheCores(t *testing.T) {
	cores := min(runtime.NumCPU(), MaxParallelism)
	if DefaultParallelism() != cores {
		t.Fatalf("DefaultParallelism %d, want runtime.NumCPU() = %d", DefaultParallelism(), cores)
	}
	var nilConf *Configuration
	if p, set := nilConf.ParallelismSource(); p != cores || set {
		t.Errorf("nil configuration: %d (set %v), want %d unset", p, set, cores)
	}
	for _, c := range []struct {
		value string
		want  int
		set   bool
	}{
		{"", cores, false}, {"-1", cores, false}, {"0", cores, false}, {"513", cores, false}, {"x", cores, false},
		{"1", 1, true}, {" 3 ", 3, true}, {"512", 512, true},
	} {
		conf := New()
		if c.value != "" {
			conf.Set(Parallelism.Key, c.value)
		}
		if p, set := conf.ParallelismSource(); p != c.want || set != c.set {
			t.Errorf("parallelism.default %q: %d (set %v), want %d (set %v)", c.value, p, set, c.want, c.set)
		}
	}
	if Parallelism.Default != strconv.Itoa(cores) {
		t.Errorf("option default %q, want %d", Parallelism.Default, cores)
	}
	unset, set := New(), New()
	set.Set(Parallelism.Key, "1")
	if d := unset.DescribeParallelism(); !strings.HasPrefix(d, "Jobs run at parallelism "+strconv.Itoa(cores)+": parallelism.default is not set, so it is the number of cores") {
		t.Errorf("unset: %q", d)
	}
	if d := set.DescribeParallelism(); !strings.HasPrefix(d, "Jobs run at parallelism 1: parallelism.default is set to 1 in this session") {
		t.Errorf("set: %q", d)
	}
}
