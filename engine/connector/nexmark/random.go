package nexmark

// javaRandom is java.util.Random's 48-bit linear congruential generator,
// ported so that the generator draws its random numbers the way the Java
// Nexmark generator does (nextInt(bound)'s rejection loop, nextLong,
// nextDouble).
type javaRandom struct {
	seed uint64
}

const (
	jrMultiplier = 0x5DEECE66D
	jrAddend     = 0xB
	jrMask       = (1 << 48) - 1
)

func newJavaRandom(seed int64) *javaRandom {
	r := &javaRandom{}
	r.setSeed(seed)
	return r
}

func (r *javaRandom) setSeed(seed int64) {
	r.seed = (uint64(seed) ^ jrMultiplier) & jrMask
}

// next returns the next `bits` random bits as a signed int32.
func (r *javaRandom) next(bits uint) int32 {
	r.seed = (r.seed*jrMultiplier + jrAddend) & jrMask
	return int32(int64(r.seed) >> (48 - bits))
}

// nextInt returns a uniformly distributed int32 (Random.nextInt()).
func (r *javaRandom) nextInt() int32 { return r.next(32) }

// nextIntN returns a value in [0, bound) (Random.nextInt(int bound)).
func (r *javaRandom) nextIntN(bound int32) int32 {
	if bound <= 0 {
		panic("nexmark: bound must be positive")
	}
	if bound&(-bound) == bound { // a power of two
		return int32((int64(bound) * int64(r.next(31))) >> 31)
	}
	for {
		bits := r.next(31)
		val := bits % bound
		if bits-val+(bound-1) >= 0 { // no int32 overflow: accept
			return val
		}
	}
}

// nextLong returns a uniformly distributed int64 (Random.nextLong()).
func (r *javaRandom) nextLong() int64 {
	return int64(r.next(32))<<32 + int64(r.next(32))
}

// nextDouble returns a value in [0, 1) (Random.nextDouble()).
func (r *javaRandom) nextDouble() float64 {
	return float64(int64(r.next(26))<<27+int64(r.next(27))) * (1.0 / (1 << 53))
}

// nextLongN returns a value in [0, n) as the generator's LongGenerator
// does: nextInt for small n, abs(nextLong % n) (skewed) for large n.
func (r *javaRandom) nextLongN(n int64) int64 {
	if n < 1<<31-1 {
		return int64(r.nextIntN(int32(n)))
	}
	v := r.nextLong() % n
	if v < 0 {
		v = -v
	}
	return v
}
