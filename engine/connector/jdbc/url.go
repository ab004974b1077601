package jdbc

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5"
)

// Endpoint is a parsed JDBC URL: the dialect it selects, where the server
// is and the Go driver's connection settings derived from it.
type Endpoint struct {
	// Dialect is the dialect chosen by the URL's subprotocol.
	Dialect *Dialect
	// Host and Port locate the server (Port defaults to the dialect's).
	Host string
	Port int
	// Database is the database named in the URL's path ("" when none).
	Database string
	// User and Password come from the 'username'/'password' options, or
	// else from the URL's user/password parameters.
	User, Password string
	// Params are the URL's query parameters the driver understood, after
	// translation (e.g. sslmode, application_name for pgx).
	Params map[string]string
	// Ignored lists JDBC URL parameters that have no meaning for the Go
	// driver and were dropped (sorted).
	Ignored []string
	// ConnectTimeout is the URL's connectTimeout, 0 when unset.
	ConnectTimeout time.Duration
}

// Addr is "host:port" for messages.
func (e *Endpoint) Addr() string { return net.JoinHostPort(e.Host, strconv.Itoa(e.Port)) }

// ParseURL parses a JDBC URL of the form
//
//	jdbc:postgresql://host[:port][/database][?param=value&...]
//	jdbc:mysql://host[:port][/database][?param=value&...]
//	jdbc:mariadb://host[:port][/database][?param=value&...]
//
// user and password, when not empty, override the URL's own user and
// password parameters (Flink's 'username' and 'password' options). An URL
// of another database fails with Flink's "Could not find any jdbc factory
// that can handle url" message listing the supported prefixes; a malformed
// URL names what is wrong.
func ParseURL(raw, user, password string) (*Endpoint, error) {
	// errors show the URL with any password in it masked
	shown := RedactURL(raw)
	d := dialectForURL(raw)
	if d == nil {
		return nil, fmt.Errorf("Could not find any jdbc factory that can handle url '%s'. Riffle's jdbc connector supports URLs starting with: %s", shown, strings.Join(supportedPrefixes(), ", "))
	}
	rest := strings.TrimPrefix(raw, "jdbc:")
	u, err := url.Parse(rest)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // without the URL, which may hold a password
		}
		return nil, fmt.Errorf("invalid JDBC URL '%s': %v", shown, err)
	}
	if u.Opaque != "" || u.Host == "" {
		return nil, fmt.Errorf("invalid JDBC URL '%s': expected %s//host[:port]/database", shown, d.urlPrefixes[0])
	}
	e := &Endpoint{Dialect: d, Host: u.Hostname(), Port: d.defaultPort, Params: map[string]string{}}
	if strings.Contains(u.Host, ",") {
		return nil, fmt.Errorf("invalid JDBC URL '%s': several hosts (failover) are not supported; name one host", shown)
	}
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n <= 0 || n > 65535 {
			return nil, fmt.Errorf("invalid JDBC URL '%s': bad port '%s'", shown, p)
		}
		e.Port = n
	}
	if u.User != nil {
		return nil, fmt.Errorf("invalid JDBC URL '%s': put credentials in the 'username' and 'password' options (or the user and password parameters), not before the host", shown)
	}
	e.Database = strings.TrimPrefix(u.Path, "/")
	if strings.Contains(e.Database, "/") {
		return nil, fmt.Errorf("invalid JDBC URL '%s': the path must be a single database name", shown)
	}
	q := u.Query()
	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := q.Get(k)
		switch strings.ToLower(k) {
		case "user":
			e.User = v
			continue
		case "password":
			e.Password = v
			continue
		case "connecttimeout":
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return nil, fmt.Errorf("invalid JDBC URL '%s': connectTimeout '%s' is not a number", shown, v)
			}
			// PostgreSQL's driver counts seconds, MySQL Connector/J milliseconds.
			if d.Name == DialectPostgres {
				e.ConnectTimeout = time.Duration(n) * time.Second
			} else {
				e.ConnectTimeout = time.Duration(n) * time.Millisecond
			}
			continue
		}
		if tk, tv, ok := d.translateParam(k, v); ok {
			e.Params[tk] = tv
		} else {
			e.Ignored = append(e.Ignored, k)
		}
	}
	if user != "" {
		e.User = user
	}
	if password != "" {
		e.Password = password
	}
	return e, nil
}

