// Package runner runs episodes: it copies a task into a fresh workspace,
// lets a track work there, and grades the result with pristine tests.
package runner

import "bench/scratch"

// newWorkspace makes an episode's workspace: scratch.New, or a fake in tests.
var newWorkspace = scratch.New

// removeWorkspace removes an episode's workspace: its Remove, or a fake in
// tests.
var removeWorkspace = (*scratch.Workspace).Remove
