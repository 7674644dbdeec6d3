package mutant

// The mutants: historic bugs (legacy §3.2–§3.9, §5), broken steps of the
// rollout, and single-point bugs of the optimised load (its columns, folded
// copies, pooled work arrays, memos, update log, cached predecessors, the
// work split between cores, sibling groups). Each name is checked by
// mutant.On where the bug goes; All describes them.
const (
	CardsByParent     = "cards-by-parent"
	FallbackV1        = "fallback-v1"
	AggNoExtraEdge    = "agg-no-extra-edge"
	LexicalOrder      = "lexical-order"
	NoCycleGuard      = "no-cycle-guard"
	DropOrphans       = "drop-orphans"
	StepAWrongPred    = "step-a-wrong-pred"
	StepBIgnored      = "step-b-ignored"
	StepCBranchOnly   = "step-c-branch-only"
	StepDReadsParent  = "step-d-reads-parent"
	StepADropsParent  = "step-a-drops-parent"
	PredsTrustAfterA  = "preds-trust-after-a"
	OpenDropsLast     = "open-drops-last"
	AdapterKnownKeys  = "adapter-known-keys"
	RenderMapOrder    = "render-map-order"
	ColumnsStale      = "columns-stale"
	AdapterKeepsExtra = "adapter-keeps-extra"
	TiesReversed      = "ties-reversed"

	ColumnsKeepHidden  = "columns-keep-hidden"
	ColumnsKeyNoB      = "columns-key-no-b"
	FoldCountOnly      = "fold-count-only"
	FoldIgnoresBase    = "fold-ignores-base"
	FoldInPlace        = "fold-in-place"
	FoldSlotMask       = "fold-slot-mask"
	ScratchNotCleared  = "scratch-not-cleared"
	MemoForgetMask     = "memo-forget-mask"
	MemoGenLags        = "memo-gen-lags"
	UpdateLogSkips     = "update-log-skips"
	PredsHeadLost      = "preds-head-lost"
	FillSplitFrom      = "fill-split-from"
	ReadSplitOffset    = "read-split-offset"
	GroupedFromEnd     = "grouped-from-end"
	GroupNullEmpty     = "group-null-empty"
	AggBlocksNeedCall  = "agg-blocks-need-call"
	AggFoldsAnyKind    = "agg-folds-any-kind"
	ColumnsEpochKept   = "columns-epoch-kept"
	AggTargetOnce      = "agg-target-once"
	GroupOtherOnce     = "group-other-once"
	ScratchPutEarly    = "scratch-put-early"
	CorrectedKeyLast   = "corrected-key-last"
	FloatFixedTo15     = "float-fixed-to-15"
	ForkAnsweredByCall = "fork-answered-by-call"
	FloatWholeAsInt    = "float-whole-as-int"

	StepBDropsRoot      = "step-b-drops-root"
	StepCSkipsSplice    = "step-c-skips-splice"
	StepDAttachByCaller = "step-d-attach-by-caller"
	RerunAskAtRoot      = "rerun-ask-at-root"
	AskReplyFolded      = "ask-reply-folded"
)

// A Mutant is a bug that can be compiled in: its name (SESSIONDAG_MUTANT)
// and what it breaks, as the README's table says it.
type Mutant struct {
	Name string
	Bug  string
}

