package hunt

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"sessiondag/checker/campaign"
	"sessiondag/checker/harness"
	"sessiondag/ops"
)

// planted fails once the script has a crash anywhere after a retry: a
// failure that needs two kinds the swarm may each leave out.
var planted = harness.Check{Name: "planted-retry-crash", Prop: "test", Doc: "fails on a crash after a retry",
	Data: []harness.Data{harness.OffAny}, Run: func(s *harness.Session) *harness.Finding {
		if crashAfterRetry(s.Script) {
			return &harness.Finding{What: "a crash after a retry"}
		}
		return nil
	}}

func crashAfterRetry(script []ops.Op) bool {
	retry := false
	for _, op := range script {
		switch op.(type) {
		case ops.Retry:
			retry = true
		case ops.Crash:
			if retry {
				return true
			}
		}
	}
	return false
}

// withPlanted registers the planted check for the test, so that a replay
// of a saved file finds it by name.
func withPlanted(t *testing.T) {
	saved := harness.Checks
	harness.Checks = append(slices.Clone(saved), planted)
	t.Cleanup(func() { harness.Checks = saved })
}

// The campaign finds the planted failure, reduces every finding to a
// minimal script, keeps each reduced script once, and writes files whose
// replay reproduces the failure.
func TestPlantedFailure(t *testing.T) {
	withPlanted(t)
	out := t.TempDir()
	r, err := Run(context.Background(), Config{Seed: 1, Iterations: 600, MaxOps: 60, Out: out,
		Targets: []harness.Check{planted}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Findings < 10 || len(r.Failures) == 0 || len(r.Failures) >= r.Findings {
		t.Fatalf("%d findings, %d distinct failures: want many findings, fewer distinct ones", r.Findings, len(r.Failures))
	}
	times, seen := 0, map[string]string{}
	for _, f := range r.Failures {
		times += f.Times
		file := readFile(t, f.File)
		text := ops.String(ops.Canonical(file.Ops))
		if other, ok := seen[text]; ok {
			t.Errorf("%s and %s hold the same script up to ids:\n%s", other, f.File, text)
		}
		seen[text] = f.File
		checkMinimal(t, f.File, file.Ops)
		found, err := campaign.Replay(file, campaign.ReplayOptions{})
		if err != nil || len(found) != 1 || found[0].Check != planted.Name || found[0].Step != len(file.Ops) {
			t.Errorf("%s: the replay found %v (%v), want the planted failure after its last op", f.File, found, err)
		}
	}
	if times != r.Findings {
		t.Errorf("the failures were found %d times in all, but there were %d findings", times, r.Findings)
	}
	if files, _ := os.ReadDir(out); len(files) != len(r.Failures) {
		t.Errorf("%d files written for %d distinct failures", len(files), len(r.Failures))
	}
	againFindsTheSame(t, r.Failures[len(r.Failures)-1], out)
}

// An iteration played alone, from the campaign's seed, finds the failure
// it found in the campaign and writes the same file (in another directory).
func againFindsTheSame(t *testing.T, f *Failure, campaignOut string) {
	t.Helper()
	k, out := f.Iteration, t.TempDir()
	r, err := Run(context.Background(), Config{Seed: 1, MaxOps: 60, Out: out, Only: &k,
		Targets: []harness.Check{planted}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Scripts != 1 || len(r.Failures) != 1 || r.Failures[0].Key != f.Key {
		t.Fatalf("iteration %d alone: %d scripts, failures %v; want the failure of key %s", k, r.Scripts, r.Failures, f.Key)
	}
	want, _ := os.ReadFile(f.File)
	got, _ := os.ReadFile(r.Failures[0].File)
	if strings.ReplaceAll(string(got), out, campaignOut) != string(want) {
		t.Errorf("iteration %d alone wrote\n%s\nthe campaign wrote\n%s", k, got, want)
	}
}

// checkMinimal: the script fails, is at most user/reply/done/retry/crash
// long, and no op can go without the failure or the script's validity
// going too.
func checkMinimal(t *testing.T, name string, script []ops.Op) {
	t.Helper()
	if !crashAfterRetry(script) || len(script) > 5 {
		t.Errorf("%s: not reduced to a crash after a retry and what they need:\n%s", name, ops.String(script))
	}
	for i := range script {
		cand := slices.Delete(slices.Clone(script), i, i+1)
		if campaign.Valid(cand) && crashAfterRetry(cand) {
			t.Errorf("%s: still fails without op %d (%s)", name, i+1, ops.Format(script[i]))
		}
	}
}

func readFile(t *testing.T, path string) *ops.File {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	file, err := ops.ParseFile(f, path)
	if err != nil {
		t.Fatal(err)
	}
	return file
}

// A failure that does not happen again when its reduced script is played
// is kept as found, and the report says it is not deterministic; its saved
// file keeps what the finding showed, the only record of it.
func TestFlakyFailureKeptAsFound(t *testing.T) {
	calls := 0
	once := harness.Check{Name: "once", Data: []harness.Data{harness.OffAny}, Run: func(s *harness.Session) *harness.Finding {
		if calls++; calls == 3 {
			return &harness.Finding{What: "the third time only", Diff: "impl: refused: no node n3_reply\nmodel.Legacy: <nil>"}
		}
		return nil
	}}
	r, err := Run(context.Background(), Config{Seed: 2, Iterations: 1, MaxOps: 30, Workers: 1, Out: t.TempDir(), // a script of at least three ops
		Targets: []harness.Check{once}})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Failures) != 1 {
		t.Fatalf("%d failures, want the one found", len(r.Failures))
	}
	f := r.Failures[0]
	if f.Reproduced || f.Ops != 3 || f.FoundOps != 3 {
		t.Errorf("reproduced %v, %d ops of %d found: want the script as found, not reproduced", f.Reproduced, f.Ops, f.FoundOps)
	}
	var b strings.Builder
	r.Text(&b)
	if !strings.Contains(b.String(), "not deterministic") {
		t.Errorf("the report does not say the failure is not deterministic:\n%s", b.String())
	}
	saved := strings.Join(readFile(t, f.File).Header, "\n")
	for _, want := range []string{"as found (not reproduced", "impl: refused: no node n3_reply", "model.Legacy: <nil>"} {
		if !strings.Contains(saved, want) {
			t.Errorf("the saved file's header lacks %q:\n%s", want, saved)
		}
	}
}

// plantedOn is the planted check declaring other data.
func plantedOn(data ...harness.Data) harness.Check {
	c := planted
	c.Data = data
	return c
}
