// Package verdict is the one verdict every judge of the project gives —
// the audit, the hunt, exhaust, replay, the merged summary, the benchmark
// gate, a check through the implementation protocol: pass, fail or
// undecided, with the reasons, and the one mapping of the three to exit
// codes. Undecided (nothing applicable to judge, a budget too small to
// reach what must be reached, a shard missing, input that could not be
// read) is never shown or exited as a pass.
package verdict

import (
	"fmt"
	"strings"
)

// Outcome is pass, fail or undecided.
type Outcome uint8

// The outcomes. The zero value is Undecided: a verdict nobody gave is no
// pass.
const (
	Undecided Outcome = iota
	Pass
	Fail
)

// The exit codes of every command of the project.
const (
	ExitPass        = 0   // the verdict is pass
	ExitFail        = 1   // the verdict is fail: a finding
	ExitUsage       = 2   // the command could not run: its arguments, a file it needs
	ExitUndecided   = 3   // no verdict: the input or the budget did not allow one
	ExitInterrupted = 130 // stopped by Ctrl-C or SIGTERM (128 + SIGINT)
)

var words = [...]string{Undecided: "undecided", Pass: "pass", Fail: "fail"}

func (o Outcome) String() string {
	if int(o) < len(words) {
		return words[o]
	}
	return fmt.Sprintf("Outcome(%d)", uint8(o))
}

// Parse reads an outcome's word.
func Parse(word string) (Outcome, error) {
	for o, w := range words {
		if w == word {
			return Outcome(o), nil
		}
	}
	return Undecided, fmt.Errorf("verdict %q: want pass, fail or undecided", word)
}

// A Verdict is an outcome and why: the findings of a fail, what kept an
// undecided one from a verdict; a pass may say what it covered.
type Verdict struct {
	Outcome Outcome  `json:"outcome"`
	Reasons []string `json:"reasons,omitempty"`
}

// Of is the verdict of a judgement: fail when anything failed, else
// undecided when anything kept it from a verdict, else pass.
func Of(failed, undecided []string) Verdict {
	switch {
	case len(failed) > 0:
		return Verdict{Fail, append(append([]string(nil), failed...), undecided...)}
	case len(undecided) > 0:
		return Verdict{Undecided, append([]string(nil), undecided...)}
	}
	return Verdict{Outcome: Pass}
}

// PassBecause is a pass that says what it covered.
func PassBecause(reasons ...string) Verdict { return Verdict{Pass, reasons} }

// FailBecause is a fail with its findings.
func FailBecause(reasons ...string) Verdict { return Verdict{Fail, reasons} }

// UndecidedBecause is no verdict, and why.
func UndecidedBecause(reasons ...string) Verdict { return Verdict{Undecided, reasons} }

// And is the verdict of two judgements of one thing: a fail of either
// fails, then an undecided one leaves it undecided; the reasons of the
// verdict that decides it are kept.
func (v Verdict) And(o Verdict) Verdict {
	switch {
	case rank(o.Outcome) > rank(v.Outcome):
		return Verdict{o.Outcome, append(append([]string(nil), o.Reasons...), nonPass(v)...)}
	case rank(v.Outcome) > rank(o.Outcome):
		return Verdict{v.Outcome, append(append([]string(nil), v.Reasons...), nonPass(o)...)}
	}
	return Verdict{v.Outcome, append(append([]string(nil), v.Reasons...), o.Reasons...)}
}

// rank orders the outcomes by how much they decide: a fail over no verdict
// over a pass.
func rank(o Outcome) int { return [...]int{Undecided: 1, Pass: 0, Fail: 2}[o] }

// nonPass is the reasons of a verdict that is not a pass (a fail keeps an
// undecided part's reasons too: both need a look).
func nonPass(v Verdict) []string {
	if v.Outcome == Pass {
		return nil
	}
	return v.Reasons
}

// Exit is the verdict's exit code.
func (v Verdict) Exit() int {
	switch v.Outcome {
	case Pass:
		return ExitPass
	case Fail:
		return ExitFail
	}
	return ExitUndecided
}

// Passed reports whether the verdict is a pass.
func (v Verdict) Passed() bool { return v.Outcome == Pass }

// Line is the verdict as every command's last line says it: "verdict:
// PASS", "verdict: FAIL: …", "verdict: UNDECIDED: …", the reasons joined
// with "; ".
func (v Verdict) Line() string {
	s := "verdict: " + strings.ToUpper(v.Outcome.String())
	if len(v.Reasons) > 0 {
		s += ": " + strings.Join(v.Reasons, "; ")
	}
	return s
}

func (v Verdict) String() string { return v.Line() }

// MarshalText writes an outcome as its word.
func (o Outcome) MarshalText() ([]byte, error) { return []byte(o.String()), nil }

// UnmarshalText reads an outcome's word.
func (o *Outcome) UnmarshalText(b []byte) error {
	x, err := Parse(string(b))
	*o = x
	return err
}
