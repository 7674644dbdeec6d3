package gen

import "fmt"

// Kind is one of the generator's draw kinds: an op kind, or a variant of one
// (a legacy tool edge, a function entered from an exec's tool loop, an
// orphan whose caller is written later, a rewind of a row a load caches).
type Kind uint8

const (
	kUser Kind = iota
	kReply
	kDone
	kEnd
	kSay
	kThink
	kTool
	kToolLegacy
	kTask
	kCancel
	kErrorFolded
	kErrorStandalone
	kCrash
	kFn
	kFnViaExec
	kManual
	kExec
	kAsk
	kRetry
	kEdit
	kCheckout
	kReload
	kDispatch
	kForkRoot
	kSpawn
	kScript
	kLegacyUser
	kLegacyReply
	kOrphan
	kOrphanLater
	kRewind
	kRewindCached
	kFlag
	kWriter
	kClock
	kMerge
	kFollowup
	kRun
	kCompact
	kSpawnTurn
	kTaskTurn
	kMessage
	kDrop
	numKinds
)

// kinds name each draw kind (as swarm configurations and Options.Only spell
// it) and the op kind it draws; core kinds are never left out by a swarm
// configuration: without them a session cannot get past its first turn.
var kinds = [numKinds]struct {
	name, op string
	core     bool
}{
	kUser: {"user", "user", true}, kReply: {"reply", "reply", true}, kDone: {"done", "done", true},
	kEnd: {"end", "end", true}, kSay: {"say", "say", false}, kThink: {"think", "think", false},
	kTool: {"tool", "tool", false}, kToolLegacy: {"tool-legacy", "tool", false}, kTask: {"task", "task", false},
	kCancel: {"cancel", "cancel", false}, kErrorFolded: {"error-folded", "error-folded", false},
	kErrorStandalone: {"error-standalone", "error-standalone", false}, kCrash: {"crash", "crash", false},
	kFn: {"fn", "fn", false}, kFnViaExec: {"fn-via-exec", "fn", false}, kManual: {"manual", "manual", false},
	kExec: {"exec", "exec", false}, kAsk: {"ask", "ask", false}, kRetry: {"retry", "retry", false},
	kEdit: {"edit", "edit", false}, kCheckout: {"checkout", "checkout", false}, kReload: {"reload", "reload", false},
	kDispatch: {"dispatch", "dispatch", false}, kForkRoot: {"fork-root", "fork-root", false},
	kSpawn: {"spawn", "spawn", false}, kScript: {"script", "script", false},
	kLegacyUser: {"legacy-user", "legacy-user", false}, kLegacyReply: {"legacy-reply", "legacy-reply", false},
	kOrphan: {"orphan", "orphan", false}, kOrphanLater: {"orphan-later", "orphan", false},
	kRewind: {"rewind", "rewind", false}, kRewindCached: {"rewind-cached", "rewind", false},
	kFlag: {"flag", "flag", false}, kWriter: {"writer", "writer", false}, kClock: {"clock", "clock", false},
	kMerge: {"merge", "merge", false}, kFollowup: {"followup", "dispatch", false}, kRun: {"run", "run", false},
	kCompact: {"compact", "compact", false}, kSpawnTurn: {"spawn-turn", "spawn", false},
	kTaskTurn: {"task-turn", "task", false}, kMessage: {"message", "message", false},
	kDrop: {"drop", "drop", false},
}

// String is the kind's name.
func (k Kind) String() string { return kinds[k].name }

// Op is the op kind the draw kind draws.
func (k Kind) Op() string { return kinds[k].op }

// DrawKinds are the draw kinds' names, in a fixed order.
var DrawKinds = func() []string {
	out := make([]string, numKinds)
	for k := range numKinds {
		out[k] = kinds[k].name
	}
	return out
}()

