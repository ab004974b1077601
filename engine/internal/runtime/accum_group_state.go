package runtime

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/riffle-sql/riffle/engine/internal/state"
)

// One group's accumulator state, as the disk state backend keeps it per
// key (groupagg_disk.go): writeAccGroup saves group g of an accumulator,
// readAccGroup restores it into group g of one of the same call (grown to
// hold g and reset). The kinds are those whose per-group state is a few
// numbers or one value: COUNT, SUM, SUM0, AVG, MIN and MAX of insert-only
// input, and the variance family over numbers. diskAccSupported names
// the first call of another kind.

// diskAccSupported returns an error naming the first accumulator the disk
// backend cannot keep per key.
func diskAccSupported(accs []accumulator, names []string) error {
	for k, acc := range accs {
		switch a := acc.(type) {
		case *countAcc, *sumIntAcc, *sumFloatAcc, *sumDecAcc, *avgIntAcc, *avgFloatAcc, *avgDecAcc, *extremeAcc:
			continue
		case *varianceAcc:
			if a.kind != 2 {
				continue
			}
		}
		return fmt.Errorf("aggregate %s cannot keep its state in the disk state backend yet (state.backend.type 'rocksdb' supports COUNT, SUM, SUM0, AVG, MIN and MAX over insert-only input, and STDDEV/VAR over approximate or integral numbers); use state.backend.type 'hashmap'", names[k])
	}
	return nil
}

func writeAccGroup(w *state.Writer, acc accumulator, g int32) {
	switch a := acc.(type) {
	case *countAcc:
		w.Varint(a.counts[g])
	case sumCountState: // SUM, SUM0 and AVG
		a.writeGroupState(w, g)
	case *extremeAcc:
		w.Bool(a.has[g])
		if !a.has[g] {
			return
		}
		switch a.kind {
		case 0:
			w.Varint(a.i64[g])
		case 1:
			w.Float64(a.f64[g])
		case 2:
			w.Int64(a.dec[g].HighBits())
			w.Uint64(a.dec[g].LowBits())
		case 3:
			w.String(a.str[g])
		default:
			w.Value(a.any[g], a.t)
		}
	case *varianceAcc:
		w.Varint(a.cnt[g])
		w.Float64(a.mean[g])
		w.Float64(a.m2[g])
	default:
		w.Fail(fmt.Errorf("accumulator %T cannot be kept per key", acc))
	}
}

func readAccGroup(r *state.Reader, acc accumulator, g int32) {
	switch a := acc.(type) {
	case *countAcc:
		a.counts[g] = r.Varint()
	case sumCountState: // SUM, SUM0 and AVG
		a.readGroupState(r, g)
	case *extremeAcc:
		a.has[g] = r.Bool()
		if !a.has[g] {
			return
		}
		switch a.kind {
		case 0:
			a.i64[g] = r.Varint()
		case 1:
			a.f64[g] = r.Float64()
		case 2:
			hi := r.Int64()
			a.dec[g] = decimal128.New(hi, r.Uint64())
		case 3:
			a.str[g] = r.String()
		default:
			a.any[g] = r.Value(a.t)
		}
	case *varianceAcc:
		a.cnt[g] = r.Varint()
		a.mean[g] = r.Float64()
		a.m2[g] = r.Float64()
	default:
		r.Failf("accumulator %T cannot be kept per key", acc)
	}
}
