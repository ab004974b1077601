package runtime

import "encoding/binary"

// shortKey packs element i of a string column (offsets and data as
// vector.StringData returns them) into a uint64 when it has at most 7
// bytes: the bytes in the low 56 bits, the length in the top byte, so
// distinct strings get distinct keys. Hash maps keyed by it hash and
// compare one word instead of a string. ok is false for longer strings.
func shortKey(offs []int32, data []byte, i int) (key uint64, ok bool) {
	from, to := int(offs[i]), int(offs[i+1])
	n := to - from
	if n > 7 {
		return 0, false
	}
	if from+8 <= len(data) {
		key = binary.LittleEndian.Uint64(data[from:]) & (1<<(8*n) - 1)
	} else {
		for j := n - 1; j >= 0; j-- {
			key = key<<8 | uint64(data[from+j])
		}
	}
	return key | uint64(n)<<56, true
}

// shortKeyOf is shortKey for a string value.
func shortKeyOf(s string) (key uint64, ok bool) {
	if len(s) > 7 {
		return 0, false
	}
	for j := len(s) - 1; j >= 0; j-- {
		key = key<<8 | uint64(s[j])
	}
	return key | uint64(len(s))<<56, true
}

// packShortKeys sets keys[i] to shortKey of element i of a string column
// (offsets and data as vector.StringData returns them), or to emptyPair
// for values longer than 7 bytes: the batch form of shortKey, one loop
// over the column. A NULL element packs as whatever its offsets span
// (usually the empty string): callers test validity themselves.
// len(keys) >= len(offs)-1.
func packShortKeys(offs []int32, data []byte, keys []uint64) {
	n := len(offs) - 1
	keys = keys[:n]
	for i := range keys {
		from, to := int(offs[i]), int(offs[i+1])
		l := to - from
		switch {
		case l > 7:
			keys[i] = emptyPair
		case from+8 <= len(data):
			keys[i] = binary.LittleEndian.Uint64(data[from:])&(1<<(8*l)-1) | uint64(l)<<56
		default:
			k, _ := shortKey(offs, data, i)
			keys[i] = k
		}
	}
}
