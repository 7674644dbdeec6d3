package audit

import (
	"strings"

	"sessiondag/impl/flags"
	"sessiondag/impl/lane"
	"sessiondag/impl/store"
	"sessiondag/impl/webui"
)

// Where a row a step removes from the chain went, in the config the step
// turns on (docs/rollout.md §8).
const (
	// PlaceChain: still on the chain, shown inside another row (a tool
	// call folded into its reply, a function's internals in its card).
	PlaceChain = "chain"
	// PlaceBranch: on another branch, which a user brings on screen with
	// the sibling arrows or the branch list.
	PlaceBranch = "branch"
	// PlaceHead: shown only by a load at a head no arrow and no branch
	// list leads to (a checkout of that row in the side panel's graph).
	PlaceHead = "head"
	// PlaceLost: shown by no load of the config at all.
	PlaceLost = "lost"
)

// Place says where a removed row went.
type Place struct {
	Kind string `json:"kind"`
	// In is the row that shows it when that is another one: the reply a
	// tool call is folded into, the card holding a function's internals.
	In string `json:"in,omitempty"`
	// Tip is the head to load: the tip of its branch (PlaceBranch), the
	// row itself (PlaceHead).
	Tip string `json:"tip,omitempty"`
	// Via is the way to the branch: "switcher" (the sibling arrows of the
	// rows SwitchAt, in order, the first a row of the chain) or
	// "branch-list" (the tip it lists, then the arrows of SwitchAt).
	Via      string   `json:"via,omitempty"`
	SwitchAt []string `json:"switch_at,omitempty"`
	// Loaded: a load of the config at Tip showed the row. Past the
	// session's load budget the navigation model alone places it.
	Loaded bool `json:"loaded"`
}

// placeLoads bounds the loads that confirm places in one session, so that
// a session of any shape costs a fixed number of loads.
const placeLoads = 32

// placer places the rows a step removes, in the config the step turns on.
type placer struct {
	st     *store.Store
	anc    *anchors
	fl     flags.Set
	load   *webui.Loaded // at the stored head
	shown  shown
	nav    *navigation // built on first use
	loads  map[string]shown
	budget *int // loads left in this session
}

func newPlacer(st *store.Store, anc *anchors, fl flags.Set, l *webui.Loaded, budget *int) *placer {
	return &placer{st: st, anc: anc, fl: fl, load: l, shown: shownBy(l), loads: map[string]shown{}, budget: budget}
}

// place says where row id went.
func (p *placer) place(id string) Place {
	if in, ok := p.shows(p.shown, id); ok {
		return Place{Kind: PlaceChain, In: in, Loaded: true}
	}
	if p.nav == nil {
		p.nav = navigate(p.st, p.anc, p.fl, p.load)
	}
	holder := p.nav.holder(id)
	if r, ok := p.nav.find(holder); ok {
		pl := Place{Kind: PlaceBranch, Tip: r.tip, Via: r.via, SwitchAt: r.path}
		sh, loaded := p.loadAt(r.tip)
		if !loaded {
			return pl
		}
		if in, ok := p.shows(sh, id); ok {
			pl.Loaded = true
			if in != id {
				pl.In = in
			}
			return pl
		}
	}
	sh, loaded := p.loadAt(holder)
	switch {
	case !loaded && p.inAll(holder):
		return Place{Kind: PlaceHead, Tip: holder}
	case !loaded:
		return Place{Kind: PlaceLost}
	}
	if in, ok := p.shows(sh, id); ok {
		pl := Place{Kind: PlaceHead, Tip: holder, Loaded: true}
		if in != id {
			pl.In = in
		}
		return pl
	}
	return Place{Kind: PlaceLost, Loaded: true}
}

// shows reports whether a load shows row id, and in which of its rows: the
// row itself, a row holding it, or — for a row outside the conversation (a
// tool row, a function's internal, an ask_user question) — the
// conversation row it belongs to, which stands for its call.
func (p *placer) shows(sh shown, id string) (string, bool) {
	if in, ok := sh[id]; ok {
		return in, true
	}
	n, ok := p.st.Get(id)
	if !ok || lane.IsConv(n, p.st.Get) {
		return "", false
	}
	a := p.anc.at(id)
	in, ok := sh[a]
	return in, ok
}

func (p *placer) inAll(id string) bool {
	_, ok := p.nav.byID[id]
	return ok
}

// loadAt is what the config shows at another head (the stored head is
// left alone: the copy shares the session's indexes); false once the
// session's budget of loads is spent.
func (p *placer) loadAt(head string) (shown, bool) {
	if sh, ok := p.loads[head]; ok {
		return sh, true
	}
	if *p.budget <= 0 {
		return nil, false
	}
	*p.budget--
	sh := shownBy(webui.Load(p.st.AtHead(head), p.fl))
	p.loads[head] = sh
	return sh, true
}

// String says where the row went, in words.
func (p Place) String() string {
	var s string
	switch p.Kind {
	case PlaceChain:
		s = "still on the chain, in " + p.In
	case PlaceBranch:
		s = "on another branch (tip " + p.Tip + "): "
		switch p.Via {
		case viaBranchList:
			s += "the branch list"
			if len(p.SwitchAt) > 0 {
				s += ", then the sibling arrows of " + strings.Join(p.SwitchAt, ", then ")
			}
		default:
			s += "the sibling arrows of " + strings.Join(p.SwitchAt, ", then ")
		}
		if p.In != "" {
			s += ", in " + p.In
		}
	case PlaceHead:
		s = "only at its own head (" + p.Tip + "): no arrow and no branch list leads there"
	case PlaceLost:
		s = "lost: no load at any head shows it"
	default:
		return p.Kind
	}
	if !p.Loaded {
		s += " (by the navigation model: past the session's load budget)"
	}
	return s
}
