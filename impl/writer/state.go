package writer

import (
	"encoding/binary"
	"math"

	"sessiondag/impl/node"
)

// AppendState appends an unambiguous binary encoding of the state the
// writer keeps beside its store to b: the flags it writes with, the
// browser's head (null apart from ""), the pending turn, the open reply with
// what it gathered, the running functions, and the clock (shared with its
// peers). Together with the store's AppendState it is everything that
// decides what the writer does next.
func (w *Writer) AppendState(b []byte) []byte {
	b = binary.AppendUvarint(b, uint64(w.Flags))
	if !w.conv {
		b = append(b, 2)
	} else if w.clientHead == nil {
		b = append(b, 0)
	} else {
		b = node.AppendString(append(b, 1), *w.clientHead)
	}
	if w.pending == nil {
		b = append(b, 0)
	} else {
		b = node.AppendString(node.AppendString(append(b, 1), w.pending.user), w.pending.source)
	}
	b = append(b, boolByte(*w.stop), boolByte(w.aborted), byte(*w.saved), boolByte(w.runtime))
	if w.reply == nil {
		b = append(b, 0)
	} else {
		b = append(node.AppendString(append(b, 1), w.reply.id), boolByte(w.reply.unheard))
		b = appendValues(b, w.reply.calls)
		b = appendValues(b, w.reply.blocks)
		b = binary.AppendUvarint(b, uint64(len(w.reply.texts)))
		for _, t := range w.reply.texts {
			b = node.AppendString(b, t)
		}
	}
	b = binary.AppendUvarint(b, uint64(len(w.frames)))
	for _, f := range w.frames {
		b = node.AppendString(b, f.id)
		if f.manual {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
		b = node.AppendString(b, f.lastExec)
		b = node.AppendString(node.AppendString(b, f.call), f.input)
	}
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(w.clock.base))
	return binary.AppendVarint(b, int64(w.clock.ticks))
}

func appendValues(b []byte, vs []node.Value) []byte {
	b = binary.AppendUvarint(b, uint64(len(vs)))
	for _, v := range vs {
		b = node.AppendState(b, v)
	}
	return b
}

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}
