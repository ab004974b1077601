package parquet

import (
	"encoding/binary"
	"fmt"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow/bitutil"
	pq "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
)

// A BYTE_ARRAY column chunk whose pages are dictionary-encoded or PLAIN
// (with RLE definition levels) is decoded here from its pages rather than
// through arrow-go's column chunk reader, which hands out one 24-byte
// slice header per value (the dictionary gather and the collector's scan
// of those headers were a quarter of a filtered scan of the flights
// file). The dictionary page is copied once into one buffer with
// offsets; a data page's RLE/bit-packed indices are decoded into a reused
// buffer and the values gathered from the dictionary buffer straight into
// the batch's bytes and offsets. A chunk listing any other encoding
// (DELTA_*, BIT_PACKED levels) is read by the column chunk reader.

// pageDecodable reports whether every encoding column chunk md lists is
// one byteArrayPages decodes.
func pageDecodable(md *metadata.ColumnChunkMetaData) bool {
	if md.CryptoMetadata() != nil {
		return false
	}
	for _, e := range md.Encodings() {
		switch e {
		case pq.Encodings.Plain, pq.Encodings.PlainDict, pq.Encodings.RLEDict, pq.Encodings.RLE:
		default:
			return false
		}
	}
	return true
}

// byteArrayPages decodes the pages of one non-repeated BYTE_ARRAY column
// chunk.
type byteArrayPages struct {
	pr     file.PageReader
	maxDef int16
	// The chunk's dictionary: value i is dict[dictOffs[i]:dictOffs[i+1]].
	dict     []byte
	dictOffs []int32
	hasDict  bool
	// The current data page.
	left  int       // values (NULLs included) not yet read
	defs  rleReader // its definition levels (maxDef > 0)
	idx   rleReader // its dictionary indices (a dictionary-encoded page)
	plain []byte    // its remaining PLAIN values (a PLAIN page)
	isIdx bool
	// Buffers reused from call to call.
	defBuf, idxBuf []uint32
}

// nextPage moves to the next data page, reading a dictionary page on the
// way; false at the end of the chunk.
func (p *byteArrayPages) nextPage() (bool, error) {
	for {
		if !p.pr.Next() {
			return false, p.pr.Err()
		}
		pg := p.pr.Page()
		switch pg.Type() {
		case file.PageTypeDictionaryPage:
			if err := p.readDictionary(pg.Data(), int(pg.NumValues())); err != nil {
				return false, err
			}
			continue
		case file.PageTypeDataPage, file.PageTypeDataPageV2:
		default:
			continue // index pages
		}
		data := pg.Data()
		n := int(pg.NumValues())
		if n < 0 {
			return false, fmt.Errorf("data page with %d values", n)
		}
		var levels []byte
		switch dp := pg.(type) {
		case *file.DataPageV1:
			if p.maxDef > 0 {
				if pq.Encoding(dp.DefinitionLevelEncoding()) != pq.Encodings.RLE {
					return false, fmt.Errorf("definition levels in encoding %s are not supported", pq.Encoding(dp.DefinitionLevelEncoding()))
				}
				if len(data) < 4 {
					return false, fmt.Errorf("data page too short for its definition levels")
				}
				l := binary.LittleEndian.Uint32(data)
				if uint64(l) > uint64(len(data)-4) {
					return false, fmt.Errorf("definition levels of %d bytes overrun the page", l)
				}
				levels, data = data[4:4+l], data[4+l:]
			}
		case *file.DataPageV2:
			rl, dl := int(dp.RepetitionLevelByteLen()), int(dp.DefinitionLevelByteLen())
			if rl < 0 || dl < 0 || rl+dl > len(data) {
				return false, fmt.Errorf("level lengths %d+%d overrun the page", rl, dl)
			}
			levels, data = data[rl:rl+dl], data[rl+dl:]
		default:
			return false, fmt.Errorf("unknown data page %T", pg)
		}
		if p.maxDef > 0 {
			p.defs = rleReader{data: levels, width: uint(bits.Len16(uint16(p.maxDef)))}
		}
		switch e := pq.Encoding(pg.Encoding()); e {
		case pq.Encodings.PlainDict, pq.Encodings.RLEDict:
			if !p.hasDict {
				return false, fmt.Errorf("dictionary-encoded page without a dictionary page")
			}
			if len(data) < 1 {
				if n > 0 && p.maxDef == 0 {
					return false, fmt.Errorf("dictionary-encoded page without its bit width")
				}
				data = []byte{0}
			}
			if data[0] > 32 {
				return false, fmt.Errorf("dictionary index bit width %d", data[0])
			}
			p.idx = rleReader{data: data[1:], width: uint(data[0])}
			p.isIdx = true
		case pq.Encodings.Plain:
			p.plain = data
			p.isIdx = false
		default:
			return false, fmt.Errorf("data page encoding %s is not supported", e)
		}
		p.left = n
		return true, nil
	}
}

