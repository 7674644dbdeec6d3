package props

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"sessiondag/protocol"

	"github.com/stretchr/testify/require"

	"sessiondag/checker/campaign"
	"sessiondag/checker/gen"
	"sessiondag/checker/harness"
	"sessiondag/impl/flags"
	"sessiondag/ops"
)

// complete is the "chain is complete" property as a harness check: under
// flags fl the loaded chain misses no row of the intended conversation.
func complete(fl flags.Set) harness.Check {
	claims := []protocol.Claim{protocol.ClaimRollout}
	if fl == flags.Off {
		claims = append(claims, protocol.ClaimLegacy)
	}
	return harness.Check{Name: "complete", Prop: "P4", Doc: "the chain under " + fl.String() + " misses no intended row",
		Needs: harness.Needs{Claims: claims, Configs: []flags.Set{fl}},
		Data:  []harness.Data{harness.OffAny, harness.WrittenOff}, Run: func(s *harness.Session) *harness.Finding {
			if g := harness.ViewGap(harness.Projected(s.Load(fl)), s.Intended()); g.Missing > 0 {
				return &harness.Finding{What: fmt.Sprintf("flags %s: %s", fl, g)}
			}
			return nil
		}}
}

// incomplete reports whether a script loses history under fl at some op,
// on the implementation impl (nil: the one in this repository, in-process).
func incomplete(impl protocol.Starter, fl flags.Set) func([]ops.Op) bool {
	return func(script []ops.Op) bool {
		f, err := harness.PlayOn(impl, harness.WrittenOff, script, complete(fl))
		return err == nil && f != nil
	}
}

// A cutoffSearch is one subtest of TestKnownLegacyCutoff: the cut-off it
// looks for and the draw kinds it cannot be reached without.
type cutoffSearch struct {
	name   string
	manual bool
	needs  []string
	shows  []string // what the reduced script must hold, and why
	// accept says whether a reduced script is this cut-off and not
	// another one the draw also reaches.
	accept func([]ops.Op) bool
}

var cutoffSearches = []cutoffSearch{
	{name: "two ROOT-parented users", needs: []string{"user", "reply", "done", "dispatch"},
		shows: []string{"dispatch", "a dispatcher turn the browser never saw…", "user ", "…then a web turn with no parent: two ROOT-parented users"},
		// The web server makes its conversation of a session from the
		// store's head when a web op first needs it: it has none when that
		// op was a run from the fn-form route before anything was stored.
		// A web turn typed in a browser that shows an older turn (a stale
		// client head) is another cut-off, which A,B do not load whole.
		accept: func(s []ops.Op) bool {
			text := ops.String(s)
			return len(s) <= 6 && strings.Contains(text, "dispatch") && strings.Contains(text, "user ") &&
				!incomplete(nil, flags.A|flags.B)(s)
		}},
	{name: "manual function after chat", manual: true, needs: []string{"user", "reply", "done", "manual", "end"},
		shows: []string{"manual", "a manual run"}, accept: func([]ops.Op) bool { return true }},
}

// lacks is what the search needs of an implementation that a declares
// but does not: the draw kinds without which no script shows the cut-off.
func (s cutoffSearch) lacks(a protocol.About) []string {
	can := gen.Writable(a.Ops, a.Without)
	if a.InProcess {
		return nil
	}
	var out []string
	for _, k := range s.needs {
		if !can(k) {
			out = append(out, k)
		}
	}
	return out
}

// turnsOnly draws plain chat sessions: web and dispatcher turns, replies,
// manual function runs, and (when manual is set) reloads and a run's
// internal calls instead of dispatcher turns. Without manual there are no
// reloads: a load in the middle of a dispatcher turn makes the web server's
// conversation at its user row (ops/README.md, "conversation"), a stale
// client head the search must not stop at either. With manual runs the browser reloads before a web turn
// when a run moved the head (gen.Options.SyncedBrowser): a web turn typed
// in a stale browser after a second run records the first one as its
// parent, which no flag can read as meant (model/README.md, "Legacy
// derivation"), and the search must not stop at that shape. Against
// another implementation the draw keeps to what it writes, and the script
// is cut before an op it does not take.
func turnsOnly(seed uint64, manual bool) []ops.Op {
	kinds := []string{"user", "reply", "done", "dispatch", "manual", "end", "say"}
	if manual {
		kinds = []string{"user", "reply", "done", "reload", "manual", "end", "exec", "say"}
	}
	script := gen.New(drawnFor(gen.Options{Only: kinds, SyncedBrowser: manual})).Script(gen.NewSeeded(seed), 30)
	if underTest == nil {
		return script
	}
	return campaign.Taken(about(), script)
}

