package audit

import (
	"sessiondag/impl/lane"
	"sessiondag/impl/node"
	"sessiondag/impl/store"
)

// anchors is lane.Anchor with a memory: the conversation row each row
// climbs to over called_by. Every row on one climb shares its answer, so
// a session's rows are climbed once in all, where asking lane.Anchor for
// each removed row of a deep nest of calls (or a called_by cycle) climbs
// the same rows again for each: quadratic in the depth.
type anchors struct {
	st *store.Store
	of map[string]string
}

// climbing marks the rows of the climb under way: meeting one again is a
// called_by cycle with no conversation row on it.
const climbing = "\x00"

func newAnchors(st *store.Store) *anchors {
	return &anchors{st: st, of: map[string]string{}}
}

// at is lane.Anchor(id, st.Get).
func (a *anchors) at(id string) string {
	var path []string
	res := node.RootID
	for id != "" && id != node.RootID {
		if r, ok := a.of[id]; ok {
			if r != climbing {
				res = r
			}
			break
		}
		n, ok := a.st.Get(id)
		if !ok {
			break
		}
		if lane.IsConv(n, a.st.Get) {
			res = n.ID
			a.of[id] = res
			break
		}
		path = append(path, id)
		a.of[id] = climbing
		next := n.CalledBy
		if next == "" {
			next = n.Metadata.Get("called_by").Str()
		}
		id = next
	}
	for _, p := range path {
		a.of[p] = res
	}
	return res
}
