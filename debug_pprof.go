package main

import (
	"fmt"
	"net"
	"net/http"
	_ "net/http/pprof" // the profiles, on DefaultServeMux
	"os"
)

// pprofEnv names the loopback address ("127.0.0.1:6067") the workbench
// serves Go's profiles on, for measuring its memory and CPU
// (docs/benchmarks.md "The workbench under big results"): `go tool pprof
// http://127.0.0.1:6067/debug/pprof/heap`. Unset (the default): no server.
const pprofEnv = "RIFFLE_PPROF"

// servePprof starts the profile server when RIFFLE_PPROF is set; an address
// that is not loopback is refused (the profiles show the process's data).
func servePprof() {
	addr := os.Getenv(pprofEnv)
	if addr == "" {
		return
	}
	host, _, err := net.SplitHostPort(addr)
	if ip := net.ParseIP(host); err != nil || ip == nil || !ip.IsLoopback() {
		fmt.Fprintf(os.Stderr, "riffle: %s=%q: want a loopback host:port such as 127.0.0.1:6067\n", pprofEnv, addr)
		return
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintf(os.Stderr, "riffle: %s: %v\n", pprofEnv, err)
		return
	}
	go func() { _ = http.Serve(ln, nil) }()
}