// find draws sessions from random seeds until one violates completeness
// under flags off and reduces to a script accept takes, and returns that.
// The search runs on the implementation in this repository, in-process:
// against another, the reduced script is then played on it
// (TestKnownLegacyCutoff).
func find(t *testing.T, manual bool, accept func([]ops.Op) bool) []ops.Op {
	t.Helper()
	fails := incomplete(nil, flags.Off)
	start := startSeed(t)
	for seed := start; seed < start+20000; seed++ {
		script := turnsOnly(seed, manual)
		if script == nil || !fails(script) {
			continue
		}
		t.Logf("seed %d: a %d-op session loses history", seed, len(script))
		// The reduction stays in the kind of data the search draws: with
		// manual runs, data whose intent is in the data.
		c := campaign.Case{Check: complete(flags.Off), Data: harness.OffAny, Script: script}
		if manual {
			c.Data = harness.WrittenOff
		}
		f, err := c.Play(scratch())
		require.NoError(t, err)
		require.NotNil(t, f)
		reduced := campaign.Reduce(c, f, scratch()).Case.Script
		if accept(reduced) {
			return reduced
		}
		t.Logf("seed %d: reduced to another cut-off:\n%s", seed, ops.String(reduced))
	}
	t.Fatal("no generated session showed the cut-off")
	return nil
}

// TestKnownLegacyCutoff: the original (flags off) cuts history off in the
// design note's case — two ROOT-parented users — and after a manual function
// run (legacy §5.1 L3/L4). The harness finds each from random sessions with
// the "chain is complete" property and reduces it to at most 6 ops; with A
// and B on the same scripts load whole.
//
// Against another implementation: when it claims the legacy or the
// rollout and writes the kinds a cut-off needs (else the search is not
// run, saying which it needs), the search runs in-process on the kinds it
// writes, and the reduced script must lose history on it too; A,B load the
// script whole when it loads under A,B.
func TestKnownLegacyCutoff(t *testing.T) {
	t.Parallel()
	fixed := flags.A | flags.B
	judges(t, []harness.Check{complete(flags.Off)}, harness.WrittenOff)
	loadsWhole := func(t *testing.T, script []ops.Op) {
		if err := complete(fixed).Applies(about()); err != nil {
			t.Logf("not run: %v", err)
			return
		}
		require.False(t, incomplete(underTest, fixed)(script), "flags A,B must load it whole")
	}
	for _, s := range cutoffSearches {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			track(t)
			if lacks := s.lacks(about()); len(lacks) > 0 {
				notRun(t, strings.Join(lacks, ", "), fmt.Errorf("%w: no script without them shows the cut-off; %s writes [%s]",
					harness.ErrNotApplicable, about().Name, strings.Join(about().Ops, " ")))
			}
			draw := budget.begin(t)
			script := find(t, s.manual, s.accept)
			text := ops.String(script)
			t.Logf("reduced:\n%s", text)
			require.LessOrEqual(t, len(script), 6)
			for i := 0; i < len(s.shows); i += 2 {
				require.Contains(t, text, s.shows[i], s.shows[i+1])
			}
			if underTest != nil {
				if !draw.more() {
					undecided(t, fmt.Sprintf("the share ran out before the reduced script was played (%s)", draw))
				}
				require.True(t, incomplete(underTest, flags.Off)(script), "%s must lose history on it, as the original does", about().Name)
			}
			loadsWhole(t, script)
		})
	}
}

// startSeed is where the search starts: SESSIONDAG_SEED when set, else a
// random seed. It is logged so a run can be replayed.
func startSeed(t *testing.T) uint64 {
	if v := os.Getenv("SESSIONDAG_SEED"); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		require.NoError(t, err, "SESSIONDAG_SEED")
		return n
	}
	n := rand.Uint64() >> 1
	t.Logf("search starts at seed %d (replay with SESSIONDAG_SEED=%d)", n, n)
	return n
}
