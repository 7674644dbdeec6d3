package webui

import "sessiondag/impl/node"

// Head is the head a load shows the browser: a node id, or none. None is the
// original's None (no stored head and no message to fall back to), which it
// sends as null; under flag B also a head that stands for no conversation
// row. The zero value is none.
type Head struct {
	id string
	ok bool
}

// HeadAt is the head on id.
func HeadAt(id string) Head { return Head{id: id, ok: true} }

// Get returns the head's id and whether there is a head.
func (h Head) Get() (string, bool) { return h.id, h.ok }

// ID is the head's id, "" for none (where callers key by string ids).
func (h Head) ID() string { return h.id }

// String is the id, or "none" (for transcripts and messages).
func (h Head) String() string {
	if !h.ok {
		return "none"
	}
	return h.id
}

// MarshalJSON sends the id as a string, or null for none.
func (h Head) MarshalJSON() ([]byte, error) {
	if !h.ok {
		return node.NullV().MarshalJSON()
	}
	return node.Str(h.id).MarshalJSON()
}

// walkable reports whether the load walks from the head: the original tests
// the head for truth, so an empty id walks nowhere.
func (h Head) walkable() bool { return h.ok && h.id != "" }
