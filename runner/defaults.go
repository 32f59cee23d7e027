package runner

// ResultsDir is the folder new runs are written under when no folder is named.
const ResultsDir = "results"
