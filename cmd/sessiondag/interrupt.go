package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"

	"sessiondag/internal/verdict"
	"sessiondag/protocol/process"
)

// exitInterrupted is the exit code of a command stopped by Ctrl-C or
// SIGTERM, either signal (verdict.ExitInterrupted: 128 + SIGINT, as a
// shell reports a Ctrl-C).
const exitInterrupted = verdict.ExitInterrupted

// interrupt is done once the user asks the process to stop (Ctrl-C,
// SIGTERM). Commands that stop cleanly between two units of work watch it
// (stopsCleanly); the others are ended at once with "interrupted".
var interrupt = context.Background()

// stopsCleanly are the commands that watch interrupt and say themselves
// what they finished.
var stopsCleanly = map[string]bool{"audit": true, "hunt": true}

// watchInterrupt makes interrupt end on the first Ctrl-C or SIGTERM. A
// command that does not watch it is ended then; one that does gets the
// time to stop between two units of work, and a second signal ends it.
// Either way the process ends through endNow: every implementation it
// started ends, with what those started, and their directories go.
func watchInterrupt(name string) {
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	ctx, cancel := context.WithCancel(context.Background())
	interrupt = ctx
	go func() {
		<-signals
		cancel()
		if stopsCleanly[name] {
			<-signals
		}
		endNow(name)
	}()
}

// ending is set once endNow has begun: the command may still return (its
// implementation killed under it), but the process exits through endNow.
var ending atomic.Bool

// endNow ends the process on a signal: the implementations under test and
// what they started are killed and their session directories removed
// (process.EndAll), then exit 130.
func endNow(name string) {
	ending.Store(true)
	fmt.Fprintf(os.Stderr, "\nsessiondag %s: interrupted\n", name)
	process.EndAll()
	os.Exit(exitInterrupted)
}
