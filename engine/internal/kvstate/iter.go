package kvstate

import (
	"fmt"

	"github.com/cockroachdb/pebble/v2"
)

// Iter walks the keys of a Store starting with one prefix, in key order
// (Store.NewIter). Several may be open at once over one store, which must
// not be written to while they are. Close it when done.
type Iter struct {
	it    *pebble.Iterator
	valid bool
	err   error
}

// NewIter opens an iterator over the keys starting with prefix, positioned
// at the first of them (Valid is false when there is none).
func (s *Store) NewIter(prefix []byte) (*Iter, error) {
	o := &pebble.IterOptions{LowerBound: append([]byte(nil), prefix...), UpperBound: prefixEnd(prefix)}
	it, err := s.db.NewIter(o)
	if err != nil {
		return nil, fmt.Errorf("state backend: %w", err)
	}
	return &Iter{it: it, valid: it.First()}, nil
}

// Valid reports whether the iterator is at a key.
func (i *Iter) Valid() bool { return i.valid && i.err == nil }

// Key is the current key, valid until the next call of Next or Close.
func (i *Iter) Key() []byte { return i.it.Key() }

// Value is the current value, valid until the next call of Next or Close.
func (i *Iter) Value() ([]byte, error) {
	v, err := i.it.ValueAndErr()
	if err != nil {
		i.err = fmt.Errorf("state backend: %w", err)
		return nil, i.err
	}
	return v, nil
}

// Next moves to the following key.
func (i *Iter) Next() { i.valid = i.it.Next() }

// Close releases the iterator; it returns the first error it met.
func (i *Iter) Close() error {
	err := i.it.Close()
	if i.err != nil {
		return i.err
	}
	if err != nil {
		return fmt.Errorf("state backend: %w", err)
	}
	return nil
}

// DeletePrefix removes every key starting with prefix (one range
// tombstone, however many keys it covers).
func (s *Store) DeletePrefix(prefix []byte) error {
	end := prefixEnd(prefix)
	if end == nil {
		return fmt.Errorf("state backend: cannot delete the prefix %x", prefix)
	}
	if err := s.db.DeleteRange(prefix, end, pebble.NoSync); err != nil {
		return fmt.Errorf("state backend: %w", err)
	}
	return nil
}

// CountPrefix is the number of keys starting with prefix (a scan of them).
func (s *Store) CountPrefix(prefix []byte) (int64, error) {
	var n int64
	err := s.Scan(prefix, func(_, _ []byte) bool { n++; return true })
	return n, err
}

// Close releases a batch that will not be committed.
func (b *Batch) Close() { _ = b.b.Close() }
