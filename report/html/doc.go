// Package html renders a report as one self-contained HTML page, the
// teaching report of `bench report --format html`: a student opens it from
// disk, offline, with no server and nothing fetched.
//
// Write takes the report (report.Build of the runs) and the runs, whose
// trajectory files it reads for the timelines. The page is made with
// html/template from the embedded page.tmpl, page.css and page.js: the
// headline per-track table, the runs' settings and the footnotes; two
// inline SVG charts (pass rate per task and track with Wilson whiskers, and
// median tokens, n on every bar, in the Okabe–Ito palette); the per-task
// table with links to every episode and the agent/workflow comparison; the
// predictions when given; the tool sequences with loops collapsed
// (report.CollapseLoops); the twin runs side by side with their first divergent
// step highlighted; and every episode as a timeline of steps, each bar as
// long as its tokens or its time.
//
// Files: write.go lays out the page, tables.go the tables, charts.go the
// charts, episodes.go reads the episodes, timeline.go turns a trajectory
// into steps, twins.go lines up twins, loops.go collapses tool sequences.
//
// Element ids are stable, for links from course material:
// episode-<task>-<track>-<seed>-<repeat> for an episode (with -2, -3, …
// appended when merged runs hold the same episode), twins-<task>-<track>-<seed>
// for a twin group, and row-<task>-<track> for a row of the per-task table.
// The page stays light: detail texts are cut to a share of a fixed budget,
// and past a dozen episodes their bodies are kept as unparsed text that the
// page's script turns into elements when one is opened.
package html
