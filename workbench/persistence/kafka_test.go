package persistence

import (
	"context"
	"path/filepath"
	"testing"
)

func TestKafkaConnectionsPasswordOnlyWhenSaved(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ws.riffle")
	s := open(t, path)
	ctx := context.Background()
	kept := KafkaConnection{Name: "prod", Bootstrap: "b1:9092,b2:9092", Security: "SASL_SSL", Mechanism: "SCRAM-SHA-512",
		Username: "alice", Password: "kept", SavePassword: true, CAFile: "/etc/ca.pem"}
	forgotten := KafkaConnection{Name: "dev", Bootstrap: "127.0.0.1:9092", Security: "SASL_PLAINTEXT", Mechanism: "PLAIN",
		Username: "bob", Password: "not kept"}
	for _, c := range []KafkaConnection{kept, forgotten} {
		if err := s.SaveKafkaConnection(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	s = open(t, path)
	defer s.Close()
	got, problems, err := s.KafkaConnections(ctx)
	if err != nil || len(problems) > 0 {
		t.Fatal(err, problems)
	}
	forgotten.Password = ""
	if len(got) != 2 || got[0] != forgotten || got[1] != kept {
		t.Errorf("got %+v\nwant %+v and %+v", got, forgotten, kept)
	}
	// unticking "save password" clears the stored one
	kept.SavePassword = false
	if err := s.SaveKafkaConnection(ctx, kept); err != nil {
		t.Fatal(err)
	}
	var pass string
	if err := s.db.QueryRow(`SELECT password FROM kafka_connections WHERE name = 'prod'`).Scan(&pass); err != nil || pass != "" {
		t.Errorf("stored password %q (%v), want none", pass, err)
	}
	if err := s.DeleteKafkaConnection(ctx, "dev"); err != nil {
		t.Fatal(err)
	}
	if got, _, _ := s.KafkaConnections(ctx); len(got) != 1 || got[0].Name != "prod" {
		t.Errorf("after delete: %+v", got)
	}
}
