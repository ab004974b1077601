// Package descriptors holds PyFlink's legacy table descriptors
// (pyflink.table.descriptors.Schema and Rowtime) of the connect() API,
// which Flink removed in 1.14. They are kept for programs being ported:
// a legacy Schema converts to the current catalog.Schema with ToSchema,
// and Rowtime describes its timestamps and watermark strategy.
package descriptors

import (
	"fmt"
	"strings"
	"time"

	"github.com/riffle-sql/riffle/engine/catalog"
	"github.com/riffle-sql/riffle/engine/types"
)

type legacyField struct {
	name       string
	dataType   any
	origin     string
	proctime   bool
	rowtime    *Rowtime
	hasRowtime bool
}

// Schema is the legacy schema descriptor (PyFlink's descriptors.Schema):
// fields in call order, matched case-sensitively by name.
type Schema struct {
	fields []legacyField
	err    error
}

// NewSchema returns an empty legacy schema.
func NewSchema() *Schema { return &Schema{} }

// Field adds a field with a type (a *types.DataType or a SQL type string)
// (PyFlink's field).
func (s *Schema) Field(name string, dataType any) *Schema {
	switch dataType.(type) {
	case *types.DataType, string:
	default:
		if s.err == nil {
			s.err = fmt.Errorf("field %s: a type must be a *types.DataType or a SQL type string, got %T", name, dataType)
		}
	}
	s.fields = append(s.fields, legacyField{name: name, dataType: dataType})
	return s
}

// Fields adds several fields in order (PyFlink's fields, given as a list
// of name and type pairs).
func (s *Schema) Fields(names []string, dataTypes []any) *Schema {
	if len(names) != len(dataTypes) && s.err == nil {
		s.err = fmt.Errorf("%d names and %d types", len(names), len(dataTypes))
	}
	for i := range names {
		if i < len(dataTypes) {
			s.Field(names[i], dataTypes[i])
		}
	}
	return s
}

func (s *Schema) last() *legacyField {
	if len(s.fields) == 0 {
		if s.err == nil {
			s.err = fmt.Errorf("a field must be declared first")
		}
		return &legacyField{}
	}
	return &s.fields[len(s.fields)-1]
}

// FromOriginField reads the last field from a differently named source
// field (PyFlink's from_origin_field).
func (s *Schema) FromOriginField(originFieldName string) *Schema {
	s.last().origin = originFieldName
	return s
}

// Proctime makes the last field a processing-time attribute (PyFlink's
// proctime).
func (s *Schema) Proctime() *Schema {
	s.last().proctime = true
	return s
}

// Rowtime makes the last field a rowtime attribute described by rowtime
// (PyFlink's rowtime).
func (s *Schema) Rowtime(rowtime *Rowtime) *Schema {
	f := s.last()
	f.rowtime, f.hasRowtime = rowtime, true
	return s
}

// Schema replaces all fields with the columns of a resolved schema
// (PyFlink's schema(table_schema), which overwrites earlier fields).
func (s *Schema) Schema(r *types.Schema) *Schema {
	s.fields = nil
	for _, c := range r.Columns {
		s.fields = append(s.fields, legacyField{name: c.Name, dataType: c.Type})
	}
	return s
}

// ToSchema converts the legacy descriptor into a schema: plain fields
// become physical columns (or computed columns when read from an origin
// field), a proctime field the computed column PROCTIME(), and a rowtime
// field a TIMESTAMP(3) column with the Rowtime's watermark.
func (s *Schema) ToSchema() (*catalog.Schema, error) {
	if s.err != nil {
		return nil, s.err
	}
	b := catalog.NewSchemaBuilder()
	var derived []legacyField
	for _, f := range s.fields {
		switch {
		case f.proctime:
			derived = append(derived, f)
		case f.origin != "":
			b.Column(f.origin, f.dataType)
			derived = append(derived, f)
		case f.hasRowtime && f.rowtime != nil && f.rowtime.field != "":
			derived = append(derived, f)
		default:
			b.Column(f.name, f.dataType)
			if f.hasRowtime && f.rowtime != nil {
				if w := f.rowtime.watermarkExpr(f.name); w != "" {
					b.Watermark(f.name, w)
				}
			}
		}
	}
	for _, f := range derived {
		switch {
		case f.proctime:
			b.ColumnByExpression(f.name, "PROCTIME()")
		case f.origin != "":
			b.ColumnByExpression(f.name, types.QuoteIdent(f.origin))
		default:
			b.ColumnByExpression(f.name, fmt.Sprintf("CAST(%s AS TIMESTAMP(3))", types.QuoteIdent(f.rowtime.field)))
			if w := f.rowtime.watermarkExpr(f.name); w != "" {
				b.Watermark(f.name, w)
			}
		}
	}
	out := b.Build()
	return out, out.Err()
}