// translateParam maps a JDBC URL parameter to the Go driver's setting.
func (d *Dialect) translateParam(k, v string) (string, string, bool) {
	if d.Name == DialectPostgres {
		switch k {
		case "sslmode":
			return "sslmode", v, true
		case "ssl":
			if v == "true" {
				return "sslmode", "require", true
			}
			return "sslmode", "disable", true
		case "ApplicationName", "applicationName":
			return "application_name", v, true
		case "currentSchema":
			return "search_path", v, true
		case "options":
			return "options", v, true
		}
		return "", "", false
	}
	switch k {
	case "useSSL":
		if v == "true" {
			return "tls", "skip-verify", true
		}
		return "tls", "false", true
	case "sslMode", "sslmode":
		switch strings.ToUpper(v) {
		case "DISABLED":
			return "tls", "false", true
		case "PREFERRED":
			return "tls", "preferred", true
		default:
			return "tls", "skip-verify", true
		}
	case "serverTimezone", "connectionTimeZone":
		return "serverTimezone", v, true
	case "characterEncoding":
		return "charset", map[string]string{"UTF-8": "utf8mb4", "utf8": "utf8mb4"}[v], v == "UTF-8" || v == "utf8"
	}
	return "", "", false
}

// PgxConfig is the pgx connection configuration of a PostgreSQL endpoint.
func (e *Endpoint) PgxConfig() (*pgx.ConnConfig, error) {
	kv := []string{
		"host=" + pgQuote(e.Host),
		"port=" + strconv.Itoa(e.Port),
	}
	if e.Database != "" {
		kv = append(kv, "dbname="+pgQuote(e.Database))
	}
	if e.User != "" {
		kv = append(kv, "user="+pgQuote(e.User))
	}
	if e.Password != "" {
		kv = append(kv, "password="+pgQuote(e.Password))
	}
	keys := make([]string, 0, len(e.Params))
	for k := range e.Params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		kv = append(kv, k+"="+pgQuote(e.Params[k]))
	}
	cfg, err := pgx.ParseConfig(strings.Join(kv, " "))
	if err != nil {
		return nil, fmt.Errorf("cannot use the PostgreSQL URL's settings: %v", err)
	}
	// libpq's environment (PGPASSWORD, ~/.pgpass) must not leak into a
	// table's connection: only the URL and the options count.
	if e.Password == "" {
		cfg.Password = ""
	}
	if e.User == "" {
		cfg.User = ""
	}
	return cfg, nil
}

func pgQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " '\\") {
		return s
	}
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// MySQLConfig is the go-sql-driver configuration of a MySQL/MariaDB
// endpoint. Dates and times are read as time.Time in UTC and the session
// time zone is UTC, so DATETIME values keep their wall-clock value.
func (e *Endpoint) MySQLConfig() *mysql.Config {
	cfg := mysql.NewConfig()
	cfg.User = e.User
	cfg.Passwd = e.Password
	cfg.Net = "tcp"
	cfg.Addr = e.Addr()
	cfg.DBName = e.Database
	cfg.ParseTime = true
	cfg.Loc = time.UTC
	cfg.AllowNativePasswords = true
	cfg.Params = map[string]string{"time_zone": "'+00:00'"}
	if e.ConnectTimeout > 0 {
		cfg.Timeout = e.ConnectTimeout
	}
	for k, v := range e.Params {
		switch k {
		case "tls":
			cfg.TLSConfig = v
		case "charset":
			cfg.Params["charset"] = v
		case "serverTimezone":
			// values are read and written in UTC; a server zone only
			// matters for TIMESTAMP columns, which the session reads in UTC
		}
	}
	return cfg
}

// RedactURL returns a JDBC URL with the password it may hold (before the
// host, user:password@, or as a password= parameter) replaced by ***, for
// error messages.
func RedactURL(raw string) string {
	out := raw
	if at := strings.Index(out, "@"); at > 0 {
		if start := strings.Index(out, "//"); start >= 0 && start < at {
			userinfo := out[start+2 : at]
			if colon := strings.Index(userinfo, ":"); colon >= 0 {
				out = out[:start+2] + userinfo[:colon] + ":***" + out[at:]
			}
		}
	}
	return passwordParam.ReplaceAllString(out, "${1}***")
}

var passwordParam = regexp.MustCompile(`(?i)([?&;]password=)[^&;]*`)
