// Package cli is Riffle's command line: `riffle` (the workbench), `riffle
// sql`, `riffle gateway`, `riffle bench nexmark` and `riffle version`.
//
// It holds no GUI code: the workbench is started through Env.RunWorkbench,
// which package main supplies (main is the only package that creates a
// fyne.App), so the command tree can be tested without a display.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/riffle-sql/riffle/engine/config"
	"github.com/riffle-sql/riffle/engine/gateway"
	"github.com/riffle-sql/riffle/engine/gctuning"
	"github.com/riffle-sql/riffle/engine/table"
	nexmarkbench "github.com/riffle-sql/riffle/nexmark"
	"github.com/riffle-sql/riffle/sqlclient"
	_ "github.com/riffle-sql/riffle/workbench/persistence/sqlitecatalog" // the 'riffle' catalog type (SQLite) for riffle sql and riffle gateway
)

// Version is Riffle's version (also in FyneApp.toml); builds may override
// it with -ldflags "-X github.com/riffle-sql/riffle/cli.Version=...".
var Version = "0.1.0"

// Env is what the commands need from the outside world.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// RunWorkbench opens the workbench on the given workspace file (empty =
	// the default workspace) and blocks until it is closed or ctx ends.
	RunWorkbench func(ctx context.Context, workspace string) error
	// RunSQL runs the headless client; nil means sqlclient.Run.
	RunSQL func(ctx context.Context, opts sqlclient.Options, stdin io.Reader, stdout, stderr io.Writer) int
	// Getenv reads environment variables (RIFFLE_GATEWAY_TOKEN); nil means
	// os.Getenv.
	Getenv func(string) string
	// Interrupts delivers SIGINT (Ctrl+C). It cancels the running command,
	// except in the interactive SQL client, where it cancels the running
	// statement. Nil: no interrupt handling (SIGTERM still cancels ctx).
	Interrupts <-chan os.Signal

	router *interruptRouter
}

// interruptRouter turns interrupts into the cancellation of the command's
// context, unless a command takes them over.
type interruptRouter struct {
	mu     sync.Mutex
	cancel context.CancelFunc
	fwd    chan os.Signal
}

func (r *interruptRouter) deliver(sig os.Signal) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.fwd != nil {
		select {
		case r.fwd <- sig:
		default:
		}
		return
	}
	r.cancel()
}

// takeOver makes interrupts arrive on the returned channel instead of
// cancelling the command.
func (r *interruptRouter) takeOver() <-chan os.Signal {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.fwd == nil {
		r.fwd = make(chan os.Signal, 1)
	}
	return r.fwd
}

// TokenEnv is the environment variable holding the SQL Gateway bearer
// token for `riffle gateway` and `riffle sql --endpoint`.
const TokenEnv = "RIFFLE_GATEWAY_TOKEN"

func (e Env) getenv(key string) string {
	if e.Getenv != nil {
		return e.Getenv(key)
	}
	return os.Getenv(key)
}

