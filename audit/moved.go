package audit

import (
	"sessiondag/impl/flags"
	"sessiondag/impl/webui"
)

// movedToBranch splits the user messages a step hides into those it moved
// and those it hid. A message is moved when R showed it only because its
// get_branch fallback glued an earlier root on (rule 3, legacy §3.2: it is
// not on R's own linear_history walk) and the new config shows it on the
// branch it continues, where the user can go: the sibling arrows of the new
// chain reach it, and the load at the head they give for that branch (the
// deepest leaf below the last such message) shows it. The original's own
// writers store this shape: a script run in a session context (caller-less
// roots, which only rule 3 chains) followed by a dispatcher turn forking at
// the root, whose history the dispatcher starts empty; R glues the script
// onto the fork, B shows the fork alone and the script on the branch it ran
// on (docs/rollout.md §5, "Moved, not hidden"). One load at one head: the
// check stays linear in the session.
func movedToBranch(hidden []Row, a *webui.Loaded, to flags.Set, b *webui.Loaded, at func(head string) *webui.Loaded) (kept, moved []Row, head string) {
	if !a.FallbackUsed || at == nil || len(hidden) == 0 {
		return hidden, nil, ""
	}
	onLinear := make(map[string]bool, len(a.Linear))
	for _, m := range a.Linear {
		onLinear[m.ID] = true
	}
	var glued []Row
	for _, r := range hidden {
		if !onLinear[r.ID] {
			glued = append(glued, r)
		}
	}
	if len(glued) == 0 {
		return hidden, nil, ""
	}
	arrows := webui.Arrows(to, b.All)
	reachable := arrows.ReachableFrom(b.Chain)
	head = arrows.DeepestLeaf(glued[len(glued)-1].ID)
	there := at(head)
	shown := make(map[string]bool, len(there.Chain))
	for _, m := range there.Chain {
		shown[m.ID] = true
	}
	for _, r := range hidden {
		if !onLinear[r.ID] && shown[r.ID] && reachable(r.ID) {
			moved = append(moved, r)
		} else {
			kept = append(kept, r)
		}
	}
	return kept, moved, head
}
