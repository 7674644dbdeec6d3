package robust

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"sessiondag/audit"
	"sessiondag/checker/driver"
	"sessiondag/checker/gen"
	"sessiondag/impl/flags"
	"sessiondag/impl/store"
	"sessiondag/impl/webui"
	"sessiondag/ops"
)

// liveOps is the length of the script the writer of TestLiveStore plays:
// SESSIONDAG_LIVE_OPS overrides it for a longer run.
func liveOps() int {
	if n, err := strconv.Atoi(os.Getenv("SESSIONDAG_LIVE_OPS")); err == nil && n > 0 {
		return n
	}
	if testing.Short() {
		return 40
	}
	return 80
}

// TestLiveStore reads a session while the web UI's writers write it, the
// way the original writes (each node file and meta.json written to a
// temporary file and renamed into place, the head rewritten as turns go):
// cold loads and audits run in a loop beside the writer. Each time the
// writer renames a file into place it stops and the directory is loaded and
// audited as it stands, a state it left; at the end every view a concurrent
// load showed and every report a concurrent audit gave must be one of those
// states' (no view of a mix), and no load may find a problem and no audit
// fail where the state does not (no false failure). A read that says the
// session kept changing is neither; it is counted and logged. (Without its
// op script, the audit of some states a turn passes through flags a step as
// hiding a user's message: such a state fails quiet or live alike.)
func TestLiveStore(t *testing.T) {
	seed := uint64(20261201)
	// Written with the flags on.
	script := gen.New(gen.Options{Legacy: true, StartStep: len(ops.RolloutPath) - 1}).Script(gen.NewSeeded(seed), liveOps())
	dir := t.TempDir() + "/" + "local_0000000000"

	var mu sync.Mutex
	states := map[string]bool{}   // the views of the states the writer left
	verdicts := map[string]bool{} // the audits of those states
	var stateCount int
	var setupErr error
	record := func() {
		s, err := store.Open(dir)
		if err != nil {
			setupErr = fmt.Errorf("state %d: %v", stateCount, err)
			return
		}
		fp := fingerprint(s)
		if len(s.Problems) > 0 || s.Unsettled() {
			setupErr = fmt.Errorf("state %d of a quiet directory: problems %v", stateCount, s.Problems)
		}
		verdict := auditKey(audit.One(dir))
		mu.Lock()
		states[fp] = true
		verdicts[verdict] = true
		stateCount++
		mu.Unlock()
	}
	wo := store.WriteOptions{NoSync: true, CrashAfter: func(step string) error {
		if step == "rename" {
			record()
			// The UI writes at the pace of a conversation; a rename
			// now and then without a pause keeps writes back to back.
			if stateCount%3 != 0 {
				time.Sleep(time.Millisecond)
			}
		}
		return nil
	}}
	run, err := driver.StartWith(script[0], dir, flags.All, wo)
	if err != nil {
		t.Fatal(err)
	}

	var done atomic.Bool
	var wg sync.WaitGroup
	var loads, audits, changing atomic.Int64
	var failMu sync.Mutex
	var failures []string
	fail := func(format string, args ...any) {
		failMu.Lock()
		defer failMu.Unlock()
		if len(failures) < 10 {
			failures = append(failures, fmt.Sprintf(format, args...))
		}
	}
	var seenMu sync.Mutex
	seen := map[string]int{}
	wg.Go(func() {
		for !done.Load() {
			s, err := store.Open(dir)
			loads.Add(1)
			switch {
			case err != nil:
				fail("load: %v", err)
			case isChanging(s):
				changing.Add(1)
			case len(s.Problems) > 0:
				fail("load: problems %v", s.Problems)
			default:
				seenMu.Lock()
				seen[fingerprint(s)]++
				seenMu.Unlock()
			}
		}
	})
	var auditSeen []*audit.Session
	wg.Go(func() {
		for !done.Load() {
			rep := audit.One(dir)
			audits.Add(1)
			if changingAudit(rep) {
				changing.Add(1)
				continue
			}
			seenMu.Lock()
			auditSeen = append(auditSeen, rep)
			seenMu.Unlock()
		}
	})
	for i, op := range script {
		if err := run.Apply(op); err != nil {
			t.Fatalf("op %d: %v", i+1, err)
		}
	}
	done.Store(true)
	wg.Wait()
	if setupErr != nil {
		t.Fatal(setupErr)
	}
	mixed := 0
	for fp, n := range seen {
		if !states[fp] {
			mixed += n
		}
	}
	// An audit is judged against the audits of the states: one that fails
	// where no state's audit does is a false failure, one that passes but
	// matches no state judged a mix.
	for _, rep := range auditSeen {
		switch {
		case verdicts[auditKey(rep)]:
		case rep.Failed():
			fail("audit fails where no state the writer left fails it: %s %v", rep.Error, rep.Violations)
		default:
			mixed++
		}
	}
	failing := 0
	for _, rep := range auditSeen {
		if rep.Failed() {
			failing++
		}
	}
	t.Logf("seed %d, %d ops, %d states written; %d loads (%d distinct views), %d audits beside them (%d failing as their state does); %d reads said the session kept changing",
		seed, len(script), stateCount, loads.Load(), len(seen), audits.Load(), failing, changing.Load())
	if len(failures) > 0 {
		t.Errorf("false failures: %v", failures)
	}
	if mixed > 0 {
		t.Errorf("%d loads or audits showed a view that is no state the writer left", mixed)
	}
	if loads.Load() < 10 || audits.Load() < 3 {
		t.Errorf("only %d loads and %d audits ran beside the writer", loads.Load(), audits.Load())
	}
}

// auditKey is an audit's whole report, but for the notes of a write in
// progress: a temporary file the writer has yet to rename is a state the
// writer passes through between two renames, seen as the one before.
func auditKey(rep *audit.Session) string {
	r := *rep
	r.Notes = nil
	for _, n := range rep.Notes {
		if !strings.Contains(n, "write in progress") {
			r.Notes = append(r.Notes, n)
		}
	}
	b, _ := json.Marshal(r)
	return string(b)
}

// readsCount drops the number of reads from a problem's text.
var readsCount = regexp.MustCompile(` \(\d+ reads?\)`)

// fingerprint is what a cold load shows: every view under off and all,
// and the problems.
func fingerprint(s *store.Store) string {
	h := sha256.New()
	for _, fl := range []flags.Set{flags.Off, flags.All} {
		b, _ := json.Marshal(webui.Views(s, fl))
		h.Write(b)
	}
	var ps []string
	for _, p := range s.Problems {
		ps = append(ps, readsCount.ReplaceAllString(p.Error(), ""))
	}
	sort.Strings(ps)
	fmt.Fprint(h, ps)
	return fmt.Sprintf("%x", h.Sum(nil))
}

// isChanging reports whether a load's only problem is that the session
// kept changing while it was read.
func isChanging(s *store.Store) bool {
	return len(s.Problems) == 1 && s.Problems[0].File == "history/" && s.Unsettled()
}

var keptChanging = regexp.MustCompile(`^unreadable: history/: the session kept changing`)

func changingAudit(rep *audit.Session) bool {
	if rep.Error != "" || len(rep.Violations) == 0 {
		return false
	}
	for _, v := range rep.Violations {
		if !keptChanging.MatchString(v) {
			return false
		}
	}
	return true
}
