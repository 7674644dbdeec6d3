package remote

import (
	"fmt"
	"slices"
	"strings"

	"sessiondag/checker/gen"
	"sessiondag/checker/harness"
	"sessiondag/impl/flags"
	"sessiondag/impl/node"
	"sessiondag/ops"
)

// Version is the protocol version of docs/protocol.md.
const Version = 1

// The requests, as they go down the wire (field order as docs/protocol.md
// shows them).
type (
	helloRequest struct {
		Type     string `json:"type"`
		Protocol int    `json:"protocol"`
	}
	sessionRequest struct {
		Type   string `json:"type"`
		ID     string `json:"id"`
		Dir    string `json:"dir"`
		Writer string `json:"writer"`
	}
	opRequest struct {
		Type string `json:"type"`
		Seq  int    `json:"seq"`
		Op   string `json:"op"`
	}
	viewRequest struct {
		Type   string `json:"type"`
		Config string `json:"config"`
	}
	plainRequest struct {
		Type string `json:"type"`
	}
)

// Configs are the configs an implementation may declare: the flag sets of
// the rollout path, and harness.ConfigTarget.
var Configs = func() []string {
	var out []string
	for _, fl := range flags.Rollout {
		out = append(out, fl.String())
	}
	return append(out, harness.ConfigTarget)
}()

// Claims are the claims an implementation may make.
var Claims = []harness.Claim{harness.ClaimLegacy, harness.ClaimTarget, harness.ClaimRollout}

// parseHello reads a hello reply into what the implementation declares,
// refusing anything the harness does not know.
func parseHello(v node.Value, command string) (harness.About, error) {
	a := harness.About{Command: command}
	if p := v.O.Get("protocol"); p.K != node.Number || p.S != fmt.Sprint(Version) {
		return a, fmt.Errorf("protocol %s, want %d", node.Dumps(p), Version)
	}
	name := v.O.Get("name")
	if name.K != node.String || name.S == "" {
		return a, fmt.Errorf("name %s: want a non-empty string", node.Dumps(name))
	}
	a.Name = name.S
	claim := v.O.Get("claims")
	if claim.K != node.String || !slices.Contains(Claims, harness.Claim(claim.S)) {
		return a, fmt.Errorf("claims %s: want one of legacy, target, rollout", node.Dumps(claim))
	}
	a.Claim = harness.Claim(claim.S)
	var err error
	kinds := ops.Kinds()
	if a.Ops, err = stringList(v.O.Get("ops"), "ops", func(k string) bool { return slices.Contains(kinds, k) }); err != nil {
		return a, err
	}
	if len(a.Ops) == 0 {
		return a, fmt.Errorf("ops: no op kind declared")
	}
	if a.Configs, err = stringList(v.O.Get("configs"), "configs", func(c string) bool { return slices.Contains(Configs, c) }); err != nil {
		return a, err
	}
	switch {
	case len(a.Configs) == 0:
		return a, fmt.Errorf("configs: none declared")
	case slices.Contains(a.Configs, harness.ConfigTarget) && (a.Claim != harness.ClaimTarget || len(a.Configs) > 1):
		return a, fmt.Errorf("configs %v: %q is the one config of an implementation that claims the target", a.Configs, harness.ConfigTarget)
	case a.Claim == harness.ClaimLegacy && !slices.Contains(a.Configs, "off"):
		return a, fmt.Errorf("configs %v: an implementation that claims the legacy loads under off", a.Configs)
	}
	views, err := stringList(v.O.Get("views"), "views", func(w string) bool { return w == "load" || slices.Contains(harness.OptionalViews, w) })
	if err != nil {
		return a, err
	}
	if !slices.Contains(views, "load") {
		return a, fmt.Errorf("views %v: the load view is required", views)
	}
	for _, w := range harness.OptionalViews {
		if slices.Contains(views, w) {
			a.Views = append(a.Views, w)
		}
	}
	if u := v.O.Get("unmodelled"); u.K != node.Missing {
		if a.Unmodelled, err = stringList(u, "unmodelled", func(k string) bool { return k != "" && k != "id" }); err != nil {
			return a, err
		}
	}
	if a.Together, err = together(v.O.Get("together"), a.Ops); err != nil {
		return a, err
	}
	if w := v.O.Get("without"); w.K != node.Missing {
		if a.Without, err = stringList(w, "without", func(string) bool { return true }); err != nil {
			return a, err
		}
		if _, _, err := gen.Without(a.Without, nil); err != nil {
			return a, fmt.Errorf("without: %w", err)
		}
	}
	switch r := v.O.Get("restart"); r.K {
	case node.Missing:
	case node.Bool:
		a.Restart = r.B
	default:
		return a, fmt.Errorf("restart %s: want true or false", node.Dumps(r))
	}
	return a, nil
}

