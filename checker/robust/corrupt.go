// Package robust damages session directories the way crashes, concurrent
// writers, other tools and hostile users do, and (in its tests) checks that
// every reader survives what it finds, loses nothing and says what it found.
//
// The generator works on a copy of a directory the driver wrote: it picks
// files and fields with a gen.Source, so a seed (gen.NewSeeded) always gives
// the same damage and rapid (checker/gen/rapidsrc) can draw and shrink it. Each
// corruption is recorded as an Applied value with the file it touched, and
// the files it made unusable are kept with the phrase a reader's problem
// report must contain (Unusable).
package robust

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"sessiondag/checker/gen"
	"sessiondag/impl/node"
	"sessiondag/impl/store"
)

// Kind names one way a session directory can be damaged.
type Kind string

// The kinds of damage. The comment says what a reader must make of it.
const (
	// Pointers: the file stays a valid node; the walks must terminate.
	DanglingParent Kind = "dangling-parent" // metadata.parent_id → an id no file has
	DanglingCaller Kind = "dangling-caller" // called_by → an id no file has
	ParentCycle    Kind = "parent-cycle"    // 1–3 nodes whose parent_ids form a cycle
	CallerCycle    Kind = "caller-cycle"    // 1–3 nodes whose called_bys form a cycle
	UnknownHead    Kind = "unknown-head"    // meta.json head_id → an id no file has

	// Numbering: valid files; the load keeps every one of them.
	DuplicateID  Kind = "duplicate-id"  // a second file with the same id (different output)
	DuplicateSeq Kind = "duplicate-seq" // a node renumbered to another node's seq
	BigSeq       Kind = "seq-10000"     // a node renumbered to seq ≥ 10000 (5-digit prefix)
	OddName      Kind = "odd-name"      // a file renamed to a name with spaces, unicode or invalid UTF-8

	// Contents that are valid JSON but unusual.
	HugeOutput   Kind = "huge-output"   // an output string of 256 KiB … 2 MiB
	NULEscaped   Kind = "nul-escaped"   // \u0000 inside strings
	HostileID    Kind = "hostile-id"    // an id holding "..", "/", "\\" or NUL
	MissingField Kind = "missing-field" // a field other than id removed
	DeepNesting  Kind = "deep-nesting"  // an output nested 50 or 5000 deep
	NonFinite    Kind = "non-finite"    // NaN, Infinity or 1e400 as a value (Python writes them)
	LinkInside   Kind = "link-inside"   // a symlink in history/ to another node file of the session: refused, the file is read once

	// Damage that makes a file unusable: it must be listed in Problems.
	Truncated    Kind = "truncated"    // a file cut short (a non-atomic writer's crash)
	EmptyFile    Kind = "empty-file"   // a file of zero bytes
	HalfWritten  Kind = "half-written" // *.json.tmp beside a file, holding half a new version
	TmpLeftover  Kind = "tmp-leftover" // *.json.tmp of a node never renamed into place
	MetaTmp      Kind = "meta-tmp"     // meta.json.tmp beside meta.json
	InvalidJSON  Kind = "invalid-json" // a syntax error spliced in
	NULRaw       Kind = "nul-raw"      // a raw NUL byte inside a string
	InvalidUTF8  Kind = "invalid-utf8" // a raw invalid UTF-8 sequence inside a string
	WrongType    Kind = "wrong-type"   // a field of the wrong JSON type
	NotObject    Kind = "not-object"   // a file whose top level is not an object
	MissingID    Kind = "missing-id"   // the id field removed (or null, or "")
	TooDeep      Kind = "too-deep"     // an output nested 20000 deep (beyond the parser's bound)
	DirNamedJSON Kind = "dir-json"     // a directory called *.json in history/
	LinkOutside  Kind = "link-outside" // a symlink in history/ to a node file outside the session
	LinkBroken   Kind = "link-broken"  // a symlink in history/ to nothing

	// The session's skeleton.
	MissingMeta    Kind = "missing-meta"    // meta.json removed
	BrokenMeta     Kind = "broken-meta"     // meta.json truncated, not an object, or head_id of the wrong type
	MissingHistory Kind = "missing-history" // history/ removed
)

