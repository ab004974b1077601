package csv

import (
	"github.com/riffle-sql/riffle/engine/connector"
)

func init() { connector.RegisterFormat(Factory{}) }

// Factory is the 'csv' format factory (Flink's CsvFormatFactory).
type Factory struct{}

// Identifier returns "csv".
func (Factory) Identifier() string { return Identifier }

// Options lists the csv.* options (without the prefix).
func (Factory) Options() []connector.Option { return append([]connector.Option(nil), optionList...) }

// CreateDecoder validates the options and builds a decoder of the
// projected columns.
func (Factory) CreateDecoder(ctx *connector.FormatContext) (connector.Decoder, error) {
	o, err := ParseOptions(ctx.Options)
	if err != nil {
		return nil, err
	}
	names, ts, proj := ctx.AllNames, ctx.AllTypes, ctx.Projection
	if ts == nil {
		names, ts, proj = ctx.Names, ctx.Types, nil
	}
	return NewDecoder(o, names, ts, proj)
}

// CreateEncoder validates the options and builds an encoder.
func (Factory) CreateEncoder(ctx *connector.FormatContext) (connector.Encoder, error) {
	o, err := ParseOptions(ctx.Options)
	if err != nil {
		return nil, err
	}
	return NewEncoder(o, ctx.Names, ctx.Types)
}

// FieldLineBreakBytes returns the quote character and the escape
// character, when enabled: either may put a line break inside a field
// (connector.LineBreakFormat).
func (Factory) FieldLineBreakBytes(opts map[string]string) ([]byte, error) {
	o, err := ParseOptions(opts)
	if err != nil {
		return nil, err
	}
	var b []byte
	if o.QuoteEnabled {
		b = append(b, o.Quote)
	}
	if o.EscapeEnabled {
		b = append(b, o.Escape)
	}
	return b, nil
}
