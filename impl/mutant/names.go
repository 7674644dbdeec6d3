package mutant

// The mutants, each a historic bug (legacy §3.2–§3.9, §5) or a broken step of
// the rollout. scripts/mutants.sh runs the properties against each.
const (
	CardsByParent    = "cards-by-parent"     // runtime cards absorb parent_id children (V0/V1, §5.2)
	FallbackV1       = "fallback-v1"         // the V1 fallback trigger (chain < 3 and all > 3)
	AggNoExtraEdge   = "agg-no-extra-edge"   // aggregation ignores extra.tool_use.called_by
	LexicalOrder     = "lexical-order"       // cold load in file-name order (seq ≥ 10000 misordered)
	NoCycleGuard     = "no-cycle-guard"      // linear_history without its seen-set
	DropOrphans      = "drop-orphans"        // aggregation drops tool rows it cannot fold
	StepAWrongPred   = "step-a-wrong-pred"   // flag A: writers record the client head, not the store head
	StepBIgnored     = "step-b-ignored"      // flag B: linear_history keeps walking the legacy pointer
	StepCBranchOnly  = "step-c-branch-only"  // flag C: get_branch replaces the chain outright (the reverted 97a904dc1)
	StepDReadsParent = "step-d-reads-parent" // flag D: aggregation still reads parent_id
	OpenDropsLast    = "open-drops-last"     // the cold load silently skips the newest history file
	AdapterKnownKeys = "adapter-known-keys"  // append_message keeps only the metadata keys it knows
	RenderMapOrder   = "render-map-order"    // render_context returns its ids in map order
	ColumnsStale     = "columns-stale"       // the load's per-session columns outlive an update of a node
)

// All lists every mutant in a fixed order.
var All = []string{CardsByParent, FallbackV1, AggNoExtraEdge, LexicalOrder, NoCycleGuard, DropOrphans,
	StepAWrongPred, StepBIgnored, StepCBranchOnly, StepDReadsParent,
	OpenDropsLast, AdapterKnownKeys, RenderMapOrder, ColumnsStale}
