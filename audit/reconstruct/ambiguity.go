package reconstruct

import (
	"fmt"
	"slices"

	"sessiondag/checker/harness"
	"sessiondag/model"
	"sessiondag/ops"
)

// Where another script explains the same rows. The browser ops a
// reconstruction infers are placed as late as the rows allow, and none is
// inferred where no row records it; the data does not say when the user
// did them. Where the place changes what an op meant — a web turn typed in a
// browser that did not show the server's head (ops.Intent, Stale), a row
// that records no parent (a manual run, a script row: it continues the
// server's head, which an unrecorded checkout may have moved), a dispatcher
// turn that inherited the parent it could have been given — the other
// reading is built: the same inference again with the op given before that
// row (a hint), so that the browser ops after it are inferred anew and the
// rows must come out the same. Each reading costs one linear rebuild; at
// most maxTries per session, so a session of any shape costs a bounded
// number.

// Kinds of points.
const (
	pointStale    = "stale"    // a web turn or command typed in a browser not on the server's head
	pointCheckout = "checkout" // a checkout the rows show, placed right before the row that records it
	pointInherit  = "inherit"  // a dispatcher turn that inherited the parent it could have been given
	pointNoParent = "noparent" // a row that records no parent: it continues the server's head
	pointOpen     = "open"     // the data does not hold the intent here (ops.Intent) and no reading is built
)

// maxTries bounds the other readings rebuilt per session.
const maxTries = 8

// point is a row whose op another script may write otherwise.
type point struct {
	kind string
	row  int    // the index of the row (the first the op writes)
	last int    // … and of the last
	at   int    // the index of its op in the script
	id   string // the browser's head it records (stale, checkout), the given parent (inherit), the row (noparent)
	// noConv: the server had made no conversation when the checkout was
	// placed (after a restart): a checkout makes none, so what put the
	// browser there before the turns between is a reload, not a checkout.
	noConv bool
}

// hint is what a rebuild does otherwise before the op of a row: ops first
// (a checkout), or the dispatcher parent given rather than inherited.
type hint struct {
	before []ops.Op
	given  bool
}

// reading is one other script for a point, as a hint.
type reading struct {
	row            int
	h              hint
	reason, change string
}

// alternatives rebuilds the other readings of each point and returns those
// whose intended view differs from view, whether every reading was
// rebuilt, and the points where none could be built.
func (b *builder) alternatives(view model.TargetView) (alts []Alternative, whole bool, open []string) {
	tries, whole := 0, true
	defer func() { b.rebuilt = tries }()
	path := onPath(b.t)
	touches := b.touches(path)
	for _, p := range b.points {
		if p.kind == pointOpen {
			open = append(open, fmt.Sprintf("op %d (%s): the data does not hold its intent (ops.Intent)", p.at+1, ops.Format(b.script[p.at])))
			continue
		}
		for _, rd := range b.readings(p, path) {
			if !touches(rd.row, p.last) {
				continue // no row whose intent it changes is on the path the view shows
			}
			if tries == maxTries {
				return alts, false, open
			}
			tries++
			alt := newBuilder(b.d)
			alt.hints, alt.quiet = map[int]hint{rd.row: rd.h}, true
			alt.run()
			if alt.first == nil {
				alt.judgeWrites(&Result{}, alt.compareWrites())
			}
			if alt.first != nil {
				continue // the reading does not write these rows
			}
			v := alt.t.View()
			if harness.SameView(v, view) || seen(alts, v) {
				continue
			}
			alts = append(alts, Alternative{At: p.at, Reason: rd.reason, Change: rd.change, View: v})
		}
	}
	return alts, whole, open
}

// readings are the other scripts of a point.
func (b *builder) readings(p point, path map[string]bool) []reading {
	op := ops.Format(b.script[p.at])
	switch p.kind {
	case pointInherit:
		return []reading{{row: p.row, h: hint{given: true}, reason: "a dispatcher turn that inherits records the parent it could have been given",
			change: fmt.Sprintf("op %d (%s) with parent=%s", p.at+1, op, p.id)}}
	case pointNoParent:
		if ip, ok := b.t.IntendedParent(p.id); !path[b.t.Anchor(p.id)] || !ok || ip == "" || !b.leg.Rooted() {
			return nil
		}
		co := ops.Checkout{ID: "ROOT"}
		return []reading{{row: p.row, h: hint{before: []ops.Op{co}}, reason: "a row that records no parent continues the server's head, which a checkout leaves no row of",
			change: fmt.Sprintf("%s before op %d (%s)", ops.Format(co), p.at+1, op)}}
	}
	co := ops.Checkout{ID: p.id}
	var out []reading
	if p.kind == pointStale {
		out = append(out, reading{row: p.row, h: hint{before: []ops.Op{co}},
			reason: "a web turn records the browser's head: the user may have meant it (a checkout) or the server's head",
			change: fmt.Sprintf("%s before op %d (%s)", ops.Format(co), p.at+1, op)})
	}
	for _, q := range b.window(p) {
		if p.noConv {
			out = append(out, reading{row: q, h: hint{before: []ops.Op{ops.Reload{}}},
				reason: "a reload leaves no row: the browser may have taken the server's head before the turns between",
				change: fmt.Sprintf("reload before the op of %s", b.d.Rows[q].File)})
			continue
		}
		out = append(out, reading{row: q, h: hint{before: []ops.Op{co}},
			reason: "a checkout leaves no row: it may have come before the turns between",
			change: fmt.Sprintf("%s before the op of %s", ops.Format(co), b.d.Rows[q].File)})
	}
	return out
}

