package table

// StreamTableEnvironment is a TableEnvironment with the bridge to
// DataStreams (PyFlink's StreamTableEnvironment). Every TableEnvironment
// has the bridge methods; this type exists for programs that mirror
// PyFlink.
type StreamTableEnvironment struct {
	*TableEnvironment
}

// CreateStreamTableEnvironment creates a StreamTableEnvironment
// (PyFlink's StreamTableEnvironment.create): settings may be nil
// (streaming mode), and an optional TableConfig's entries are copied in.
func CreateStreamTableEnvironment(settings *EnvironmentSettings, conf ...*TableConfig) (*StreamTableEnvironment, error) {
	t, err := Create(settings)
	if err != nil {
		return nil, err
	}
	for _, c := range conf {
		if c != nil {
			t.config.AddConfiguration(c.GetConfiguration())
		}
	}
	return &StreamTableEnvironment{t}, nil
}
