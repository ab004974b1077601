package table

// ---------------------------------------------------------------- data views

// DataView is a collection usable inside an aggregate accumulator
// (PyFlink's DataView). Riffle keeps accumulators in memory, so data views
// are plain Go collections.
type DataView interface {
	// Clear removes every element.
	Clear()
}

// ListView is a list inside an accumulator (PyFlink's ListView, declared
// with datatypes.ListView).
type ListView[T any] struct {
	items []T
}

// Get returns the elements (PyFlink's get).
func (l *ListView[T]) Get() []T { return l.items }

// Add appends an element (PyFlink's add).
func (l *ListView[T]) Add(v T) { l.items = append(l.items, v) }

// AddAll appends elements (PyFlink's add_all).
func (l *ListView[T]) AddAll(vs []T) { l.items = append(l.items, vs...) }

// Clear implements DataView (PyFlink's clear).
func (l *ListView[T]) Clear() { l.items = nil }

// MapView is a map inside an accumulator (PyFlink's MapView, declared
// with datatypes.MapView).
type MapView[K comparable, V any] struct {
	m map[K]V
}

// Get returns the value of key and whether it exists (PyFlink's get).
func (m *MapView[K, V]) Get(key K) (V, bool) {
	v, ok := m.m[key]
	return v, ok
}

// Put sets a value, replacing an existing one (PyFlink's put).
func (m *MapView[K, V]) Put(key K, value V) {
	if m.m == nil {
		m.m = map[K]V{}
	}
	m.m[key] = value
}

// PutAll sets several values (PyFlink's put_all).
func (m *MapView[K, V]) PutAll(values map[K]V) {
	for k, v := range values {
		m.Put(k, v)
	}
}

// Remove deletes a key (PyFlink's remove).
func (m *MapView[K, V]) Remove(key K) { delete(m.m, key) }

// Contains reports whether key exists (PyFlink's contains).
func (m *MapView[K, V]) Contains(key K) bool {
	_, ok := m.m[key]
	return ok
}

// Keys returns the keys, in no particular order (PyFlink's keys).
func (m *MapView[K, V]) Keys() []K {
	out := make([]K, 0, len(m.m))
	for k := range m.m {
		out = append(out, k)
	}
	return out
}

// Values returns the values, in no particular order (PyFlink's values).
func (m *MapView[K, V]) Values() []V {
	out := make([]V, 0, len(m.m))
	for _, v := range m.m {
		out = append(out, v)
	}
	return out
}

// Items returns a copy of the entries (PyFlink's items).
func (m *MapView[K, V]) Items() map[K]V {
	out := make(map[K]V, len(m.m))
	for k, v := range m.m {
		out[k] = v
	}
	return out
}

// IsEmpty reports whether the map has no entries (PyFlink's is_empty).
func (m *MapView[K, V]) IsEmpty() bool { return len(m.m) == 0 }

// Clear implements DataView (PyFlink's clear).
func (m *MapView[K, V]) Clear() { m.m = nil }
