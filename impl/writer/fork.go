package writer

import (
	"errors"
	"fmt"
	"slices"
)

// Fork copies writers of one session (they share its store and clock) over
// a fork of its store (store.Store.Fork): later ops through the copies
// leave the originals alone, and the other way round.
func Fork(ws ...*Writer) ([]*Writer, error) {
	if len(ws) == 0 {
		return nil, errors.New("writer: fork of no writer")
	}
	s, err := ws[0].S.Fork()
	if err != nil {
		return nil, fmt.Errorf("writer: %w", err)
	}
	clk, stop, saved := *ws[0].clock, *ws[0].stop, *ws[0].saved
	out := make([]*Writer, len(ws))
	for i, w := range ws {
		if w.S != ws[0].S || w.clock != ws[0].clock {
			return nil, fmt.Errorf("writer: fork of writers of two sessions (%s, %s)", ws[0].S.ID, w.S.ID)
		}
		c := *w
		c.S, c.clock, c.stop, c.saved = s, &clk, &stop, &saved
		if w.clientHead != nil {
			h := *w.clientHead
			c.clientHead = &h
		}
		if w.pending != nil {
			p := *w.pending
			c.pending = &p
		}
		if w.reply != nil {
			r := *w.reply
			r.calls, r.blocks, r.texts = slices.Clone(r.calls), slices.Clone(r.blocks), slices.Clone(r.texts)
			c.reply = &r
		}
		c.frames = make([]*frame, len(w.frames))
		for j, f := range w.frames {
			g := *f
			c.frames[j] = &g
		}
		out[i] = &c
	}
	return out, nil
}