// Kinds is every kind.
var Kinds = []Kind{
	DanglingParent, DanglingCaller, ParentCycle, CallerCycle, UnknownHead,
	DuplicateID, DuplicateSeq, BigSeq, OddName,
	HugeOutput, NULEscaped, HostileID, MissingField, DeepNesting, NonFinite, LinkInside,
	Truncated, EmptyFile, HalfWritten, TmpLeftover, MetaTmp, InvalidJSON, NULRaw, InvalidUTF8,
	WrongType, NotObject, MissingID, TooDeep, DirNamedJSON, LinkOutside, LinkBroken,
	MissingMeta, BrokenMeta, MissingHistory,
}

// ModelKinds are the kinds the independent reader (model.ReadSessionDir)
// treats as the implementation does: it loads the same files, in the same
// order, with the same head. Left out: wrong-typed fields other than id and
// seq (the model reads them as empty values, the implementation refuses the
// file), a missing seq or created_at (the model skips / keeps null, the
// implementation numbers / defaults them), links leaving the directory and
// links to another node file (the model follows both; the implementation
// reads a node file once, under the name that is not a link), and an
// unparsable meta.json (the model cannot read the session at all). Within
// the kinds, a Corrupter with
// ForModel set avoids the remaining differences (see ForModel).
var ModelKinds = []Kind{
	DanglingParent, DanglingCaller, ParentCycle, CallerCycle, UnknownHead,
	DuplicateID, DuplicateSeq, BigSeq, OddName,
	HugeOutput, NULEscaped, HostileID, MissingField, DeepNesting, NonFinite,
	Truncated, EmptyFile, HalfWritten, TmpLeftover, MetaTmp, InvalidJSON, NULRaw, InvalidUTF8,
	NotObject, MissingID, TooDeep, DirNamedJSON, LinkBroken, MissingHistory, MissingMeta,
}

// Applied is one corruption done to a directory.
type Applied struct {
	Kind Kind
	File string // the file touched, relative to the session directory
	Note string // what was done
}

func (a Applied) String() string {
	if a.File == "" {
		return fmt.Sprintf("%s (%s)", a.Kind, a.Note)
	}
	return fmt.Sprintf("%s %s (%s)", a.Kind, a.File, a.Note)
}

// Phrases the readers' problem reports contain for each sort of damage.
const (
	PhraseJSON      = "invalid JSON"
	PhraseTmp       = "temporary file"
	PhraseRegular   = "not a regular file"
	PhraseOutside   = "outside the session directory"
	PhraseBroken    = "broken link"
	PhraseNotObject = "object"
	PhraseSameFile  = "same file as"
)

// Corrupter damages one session directory.
type Corrupter struct {
	Dir string
	src gen.Source
	// unusable maps a file (relative path) to the phrase its problem
	// report must contain.
	unusable map[string]string
	applied  []Applied
	fresh    int
	// links maps a file a symlink of LinkInside points at to the links.
	links map[string][]string
	// ForModel restricts the choices inside a kind to those both readers
	// treat alike: MissingField never removes seq or created_at, MissingID
	// never leaves an empty id (the model reads "" as an id), HostileID and
	// MissingField leave ROOT alone (the readers tell ROOT apart by
	// different marks), NonFinite leaves duration_seconds alone (the
	// implementation's card turns a NaN into a garbage duration_ms).
	ForModel bool
}

// New makes a Corrupter for the session directory dir.
func New(dir string, src gen.Source) *Corrupter {
	return &Corrupter{Dir: dir, src: src, unusable: map[string]string{}, links: map[string][]string{}}
}

// Corrupt applies n corruptions with kinds drawn from kinds (nil: Kinds) to
// the session directory dir.
func Corrupt(dir string, src gen.Source, kinds []Kind, n int) ([]Applied, error) {
	c := New(dir, src)
	for i := 0; i < n; i++ {
		if _, err := c.Apply(kinds); err != nil {
			return c.Applied(), err
		}
	}
	return c.Applied(), nil
}

