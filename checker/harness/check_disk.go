package harness

import (
	"bytes"
	"fmt"

	"sessiondag/impl/flags"
	"sessiondag/impl/node"
	"sessiondag/impl/store"
)

// checkPersistence is P7: whatever the writers wrote, a cold load of the
// directory gives the same nodes (byte for byte, same order), the same head
// and the same views as the live session.
func checkPersistence(s *Session) *Finding {
	if s.Impl.W.S.Dir == "" {
		return nil
	}
	live := s.Store()
	cold, err := store.Open(s.Impl.W.S.Dir)
	switch {
	case err != nil:
		return s.finding("persistence", "cold load failed", err.Error())
	case len(cold.Problems) > 0:
		return s.finding("persistence", "cold load reported problems", fmt.Sprint(cold.Problems))
	}
	if d := nodesDiff(live, cold); d != "" {
		return s.finding("persistence", "cold nodes differ from the live ones", d)
	}
	if cold.Head() != live.Head() {
		return s.finding("persistence", "cold head differs", fmt.Sprintf("live %q, cold %q", live.Head(), cold.Head()))
	}
	for _, fl := range []flags.Set{flags.Off, flags.All} {
		if sec, d := ViewDiff(s.Views(fl), Views(cold, fl)); sec != "" {
			return s.finding("persistence", fmt.Sprintf("flags %s: cold view %s differs from the live one", fl, sec), d)
		}
	}
	return nil
}

func nodesDiff(a, b *store.Store) string {
	an, bn := a.Nodes(), b.Nodes()
	if len(an) != len(bn) {
		return fmt.Sprintf("%d nodes live, %d cold", len(an), len(bn))
	}
	for i := range an {
		if sameNode(an[i], bn[i]) {
			continue
		}
		if x, y := an[i].Encode(), bn[i].Encode(); !bytes.Equal(x, y) {
			return fmt.Sprintf("node %d:\nlive %s\ncold %s", i, x, y)
		}
	}
	return ""
}

// sameNode: the same fields with the same literals, which Encode writes as
// the same bytes.
func sameNode(a, b *node.Node) bool {
	return a.ID == b.ID && a.Seq == b.Seq && a.Role == b.Role && a.Name == b.Name && a.CalledBy == b.CalledBy &&
		sameImplValue(a.CreatedAt, b.CreatedAt) && sameImplValue(a.Input, b.Input) && sameImplValue(a.Output, b.Output) &&
		sameImplValue(a.Reads, b.Reads) && sameImplValue(node.ObjV(a.Metadata), node.ObjV(b.Metadata))
}
