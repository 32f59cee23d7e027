// Package paired compares two sets of episodes — an old side (the baseline)
// and a new side (the candidate) — with paired tests where the episodes
// pair, pooled over tasks, and decides whether the new side regressed.
//
// It is a library over plain data: Episode holds what a comparison needs of
// a finished episode (its key, whether it passed, its tokens and turns), and
// it imports neither record nor report. The wiring into `bench compare` and
// `bench report` builds Episodes from runs and prints the results.
//
// # Pairing
//
// Compare pairs an old and a new episode when they share task, track,
// model, seed and repeat (the track and the model are left out of the key
// when they are the setting compared: Options.AcrossTracks,
// Options.AcrossModels). A cell — one task, track and model — with at least
// one pair is tested on its pairs only (the exact McNemar test for
// pass/fail, the Wilcoxon signed-rank test for tokens and turns); its
// episodes without a pair are listed and left out. A cell with episodes on
// both sides but no pair falls back to the unpaired tests (Fisher's exact
// test, the Mann-Whitney U test). Every Test names itself.
//
// # Pooling
//
// Per track (and model, when the model is part of the key) the cells are
// the strata of one pooled answer: the exact conditional test of a common
// pass-rate change (discordant pairs pooled: the exact McNemar test over
// the summed discordant counts when every stratum is paired; Fisher-type
// hypergeometric strata for unpaired cells), the Mantel-Haenszel difference
// in pass rate with Newcombe's interval (paired) or a bootstrap over tasks
// and seeds, the stratified Wilcoxon signed-rank test of tokens and turns,
// and the ratio of their medians with a bootstrap over tasks and seeds.
//
// # Power and the gate
//
// SeedsNeeded answers how many seeds per task the exact McNemar test needs
// to detect an effect with a given power, from the observed discordance.
// Gate decides from a Comparison whether the new side regressed, with the
// reasons as data.
//
// Every p-value is two-sided; every statistic that needs a minimum n says
// so in a Caveat. docs/COMPARE.md explains each test for readers, with the
// commands that print them and a CI recipe.
package paired
