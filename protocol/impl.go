package protocol

import (
	"fmt"

	"sessiondag/impl/flags"
	"sessiondag/impl/webui"
	"sessiondag/ops"
)

// Impl is the implementation under test as the loop drives it: the one in
// this repository, in-process (harness.InProcess), or any process that speaks
// docs/protocol.md (protocol/process). The views it gives are what a browser
// loading the session now gets, with the implementation's ids renamed to
// the script's.
type Impl interface {
	// Apply writes one op. An error is the implementation refusing it, or
	// a *Broken: the implementation did not answer as the protocol says.
	Apply(op ops.Op) error
	// Load is the load under fl at the persisted head: head, fallback and
	// the lists the load shows (Linear is left out across the protocol,
	// BeforeCards too unless the implementation returns it).
	Load(fl flags.Set) (*webui.Loaded, error)
	// Views is every view of docs/views.md under fl that the
	// implementation returns (About.Views); the others are left empty.
	Views(fl flags.Set) (webui.View, error)
	// Restart drops the worker that wrote the session: the next views come
	// from what it left on disk (About.Restart).
	Restart() error
	// Close ends the session and releases what it holds.
	Close()
}

// A Starter starts the implementation under test for one session.
type Starter interface {
	About() About
	Start(Start) (Impl, error)
}

// Start is what a session of the implementation starts with.
type Start struct {
	SessionID string
	Dir       string    // where the session's files go ("" = in memory, or a directory of the starter's)
	Writer    flags.Set // the writers' flags at the start
	NoSync    bool      // writes need not reach the disk before they return
}

// Broken is an implementation failing to answer as the protocol says: it
// exited, closed its output, did not answer within the deadline, or wrote
// what is not a reply. It is a finding whatever the checks say.
type Broken struct {
	Request string   // what it was answering: "op 3 (reply)", "view A,B", …
	What    string   // what went wrong
	Stderr  []string // the last lines it wrote to stderr
}

func (b *Broken) Error() string { return fmt.Sprintf("%s: %s", b.Request, b.What) }
