package robust

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"sessiondag/impl/node"
)

// The kinds that make a file unusable, or damage the session's skeleton: a
// reader must report each in its problems, naming the file.

func (c *Corrupter) truncated(_ Kind) (Applied, error) {
	f, data, err := c.pickFile("victim")
	if err != nil {
		return Applied{}, err
	}
	// Every proper prefix of an object text without its closing brace
	// is invalid JSON; the files end in "}\n", so cut at most len-2.
	cut := c.src.IntN(len(data)-1, "cut")
	c.markUnusable(f, PhraseJSON)
	return Applied{File: f, Note: fmt.Sprintf("cut to %d of %d bytes", cut, len(data))}, os.WriteFile(c.path(f), data[:cut], 0o644)
}

func (c *Corrupter) emptyFile(_ Kind) (Applied, error) {
	f, _, err := c.pickFile("victim")
	if err != nil {
		return Applied{}, err
	}
	c.markUnusable(f, PhraseJSON)
	return Applied{File: f, Note: "0 bytes"}, os.WriteFile(c.path(f), nil, 0o644)
}

func (c *Corrupter) halfWritten(_ Kind) (Applied, error) {
	f, o, err := c.pickNode("victim")
	if err != nil {
		return Applied{}, err
	}
	o.Set("output", node.Str("the new version"))
	data := encode(o)
	tmp := f + ".tmp"
	c.markUnusable(tmp, PhraseTmp)
	return Applied{File: tmp, Note: "half of a new version beside " + f}, c.writeStale(tmp, data[:len(data)/2])
}

func (c *Corrupter) tmpLeftover(_ Kind) (Applied, error) {
	if !c.isDir("history") {
		return Applied{}, errNothing
	}
	id := c.freshID("never")
	o := newNode(id, 9000+int64(c.fresh))
	tmp := "history/" + fileName(9000+int64(c.fresh), "u", id) + ".tmp"
	c.markUnusable(tmp, PhraseTmp)
	return Applied{File: tmp, Note: "a complete node never renamed into place"}, c.writeStale(tmp, encode(o))
}

func (c *Corrupter) metaTmp(_ Kind) (Applied, error) {
	if !c.exists("meta.json") {
		return Applied{}, errNothing
	}
	data, err := os.ReadFile(c.path("meta.json"))
	if err != nil {
		return Applied{}, err
	}
	c.unusable["meta.json.tmp"] = PhraseTmp
	return Applied{File: "meta.json.tmp", Note: "half of a meta write"}, c.writeStale("meta.json.tmp", data[:len(data)/2])
}

func (c *Corrupter) invalidJSON(_ Kind) (Applied, error) {
	f, data, err := c.pickFile("victim")
	if err != nil {
		return Applied{}, err
	}
	var bad []byte
	var note string
	switch c.src.IntN(4, "syntax error") {
	case 0:
		bad, note = bytes.Replace(data, []byte(`": `), []byte(`"; `), 1), "a key's colon → ;"
	case 1:
		bad, note = append([]byte("x"), data...), "a stray byte before the object"
	case 2:
		bad, note = append(append([]byte{}, data...), ",}"...), "trailing data"
	default:
		bad, note = bytes.Replace(data, []byte("{"), []byte("{,"), 1), "a comma after {"
	}
	c.markUnusable(f, PhraseJSON)
	return Applied{File: f, Note: note}, os.WriteFile(c.path(f), bad, 0o644)
}

func (c *Corrupter) rawBytes(k Kind) (Applied, error) {
	f, data, err := c.pickFile("victim")
	if err != nil {
		return Applied{}, err
	}
	// Inside the id's string: the first string value of the file.
	at := bytes.Index(data, []byte(`"id": "`))
	if at < 0 {
		return Applied{}, errNothing
	}
	at += len(`"id": "`)
	ins := []byte{0}
	if k == InvalidUTF8 {
		seqs := [][]byte{{0xff}, {0xc3}, {0xed, 0xa0, 0x80}, {0xf4, 0x90, 0x80, 0x80}}
		ins = seqs[c.src.IntN(len(seqs), "invalid utf-8")]
	}
	bad := append(append(append([]byte{}, data[:at]...), ins...), data[at:]...)
	c.markUnusable(f, PhraseJSON)
	return Applied{File: f, Note: fmt.Sprintf("bytes %q in the id", ins)}, os.WriteFile(c.path(f), bad, 0o644)
}

func (c *Corrupter) wrongType(_ Kind) (Applied, error) {
	f, o, err := c.pickNode("victim")
	if err != nil {
		return Applied{}, err
	}
	type wrong struct {
		field string
		val   string
	}
	choices := []wrong{
		{"seq", `"3"`}, {"seq", `1.5`}, {"seq", `null`}, {"seq", `{}`}, {"seq", `99999999999999999999`},
		{"id", `7`}, {"id", `["a"]`}, {"id", `true`},
		{"created_at", `"yesterday"`}, {"created_at", `[]`},
		{"role", `5`}, {"name", `[]`}, {"called_by", `{"id": "x"}`}, {"metadata", `[]`}, {"metadata", `"x"`},
	}
	w := choices[c.src.IntN(len(choices), "wrong type")]
	v, _ := node.Parse([]byte(w.val))
	o.Set(w.field, v)
	c.markUnusable(f, fmt.Sprintf("field %q", w.field))
	return Applied{File: f, Note: w.field + " = " + w.val}, c.writeRaw(f, encode(o))
}

