package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"pgregory.net/rapid"

	"sessiondag/audit"
	"sessiondag/checker/driver"
	"sessiondag/checker/gen"
	"sessiondag/checker/robust"
	"sessiondag/impl/flags"
	"sessiondag/impl/node"
	"sessiondag/impl/store"
	"sessiondag/ops"
)

// The session trees the audit's metamorphic relations run on
// (relations_*_test.go): sessions `sessiondag gen` writes, with and
// without their op scripts, damaged the ways checker/robust damages them,
// and written with the flags on with one user row's stored predecessor
// rewritten — the one edit the writers never make — so that a step moves,
// hides or loses a user's message; laid out in folders, with links the
// walk follows and a link it cannot read. A tree is a spec drawn by rapid
// (small numbers, so that a failure shrinks to few small sessions) and
// written deterministically from it: the same spec, the same bytes.

// sessionKind is how a session of the tree is made.
type sessionKind int

const (
	withScript sessionKind = iota // gen's session and its session.ops
	rewired                       // flags on, user rows' predecessors rewritten
	noScript                      // gen's session alone
	damaged                       // gen's session, then robust's damage
	cutChat                       // a plain chat, flags on, one turn's predecessor cut
	numKinds
)

// sessionSpec is one session of a tree.
type sessionSpec struct {
	Kind   sessionKind
	Seed   uint64 // gen's seed: the session's id and script
	Nodes  int
	Legacy bool   // legacy-shaped rows too (gen --legacy)
	On     bool   // the writers' flags all on (gen --flags all)
	Script bool   // (damaged, rewired) session.ops kept beside it
	Damage uint64 // robust's seed (damaged); which row and where it points (rewired)
	Hits   int    // how many corruptions (damaged)
	Folder int    // the folder it is in (f0, f1, f2)
}

// linkSpec is a link to a session directory of the tree, in a folder of
// its own or one holding sessions: the walk follows it once and notes it.
type linkSpec struct {
	Where  string // the folder holding the link, relative to the tree's root ("" the root)
	Target int    // the session it leads to
}

// treeSpec is a drawn tree.
type treeSpec struct {
	Sessions []sessionSpec
	Links    []linkSpec
	// Loop: a link to itself in f0, which the walk cannot read (the run
	// is then no verdict on the whole tree).
	Loop bool
}

// drawTree draws a tree of at most most sessions; links and loops only
// when extras is set.
func drawTree(t *rapid.T, most int, extras bool) treeSpec {
	var spec treeSpec
	n := rapid.IntRange(1, most).Draw(t, "sessions")
	for i := range n {
		s := sessionSpec{
			Kind:   sessionKind(rapid.IntRange(0, int(numKinds)-1).Draw(t, "kind")),
			Seed:   uint64(i)*1000 + rapid.Uint64Range(1, 999).Draw(t, "seed"), // distinct: one id each
			Nodes:  rapid.IntRange(4, 30).Draw(t, "nodes"),
			Legacy: rapid.Bool().Draw(t, "legacy"),
			On:     rapid.Bool().Draw(t, "flags on"),
			Folder: rapid.IntRange(0, 2).Draw(t, "folder"),
		}
		switch s.Kind {
		case damaged:
			s.Script = rapid.Bool().Draw(t, "script kept")
			s.Damage = rapid.Uint64Range(1, 1<<20).Draw(t, "damage seed")
			s.Hits = rapid.IntRange(1, 3).Draw(t, "corruptions")
		case rewired, cutChat:
			s.On = true
			s.Script = rapid.Bool().Draw(t, "script kept")
			s.Damage = rapid.Uint64Range(0, 1<<20).Draw(t, "rewiring")
		}
		spec.Sessions = append(spec.Sessions, s)
	}
	if !extras {
		return spec
	}
	for range rapid.IntRange(0, 2).Draw(t, "links") {
		spec.Links = append(spec.Links, linkSpec{
			Where:  rapid.SampledFrom([]string{"", "f0", "f1", "f0-links"}).Draw(t, "link folder"),
			Target: rapid.IntRange(0, n-1).Draw(t, "link target"),
		})
	}
	spec.Loop = rapid.IntRange(0, 4).Draw(t, "loop") == 0
	return spec
}

// leaf is the folder name of session i.
func leaf(i int) string { return fmt.Sprintf("s%02d", i) }

// place is where session i goes below the tree's root: f<folder>/s<i>.
func (spec treeSpec) place(i int) string {
	return filepath.Join(fmt.Sprintf("f%d", spec.Sessions[i].Folder), leaf(i))
}

