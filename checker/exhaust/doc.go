// Package exhaust is a small-scope guarantee: it enumerates every valid op
// script of at most N ops over the whole vocabulary (every kind of ops.All
// but `session`), with each argument drawn from a few representatives, and
// runs the harness checks on each one.
//
// Scripts are built in the canonical form of ops.Canonical: the k-th id a
// script mints is always "n<k>", so scripts that differ only by a renaming
// of ids are one script. A script is extended only by the ops model.LegacyRun accepts after
// it (a refused op changes nothing), so every enumerated script is valid,
// and every prefix of an enumerated script is enumerated too. The order is a
// depth-first walk over each state's candidates sorted by their text: the
// same N always gives the same sequence.
//
// Since every prefix is itself a script, each script is checked only after
// its last op, on each lane: a writers' start (flags on, flags off) with the
// checks whose kinds of data start there (lane.go). A scout session per lane
// follows the walk down a path; when the walk turns to a sibling it is a
// fork (harness.Session.Fork) of the session the lane kept after the
// parent before any check read it, given the sibling's op
// (TestForkIsRebuild holds a fork to a rebuild from the empty script). The
// checks run on it right after the last op, on memos no load has filled,
// so that a script's outcome is a function of the data it left, whatever
// order the walk took. A check about what loads keep
// (harness.Check.History) runs after the loads of every config on the
// session before the last op instead.
//
// Deduplication (keys.go): fingerprints of what the checks read (the stored
// data, model.Legacy's data, model.Target's intended view, the flags) and of
// everything that decides what comes next (the state of every writer a
// script named, the one writing and those a writer op parked, in both
// models and the implementation; the flags in force; the walk's frontier)
// are 128 bits of SHA-256 over the
// interpreters' own canonical encodings (their AppendState methods). A lane
// checks each distinct data once and expands each distinct state once,
// keeping in its memo the tallies below every state it expanded, by
// distance, so that a state found again adds what lies below it without
// walking it: the counts are those of a walk without deduplication
// (TestDedupSameVerdicts, make exhaust-dedup), only the work is not. What
// passed is in a memo the workers' lanes of one writers' start share, so a
// data or state one worker found is not checked or walked by another; what
// failed each keeps in its own (memos), so the failures a worker reports
// are those of its own walk.
// TestFingerprintsAreTheState holds two scripts of one fingerprint to one
// state, field by field; TestFingerprintLeavingOutCaught shows it catching
// fingerprints that leave a piece out. The fingerprints are of the
// implementation in this repository, in-process: a run against another
// process (Options.Impl) has no deduplication, since nothing here sees that
// process's state.
//
// Shards split the walk on its first ops: the nodes of depth at most
// ShardDepth are numbered in walk order and node k belongs to shard k mod n,
// with everything below it; n shards check exactly the scripts of one
// unsharded run, none twice. The same nodes are the walk's parts (Parts),
// which claimants sharing a directory take one after another instead
// (Claims): many more parts than claimants, so they end together, each
// begun at its own share of them (Claims.Start) so that the neighbouring
// parts it walks share states in its memos; after each part a claimant
// gives the states it expanded with nothing failing below them to the
// others through files there, and takes in theirs before each part it
// claims (exchange.go), so that a state is expanded once between them. A
// walk is
// sized before it is walked by Knuth's estimator on each part (Sizes,
// EstimateRun): what the progress lines' time left and `exhaust --estimate`
// report.
package exhaust
