package exhaust

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"sessiondag/internal/shard"
)

// Claims deal the walk's parts (Parts) to whoever claims them first, through
// a directory every claimant shares (a volume every pod of a Job mounts):
// the parts are many more than the claimants and of mixed sizes, so each
// claimant takes the next part as soon as it is done with one and they end
// together. A claim is a file created only if absent (claims/<part>, holding
// the claimant's name); a finished part is a file of JSON lines written
// whole (parts/<part>.jsonl: its failures, then its summary, the shard of
// the summary being "<part>/<parts>", so `sessiondag summary parts/*`
// merges them and says whether every part is there); its failures are
// saved under failures/. A claimant run again under the same name (a pod
// retried after a crash) finishes the parts it had claimed.
//
// A claimant walks the parts from its Start on, then those before it: n
// claimants started at 0/n … n-1/n each walk a run of neighbouring parts
// before they meet another's, and neighbouring parts share states (ops
// that commute reach one state from two orders) that a claimant's memos
// then hold for it; claimants that all start at the first part take the
// parts in turn, and each meets a state its neighbours expanded as new.
type Claims struct {
	Dir   string
	Name  string
	Start shard.Shard // the zero value: the first part
}

// passes are the owners of the claimant's walks, in order: the parts from
// its start on, then the parts before it.
func (c *Claims) passes(parts int) []func(int) (bool, error) {
	from := c.Start.I * parts / c.Start.Parts()
	in := func(lo, hi int) func(int) (bool, error) {
		return func(k int) (bool, error) {
			if k < lo || k >= hi {
				return false, nil
			}
			return c.claim(k)
		}
	}
	if from == 0 {
		return []func(int) (bool, error){in(0, parts)}
	}
	return []func(int) (bool, error){in(from, parts), in(0, from)}
}

// worker is the claims of worker w of n of this claimant: named apart, and
// started at its share of the claimant's share of the parts.
func (c *Claims) worker(w, n int) *Claims {
	name := c.Name
	if n > 1 {
		name = fmt.Sprintf("%s.%d", c.Name, w)
	}
	return &Claims{Dir: c.Dir, Name: name, Start: shard.Shard{I: c.Start.I*n + w, N: c.Start.Parts() * n}}
}

func (c *Claims) path(elem ...string) string {
	return filepath.Join(append([]string{c.Dir}, elem...)...)
}

// partFile is where a finished part's JSON lines are.
func (c *Claims) partFile(part int) string { return c.path("parts", fmt.Sprintf("%07d.jsonl", part)) }

// walkFile is where the folder names its walk.
func (c *Claims) walkFile() string { return c.path("walk.json") }

// prepare makes the directories and keys the folder by walk w: the first
// claimant writes w there; every later one must be of the same walk. A
// folder of another walk, or one holding parts but naming no walk, is
// refused: its parts would be taken as this walk's.
func (c *Claims) prepare(w WalkID) error {
	if c.Name == "" || strings.ContainsAny(c.Name, "\n/") || strings.HasPrefix(c.Name, ".") {
		return fmt.Errorf("exhaust: claimant name %q: want a non-empty name without / or a newline, not beginning with a dot", c.Name)
	}
	if err := os.MkdirAll(c.Dir, 0o755); err != nil {
		return fmt.Errorf("exhaust: claims: %w", err)
	}
	b, err := json.MarshalIndent(w, "", "  ")
	if err != nil {
		return err
	}
	b = append(b, '\n')
	if _, err := os.Stat(c.walkFile()); errors.Is(err, fs.ErrNotExist) {
		if err := c.refuseUnnamed(); err != nil {
			return err
		}
	}
	made, err := c.create(c.walkFile(), b)
	if err != nil {
		return fmt.Errorf("exhaust: claims: %w", err)
	}
	if !made {
		if err := c.sameWalk(w); err != nil {
			return err
		}
	}
	for _, d := range []string{"claims", "parts", "failures"} {
		if err := os.MkdirAll(c.path(d), 0o755); err != nil {
			return fmt.Errorf("exhaust: claims: %w", err)
		}
	}
	return nil
}

// refuseUnnamed refuses a folder that holds parts but names no walk (made
// before folders were keyed by their walk).
func (c *Claims) refuseUnnamed() error {
	done, err := c.finished()
	if errors.Is(err, fs.ErrNotExist) || err == nil && len(done) == 0 {
		return nil
	}
	if err != nil {
		return err
	}
	return fmt.Errorf("exhaust: claims %s: %d finished parts of a walk the folder does not name (no %s): give this walk a folder of its own",
		c.Dir, len(done), filepath.Base(c.walkFile()))
}

// sameWalk checks the folder's walk against w.
func (c *Claims) sameWalk(w WalkID) error {
	b, err := os.ReadFile(c.walkFile())
	if err != nil {
		return fmt.Errorf("exhaust: claims: %w", err)
	}
	var had WalkID
	if err := json.Unmarshal(b, &had); err != nil {
		return fmt.Errorf("exhaust: claims: %s: %w", c.walkFile(), err)
	}
	if had.Key() != w.Key() {
		return fmt.Errorf("exhaust: claims %s: the folder of another walk (%s) than this one (%s): they differ in %s; give each walk a folder of its own",
			c.Dir, had, w, had.Diff(w))
	}
	return nil
}

