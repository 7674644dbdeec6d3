// Package hunt is a bounded search campaign over the harness's checks: for
// a time budget (or a number of iterations) it draws, from one campaign
// seed, a check, one of the kinds of data it declares, a swarm configuration (gen.DrawSwarm)
// and a script length, generates the script, plays it with that check, and
// on a finding reduces the case (campaign.Reduce), drops duplicates by their
// key (campaign.Key) and writes each distinct failure as a replayable
// `#! check` file (campaign.Save).
//
// Iteration k of a campaign with seed S plays the script of seed
// ScriptSeed(S, k); everything the iteration draws comes from that seed, so
// any script of a campaign is replayable from (S, k). Shard i of n takes the
// iterations k ≡ i (mod n): n shards of M minutes search what one run of
// n·M minutes would, with no script played twice.
//
// One worker per core plays iterations side by side: each plays its own
// harness.Session, which shares nothing with another.
package hunt
