package gen

import (
	"fmt"
	"sort"
	"strings"
)

// Shapes of legacy §5 and §6 the generator must reach.
const (
	ShapeRootUsers         = "two ROOT-parented users (L4)"
	ShapeManualFirst       = "function before the first chat turn (L2)"
	ShapeManualRow         = "manual runs in a row (L1)"
	ShapeHeadOnManual      = "head on a manual run after chat (L3)"
	ShapeUserAfterManual   = "user parented to a manual run (§5.2 dropped user)"
	ShapeReloadAfterManual = "reload after a manual run (variant A)"
	ShapeRetryFirst        = "retry of the first turn"
	ShapeRetry             = "retry or edit writing a new user"
	ShapeSubAgent          = "sub-agent"
	ShapeCleanSpawn        = "clean sub-agent root"
	ShapeCrashOnTool       = "crash leaving the head on a tool row"
	ShapeNested3           = "functions nested three deep"
	ShapeError             = "failed turn"
	ShapeScript            = "caller-less script row"
	ShapeLegacy            = "adapter-written legacy row"
	ShapeOrphan            = "orphan tool row"
	ShapeRewind            = "rewound node"
	ShapeFlagFlip          = "flag flipped mid-session"
	ShapeRollback          = "step rolled back mid-session"
	ShapeWriters           = "another writer took over"
	ShapeWritersInterleave = "writers with turns in progress side by side"
	ShapeClock             = "real timestamp (clock set)"
)

// Shapes of out-of-order writes: a row naming an id that a later op
// writes, counted when that id is written.
const (
	ShapeCallerLater  = "caller written after its orphan"
	ShapeAdapterLater = "adapter row naming a later id"
)

// Shapes of updates of rows the load has cached (columns, folded copies,
// card trees, flag A's predecessors), counted when the update is written.
const (
	ShapeRewindCall       = "rewind of a row folded into its reply"
	ShapeRewindCaller     = "rewind of a reply holding tool rows"
	ShapeRewindAttach     = "rewind of an attach row"
	ShapeRewindRun        = "rewind of a run with internals"
	ShapeFinishAfterCalls = "reply finished after its tool rows were loaded"
	ShapeEndAfterKids     = "run ended after its internals were loaded"
)

// Shapes the original's own writers store at R (legacy §6 #28–#36; the
// corpus/realwriter folder and how many of its 114 show each in
// docs/legacy.md).
const (
	ShapeCallerlessDispatch = "caller-less dispatcher user with an explicit parent (R's adapter write)"
	ShapeNullFork           = "root-level fork with an explicit null parent"
	ShapeRootedDispatch     = "dispatcher user called by ROOT (older writers)"
	ShapeToolText           = "tool row whose input is a JSON string"
	ShapeToolObject         = "tool row whose input is an object (older writers)"
	ShapeCallerlessSub      = "caller-less sub-agent user"
	ShapeScriptRun          = "script run in a session context with internals"
	ShapeTopAsk             = "top-level ask_user answer"
	ShapeAskRerun           = "retry or edit of an ask row"
	ShapeRunAskRerun        = "retry or edit of an ask row of a function run"
	ShapeFollowup           = "internal user of a finished async task (task_followup)"
	ShapeMerge              = "internal user of /merge (merge_turn)"
	ShapeCompaction         = "compaction: summary and kept tail"
	ShapeOwnCalls           = "assistant with tool_calls and blocks of its own"
	ShapeMessage            = "message dict of a shape only the message adapter writes"
	ShapeMessageUnsaved     = "message appended and not saved (meta.json keeps the head it held)"
	ShapeDrop               = "attach pointer dropped once a row followed it (a merge's retirement)"
	ShapeParallelCall       = "call a reply ran alongside its task turn, ended before the sub-agent's reply (R's parallel calls)"
	ShapeAsyncTask          = "async /task attach with its extra copy"
	ShapeSpawnTurn          = "/spawn's sub-agent turn written by the ops after it (R's /task)"
	ShapeTaskTurn           = "task call's sub-agent turn written by the ops after it (R's task tool)"
	ShapeAsyncTurn          = "/task --async's sub-agent turn and its follow-up turn written by the ops after it (R's task runner)"
	ShapeTaskRunner         = "task call with wait=False: the sub-agent and its follow-up turn beside the open reply (R's task runner)"
	ShapeFunctionForm       = "function-form web user"
	ShapeImage              = "web user with an image attachment"
	ShapeTextStripped       = "text Python's str.strip trims of a character beyond ASCII whitespace"
	ShapeTextKept           = "text at whose end a character next to Python's whitespace stays"
	ShapeTextControl        = "text with a control character json.dumps writes as \\u00XX"
	ShapeTextShortEscape    = "text with a character json.dumps writes as a short escape besides \\n and \""
	ShapeTextLineSep        = "text with a line boundary only Python's splitlines knows"
)