// write writes the tree below root, each session at at(i), and returns
// the top folders that hold a session, sorted.
func (spec treeSpec) write(root string, at func(i int) string) ([]string, error) {
	tops := map[string]bool{}
	for i, s := range spec.Sessions {
		rel := at(i)
		if err := s.write(filepath.Join(root, rel)); err != nil {
			return nil, fmt.Errorf("session %d (%+v): %w", i, s, err)
		}
		tops[filepath.Join(root, firstElem(rel))] = true
	}
	for k, l := range spec.Links {
		dir := filepath.Join(root, l.Where)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
		if err := os.Symlink(filepath.Join(root, at(l.Target)), filepath.Join(dir, fmt.Sprintf("link%d", k))); err != nil {
			return nil, err
		}
	}
	if spec.Loop {
		if err := os.MkdirAll(filepath.Join(root, "f0"), 0o755); err != nil {
			return nil, err
		}
		if err := os.Symlink("loop", filepath.Join(root, "f0", "loop")); err != nil {
			return nil, err
		}
	}
	var out []string
	for top := range tops {
		out = append(out, top)
	}
	sort.Strings(out)
	return out, nil
}

func firstElem(rel string) string {
	for d := rel; ; {
		parent := filepath.Dir(d)
		if parent == "." || parent == d {
			return d
		}
		d = parent
	}
}

// write writes the session into dir.
func (s sessionSpec) write(dir string) error {
	set := flags.Off
	if s.On {
		set = flags.All
	}
	script, text, _ := genScript(s.Seed, s.Nodes, s.Legacy, set)
	if s.Kind == cutChat {
		script, text = s.chat()
	}
	if _, err := driver.BuildWith(script, dir, flags.Off, store.WriteOptions{NoSync: true}); err != nil {
		return err
	}
	if s.Kind == withScript || s.Script {
		if err := os.WriteFile(filepath.Join(dir, audit.ScriptName), text, 0o644); err != nil {
			return err
		}
	}
	switch s.Kind {
	case damaged:
		_, err := robust.Corrupt(dir, gen.NewSeeded(s.Damage), nil, s.Hits)
		return err
	case rewired:
		return rewire(dir, s.Damage)
	case cutChat:
		return cutTurns(dir, s.chatTurns(), s.Damage)
	}
	return nil
}

// chatTurns is how many turns the plain chat of a cutChat session has.
func (s sessionSpec) chatTurns() int { return 2 + s.Nodes%4 }

// chat is a plain web chat written with the flags on: each turn a user's
// message and a reply.
func (s sessionSpec) chat() ([]ops.Op, []byte) {
	text := fmt.Sprintf("session id=%s\nflag set=all\n", sessionIDFor(s.Seed))
	for k := 1; k <= s.chatTurns(); k++ {
		text += fmt.Sprintf("user id=u%d text=\"turn %d\"\nreply\nsay text=ok\ndone\n", k, k)
	}
	script, err := ops.ParseString(text)
	if err != nil {
		panic(err) // the text above is a script
	}
	return script, []byte(text)
}

// cutTurns points the stored predecessor of a later turn's user row at ROOT
// or at a row no file has: the turns before it leave A,B's chain, to a
// branch the arrows reach (ROOT: a root beside the first turn's) or to
// no place a user finds.
func cutTurns(dir string, turns int, how uint64) error {
	k := 2 + int(how%uint64(turns-1))
	files, err := filepath.Glob(filepath.Join(dir, "history", fmt.Sprintf("*-u-u%d.json", k)))
	if err != nil || len(files) != 1 {
		return fmt.Errorf("user row u%d: %v", k, files)
	}
	n, err := readNode(files[0])
	if err != nil {
		return err
	}
	pred := node.RootID
	if how/8%2 == 1 {
		pred = "gone0000"
	}
	n.Metadata.Set("predecessor", node.Str(pred))
	return os.WriteFile(files[0], n.Encode(), 0o644)
}

// rewire points the stored predecessor of one or two user rows (drawn by
// how) at ROOT, at a row no file has, or at another row of the session:
// flag A's loads then put the row, and the rows after it, elsewhere.
func rewire(dir string, how uint64) error {
	users, err := filepath.Glob(filepath.Join(dir, "history", "*-u-*.json"))
	if err != nil || len(users) == 0 {
		return err
	}
	all, err := filepath.Glob(filepath.Join(dir, "history", "*.json"))
	if err != nil {
		return err
	}
	for k := range 1 + how%2 {
		h := how/2 + k*101
		file := users[h%uint64(len(users))]
		n, err := readNode(file)
		if err != nil {
			return err
		}
		pred := node.RootID
		switch h / 7 % 3 {
		case 1:
			pred = "gone0000"
		case 2:
			other, err := readNode(all[h/21%uint64(len(all))])
			if err != nil {
				return err
			}
			pred = other.ID
		}
		n.Metadata.Set("predecessor", node.Str(pred))
		if err := os.WriteFile(file, n.Encode(), 0o644); err != nil {
			return err
		}
	}
	return nil
}

func readNode(file string) (*node.Node, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	return node.Decode(b)
}
