package protocol

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"sessiondag/impl/flags"
	"sessiondag/internal/termtext"
	"sessiondag/ops"
)

// Configs are the configs an implementation may declare: the flag sets of
// the rollout path, and ConfigTarget.
var Configs = func() []string {
	var out []string
	for _, fl := range flags.Rollout {
		out = append(out, fl.String())
	}
	return append(out, ConfigTarget)
}()

// Claims are the claims an implementation may make.
var Claims = []Claim{ClaimLegacy, ClaimTarget, ClaimRollout}

// ParseHello reads what an implementation declares in its hello, refusing
// anything the harness does not know. command is the command that started
// it; knownWithout checks the names of its without list (the generator's:
// gen.Without), which the protocol does not define.
func ParseHello(h Hello, command string, knownWithout func([]string) error) (About, error) {
	a := About{Command: command, Name: nameOf(h.Name), Claim: Claim(h.Claims), Restart: h.Restart}
	switch {
	case h.Protocol != Version:
		return a, fmt.Errorf("protocol %d, want %d", h.Protocol, Version)
	case h.Name == "":
		return a, fmt.Errorf("name: want a non-empty string")
	case !slices.Contains(Claims, a.Claim):
		return a, fmt.Errorf("claims %q: want one of legacy, target, rollout", termtext.Line(h.Claims))
	}
	var err error
	kinds := ops.Kinds()
	if a.Ops, err = stringList(h.Ops, "ops", func(k string) bool { return slices.Contains(kinds, k) }); err != nil {
		return a, err
	}
	if len(a.Ops) == 0 {
		return a, fmt.Errorf("ops: no op kind declared")
	}
	if a.Configs, err = stringList(h.Configs, "configs", func(c string) bool { return slices.Contains(Configs, c) }); err != nil {
		return a, err
	}
	switch {
	case len(a.Configs) == 0:
		return a, fmt.Errorf("configs: none declared")
	case slices.Contains(a.Configs, ConfigTarget) && (a.Claim != ClaimTarget || len(a.Configs) > 1):
		return a, fmt.Errorf("configs %v: %q is the one config of an implementation that claims the target", a.Configs, ConfigTarget)
	case a.Claim == ClaimLegacy && !slices.Contains(a.Configs, "off"):
		return a, fmt.Errorf("configs %v: an implementation that claims the legacy loads under off", a.Configs)
	}
	views, err := stringList(h.Views, "views", func(w string) bool { return w == "load" || slices.Contains(OptionalViews, w) })
	if err != nil {
		return a, err
	}
	if !slices.Contains(views, "load") {
		return a, fmt.Errorf("views %v: the load view is required", views)
	}
	for _, w := range OptionalViews {
		if slices.Contains(views, w) {
			a.Views = append(a.Views, w)
		}
	}
	for _, k := range h.Unmodelled {
		if err := unmodelledKey(k); err != nil {
			return a, err
		}
	}
	if a.Unmodelled, err = stringList(h.Unmodelled, "unmodelled", func(string) bool { return true }); err != nil {
		return a, err
	}
	if a.Together, err = together(h.Together, a.Ops); err != nil {
		return a, err
	}
	if a.Without, err = stringList(h.Without, "without", func(string) bool { return true }); err != nil {
		return a, err
	}
	if err := knownWithout(a.Without); err != nil {
		return a, fmt.Errorf("without: %w", err)
	}
	return a, nil
}

// MaxName bounds the name an implementation gives itself, in bytes: it is
// for reports, on every line that names it.
const MaxName = 200

// nameOf is the name of a hello as every report shows it: escaped like
// stored text (termtext.Line: a name is the implementation's text, and
// a newline or an escape sequence in it must not forge a line of a saved
// file nor reach a terminal) and cut to MaxName bytes.
func nameOf(name string) string {
	s := termtext.Line(name)
	if len(s) <= MaxName {
		return s
	}
	cut := MaxName
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf("… (%d bytes)", len(name))
}

// together reads the pairs of op kinds an implementation writes in one
// step: each of two declared kinds, a kind first of at most one pair and
// never both first and second.
func together(pairs [][]string, declared []string) ([][2]string, error) {
	var out [][2]string
	firsts, seconds := map[string]bool{}, map[string]bool{}
	for _, e := range pairs {
		pair, err := stringList(e, "together", func(k string) bool { return slices.Contains(declared, k) })
		if err != nil {
			return nil, fmt.Errorf("%w (each pair: two op kinds of ops)", err)
		}
		if len(pair) != 2 {
			return nil, fmt.Errorf("together: %q is not a pair of op kinds", termtext.Line(strings.Join(e, ", ")))
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

// stringList checks a list of distinct known strings.
func stringList(list []string, key string, known func(string) bool) ([]string, error) {
	var out []string
	for _, e := range list {
		switch {
		case !known(e):
			return nil, fmt.Errorf("%s: %q is not one the harness knows", key, termtext.Line(e))
		case slices.Contains(out, e):
			return nil, fmt.Errorf("%s: %q given twice", key, termtext.Line(e))
		}
		out = append(out, e)
	}
	return out, nil
}

// Same reports whether two processes of one command declared the same
// things.
func (a About) Same(b About) bool {
	return a.Name == b.Name && a.Claim == b.Claim && slices.Equal(a.Ops, b.Ops) &&
		slices.Equal(a.Configs, b.Configs) && slices.Equal(a.Views, b.Views) && a.Restart == b.Restart &&
		slices.Equal(a.Unmodelled, b.Unmodelled) && slices.Equal(a.Together, b.Together) && slices.Equal(a.Without, b.Without)
}

// Describe renders a declaration for a message, safe for a terminal.
func (a About) Describe() string {
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
