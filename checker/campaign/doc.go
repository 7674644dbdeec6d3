// Package campaign is the one engine under every driver of the checks — the
// property suite, `sessiondag hunt`, `sessiondag exhaust` and `sessiondag
// replay`: what a failure is (a Case: a check on a kind of data and a script,
// with the damage a cold check reads), how it is played, reduced (one
// schedule of named passes, Passes), identified (Key) and saved as a
// replayable file (Save), so that the same bug is saved as the same reduced
// script whichever driver found it.
//
// It reaches no driver: props, hunt, exhaust and cmd import it, never the
// other way round.
package campaign
