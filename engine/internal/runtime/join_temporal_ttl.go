package runtime

// State retention of the event-time temporal join (table.exec.state.ttl),
// as Flink's TemporalRowTimeJoinOperator applies it (a
// BaseTwoInputStreamOperatorWithStateRetention with the idle state
// retention TTL and 1.5 x TTL):
//
//   - every row of either side registers the key's processing-time
//     cleanup at now + 1.5 x TTL, replacing the one registered before only
//     when now + TTL passes it;
//   - when the watermark reaches the key's event-time timer (the earliest
//     time of a row that came since it last fired; afterwards the earliest
//     left row still waiting), the key registers its cleanup again if it
//     still holds rows (left rows waiting, or versions, which a key keeps
//     as long as it has a right row), else its cleanup is cancelled;
//   - when the cleanup time comes, all the key's state goes: its versions
//     and any left rows still waiting for the watermark, which are dropped
//     without output (Flink's cleanupState). A row of the key that comes
//     later finds no version.
//
// Memory follows the keys held: join keys with no waiting left row and no
// version (cleared, or whose left rows were all emitted without a version
// to keep) leave the key index once they are the majority and at least
// joinKeyCompactMin, with or without a TTL.

// arrive handles a row of key k at event time t arriving at processing
// time now: a key whose cleanup time has come is cleared first (its timer
// fired), then the key's timers are registered.
func (j *TemporalJoin) arrive(k int32, t, now int64) {
	if !j.ttl.on() || k < 0 {
		return
	}
	if c, ok := j.cleanupAt[k]; ok && c <= now {
		j.clearKey(k)
	}
	if cur, ok := j.evTimer[k]; !ok || t < cur {
		j.evTimer[k] = t
	}
	j.touch(k, now)
}

// touch registers key k's cleanup at now, as Flink's
// registerProcessingCleanupTimer does.
func (j *TemporalJoin) touch(k int32, now int64) {
	minRet, maxRet := j.ttl.ttl, j.ttl.ttl*3/2
	if cur, ok := j.cleanupAt[k]; !ok || now+minRet > cur {
		j.cleanupAt[k] = now + maxRet
		if j.ttl.next == 0 {
			j.ttl.next = now + maxRet
		}
	}
}

// onEventTime runs the event-time timers the watermark wm reached (after
// fire emitted the left rows up to wm).
func (j *TemporalJoin) onEventTime(wm int64) {
	if !j.ttl.on() {
		return
	}
	now := j.ttl.now()
	for k, t := range j.evTimer {
		if t > wm {
			continue
		}
		rows := j.pending[k]
		if len(rows) > 0 {
			next := rows[0].t
			for _, r := range rows[1:] {
				next = min(next, r.t)
			}
			j.evTimer[k] = next
		} else {
			delete(j.evTimer, k)
		}
		if len(rows) > 0 || len(j.versions[k]) > 0 {
			j.touch(k, now)
		} else {
			delete(j.cleanupAt, k)
		}
	}
}

// clearKey drops all of key k's state, emitting nothing.
func (j *TemporalJoin) clearKey(k int32) {
	j.nPending -= int64(len(j.pending[k]))
	j.nVersions -= int64(len(j.versions[k]))
	delete(j.pending, k)
	delete(j.versions, k)
	delete(j.multi, k)
	delete(j.evTimer, k)
	delete(j.cleanupAt, k)
}

// NextProcessingTime implements ProcessingTimeOperator: the cleanup timer.
func (j *TemporalJoin) NextProcessingTime() (int64, bool) {
	return j.ttl.next, j.ttl.on() && j.ttl.next > 0
}

// OnProcessingTime clears the keys whose cleanup time has come.
func (j *TemporalJoin) OnProcessingTime(now int64) error {
	if !j.ttl.on() || j.ttl.next == 0 || now < j.ttl.next {
		return nil
	}
	next := int64(0)
	for k, c := range j.cleanupAt {
		if c <= now {
			j.clearKey(k)
			continue
		}
		if next == 0 || c < next {
			next = c
		}
	}
	// the scan visits every key: run it at most 8 times a TTL (a row of a
	// key due meanwhile still finds its state cleared, by arrive)
	if next != 0 {
		next = max(next, now+max(j.ttl.ttl/8, 1))
	}
	j.ttl.next = next
	j.compact()
	j.Ctx.ReportState(j.StateSize())
	return nil
}

// compactKeys forgets the join keys that hold nothing, renumbering the
// others densely (in their old order) in every per-key map.
func (j *TemporalJoin) compactKeys() {
	n := j.keys.n
	held := func(k int32) bool { return len(j.pending[k]) > 0 || len(j.versions[k]) > 0 }
	live := int32(0)
	if n < joinKeyCompactMin || n < j.nextKeyScan {
		return
	}
	for k := int32(0); k < n; k++ {
		if held(k) {
			live++
		}
	}
	// look again once the index has grown by half the minimum
	j.nextKeyScan = n + max(joinKeyCompactMin/2, 1)
	if dead := n - live; dead < joinKeyCompactMin || dead < live {
		return
	}
	j.nextKeyScan = live + max(joinKeyCompactMin/2, 1)
	remap := make([]int32, n)
	next := int32(0)
	for k := int32(0); k < n; k++ {
		remap[k] = -1
		if held(k) {
			remap[k] = next
			next++
		}
	}
	j.keys.compact(remap, live)
	pending := make(map[int32][]temporalRow, len(j.pending))
	for k, rows := range j.pending {
		if k < 0 {
			pending[k] = rows // NULL keys
		} else if r := remap[k]; r >= 0 {
			pending[r] = rows
		}
	}
	versions := make(map[int32][]temporalVersion, len(j.versions))
	for k, vs := range j.versions {
		if r := remap[k]; r >= 0 {
			versions[r] = vs
		}
	}
	multi := make(map[int32]struct{}, len(j.multi))
	for k := range j.multi {
		if r := remap[k]; r >= 0 {
			multi[r] = struct{}{}
		}
	}
	j.pending, j.versions, j.multi = pending, versions, multi
	j.cleanupAt = remapTimes(j.cleanupAt, remap)
	j.evTimer = remapTimes(j.evTimer, remap)
}

func remapTimes(m map[int32]int64, remap []int32) map[int32]int64 {
	out := make(map[int32]int64, len(m))
	for k, t := range m {
		if k >= 0 && int(k) < len(remap) && remap[k] >= 0 {
			out[remap[k]] = t
		}
	}
	return out
}
