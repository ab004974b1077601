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
// statement.
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
	_ "github.com/riffle-sql/riffle/internal/localefix" // before Fyne's init reads the locale
	"github.com/riffle-sql/riffle/ui"
)

// appID matches FyneApp.toml.
const appID = "io.riffle.workbench"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	interrupts := make(chan os.Signal, 1)
	signal.Notify(interrupts, os.Interrupt)
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
	a := app.NewWithID(appID)
	a.Settings().SetTheme(ui.Theme())
	a.SetIcon(fyne.NewStaticResource("icon.png", assets.IconPNG))
	return ui.Run(ctx, a, ui.Options{Workspace: workspace})
}
