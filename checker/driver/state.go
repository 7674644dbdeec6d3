package driver

import (
	"encoding/binary"

	"sessiondag/impl/node"
)

// AppendState appends an unambiguous binary encoding of the implementation's
// session state to b: the name and state of the writer performing the ops
// (the browser's head, the pending turn, the open reply, the running
// functions, the clock, its flags: writer.Writer.AppendState), every other
// writer named so far in name order, and the store they share
// (store.Store.AppendState). What loads keep in the store's memos is not
// part of it.
func (r *Run) AppendState(b []byte) []byte {
	b = r.W.AppendState(node.AppendString(b, r.name))
	b = binary.AppendUvarint(b, uint64(len(r.parked)))
	for _, p := range r.parked {
		b = p.w.AppendState(node.AppendString(b, p.name))
	}
	return r.W.S.AppendState(b)
}