// KindNamed finds a draw kind by name.
func KindNamed(name string) (Kind, error) {
	for k := range numKinds {
		if kinds[k].name == name {
			return k, nil
		}
	}
	return 0, fmt.Errorf("gen: no draw kind %q (kinds: %v)", name, DrawKinds)
}

// weights are how often each kind is drawn where it is valid, by the state
// the generator is in: the one place to tune the mix. Rare but wanted
// follow-ups get more than their share (a crash right after a legacy tool
// leaves the head on it; a reload after a run; a turn typed on a run).
// A writer switch is drawn in every state: a turn in progress stays with its
// writer while another one writes (busy.writer), and idle writers take turns
// more often (idle.writer).
var weights = struct {
	pending struct{ reply, errorStandalone, crash, parallelTool int }
	frame   struct{ end, fn, fnDeep, exec, fnViaExec, ask, crash int }
	reply   struct{ crashAfterLegacyTool, done, tool, say, think, fn, task, cancel, errorFolded, toolLegacy, crash int }
	busy    struct{ writer int }
	idle    struct {
		manualFirst, reloadAfterRun, userOnRun, manualInRow, user, manualAfterChat, reload, dispatch, retry, edit,
		checkout, forkRoot, spawn, script, legacyUser, legacyReply, rewind, orphan, orphanLater, rewindCached, flag,
		writer, clock int
	}
}{
	pending: struct{ reply, errorStandalone, crash, parallelTool int }{12, 1, 1, 2},
	frame:   struct{ end, fn, fnDeep, exec, fnViaExec, ask, crash int }{6, 6, 1, 6, 2, 1, 1},
	reply: struct{ crashAfterLegacyTool, done, tool, say, think, fn, task, cancel, errorFolded, toolLegacy, crash int }{
		12, 6, 8, 3, 2, 2, 2, 1, 1, 4, 1},
	busy: struct{ writer int }{1},
	idle: struct {
		manualFirst, reloadAfterRun, userOnRun, manualInRow, user, manualAfterChat, reload, dispatch, retry, edit,
		checkout, forkRoot, spawn, script, legacyUser, legacyReply, rewind, orphan, orphanLater, rewindCached, flag,
		writer, clock int
	}{2, 12, 10, 3, 10, 3, 3, 2, 2, 1, 2, 1, 2, 1, 1, 1, 1, 1, 2, 1, 1, 2, 1},
}

// written are the shapes of the original's own writers (legacy §6 #28–#36),
// weighted by how often its own code stores them: of the 114 folders of
// corpus/realwriter, 12 hold a /merge, 21 a script run with internals, 5 a
// compaction (each a follow-up the shadow knows is possible); every
// finished async /task writes its follow-up turn. The variants are drawn
// one in N of their op: R stores every dispatcher and sub-agent user
// caller-less, every tool input as text and every rerun with no source
// (rooted, object and a rerun's web source are the older writers' forms,
// which the conformance corpus holds); 14 folders
// hold a web turn with an image, 13 a function-form one (each about one
// web turn in twelve, formIn: one in six is either); 5 of the 17 with
// a /task ran it --async; 8 of the 25 with a script run hold a top-level
// answer; adapter and importer replies carry their own blocks in 5, and
// 5 hold a message dict of a shape only the adapter writes (message); 3
// show the attach pointers a merge dropped (drop), which it drops as soon
// as its turn has run (drawn, once one can be, as often as a follow-up).
var written = struct {
	merge, followup, run, compact, message, drop                    int
	rootedIn, objectIn, formIn, blocksIn                            int
	spawnInherit, spawnClean, spawnAsync, scriptFn, scriptExec, ask int
}{
	merge: 1, followup: 6, run: 1, compact: 1, message: 1, drop: 6,
	rootedIn: 8, objectIn: 8, formIn: 6, blocksIn: 3,
	spawnInherit: 2, spawnClean: 1, spawnAsync: 1, scriptFn: 2, scriptExec: 1, ask: 1,
}
