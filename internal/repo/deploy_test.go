package repo

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The Kubernetes manifests are checked line by line, not parsed as YAML: the
// module has no YAML parser among its dependencies, and in these flat
// manifests each key checked sits alone on its own line ("key: value"). A
// document is the text between "---" lines, comments removed (from "#" at
// the start of a line or " #" within it: no quoted value holds one); a Job
// is a document with a "kind: Job" line.

// shardFlag is --shard i/N as the Jobs write it, i being the completion
// index Kubernetes gives each pod, expanded by the shell.
var shardFlag = regexp.MustCompile(`--shard\s+"?\$\{?JOB_COMPLETION_INDEX\}?/(\d+)"?`)

// claimFlags are --claim DIR --claimant NAME as the Jobs write them, the
// name holding the completion index (a retried pod keeps its claims).
var claimFlags = regexp.MustCompile(`--claim\s+(\S+)\s+--claimant\s+"?[^"\s]*\$\{?JOB_COMPLETION_INDEX\}?[^"\s]*"?`)

// TestDeployJobsShardByCompletionIndex: each Job in deploy/k8s is an Indexed
// Job whose pod i runs shard i/N with N its number of completions, or claims
// parts in a directory on a volume every pod mounts under a name holding i,
// through a shell (the index is a variable the Job controller adds, not one
// the spec lists, so Kubernetes' own $(VAR) expansion is not relied on), and
// whose failure policy needs restartPolicy Never and treats exit 1
// (findings) as no reason to retry.
func TestDeployJobsShardByCompletionIndex(t *testing.T) {
	root := repoRoot(t)
	paths, err := filepath.Glob(filepath.Join(root, "deploy", "k8s", "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	jobs := 0
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, path)
		for i, doc := range manifestDocs(string(data)) {
			if value(doc, "kind") != "Job" {
				continue
			}
			jobs++
			checkShardedJob(t, filepath.ToSlash(rel)+" document "+strconv.Itoa(i+1), doc, manifestDocs(string(data)))
		}
	}
	if jobs < 2 {
		t.Errorf("found %d Jobs in deploy/k8s, want the exhaust and hunt Jobs", jobs)
	}
}

func checkShardedJob(t *testing.T, where string, doc []string, all [][]string) {
	t.Helper()
	if got := value(doc, "completionMode"); got != "Indexed" {
		t.Errorf("%s: completionMode is %q, want Indexed", where, got)
	}
	completions, err := strconv.Atoi(value(doc, "completions"))
	if err != nil || completions < 1 {
		t.Errorf("%s: completions %q is not a positive number", where, value(doc, "completions"))
	}
	if p, err := strconv.Atoi(value(doc, "parallelism")); err != nil || p < 1 || p > completions {
		t.Errorf("%s: parallelism %q is not between 1 and completions (%d)", where, value(doc, "parallelism"), completions)
	}
	text := strings.Join(doc, "\n")
	if !strings.Contains(text, `command: ["sh", "-c"]`) {
		t.Errorf(`%s: the container does not run its command through command: ["sh", "-c"]`, where)
	}
	if strings.Contains(text, "$(JOB_COMPLETION_INDEX)") {
		t.Errorf("%s: $(JOB_COMPLETION_INDEX) is a command substitution to sh; write $JOB_COMPLETION_INDEX", where)
	}
	flags := shardFlag.FindAllStringSubmatch(text, -1)
	claims := claimFlags.FindAllStringSubmatch(text, -1)
	switch {
	case strings.Contains(text, "--claim ") && len(claims) == 0:
		t.Errorf("%s: want --claim DIR --claimant NAME with $JOB_COMPLETION_INDEX in the name (a retried pod finishes its claims)", where)
	case len(claims) > 0:
		if len(flags) > 0 || len(claims) != strings.Count(text, "--claim ") {
			t.Errorf("%s: want every --claim to be --claim DIR --claimant NAME-$JOB_COMPLETION_INDEX, and no --shard beside it", where)
		}
		for _, m := range claims {
			checkSharedVolume(t, where, doc, all, m[1])
		}
	case len(flags) == 0 || len(flags) != strings.Count(text, "--shard"):
		t.Errorf("%s: want every --shard to be --shard \"$JOB_COMPLETION_INDEX/N\"; found %d of %d", where, len(flags), strings.Count(text, "--shard"))
	}
	for _, m := range flags {
		if n, _ := strconv.Atoi(m[1]); n != completions {
			t.Errorf("%s: %s, but completions is %d: shards would be skipped or run twice", where, m[0], completions)
		}
	}
	if got := value(doc, "restartPolicy"); got != "Never" {
		t.Errorf("%s: restartPolicy is %q; podFailurePolicy needs Never", where, got)
	}
	for _, key := range []string{"backoffLimit", "podFailurePolicy"} {
		if !hasKey(doc, key) {
			t.Errorf("%s: no %s", where, key)
		}
	}
	if !strings.Contains(text, "action: FailIndex") || !strings.Contains(text, "values: [1]") {
		t.Errorf("%s: podFailurePolicy has no FailIndex rule for exit code 1 (a shard that found failures would be retried)", where)
	}
}

// checkSharedVolume: the claims' directory is where the pods mount a
// volume of a claim the manifest defines, readable and writable by every
// pod on every node (ReadWriteMany).
func checkSharedVolume(t *testing.T, where string, doc []string, all [][]string, dir string) {
	t.Helper()
	mounted := false
	for i, line := range doc {
		if k, v, _ := strings.Cut(strings.TrimSpace(line), ":"); strings.TrimPrefix(k, "- ") == "mountPath" && strings.TrimSpace(v) == dir {
			mounted = i > 0 && strings.Contains(doc[i-1], "name:")
		}
	}
	if !mounted {
		t.Errorf("%s: --claim %s, but no volume is mounted there", where, dir)
	}
	claim := value(doc, "claimName")
	for _, other := range all {
		if value(other, "kind") == "PersistentVolumeClaim" && value(other, "name") == claim {
			if !strings.Contains(strings.Join(other, "\n"), "ReadWriteMany") {
				t.Errorf("%s: the claim %s is not ReadWriteMany: pods on other nodes cannot claim", where, claim)
			}
			return
		}
	}
	t.Errorf("%s: the volume at %s is no claim this manifest defines (claimName %q)", where, dir, claim)
}

// manifestDocs splits a manifest into its YAML documents, as lines without
// comments.
func manifestDocs(text string) [][]string {
	var docs [][]string
	var cur []string
	for line := range strings.Lines(text) {
		line = strings.TrimRight(line, "\r\n")
		if strings.HasPrefix(strings.TrimSpace(line), "#") {
			line = ""
		} else if i := strings.Index(line, " #"); i >= 0 {
			line = line[:i]
		}
		if line == "---" {
			docs = append(docs, cur)
			cur = nil
			continue
		}
		cur = append(cur, line)
	}
	return append(docs, cur)
}

// value is what follows "key:" on the first line of doc that holds the key,
// without quotes; "" if no line does.
func value(doc []string, key string) string {
	for _, line := range doc {
		k, v, ok := strings.Cut(strings.TrimSpace(line), ":")
		if !ok || strings.TrimPrefix(k, "- ") != key {
			continue
		}
		return strings.Trim(strings.TrimSpace(v), `"'`)
	}
	return ""
}

func hasKey(doc []string, key string) bool {
	for _, line := range doc {
		if k, _, ok := strings.Cut(strings.TrimSpace(line), ":"); ok && strings.TrimPrefix(k, "- ") == key {
			return true
		}
	}
	return false
}
