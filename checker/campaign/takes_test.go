package campaign

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/checker/harness"
	"sessiondag/ops"
	"sessiondag/protocol"
)

// fourKinds is an implementation of four op kinds and the tool, which
// cannot write web turns with a form nor legacy tool edges.
var fourKinds = protocol.About{Name: "four", Claim: protocol.ClaimLegacy, Ops: []string{"user", "reply", "say", "done", "tool"},
	Configs: []string{"off"}, Without: []string{"user-form", "tool-legacy"}}

// TestTakes: a script is given to an implementation only when it writes
// every op kind of it and no variant it holds is one the implementation
// declares without; otherwise the error is not-applicable and says what
// the script needs.
func TestTakes(t *testing.T) {
	cases := []struct{ script, needs string }{
		{"user id=u1 text=a\nreply\nsay text=b\ndone", ""},
		{"user id=u1 text=a\nreply\ntool call=c1 name=bash args=\"{}\" result=ok object\ndone", ""},
		{"user id=u1 text=a form=image\nreply\ndone", "needs user-form: four declares it writes no user-form (without)"},
		{"user id=u1 text=a\nreply\ntool call=c1 name=bash args=\"{}\" result=ok legacy\ndone", "needs tool-legacy: four declares it writes no tool-legacy (without)"},
		{"dispatch id=d1 text=a\nreply\nthink text=t\ndone\nuser id=u1 text=a form=function",
			"needs dispatch, think, user-form: four writes no dispatch or think ops; four declares it writes no user-form (without)"},
	}
	for _, c := range cases {
		err := Takes(fourKinds, script(t, c.script))
		if c.needs == "" {
			require.NoError(t, err, c.script)
			continue
		}
		require.True(t, errors.Is(err, harness.ErrNotApplicable), "%q: %v", c.script, err)
		require.Equal(t, c.needs, harness.Why(err), c.script)
	}
}

// refusing is a starter that fails the test when a session starts: a
// replay of a script the implementation does not take must start none.
type refusing struct {
	t *testing.T
	a protocol.About
}

func (r refusing) About() protocol.About { return r.a }
func (r refusing) Start(protocol.Start) (protocol.Impl, error) {
	r.t.Fatal("a session was started for a script the implementation does not take")
	return nil, nil
}

// TestReplayOfAVariantDeclaredWithout: a corpus script holding a variant
// the implementation declares it cannot write is not applicable to it (it
// was a validity finding once: the implementation refused the op, as the
// protocol tells it to).
func TestReplayOfAVariantDeclaredWithout(t *testing.T) {
	f := &ops.File{Ops: script(t, "session id=s\nuser id=u1 text=a form=function\nreply\nsay text=b\ndone")}
	_, err := Replay(f, ReplayOptions{Impl: refusing{t, fourKinds}})
	require.True(t, errors.Is(err, harness.ErrNotApplicable), "%v", err)
	require.Contains(t, err.Error(), "needs user-form")
}

// TestReplayNothingApplicableSaysWhatItNeeds: a script the implementation
// writes, but that no check or kind of data of its plan can judge on it (a
// check that needs the implementation in-process, data written with the
// flags on for a legacy one), is not applicable and says what it needs, in
// the words of "not run: needs …" — what replay prints before it exits 3.
func TestReplayNothingApplicableSaysWhatItNeeds(t *testing.T) {
	body := "session id=s\nuser id=u1 text=a\nreply\nsay text=b\ndone"
	for _, c := range []struct{ check, needs string }{
		{"#! check name=cold data=off-any\n", "needs the implementation in-process: check cold reads the implementation's internals"},
		{"#! check name=target data=flags-on\n", "needs data written with the flags on: four claims the legacy"},
	} {
		f, err := ops.ParseFile(strings.NewReader(c.check+body), "t.ops")
		require.NoError(t, err)
		_, err = Replay(f, ReplayOptions{Impl: refusing{t, fourKinds}})
		require.True(t, errors.Is(err, harness.ErrNotApplicable), "%v", err)
		require.True(t, strings.HasPrefix(harness.Why(err), c.needs), "%s: %v", c.check, err)
	}
}

// TestReductionKeepsToWhatTheImplementationTakes: a case against an
// implementation is played only when the implementation takes its script,
// so a reduction never keeps a candidate holding a variant it declares
// without (exhaust through HEAD's adapter saved `legacy-user id=n1
// parent=n2; orphan id=n2`, a parent named before it is written, which the
// adapter declares it cannot write: its replay was undecided).
func TestReductionKeepsToWhatTheImplementationTakes(t *testing.T) {
	a := protocol.About{Name: "minting", Claim: protocol.ClaimLegacy, Ops: []string{"legacy-user", "orphan"},
		Configs: []string{"off"}, Without: []string{"later"}}
	c := Case{Check: harness.Validity, Data: harness.Data{Name: "off-any"}, Impl: refusing{t, a},
		Script: script(t, "legacy-user id=n1 text=a parent=n2\norphan id=n2 name=probe")}
	_, err := c.Play(t.TempDir())
	require.True(t, errors.Is(err, harness.ErrNotApplicable), "%v", err)
	require.Contains(t, err.Error(), "needs later")
	require.False(t, c.Fails(t.TempDir()), "a candidate the implementation does not take fails nothing")
}
