package verdict

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestOf(t *testing.T) {
	require.Equal(t, Verdict{Outcome: Pass}, Of(nil, nil))
	require.Equal(t, Verdict{Undecided, []string{"a shard missing"}}, Of(nil, []string{"a shard missing"}))
	require.Equal(t, Verdict{Fail, []string{"2 regressions", "a shard missing"}}, Of([]string{"2 regressions"}, []string{"a shard missing"}))
}

// TestAnd: a fail of either part fails the whole, else one undecided part
// leaves it undecided; never a pass with a part that is not.
func TestAnd(t *testing.T) {
	p, f, u := PassBecause("p"), FailBecause("f"), UndecidedBecause("u")
	for _, c := range []struct {
		a, b Verdict
		want Verdict
	}{
		{p, p, Verdict{Pass, []string{"p", "p"}}},
		{p, u, Verdict{Undecided, []string{"u"}}},
		{u, p, Verdict{Undecided, []string{"u"}}},
		{p, f, Verdict{Fail, []string{"f"}}},
		{u, f, Verdict{Fail, []string{"f", "u"}}},
		{f, u, Verdict{Fail, []string{"f", "u"}}},
		{f, f, Verdict{Fail, []string{"f", "f"}}},
		{Verdict{}, p, Verdict{Undecided, nil}},
	} {
		require.Equal(t, c.want, c.a.And(c.b), "%v and %v", c.a, c.b)
	}
}

func TestExitAndLine(t *testing.T) {
	require.Equal(t, 0, PassBecause().Exit())
	require.Equal(t, 1, FailBecause("x").Exit())
	require.Equal(t, 3, UndecidedBecause("x").Exit())
	require.Equal(t, 3, Verdict{}.Exit(), "the zero verdict is no pass")
	require.Equal(t, "verdict: PASS", PassBecause().Line())
	require.Equal(t, "verdict: FAIL: 2 regressions; 1 broken", FailBecause("2 regressions", "1 broken").Line())
	require.Equal(t, "verdict: UNDECIDED: nothing applicable", UndecidedBecause("nothing applicable").Line())
}

func TestJSON(t *testing.T) {
	b, err := json.Marshal(FailBecause("x"))
	require.NoError(t, err)
	require.JSONEq(t, `{"outcome":"fail","reasons":["x"]}`, string(b))
	var v Verdict
	require.NoError(t, json.Unmarshal([]byte(`{"outcome":"undecided","reasons":["y"]}`), &v))
	require.Equal(t, UndecidedBecause("y"), v)
	require.ErrorContains(t, json.Unmarshal([]byte(`{"outcome":"maybe"}`), &v), `verdict "maybe"`)
}