// Applied lists the corruptions done so far, in order.
func (c *Corrupter) Applied() []Applied { return c.applied }

// Unusable returns the files the corruptions made unusable (relative
// paths), each with a phrase the problem reported for it must contain.
func (c *Corrupter) Unusable() map[string]string {
	out := make(map[string]string, len(c.unusable))
	for k, v := range c.unusable {
		out[k] = v
	}
	return out
}

// Apply draws a kind from kinds (nil: Kinds) and applies it. A kind that
// finds nothing to work on (no usable node file left, say) is recorded with
// the note "nothing to do".
func (c *Corrupter) Apply(kinds []Kind) (Applied, error) {
	if len(kinds) == 0 {
		kinds = Kinds
	}
	return c.ApplyKind(kinds[c.src.IntN(len(kinds), "corruption kind")])
}

// ApplyKind applies one corruption of kind k.
func (c *Corrupter) ApplyKind(k Kind) (Applied, error) {
	a, err := c.apply(k)
	a.Kind = k
	if err != nil {
		return a, fmt.Errorf("corrupt %s: %s: %w", c.Dir, k, err)
	}
	c.applied = append(c.applied, a)
	return a, nil
}

var errNothing = errors.New("nothing to do")

func (c *Corrupter) apply(k Kind) (Applied, error) {
	a, err := c.do(k)
	if errors.Is(err, errNothing) {
		return Applied{Note: "nothing to do"}, nil
	}
	return a, err
}

func (c *Corrupter) do(k Kind) (Applied, error) {
	f, ok := damage[k]
	if !ok {
		return Applied{}, fmt.Errorf("unknown kind %q", k)
	}
	return f(c, k)
}

// damage maps each kind to the method that does it.
var damage = map[Kind]func(*Corrupter, Kind) (Applied, error){
	DanglingParent: (*Corrupter).dangling,
	DanglingCaller: (*Corrupter).dangling,
	ParentCycle:    (*Corrupter).cycle,
	CallerCycle:    (*Corrupter).cycle,
	UnknownHead:    (*Corrupter).unknownHead,
	DuplicateID:    (*Corrupter).duplicateID,
	DuplicateSeq:   (*Corrupter).duplicateSeq,
	BigSeq:         (*Corrupter).bigSeq,
	OddName:        (*Corrupter).oddName,
	HugeOutput:     (*Corrupter).hugeOutput,
	NULEscaped:     (*Corrupter).nulEscaped,
	HostileID:      (*Corrupter).hostileID,
	MissingField:   (*Corrupter).missingField,
	DeepNesting:    (*Corrupter).deepNesting,
	NonFinite:      (*Corrupter).nonFinite,
	LinkInside:     (*Corrupter).linkInside,
	Truncated:      (*Corrupter).truncated,
	EmptyFile:      (*Corrupter).emptyFile,
	HalfWritten:    (*Corrupter).halfWritten,
	TmpLeftover:    (*Corrupter).tmpLeftover,
	MetaTmp:        (*Corrupter).metaTmp,
	InvalidJSON:    (*Corrupter).invalidJSON,
	NULRaw:         (*Corrupter).rawBytes,
	InvalidUTF8:    (*Corrupter).rawBytes,
	WrongType:      (*Corrupter).wrongType,
	NotObject:      (*Corrupter).notObject,
	MissingID:      (*Corrupter).missingID,
	TooDeep:        (*Corrupter).tooDeep,
	DirNamedJSON:   (*Corrupter).dirNamedJSON,
	LinkOutside:    (*Corrupter).linkOutside,
	LinkBroken:     (*Corrupter).linkBroken,
	MissingMeta:    (*Corrupter).missingMeta,
	BrokenMeta:     (*Corrupter).brokenMeta,
	MissingHistory: (*Corrupter).missingHistory,
}

