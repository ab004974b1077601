package config

import (
	"testing"
	"time"
)

func TestTypedOptions(t *testing.T) {
	c := New()
	o := Key("a.b").IntType().DefaultValue(5).WithFallbackKeys("old.a.b")
	if v, err := Get(c, o); v != 5 || err != nil {
		t.Fatal(v, err)
	}
	c.Set("old.a.b", "7")
	if v, _ := Get(c, o); v != 7 {
		t.Fatal("fallback key", v)
	}
	Set(c, o, 9)
	if v, _ := Get(c, o); v != 9 {
		t.Fatal("key wins", v)
	}
	c.Set("a.b", "x")
	if _, err := Get(c, o); err == nil {
		t.Fatal("a bad value must fail")
	}
	d := Key("d").DurationType().NoDefaultValue()
	Set(c, d, 90*time.Second)
	if c.GetString("d", "") != "90 s" {
		t.Fatal(c.GetString("d", ""))
	}
	if v, ok, _ := GetOptional(c, Key("none").StringType().DefaultValue("x")); ok || v != "" {
		t.Fatal("optional")
	}
	c.SetBytearray("bytes", []byte{1, 2, 255})
	if b := c.GetBytearray("bytes", nil); len(b) != 3 || b[2] != 255 {
		t.Fatal("bytes")
	}
	o2 := New().AddAllWithPrefix(c, "p.")
	if !o2.ContainsKey("p.bytes") || o2.RemoveConfig("p.bytes") != true || o2.ContainsKey("p.bytes") {
		t.Fatal("prefix")
	}
	m := ParseMapValue("k1:v1,'a,b':'c:d','it''s':x")
	if m["k1"] != "v1" || m["a,b"] != "c:d" || m["it's"] != "x" {
		t.Fatal(m)
	}
	if ParseMapValue(FormatMapValue(m))["a,b"] != "c:d" {
		t.Fatal("round trip")
	}
}