// String renders the fields, one "name: type" per line.
func (s *Schema) String() string {
	var parts []string
	for _, f := range s.fields {
		p := fmt.Sprintf("%s: %v", f.name, f.dataType)
		if f.proctime {
			p += " PROCTIME"
		}
		if f.hasRowtime {
			p += " ROWTIME"
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, "\n")
}

// Rowtime is the legacy rowtime descriptor (PyFlink's descriptors.Rowtime):
// where timestamps come from and how watermarks are generated.
type Rowtime struct {
	field         string
	fromSource    bool
	extractor     string
	watermarkKind string // "ascending", "bounded", "source", "strategy"
	delay         time.Duration
	strategy      string
}

// NewRowtime returns an empty rowtime descriptor.
func NewRowtime() *Rowtime { return &Rowtime{} }

// TimestampsFromField takes timestamps from a LONG or TIMESTAMP field
// (PyFlink's timestamps_from_field).
func (r *Rowtime) TimestampsFromField(fieldName string) *Rowtime {
	r.field = fieldName
	return r
}

// TimestampsFromSource keeps the timestamps the source assigned (PyFlink's
// timestamps_from_source).
func (r *Rowtime) TimestampsFromSource() *Rowtime {
	r.fromSource = true
	return r
}

// TimestampsFromExtractor records a custom extractor class (PyFlink's
// timestamps_from_extractor); Go has no class loading, so it is kept for
// display only.
func (r *Rowtime) TimestampsFromExtractor(extractorClassName string) *Rowtime {
	r.extractor = extractorClassName
	return r
}

// WatermarksPeriodicAscending emits watermarks of the largest timestamp
// seen minus 1 ms, so rows equal to the maximum are not late (PyFlink's
// watermarks_periodic_ascending).
func (r *Rowtime) WatermarksPeriodicAscending() *Rowtime {
	r.watermarkKind = "ascending"
	return r
}

// WatermarksPeriodicBounded emits watermarks of the largest timestamp seen
// minus delay (PyFlink's watermarks_periodic_bounded, delay in ms).
func (r *Rowtime) WatermarksPeriodicBounded(delayMillis int64) *Rowtime {
	r.watermarkKind, r.delay = "bounded", time.Duration(delayMillis)*time.Millisecond
	return r
}

// WatermarksFromSource keeps the source's watermarks (PyFlink's
// watermarks_from_source).
func (r *Rowtime) WatermarksFromSource() *Rowtime {
	r.watermarkKind = "source"
	return r
}

// WatermarksFromStrategy records a custom strategy class (PyFlink's
// watermarks_from_strategy); kept for display only.
func (r *Rowtime) WatermarksFromStrategy(strategyClassName string) *Rowtime {
	r.watermarkKind, r.strategy = "strategy", strategyClassName
	return r
}

// Watermark returns the watermark after the largest timestamp maxTs (ms):
// maxTs - 1 for ascending timestamps, maxTs - delay for bounded ones.
func (r *Rowtime) Watermark(maxTs int64) int64 {
	switch r.watermarkKind {
	case "ascending":
		return maxTs - 1
	case "bounded":
		return maxTs - r.delay.Milliseconds()
	}
	return maxTs
}

// watermarkExpr is the SQL watermark of the strategy for a rowtime column.
func (r *Rowtime) watermarkExpr(col string) string {
	q := types.QuoteIdent(col)
	switch r.watermarkKind {
	case "ascending":
		return q + " - INTERVAL '0.001' SECOND"
	case "bounded":
		return fmt.Sprintf("%s - INTERVAL '%d.%03d' SECOND", q, r.delay/time.Second, (r.delay%time.Second)/time.Millisecond)
	case "source":
		return "SOURCE_WATERMARK()"
	}
	return ""
}

// ToProperties returns the descriptor as the legacy connect() properties
// ("rowtime.timestamps.type" etc.).
func (r *Rowtime) ToProperties() map[string]string {
	p := map[string]string{}
	switch {
	case r.field != "":
		p["rowtime.timestamps.type"] = "from-field"
		p["rowtime.timestamps.from"] = r.field
	case r.fromSource:
		p["rowtime.timestamps.type"] = "from-source"
	case r.extractor != "":
		p["rowtime.timestamps.type"] = "custom"
		p["rowtime.timestamps.class"] = r.extractor
	}
	switch r.watermarkKind {
	case "ascending":
		p["rowtime.watermarks.type"] = "periodic-ascending"
	case "bounded":
		p["rowtime.watermarks.type"] = "periodic-bounded"
		p["rowtime.watermarks.delay"] = fmt.Sprint(r.delay.Milliseconds())
	case "source":
		p["rowtime.watermarks.type"] = "from-source"
	case "strategy":
		p["rowtime.watermarks.type"] = "custom"
		p["rowtime.watermarks.class"] = r.strategy
	}
	return p
}
