//go:build riffle_streaming

package table

// The riffle_streaming examples for the seed exporter (seed_export_test.go).
func init() {
	seedExampleFuncs["ExampleExpression_End"] = ExampleExpression_End
	seedExampleFuncs["ExampleSlideOver"] = ExampleSlideOver
	seedExampleFuncs["ExampleCurrentWatermark"] = ExampleCurrentWatermark
}