// readDictionary copies a PLAIN dictionary page of n values.
func (p *byteArrayPages) readDictionary(data []byte, n int) error {
	if n < 0 {
		return fmt.Errorf("dictionary page with %d values", n)
	}
	offs := make([]int32, n+1)
	size := len(data) - 4*n
	if size < 0 {
		return fmt.Errorf("dictionary page of %d values holds only %d bytes", n, len(data))
	}
	dict := make([]byte, 0, size+8) // 8 bytes of slack: see read
	for i := 0; i < n; i++ {
		if len(data) < 4 {
			return fmt.Errorf("dictionary page truncated at value %d", i)
		}
		l := binary.LittleEndian.Uint32(data)
		if uint64(l) > uint64(len(data)-4) {
			return fmt.Errorf("dictionary value %d of %d bytes overruns the page", i, l)
		}
		dict = append(dict, data[4:4+l]...)
		data = data[4+l:]
		offs[i+1] = int32(len(dict))
	}
	p.dict, p.dictOffs, p.hasDict = dict, offs, true
	return nil
}

// read appends up to want values of the current page to data and
// offs[at+1:], setting bit at+i of valid (not nil when the column has
// definition levels) for each non-NULL value; it returns the values read
// (NULLs included, 0 at the end of the chunk), the NULLs among them, and
// data.
func (p *byteArrayPages) read(want int, data []byte, offs []int32, at int, valid []byte) (int, int, []byte, error) {
	for p.left == 0 {
		ok, err := p.nextPage()
		if err != nil || !ok {
			return 0, 0, data, err
		}
	}
	k := min(want, p.left)
	m := k // values present
	var defs []uint32
	if p.maxDef > 0 {
		if cap(p.defBuf) < k {
			p.defBuf = make([]uint32, k)
		}
		defs = p.defBuf[:k]
		if err := p.defs.read(defs); err != nil {
			return 0, 0, data, fmt.Errorf("definition levels: %w", err)
		}
		m = 0
		max := uint32(p.maxDef)
		for _, d := range defs {
			if d == max {
				m++
			}
		}
		if m == k {
			defs = nil
		}
	}
	p.left -= k
	off := int32(len(data))
	if p.isIdx {
		if cap(p.idxBuf) < m {
			p.idxBuf = make([]uint32, m)
		}
		idx := p.idxBuf[:m]
		if err := p.idx.read(idx); err != nil {
			return 0, 0, data, fmt.Errorf("dictionary indices: %w", err)
		}
		dict, doffs := p.dict, p.dictOffs
		nd := uint32(len(doffs) - 1)
		size := 0
		for _, x := range idx {
			if x >= nd {
				return 0, 0, data, fmt.Errorf("dictionary index %d out of a dictionary of %d values", x, nd)
			}
			size += int(doffs[x+1] - doffs[x])
		}
		if int64(len(data))+int64(size) > 1<<31-1 {
			return 0, 0, data, fmt.Errorf("a batch holds more than 2 GiB")
		}
		// Values of up to 8 bytes are moved as one 8-byte word (the
		// dictionary has 8 bytes of slack after its last value, data 8
		// after the batch's), others by copy.
		if cap(data)-len(data) < size+8 {
			grown := make([]byte, len(data), len(data)+size+8+(len(data)+size)/4)
			copy(grown, data)
			data = grown
		}
		buf, pos := data[:cap(data)], len(data)
		dict8 := dict[:len(dict)+8]
		if defs == nil {
			o := offs[at+1 : at+1+k]
			for i, x := range idx {
				s, e := doffs[x], doffs[x+1]
				if e-s <= 8 {
					binary.LittleEndian.PutUint64(buf[pos:], binary.LittleEndian.Uint64(dict8[s:]))
				} else {
					copy(buf[pos:], dict[s:e])
				}
				pos += int(e - s)
				o[i] = int32(pos)
			}
		} else {
			max, j := uint32(p.maxDef), 0
			for i, d := range defs {
				if d == max {
					x := idx[j]
					j++
					s, e := doffs[x], doffs[x+1]
					if e-s <= 8 {
						binary.LittleEndian.PutUint64(buf[pos:], binary.LittleEndian.Uint64(dict8[s:]))
					} else {
						copy(buf[pos:], dict[s:e])
					}
					pos += int(e - s)
					valid[(at+i)>>3] |= 1 << ((at + i) & 7)
				}
				offs[at+1+i] = int32(pos)
			}
		}
		data = buf[:pos]
	} else {
		max := uint32(p.maxDef)
		pl := p.plain
		for i := 0; i < k; i++ {
			if defs == nil || defs[i] == max {
				if len(pl) < 4 {
					return 0, 0, data, fmt.Errorf("PLAIN page truncated")
				}
				l := binary.LittleEndian.Uint32(pl)
				if uint64(l) > uint64(len(pl)-4) {
					return 0, 0, data, fmt.Errorf("PLAIN value of %d bytes overruns the page", l)
				}
				if int64(len(data))+int64(l) > 1<<31-1 {
					return 0, 0, data, fmt.Errorf("a batch holds more than 2 GiB")
				}
				data = append(data, pl[4:4+l]...)
				pl = pl[4+l:]
				off += int32(l)
				if defs != nil {
					valid[(at+i)>>3] |= 1 << ((at + i) & 7)
				}
			}
			offs[at+1+i] = off
		}
		p.plain = pl
	}
	if defs == nil && valid != nil {
		bitutil.SetBitsTo(valid, int64(at), int64(k), true)
	}
	return k, k - m, data, nil
}

