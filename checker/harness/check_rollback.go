package harness

import (
	"slices"

	"sessiondag/impl/adapter"
	"sessiondag/impl/flags"
	"sessiondag/impl/node"
	"sessiondag/impl/webui"
)

// RolloutKeys are the metadata keys the writers add under flag A
// (docs/rollout.md §2): a lane row's predecessor and a clean sub-agent
// root's mark. R lays every metadata key over its message (legacy §2.3), so
// R itself shows them on such rows; they are the only thing a writer on a
// later step writes that a writer with the flags off does not.
var RolloutKeys = []string{"predecessor", "spawn_root"}

// checkRollback is the rollback property: whatever steps the writers ran
// (rolled back, several writers on different steps), the readers with the
// flags off show what the original shows for the same ops written with the
// flags off (model.Legacy), in every view, except the RolloutKeys on the
// rows written under A: a rollback never shows a user less than the
// original did. Data written with the flags off throughout is P1's.
func checkRollback(s *Session) *Finding {
	if s.LegacyWrites() {
		return nil
	}
	got := WithoutRolloutKeys(s.Views(flags.Off))
	if sec, d := ViewDiff(s.Shown(s.LegacyView()), got); sec != "" {
		return s.finding("rollback", "flags off on data written on later steps differs from the original's view of the same ops in view "+sec, d)
	}
	return nil
}

// WithoutRolloutKeys is v with the RolloutKeys taken out of every message
// (the messages that have none are v's own).
func WithoutRolloutKeys(v webui.View) webui.View {
	done := map[*adapter.Message]*adapter.Message{}
	strip := func(list []*adapter.Message) []*adapter.Message {
		out := list
		for i, m := range list {
			c, ok := done[m]
			if !ok {
				c = m
				if slices.ContainsFunc(m.F.M, isRolloutKey) {
					f := &node.Obj{M: slices.DeleteFunc(slices.Clone(m.F.M), isRolloutKey)}
					c = adapter.New(f)
				}
				done[m] = c
			}
			if c != m {
				if &out[0] == &list[0] {
					out = slices.Clone(list)
				}
				out[i] = c
			}
		}
		return out
	}
	v.Messages, v.All, v.Chain, v.Branch = strip(v.Messages), strip(v.All), strip(v.Chain), strip(v.Branch)
	return v
}

func isRolloutKey(m node.Member) bool { return slices.Contains(RolloutKeys, m.Key) }
