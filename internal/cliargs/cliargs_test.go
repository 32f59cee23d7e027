package cliargs

import (
	"bytes"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"bench/internal/cliexit"
)

// testApp is an app of one command, show, whose action records its
// positional arguments and flags.
func testApp(got *[]string) (*cli.App, *bytes.Buffer) {
	var out bytes.Buffer
	app := &cli.App{
		Name:           "bench",
		Writer:         &out,
		ErrWriter:      &out,
		ExitErrHandler: func(*cli.Context, error) {},
		Commands: []*cli.Command{{
			Name: "show",
			Flags: []cli.Flag{
				&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "text"},
				&cli.BoolFlag{Name: "full"},
				&cli.StringSliceFlag{Name: "answer"},
			},
			Action: func(c *cli.Context) error {
				args, err := Args(c)
				if err != nil {
					return err
				}
				*got = append(args, "format="+c.String("format"), "full="+map[bool]string{true: "yes", false: "no"}[c.Bool("full")])
				return nil
			},
		}},
	}
	Adjust(app)
	return app, &out
}

// runApp runs the test app on args and returns the action's record, the
// error's exit code and message.
func runApp(t *testing.T, args ...string) (string, int, string) {
	t.Helper()
	var got []string
	app, _ := testApp(&got)
	argv := append([]string{"bench"}, args...)
	app.Metadata = map[string]any{"args": argv}
	err := app.Run(argv)
	var errw bytes.Buffer
	code := cliexit.Code(err, &errw)
	return strings.Join(got, " "), code, strings.TrimSpace(errw.String())
}

func TestArgsAppliesFlagsAfterArguments(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"show", "DIR"}, "DIR format=text full=no"},
		{[]string{"show", "DIR", "--format", "json"}, "DIR format=json full=no"},
		{[]string{"show", "DIR", "-f=json", "--full", "B"}, "DIR B format=json full=yes"},
		{[]string{"show", "--full", "DIR", "--", "--format"}, "DIR --format format=text full=yes"},
	} {
		got, code, msg := runApp(t, tc.args...)
		if got != tc.want || code != 0 {
			t.Errorf("%q: got %q, exit %d (%s); want %q", tc.args, got, code, msg, tc.want)
		}
	}
}

func TestUsageMistakesAreOneSentenceAndExit2(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"show", "DIR", "--fromat", "json"}, `unknown flag --fromat (did you mean --format?) for bench show`},
		{[]string{"show", "--fromat", "json"}, `unknown flag --fromat (did you mean --format?); bench show --help lists the flags`},
		{[]string{"show", "DIR", "--format"}, `flag --format needs a value`},
		{[]string{"show", "--format", "a", "--format", "b"}, `--format is given twice; give it once`},
		{[]string{"show", "--format=a", "--format=b"}, `--format is given twice; give it once`},
		{[]string{"shwo"}, `unknown command "shwo"; bench --help lists the commands`},
		{[]string{"help", "shwo"}, `unknown command "shwo"; bench --help lists the commands`},
		{[]string{"help", "a", "b"}, `help takes one command, got 2 arguments`},
	} {
		_, code, msg := runApp(t, tc.args...)
		if code != cliexit.Usage || msg != "bench: "+tc.want {
			t.Errorf("%q: exit %d, %q; want exit %d, %q", tc.args, code, msg, cliexit.Usage, "bench: "+tc.want)
		}
	}
}

func TestARepeatableFlagMayBeGivenTwice(t *testing.T) {
	if _, code, msg := runApp(t, "show", "--answer", "a", "--answer", "b", "DIR"); code != 0 {
		t.Errorf("exit %d: %s", code, msg)
	}
}

func TestHelpOfAKnownCommand(t *testing.T) {
	var got []string
	app, out := testApp(&got)
	if err := app.Run([]string{"bench", "help", "show"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "bench show") || !strings.Contains(out.String(), "--format") {
		t.Errorf("help show printed %q", out.String())
	}
}