// cycle makes 1–3 nodes point at each other in a ring.
func (c *Corrupter) cycle(k Kind) (Applied, error) {
	parent := k == ParentCycle
	files, err := c.usableFiles()
	if err != nil || len(files) == 0 {
		return Applied{}, cmp.Or(err, errNothing)
	}
	n := 1 + c.src.IntN(min(3, len(files)), "cycle length")
	var picked []string
	used := map[string]bool{}
	for len(picked) < n {
		f := files[c.src.IntN(len(files), "cycle member")]
		if used[f] {
			break // shorter ring: fewer draws to shrink
		}
		used[f] = true
		picked = append(picked, f)
	}
	objs := make([]*node.Obj, len(picked))
	ids := make([]string, len(picked))
	for i, f := range picked {
		o, err := c.readNode(f)
		if err != nil {
			return Applied{}, err
		}
		objs[i], ids[i] = o, o.Get("id").Str()
	}
	for i, o := range objs {
		setPointer(o, parent, ids[(i+1)%len(ids)])
		if err := c.writeNode(picked[i], o); err != nil {
			return Applied{}, err
		}
	}
	return Applied{File: picked[0], Note: fmt.Sprintf("ring %q", ids)}, nil
}

func (c *Corrupter) duplicateID(Kind) (Applied, error) {
	f, o, err := c.pickNode("original")
	if err != nil {
		return Applied{}, err
	}
	seq, _ := strconv.ParseInt(o.Get("seq").S, 10, 64)
	if c.src.IntN(2, "same seq") == 1 {
		m, err := c.maxSeq()
		if err != nil {
			return Applied{}, err
		}
		seq = m + 1
	}
	o.Set("seq", node.Num(strconv.FormatInt(seq, 10)))
	o.Set("output", node.Str(fmt.Sprintf("duplicate %d", c.fresh)))
	c.fresh++
	name := "history/" + fileName(seq, roleLetter(o), o.Get("id").Str())
	if store.ValidateID(o.Get("id").Str()) != nil {
		name = "history/" + fileName(seq, "z", c.freshID("copy")) // a hostile id: readers go by the contents
	}
	if c.exists(name) {
		name = "history/" + fileName(seq, "z", o.Get("id").Str()) // same seq and id: another name
		if c.exists(name) {
			return Applied{}, errNothing
		}
	}
	return Applied{File: name, Note: fmt.Sprintf("copy of %s at seq %d", f, seq)}, c.writeRaw(name, encode(o))
}

func (c *Corrupter) duplicateSeq(Kind) (Applied, error) {
	files, err := c.usableFiles()
	if err != nil || len(files) < 2 {
		return Applied{}, cmp.Or(err, errNothing)
	}
	a := files[c.src.IntN(len(files), "renumbered")]
	b := files[c.src.IntN(len(files), "seq of")]
	if a == b {
		return Applied{}, errNothing
	}
	oa, err := c.readNode(a)
	if err != nil {
		return Applied{}, err
	}
	ob, err := c.readNode(b)
	if err != nil {
		return Applied{}, err
	}
	oa.Set("seq", ob.Get("seq"))
	nf, err := c.renumber(a, oa)
	return Applied{File: nf, Note: fmt.Sprintf("seq of %s → %s (that of %s)", a, ob.Get("seq").S, b)}, err
}

// renumber writes o under the name its seq gives (if free) and removes f.
func (c *Corrupter) renumber(f string, o *node.Obj) (string, error) {
	seq, _ := strconv.ParseInt(o.Get("seq").S, 10, 64)
	nf := "history/" + fileName(seq, roleLetter(o), o.Get("id").Str())
	if store.ValidateID(o.Get("id").Str()) != nil || nf != f && c.exists(nf) || len(c.links[f]) > 0 {
		nf = f // keep the old name: readers go by the contents
	}
	if err := c.writeRaw(nf, encode(o)); err != nil {
		return "", err
	}
	if nf != f {
		return nf, os.Remove(c.path(f))
	}
	return nf, nil
}

// markUnusable records that f can no longer be loaded. A link to it stays
// refused as a second name of the file.
func (c *Corrupter) markUnusable(f, phrase string) {
	c.unusable[f] = phrase
}

// writeStale writes a temporary file as a writer that stopped an hour ago
// left it: younger, it would be a write in progress.
func (c *Corrupter) writeStale(rel string, data []byte) error {
	if err := os.WriteFile(c.path(rel), data, 0o644); err != nil {
		return err
	}
	old := time.Now().Add(-time.Hour)
	return os.Chtimes(c.path(rel), old, old)
}

