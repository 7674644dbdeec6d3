package robust

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"sessiondag/impl/node"
)

// The kinds that leave every file a valid node: pointers, numbering and
// unusual contents. A reader must load them all.

func (c *Corrupter) dangling(k Kind) (Applied, error) {
	f, o, err := c.pickNode("victim")
	if err != nil {
		return Applied{}, err
	}
	target := c.freshID("gone")
	setPointer(o, k == DanglingParent, target)
	return Applied{File: f, Note: "→ " + target}, c.writeNode(f, o)
}

func (c *Corrupter) unknownHead(_ Kind) (Applied, error) {
	o, err := c.meta()
	if err != nil {
		return Applied{}, err
	}
	target := c.freshID("nowhere")
	o.Set("head_id", node.Str(target))
	return Applied{File: "meta.json", Note: "head_id → " + target}, c.writeMeta(o)
}

func (c *Corrupter) bigSeq(_ Kind) (Applied, error) {
	f, o, err := c.pickNode("victim")
	if err != nil {
		return Applied{}, err
	}
	seq := 10000 + c.src.IntN(100000, "big seq")
	o.Set("seq", node.Num(strconv.Itoa(seq)))
	nf, err := c.renumber(f, o)
	return Applied{File: nf, Note: fmt.Sprintf("seq → %d", seq)}, err
}

func (c *Corrupter) oddName(_ Kind) (Applied, error) {
	f, _, err := c.pickNode("victim")
	if err != nil {
		return Applied{}, err
	}
	names := []string{"0003-u-with space.json", "0004-u-ünïcode☕.json", "0005-u-\xff\xfe.json", ".json", "-.json", "0006-u-x.json.json"}
	nf := "history/" + names[c.src.IntN(len(names), "odd name")]
	if c.exists(nf) || len(c.links[f]) > 0 {
		return Applied{}, errNothing
	}
	return Applied{File: nf, Note: "renamed from " + f}, os.Rename(c.path(f), c.path(nf))
}

func (c *Corrupter) hugeOutput(_ Kind) (Applied, error) {
	f, o, err := c.pickNode("victim")
	if err != nil {
		return Applied{}, err
	}
	size := (256 << 10) << c.src.IntN(4, "huge size")
	o.Set("output", node.Str(hugeText(size)))
	return Applied{File: f, Note: fmt.Sprintf("output of %d bytes", size)}, c.writeNode(f, o)
}

func (c *Corrupter) nulEscaped(_ Kind) (Applied, error) {
	f, o, err := c.pickNode("victim")
	if err != nil {
		return Applied{}, err
	}
	switch c.src.IntN(3, "nul where") {
	case 0:
		o.Set("output", node.Str("before\x00after"))
	case 1:
		o.Set("name", node.Str("\x00"))
	default:
		metaObj(o).Set("nul\x00key", node.Str("v\x00"))
	}
	return Applied{File: f, Note: `\u0000 in strings`}, c.writeNode(f, o)
}

func (c *Corrupter) hostileID(_ Kind) (Applied, error) {
	f, o, err := c.pickNodeFor("victim")
	if err != nil {
		return Applied{}, err
	}
	ids := []string{"../x", "a/b", "..", ".", "x\x00y", "/etc/passwd", `..\..\x`, "ROOT/../../escape", strings.Repeat("a", 300)}
	id := ids[c.src.IntN(len(ids), "hostile id")]
	o.Set("id", node.Str(id))
	return Applied{File: f, Note: fmt.Sprintf("id → %q", id)}, c.writeNode(f, o)
}

func (c *Corrupter) missingField(_ Kind) (Applied, error) {
	f, o, err := c.pickNodeFor("victim")
	if err != nil {
		return Applied{}, err
	}
	fields := []string{"name", "input", "output", "called_by", "reads", "metadata", "role", "created_at", "seq"}
	if c.ForModel {
		fields = fields[:7]
	}
	field := fields[c.src.IntN(len(fields), "missing field")]
	o.Delete(field)
	return Applied{File: f, Note: "without " + field}, c.writeNode(f, o)
}

func (c *Corrupter) deepNesting(_ Kind) (Applied, error) {
	f, o, err := c.pickNode("victim")
	if err != nil {
		return Applied{}, err
	}
	depth := []int{50, 5000}[c.src.IntN(2, "depth")]
	return Applied{File: f, Note: fmt.Sprintf("output nested %d deep", depth)}, c.writeNodeWithOutput(f, o, nested(depth))
}

func (c *Corrupter) nonFinite(_ Kind) (Applied, error) {
	f, o, err := c.pickNode("victim")
	if err != nil {
		return Applied{}, err
	}
	lits := []string{"NaN", "Infinity", "-Infinity", "1e400"}
	lit := node.Num(lits[c.src.IntN(len(lits), "literal")])
	var where string
	places := 4
	if c.ForModel {
		// Not duration_seconds: the implementation's runtime card
		// turns a NaN or infinite one into a garbage duration_ms,
		// the model leaves it out (TestNonFiniteDuration).
		places = 3
	}
	switch c.src.IntN(places, "where") {
	case 0:
		where = "output"
		o.Set("output", lit)
	case 1:
		where = "created_at"
		o.Set("created_at", lit)
	case 2:
		where = "input"
		o.Set("input", node.Arr([]node.Value{node.ObjV(&node.Obj{M: []node.Member{{Key: "x", Val: lit}}})}))
	default:
		where = "metadata.duration_seconds"
		metaObj(o).Set("duration_seconds", lit)
	}
	return Applied{File: f, Note: where + " " + lit.S}, c.writeNode(f, o)
}

func (c *Corrupter) linkInside(_ Kind) (Applied, error) {
	f, _, err := c.pickNode("target")
	if err != nil {
		return Applied{}, err
	}
	nf, err := c.freshSeqName("u", c.freshID("alias"))
	if err != nil {
		return Applied{}, err
	}
	c.links[f] = append(c.links[f], nf)
	c.unusable[nf] = PhraseSameFile
	return Applied{File: nf, Note: "link to " + f}, os.Symlink(filepath.Base(f), c.path(nf))
}