// together reads the pairs of op kinds an implementation writes in one
// step: each of two declared kinds, a kind first of at most one pair and
// never both first and second.
func together(v node.Value, declared []string) ([][2]string, error) {
	if v.K == node.Missing {
		return nil, nil
	}
	if v.K != node.Array {
		return nil, fmt.Errorf("together %s: want a list of pairs of op kinds", node.Dumps(v))
	}
	var out [][2]string
	firsts, seconds := map[string]bool{}, map[string]bool{}
	for _, e := range v.A {
		pair, err := stringList(e, "together", func(k string) bool { return slices.Contains(declared, k) })
		if err != nil {
			return nil, fmt.Errorf("%w (each pair: two op kinds of ops)", err)
		}
		if len(pair) != 2 {
			return nil, fmt.Errorf("together: %s is not a pair of op kinds", node.Dumps(e))
		}
		first, second := pair[0], pair[1]
		switch {
		case firsts[first]:
			return nil, fmt.Errorf("together: %q is the first of two pairs", first)
		case firsts[second] || seconds[first]:
			return nil, fmt.Errorf("together: [%q, %q]: a kind is the first of one pair and the second of another", first, second)
		}
		firsts[first], seconds[second] = true, true
		out = append(out, [2]string{first, second})
	}
	return out, nil
}

// stringList reads a list of distinct known strings.
func stringList(v node.Value, key string, known func(string) bool) ([]string, error) {
	if v.K != node.Array {
		return nil, fmt.Errorf("%s %s: want a list of strings", key, node.Dumps(v))
	}
	var out []string
	for _, e := range v.A {
		switch {
		case e.K != node.String:
			return nil, fmt.Errorf("%s: %s is not a string", key, node.Dumps(e))
		case !known(e.S):
			return nil, fmt.Errorf("%s: %q is not one the harness knows", key, e.S)
		case slices.Contains(out, e.S):
			return nil, fmt.Errorf("%s: %q given twice", key, e.S)
		}
		out = append(out, e.S)
	}
	return out, nil
}

// sameAbout reports whether two processes of one command declared the
// same things.
func sameAbout(a, b harness.About) bool {
	return a.Name == b.Name && a.Claim == b.Claim && slices.Equal(a.Ops, b.Ops) &&
		slices.Equal(a.Configs, b.Configs) && slices.Equal(a.Views, b.Views) && a.Restart == b.Restart &&
		slices.Equal(a.Unmodelled, b.Unmodelled) && slices.Equal(a.Together, b.Together) && slices.Equal(a.Without, b.Without)
}

// describe renders a declaration for a message.
func describe(a harness.About) string {
	s := fmt.Sprintf("%s claims %s, configs [%s], views [load %s], restart %v, ops [%s]", a.Name, a.Claim,
		strings.Join(a.Configs, " "), strings.Join(a.Views, " "), a.Restart, strings.Join(a.Ops, " "))
	if len(a.Unmodelled) > 0 {
		s += fmt.Sprintf(", unmodelled [%s]", strings.Join(a.Unmodelled, " "))
	}
	if len(a.Without) > 0 {
		s += fmt.Sprintf(", without [%s]", strings.Join(a.Without, " "))
	}
	for _, p := range a.Together {
		s += fmt.Sprintf(", writes %s and %s in one step", p[0], p[1])
	}
	return s
}
