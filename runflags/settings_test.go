package runflags

import (
	"io"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/urfave/cli/v2"

	"bench/record"
	"bench/runner"
)

// runFlags are the flags of bench run that this package makes, and those
// of the plan it reads.
func runFlags() []cli.Flag {
	flags := slices.Concat(Model(), Settings(), []cli.Flag{TasksDir(), Sandbox()})
	for _, name := range []string{"tasks", "tracks", "seeds", "shard", "run-uid", "out", "resume"} {
		flags = append(flags, &cli.StringFlag{Name: name})
	}
	return flags
}

// runCommand is a command with runFlags whose action is set by the test.
func runCommand() *cli.Command { return &cli.Command{Name: "run", Flags: runFlags()} }

// settingsParse runs bench run's flags over args and returns the
// settings Spec would read, or the error.
func settingsParse(t *testing.T, args ...string) (record.RunSettings, error) {
	t.Helper()
	var got record.RunSettings
	cmd := runCommand()
	cmd.Action = func(c *cli.Context) error {
		var err error
		got, _, err = settingsFrom(c, runSetting)
		return err
	}
	app := &cli.App{Name: "bench", Commands: []*cli.Command{cmd}, Writer: io.Discard, ErrWriter: io.Discard, ExitErrHandler: func(*cli.Context, error) {}}
	err := app.Run(append([]string{"bench", "run"}, args...))
	return got, err
}

// TestSettingsFlagsComeFromTheTable: Model and Settings make a flag for every setting
// of the table that is given (not recorded), with the table's help; its
// defaults read as the table's defaults; --resume refuses exactly the
// settings that define the run.
func TestSettingsFlagsComeFromTheTable(t *testing.T) {
	flags := map[string]cli.Flag{}
	for _, f := range runCommand().Flags {
		for _, n := range f.Names() {
			flags[n] = f
		}
	}
	for _, d := range record.Table {
		f, ok := flags[d.Name]
		if d.Source == record.Recorded {
			if ok {
				t.Errorf("%s is recorded, not given, yet bench run has a flag --%s", d.Name, d.Name)
			}
			continue
		}
		if !ok {
			t.Errorf("the setting %s has no flag in bench run", d.Name)
			continue
		}
		if u := f.(cli.DocGenerationFlag).GetUsage(); u != d.Help {
			t.Errorf("--%s's help is %q, the table's %q", d.Name, u, d.Help)
		}
		if d.Defines != slices.Contains(Defining, d.Name) {
			t.Errorf("--%s defines the run: %v, but Defining says %v", d.Name, d.Defines, !d.Defines)
		}
	}
	got, err := settingsParse(t)
	if err != nil || got != record.DefaultSettings() {
		t.Errorf("no flags read as %+v, %v; want the table's defaults %+v", got, err, record.DefaultSettings())
	}
}

// TestDoctorSettingsComeFromTheTable: bench doctor's settings are flags of
// the same kind and default as bench run's, and read into the spec it
// checks (with the table's checks, which refuse a bad value).
func TestDoctorSettingsComeFromTheTable(t *testing.T) {
	run := map[string]cli.Flag{}
	for _, f := range runCommand().Flags {
		run[f.Names()[0]] = f
	}
	doctor := DoctorSettings()
	if len(doctor) != len(doctorChecks) {
		t.Fatalf("doctor takes %d settings, its table of checks %d", len(doctor), len(doctorChecks))
	}
	for _, f := range doctor {
		r, ok := run[f.Names()[0]]
		if !ok || reflect.TypeOf(f) != reflect.TypeOf(r) || f.(cli.DocGenerationFlag).GetValue() != r.(cli.DocGenerationFlag).GetValue() {
			t.Errorf("doctor's --%s is %T (default %q), bench run's %T", f.Names()[0], f, f.(cli.DocGenerationFlag).GetValue(), r)
		}
	}
	var got runner.Spec
	var err error
	cmd := &cli.Command{Name: "doctor", Flags: slices.Concat(Model(), DoctorSettings(), []cli.Flag{Tasks(""), Tracks("", ""), TasksDir()}), Action: func(c *cli.Context) error {
		got, err = DoctorSpec(c)
		return err
	}}
	app := &cli.App{Name: "bench", Commands: []*cli.Command{cmd}, Writer: io.Discard, ErrWriter: io.Discard, ExitErrHandler: func(*cli.Context, error) {}}
	if err := app.Run([]string{"bench", "doctor", "--think", "--workflow-model", "e:1b"}); err != nil {
		t.Fatal(err)
	}
	want := record.DefaultSettings()
	want.Think, want.WorkflowModel = true, "e:1b"
	if got.RunSettings != want {
		t.Errorf("doctor read %+v, want %+v", got.RunSettings, want)
	}
	got.Tracks, got.WorkflowModel = []string{"hybrid"}, "a,b"
	if err := got.Check(); err == nil || !strings.Contains(err.Error(), "--workflow-model") {
		t.Errorf("a bad --workflow-model passed the spec's check: %v", err)
	}
}

