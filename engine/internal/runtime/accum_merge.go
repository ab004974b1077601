package runtime

import (
	"strings"
)

// mergeableAcc is implemented by accumulators whose per-group state can be
// merged: window aggregation combines slices this way (HOP and CUMULATE
// windows share slices) and session windows merge when a row bridges two
// sessions. src is an accumulator of the same concrete type (it may be the
// receiver itself).
type mergeableAcc interface {
	mergeFrom(dst int32, src accumulator, sg int32)
}

// resettableAcc is implemented by accumulators that can clear a group so
// its id can be reused.
type resettableAcc interface {
	reset(g int32)
}

// canMerge reports whether every accumulator can merge.
func canMerge(accs []accumulator) bool {
	for _, a := range accs {
		if _, ok := a.(mergeableAcc); !ok {
			return false
		}
		if d, ok := a.(*distinctAcc); ok {
			if _, ok := d.inner.(*countAcc); !ok {
				return false
			}
		}
	}
	return true
}

// canReset reports whether every accumulator can reset groups.
func canReset(accs []accumulator) bool {
	for _, a := range accs {
		if _, ok := a.(resettableAcc); !ok {
			return false
		}
		if d, ok := a.(*distinctAcc); ok {
			if _, ok := d.inner.(resettableAcc); !ok {
				return false
			}
		}
	}
	return true
}

func (a *countAcc) mergeFrom(dst int32, src accumulator, sg int32) {
	a.counts[dst] += src.(*countAcc).counts[sg]
}

func (a *countAcc) reset(g int32) { a.counts[g] = 0 }

func (a *sumIntAcc) mergeFrom(dst int32, src accumulator, sg int32) {
	a.mergeGroup(dst, &src.(*sumIntAcc).sumCount, sg)
}

func (a *sumFloatAcc) mergeFrom(dst int32, src accumulator, sg int32) {
	a.mergeGroup(dst, &src.(*sumFloatAcc).sumCount, sg)
}

func (a *sumDecAcc) mergeFrom(dst int32, src accumulator, sg int32) {
	a.mergeGroup(dst, &src.(*sumDecAcc).decSumCount, sg)
}

func (a *avgIntAcc) mergeFrom(dst int32, src accumulator, sg int32) {
	a.mergeGroup(dst, &src.(*avgIntAcc).sumCount, sg)
}

func (a *avgFloatAcc) mergeFrom(dst int32, src accumulator, sg int32) {
	a.mergeGroup(dst, &src.(*avgFloatAcc).sumCount, sg)
}

func (a *avgDecAcc) mergeFrom(dst int32, src accumulator, sg int32) {
	a.mergeGroup(dst, &src.(*avgDecAcc).decSumCount, sg)
}

func (a *extremeAcc) mergeFrom(dst int32, src accumulator, sg int32) {
	s := src.(*extremeAcc)
	if !s.has[sg] {
		return
	}
	first := !a.has[dst]
	switch a.kind {
	case 0:
		if first || a.better(cmp64(s.i64[sg], a.i64[dst])) {
			a.i64[dst] = s.i64[sg]
		}
	case 1:
		if first || a.better(cmpF(s.f64[sg], a.f64[dst])) {
			a.f64[dst] = s.f64[sg]
		}
	case 2:
		if first || a.better(s.dec[sg].Cmp(a.dec[dst])) {
			a.dec[dst] = s.dec[sg]
		}
	case 3:
		if first || a.better(strings.Compare(s.str[sg], a.str[dst])) {
			a.str[dst] = s.str[sg]
		}
	default:
		if first || a.better(CompareValues(s.any[sg], a.any[dst])) {
			a.any[dst] = s.any[sg]
		}
	}
	a.has[dst] = true
}

func (a *extremeAcc) reset(g int32) {
	a.has[g] = false
	switch a.kind {
	case 3:
		a.str[g] = ""
	case 4:
		a.any[g] = nil
	}
}

func (a *extremeRetractAcc) mergeFrom(dst int32, src accumulator, sg int32) {
	s := src.(*extremeRetractAcc)
	sm := s.groups[sg]
	if len(sm) == 0 {
		return
	}
	m := a.groups[dst]
	if m == nil {
		m = map[string]*multiEntry{}
		a.groups[dst] = m
	}
	for k, e := range sm {
		d := m[k]
		if d == nil {
			d = &multiEntry{val: e.val}
			m[k] = d
		}
		d.count += e.count
		if a.best[dst] == nil || a.better(CompareValues(d.val, a.best[dst].val)) {
			a.best[dst] = d
		}
	}
}

func (a *extremeRetractAcc) reset(g int32) { a.groups[g], a.best[g] = nil, nil }

// reset clears group g (its id is reused by a new group).
func (a *varianceAcc) reset(g int32) {
	a.cnt[g] = 0
	switch a.kind {
	case 0, 1:
		a.mean[g], a.m2[g] = 0, 0
	case 2:
		a.sumD[g].SetInt64(0)
		a.sqD[g].SetInt64(0)
	}
}

// reset clears group g (its id is reused by a new group).
func (a *listAcc) reset(g int32) { a.rows[g] = nil }

// reset gives group g a new accumulator of the user's function (its id is
// reused by a new group); an error creating it fails the task as resize's
// does.
func (a *userAcc) reset(g int32) {
	acc, err := a.instance().CreateAccumulator()
	if err != nil {
		a.fail(err)
	}
	a.accs[g] = acc
}
