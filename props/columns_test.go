package props

import (
	"encoding/json"
	"fmt"

	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"sessiondag/gen"
	"sessiondag/impl/adapter"
	"sessiondag/impl/flags"
	"sessiondag/impl/lane"
	"sessiondag/impl/webui"
)

// TestColumnsAgree: the load's position-based machinery — per-session
// columns extended as nodes are appended, folded assistants kept per node,
// flag A's predecessors cached and extended — shows exactly what the load
// through maps keyed by id shows (webui.LoadByMaps, which keeps nothing
// between loads), at every rollout step, after every op. The session is
// loaded between ops, so each load runs over what the earlier ones kept;
// updates (finished runs, rewinds) and flag flips are among the ops.
func TestColumnsAgree(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := newImplSession(t, "TestColumnsAgree", "", gen.Options{Legacy: true, FlagFlips: true}, flags.Off)
		t.Repeat(map[string]func(*rapid.T){"op": s.step, "": func(t *rapid.T) {
			st := s.run.W.S
			for _, fl := range flags.Rollout {
				want, got := loadedRows(webui.LoadByMaps(st, fl)), loadedRows(webui.Load(st, fl))
				if d := cmp.Diff(want, got); d != "" {
					report(t, s.name, s.script, fmt.Sprintf("flags %s: the load by position differs from the load by maps", fl), d)
				}
			}
			fresh, cached := lane.NewPreds(st), lane.PredsOf(st)
			for _, n := range st.Nodes() {
				wp, wok := fresh.Of(n.ID)
				gp, gok := cached.Of(n.ID)
				if wp != gp || wok != gok {
					report(t, s.name, s.script, "the cached predecessors differ from a fresh derivation",
						fmt.Sprintf("node %s: fresh (%q, %v), cached (%q, %v)", n.ID, wp, wok, gp, gok))
				}
			}
		}})
	})
}

// loadedRows renders every list of a load, a row per line, for a diff.
func loadedRows(l *webui.Loaded) []string {
	out := []string{fmt.Sprintf("head %q (stored %q), fallback %v", l.HeadID, l.StoredHead, l.FallbackUsed)}
	for _, list := range []struct {
		name string
		rows []*adapter.Message
	}{{"messages", l.Messages}, {"all", l.All}, {"linear", l.Linear}, {"before cards", l.BeforeCards}, {"chain", l.Chain}} {
		out = append(out, fmt.Sprintf("%s: %d rows", list.name, len(list.rows)))
		for _, m := range list.rows {
			b, err := json.Marshal(m)
			if err != nil {
				b = []byte(err.Error())
			}
			out = append(out, string(b))
		}
	}
	return out
}
