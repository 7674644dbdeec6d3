package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

// exitInterrupted is the exit code of a command stopped by Ctrl-C (128 +
// SIGINT, as a shell reports it).
const exitInterrupted = 130

// interrupt is done once the user asks the process to stop (Ctrl-C,
// SIGTERM). Commands that stop cleanly between two units of work watch it
// (stopsCleanly); the others are ended at once with "interrupted".
var interrupt = context.Background()

// stopsCleanly are the commands that watch interrupt and say themselves
// what they finished.
var stopsCleanly = map[string]bool{"audit": true, "hunt": true}

// watchInterrupt makes interrupt end on the first Ctrl-C. A command that
// does not watch it is ended then, saying so; one that does gets the time
// to stop between two sessions, and a second Ctrl-C ends the process.
func watchInterrupt(name string) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	interrupt = ctx
	go func() {
		<-ctx.Done()
		stop() // a second signal ends the process the default way
		if !stopsCleanly[name] {
			fmt.Fprintf(os.Stderr, "\nsessiondag %s: interrupted\n", name)
			os.Exit(exitInterrupted)
		}
	}()
}