// rleReader reads Parquet's RLE / bit-packed hybrid encoding of values of
// width bits (0..32).
type rleReader struct {
	data   []byte
	width  uint
	run    int    // values left in the current RLE run
	runVal uint32 // its value
	packed int    // values left in the current bit-packed run
	acc    uint64 // bits read from a bit-packed run, not yet used
	nacc   uint
}

// read fills dst; running out of data is an error.
func (r *rleReader) read(dst []uint32) error {
	for len(dst) > 0 {
		if r.run > 0 {
			k := min(r.run, len(dst))
			v := r.runVal
			for i := range dst[:k] {
				dst[i] = v
			}
			r.run -= k
			dst = dst[k:]
			continue
		}
		if r.packed > 0 {
			k := min(r.packed, len(dst))
			w := r.width
			mask := uint64(1)<<w - 1
			acc, nacc, data := r.acc, r.nacc, r.data
			if w == 8 && nacc == 0 && len(data) >= k {
				for i := range dst[:k] {
					dst[i] = uint32(data[i])
				}
				data = data[k:]
			} else {
				for i := range dst[:k] {
					for nacc < w {
						if len(data) == 0 {
							return fmt.Errorf("bit-packed run truncated")
						}
						acc |= uint64(data[0]) << nacc
						data = data[1:]
						nacc += 8
					}
					dst[i] = uint32(acc & mask)
					acc >>= w
					nacc -= w
				}
			}
			r.acc, r.nacc, r.data = acc, nacc, data
			r.packed -= k
			dst = dst[k:]
			if r.packed == 0 {
				// A run ends on a byte boundary (8 values of width bits).
				r.acc, r.nacc = 0, 0
			}
			continue
		}
		h, n := binary.Uvarint(r.data)
		if n <= 0 {
			return fmt.Errorf("run header truncated")
		}
		r.data = r.data[n:]
		if h&1 == 0 {
			cnt := h >> 1
			nb := int(r.width+7) / 8
			if len(r.data) < nb {
				return fmt.Errorf("RLE run truncated")
			}
			var v uint32
			for i := 0; i < nb; i++ {
				v |= uint32(r.data[i]) << (8 * i)
			}
			r.data = r.data[nb:]
			if cnt > 1<<31 {
				return fmt.Errorf("RLE run of %d values", cnt)
			}
			if r.width < 32 && v>>r.width != 0 {
				return fmt.Errorf("RLE value %d wider than %d bits", v, r.width)
			}
			r.run, r.runVal = int(cnt), v
		} else {
			groups := h >> 1
			if groups > 1<<27 {
				return fmt.Errorf("bit-packed run of %d groups", groups)
			}
			r.packed = int(groups) * 8
			r.acc, r.nacc = 0, 0
		}
	}
	return nil
}
