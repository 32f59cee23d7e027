// Package workspace is the confined file access of the tracks: the agent's
// file tools and the workflows' writer touch an episode's workspace only
// through it.
//
// Every operation goes through an os.Root, so that no path, symbolic link or
// ".." ever resolves outside the workspace, even if model-written code
// changes the tree between a check and a use. On top of that, reading opens
// only regular files (a FIFO, device or socket is refused at once, never
// waited on), writing replaces a file atomically and refuses a file with
// more than one hard link, and sizes are capped by MaxFileBytes.
//
// Errors name the path as the model gave it, never the workspace's absolute
// path, so that they can be shown to the model; Refused tells a path the
// tools will not touch from a failing file system.
package workspace