// window lists the earlier rows before whose op a checkout of p.id writes
// the same browser head into the row p records: rows of ops that start
// from nothing in progress, after the row p.id and after the last op that
// moved the browser's head — the nearest and the earliest of them. Found in
// constant time from the indexes of marks().
func (b *builder) window(p point) []int {
	m := b.marks()
	from := max(m.lastCH[p.row], b.rowOf(p.id)+1) // the window is [from, p.row)
	if from >= p.row {
		return nil
	}
	nearest, earliest := m.prevIdle[p.row], m.nextIdle[from]
	switch {
	case nearest < from:
		return nil
	case nearest == earliest:
		return []int{nearest}
	}
	return []int{nearest, earliest}
}

// rowMarks index the rows for window: per row j, the row after the last
// one before j whose ops moved the browser's head (0 if none), the last
// idle row before j (-1 if none), and the first idle row from j on
// (len(rows) if none).
type rowMarks struct {
	lastCH, prevIdle, nextIdle []int
}

// marks builds the indexes once, in one pass each way.
func (b *builder) marks() *rowMarks {
	if b.rowMarks != nil {
		return b.rowMarks
	}
	n := len(b.d.Rows)
	m := &rowMarks{lastCH: make([]int, n+1), prevIdle: make([]int, n+1), nextIdle: make([]int, n+1)}
	m.prevIdle[0] = -1
	for j := 0; j < n; j++ {
		m.lastCH[j+1], m.prevIdle[j+1] = m.lastCH[j], m.prevIdle[j]
		if b.rowCH[j] {
			m.lastCH[j+1] = j + 1
		}
		if b.rowIdle[j] {
			m.prevIdle[j+1] = j
		}
	}
	m.nextIdle[n] = n
	for j := n - 1; j >= 0; j-- {
		m.nextIdle[j] = m.nextIdle[j+1]
		if b.rowIdle[j] {
			m.nextIdle[j] = j
		}
	}
	b.rowMarks = m
	return m
}

// touches reports whether a row from index q to k (both included; q may
// be the greater) stands
// for a conversation row on path, or is an attach pointer (spliced after
// whichever row it names: a reading may move it onto the path). A reading
// that changes the intent of those rows only cannot change the view.
//
// A rerun's intended parent is its turn's (IP(N) = IP(U)): the turn a rerun
// on the path reruns (forked_from), and the one that reruns, count as on
// it; reruns follow their turn, so one pass from the last row marks them.
func (b *builder) touches(path map[string]bool) func(q, k int) bool {
	rerun := map[string]bool{}
	for j := len(b.d.Rows) - 1; j >= 0; j-- {
		if r := b.d.Rows[j]; r.Err == nil && (path[b.t.Anchor(r.ID)] || rerun[r.ID]) && str(r.Meta, "forked_from") != "" {
			rerun[str(r.Meta, "forked_from")] = true
		}
	}
	count := make([]int, len(b.d.Rows)+1)
	for j, r := range b.d.Rows {
		count[j+1] = count[j]
		if r.Err == nil && (path[b.t.Anchor(r.ID)] || rerun[r.ID] || has(r.Meta, "attach")) {
			count[j+1]++
		}
	}
	return func(q, k int) bool {
		q, k = min(q, k), max(q, k)
		return count[min(k+1, len(b.d.Rows))] > count[max(q, 0)]
	}
}

// rowOf is the index of the row with this id (-1 if none).
func (b *builder) rowOf(id string) int {
	if at, ok := b.wroteAt[id]; ok {
		return b.rowAt[at]
	}
	return -1
}

// onPath is the set of conversation rows on the intended path from the
// persisted head to its root, rewound rows included (walks pass through
// them).
func onPath(t *model.TargetRun) map[string]bool {
	path := map[string]bool{}
	id := t.Anchor(str(t.Legacy().Meta(), "head_id"))
	for id != "" && !path[id] {
		path[id] = true
		ip, ok := t.IntendedParent(id)
		if !ok {
			break
		}
		id = ip
	}
	return path
}

func seen(alts []Alternative, v model.TargetView) bool {
	return slices.ContainsFunc(alts, func(a Alternative) bool { return harness.SameView(a.View, v) })
}