// TestSettingsFlagsRead: each kind of flag the table makes reads into its
// field: a duration as milliseconds, a size as bytes (its default as 0).
func TestSettingsFlagsRead(t *testing.T) {
	got, err := settingsParse(t, "--max-turns", "7", "--episode-timeout", "90s", "--workspace-limit", "1MiB", "--temperature", "0.25",
		"--think", "--max-reply-bytes", "5000", "--workflow-model", "e:1b", "--posture", "on")
	if err != nil {
		t.Fatal(err)
	}
	want := record.DefaultSettings()
	want.MaxTurns, want.EpisodeTimeoutMS, want.WorkspaceLimit, want.Temperature = 7, (90 * time.Second).Milliseconds(), 1<<20, 0.25
	want.Think, want.MaxReplyBytes, want.WorkflowModel, want.Posture = true, 5000, "e:1b", "on"
	if got != want {
		t.Errorf("read %+v, want %+v", got, want)
	}
	if got, _ := settingsParse(t, "--workspace-limit", "256MiB"); got.WorkspaceLimit != 0 {
		t.Errorf("the default size is recorded as %d, want 0 as before the flag", got.WorkspaceLimit)
	}
	if _, err := settingsParse(t, "--workspace-limit", "lots"); err == nil || !strings.Contains(err.Error(), "--workspace-limit") {
		t.Errorf("a bad size: %v", err)
	}
}

// TestSettingsResumeRefusesEveryDefiningSetting: --resume with any setting
// that defines the run is refused, naming it, before the folder is read;
// the ones that do not define it are let through to the resume.
func TestSettingsResumeRefusesEveryDefiningSetting(t *testing.T) {
	for _, d := range record.Table {
		if d.Source == record.Recorded {
			continue
		}
		val := d.Format(reflectDefault(d))
		if d.Unit == record.UnitBytes {
			val = d.Shown
		}
		if val == "" {
			val = "x"
		}
		cmd := runCommand()
		var err error
		cmd.Action = func(c *cli.Context) error { _, err = Resume(c, t.TempDir()); return nil }
		app := &cli.App{Name: "bench", Commands: []*cli.Command{cmd}, Writer: io.Discard, ErrWriter: io.Discard, ExitErrHandler: func(*cli.Context, error) {}}
		arg := "--" + d.Name + "=" + val
		if runErr := app.Run([]string{"bench", "run", "--resume", t.TempDir(), arg}); runErr != nil {
			t.Fatalf("%s: %v", arg, runErr)
		}
		refused := err != nil && strings.Contains(err.Error(), "drop --"+d.Name+" ")
		if refused != d.Defines {
			t.Errorf("--resume with %s: %v; defines the run: %v", arg, err, d.Defines)
		}
	}
}

// reflectDefault is the default of d's field as Format takes it.
func reflectDefault(d record.Def) any {
	switch d.Source {
	case record.FromModelFlags:
		return ""
	}
	v := d.Get(record.DefaultSettings())
	if dur, ok := v.(time.Duration); ok {
		return dur.Milliseconds()
	}
	return v
}
