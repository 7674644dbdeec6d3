package campaign

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sessiondag/checker/harness"
	"sessiondag/protocol"
)

// plantTwoClasses adds two planted checks for the test's duration: one
// fails once a session holds a say op's row (class "say"), the other once
// it holds a think op's (class "think").
func plantTwoClasses(t *testing.T) (say, think harness.Check) {
	t.Helper()
	holds := func(role string) func(s *harness.Session) *harness.Finding {
		return func(s *harness.Session) *harness.Finding {
			for _, op := range s.Script {
				if op.Kind() == role {
					return &harness.Finding{What: "a " + role + " op"}
				}
			}
			return nil
		}
	}
	say = harness.Check{Name: "planted-say", Prop: "test", Doc: "fails on a say", Data: harness.DataKinds[:1], Run: holds("say")}
	think = harness.Check{Name: "planted-think", Prop: "test", Doc: "fails on a think", Data: harness.DataKinds[:1], Run: holds("think")}
	saved := harness.Checks
	harness.Checks = append(append([]harness.Check(nil), harness.Checks...), say, think)
	t.Cleanup(func() { harness.Checks = saved })
	return say, think
}

// TestKnownAcceptsItsClassOnly: a known entry given as a reduced script
// accepts a finding of its class found on a longer script (reduced to the
// entry's own), and no other; the counts and the unmatched entries say
// what happened; an expired entry accepts nothing and says it would have.
func TestKnownAcceptsItsClassOnly(t *testing.T) {
	say, think := plantTwoClasses(t)
	dir := t.TempDir()
	long := script(t, "user id=u1 text=a\nreply\nsay text=hi\ndone\nuser id=u2 text=b\nreply\nthink text=hm\ndone")
	found := func(c harness.Check) (Case, *harness.Finding) {
		cs := Case{Check: c, Data: harness.DataKinds[0], Script: long}
		f, err := cs.Play("")
		require.NoError(t, err)
		require.NotNil(t, f, "the planted check %s did not fail", c.Name)
		return cs, f
	}
	// The entry's script: the say class, reduced.
	sc, sf := found(say)
	red := Reduce(sc, sf, "")
	entry := filepath.Join(dir, "say.ops")
	require.NoError(t, os.WriteFile(entry, []byte(File(red.Case, red.Finding, "TestKnown").String()), 0o644))
	file := filepath.Join(dir, "known.json")
	write := func(text string) *Known {
		require.NoError(t, os.WriteFile(file, []byte(text), 0o644))
		k, err := ReadKnown(file, time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC))
		require.NoError(t, err)
		return k
	}
	k := write(`{"known": [{"script": "say.ops", "reason": "say is planted"}, {"key": "00ff", "reason": "a class never met"}]}`)

	e, r := k.Accepts(sc, sf, "")
	require.NotNil(t, e, "a finding of the entry's class is accepted")
	require.NotNil(t, r, "found on a longer script, it was reduced to match")
	require.Equal(t, "say is planted", e.Reason)
	tc, tf := found(think)
	e, _ = k.Accepts(tc, tf, "")
	require.Nil(t, e, "another class is not accepted")
	e, r = k.Accepts(red.Case, red.Finding, "")
	require.NotNil(t, e)
	require.Nil(t, r, "the entry's own script needs no reduction")
	require.Equal(t, 2, k.Accepted())
	require.Equal(t, []string{"00ff"}, entryNames(k.Unmatched()))
	require.Contains(t, strings.Join(k.Lines(), "\n"), "known: say.ops accepted 2 findings: say is planted")

	k = write(`{"known": [{"script": "say.ops", "reason": "say is planted", "expires": "2026-12-04"}]}`)
	e, _ = k.Accepts(sc, sf, "")
	require.Nil(t, e, "an expired entry accepts nothing")
	require.Empty(t, k.Unmatched(), "an expired entry is not stale: it is expired")
	require.Contains(t, strings.Join(k.Lines(), "\n"), "expired on 2026-12-04: its 1 findings are reported")
}

// TestKnownKeyIgnoresTheCommand: a class is one key whichever command line
// started the implementation.
func TestKnownKeyIgnoresTheCommand(t *testing.T) {
	s := script(t, "user id=u1 text=a")
	c := Case{Check: harness.Checks[0], Data: harness.DataKinds[0], Script: s}
	require.Equal(t, ClassKey(c), ClassKey(Case{Check: c.Check, Data: c.Data, Script: s, Impl: fakeStarter{"python3 x.py"}}))
	require.NotEqual(t, Key(c), Key(Case{Check: c.Check, Data: c.Data, Script: s, Impl: fakeStarter{"python3 x.py"}}))
}

// TestReadKnownRefuses: a file that cannot be what a reviewer meant is an
// error naming the file, the entry and the field.
func TestReadKnownRefuses(t *testing.T) {
	dir := t.TempDir()
	for text, want := range map[string]string{
		`{"known": [{"key": "ab"}]}`:                                              `entry 1: field "reason": missing`,
		`{"known": [{"reason": "r"}]}`:                                            `entry 1: field "key": give the class's key or a script`,
		`{"known": [{"key": "ab", "script": "x.ops", "reason": "r"}]}`:            `entry 1: field "key"`,
		`{"known": [{"key": "ab", "reason": "r", "expires": "soon"}]}`:            `field "expires": "soon" is not a date`,
		`{"known": [{"script": "missing.ops", "reason": "r"}]}`:                   `entry 1: field "script"`,
		`{"known": [{"key": "ab", "reason": "r"}, {"key": "ab", "reason": "s"}]}`: `entry 2 is the class of entry 1 again`,
		`{"known": [{"key": "ab", "reason": "r", "sesion": "x"}]}`:                `unknown field "sesion"`,
		`{"known": []} {"known": []}`:                                             `data after the known object`,
		`{}`:                                                                      `no "known" list`,
	} {
		file := filepath.Join(dir, "k.json")
		require.NoError(t, os.WriteFile(file, []byte(text), 0o644))
		_, err := ReadKnown(file, time.Now())
		require.ErrorContains(t, err, want, text)
		require.ErrorContains(t, err, file, text)
	}
}

func entryNames(es []KnownEntry) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

// fakeStarter is a Starter that only says its command.
type fakeStarter struct{ command string }

func (f fakeStarter) About() protocol.About { return protocol.About{Command: f.command} }
func (f fakeStarter) Start(protocol.Start) (protocol.Impl, error) {
	panic("not started")
}
