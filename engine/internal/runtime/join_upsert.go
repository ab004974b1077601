package runtime

// clearKey removes every row stored for join key k (an upsert input keyed
// on its join keys holds at most one; JoinSpec.UpsertInputs).
func (s *joinSide) clearKey(k int32) {
	if k < 0 {
		return
	}
	for _, e := range s.bucket(k) {
		if s.count[e] > 0 {
			s.count[e] = 0
			s.live--
		}
	}
	s.setBucket(k, nil)
}