func (c *Corrupter) notObject(_ Kind) (Applied, error) {
	f, _, err := c.pickFile("victim")
	if err != nil {
		return Applied{}, err
	}
	tops := []string{`[1, 2]`, `"a string"`, `null`, `42`}
	top := tops[c.src.IntN(len(tops), "top level")]
	c.markUnusable(f, PhraseNotObject)
	return Applied{File: f, Note: "top level " + top}, os.WriteFile(c.path(f), []byte(top+"\n"), 0o644)
}

func (c *Corrupter) missingID(_ Kind) (Applied, error) {
	f, o, err := c.pickNode("victim")
	if err != nil {
		return Applied{}, err
	}
	ways := 3
	if c.ForModel {
		ways = 2 // the model reads an id "" as an id
	}
	switch c.src.IntN(ways, "how") {
	case 0:
		o.Delete("id")
	case 1:
		o.Set("id", node.NullV())
	default:
		o.Set("id", node.Str(""))
	}
	c.markUnusable(f, `field "id"`)
	return Applied{File: f, Note: "no usable id"}, c.writeRaw(f, encode(o))
}

func (c *Corrupter) tooDeep(_ Kind) (Applied, error) {
	f, o, err := c.pickNode("victim")
	if err != nil {
		return Applied{}, err
	}
	c.markUnusable(f, PhraseJSON)
	return Applied{File: f, Note: "output nested 20000 deep"}, c.writeNodeWithOutput(f, o, nested(20000))
}

func (c *Corrupter) dirNamedJSON(_ Kind) (Applied, error) {
	if !c.isDir("history") {
		return Applied{}, errNothing
	}
	nf, err := c.freshSeqName("u", c.freshID("dir"))
	if err != nil {
		return Applied{}, err
	}
	c.markUnusable(nf, PhraseRegular)
	return Applied{File: nf, Note: "a directory"}, os.Mkdir(c.path(nf), 0o755)
}

func (c *Corrupter) linkOutside(_ Kind) (Applied, error) {
	if !c.isDir("history") {
		return Applied{}, errNothing
	}
	id := c.freshID("outside")
	outside := filepath.Join(filepath.Dir(filepath.Clean(c.Dir)), id+".json")
	if err := os.WriteFile(outside, encode(newNode(id, 8000)), 0o644); err != nil {
		return Applied{}, err
	}
	nf := "history/" + fileName(8000, "u", id)
	c.markUnusable(nf, PhraseOutside)
	return Applied{File: nf, Note: "link to " + outside}, os.Symlink(outside, c.path(nf))
}

func (c *Corrupter) linkBroken(_ Kind) (Applied, error) {
	if !c.isDir("history") {
		return Applied{}, errNothing
	}
	nf, err := c.freshSeqName("u", c.freshID("broken"))
	if err != nil {
		return Applied{}, err
	}
	c.markUnusable(nf, PhraseBroken)
	return Applied{File: nf, Note: "link to nothing"}, os.Symlink("does-not-exist.json", c.path(nf))
}

func (c *Corrupter) missingMeta(_ Kind) (Applied, error) {
	if !c.exists("meta.json") {
		return Applied{}, errNothing
	}
	// Not a problem: the original writes meta.json only at a turn's end.
	// A meta.json broken earlier is gone with it, and so is its problem.
	delete(c.unusable, "meta.json")
	return Applied{File: "meta.json"}, os.Remove(c.path("meta.json"))
}

func (c *Corrupter) brokenMeta(_ Kind) (Applied, error) {
	data, err := os.ReadFile(c.path("meta.json"))
	if err != nil {
		return Applied{}, errNothing
	}
	switch c.src.IntN(3, "broken meta") {
	case 0:
		c.unusable["meta.json"] = PhraseJSON
		return Applied{File: "meta.json", Note: "cut short"}, os.WriteFile(c.path("meta.json"), data[:len(data)/2], 0o644)
	case 1:
		c.unusable["meta.json"] = PhraseNotObject
		return Applied{File: "meta.json", Note: "a list"}, os.WriteFile(c.path("meta.json"), []byte("[]\n"), 0o644)
	default:
		o, err := c.meta()
		if err != nil {
			return Applied{}, err
		}
		o.Set("head_id", node.Num("5"))
		c.unusable["meta.json"] = `field "head_id"`
		return Applied{File: "meta.json", Note: "head_id 5"}, c.writeMeta(o)
	}
}

func (c *Corrupter) missingHistory(_ Kind) (Applied, error) {
	if !c.isDir("history") {
		return Applied{}, errNothing
	}
	for f := range c.unusable {
		if strings.HasPrefix(f, "history/") {
			delete(c.unusable, f)
		}
	}
	c.links = map[string][]string{}
	return Applied{File: "history/"}, os.RemoveAll(c.path("history"))
}
