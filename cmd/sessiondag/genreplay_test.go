package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"sessiondag/impl/flags"
	"sessiondag/impl/store"
	"sessiondag/ops"
)

// TestGenReplaySameBytes: `gen --flags F --out D`, then `replay
// D/session.ops --out E`: D and E are the same files, byte for byte, for
// every flag set of the rollout path. The writers' flags are ops of the
// script gen writes, so the script alone makes its data. Through the
// commands for a few seeds; through the same functions (without fsync) for
// many more.
func TestGenReplaySameBytes(t *testing.T) {
	tmp := scratchDir(t)
	for _, fl := range flags.Rollout {
		for _, seed := range []int{1} {
			d, e := filepath.Join(tmp, fmt.Sprintf("gen-%s-%d", fl, seed)), filepath.Join(tmp, fmt.Sprintf("replay-%s-%d", fl, seed))
			var out bytes.Buffer
			if code := run([]string{"gen", "--seed", fmt.Sprint(seed), "--nodes", "30", "--flags", fl.String(), "--out", d}, &out, &out); code != 0 {
				t.Fatalf("gen: exit %d\n%s", code, out.String())
			}
			// One cheap check: the replay is here for the directory it writes.
			if code := run([]string{"replay", filepath.Join(d, "session.ops"), "--check", "cards", "--out", e}, &out, &out); code != 0 {
				t.Fatalf("replay: exit %d\n%s", code, out.String())
			}
			sameTree(t, d, e)
		}
	}
	seeds := 40
	if testing.Short() {
		seeds = 5
	}
	for _, fl := range flags.Rollout {
		for seed := uint64(1); seed <= uint64(seeds); seed++ {
			d, e := filepath.Join(tmp, fmt.Sprintf("d-%s-%d", fl, seed)), filepath.Join(tmp, fmt.Sprintf("e-%s-%d", fl, seed))
			script, text, _ := genScript(seed, 60, true, fl)
			if err := writeSession(d, script, text, flags.Off, store.WriteOptions{NoSync: true}); err != nil {
				t.Fatal(err)
			}
			parsed, err := ops.Parse(bytes.NewReader(text), "session.ops")
			if err != nil {
				t.Fatal(err)
			}
			if err := writeSession(e, parsed, text, flags.Off, store.WriteOptions{NoSync: true}); err != nil {
				t.Fatal(err)
			}
			sameTree(t, d, e)
		}
	}
}

// scratchDir is a temporary directory on a RAM disk when the machine has
// one: the test writes some hundred sessions.
func scratchDir(t *testing.T) string {
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		if d, err := os.MkdirTemp("/dev/shm", "sessiondag-genreplay-"); err == nil {
			t.Cleanup(func() { os.RemoveAll(d) })
			return d
		}
	}
	return t.TempDir()
}

// sameTree fails unless directories a and b hold the same files with the
// same bytes.
func sameTree(t *testing.T, a, b string) {
	t.Helper()
	fa, fb := files(t, a), files(t, b)
	if len(fa) != len(fb) {
		t.Fatalf("%s has %d files, %s has %d", a, len(fa), b, len(fb))
	}
	for name, data := range fa {
		if !bytes.Equal(data, fb[name]) {
			t.Fatalf("%s differs between %s and %s", name, a, b)
		}
	}
}

func files(t *testing.T, root string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		out[rel] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
