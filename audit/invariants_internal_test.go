package audit

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/checker/harness"
	"sessiondag/impl/adapter"
	"sessiondag/impl/flags"
	"sessiondag/impl/node"
	"sessiondag/impl/store"
	"sessiondag/impl/webui"
)

// The invariants hold on what the original's own writers stored — here an
// adapter-written session whose assistants carry tool_calls and blocks of
// their own and fold tool rows too — and each still catches a load broken
// on purpose: a row shown twice, a user row the card pass dropped, an
// assistant's own calls lost, its own blocks lost, a tool row kept and
// folded at once.
func TestInvariantsCatchBrokenLoads(t *testing.T) {
	st, err := store.Open(filepath.Join("..", "corpus", "realwriter", "sessions", "adapter_1_0"))
	require.NoError(t, err)
	require.Empty(t, st.Problems)
	agg := harness.NewAggregationCheck()
	for _, fl := range flags.Rollout {
		require.Empty(t, invariants(webui.Load(st, fl), agg), "flags %s", fl)
	}
	user := func(l *webui.Loaded) int {
		return slices.IndexFunc(l.Chain, func(m *adapter.Message) bool { return m.Role == "user" })
	}
	own := func(l *webui.Loaded) int { // an assistant with calls of its own and folded ones
		return slices.IndexFunc(l.All, func(m *adapter.Message) bool { return m.ID == "42eba410_a" })
	}
	broken := []struct {
		name, want string
		breakIt    func(l *webui.Loaded)
	}{
		{"row twice", "appears twice", func(l *webui.Loaded) { l.Chain = append(l.Chain, l.Chain[0]) }},
		{"user dropped by the cards", "dropped user row", func(l *webui.Loaded) {
			l.Chain = slices.Delete(slices.Clone(l.Chain), user(l), user(l)+1)
		}},
		{"folded calls lost", "folded", func(l *webui.Loaded) {
			a := l.All[own(l)].Copy()
			a.F.Delete("tool_calls")
			l.All = slices.Clone(l.All)
			l.All[own(l)] = a
		}},
		{"own blocks lost", "blocks", func(l *webui.Loaded) {
			a := l.All[own(l)].Copy()
			a.Set("blocks", node.Arr(nil))
			l.All = slices.Clone(l.All)
			l.All[own(l)] = a
		}},
		{"a folded row kept too", "kept", func(l *webui.Loaded) {
			tool := slices.IndexFunc(l.Messages, func(m *adapter.Message) bool { return m.ID == "42eba410_a_t_0" })
			l.All = slices.Insert(slices.Clone(l.All), own(l)+1, l.Messages[tool])
		}},
	}
	for _, b := range broken {
		l := webui.Load(st, flags.Off)
		require.GreaterOrEqual(t, user(l), 0)
		require.GreaterOrEqual(t, own(l), 0)
		b.breakIt(l)
		v := invariants(l, agg)
		require.NotEmpty(t, v, "%s: not caught", b.name)
		require.True(t, strings.Contains(strings.Join(v, "\n"), b.want), "%s: %v", b.name, v)
	}
}
