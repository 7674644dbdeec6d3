package process_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"sessiondag/checker/campaign"
	"sessiondag/checker/gen"
	"sessiondag/checker/harness"
	"sessiondag/impl/node"
	"sessiondag/ops"
	"sessiondag/protocol/process"
	"sessiondag/protocol/serve"
)

// fakeEnv makes this test binary an implementation: the one in this
// repository (protocol/serve) with a fault put into its answers, as
// fakeFault describes it.
const fakeEnv = "SESSIONDAG_FAKE_IMPL"

func TestMain(m *testing.M) {
	if fault := os.Getenv(fakeEnv); fault != "" {
		os.Exit(fake(fault))
	}
	os.Exit(m.Run())
}

// fake serves the protocol on stdin and stdout with one fault: "WHAT@WHEN",
// WHEN a request type (hello, view, restart) or "op N". WHAT:
//
//	hang     answers nothing from then on
//	crash    writes to stderr and exits 3
//	garbage  answers a line that is not JSON
//	seq      answers with the next seq
//	refuse   refuses the op
//	close    closes its output and keeps running
//	twice    answers twice
//	nochain  answers a view without its chain
//	claim    declares a claim the harness does not know
//	stamp    adds a key of its own (pid: its process id) to every message of every view from then on
//	declared as stamp, and its hello declares pid unmodelled
func fake(fault string) int {
	what, when, _ := strings.Cut(fault, "@")
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go func() { serve.Serve(inR, outW, serve.Options{}) }()
	replies := bufio.NewReader(outR)
	in := bufio.NewReader(os.Stdin)
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
			return 0
		}
		var req struct {
			Type string `json:"type"`
			Seq  int    `json:"seq"`
		}
		json.Unmarshal(line, &req)
		now := req.Type
		if req.Type == "op" {
			now = fmt.Sprintf("op %d", req.Seq)
		}
		inW.Write(line)
		reply, _ := replies.ReadBytes('\n')
		switch {
		case what == "declared" && req.Type == "hello":
			reply = bytes.Replace(reply, []byte(`"type":"hello",`), []byte(`"type":"hello","unmodelled":["pid"],`), 1)
		case (what == "stamp" || what == "declared") && req.Type == "view":
			reply = stamped(reply)
		}
		if now != when || what == "stamp" || what == "declared" {
			os.Stdout.Write(reply)
			continue
		}
		fmt.Fprintf(os.Stderr, "fake: %s at %s\n", what, when)
		switch what {
		case "hang":
			time.Sleep(time.Hour)
		case "crash":
			fmt.Fprintln(os.Stderr, "panic: the fake crashed")
			return 3
		case "garbage":
			os.Stdout.WriteString("Traceback (most recent call last): not a reply\n")
		case "seq":
			os.Stdout.WriteString(strings.Replace(string(reply), fmt.Sprintf(`"seq":%d`, req.Seq), fmt.Sprintf(`"seq":%d`, req.Seq+1), 1))
		case "refuse":
			time.Sleep(50 * time.Millisecond) // the harness reads stderr on its own: let the line arrive first
			fmt.Fprintf(os.Stdout, `{"type":"error","seq":%d,"error":"this op is not supported"}`+"\n", req.Seq)
		case "close":
			os.Stdout.Close()
			time.Sleep(time.Hour)
		case "twice":
			os.Stdout.Write(reply)
			os.Stdout.Write(reply)
		case "nochain":
			os.Stdout.WriteString(strings.Replace(string(reply), `"chain":`, `"chains":`, 1))
		case "claim":
			os.Stdout.WriteString(strings.Replace(string(reply), `"claims":"rollout"`, `"claims":"perfect"`, 1))
		}
	}
}

// stamped puts pid (this process's id) into every message object of a
// view reply: the rows of every view are under "view", one level down.
func stamped(reply []byte) []byte {
	v, err := node.Parse(reply)
	if err != nil || v.K != node.Object || v.O.Get("view").K != node.Object {
		return reply
	}
	view := v.O.Get("view").O
	for _, name := range []string{"chain", "messages", "all", "branch", "before_cards"} {
		for _, m := range view.Get(name).A {
			if m.K == node.Object {
				m.O.Set("pid", node.Str(fmt.Sprint(os.Getpid())))
			}
		}
	}
	b, _ := v.MarshalJSON()
	return append(b, '\n')
}

// brokenScript is a short session; op 3 is the one the faults hit.
const brokenScript = `user id=u1 text=hi
reply
say text=hello
done
user id=u2 text=again
reply
done
`

// deadline is the protocol deadline in these tests: short, so that a hang
// costs little, but long enough that a healthy fake answers within it on a
// machine loaded ten times over (at 300 ms one did not, at a load of 15);
// within is what a finding may take at most (the deadline and the time it
// takes to stop a process, with room for a loaded machine).
const deadline = 2 * time.Second
const within = 12 * time.Second

func fakeCommand(fault string) string {
	return fmt.Sprintf("%s='%s' exec '%s'", fakeEnv, fault, os.Args[0])
}

