package persistence

import (
	"context"
	"encoding/json"
	"fmt"
)

// KafkaConnection is a Kafka cluster the workbench browses (File ▸ Kafka
// connections…). Password is stored only when SavePassword is set; it is
// "" otherwise, and the user enters it again after a restart.
type KafkaConnection struct {
	Name      string `json:"-"`
	Bootstrap string `json:"bootstrap"`
	// Security is PLAINTEXT, SASL_PLAINTEXT, SASL_SSL or SSL; Mechanism
	// PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512.
	Security     string `json:"security,omitempty"`
	Mechanism    string `json:"mechanism,omitempty"`
	Username     string `json:"username,omitempty"`
	CAFile       string `json:"caFile,omitempty"`
	SavePassword bool   `json:"savePassword,omitempty"`
	Password     string `json:"-"`
}

// SaveKafkaConnection inserts or replaces a Kafka connection by name; the
// password is written only when c.SavePassword is set (else any stored
// one is cleared).
func (s *Store) SaveKafkaConnection(ctx context.Context, c KafkaConnection) error {
	if c.Name == "" {
		return fmt.Errorf("persistence: a Kafka connection needs a name")
	}
	settings, err := json.Marshal(c)
	if err != nil {
		return err
	}
	pass := ""
	if c.SavePassword {
		pass = c.Password
	}
	_, err = s.db.ExecContext(ctx,
		`INSERT INTO kafka_connections(name, settings, password) VALUES (?, ?, ?)
		 ON CONFLICT(name) DO UPDATE SET settings = excluded.settings, password = excluded.password`,
		c.Name, string(settings), pass)
	return err
}

// DeleteKafkaConnection removes a Kafka connection.
func (s *Store) DeleteKafkaConnection(ctx context.Context, name string) error {
	_, err := s.db.ExecContext(ctx, `DELETE FROM kafka_connections WHERE name = ?`, name)
	return err
}

// KafkaConnections lists the Kafka connections by name; damaged rows are
// skipped and returned as problems.
func (s *Store) KafkaConnections(ctx context.Context) ([]KafkaConnection, []error, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT name, settings, password FROM kafka_connections ORDER BY name`)
	if err != nil {
		return nil, nil, fmt.Errorf("persistence: %w", err)
	}
	defer rows.Close()
	var out []KafkaConnection
	var problems []error
	for rows.Next() {
		var name, settings, pass string
		if err := rows.Scan(&name, &settings, &pass); err != nil {
			return nil, nil, fmt.Errorf("persistence: %w", err)
		}
		var c KafkaConnection
		if err := json.Unmarshal([]byte(settings), &c); err != nil {
			problems = append(problems, &RowError{"kafka_connections", name, err})
			continue
		}
		c.Name, c.Password = name, pass
		out = append(out, c)
	}
	return out, problems, rows.Err()
}
