package harness

import (
	"bytes"
	"fmt"

	"sessiondag/protocol"

	"sessiondag/impl/flags"
	"sessiondag/impl/node"
	"sessiondag/impl/store"
	"sessiondag/impl/webui"
)

// checkPersistence is P7: whatever the writers wrote, a cold load of the
// directory gives the same nodes (byte for byte, same order), the same head
// and the same views as the live session. Across the protocol, where the
// nodes are the implementation's own, the session is restarted and every
// view must be what it was (checkRestart).
func checkPersistence(s *Session) *Finding {
	if s.Run() == nil {
		return checkRestart(s)
	}
	if s.Run().W.S.Dir == "" {
		return nil
	}
	live := s.Store()
	cold, err := store.Open(s.Run().W.S.Dir)
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

// checkRestart is P7 across the protocol: the views before a restart, under
// the configs the implementation loads under of off and all (its one config
// when it claims the target), are the views after it.
func checkRestart(s *Session) *Finding {
	var configs []flags.Set
	for _, fl := range []flags.Set{flags.Off, flags.All} {
		if c, err := s.about.Config(fl); err == nil && (len(configs) == 0 || c != protocol.ConfigTarget) {
			configs = append(configs, fl)
		}
	}
	before := make([]webui.View, len(configs))
	for i, fl := range configs {
		before[i] = s.Views(fl)
	}
	if s.broken != nil || !s.Restart() {
		return nil // Step reports the implementation's failure
	}
	for i, fl := range configs {
		if sec, d := ViewDiff(before[i], s.Views(fl)); sec != "" {
			return s.finding("persistence", fmt.Sprintf("flags %s: view %s after a restart differs from the one before (-before +after)", fl, sec), d)
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
