// Package writer writes sessions the way the original's turn writers do
// (legacy §3.8, §4, §6): the web and dispatcher turns, replies with tool rows
// and blocks, functions, retries, spawns, errors, crashes, script rows and
// legacy adapter writes. Under flag A they also persist each
// conversation-lane node's predecessor (docs/rollout.md §2).
//
// A Writer keeps the state a running server has beside the store: the
// browser's in-memory head, the pending turn, the open reply and the stack of
// running functions. Every method checks that it applies in that state and
// returns an error naming what is missing otherwise. Several writers may
// write one session (Peer): each a server process with its own flags, its
// own browser and its own turn in progress, sharing the store and the wall
// clock.
package writer

import (
	"errors"
	"fmt"
	"math"

	"sessiondag/impl/flags"
	"sessiondag/impl/node"
	"sessiondag/impl/store"
)

// BaseTime is the created_at of the first node; each append adds 1.5 s
// (SetClock moves it).
const BaseTime = 1782000000.0

// Writer writes one session.
type Writer struct {
	S     *store.Store
	Flags flags.Set

	clientHead *string // nil: the browser has no head yet
	conv       bool    // the server has made its conversation of the session (R's _sessions entry)
	// runtime: the conversation has its chat runtime (R's conv["runtime"]),
	// built as a web action starts (_execute_in_context), gone with the
	// process. A rerun's save writes its model (rerunSaved).
	runtime bool
	pending *turn
	reply   *reply
	frames  []*frame
	clock   *clock // shared by every writer of the session

	// stop is the server's cancel flag of the session (R's _cancel_flags,
	// webui/_pause_stop.py): set by the stop button, cleared only by a
	// manual run's end, an async task's start or the process's end. It is
	// kept for the session, shared by its writers as the clock is: R runs
	// one server, and a rollout that hands turns to other writers keeps
	// the script's meaning. aborted: the open reply is a web turn's that
	// started with it set, whose stream R ends, cancelled, at the model's
	// first tool call or its end.
	stop    *bool
	aborted bool
	// saved is the model meta.json records for the session, which a
	// sub-agent's reply names (agent/dispatcher/persistence.py): none yet,
	// the request's provider/model a turn's finalize saved
	// (agent/dispatcher/finalize.py), or the chat runtime's model alone the
	// web server saved as a web action ended (webui/server.py,
	// _save_conversation). On disk: a crash keeps it.
	saved *savedModel
}

// clock is the wall clock as the session's nodes see it: the next new node
// is stamped base + 1.5·ticks.
type clock struct {
	base  float64
	ticks int
}

type turn struct {
	user   string
	source string
	spawn  *spawnEnd // a spawn turn's: what its Done writes after the reply
}

type reply struct {
	id     string
	calls  []node.Value
	blocks []node.Value
	texts  []string
	// unheard: R's task runner ran an async task in this turn and, as the
	// task ended, removed the cancel event registered under the session id
	// (the turn's own, which its event had replaced): a stop then reaches
	// no stream, and the turn ends completed.
	unheard bool
}

type frame struct {
	id       string
	name     string // R's recursion guard counts runs by name
	manual   bool
	lastExec string
	// A function the open reply's model called: its name and arguments
	// (dumps), for the tool block R records of the call when it ends.
	call, input string
}

// ErrState is returned when an operation does not apply in the current state.
var ErrState = errors.New("operation does not apply now")

// New starts a session. With dir != "" every write goes to disk, durably.
func New(sessionID, dir string, fl flags.Set) (*Writer, error) {
	return NewWith(sessionID, dir, fl, store.WriteOptions{})
}

// NewWith is New with the store's write options (see store.WriteOptions).
func NewWith(sessionID, dir string, fl flags.Set, wo store.WriteOptions) (*Writer, error) {
	if err := fl.Validate(); err != nil {
		return nil, err
	}
	s := store.New(sessionID)
	s.Dir, s.Writes = dir, wo
	t := node.Num(pyFloat(BaseTime))
	s.Meta = &node.Obj{M: []node.Member{
		{Key: "id", Val: node.Str(sessionID)},
		{Key: "agent_id", Val: node.Str("main")},
		{Key: "title", Val: node.Str("generated")},
		{Key: "source", Val: node.Str("web")},
		{Key: "created_at", Val: t},
		{Key: "updated_at", Val: t},
		{Key: "head_id", Val: node.Str("")},
		{Key: "status", Val: node.Str("idle")},
		{Key: "branches", Val: node.ObjV(&node.Obj{})},
		{Key: "merged_heads", Val: node.Arr([]node.Value{})},
	}}
	w := &Writer{S: s, Flags: fl, clock: &clock{base: BaseTime}, stop: new(bool), saved: new(savedModel)}
	if dir != "" {
		if err := s.WriteMeta(); err != nil {
			return nil, err
		}
	}
	return w, nil
}

