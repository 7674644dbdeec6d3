package robust

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"time"

	"math/big"

	"sessiondag/checker/driver"
	"sessiondag/checker/gen"
	"sessiondag/checker/harness"
	"sessiondag/impl/flags"
	"sessiondag/impl/store"
	"sessiondag/impl/webui"
	"sessiondag/internal/jsoncmp"
	"sessiondag/ops"
)

// fataler is what testing.T and rapid.T have in common.
type fataler interface {
	Helper()
	Fatalf(format string, args ...any)
}

// build writes a generated session of nops ops under parent/<default id>
// (the directory name is the session id, as the model reader assumes).
func build(t fataler, parent string, src gen.Source, nops int) string {
	t.Helper()
	dir := filepath.Join(parent, ops.DefaultSession)
	script := gen.New(gen.Options{Legacy: true}).Script(src, nops)
	if _, err := driver.BuildWith(script, dir, flags.Off, store.WriteOptions{NoSync: true}); err != nil {
		t.Fatalf("build: %v", err)
	}
	return dir
}

// within runs f and fails if it panics or does not return within d.
func within(t fataler, d time.Duration, what string, f func()) {
	t.Helper()
	done := make(chan error, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- fmt.Errorf("panic: %v\n%s", r, debug.Stack())
			}
		}()
		f()
		done <- nil
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	case <-time.After(d):
		t.Fatalf("%s did not return within %v", what, d)
	}
}

// readAll loads a directory cold and computes every view under flags off
// and all (the load pipeline, get_branch, render), failing on a panic, a
// hang or views that do not marshal. It returns the store (nil when Open
// refused the directory) and Open's error.
func readAll(t fataler, dir string) (*store.Store, error) {
	t.Helper()
	var s *store.Store
	var openErr error
	within(t, 20*time.Second, "load of "+dir, func() {
		s, openErr = store.Open(dir)
		if openErr != nil {
			return
		}
		for _, fl := range []flags.Set{flags.Off, flags.All} {
			if _, err := json.Marshal(webui.Views(s, fl)); err != nil {
				panic(fmt.Sprintf("flags %s: views do not marshal: %v", fl, err))
			}
		}
	})
	return s, openErr
}

// checkAccounted checks that every history/*.json file was either loaded or
// reported, and that every problem names a file that is there.
func checkAccounted(t fataler, dir string, s *store.Store) {
	t.Helper()
	entries, _ := os.ReadDir(filepath.Join(dir, "history"))
	var jsonFiles int
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".json") {
			jsonFiles++
		}
	}
	seen := map[string]bool{}
	var historyProblems int
	for _, p := range s.Problems {
		if seen[p.File] {
			t.Fatalf("%s reported twice: %v", p.File, s.Problems)
		}
		seen[p.File] = true
		if p.Err == nil || !strings.HasPrefix(p.Error(), p.File+": ") {
			t.Fatalf("problem %q does not name its file", p.Error())
		}
		if strings.HasPrefix(p.File, "history/") && strings.HasSuffix(p.File, ".json") {
			historyProblems++
		}
		if _, err := os.Lstat(filepath.Join(dir, p.File)); err != nil && p.File != "meta.json" {
			t.Fatalf("problem names %s, which is not in the directory", p.File)
		}
	}
	if historyProblems == 0 && seen["history/"] {
		return // history/ itself refused: no file of it is read
	}
	if jsonFiles != s.Len()+historyProblems {
		t.Fatalf("%d history/*.json files, but %d loaded + %d reported: something was skipped silently (problems %v)",
			jsonFiles, s.Len(), historyProblems, s.Problems)
	}
}

// checkProblems checks that the problems are exactly the unusable files,
// each report containing its phrase.
func checkProblems(t fataler, s *store.Store, unusable map[string]string) {
	t.Helper()
	got := map[string]string{}
	for _, p := range s.Problems {
		got[p.File] = p.Error()
	}
	for f, phrase := range unusable {
		msg, ok := got[f]
		if !ok {
			t.Fatalf("%s is unusable but not reported (problems %v)", f, s.Problems)
		}
		if !strings.Contains(msg, phrase) {
			t.Fatalf("problem %q does not say %q", msg, phrase)
		}
	}
	for f, msg := range got {
		if _, ok := unusable[f]; !ok {
			t.Fatalf("unexpected problem %q", msg)
		}
	}
}

// withHead adds to the unusable files the problem of a head that names no
// node: when meta.json is usable and its head_id (else last_node_id), read
// here with encoding/json, is no id of a node that loaded.
func withHead(t fataler, dir string, s *store.Store, unusable map[string]string) map[string]string {
	t.Helper()
	if _, bad := unusable["meta.json"]; bad {
		return unusable
	}
	data, err := os.ReadFile(filepath.Join(dir, "meta.json"))
	if err != nil {
		return unusable
	}
	var meta map[string]any
	if json.Unmarshal(data, &meta) != nil {
		return unusable
	}
	head, _ := meta["head_id"].(string)
	if head == "" {
		head, _ = meta["last_node_id"].(string)
	}
	if head == "" {
		return unusable
	}
	for _, n := range s.Nodes() {
		if n.ID == head {
			return unusable
		}
	}
	unusable["meta.json"] = PhraseUnknownHead
	return unusable
}

// fileState is one entry of a directory snapshot.
type fileState struct {
	mode  fs.FileMode
	mtime time.Time
	size  int64
	sum   [32]byte
	link  string
}