// All lists every mutant in a fixed order: the historic bugs and rollout
// steps first, then the optimised load's.
var All = []Mutant{
	{CardsByParent, "runtime cards absorb parent_id children (V0/V1, legacy §5.2)"},
	{FallbackV1, "the V1 fallback trigger (chain < 3 and all > 3)"},
	{AggNoExtraEdge, "aggregation ignores extra.tool_use.called_by"},
	{LexicalOrder, "cold load in file-name order (seq ≥ 10000 misordered)"},
	{NoCycleGuard, "linear_history without its seen-set"},
	{DropOrphans, "aggregation drops tool rows it cannot fold"},
	{StepAWrongPred, "flag A: web turns record the browser head, not the store head"},
	{StepBIgnored, "flag B: linear_history keeps walking the legacy pointer"},
	{StepCBranchOnly, "flag C: get_branch replaces the chain outright (the reverted 97a904dc1)"},
	{StepDReadsParent, "flag D: readers still read parent_id"},
	{StepADropsParent, "flag A: a web turn's writer leaves out the legacy parent_id (its recorded predecessor replaces it)"},
	{PredsTrustAfterA, "flag A: rows after one that records its predecessor are read as recording theirs: one a writer on another step wrote without becomes a root"},
	{StepBDropsRoot, "flag B: the predecessor walk stops before the conversation's first row"},
	{StepCSkipsSplice, "flag C: removing the fallback also skips the attach splice after it"},
	{StepDAttachByCaller, "flag D: attach pointers are spliced after their called_by, which a task's attach row does not have"},
	{RerunAskAtRoot, "flag A: a retry or edit of an ask_user row records ROOT as its predecessor (the ask row has none)"},
	{AskReplyFolded, "flag A: a reply to an ask_user row a retry made the turn is read as a function internal and folded away"},
	{OpenDropsLast, "the cold load silently skips the newest history file"},
	{AdapterKnownKeys, "append_message keeps only the metadata keys it knows"},
	{RenderMapOrder, "render_context returns its ids in map order"},
	{ColumnsStale, "the load's per-session columns are not refreshed after an update of a node"},
	{AdapterKeepsExtra, "append_message keeps a message's extra in the node's metadata beside its keys"},
	{TiesReversed, "the cold load orders files of one seq (the function subprocess's) against their names"},

	{ColumnsKeepHidden, "a column refill skips hidden positions: a node an update rewound keeps its row"},
	{ColumnsKeyNoB, "the columns are keyed without flag B: A and A,B share a card-parent column"},
	{FoldCountOnly, "a folded assistant is reused while it has as many tool rows, not the same ones"},
	{FoldIgnoresBase, "a folded assistant is reused after the assistant itself was replaced"},
	{FoldInPlace, "fold adds tool_calls to the shared message instead of a copy"},
	{FoldSlotMask, "folded copies indexed by p&64 instead of p%64 within their chunk"},
	{ScratchNotCleared, "pooled work arrays are handed out without zeroing"},
	{ScratchPutEarly, "a load puts its work arrays back in the pool while it still reads them"},
	{MemoForgetMask, "an update clears the memo at i&chunkBits instead of i&(chunkSize-1)"},
	{MemoGenLags, "the store generation is taken before the update is logged"},
	{UpdateLogSkips, "UpdatedSince(gen) leaves out the first update after gen"},
	{PredsHeadLost, "extending flag A's predecessors restarts the running head at ROOT"},
	{FillSplitFrom, "the column fill split between cores ends each part at from+step, not lo+step"},
	{ReadSplitOffset, "the cold read split between cores ends each part at step, not lo+step"},
	{GroupedFromEnd, "sibling groups filled from their end: members in reverse order"},
	{GroupNullEmpty, "a null sibling key and \"\" share one group over columns"},
	{AggBlocksNeedCall, "the load folds only assistants with tool rows: blocks of the others are lost"},
	{AggFoldsAnyKind, "the load folds a tool row into any row it names, not only an assistant"},
	{ColumnsEpochKept, "columns are extended after flag A's predecessors were derived afresh"},
	{AggTargetOnce, "a tool row's target is looked up once, when its column is filled, never after"},
	{GroupOtherOnce, "a sibling key is looked up once, when its column is filled, never after"},
	{CorrectedKeyLast, "flag A's corrected message moves parent_id to its last key (deleted, then set)"},
	{ForkAnsweredByCall, "flag A counts a root fork as answered only by a row it calls or a rerun, not by a row recording it as parent"},
	{FloatWholeAsInt, "a float with a whole value is written without its .0 (2.0 as 2)"},
	{FloatFixedTo15, "floats are written fixed only up to 15 digits before the point (Python: 16): 1e15 as 1e+15"},
}
