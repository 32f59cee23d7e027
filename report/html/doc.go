// Package html renders a report as one self-contained HTML page, the
// teaching report of `bench report --format html`: a student opens it from
// disk, offline, with no server and nothing fetched.
//
// Write takes the report (report.FromData of the runs, its Report) and the runs, whose
// trajectory files it reads for the timelines. The page is made with
// html/template from the embedded page.tmpl, page.css and page.js: the
// headline per-track table; two bar charts laid out in HTML and CSS (pass
// rate per task and track with Wilson whiskers, and median tokens, the
// offline estimate hatched), n on every bar, each track in its trackfacts
// colour as in the SVG plot; the per-task table with links to every
// episode, the causes of the failures and the hybrid's delegation; the
// tables by task design; the predictions when given; the tool sequences
// with loops collapsed (report.CollapseLoops); the twin runs side by side
// with their first divergent step highlighted; every episode as a timeline
// of steps, each bar as long as its tokens or its time; and the footnotes.
//
// Files: write.go lays out the page, tables.go the headline, per-task and
// sequence tables, charts.go the charts, causes.go the causes and the
// delegation, design.go the design tables, episodes.go reads the episodes,
// timeline.go turns a trajectory into steps, twins.go lines up twins.
//
// Element ids are stable, for links from course material:
// episode-<task>-<track>-<model>-<seed>-<repeat> for an episode, where
// <model> is the model's folder name (record.ModelDir), left out with its
// dash for an episode that asked no model, and -2, -3, … are appended when
// merged runs hold the same episode; twins-<task>-<track>-<seed> for a
// twin group; row-<task>-<track> for a row of the per-task table, with
// -<model> appended in a report of several models. The page stays light:
// detail texts are cut to a share of a fixed budget, and past a dozen
// episodes (ten twin comparisons) their bodies are kept as unparsed text
// that the page's script turns into elements when one is opened.
package html
