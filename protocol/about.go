package protocol

import (
	"fmt"
	"slices"
	"strings"

	"sessiondag/impl/flags"
)

// Claim is what an implementation says it is; it decides the properties it
// is held to (docs/protocol.md, "Handshake").
type Claim string

// The claims.
const (
	ClaimLegacy  Claim = "legacy"  // the original before the rollout: model.Legacy's views
	ClaimTarget  Claim = "target"  // the conversation as each op meant it: model.Target
	ClaimRollout Claim = "rollout" // loads under configs of the rollout path, each held to its own claim
)

// ConfigTarget is the one config of an implementation that claims the
// target and has no flags: whatever flag set a check loads under, it is
// this.
const ConfigTarget = "target"

// The views an implementation may return beyond the load (session_id,
// head_id, fallback_used, chain), by the names of the handshake.
const (
	ViewStoredHead  = "stored_head"
	ViewMessages    = "messages"
	ViewAll         = "all"
	ViewBranch      = "branch"
	ViewRender      = "render"
	ViewBeforeCards = "before_cards" // the chain before the runtime-card pass
)

// OptionalViews lists them in the order docs/protocol.md does.
var OptionalViews = []string{ViewStoredHead, ViewMessages, ViewAll, ViewBranch, ViewRender, ViewBeforeCards}

// About is what an implementation declares of itself in its handshake.
type About struct {
	Name    string
	Command string // the command that starts it ("" in-process)
	Claim   Claim
	Ops     []string // the op kinds it writes; nil = every kind
	Configs []string // the configs it loads under ("off", "A,B", …, or ConfigTarget)
	Views   []string // the views it returns beyond the load
	Restart bool     // it supports Restart
	// Unmodelled are message keys whose values the op language does not
	// determine for it (its own clock readings, token counts, a process
	// id): left out of every message of both sides before a comparison.
	Unmodelled []string
	// Together are pairs of op kinds it writes in one step (the user's
	// message and the start of its reply, say): an op of a pair's first
	// kind is always followed by one of its second, and there is no view
	// between the two to judge.
	Together [][2]string
	// Without are the variants of its op kinds it cannot write, by the
	// generator's names (gen.Without): the generator draws none of them.
	Without []string
	// InProcess is set for the implementation in this repository run in
	// the harness's own process: the checks that read its internals run.
	InProcess bool
}

// Writes reports whether the implementation writes ops of a kind.
func (a About) Writes(kind string) bool {
	return a.Ops == nil || kind == "session" || slices.Contains(a.Ops, kind)
}

// Joined is the op kind it writes in one step with an op of kind k, which
// must come next (About.Together), or "".
func (a About) Joined(kind string) string {
	for _, p := range a.Together {
		if p[0] == kind {
			return p[1]
		}
	}
	return ""
}

// Returns reports whether it returns a view (the load's keys always).
func (a About) Returns(view string) bool { return a.InProcess || slices.Contains(a.Views, view) }

// Config is the config a load under fl asks the implementation for, or an
// error when it does not load under it.
func (a About) Config(fl flags.Set) (string, error) {
	if a.Claim == ClaimTarget && slices.Contains(a.Configs, ConfigTarget) {
		return ConfigTarget, nil
	}
	c := fl.String()
	if !slices.Contains(a.Configs, c) {
		return "", fmt.Errorf("%s does not load under flags %s (configs: %s)", a.Name, c, strings.Join(a.Configs, " "))
	}
	return c, nil
}
