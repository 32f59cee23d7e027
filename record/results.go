package record

import (
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// FormatVersion is written into every record; readers refuse newer versions.
// Format 2 spells a model call's timeout ErrorCallTimeout, where format 1
// wrote "timeout", the word of the exit reason ExitTimeout
// (formatOneCallTimeout reads format 1's spelling).
const FormatVersion = 2

// ExitReason is why an episode ended, recorded on every episode (a
// contract: the values below are written to episodes.jsonl as they are).
type ExitReason string

// The exit reasons.
const (
	ExitDone        ExitReason = "done"
	ExitMaxTurns    ExitReason = "max_turns"
	ExitTokenBudget ExitReason = "token_budget"
	ExitInterrupted ExitReason = "interrupted"
	ExitError       ExitReason = "error"
	ExitTimeout     ExitReason = "timeout" // the episode's wall-clock limit (--episode-timeout) ran out
	// ExitDiverged (replay.go) ends a replayed episode that could not follow its recording.
)

// ExitReasons are the exit reasons above, in the order the reports list
// them (and the CSV's columns); ExitDiverged, a replay's alone, is not
// among them.
var ExitReasons = []ExitReason{ExitDone, ExitMaxTurns, ExitTokenBudget, ExitTimeout, ExitInterrupted, ExitError}

// ErrorKind is whose failure an episode that ended in ExitError was
// (a contract, as ExitReason). A type of its own, and no kind is spelled as
// an exit reason, so that neither can be mistaken for the other.
type ErrorKind string

// The error kinds, by whose failure it was (model.Answers and
// docs/RESULTS.md tell which server answer gives which). The first six are
// the infrastructure's: such an episode is lost: it says nothing about the
// model, is left out of every rate, and is redone by --resume. The others
// stand.
const (
	ErrorUnreachable ErrorKind = "unreachable"  // the server refused or dropped the connection
	ErrorCallTimeout ErrorKind = "call_timeout" // a model call ran past --timeout (or the server answered 408)
	ErrorServer      ErrorKind = "server"       // the server answered 5xx or 429
	ErrorBadReply    ErrorKind = "bad_reply"    // the server's reply could not be read
	ErrorRefused     ErrorKind = "refused"      // the server refused the request for a reason of the setup (401, 403, model not found, a bad option): the run stops
	ErrorFault       ErrorKind = "fault"        // the machine failed bench: no space, no memory, a workspace that could not be made or cleaned, a result that could not be written

	ErrorReplyTooLarge   ErrorKind = "reply_too_large"   // the model's reply ran past the size cap (--max-reply-bytes): the model's failure
	ErrorRequestTooLarge ErrorKind = "request_too_large" // the conversation outgrew what the server accepts (413, or a context-length refusal): a limit the episode ran into
	ErrorModel           ErrorKind = "model"             // written before refusals were told apart: the server refused the request
	ErrorHarness         ErrorKind = "harness"           // bench failed after the track acted, not for the machine's resources (a track that panicked, grading that could not run): stands, since a model can provoke it
)

// formatOneCallTimeout reports whether kind, read from a record of the
// given format, is format 1's spelling of ErrorCallTimeout. Both readers
// of episode lines (decodeEpisode, decodeOutcomeLine) ask it, so that a
// run written before format 2 counts as it did.
func formatOneCallTimeout(format int, kind string) bool {
	return format < 2 && kind == "timeout"
}

// ErrorLine is the first line of the episode's Error, for a message that
// names it.
func (e Episode) ErrorLine() string {
	line, _, _ := strings.Cut(e.Error, "\n")
	return line
}

// InfraError reports whether an error kind is the infrastructure's rather
// than the model's or bench's: an episode that ended with it is lost.
func InfraError(kind ErrorKind) bool {
	switch kind {
	case ErrorUnreachable, ErrorCallTimeout, ErrorServer, ErrorBadReply, ErrorRefused, ErrorFault:
		return true
	}
	return false
}

// TaskRef names a task of a run and the checksum of its folder, with the
// task's design and where it came from (empty in runs older than them).
type TaskRef struct {
	Name      string `json:"name"`
	Checksum  string `json:"checksum"`
	Archetype string `json:"archetype,omitempty"` // task.toml's archetype, e.g. "masked-second-bug"
	Answers   string `json:"answers,omitempty"`   // the designed answers to the three questions, "y"/"n" each in order: "nny"
	Origin    string `json:"origin,omitempty"`    // OriginBuiltin, or the absolute --tasks-dir folder the task was loaded from
}

// OriginBuiltin is the origin of a task compiled into bench.
const OriginBuiltin = "builtin"

// Run describes what was run: run.json. Its settings are the embedded
// RunSettings (encoding/json flattens them); MarshalJSON keeps run.json's
// keys in the order format 1 has always written them.
type Run struct {
	Format       int    `json:"format"`
	BenchVersion string `json:"bench_version"`
	ID           string `json:"id"`
	// UID is the run's identity: made unique when the run is created, kept
	// by --resume, shared by the shards of one sweep only when the user
	// gives them one (--run-uid). Folders written before it have none:
	// readers derive one from their run.json bytes (see Run.Identity).
	UID         string    `json:"uid,omitempty"`
	Backend     string    `json:"backend"`
	Host        string    `json:"host"`
	Model       string    `json:"model"`
	ModelDigest string    `json:"model_digest"`
	Seeds       []int     `json:"seeds"`
	Tasks       []TaskRef `json:"tasks"`
	Tracks      []string  `json:"tracks"`
	Started     time.Time `json:"started"`
	// PromptsSHA256 is the digest of the fixed text (prompts, tool schemas)
	// of the run's tracks: runs with different prompts are never twins.
	PromptsSHA256 string `json:"prompts_sha256,omitempty"`
	// Models lists the run's models with their digests, in the order
	// given (--model a,b). A run of several models names them all in
	// Model, joined by commas, and leaves ModelDigest empty.
	Models []ModelRef `json:"models,omitempty"`
	// Hosts lists the model servers of the run's pool (--host URL1,URL2);
	// Host is the first. Each episode names the one that ran it.
	Hosts []string `json:"hosts,omitempty"`
	// Shard is the part of the plan this run holds (--shard i/n); nil = all of it.
	Shard *Shard `json:"shard,omitempty"`
	// WorkflowModelDigest is the digest of WorkflowModel's weights.
	WorkflowModelDigest string `json:"workflow_model_digest,omitempty"`

	RunSettings
	// Dimensions are the run-defining settings given several values
	// (--posture off,on), in Table's order: dimensions of the plan, as the
	// model is. The settings above hold each dimension's first value; an
	// episode's Variant says its own.
	Dimensions []Dimension `json:"dimensions,omitempty"`

	// ReplayOf is, for a replay run (bench run --replay), the recorded
	// run it replays; nil otherwise. Not a setting: the replay has the
	// recording's settings.
	ReplayOf *ReplayOf `json:"replay_of,omitempty"`

	// Sandbox is what the test runs were confined by (nil in runs from before the sandbox).
	Sandbox *Sandbox `json:"sandbox,omitempty"`
}

// ModelRef names one model of a run and the digest of its weights.
type ModelRef struct {
	Name   string `json:"name"`
	Digest string `json:"digest"`
}

// Shard is part Index (1-based) of Count parts of a plan.
type Shard struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

// String is the shard as --shard takes it: i/n.
func (s Shard) String() string { return strconv.Itoa(s.Index) + "/" + strconv.Itoa(s.Count) }

// SeveralModels reports whether the run's plan has a model dimension of
// more than one model: its trajectories then sit in a folder per model.
func (r Run) SeveralModels() bool { return len(r.Models) > 1 }

// Episode is one finished episode: a line of episodes.jsonl.
type Episode struct {
	Format int    `json:"format"`
	Run    string `json:"run"`
	Task   string `json:"task"`
	Track  string `json:"track"`
	Seed   int    `json:"seed"`
	Repeat int    `json:"repeat"`          // 0 for the first use of a seed, k for its k-th twin
	Model  string `json:"model,omitempty"` // the model asked; "" when no track called one
	Host   string `json:"host,omitempty"`  // the server that ran the episode
	// Variant is the episode's values of the run's dimensions, name=value
	// joined by one space in the order of Run.Dimensions ("max-turns=5
	// posture=on"); "" when the run has none.
	Variant             string     `json:"variant,omitempty"`
	Passed              bool       `json:"passed"`
	TestsPassed         int        `json:"tests_passed"`
	TestsTotal          int        `json:"tests_total"`
	FailedTests         []string   `json:"failed_tests"`
	ExitReason          ExitReason `json:"exit_reason"`
	Turns               int        `json:"turns"`
	ModelCalls          int        `json:"model_calls"`
	ToolCalls           []string   `json:"tool_calls"`
	Steps               []string   `json:"steps"` // a short digest of each model reply, to find where twins diverge
	PromptTokens        int        `json:"prompt_tokens"`
	CompletionTokens    int        `json:"completion_tokens"`
	EstPromptTokens     int        `json:"est_prompt_tokens"`
	EstCompletionTokens int        `json:"est_completion_tokens"`
	WallMS              int64      `json:"wall_ms"`
	ModelMS             int64      `json:"model_ms"`
	ServerMS            int64      `json:"server_ms,omitempty"` // the server's own time on the episode's calls (Ollama total_duration); omitted when it reports none
	TestMS              int64      `json:"test_ms"`
	TestsTampered       bool       `json:"tests_tampered"`
	Posture             string     `json:"posture"` // "coding" or "general" for tracks with a posture, else ""
	Error               string     `json:"error"`
	ErrorKind           ErrorKind  `json:"error_kind,omitempty"` // one of the Error* kinds when ExitReason is "error"
	Retries             int        `json:"retries"`              // model calls retried after a transport or server failure
	CutReplies          int        `json:"cut_replies"`          // replies the server cut at the reply cap (stop reason "length")
	GradingTimedOut     bool       `json:"grading_timed_out,omitempty"`
	// TamperReasons says why TestsTampered is set: one entry per reason,
	// sorted by code (the codes are listed in docs/SANDBOX.md).
	TamperReasons    []TamperReason `json:"tamper_reasons,omitempty"`
	TrajectorySHA256 string         `json:"trajectory_sha256,omitempty"` // digest of the trajectory file as it was when the episode ended

	// WorkflowCalls, WorkflowTokens and WorkflowEstTokens are the share of
	// ModelCalls and of the tokens (the server's prompt plus completion
	// count, and the offline estimate) spent by the workflow the hybrid
	// agent ran as its run_workflow tool; 0 for every other track.
	WorkflowCalls     int `json:"workflow_calls,omitempty"`
	WorkflowTokens    int `json:"workflow_tokens,omitempty"`
	WorkflowEstTokens int `json:"workflow_est_tokens,omitempty"`

	// Causes are why the episode failed, most specific first (package
	// cause derives them after grading): a failed episode of a run that
	// records them has the list, empty when no cause was found; a passed,
	// lost or interrupted episode, and every episode of an older run, has
	// none (the field is left out).
	Causes []Cause `json:"causes,omitzero"`
	// FilesWritten are the files the track wrote (write and
	// fallback_write events), relative to the workspace, cleaned and
	// sorted: a passing episode's are evidence for another's
	// needs_other_file (a witness).
	FilesWritten []string `json:"files_written,omitempty"`
	// Replay is, for an episode of a replay run (bench run --replay), how
	// it compared with the recording; nil otherwise.
	Replay *Replay `json:"replay,omitempty"`

	// Sandbox is what the grading run was confined by (nil in runs from before the sandbox).
	Sandbox *Sandbox `json:"sandbox,omitempty"`
}

// TamperReason is one reason why grading did not believe a test run or
// found the workspace tampered with: a short code from docs/SANDBOX.md and
// a sentence about this episode.
type TamperReason struct {
	Code   string `json:"code"`
	Detail string `json:"detail"`
}

// Lost reports whether the episode was ended by an infrastructure failure:
// it is not counted in any rate, and --resume redoes it.
func (e Episode) Lost() bool {
	return e.ExitReason == ExitError && InfraError(e.ErrorKind)
}

// Key identifies an episode within a run:
// task/track[/model][/variant]/seed-S[-rK], the variant as VariantDir
// spells it.
func (e Episode) Key() string {
	k := e.Task + "/" + e.Track + "/"
	if e.Model != "" {
		k += e.Model + "/"
	}
	if e.Variant != "" {
		k += VariantDir(e.Variant) + "/"
	}
	return k + TrajectoryName(e.Seed, e.Repeat)
}

// ModelDir is the folder name of a model's trajectories in a run of
// several models: its name with path separators and colons as dashes.
func ModelDir(name string) string {
	return strings.NewReplacer("/", "-", "\\", "-", ":", "-").Replace(name)
}

// TrajectoryRel is the path of ep's trajectory inside the folder of run:
// trajectories/<task>/<track>[/<model>][/<variant>]/seed-S[-rK].jsonl, the
// model's folder only when the run has several models, the variant's
// (VariantDir) only when it has dimensions.
func TrajectoryRel(run Run, ep Episode) string {
	folder := TrajectoryFolder(ep.Task, ep.Track, ep.Model, ep.Variant, run.SeveralModels())
	return filepath.Join(folder, TrajectoryFile(ep.Seed, ep.Repeat))
}

// TrajectoryFolder is the folder, inside a run folder, of the trajectories
// of a task, track, model and variant: trajectories/<task>/<track>, then
// the model's folder when severalModels, then the variant's when it is not
// "".
func TrajectoryFolder(task, track, model, variant string, severalModels bool) string {
	parts := []string{TrajectoriesDir, task, track}
	if severalModels {
		parts = append(parts, ModelDir(model))
	}
	if variant != "" {
		parts = append(parts, VariantDir(variant))
	}
	return filepath.Join(parts...)
}

// TrajectoryFile is the file name of an episode's trajectory:
// seed-<s>[-r<k>].jsonl (ParseTrajectoryName reads it back).
func TrajectoryFile(seed, repeat int) string { return TrajectoryName(seed, repeat) + ".jsonl" }

// TrajectoryName is the file stem of an episode's trajectory: seed-<s>[-r<k>].
func TrajectoryName(seed, repeat int) string {
	return string(AppendTrajectoryName(nil, seed, repeat))
}

// AppendTrajectoryName appends TrajectoryName(seed, repeat) to dst, for a
// caller that looks a million of them up without making strings.
func AppendTrajectoryName(dst []byte, seed, repeat int) []byte {
	dst = strconv.AppendInt(append(dst, "seed-"...), int64(seed), 10)
	if repeat != 0 {
		dst = strconv.AppendInt(append(dst, "-r"...), int64(repeat), 10)
	}
	return dst
}

// Event kinds of a trajectory.
const (
	EventRequest       = "request"
	EventResponse      = "response"
	EventToolCall      = "tool_call"
	EventToolResult    = "tool_result"
	EventTestRun       = "test_run"
	EventWrite         = "write"
	EventFallbackWrite = "fallback_write"
	EventReject        = "reject"
	EventEnd           = "end"
)

// Roles of chat messages, as a trajectory stores them (package model's
// messages take these).
const (
	RoleSystem    = "system"
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleTool      = "tool"
)

// Stop reasons of a reply (Event.StopReason), the same for every backend:
// package model normalises the servers' to these.
const (
	StopEnd       = "stop"       // the model ended its reply
	StopLength    = "length"     // the server cut the reply at the reply cap (num_predict / max_tokens) or the context window
	StopToolCalls = "tool_calls" // the model ended its reply with tool calls
)

// Message is a chat message as stored in a trajectory.
type Message struct {
	Role      string     `json:"role"`
	Content   string     `json:"content,omitempty"`
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	ToolName  string     `json:"tool_name,omitempty"`
}

// ToolCall is a tool call as stored in a trajectory.
type ToolCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// Event is one line of a trajectory file. Which fields are set depends on Kind.
type Event struct {
	Format int       `json:"format"`
	Seq    int       `json:"seq"`
	Time   time.Time `json:"time"`
	Kind   string    `json:"kind"`
	Turn   int       `json:"turn,omitempty"`
	// Within names the tool whose run recorded the event, for the events a
	// tool makes on the model's behalf (the hybrid's run_workflow: its test
	// runs, its own model call, its write); "" for every other event.
	Within string `json:"within,omitempty"`

	// request: the messages added since the previous request (all of them on the first).
	Messages  []Message `json:"messages,omitempty"`
	Tools     []string  `json:"tools,omitempty"`
	EstTokens int       `json:"est_tokens,omitempty"`

	// response
	Reply            *Message `json:"reply,omitempty"`
	PromptTokens     int      `json:"prompt_tokens,omitempty"`
	CompletionTokens int      `json:"completion_tokens,omitempty"`
	EstCompletion    int      `json:"est_completion_tokens,omitempty"`
	DurationMS       int64    `json:"duration_ms,omitempty"`
	Retries          int      `json:"retries,omitempty"`
	StopReason       string   `json:"stop_reason,omitempty"` // the server's: "stop", "length" (cut at the reply cap), "tool_calls"

	// tool_call, tool_result
	Tool    string `json:"tool,omitempty"`
	Args    string `json:"args,omitempty"`
	Result  string `json:"result,omitempty"`
	IsError bool   `json:"is_error,omitempty"`

	// test_run
	TestsPassed int    `json:"tests_passed,omitempty"`
	TestsTotal  int    `json:"tests_total,omitempty"`
	Output      string `json:"output,omitempty"`

	// write, fallback_write, reject
	Path   string `json:"path,omitempty"`
	Bytes  int    `json:"bytes,omitempty"`
	Reason string `json:"reason,omitempty"`

	// end
	Exit  ExitReason `json:"exit,omitempty"`
	Error string     `json:"error,omitempty"`
}

// Recorder receives trajectory events as they happen.
//
// Implementations must not fail the track: a write error is kept and
// reported by the owner of the recorder after the episode.
type Recorder interface {
	Record(ev Event)
}

// Sandbox names what confined a test run, layer by layer: FS "landlock" or
// "none"; Net "netns", "landlock-tcp" or "none"; PID "pidns" or "pdeathsig".
type Sandbox struct {
	FS  string `json:"fs"`
	Net string `json:"net"`
	PID string `json:"pid"`
}
