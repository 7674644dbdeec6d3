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
}
