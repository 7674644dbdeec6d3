package model

// Canonical encodings of the models' state, for fingerprints: two runs with
// equal encodings accept the same ops and show the same views from here on.
// Each type encodes every field that is not derived from the others; the
// derived ones (indexes, message memos) are named where they are left out.

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
)

// AppendState appends an unambiguous binary encoding of the writer state to
// b: the stored nodes and meta.json (AppendData), the in-memory head, the
// clock, the next seq, and each writer's state (the one performing the ops, then the
// parked ones in name order): its name, browser's head, pending turn, open
// reply with what it gathered, frame stack, and the rows its last compact
// op copied. Of the ops applied only whether there were
// any counts (`session` must be the first). Left out as derived from the
// nodes: byID, idx, indexed, memo, replies.
func (r *LegacyRun) AppendState(b []byte) []byte {
	b = r.AppendData(b)
	b = appendString(b, r.memHead)
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(r.clock))
	b = binary.AppendVarint(b, int64(r.ticks))
	b = binary.AppendVarint(b, int64(r.nextSeq))
	b = appendBool(appendBool(b, r.applied > 0), r.stopped)
	b = r.writerState.appendState(b)
	b = binary.AppendUvarint(b, uint64(len(r.parked)))
	for _, w := range r.parked {
		b = w.appendState(b)
	}
	return b
}

// appendState encodes one writer's state: its name, the browser's head,
// the pending turn, the open reply with what it gathered, the frame stack,
// the rows its last compact op copied.
func (w *writerState) appendState(b []byte) []byte {
	b = appendString(b, w.writer)
	b = appendBool(appendBool(appendBool(appendString(b, w.ch), w.chSet), w.chMade), w.runtime)
	b = appendString(appendString(b, w.pending), w.pendingSrc)
	b = appendBool(appendBool(appendString(b, w.reply), w.aborted), w.unheard)
	b = appendValue(b, w.blocks)
	b = appendValue(b, w.toolCalls)
	b = binary.AppendUvarint(b, uint64(len(w.frames)))
	for _, f := range w.frames {
		b = appendString(appendBool(appendString(b, f.id), f.manual), f.lastExec)
		b = appendString(appendString(b, f.call), f.input)
	}
	b = appendStrings(b, w.compacted)
	if w.spawn == nil {
		return appendBool(b, false)
	}
	sp := w.spawn
	b = appendStrings(appendBool(b, true), []string{sp.cmd, sp.attach, sp.caller, sp.label, sp.prompt})
	b = appendStrings(appendBool(b, sp.async), []string{sp.followup, sp.taskID})
	if o := sp.task; o != nil {
		b = appendStrings(appendBool(b, true), []string{o.call, o.context, o.pending, o.pendingSrc, o.reply})
		return appendBool(appendBool(appendValue(appendValue(b, o.blocks), o.toolCalls), o.aborted), o.unheard)
	}
	return appendBool(b, false)
}

// AppendData appends an unambiguous binary encoding of what View reads to
// b: the session id, the stored nodes in append order and meta.json (whose
// head_id is the persisted head).
func (r *LegacyRun) AppendData(b []byte) []byte {
	b = appendString(b, r.sid)
	b = binary.AppendUvarint(b, uint64(len(r.nodes)))
	for _, n := range r.nodes {
		b = appendString(b, n.ID)
		b = appendValue(b, n.CreatedAt)
		b = binary.AppendVarint(b, int64(n.Seq))
		b = appendString(appendString(b, n.Role), n.Name)
		b = appendValue(appendValue(b, n.Input), n.Output)
		b = appendString(b, n.CalledBy)
		b = appendValue(appendValue(b, n.Reads), n.Metadata)
	}
	return appendValue(b, r.meta)
}

// AppendState appends an unambiguous binary encoding of the intent to b:
// the embedded writer's state, the conversation rows in seq order with
// their intended parents, and the maps that place the other nodes (in key
// order). Left out as derived from the rows: byID, attachAt.
func (r *TargetRun) AppendState(b []byte) []byte {
	b = r.leg.AppendState(b)
	b = binary.AppendUvarint(b, uint64(len(r.rows)))
	for _, t := range r.rows {
		b = appendString(appendString(b, t.id), t.ip)
		b = appendBool(appendBool(appendBool(appendBool(b, t.card), t.user), t.attach), t.spawnRoot)
		b = appendStrings(b, t.calls)
	}
	b = appendMap(b, r.anchor, appendString)
	b = appendMap(b, r.rewound, appendBool)
	b = appendMap(b, r.early, appendStrings)
	b = appendMap(b, r.recorded, appendStrings)
	b = appendMap(b, r.finished, appendBool)
	b = appendMap(b, r.viaExec, appendString)
	b = appendMap(b, r.spawnAt, appendString)
	b = appendMap(b, r.taskCall, appendString)
	return appendMap(b, r.callers, appendString)
}

// AppendState appends an unambiguous binary encoding of the view to b.
func (v TargetView) AppendState(b []byte) []byte {
	b = appendString(b, v.HeadID)
	b = binary.AppendUvarint(b, uint64(len(v.Chain)))
	for _, row := range v.Chain {
		b = appendStrings(appendString(appendString(b, row.ID), row.Kind), row.Calls)
	}
	return b
}

// appendValue encodes one value of this package's JSON representation.
func appendValue(b []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(b, 'n')
	case bool:
		return appendBool(append(b, 'b'), x)
	case string:
		return appendString(append(b, 's'), x)
	case Int:
		return appendString(append(b, 'i'), string(x))
	case Float:
		return binary.LittleEndian.AppendUint64(append(b, 'f'), math.Float64bits(float64(x)))
	case []any:
		b = binary.AppendUvarint(append(b, 'a'), uint64(len(x)))
		for _, e := range x {
			b = appendValue(b, e)
		}
		return b
	case *Object:
		if x == nil {
			return append(b, 'N')
		}
		b = binary.AppendUvarint(append(b, 'o'), uint64(len(x.Fields)))
		for _, f := range x.Fields {
			b = appendValue(appendString(b, f.Key), f.Val)
		}
		return b
	}
	panic(fmt.Sprintf("model: %T is not a JSON value of this package", v))
}

func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

func appendBool(b []byte, x bool) []byte {
	if x {
		return append(b, 1)
	}
	return append(b, 0)
}

func appendStrings(b []byte, ss []string) []byte {
	b = binary.AppendUvarint(b, uint64(len(ss)))
	for _, s := range ss {
		b = appendString(b, s)
	}
	return b
}

// appendMap encodes a map in key order.
func appendMap[V any](b []byte, m map[string]V, val func([]byte, V) []byte) []byte {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b = binary.AppendUvarint(b, uint64(len(keys)))
	for _, k := range keys {
		b = val(appendString(b, k), m[k])
	}
	return b
}