// Files and names.

func (c *Corrupter) path(rel string) string { return filepath.Join(c.Dir, filepath.FromSlash(rel)) }

func (c *Corrupter) exists(rel string) bool {
	_, err := os.Lstat(c.path(rel))
	return err == nil
}

func (c *Corrupter) isDir(rel string) bool {
	fi, err := os.Stat(c.path(rel))
	return err == nil && fi.IsDir()
}

// usableFiles lists the regular history/*.json files not yet damaged, in
// name order: none when an earlier damage took history/ away, an error when
// it is there and cannot be read (a damage drawn on nothing would test
// nothing).
func (c *Corrupter) usableFiles() ([]string, error) {
	entries, err := os.ReadDir(c.path("history"))
	if err != nil {
		if !c.exists("history") || !c.isDir("history") {
			return nil, nil
		}
		return nil, fmt.Errorf("corrupt: %w", err)
	}
	var out []string
	for _, e := range entries {
		f := "history/" + e.Name()
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		if _, bad := c.unusable[f]; bad {
			continue
		}
		if _, err := c.readNode(f); err != nil {
			continue
		}
		out = append(out, f)
	}
	sort.Strings(out)
	return out, nil
}

func (c *Corrupter) pickFile(label string) (string, []byte, error) {
	files, err := c.usableFiles()
	if err != nil || len(files) == 0 {
		return "", nil, cmp.Or(err, errNothing)
	}
	f := files[c.src.IntN(len(files), label)]
	data, err := os.ReadFile(c.path(f))
	return f, data, err
}

func (c *Corrupter) pickNode(label string) (string, *node.Obj, error) {
	files, err := c.usableFiles()
	if err != nil || len(files) == 0 {
		return "", nil, cmp.Or(err, errNothing)
	}
	f := files[c.src.IntN(len(files), label)]
	o, err := c.readNode(f)
	return f, o, err
}

// pickNodeFor is pickNode for the kinds that take ROOT's identity apart
// (its id, its metadata.display): with ForModel it never picks ROOT, since
// the two readers tell ROOT apart differently (the implementation by
// display "root", the model's get_branch by the id "ROOT").
func (c *Corrupter) pickNodeFor(label string) (string, *node.Obj, error) {
	if !c.ForModel {
		return c.pickNode(label)
	}
	usable, err := c.usableFiles()
	if err != nil {
		return "", nil, err
	}
	var files []string
	for _, f := range usable {
		if o, err := c.readNode(f); err == nil && o.Get("id").Str() != node.RootID &&
			metaObjOf(o).Get("display").Str() != "root" {
			files = append(files, f)
		}
	}
	if len(files) == 0 {
		return "", nil, errNothing
	}
	f := files[c.src.IntN(len(files), label)]
	o, err := c.readNode(f)
	return f, o, err
}

func metaObjOf(o *node.Obj) *node.Obj {
	if m := o.Get("metadata"); m.K == node.Object {
		return m.O
	}
	return nil
}

// readNode parses a history file that is still a usable node object.
func (c *Corrupter) readNode(f string) (*node.Obj, error) {
	data, err := os.ReadFile(c.path(f))
	if err != nil {
		return nil, err
	}
	v, err := node.Parse(data)
	if err != nil {
		return nil, err
	}
	if v.K != node.Object || v.O.Get("seq").K != node.Number || v.O.Get("id").K != node.String {
		return nil, errors.New("not a node")
	}
	return v.O, nil
}

func (c *Corrupter) writeNode(f string, o *node.Obj) error { return c.writeRaw(f, encode(o)) }

// writeNodeWithOutput writes o with an output given as JSON text (too deep
// for the encoder's value to matter).
func (c *Corrupter) writeNodeWithOutput(f string, o *node.Obj, output string) error {
	o.Set("output", node.Str("\x01placeholder\x01"))
	data := encode(o)
	data = bytes.Replace(data, []byte(`"\u0001placeholder\u0001"`), []byte(output), 1)
	return c.writeRaw(f, data)
}

