package sql

import (
	"reflect"
	"testing"
	"unicode/utf8"
)

// TestAllPositions walks every node of every corpus statement and checks
// that its span is well formed, lies inside its parent's span, and that
// its line/column agree with its byte offset.
func TestAllPositions(t *testing.T) {
	checked := 0
	defer func() {
		if checked < 5000 {
			t.Errorf("only %d nodes checked", checked)
		}
		t.Logf("%d nodes checked", checked)
	}()
	for _, sp := range corpus(t) {
		st, err := Parse(sp.Text)
		if err != nil {
			t.Fatalf("%q: %v", sp.Text, err)
		}
		lineStarts := []int{0}
		for i := 0; i < len(sp.Text); i++ {
			if sp.Text[i] == '\n' {
				lineStarts = append(lineStarts, i+1)
			}
		}
		check := func(n Node, parentStart, parentEnd int) {
			p := n.Pos()
			if p.Offset < parentStart || n.End() > parentEnd || n.End() < p.Offset {
				t.Errorf("%q: %T span %d-%d outside parent %d-%d", sp.Text, n, p.Offset, n.End(), parentStart, parentEnd)
				return
			}
			if p.Line < 1 || p.Line > len(lineStarts) {
				t.Errorf("%q: %T bad line %d", sp.Text, n, p.Line)
				return
			}
			ls := lineStarts[p.Line-1]
			if p.Offset < ls || utf8.RuneCountInString(sp.Text[ls:p.Offset])+1 != p.Column {
				t.Errorf("%q: %T at %+v: column does not match offset", sp.Text, n, p)
			}
		}
		walkNodes(reflect.ValueOf(st), 0, len(sp.Text), func(n Node, a, b int) { checked++; check(n, a, b) })
	}
}

var nodeType = reflect.TypeOf((*Node)(nil)).Elem()

// walkNodes calls check on every Node reachable from v, passing the span
// of the closest enclosing node.
func walkNodes(v reflect.Value, ps, pe int, check func(Node, int, int)) {
	switch v.Kind() {
	case reflect.Interface:
		if !v.IsNil() {
			walkNodes(v.Elem(), ps, pe, check)
		}
	case reflect.Pointer:
		if v.IsNil() {
			return
		}
		if v.Type().Implements(nodeType) {
			n := v.Interface().(Node)
			check(n, ps, pe)
			ps, pe = n.Pos().Offset, n.End()
		}
		walkNodes(v.Elem(), ps, pe, check)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				walkNodes(v.Field(i), ps, pe, check)
			}
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			walkNodes(v.Index(i), ps, pe, check)
		}
	}
}