// Peer is another writer of the same session: a server process on its own
// flags, whose browser has no head yet and which has nothing in progress. It
// shares the store and the clock with w.
func (w *Writer) Peer(fl flags.Set) (*Writer, error) {
	if err := fl.Validate(); err != nil {
		return nil, err
	}
	return &Writer{S: w.S, Flags: fl, clock: w.clock, stop: w.stop, saved: w.saved}, nil
}

// TakeOver makes w the writer that performs the next writes after another
// one wrote: it reads the session as stored, as a process that opens it
// does (legacy §2.1), so the store's in-memory head becomes the persisted
// head. The other writer's appends are in the store already; what w keeps
// in memory (its browser's head, its turn in progress) is its own.
func (w *Writer) TakeOver() { w.S.MoveHead(w.S.PersistedHead()) }

// ClientHead is the browser's in-memory head ("" and false when it has none):
// before the server has made its conversation, the head it would make it
// with.
func (w *Writer) ClientHead() (string, bool) {
	if !w.conv {
		h := w.S.Head()
		return h, h != ""
	}
	if w.clientHead == nil {
		return "", false
	}
	return *w.clientHead, true
}

// conversation is R's _get_or_create_session (webui/server.py): a server
// process makes its conversation of a session when a web op first needs it,
// with the head the store's index holds then; after that the web ops move
// it.
func (w *Writer) conversation() {
	if w.conv {
		return
	}
	if h := w.S.Head(); h != "" {
		w.setClient(h)
	} else {
		w.clientHead, w.conv = nil, true
	}
}

// Busy reports whether a turn, reply or function is in progress.
func (w *Writer) Busy() bool { return w.pending != nil || w.reply != nil || len(w.frames) > 0 }

func (w *Writer) setClient(id string) { w.clientHead, w.conv = &id, true }

func (w *Writer) now() node.Value {
	return node.Num(pyFloat(w.clock.base + 1.5*float64(w.clock.ticks)))
}

// SetClock stamps the next new node with created_at at, and each one after
// it 1.5 s later: the writers' clock is the server's wall clock, which a
// session sees jump between turns.
func (w *Writer) SetClock(at float64) error {
	if math.IsNaN(at) || math.IsInf(at, 0) {
		return fmt.Errorf("%w: clock %v is not a time", ErrState, at)
	}
	w.clock.base, w.clock.ticks = at, 0
	return nil
}

func pyFloat(f float64) string { return string(node.AppendPyFloat(nil, f)) }

// add appends a new node with the next timestamp.
func (w *Writer) add(n *node.Node) error {
	if _, dup := w.S.Get(n.ID); dup {
		return fmt.Errorf("%w: node id %q is already stored", ErrState, n.ID)
	}
	if n.CreatedAt.K == node.Missing { // a copied row keeps its own (Compact)
		n.CreatedAt = w.now()
	}
	n.Seq = -1
	if n.Input.K == node.Missing {
		n.Input = node.NullV()
	}
	if n.Output.K == node.Missing {
		n.Output = node.NullV()
	}
	if n.Reads.K == node.Missing {
		n.Reads = node.Arr([]node.Value{})
	}
	if n.Metadata == nil {
		n.Metadata = &node.Obj{}
	}
	ok, err := w.S.Append(n)
	if err != nil {
		return err
	}
	if ok {
		w.clock.ticks++
	}
	return nil
}

func (w *Writer) ensureRoot() error {
	if _, ok := w.S.Get(node.RootID); ok {
		return nil
	}
	return w.add(&node.Node{
		ID: node.RootID, Role: node.RoleUser, Output: node.Str(""),
		Metadata: meta("display", node.Str("root")),
	})
}

// meta builds a metadata object from key, value pairs.
func meta(kv ...any) *node.Obj {
	o := node.NewObj(len(kv) / 2)
	for i := 0; i+1 < len(kv); i += 2 {
		o.M = append(o.M, node.Member{Key: kv[i].(string), Val: kv[i+1].(node.Value)})
	}
	return o
}

func (w *Writer) needIdle(what string) error {
	if w.Busy() {
		return fmt.Errorf("%w: %s needs no turn, reply or function in progress", ErrState, what)
	}
	return nil
}

func (w *Writer) needReply(what string) error {
	if w.reply == nil {
		return fmt.Errorf("%w: %s needs an open reply", ErrState, what)
	}
	return nil
}

func (w *Writer) needFrame(what string) (*frame, error) {
	if len(w.frames) == 0 {
		return nil, fmt.Errorf("%w: %s needs a running function", ErrState, what)
	}
	return w.frames[len(w.frames)-1], nil
}

// parseArgs decodes a JSON object argument ("" is the empty object).
func parseArgs(what, text string) (*node.Obj, error) {
	if text == "" {
		return &node.Obj{}, nil
	}
	v, err := node.ParseString(text)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	if v.K != node.Object {
		return nil, fmt.Errorf("%s: not a JSON object", what)
	}
	return v.O, nil
}

// savedModel is what meta.json records as the session's model.
type savedModel uint8

const (
	noModel       savedModel = iota
	modelProvider            // "p/model-x": a reply names model and provider
	modelPlain               // "model-x": a reply names the model alone
)