// snapshot records every entry below root: mode, mtime, size, content hash,
// link target.
func snapshot(t fataler, root string) map[string]fileState {
	t.Helper()
	out := map[string]fileState{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		st := fileState{mode: fi.Mode(), mtime: fi.ModTime(), size: fi.Size()}
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			st.link, _ = os.Readlink(p)
		case fi.Mode().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			st.sum = sha256.Sum256(data)
		}
		out[p] = st
		return nil
	})
	if err != nil {
		t.Fatalf("snapshot: %v", err)
	}
	return out
}

// sameSnapshot reports the first difference between two snapshots.
func sameSnapshot(a, b map[string]fileState) error {
	var keys []string
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		x, okx := a[k]
		y, oky := b[k]
		switch {
		case !okx:
			return fmt.Errorf("%s appeared", k)
		case !oky:
			return fmt.Errorf("%s disappeared", k)
		case x.mode != y.mode || !x.mtime.Equal(y.mtime) || x.size != y.size || x.sum != y.sum || x.link != y.link:
			return fmt.Errorf("%s changed", k)
		}
	}
	return nil
}

var errNotSession = errors.New("not a session directory")

// documentedOpenError reports whether Open's refusal of dir is documented:
// none of meta.json, history/ and context/commits/ (or history/ not a
// directory).
func documentedOpenError(dir string, err error) bool {
	if !strings.Contains(err.Error(), dir) {
		return false
	}
	_, merr := os.Lstat(filepath.Join(dir, "meta.json"))
	fi, herr := os.Stat(filepath.Join(dir, "history"))
	if herr == nil && !fi.IsDir() {
		return true
	}
	_, cerr := os.Stat(filepath.Join(dir, "context", "commits"))
	return merr != nil && herr != nil && cerr != nil && strings.Contains(err.Error(), errNotSession.Error())
}

// viewDiff compares two views (values that marshal to the view document)
// section by section, in harness.Sections order, and returns the first
// difference as a path with both values, or "" when they agree. Unlike a
// go-cmp diff it stays linear on the deep and huge values corrupt data
// holds. Object keys count in order, numbers compare by value.
func viewDiff(want, got any, ignore ...string) string {
	w, err := jsoncmp.Of(want)
	if err != nil {
		return "want: " + err.Error()
	}
	g, err := jsoncmp.Of(got)
	if err != nil {
		return "got: " + err.Error()
	}
	wo, _ := w.(jsoncmp.Object)
	gobj, _ := g.(jsoncmp.Object)
	for _, s := range harness.Sections {
		wv, _ := wo.Get(s)
		gv, _ := gobj.Get(s)
		if d := firstDiff(wv, gv, s, ignore); d != "" {
			return d
		}
	}
	return ""
}

func firstDiff(a, b any, path string, ignore []string) string {
	switch x := a.(type) {
	case jsoncmp.Object:
		y, ok := b.(jsoncmp.Object)
		if !ok {
			return fmt.Sprintf("%s: want an object, got %s", path, short(b))
		}
		xk, yk := keptKeys(x, ignore), keptKeys(y, ignore)
		union := append(slices.Clone(xk), yk...)
		sort.Strings(union)
		for _, k := range slices.Compact(union) {
			xv, okx := x.Get(k)
			yv, oky := y.Get(k)
			if !okx || !oky {
				return fmt.Sprintf("%s.%s: want %s (present %v), got %s (present %v)", path, k, short(xv), okx, short(yv), oky)
			}
		}
		if len(xk) != len(yk) {
			return fmt.Sprintf("%s: want keys %q, got %q", path, xk, yk)
		}
		for i := range xk {
			if xk[i] != yk[i] {
				return fmt.Sprintf("%s: keys out of order: key %d is %q, want %q", path, i+1, yk[i], xk[i])
			}
		}
		for _, k := range xk {
			xv, _ := x.Get(k)
			yv, _ := y.Get(k)
			if d := firstDiff(xv, yv, path+"."+k, ignore); d != "" {
				return d
			}
		}
		return ""
	case []any:
		y, ok := b.([]any)
		if !ok {
			return fmt.Sprintf("%s: want a list, got %s", path, short(b))
		}
		for i := 0; i < len(x) && i < len(y); i++ {
			if d := firstDiff(x[i], y[i], fmt.Sprintf("%s[%d]", path, i), ignore); d != "" {
				return d
			}
		}
		if len(x) != len(y) {
			return fmt.Sprintf("%s: want %d items, got %d", path, len(x), len(y))
		}
		return ""
	case json.Number:
		y, ok := b.(json.Number)
		if !ok {
			return fmt.Sprintf("%s: want %s, got %s", path, x, short(b))
		}
		p, _, err1 := big.ParseFloat(string(x), 10, 200, big.ToNearestEven)
		q, _, err2 := big.ParseFloat(string(y), 10, 200, big.ToNearestEven)
		if err1 != nil || err2 != nil {
			if x != y {
				return fmt.Sprintf("%s: want %s, got %s", path, x, y)
			}
			return ""
		}
		if p.Cmp(q) != 0 {
			return fmt.Sprintf("%s: want %s, got %s", path, x, y)
		}
		return ""
	}
	if a != b {
		return fmt.Sprintf("%s: want %s, got %s", path, short(a), short(b))
	}
	return ""
}

// keptKeys are an object's keys in order, without the ignored ones.
func keptKeys(o jsoncmp.Object, ignore []string) []string {
	var keys []string
	for _, k := range o.Keys() {
		if !slices.Contains(ignore, k) {
			keys = append(keys, k)
		}
	}
	return keys
}

func short(v any) string {
	s := fmt.Sprintf("%#v", v)
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}
