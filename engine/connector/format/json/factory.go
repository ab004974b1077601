package json

import "github.com/riffle-sql/riffle/engine/connector"

func init() { connector.RegisterFormat(Factory{}) }

// Factory is the 'json' format factory (Flink's JsonFormatFactory).
type Factory struct{}

// Identifier returns "json".
func (Factory) Identifier() string { return Identifier }

// Options lists the json.* options (without the prefix).
func (Factory) Options() []connector.Option { return append([]connector.Option(nil), optionList...) }

// CreateDecoder validates the options and builds a decoder of the
// projected columns (matched by name, so the other columns are ignored).
func (Factory) CreateDecoder(ctx *connector.FormatContext) (connector.Decoder, error) {
	o, err := ParseOptions(ctx.Options)
	if err != nil {
		return nil, err
	}
	return NewDecoder(o, ctx.Names, ctx.Types)
}

// CreateEncoder validates the options and builds an encoder.
func (Factory) CreateEncoder(ctx *connector.FormatContext) (connector.Encoder, error) {
	o, err := ParseOptions(ctx.Options)
	if err != nil {
		return nil, err
	}
	return NewEncoder(o, ctx.Names, ctx.Types)
}

// FieldLineBreakBytes returns no bytes: the decoder reads one JSON object
// per line, and a JSON string cannot hold a raw line break (RFC 8259 §7
// makes control characters escaped), so every line break ends a record
// and a file may be read in byte ranges cut at line breaks
// (connector.LineBreakFormat).
func (Factory) FieldLineBreakBytes(opts map[string]string) ([]byte, error) {
	if _, err := ParseOptions(opts); err != nil {
		return nil, err
	}
	return nil, nil
}