// create makes the file name holding b only if it is absent, whole or not
// at all: b goes to a file of this claimant's first, linked to name (a
// link never replaces a file), so a claimant killed midway leaves no file
// half written. It reports whether it made the file.
func (c *Claims) create(name string, b []byte) (bool, error) {
	tmp, err := c.temp(filepath.Dir(name), b)
	if err != nil {
		return false, err
	}
	defer os.Remove(tmp)
	err = os.Link(tmp, name)
	if errors.Is(err, fs.ErrExist) {
		return false, nil
	}
	return err == nil, err
}

// claim reports whether this claimant walks part: it is not finished, and
// its claim is made now or was made by this claimant before. A claim is
// made whole (create): a claimant killed while claiming leaves the part
// unclaimed or its own, never claimed by no one.
func (c *Claims) claim(part int) (bool, error) {
	if _, err := os.Stat(c.partFile(part)); err == nil {
		return false, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return false, fmt.Errorf("exhaust: claims: %w", err)
	}
	name := c.path("claims", fmt.Sprint(part))
	made, err := c.create(name, []byte(c.Name))
	if err != nil {
		return false, fmt.Errorf("exhaust: claims: %w", err)
	}
	if made {
		return true, nil
	}
	owner, err := os.ReadFile(name)
	if err != nil {
		return false, fmt.Errorf("exhaust: claims: %w", err)
	}
	return string(owner) == c.Name, nil
}

// finished lists the parts any claimant has finished, in order.
func (c *Claims) finished() ([]int, error) {
	ents, err := os.ReadDir(c.path("parts"))
	if err != nil {
		return nil, fmt.Errorf("exhaust: claims: %w", err)
	}
	var out []int
	for _, e := range ents {
		var part int
		if n, _ := fmt.Sscanf(e.Name(), "%07d.jsonl", &part); n == 1 && e.Name() == filepath.Base(c.partFile(part)) {
			out = append(out, part)
		}
	}
	return out, nil
}

// Held is the parts of a walk one claimant holds (claimed and not
// finished); Claimant "" holds the parts no one claimed.
type Held struct {
	Claimant string `json:"claimant"`
	Parts    []int  `json:"parts"`
}

// unfinished lists the parts of the walk's parts not finished, by who
// holds their claim, in the order of the names ("" first).
func (c *Claims) unfinished(parts int) ([]Held, error) {
	done, err := c.finished()
	if err != nil {
		return nil, err
	}
	finished := make([]bool, parts)
	for _, k := range done {
		if k < parts {
			finished[k] = true
		}
	}
	by := map[string][]int{}
	for k, f := range finished {
		if f {
			continue
		}
		owner, err := os.ReadFile(c.path("claims", fmt.Sprint(k)))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("exhaust: claims: %w", err)
		}
		by[string(owner)] = append(by[string(owner)], k)
	}
	var out []Held
	for name, ks := range by {
		out = append(out, Held{Claimant: name, Parts: ks})
	}
	slices.SortFunc(out, func(a, b Held) int { return strings.Compare(a.Claimant, b.Claimant) })
	return out, nil
}

// finish saves a part's failures and writes its JSON lines.
func (c *Claims) finish(part int, sum Summary, fails []Failure) error {
	recs := make([]FailureRecord, len(fails))
	for i, f := range fails {
		path, err := f.Save(c.path("failures"))
		if err != nil {
			return fmt.Errorf("exhaust: part %d: %w", part, err)
		}
		recs[i] = f.Record(path)
	}
	var b bytes.Buffer
	if err := WriteJSON(&b, sum, recs); err != nil {
		return err
	}
	final := c.partFile(part)
	tmp, err := c.temp(filepath.Dir(final), b.Bytes())
	if err != nil {
		return fmt.Errorf("exhaust: part %d: %w", part, err)
	}
	if err := os.Rename(tmp, final); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("exhaust: part %d: %w", part, err)
	}
	return nil
}

// temp writes b to a new file of this claimant's in dir (named after it,
// never shared with another claimant or another write) and returns its
// path; a file half written is removed.
func (c *Claims) temp(dir string, b []byte) (string, error) {
	f, err := os.CreateTemp(dir, ".tmp-"+c.Name+"-*")
	if err != nil {
		return "", err
	}
	_, err = f.Write(b)
	if err = errors.Join(err, f.Close()); err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

// Parts counts the walk's parts for max ops of kinds: the scripts of at
// most ShardDepth ops, each heading a part with everything below it at
// ShardDepth. Shards and claims deal these out.
func Parts(max int, kinds []string) (int, error) { return partsOf(max, shape{kinds: kinds}) }

// partsOf is Parts of a walk of shape s.
func partsOf(max int, s shape) (int, error) {
	n := 0
	err := walkWith(min(max, ShardDepth), s, shard.Whole, visitFunc(func(Node) bool { n++; return true }))
	return n, err
}
