package types

import "strings"

// ChangelogMode is the set of RowKinds a stream may contain (Flink's
// ChangelogMode). Nodes are insert-only [I], upsert [I,UA,D] (keyed by a
// unique key, no -U) or retract [I,UB,UA,D].
type ChangelogMode struct {
	kinds uint8
	// keyOnlyDeletes: a -D row may carry only the key columns (Flink's
	// ChangelogMode.keyOnlyDeletes, shown as PD)
	keyOnlyDeletes bool
}

// ChangelogModeOf builds a mode from row kinds.
func ChangelogModeOf(kinds ...RowKind) ChangelogMode {
	var m ChangelogMode
	for _, k := range kinds {
		m.kinds |= 1 << k
	}
	return m
}

// The three standard modes.
var (
	InsertOnlyMode = ChangelogModeOf(Insert)
	UpsertMode     = ChangelogModeOf(Insert, UpdateAfter, Delete)
	RetractMode    = ChangelogModeOf(Insert, UpdateBefore, UpdateAfter, Delete)
)

// Contains reports whether the mode includes kind k.
func (m ChangelogMode) Contains(k RowKind) bool { return m.kinds&(1<<k) != 0 }

// ContainsOnly reports whether the mode includes exactly kind k.
func (m ChangelogMode) ContainsOnly(k RowKind) bool { return m.kinds == 1<<k }

// IsInsertOnly reports [I].
func (m ChangelogMode) IsInsertOnly() bool { return m.ContainsOnly(Insert) }

// Union merges two modes.
func (m ChangelogMode) Union(o ChangelogMode) ChangelogMode {
	return ChangelogMode{m.kinds | o.kinds, m.keyOnlyDeletes || o.keyOnlyDeletes}
}

// WithKeyOnlyDeletes is m whose -D rows may carry only the key columns
// (Flink's ChangelogMode.upsert(), as fromChangelogStream declares it).
func (m ChangelogMode) WithKeyOnlyDeletes() ChangelogMode {
	m.keyOnlyDeletes = m.Contains(Delete)
	return m
}

// KeyOnlyDeletes reports whether -D rows may carry only the key columns.
func (m ChangelogMode) KeyOnlyDeletes() bool { return m.keyOnlyDeletes }

// Kinds lists the kinds in Flink's order.
func (m ChangelogMode) Kinds() []RowKind {
	var out []RowKind
	for k := Insert; k <= Delete; k++ {
		if m.Contains(k) {
			out = append(out, k)
		}
	}
	return out
}

// String renders EXPLAIN's form: "I", "I,UA,D", "I,UB,UA,D" ("PD" for
// key-only deletes).
func (m ChangelogMode) String() string {
	var parts []string
	names := map[RowKind]string{Insert: "I", UpdateBefore: "UB", UpdateAfter: "UA", Delete: "D"}
	if m.keyOnlyDeletes {
		names[Delete] = "PD"
	}
	for _, k := range m.Kinds() {
		parts = append(parts, names[k])
	}
	return strings.Join(parts, ",")
}
