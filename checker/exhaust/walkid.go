package exhaust

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"sessiondag/internal/shard"
	"sessiondag/ops"
)

// WalkID is what makes two runs one walk, whose parts and shards add up:
// the scripts it walks (max ops, the op kinds, the shape an implementation
// declares, the op vocabulary's text form, the parts' head scripts) and
// what judges them (the checks, the implementation, the accepted classes
// of failure). It is not the binary: two builds of one vocabulary that
// judge alike walk one walk, and a claims folder (Claims) or a merge
// (Merge) of parts of different walks is refused, since their counts do
// not add up to either.
type WalkID struct {
	MaxOps   int         `json:"max_ops"`
	Kinds    []string    `json:"kinds,omitempty"` // empty: every kind but session
	Together [][2]string `json:"together,omitempty"`
	Without  []string    `json:"without,omitempty"`
	Checks   []string    `json:"checks"`
	Impl     string      `json:"impl,omitempty"`
	Known    []string    `json:"known,omitempty"` // the keys of the accepted classes in force
	// Vocabulary is a hash of ops.Vocabulary: another vocabulary writes
	// other scripts.
	Vocabulary string `json:"vocabulary"`
	// Parts and Heads are the walk's parts (Parts) and a hash of their
	// head scripts in walk order: a change of what the walk tries after a
	// state changes them.
	Parts int    `json:"parts"`
	Heads string `json:"heads"`
}

// Key is the walk's name: 16 hex digits of SHA-256 over its JSON.
func (w WalkID) Key() string {
	b, _ := json.Marshal(w)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// String says what the walk is, for an error that refuses another.
func (w WalkID) String() string {
	kinds := "every kind"
	if len(w.Kinds) > 0 {
		kinds = "kinds " + strings.Join(w.Kinds, ",")
	}
	s := fmt.Sprintf("walk %s: max ops %d, %s, %d checks, vocabulary %s, %d parts", w.Key(), w.MaxOps, kinds, len(w.Checks), w.Vocabulary, w.Parts)
	if w.Impl != "" {
		s += ", against " + w.Impl
	}
	return s
}

// Diff names the first thing in which two walks differ.
func (w WalkID) Diff(o WalkID) string {
	switch {
	case w.MaxOps != o.MaxOps:
		return fmt.Sprintf("max ops %d and %d", w.MaxOps, o.MaxOps)
	case !slices.Equal(w.Kinds, o.Kinds):
		return fmt.Sprintf("kinds %q and %q", w.Kinds, o.Kinds)
	case !slices.Equal(w.Checks, o.Checks):
		return fmt.Sprintf("checks %q and %q", w.Checks, o.Checks)
	case w.Impl != o.Impl:
		return fmt.Sprintf("implementations %q and %q", w.Impl, o.Impl)
	case w.Vocabulary != o.Vocabulary:
		return fmt.Sprintf("op vocabularies %s and %s", w.Vocabulary, o.Vocabulary)
	case w.Parts != o.Parts || w.Heads != o.Heads:
		return fmt.Sprintf("parts (%d parts, heads %s; %d parts, heads %s)", w.Parts, w.Heads, o.Parts, o.Heads)
	case !slices.Equal(w.Known, o.Known):
		return "accepted classes of failure (--known)"
	}
	return "shape (together, without)"
}

// vocabularyHash is 16 hex digits of SHA-256 over ops.Vocabulary.
func vocabularyHash() string {
	sum := sha256.Sum256([]byte(ops.Vocabulary()))
	return hex.EncodeToString(sum[:8])
}

// walkIDOf is the walk of the prepared options o: its parts are counted
// and their heads hashed by walking the top ShardDepth ops.
func walkIDOf(o Options) (WalkID, error) {
	w := WalkID{MaxOps: o.MaxOps, Kinds: o.shape.kinds, Together: o.shape.together, Without: o.shape.without,
		Impl: implName(o), Vocabulary: vocabularyHash()}
	for _, c := range o.Checks {
		w.Checks = append(w.Checks, c.Name)
	}
	w.Known = o.Known.InForce()
	h := sha256.New()
	err := walkWith(min(o.MaxOps, ShardDepth), o.shape, shard.Whole, visitFunc(func(n Node) bool {
		w.Parts++
		for i, op := range n.Script {
			if i > 0 {
				h.Write([]byte("; "))
			}
			h.Write([]byte(ops.Format(op)))
		}
		h.Write([]byte("\n"))
		return true
	}))
	w.Heads = hex.EncodeToString(h.Sum(nil)[:8])
	return w, err
}
