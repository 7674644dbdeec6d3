package ops

import (
	"encoding/binary"
)

// WriterState is what the intent rule reads of the writer performing the
// ops: its browser's head (null until set), the store's in-memory head,
// whether ROOT exists, whether the writer has a turn or run in progress, and
// whether a row names a caller not written yet (an orphan whose caller a
// later op writes), and whether a row was rewound. model.LegacyRun and the
// generator's shadow both keep it.
type WriterState interface {
	ClientHead() (id string, set bool)
	InMemoryHead() string
	// ShownHead is the head a load shows for the in-memory head, which a
	// reload makes the browser's: a row the aggregation folds (a tool
	// row) stands for the reply it folds into.
	ShownHead() string
	Rooted() bool
	Busy() bool
	CallerPending(id string) bool
	Rewound(id string) bool
}

// Intent is the one rule for where data written with the flags off holds its
// intent, followed op by op over a script. Outside it, a row records a parent
// its user never meant, or none where the place is not in the data, and no
// derivation of flag A can recover the conversation (model/README.md, "What
// cannot be derived"):
//
//   - a web turn or /spawn typed in a browser that does not show the store's
//     head (Stale): the row records the browser's head;
//   - a row that records no parent (a manual run, a script row, an adapter row
//     without parent_id or caller) while the head stands where no row records
//     it (Unrecorded): after a checkout, or a retry that wrote no row, until a
//     row records the head again. A dispatcher turn does, as R writes it: its
//     row records its parent and takes the head. One called by ROOT (rooted,
//     older writers) does not: it never moves the head, and its reply is
//     what records the turn;
//   - the same after another writer took over mid-turn: it reads the head as
//     stored, which no row records where the writer before it had moved the
//     head without writing it (ROOT created for a turn, a legacy tool row);
//   - and after a writer resumed a turn or run that another writer's rows
//     interrupted: where its reply or run ends it moves the head back to a
//     row written before those rows, and nothing in the data says when (the
//     same bytes come from the turn ending before them);
//   - a compaction by a writer without A in a session a writer with A wrote
//     to: it copies the kept rows whole, their recorded predecessors
//     included, so each copy records the original's predecessor, not the
//     summary it continues (an older writer cannot know the key).
//   - a dispatcher turn that inherits its parent (no parent given) while the
//     store's head stands on a rewound row: R's INHERIT is the last row of
//     get_branch(head), which leaves rewound rows out, so the row records
//     whatever row the walk reaches past the head (a legacy tool row of an
//     earlier turn, through the walk's ROOT-level rule), where the intent
//     follows the head. A CI run of TestChecks/P3-rollout/mixed found it: A →
//     A,B moved the chain away from the intended one
//     (corpus/ops/regressions/rollout-mixed-dispatch-rewound-head.ops).
//   - a /spawn while the head stands on a row whose caller is not written yet
//     (Unanchored: a checkout onto an orphan named by a later reply): the
//     intent anchors the /spawn at nothing, so its attach row after the
//     command row, but the attach records that row, which reads as a call of
//     the later reply once it is written. TestP3 found it on migration data:
//     A → A,B hid the attach row A showed through its get_branch fallback.
//
// Once flag A is on the writers record every row's predecessor from the
// store's head, and nothing is left to guess. The generator draws only ops the
// rule keeps (gen.Options.SyncedBrowser); exhaust and the data kinds of the
// harness judge scripts by it.
type Intent struct {
	predecessors bool   // the flags in force include A
	unrecorded   bool   // the head moved where no row records it
	lost         bool   // an op so far wrote a row whose intent is not in the data
	head         string // the store's in-memory head after the last op
	writer       string // the writer performing the ops ("" = FirstWriter)
	recorded     bool   // a writer with A has written to the session
}

// Stale reports whether a web turn or /spawn written now would record a
// parent other than the store's head: the browser shows another row, or the
// session has no ROOT yet while the browser shows one (the turn's ensureRoot
// moves the store's head to ROOT first).
func (in *Intent) Stale(w WriterState) bool {
	if in.predecessors {
		return false
	}
	ch, set := w.ClientHead()
	return ch != w.InMemoryHead() && ch != w.ShownHead() || !w.Rooted() && set
}

// Unrecorded reports whether the store's head stands where no row records it.
func (in *Intent) Unrecorded() bool { return !in.predecessors && in.unrecorded }

// Unanchored reports whether the store's head stands on a row whose caller
// is not written yet: the conversation row it stands for is not decided.
func (in *Intent) Unanchored(w WriterState) bool {
	return !in.predecessors && w.CallerPending(w.InMemoryHead())
}

// Keeps reports whether op, applied now to a writer in state w, leaves the
// intent in the data.
func (in *Intent) Keeps(op Op, w WriterState) bool {
	if in.predecessors {
		return true
	}
	switch op := op.(type) {
	case UserWeb, Merge:
		return !in.Stale(w)
	case UserDispatch:
		return op.Parent != "" || !w.Rewound(w.InMemoryHead())
	case Spawn:
		return !in.Stale(w) && !in.Unanchored(w)
	case Manual, Script, Run:
		return !in.unrecorded
	case LegacyUser:
		return !in.unrecorded || op.Parent != ""
	case Orphan:
		return !in.unrecorded || op.Caller != ""
	case Message:
		return !in.unrecorded || !op.Headless()
	case Compact:
		return !in.recorded
	}
	return true
}

// Track follows op, which Keeps judged before it was applied (kept) and which
// left the writer in state w.
func (in *Intent) Track(op Op, kept bool, w WriterState) {
	in.lost = in.lost || !kept
	in.recorded = in.recorded || in.predecessors
	switch op := op.(type) {
	case Flag:
		step, _ := op.Step()
		in.predecessors = step > 0
	case Writer:
		step, _ := op.Step()
		in.predecessors = step > 0
		took := op.Name != in.writer && (in.writer != "" || op.Name != FirstWriter)
		in.unrecorded = in.unrecorded || w.InMemoryHead() != in.head || took && w.Busy()
		in.writer = op.Name
	case Checkout:
		in.unrecorded = true
	case Retry:
		// A retry of a turn without an answer writes no row: it moves the
		// head back to the turn's user, as a checkout does.
		in.unrecorded = w.InMemoryHead() != op.ID
	case UserDispatch:
		in.unrecorded = in.unrecorded && op.Rooted // R's row records its parent and takes the head
	case ForkRoot:
		in.unrecorded = in.unrecorded && op.Rooted
	case UserWeb, Edit, Spawn, Merge, Compact, Reply, ErrorStandalone:
		in.unrecorded = false // the row records where the head stands
	}
	in.head = w.InMemoryHead()
}

// Holds reports whether every op so far kept the intent in the data.
func (in *Intent) Holds() bool { return !in.lost }

// IntentAt is the rule at the start of a script whose writers start with the
// flag set spelled set ("off", "A,B", "all").
func IntentAt(set string) *Intent {
	step, _ := Step(set)
	return &Intent{predecessors: step > 0}
}

// AppendState appends the rule's state to b: two rules with equal
// encodings judge every later op alike.
func (in *Intent) AppendState(b []byte) []byte {
	var x byte
	for i, bit := range []bool{in.predecessors, in.unrecorded, in.lost, in.recorded} {
		if bit {
			x |= 1 << i
		}
	}
	b = append(b, x)
	for _, s := range []string{in.head, in.writer} {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	return b
}
