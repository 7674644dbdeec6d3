// Package mutant lets the test suite plant bugs in the judge itself — the
// comparisons, the generator, the models, the audit and its command — to
// show that a wrong verdict fails a test, as impl/mutant does for the
// system under test.
// In a normal build On is a constant false that the compiler removes; only a
// build with `-tags mutants` reads SESSIONDAG_MUTANT (scripts/mutants runs
// each against the tests of every package whose test binary links the
// code that switches it on).
package mutant

// The judge's mutants, by where the bug goes.
const (
	CmpKeyOrder           = "cmp-key-order"
	CmpNumberByValue      = "cmp-number-by-value"
	CmpFastPathList       = "cmp-fast-path-list"
	CmpNumberSpelled      = "cmp-number-spelled"
	ProjectKind           = "project-kind"
	GenNoClock            = "gen-no-clock"
	GenNoLegacyTool       = "gen-no-legacy-tool"
	IntentRewoundDispatch = "intent-rewound-dispatch"
	GenRewoundDispatch    = "gen-rewound-dispatch"
	GenNoAskRerun         = "gen-no-ask-rerun"

	ModelBranchAnyRoot    = "model-branch-any-root"
	ModelBranchCycleTwice = "model-branch-cycle-twice"
	ModelLeafFirstChild   = "model-leaf-first-child"
	ModelLeafCycleStop    = "model-leaf-cycle-stop"
	ModelCardsByParent    = "model-cards-by-parent"
	ModelReprExponent15   = "model-repr-exponent-15"
	ModelRetryUserOnly    = "model-retry-user-only"
	ModelReplyAtPending   = "model-reply-at-pending"

	AuditUnchangedIgnoresHead = "audit-unchanged-ignores-head"
	AuditCauseByPrevious      = "audit-cause-by-previous"
	AuditScriptedLenient      = "audit-scripted-lenient"
	AuditScriptedMovedStrict  = "audit-scripted-moved-strict"
	AuditMovedUserLost        = "audit-moved-user-lost"
	AuditHeadCountsAsMoved    = "audit-head-counts-as-moved"
	AuditHeadRowNotLost       = "audit-head-row-not-lost"
	AuditBrokenJudged         = "audit-broken-judged"
	AuditMergeDropsRegression = "audit-merge-drops-regressions"
	AuditMergeDedupsShards    = "audit-merge-dedups-shards"
	AuditMergeAnyTree         = "audit-merge-any-tree"
	AuditUnjudgedCountedFix   = "audit-unjudged-counted-fix"
	AuditReadyIgnoresRegress  = "audit-ready-ignores-regressions"
	AuditReadyOnNothing       = "audit-ready-on-nothing"
	AuditExpiredAccepts       = "audit-expired-accepts"
	AuditStaleOnlySeen        = "audit-stale-only-seen"
	AuditAcceptAnyFinding     = "audit-accept-any-finding"
	AuditPageBrokenByError    = "audit-page-broken-by-error"
	AuditPageByDirOnly        = "audit-page-by-dir-only"
	CmdAuditExitIgnoresBroken = "cmd-audit-exit-ignores-broken"
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
	{CmpNumberSpelled, "the value-by-value fast path of the view comparison takes any two numbers of two implementation views as written alike"},
	{ProjectKind, "the projection of a loaded chain drops whether a row is a card or a message"},
	{GenNoClock, "the generator never sets the clock (no real timestamp is written)"},
	{GenNoLegacyTool, "the generator never draws a legacy tool edge"},
	{IntentRewoundDispatch, "the intent rule keeps a dispatcher turn that inherits its parent from a rewound head"},
	{GenRewoundDispatch, "the generator lets a dispatcher turn inherit its parent from a rewound head under SyncedBrowser"},
	{GenNoAskRerun, "the generator never names an ask row in a retry or edit"},
	{ModelBranchAnyRoot, "model.Legacy's get_branch follows the previous ROOT-level root even when a row names it as parent_id (rule 3)"},
	{ModelBranchCycleTwice, "model.Legacy's get_branch lists the row that closes a parent cycle a second time"},
	{ModelLeafFirstChild, "model.Legacy's deepest_leaf moves to the first child, not the last"},
	{ModelLeafCycleStop, "model.Legacy's deepest_leaf on a parent cycle gives the row before the revisit, not the start"},
	{ModelCardsByParent, "model.Legacy finds a runtime card's descendants by parent_id, not the top-level called_by"},
	{ModelReprExponent15, "model.Legacy's Python float repr switches to exponent form at 1e15, not 1e16"},
	{ModelRetryUserOnly, "model.Target's retry and edit take U only when it is a user turn, so an edited script ask answer climbs past itself"},
	{ModelReplyAtPending, "model.Target's reply takes the pending turn as its IP, not its anchor: the reply to a retried ask row is a root"},
	{AuditUnchangedIgnoresHead, "the audit calls a step unchanged when the chain is the same, whatever the head (§8.1)"},
	{AuditCauseByPrevious, "the residual's cause walk names the row before the one whose pointer leaves the row behind"},
	{AuditScriptedLenient, "with a script, data written with the flags on is held to the first promise only, not strictly closer to the intended view (§8.2)"},
	{AuditScriptedMovedStrict, "with a script, an intended row moved to a branch excuses a step on data written with the flags on too (§8.2)"},
	{AuditMovedUserLost, "a user's message moved to a branch a user reaches is judged unfindable (§8.3)"},
	{AuditHeadCountsAsMoved, "a removed row shown only at its own head counts as moved to a branch (§8.3)"},
	{AuditHeadRowNotLost, "a removed row shown only at its own head is never lost, glued on or not (§8.3)"},
	{AuditBrokenJudged, "a step of a broken session keeps its verdict: it can be a fix (§8.4)"},
	{AuditMergeDropsRegression, "the merge of shard summaries drops the shards' regression count (§8.5)"},
	{AuditMergeDedupsShards, "the merge of shard summaries lists each shard once: a doubled shard is not seen (§8.5)"},
	{AuditMergeAnyTree, "the merge of shard summaries accepts shards that walked different trees (§8.5)"},
	{AuditUnjudgedCountedFix, "the totals count an unjudged step of a broken session as a fix (§8.4)"},
	{AuditReadyIgnoresRegress, "ready with regressions: the verdict counts only broken sessions and violations (§8.5)"},
	{AuditReadyOnNothing, "ready on nothing: a summary of no session directory is not a problem (§8.5)"},
	{AuditExpiredAccepts, "an expired exception still accepts its finding (§8.6)"},
	{AuditStaleOnlySeen, "an exception is stale only when its session was audited, even once the run is whole (§8.6)"},
	{AuditAcceptAnyFinding, "a regression is accepted once an exception accepts any one of its findings (§8.6)"},
	{AuditPageBrokenByError, "the page counts a session broken only when it could not be opened: one with unreadable files and no change is left off the blocking list"},
	{AuditPageByDirOnly, "the page orders the sessions that need a look by directory alone, not the blocking ones first"},
	{CmdAuditExitIgnoresBroken, "sessiondag audit exits 0 with broken sessions when nothing else fails"},
}
