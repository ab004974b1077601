// Command riffle is a desktop workbench for streaming and batch SQL.
//
//	riffle                       open the workbench (--workspace FILE)
//	riffle sql [flags]           run SQL headless, like Flink's SQL Client
//	riffle gateway [flags]       serve the engine over the SQL Gateway REST API
//	riffle bench nexmark [flags] run a Nexmark benchmark
//	riffle version               print the version
//
// SIGTERM cancels the running command's context; so does SIGINT (Ctrl+C),
// except in the interactive SQL client, where it cancels the running
// statement. A headless command still running cli.StopGrace (7 s) after
// SIGTERM exits with status 143.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"

	"github.com/riffle-sql/riffle/assets"
	"github.com/riffle-sql/riffle/cli"
	"github.com/riffle-sql/riffle/engine/gctuning"
	_ "github.com/riffle-sql/riffle/internal/localefix" // before Fyne's init reads the locale
	"github.com/riffle-sql/riffle/workbench/ui"
)

// appID matches FyneApp.toml.
const appID = "io.riffle.workbench"

func main() {
	// The collector's goal stays at least 64 MiB (unless GOGC is set): a
	// query streaming a file through a small live heap would otherwise
	// collect every few MB (engine/gctuning).
	gctuning.SetHeapFloor(gctuning.DefaultHeapFloor)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	interrupts := make(chan os.Signal, 1)
	signal.Notify(interrupts, os.Interrupt)
	if len(os.Args) > 1 {
		// a headless command still running StopGrace after SIGTERM (a write
		// to a pipe nobody reads cannot be interrupted) ends anyway; the
		// workbench saves its workspace and ends by itself
		cli.ExitWatchdog(ctx, cli.StopGrace, os.Stderr, os.Exit)
	}
	code := cli.Main(ctx, cli.Env{
		Stdin:        os.Stdin,
		Stdout:       os.Stdout,
		Stderr:       os.Stderr,
		RunWorkbench: runWorkbench,
		Interrupts:   interrupts,
	}, os.Args[1:])
	stop()
	os.Exit(code)
}

// runWorkbench is the only place that creates a fyne.App (it needs cgo and
// a display; everything else stays testable headless).
func runWorkbench(ctx context.Context, workspace string) error {
	servePprof()
	// The workbench keeps its own memory policy (workbench/ui/heap_limit.go):
	// batch jobs do not raise the heap floor here, since a 1 M-row result
	// loaded under the raised floor peaked at 535 MB of RSS against 332-340
	// (scripts/workbench-rss.sh); the commands keep the raise.
	gctuning.SetBatchHeapFloor(0)
	a := app.NewWithID(appID)
	a.Settings().SetTheme(ui.Theme())
	a.SetIcon(fyne.NewStaticResource("icon.png", assets.IconPNG))
	return ui.Run(ctx, a, ui.Options{Workspace: workspace})
}
