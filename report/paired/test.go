package paired

// Test names of the Test results: a contract of the JSON output.
const (
	TestNone                  = "none"                        // nothing to test
	TestMcNemarExact          = "mcnemar-exact"               // pass/fail of pairs
	TestFisherExact           = "fisher-exact"                // pass/fail of unpaired episodes
	TestStratifiedExact       = "stratified-exact"            // pass/fail pooled over strata (pairs and unpaired tables)
	TestWilcoxonExact         = "wilcoxon-signed-rank-exact"  // tokens or turns of pairs, n ≤ ExactMax
	TestWilcoxonNormal        = "wilcoxon-signed-rank-normal" // tokens or turns of pairs, n > ExactMax
	TestMannWhitneyExact      = "mann-whitney-exact"          // tokens or turns of unpaired episodes, n1+n2 ≤ ExactMax
	TestMannWhitneyNormal     = "mann-whitney-normal"         // tokens or turns of unpaired episodes, n1+n2 > ExactMax
	TestStratifiedWilcoxon    = "stratified-wilcoxon-exact"   // pooled over paired strata, all pairs ≤ ExactMax
	TestStratifiedWilcoxonNrm = "stratified-wilcoxon-normal"  // pooled over paired strata, all pairs > ExactMax
)

// ExactMax is the largest sample (pairs, including zero differences, for
// the signed-rank tests; n1+n2 for the rank-sum test) whose rank test uses
// the exact permutation distribution; above it, the normal approximation
// with tie and continuity corrections. 50 is scipy.stats.wilcoxon's
// threshold for method="auto".
const ExactMax = 50

// Test is the result of one two-sided hypothesis test.
type Test struct {
	Name string  `json:"name"` // one of the Test* names
	P    float64 `json:"p"`    // two-sided; 1 when there is nothing to test
	// N is the units tested: for the rank tests the pairs (zeros
	// included) or the episodes of both sides; for the pass-rate tests the
	// informative ones, the discordant pairs plus the episodes of unpaired
	// tables (concordant pairs carry no information on a change).
	N int `json:"n"`
	// MinP is the smallest p-value any outcome could give with these n
	// (and, for the conditional tests, these margins): when it is not
	// below alpha, no result could be significant.
	MinP        float64 `json:"min_p"`
	Significant bool    `json:"significant"` // P < alpha
}

// none is the Test of nothing.
func none() Test { return Test{Name: TestNone, P: 1, MinP: 1} }
