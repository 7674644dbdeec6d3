// Package mutant lets the test suite plant bugs in the judge itself — the
// comparisons, the generator, the models and the audit — to show that a
// wrong verdict fails a test, as impl/mutant does for the system under test.
// In a normal build On is a constant false that the compiler removes; only a
// build with `-tags mutants` reads SESSIONDAG_MUTANT (scripts/mutants runs
// each against the whole `go test ./...`).
package mutant

// The judge's mutants, by where the bug goes.
const (
	CmpKeyOrder      = "cmp-key-order"
	CmpNumberByValue = "cmp-number-by-value"
	CmpFastPathList  = "cmp-fast-path-list"
	ProjectKind      = "project-kind"
	GenNoClock       = "gen-no-clock"
	GenNoLegacyTool  = "gen-no-legacy-tool"

	ModelBranchAnyRoot    = "model-branch-any-root"
	ModelBranchCycleTwice = "model-branch-cycle-twice"
	ModelLeafFirstChild   = "model-leaf-first-child"
	ModelLeafCycleStop    = "model-leaf-cycle-stop"
	ModelCardsByParent    = "model-cards-by-parent"
	ModelReprExponent15   = "model-repr-exponent-15"
)

// A Mutant is a bug that can be compiled into the judge: its name
// (SESSIONDAG_MUTANT) and what it breaks.
type Mutant struct {
	Name string
	Bug  string
}

// All lists the judge's mutants in a fixed order.
var All = []Mutant{
	{CmpKeyOrder, "the document comparison ignores the order of an object's keys"},
	{CmpNumberByValue, "the document comparison compares numbers by value: 2 equals 2.0"},
	{CmpFastPathList, "the value-by-value fast path of the view comparison skips the branch list"},
	{ProjectKind, "the projection of a loaded chain drops whether a row is a card or a message"},
	{GenNoClock, "the generator never sets the clock (no real timestamp is written)"},
	{GenNoLegacyTool, "the generator never draws a legacy tool edge"},
	{ModelBranchAnyRoot, "model.Legacy's get_branch follows the previous ROOT-level root even when a row names it as parent_id (rule 3)"},
	{ModelBranchCycleTwice, "model.Legacy's get_branch lists the row that closes a parent cycle a second time"},
	{ModelLeafFirstChild, "model.Legacy's deepest_leaf moves to the first child, not the last"},
	{ModelLeafCycleStop, "model.Legacy's deepest_leaf on a parent cycle gives the row before the revisit, not the start"},
	{ModelCardsByParent, "model.Legacy finds a runtime card's descendants by parent_id, not the top-level called_by"},
	{ModelReprExponent15, "model.Legacy's Python float repr switches to exponent form at 1e15, not 1e16"},
}
