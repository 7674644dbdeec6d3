package gen

// Rewinds of rows whose state a load keeps between loads: the update
// replaces a node that columns, a folded copy, an attach splice or a card
// tree was built from, and the load must notice.

// The kinds of cached rows, rarest first.
const (
	cachedRun    = iota // a function run whose card tree holds internals
	cachedAttach        // an attach row spliced after its anchor
	cachedCaller        // a reply holding folded rows
	cachedCall          // a row folded into its reply
	cachedKinds
)

// cachedShapes names the shape a rewind of each kind completes.
var cachedShapes = [cachedKinds]string{ShapeRewindRun, ShapeRewindAttach, ShapeRewindCaller, ShapeRewindCall}

// cachedLists are the rows of each kind, in creation order.
func (s *shadow) cachedLists() [cachedKinds][]string {
	return [cachedKinds][]string{s.runs, s.attaches, s.callers, s.calls}
}

// cachedKindsOf reports the kinds row id is.
func (s *shadow) cachedKindsOf(id string) [cachedKinds]bool {
	return [cachedKinds]bool{s.kids[id] > 0, s.attach[id], s.toolsOf[id] > 0, s.callOf[id]}
}

// cachedWeight is the weight of a rewind of a cached row: high while some
// kind present in the session has not been rewound yet, so that each kind
// is reached, low once all have; 0 when there is none. rare reports that
// the kind not rewound yet is one few sessions hold (a run with internals,
// an attach row).
func (s *shadow) cachedWeight() (w int, rare bool) {
	for k, l := range s.cachedLists() {
		switch {
		case len(l) == 0:
		case !s.rewoundKind[k]:
			return 10, k < cachedCaller
		default:
			w = 1
		}
	}
	return w, false
}

// cachedTarget picks the row: of the first kind present not rewound yet,
// else of a kind drawn among those present; the row drawn in its kind.
func (s *shadow) cachedTarget(src Source) string {
	var present [][]string
	for k, l := range s.cachedLists() {
		if len(l) > 0 && !s.rewoundKind[k] {
			return l[src.IntN(len(l), "rewind row")]
		}
		if len(l) > 0 {
			present = append(present, l)
		}
	}
	l := present[src.IntN(len(present), "rewind kind")]
	return l[src.IntN(len(l), "rewind row")]
}
