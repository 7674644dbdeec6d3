package main

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestUsageMatchesREADME: the README's command table lists the commands of
// the usage text, in its order, with the same arguments: a row reads
// "| `sessiondag NAME ARGS` | what it does |".
func TestUsageMatchesREADME(t *testing.T) {
	f, err := os.Open("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var got []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		rest, ok := strings.CutPrefix(line, "| `sessiondag ")
		if !ok {
			continue
		}
		usage, _, ok := strings.Cut(rest, "` |")
		if !ok {
			t.Errorf("README.md: a command row without a closing \"` |\": %s", line)
			continue
		}
		got = append(got, usage)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	want := make([]string, len(commands))
	for i, c := range commands {
		want[i] = strings.TrimSpace(c.name + " " + c.args)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("README.md's command table and the usage text disagree (-usage +README):\n%s", diff)
	}
}
