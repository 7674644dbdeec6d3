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
// its last op. One harness.Session per kind of data follows the walk down a
// path, stepping op by op; a session cannot be copied, so when the walk
// turns to a sibling the session is rebuilt by applying the prefix again
// without checks.
//
// Shards split the walk on its first ops: the nodes of depth at most
// ShardDepth are numbered in walk order and node k belongs to shard k mod n,
// with everything below it; n shards check exactly the scripts of one
// unsharded run, none twice.
package exhaust
