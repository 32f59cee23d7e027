// Command bench measures, on real coding tasks and a local model, when a
// fixed workflow is enough and when a task needs an agent loop.
package main

import (
	"context"
	"io"
	"os"

	"bench/sandbox"

	"github.com/urfave/cli/v2"

	"bench/internal/cliargs"
	"bench/internal/cliexit"
	"bench/internal/inert"
)

func main() {
	sandbox.Init() // in the sandbox helper (bench re-executed), this applies the sandbox and never returns
	ctx, stop := cliexit.Watch(os.Stderr)
	err := runContext(ctx, os.Args, os.Stdout, os.Stderr)
	code := cliexit.Exit(ctx, err, os.Stderr)
	stop()
	os.Exit(code)
}

// runContext builds the CLI and runs it with the context the commands are
// given; it never calls os.Exit, so tests can drive it.
func runContext(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	app := newApp(stdout, stderr)
	app.Metadata = map[string]any{"args": args}
	return app.RunContext(ctx, args)
}

func newApp(stdout, stderr io.Writer) *cli.App {
	app := &cli.App{
		Name:           "bench",
		Usage:          "measure when a fixed workflow is enough and when a coding task needs an agent loop",
		Version:        version(),
		Writer:         inert.Writer{W: stdout}, // every command prints through inert: no quoted byte moves a terminal
		ErrWriter:      inert.Writer{W: stderr},
		ExitErrHandler: func(*cli.Context, error) {}, // main decides the exit code
		Commands: []*cli.Command{
			versionCommand(),
			tasksCommand(),
			predictCommand(),
			checkCommand(),
			reportCommand(),
			compareCommand(),
			detectCommand(),
			showCommand(),
			tokensCommand(),
			doctorCommand(),
			runCommand(),
		},
	}
	cliargs.Adjust(app)
	return app
}