// writeRaw replaces a file's bytes; a symlink is replaced, never followed.
func (c *Corrupter) writeRaw(f string, data []byte) error {
	p := c.path(f)
	if fi, err := os.Lstat(p); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		if err := os.Remove(p); err != nil {
			return err
		}
	}
	return os.WriteFile(p, data, 0o644)
}

func (c *Corrupter) meta() (*node.Obj, error) {
	if _, bad := c.unusable["meta.json"]; bad {
		return nil, errNothing
	}
	data, err := os.ReadFile(c.path("meta.json"))
	if err != nil {
		return nil, errNothing
	}
	v, err := node.Parse(data)
	if err != nil || v.K != node.Object {
		return nil, errNothing
	}
	return v.O, nil
}

func (c *Corrupter) writeMeta(o *node.Obj) error { return c.writeRaw("meta.json", encode(o)) }

func (c *Corrupter) freshID(prefix string) string {
	c.fresh++
	return fmt.Sprintf("%s-%d", prefix, c.fresh)
}

// freshSeqName is a history file name past every usable file's seq.
func (c *Corrupter) freshSeqName(letter, id string) (string, error) {
	m, err := c.maxSeq()
	return "history/" + fileName(m+1, letter, id), err
}

func (c *Corrupter) maxSeq() (int64, error) {
	files, err := c.usableFiles()
	var m int64 = -1
	for _, f := range files {
		if o, err := c.readNode(f); err == nil {
			if s, err := strconv.ParseInt(o.Get("seq").S, 10, 64); err == nil && s > m {
				m = s
			}
		}
	}
	return m, err
}

func fileName(seq int64, letter, id string) string {
	return fmt.Sprintf("%04d-%s-%s.json", seq, letter, id)
}

func roleLetter(o *node.Obj) string {
	if r := o.Get("role").Str(); r != "" {
		return r[:1]
	}
	return "_"
}

func setPointer(o *node.Obj, parent bool, target string) {
	if parent {
		metaObj(o).Set("parent_id", node.Str(target))
	} else {
		o.Set("called_by", node.Str(target))
	}
}

// metaObj returns the node's metadata object, adding one if needed.
func metaObj(o *node.Obj) *node.Obj {
	if m := o.Get("metadata"); m.K == node.Object {
		return m.O
	}
	m := &node.Obj{}
	o.Set("metadata", node.ObjV(m))
	return m
}

func newNode(id string, seq int64) *node.Obj {
	o := &node.Obj{}
	o.Set("id", node.Str(id))
	o.Set("created_at", node.Num("1782000000.0"))
	o.Set("seq", node.Num(strconv.FormatInt(seq, 10)))
	o.Set("role", node.Str("user"))
	o.Set("name", node.Str(""))
	o.Set("input", node.NullV())
	o.Set("output", node.Str("from elsewhere"))
	o.Set("called_by", node.Str(""))
	o.Set("reads", node.Arr([]node.Value{}))
	o.Set("metadata", node.ObjV(&node.Obj{}))
	return o
}

// encode writes a node object as the original does: indent 2, non-ASCII kept.
func encode(o *node.Obj) []byte {
	return append(node.AppendIndent(nil, node.ObjV(o), ""), '\n')
}

func hugeText(size int) string {
	const line = "a line of tool output, ünïcode ☕, \"quoted\", tab\there\n"
	var b strings.Builder
	b.Grow(size + len(line))
	for b.Len() < size {
		b.WriteString(line)
	}
	return b.String()
}

func nested(depth int) string {
	return strings.Repeat("[", depth) + "1" + strings.Repeat("]", depth)
}

// CopyDir copies the tree at src to dst (which must not exist): regular
// files, directories and symbolic links (as links).
func CopyDir(dst, src string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(to, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(target, to)
		}
		in, err := os.Open(p)
		if err != nil {
			return err
		}
		defer in.Close()
		out, err := os.Create(to)
		if err != nil {
			return err
		}
		if _, err := io.Copy(out, in); err != nil {
			out.Close()
			return err
		}
		return out.Close()
	})
}