// Shapes of folders as the original leaves them (docs/legacy.md §2.1, §6
// #22, #31–#33), which a cold load reads besides the nodes: drawn with the
// damage of a cold iteration (campaign.DrawFolder).
const (
	ShapeDupSeq       = "duplicate seqs from the function subprocess"
	ShapeNoMeta       = "folder without meta.json"
	ShapeMetaNoID     = "meta.json without id"
	ShapeCopiedFolder = "meta.json of another folder (a copy)"
	ShapeCommits      = "context commits under context/commits/"
	ShapeAttachCommit = "attach row naming a stored context commit"
	ShapeMidTurn      = "mid-turn copy (meta.json says running)"
	ShapeTasks        = "tasks.json, which no load reads"
	ShapeBackups      = "file_backups/, which no load reads"
)

// Shapes of the numbers the original stores.
const (
	ShapeRealDuration = "real duration"
	ShapeBigInt       = "number past 2^53"
	ShapeExpFloat     = "float in exponent form"
	ShapeFloatEdge    = "float on an edge of Python's repr (16 digits before the point, 4 zeros after it)"
)

// Late answers of a root fork whose turn died unanswered (forks.go).
const (
	ShapeForkAnsweredByChild = "root fork answered by a row recording it as parent"
	ShapeForkAnsweredByRerun = "root fork answered by a retry or edit"
	ShapeForkAnsweredByError = "root fork answered by a standalone error"
)

// RequiredForks are the ways a root fork becomes one, which the rollout
// checks must reach (flag A's derivation tells an answered fork apart).
var RequiredForks = []string{ShapeForkAnsweredByChild, ShapeForkAnsweredByRerun, ShapeForkAnsweredByError}

// Required are the shapes a default-sized run must produce at least once.
var Required = []string{
	ShapeRootUsers, ShapeManualFirst, ShapeManualRow, ShapeHeadOnManual, ShapeUserAfterManual,
	ShapeRetryFirst, ShapeSubAgent, ShapeCrashOnTool, ShapeNested3,
	ShapeCallerLater, ShapeAdapterLater,
	ShapeRealDuration, ShapeClock, ShapeBigInt, ShapeExpFloat, ShapeFloatEdge,
	ShapeCallerlessDispatch, ShapeNullFork, ShapeRootedDispatch, ShapeToolText, ShapeToolObject,
	ShapeCallerlessSub, ShapeScriptRun, ShapeTopAsk, ShapeFollowup, ShapeMerge, ShapeCompaction,
	ShapeOwnCalls, ShapeMessage, ShapeMessageUnsaved, ShapeDrop, ShapeParallelCall, ShapeAsyncTask, ShapeSpawnTurn, ShapeTaskTurn, ShapeAsyncTurn, ShapeTaskRunner, ShapeFunctionForm, ShapeImage, ShapeAskRerun, ShapeRunAskRerun,
	ShapeTextStripped, ShapeTextKept, ShapeTextControl, ShapeTextShortEscape, ShapeTextLineSep,
}

// RequiredCache are the shapes a default-sized run of the load's cache
// check must produce: every way a row the load has cached changes under
// it, or a row's target arrives after it.
var RequiredCache = []string{
	ShapeCallerLater, ShapeAdapterLater,
	ShapeRewindCall, ShapeRewindCaller, ShapeRewindAttach, ShapeRewindRun,
	ShapeFinishAfterCalls, ShapeEndAfterKids,
}

// RequiredCold are the folder shapes a default-sized run of the cold-load
// check must read.
var RequiredCold = []string{
	ShapeDupSeq, ShapeNoMeta, ShapeMetaNoID, ShapeCopiedFolder, ShapeCommits, ShapeAttachCommit, ShapeMidTurn,
	ShapeTasks, ShapeBackups,
}

// Requirements are the sets of shapes a check can declare it needs reached
// (harness.Check.Reach), by name.
var Requirements = map[string][]string{"legacy": Required, "cache": RequiredCache, "forks": RequiredForks,
	"cold": RequiredCold}

// Tally counts op kinds and shapes over one or many generated scripts.
type Tally struct {
	Ops    map[string]int
	Shapes map[string]int
}

// NewTally makes an empty tally.
func NewTally() *Tally { return &Tally{Ops: map[string]int{}, Shapes: map[string]int{}} }

// Op counts an op kind.
func (t *Tally) Op(kind string) { t.Ops[kind]++ }

// Shape counts a shape.
func (t *Tally) Shape(name string) { t.Shapes[name]++ }

// Add merges another tally in.
func (t *Tally) Add(o *Tally) {
	for k, v := range o.Ops {
		t.Ops[k] += v
	}
	for k, v := range o.Shapes {
		t.Shapes[k] += v
	}
}

// Missing lists the required shapes never produced, in Required's order.
func (t *Tally) Missing(required []string) []string {
	var out []string
	for _, s := range required {
		if t.Shapes[s] == 0 {
			out = append(out, s)
		}
	}
	return out
}

// String renders the tally sorted by name.
func (t *Tally) String() string {
	var b strings.Builder
	for _, m := range []struct {
		title string
		m     map[string]int
	}{{"ops", t.Ops}, {"shapes", t.Shapes}} {
		keys := make([]string, 0, len(m.m))
		for k := range m.m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		fmt.Fprintf(&b, "%s:\n", m.title)
		for _, k := range keys {
			fmt.Fprintf(&b, "  %-50s %d\n", k, m.m[k])
		}
	}
	return b.String()
}
