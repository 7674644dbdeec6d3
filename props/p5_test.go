package props

import (
	"fmt"
	"sessiondag/harness"
	"testing"

	"pgregory.net/rapid"

	"sessiondag/gen"
	"sessiondag/impl/flags"
	"sessiondag/impl/webui"
)

// TestP5NoDroppedUsers: rebuilding runtime cards never removes a user row
// from the chain, under every config of the rollout path (legacy §5.2).
func TestP5NoDroppedUsers(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := newImplSession(t, "TestP5NoDroppedUsers", "", gen.Options{Legacy: true}, flags.Off)
		t.Repeat(map[string]func(*rapid.T){"op": s.step, "": func(t *rapid.T) {
			st := s.run.W.S.AtPersistedHead()
			for _, fl := range flags.Rollout {
				l := webui.Load(st, fl)
				after := map[string]bool{}
				for _, m := range l.Chain {
					after[m.ID] = true
				}
				for _, m := range l.BeforeCards {
					if m.Role == "user" && !after[m.ID] {
						report(t, s.name, s.script, fmt.Sprintf("flags %s: the card pass dropped user row %s", fl, m.ID),
							fmt.Sprintf("chain before cards: %v\nchain after: %v", harness.IDs(l.BeforeCards), harness.IDs(l.Chain)))
					}
				}
			}
		}})
	})
}
