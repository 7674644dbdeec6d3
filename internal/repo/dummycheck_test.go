package repo

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// dummyCheck is a check added to harness.Checks by a file of its own, with
// nothing else edited: it declares its data (flags off, every legacy shape)
// and fails once a turn's reply is done after a reload.
const dummyCheck = `package harness

import "sessiondag/ops"

func init() {
	Checks = append(Checks, Check{Name: "dummy", Prop: "test", Doc: "a reply done after a reload",
		Data: []Data{OffAny}, ReadsScript: true, Run: func(s *Session) *Finding {
			reloaded := false
			for _, op := range s.Script {
				switch op.(type) {
				case ops.Reload:
					reloaded = true
				case ops.Done:
					if reloaded {
						return &Finding{What: "a reply done after a reload"}
					}
				}
			}
			return nil
		}})
}
`

// TestNewCheckRunsEverywhere: a check that declares its data is run by the
// property suite, hunt, exhaust and replay with no other edit: each of them
// computes what to run from harness.Checks.
func TestNewCheckRunsEverywhere(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the module")
	}
	root, tmp := repoRoot(t), t.TempDir()
	file := filepath.Join(tmp, "dummy_check.go")
	if err := os.WriteFile(file, []byte(dummyCheck), 0o644); err != nil {
		t.Fatal(err)
	}
	overlay, _ := json.Marshal(map[string]any{"Replace": map[string]string{
		filepath.Join(root, "checker", "harness", "zz_dummy_check.go"): file}})
	ov := filepath.Join(tmp, "overlay.json")
	if err := os.WriteFile(ov, overlay, 0o644); err != nil {
		t.Fatal(err)
	}
	bin, props := filepath.Join(tmp, "sessiondag"), filepath.Join(tmp, "props.test")
	run(t, root, 0, "go", "build", "-overlay", ov, "-o", bin, "./cmd/sessiondag")
	run(t, root, 0, "go", "test", "-overlay", ov, "-c", "-o", props, "./props")

	out := run(t, filepath.Join(root, "props"), 1, props, "-test.run", "^TestChecks$/^test-dummy$",
		"-rapid.checks", "30", "-rapid.nofailfile")
	if !strings.Contains(out, "TestChecks/test-dummy/off-any") || !strings.Contains(out, "a reply done after a reload") {
		t.Errorf("the property suite did not run the new check on its data:\n%s", out)
	}
	huntOut := filepath.Join(tmp, "hunt")
	out = run(t, root, 1, bin, "hunt", "--seed", "1", "--iterations", "200", "--max-ops", "30", "--check", "dummy", "--out", huntOut)
	if !strings.Contains(out, "dummy") {
		t.Errorf("hunt did not run the new check:\n%s", out)
	}
	found, _ := filepath.Glob(filepath.Join(huntOut, "dummy-off-any-*.ops"))
	if len(found) == 0 {
		t.Fatalf("hunt saved no failure of the new check:\n%s", out)
	}
	out = run(t, root, 1, bin, "replay", found[0])
	if !strings.Contains(out, "dummy") {
		t.Errorf("replay of %s did not run the new check:\n%s", found[0], out)
	}
	out = run(t, root, 1, bin, "exhaust", "--max-ops", "4", "--kinds", "user,reply,done,reload", "--check", "dummy",
		"--out", filepath.Join(tmp, "exhaust"))
	if !strings.Contains(out, "dummy [off-any]") {
		t.Errorf("exhaust did not run the new check on its data:\n%s", out)
	}
}

// run runs a command in dir and wants its exit status; it returns the
// combined output.
func run(t *testing.T, dir string, status int, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "SESSIONDAG_MUTANT=dummy") // the suite saves no failure of a planted check
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	if code != status {
		t.Fatalf("%s %v: exit %d, want %d\n%s", name, args, code, status, out)
	}
	return string(out)
}