// exitError carries a specific exit status out of a command.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// Main runs the command line with args (without the program name) and
// returns the process exit status.
func Main(ctx context.Context, env Env, args []string) int {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	router := &interruptRouter{cancel: cancel}
	if env.Interrupts != nil {
		go func() {
			for {
				select {
				case sig := <-env.Interrupts:
					router.deliver(sig)
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	env.router = router
	root := NewRootCommand(env)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	var ee exitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.code
	default:
		fmt.Fprintln(env.Stderr, "riffle:", err)
		return 1
	}
}

// NewRootCommand builds the command tree.
func NewRootCommand(env Env) *cobra.Command {
	var workspace string
	root := &cobra.Command{
		Use:   "riffle",
		Short: "A workbench for streaming and batch SQL (Flink SQL dialect)",
		Long: "Riffle runs Flink SQL on an embedded engine.\n\n" +
			"Without a command it opens the workbench window.",
		Args:          cobra.NoArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if env.RunWorkbench == nil {
				return errors.New("this build has no workbench")
			}
			return env.RunWorkbench(cmd.Context(), workspace)
		},
	}
	root.SetIn(env.Stdin)
	root.SetOut(env.Stdout)
	root.SetErr(env.Stderr)
	// a flag of the workbench (the root command) only: sql and gateway ignore it
	root.Flags().StringVar(&workspace, "workspace", "",
		"workspace file (SQLite) to open in the workbench; default under the user config directory")
	root.AddCommand(newSQLCommand(env), newGatewayCommand(env), newBenchCommand(), newVersionCommand())
	return root
}

// errTokenArgv refuses --token: a command line is visible to every user
// of the machine (ps, /proc/<pid>/cmdline).
var errTokenArgv = errors.New("--token would show the token to every user of this machine (ps); use --token-file FILE (mode 0600) or $" + TokenEnv)

func newSQLCommand(env Env) *cobra.Command {
	var opts sqlclient.Options
	var tokenArg, tokenFile string
	cmd := &cobra.Command{
		Use:   "sql",
		Short: "Run SQL statements headless, like Flink's SQL Client",
		Long: "Run Flink SQL statements from -e, -f or standard input and print the results.\n" +
			"Statements are separated by ';'. The exit status is 0 when every statement succeeds.",
		Example: "  riffle sql --mode batch -e \"SELECT 1 + 1\"\n" +
			"  riffle sql --init tables.sql -f report.sql --format csv > report.csv\n" +
			"  riffle sql --mode batch --init tables.sql -e \"SELECT * FROM t\" --format parquet > t.parquet\n" +
			"  riffle sql --endpoint http://127.0.0.1:8083 --cluster-rest http://127.0.0.1:8081 -f job.sql",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := opts.Validate(); err != nil {
				return err
			}
			if tokenArg != "" {
				return errTokenArgv
			}
			if opts.Endpoint != "" && tokenFile != "" {
				tok, err := gateway.ReadTokenFile(tokenFile)
				if err != nil {
					return err
				}
				opts.Token = tok
			}
			// without either, a gateway on this machine is asked for the
			// token it wrote to its token file (gateway.FindToken)
			if opts.Endpoint != "" && opts.Token == "" {
				opts.Token = env.getenv(TokenEnv)
			}
			run := env.RunSQL
			if run == nil {
				run = sqlclient.Run
			}
			if f, ok := env.Stdin.(*os.File); ok && opts.File == "" && opts.Statements == "" && env.router != nil && env.Interrupts != nil && term.IsTerminal(int(f.Fd())) {
				opts.Interrupts = env.router.takeOver()
			}
			if code := run(cmd.Context(), opts, env.Stdin, env.Stdout, env.Stderr); code != 0 {
				return exitError{code}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Mode, "mode", "", "runtime mode: streaming (default) or batch")
	f.StringVar(&opts.Format, "format", sqlclient.FormatTableau, "output format: tableau, csv, json (JSON Lines) or parquet (one query result, standard output redirected to a file)")
	f.StringVarP(&opts.InitFile, "init", "i", "", "SQL file run first (prints nothing on success)")
	f.StringVarP(&opts.File, "file", "f", "", "SQL script file to run")
	f.StringVarP(&opts.Statements, "execute", "e", "", "SQL statements to run")
	f.StringVar(&opts.Endpoint, "endpoint", "", "SQL Gateway URL (http://host:port) to run on instead of the embedded engine")
	f.StringVar(&tokenFile, "token-file", "", "file holding the SQL Gateway's bearer token (mode 0600; default $"+TokenEnv+", then the token file of a riffle gateway on this machine)")
	f.StringVar(&tokenArg, "token", "", "refused: the command line is visible in ps; use --token-file or $"+TokenEnv)
	_ = f.MarkHidden("token")
	f.StringVar(&opts.ClusterREST, "cluster-rest", "", "REST URL of the Flink cluster behind --endpoint (http://host:8081): job states come from there")
	return cmd
}

func newGatewayCommand(env Env) *cobra.Command {
	var listen, tokenArg, tokenFile, tlsCert, tlsKey, resumeDir string
	var noAuth, insecure, resumeJobs bool
	var props, allowPaths, allowOrigins []string
	cmd := &cobra.Command{
		Use:   "gateway",
		Short: "Serve the embedded engine over the Flink SQL Gateway REST API",
		Long: "Serve the embedded engine over Flink's SQL Gateway REST API (v1 and v2), so that\n" +
			"Flink's SQL Client (sql-client.sh gateway --endpoint), the Flink JDBC driver or\n" +
			"`riffle sql --endpoint` run statements on it (docs/flink-clients.md).\n\n" +
			"As on a Flink session cluster, the job of an INSERT runs on after its session\n" +
			"closes; SHOW JOBS and STOP JOB see the jobs of every session. Stopping the\n" +
			"gateway cancels them all. With --resume-jobs it keeps what its sessions'\n" +
			"checkpointed streaming INSERTs need in --resume-dir instead; stopped, it stops them\n" +
			"with a savepoint, and started again (after a stop or a crash) it resumes them from\n" +
			"their savepoints or latest checkpoints (docs/gateway.md, \"Resuming jobs\").\n\n" +
			"Whoever reaches the gateway with its token runs SQL with your file access\n" +
			"(docs/gateway.md, \"Threat model\"). Every request must carry the bearer token:\n" +
			"from --token-file or $" + TokenEnv + ", or else a random one printed at start and\n" +
			"written to <config dir>/riffle/gateway/<port>.token (mode 0600), where `riffle sql\n" +
			"--endpoint` and the workbench on this machine find it. --no-auth turns the token off\n" +
			"(loopback only: then every user of this machine can use the gateway). Off loopback\n" +
			"the gateway also needs TLS (--tls-cert, --tls-key) unless --insecure. --allow-path\n" +
			"limits the files tables may read and write to the given folders.\n\n" +
			"-D sets a default session property (e.g. -D execution.runtime-mode=batch) or a\n" +
			"gateway option: sql-gateway.session.idle-timeout (default 10 min),\n" +
			"sql-gateway.session.check-interval (1 min), sql-gateway.session.max-num,\n" +
			"sql-gateway.session.max-open-queries (16 per session), sql-gateway.max-open-queries\n" +
			"(256 in all), jobstore.expiration-time (1 h) and jobstore.max-capacity (1000): how long\n" +
			"and how many ended jobs of closed sessions SHOW JOBS still lists. A query's unfetched results take at most twice collect-sink.batch-size.max\n" +
			"(2 mb, a session property); then its job waits for the client.",
		Example: "  riffle gateway\n" +
			"  riffle gateway --allow-path ~/data -D execution.runtime-mode=batch\n" +
			"  riffle gateway --resume-jobs -D execution.checkpointing.interval=10s\n" +
			"  riffle gateway --listen 0.0.0.0:8083 --token-file ~/.riffle-token --tls-cert cert.pem --tls-key key.pem\n" +
			"  riffle sql --endpoint http://127.0.0.1:8083 -e \"SELECT 1\"",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if tokenArg != "" {
				return errTokenArgv
			}
			token := ""
			switch {
			case noAuth && (tokenFile != "" || env.getenv(TokenEnv) != ""):
				return errors.New("--no-auth with a token (--token-file or $" + TokenEnv + "): choose one")
			case noAuth:
				if err := gateway.CheckListenAddr(listen); err != nil {
					return err
				}
				if !gateway.IsLoopback(listen) {
					return fmt.Errorf("--no-auth is for loopback addresses only, not %s: off this machine every request needs a token", listen)
				}
			case tokenFile != "":
				tok, err := gateway.ReadTokenFile(tokenFile)
				if err != nil {
					return err
				}
				token = tok
			case env.getenv(TokenEnv) != "":
				token = env.getenv(TokenEnv)
			}
			switch {
			case resumeDir != "" && !resumeJobs:
				return errors.New("--resume-dir without --resume-jobs: add --resume-jobs to resume the gateway's jobs")
			case resumeJobs && resumeDir == "":
				_, port, err := net.SplitHostPort(listen)
				if err != nil {
					return fmt.Errorf("--listen %q: %v", listen, err)
				}
				resumeDir = filepath.Join(table.StateDir(), "gateway", "jobs-"+port)
			}
			if resumeDir != "" {
				if err := os.MkdirAll(resumeDir, 0o700); err != nil {
					return fmt.Errorf("--resume-dir: %w", err)
				}
			}
			generated := false
			if token == "" && !noAuth {
				tok, err := gateway.NewToken()
				if err != nil {
					return err
				}
				token, generated = tok, true
			}
			cfg := gateway.Config{Token: token, ProductName: "Riffle", Version: Version, Defaults: map[string]string{},
				TLSCertFile: tlsCert, TLSKeyFile: tlsKey, Insecure: insecure, AllowPaths: allowPaths, AllowedOrigins: allowOrigins, ResumeDir: resumeDir,
				Logf: func(format string, args ...any) {
					fmt.Fprintf(cmd.ErrOrStderr(), "[INFO] "+format+"\n", args...)
				}}
			for _, p := range props {
				k, v, ok := strings.Cut(p, "=")
				if !ok || strings.TrimSpace(k) == "" {
					return fmt.Errorf("-D %q: want key=value", p)
				}
				k, v = strings.TrimSpace(k), strings.TrimSpace(v)
				var err error
				switch k {
				case "sql-gateway.session.idle-timeout":
					cfg.IdleTimeout, err = config.ParseDuration(v)
					if err == nil && cfg.IdleTimeout == 0 {
						cfg.IdleTimeout = -1 // 0 disables expiry, as in Flink
					}
				case "sql-gateway.session.check-interval":
					cfg.CheckInterval, err = config.ParseDuration(v)
				case "sql-gateway.session.max-num":
					cfg.MaxSessions, err = strconv.Atoi(v)
					if err == nil && cfg.MaxSessions < 1 {
						err = fmt.Errorf("the maximum number of sessions must be at least 1, not %d", cfg.MaxSessions)
					}
				case "sql-gateway.session.max-open-queries":
					cfg.MaxSessionQueries, err = strconv.Atoi(v)
					if err == nil && cfg.MaxSessionQueries < 1 {
						err = fmt.Errorf("the maximum number of open queries of a session must be at least 1, not %d", cfg.MaxSessionQueries)
					}
				case "jobstore.expiration-time":
					cfg.JobStoreExpiration, err = config.ParseDuration(v)
					if err == nil && cfg.JobStoreExpiration <= 0 {
						err = fmt.Errorf("the job store's expiration time must be positive, not %s", v)
					}
				case "jobstore.max-capacity":
					cfg.JobStoreMaxCapacity, err = strconv.Atoi(v)
					if err == nil && cfg.JobStoreMaxCapacity < 1 {
						err = fmt.Errorf("the job store's capacity must be at least 1, not %d", cfg.JobStoreMaxCapacity)
					}
				case "sql-gateway.max-open-queries":
					cfg.MaxQueries, err = strconv.Atoi(v)
					if err == nil && cfg.MaxQueries < 1 {
						err = fmt.Errorf("the maximum number of open queries must be at least 1, not %d", cfg.MaxQueries)
					}
				default:
					cfg.Defaults[k] = v
				}
				if err != nil {
					return fmt.Errorf("-D %s: %v", p, err)
				}
			}
			scheme := "http"
			if tlsCert != "" {
				scheme = "https"
			}
			var tokenPath string
			defer func() {
				// the token file goes with the gateway, unless another
				// gateway has taken the port and rewritten it since
				if tokenPath != "" {
					if tok, err := gateway.ReadTokenFile(tokenPath); err == nil && tok == token {
						_ = os.Remove(tokenPath)
					}
				}
			}()
			return gateway.ListenAndServe(cmd.Context(), listen, cfg, func(a net.Addr) {
				out := cmd.OutOrStdout()
				if token == "" {
					fmt.Fprintln(out, "[WARN] No authentication (--no-auth): every user of this machine can run SQL here with your file access.")
				} else if ta, ok := a.(*net.TCPAddr); ok && ta.Port > 0 {
					path, err := gateway.WriteTokenFile(ta.Port, token)
					if err != nil {
						fmt.Fprintf(cmd.ErrOrStderr(), "[WARN] %v\n", err)
					} else {
						tokenPath = path
					}
				}
				if generated {
					fmt.Fprintf(out, "[INFO] Bearer token: %s\n", token)
				}
				if tokenPath != "" {
					fmt.Fprintf(out, "[INFO] Token file: %s (riffle sql --endpoint and the workbench on this machine read it)\n", tokenPath)
				}
				fmt.Fprintf(out, "[INFO] Riffle SQL Gateway listening on %s://%s (REST API v1, v2)\n", scheme, a)
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&listen, "listen", "127.0.0.1:8083", "address to listen on (host:port)")
	f.StringVar(&tokenFile, "token-file", "", "file holding the bearer token clients must present (mode 0600; default $"+TokenEnv+", else a random token)")
	f.StringVar(&tokenArg, "token", "", "refused: the command line is visible in ps; use --token-file or $"+TokenEnv)
	_ = f.MarkHidden("token")
	f.BoolVar(&noAuth, "no-auth", false, "no token (loopback only): every user of this machine can use the gateway")
	f.StringVar(&tlsCert, "tls-cert", "", "PEM certificate chain: serve HTTPS")
	f.StringVar(&tlsKey, "tls-key", "", "PEM private key of --tls-cert")
	f.BoolVar(&insecure, "insecure", false, "allow a non-loopback --listen without TLS (the token crosses the network in clear text)")
	f.StringArrayVar(&allowPaths, "allow-path", nil, "folder that filesystem tables may read and write (repeatable; default: any path)")
	f.StringArrayVar(&allowOrigins, "allow-origin", nil, "web origin (https://host:port) whose browser requests are answered (repeatable)")
	f.StringArrayVarP(&props, "define", "D", nil, "key=value: a default session property or sql-gateway.* option (repeatable)")
	f.BoolVar(&resumeJobs, "resume-jobs", false, "keep the sessions' checkpointed streaming INSERTs and resume them when the gateway starts again")
	f.StringVar(&resumeDir, "resume-dir", "", "folder of --resume-jobs (default ~/.local/state/riffle/gateway/jobs-<port>, or $XDG_STATE_HOME/riffle/…)")
	return cmd
}

func newBenchCommand() *cobra.Command {
	bench := &cobra.Command{
		Use:   "bench",
		Short: "Run benchmarks",
	}
	var query, cpuProfile, checkpointInterval string
	var sets []string
	var events, rate int64
	var parallelism int
	nexmark := &cobra.Command{
		Use:   "nexmark",
		Short: "Run Nexmark queries over generated events",
		Long: "Run the Nexmark benchmark queries (q0-q22 without q6, as in Flink's nexmark suite) on the\n" +
			"embedded engine: the in-process generator feeds each query into a blackhole sink. For each\n" +
			"query it prints the events, wall-clock seconds, CPU seconds of the process (getrusage) and\n" +
			"events per second per core (events / CPU seconds). Unless GOGC or GOMEMLIMIT is set, the\n" +
			"run uses GOGC=200 under an 8 GiB soft memory limit. With --checkpoint-interval each query\n" +
			"runs twice, without and then with checkpoints, and the second row gives the throughput\n" +
			"overhead and the checkpoints' number, sizes and durations.",
		Example: "  riffle bench nexmark --query q5 --events 1000000\n  riffle bench nexmark --query all --events 10000000\n" +
			"  riffle bench nexmark --query q5,q7 --parallelism 1 --checkpoint-interval '1 s'",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			interval, err := nexmarkbench.ParseCheckpointInterval(checkpointInterval)
			if err != nil {
				return err
			}
			var qs []string
			if !strings.EqualFold(query, "all") {
				for _, q := range strings.Split(query, ",") {
					qs = append(qs, strings.TrimSpace(q))
				}
			}
			// Garbage collection trades memory for CPU: unless GOGC or
			// GOMEMLIMIT are set, the benchmark lets the heap grow to three
			// times the live data, under an 8 GiB soft limit.
			if os.Getenv("GOGC") == "" && os.Getenv("GOMEMLIMIT") == "" {
				gctuning.StopHeapFloor()
				debug.SetGCPercent(200)
				debug.SetMemoryLimit(8 << 30)
			}
			if cpuProfile != "" {
				f, err := os.Create(cpuProfile)
				if err != nil {
					return err
				}
				defer f.Close()
				if err := pprof.StartCPUProfile(f); err != nil {
					return err
				}
				defer pprof.StopCPUProfile()
			}
			conf := map[string]string{}
			for _, s := range sets {
				k, v, ok := strings.Cut(s, "=")
				if !ok || strings.TrimSpace(k) == "" {
					return fmt.Errorf("--set %q: expected key=value", s)
				}
				conf[strings.TrimSpace(k)] = strings.TrimSpace(v)
			}
			results, err := nexmarkbench.Run(cmd.Context(), nexmarkbench.Options{Queries: qs, Events: events,
				Parallelism: parallelism, Rate: rate, Progress: cmd.OutOrStdout(), CheckpointInterval: interval, Config: conf})
			if err != nil {
				return err
			}
			for _, r := range results {
				if r.Err != nil {
					return exitError{1}
				}
			}
			return nil
		},
	}
	nexmark.Flags().StringVar(&query, "query", "all", "Nexmark query: qN, a comma-separated list, or all")
	nexmark.Flags().Int64Var(&events, "events", 10_000_000, "number of events to generate per query")
	nexmark.Flags().IntVar(&parallelism, "parallelism", runtime.NumCPU(), "parallelism.default (and number of generators)")
	nexmark.Flags().Int64Var(&rate, "rate", 10_000_000, "the generator's first-event.rate: events per second of event time")
	nexmark.Flags().StringVar(&checkpointInterval, "checkpoint-interval", "",
		"run each query without and then with checkpoints at this interval ('1 s', '500 ms') and compare")
	nexmark.Flags().StringArrayVar(&sets, "set", nil,
		"an option of the queries' environment, key=value (repeatable): --set state.backend.type=rocksdb")
	nexmark.Flags().StringVar(&cpuProfile, "cpuprofile", "", "write a CPU profile (pprof) of the run to this file")
	bench.AddCommand(nexmark)
	return bench
}

func newVersionCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version",
		Args:  cobra.NoArgs,
		Run: func(cmd *cobra.Command, _ []string) {
			fmt.Fprintf(cmd.OutOrStdout(), "riffle %s (%s %s/%s)\n", Version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
		},
	}
}