// TestBrokenImplementations: an implementation that hangs, crashes
// mid-session, writes garbage, answers with the wrong seq, refuses an op
// the models accept, closes its output, answers twice or leaves out a key
// of its view gives a clear finding within the deadline — naming the op
// it was answering, with the last lines of its stderr — and never a hang
// of the harness.
func TestBrokenImplementations(t *testing.T) {
	script, err := ops.ParseString(brokenScript)
	if err != nil {
		t.Fatal(err)
	}
	legacy, _ := harness.CheckNamed("legacy")
	cases := []struct {
		fault string
		check string // the finding's check
		what  string // what its What says
	}{
		{"hang@op 3", harness.Protocol.Name, "op 3 (say text=hello): no reply within"},
		{"crash@op 3", harness.Protocol.Name, "op 3 (say text=hello): closed its output and exited (exit status 3)"},
		{"garbage@op 3", harness.Protocol.Name, "op 3 (say text=hello): the reply is not one JSON object on one line"},
		{"seq@op 3", harness.Protocol.Name, "op 3 (say text=hello): the reply has seq 4, want 3"},
		{"refuse@op 3", "validity", "the writers disagree on whether op 3 (say text=hello) applies"},
		{"close@op 3", harness.Protocol.Name, "op 3 (say text=hello): closed its output"},
		{"twice@op 3", harness.Protocol.Name, "view off after op 3 (say text=hello): a reply of type \"op\" to a view request"},
		{"nochain@view", harness.Protocol.Name, "view off after op 1 (user id=u1 text=hi): view: chain (missing): want a list of messages"},
	}
	for _, c := range cases {
		t.Run(c.fault, func(t *testing.T) {
			t.Parallel()
			pool, err := process.Open(fakeCommand(c.fault), process.Options{KnownWithout: gen.KnownWithout, Timeout: deadline})
			if err != nil {
				t.Fatal(err)
			}
			defer pool.Close()
			start := time.Now()
			f, err := harness.PlayOn(pool, harness.WrittenOff, script, legacy)
			took := time.Since(start)
			if err != nil {
				t.Fatalf("an error, not a finding: %v", err)
			}
			if f == nil {
				t.Fatal("no finding")
			}
			if took > within {
				t.Errorf("the finding took %s", took)
			}
			if f.Check != c.check || !strings.Contains(f.What, c.what) {
				t.Errorf("finding %s: %q, want %s: %q", f.Check, f.What, c.check, c.what)
			}
			if c.check == harness.Protocol.Name && !strings.Contains(f.Diff, "fake: "+strings.Replace(c.fault, "@", " at ", 1)) {
				t.Errorf("the finding does not carry the process's stderr:\n%s", f.Diff)
			}
			if c.check == "validity" && (!strings.Contains(f.Diff, "this op is not supported") || !strings.Contains(f.Diff, "fake: refuse at op 3")) {
				t.Errorf("the finding does not say why the op was refused:\n%s", f.Diff)
			}
			file := campaign.File(campaign.Case{Check: legacy, Data: harness.WrittenOff, Script: script, Impl: pool}, f, "broken").String()
			if !strings.Contains(file, "#! impl command=") {
				t.Errorf("the finding's file does not name the implementation:\n%s", file)
			}
		})
	}
}

// TestBrokenHandshake: an implementation that hangs before its hello, dies
// before it, or declares what the harness does not know is refused when
// the pool opens, within the deadline, saying why.
func TestBrokenHandshake(t *testing.T) {
	cases := []struct{ command, want string }{
		{fakeCommand("hang@hello"), "no reply within"},
		{fakeCommand("claim@hello"), `claims "perfect": want one of legacy, target, rollout`},
		{"echo 'python: cannot import the original' >&2; exit 1", "cannot import the original"},
		{"echo '{\"type\":\"hello\",\"protocol\":2}'; sleep 5", "protocol 2, want 1"},
	}
	for _, c := range cases {
		t.Run(c.want, func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			_, err := process.Open(c.command, process.Options{KnownWithout: gen.KnownWithout, Timeout: deadline})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Open: %v, want an error saying %q", err, c.want)
			}
			if took := time.Since(start); took > within {
				t.Errorf("the refusal took %s", took)
			}
		})
	}
}

// TestBrokenRestart: an implementation that hangs on a restart gives the
// persistence check's finding within twice the deadline.
func TestBrokenRestart(t *testing.T) {
	script, err := ops.ParseString(brokenScript)
	if err != nil {
		t.Fatal(err)
	}
	persistence, _ := harness.CheckNamed("persistence")
	pool, err := process.Open(fakeCommand("hang@restart"), process.Options{KnownWithout: gen.KnownWithout, Timeout: deadline})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	start := time.Now()
	f, err := harness.PlayOn(pool, harness.WrittenOff, script, persistence)
	if err != nil || f == nil {
		t.Fatalf("finding %v, error %v", f, err)
	}
	if f.Check != harness.Protocol.Name || !strings.HasPrefix(f.What, "restart after op 1 (user id=u1 text=hi): no reply within "+(2*deadline).String()) {
		t.Errorf("finding %s: %q", f.Check, f.What)
	}
	if took := time.Since(start); took > within {
		t.Errorf("the finding took %s", took)
	}
}

// TestUnmodelled: a key of the implementation's own in every message is a
// legacy finding, unless its hello declares the key unmodelled; then both
// sides leave it out and the session holds.
func TestUnmodelled(t *testing.T) {
	script, err := ops.ParseString(brokenScript)
	if err != nil {
		t.Fatal(err)
	}
	legacy, _ := harness.CheckNamed("legacy")
	for _, c := range []struct {
		fault   string
		finding bool
	}{{"stamp@never", true}, {"declared@never", false}} {
		t.Run(c.fault, func(t *testing.T) {
			pool, err := process.Open(fakeCommand(c.fault), process.Options{KnownWithout: gen.KnownWithout, Timeout: 5 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			defer pool.Close()
			f, err := harness.PlayOn(pool, harness.WrittenOff, script, legacy)
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case c.finding && (f == nil || f.Check != "legacy" || !strings.Contains(f.Diff, "pid")):
				t.Errorf("want a legacy finding on pid, got %v", f)
			case !c.finding && f != nil:
				t.Errorf("pid is declared unmodelled, yet: %s: %s\n%s", f.Check, f.What, f.Diff)
			}
		})
	}
}
