package reconstruct

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"sessiondag/model"
	"sessiondag/ops"
	"sessiondag/reconstruct/proof"
)

func TestExplore(t *testing.T) {
	root := os.Getenv("EXPLORE")
	if root == "" {
		t.Skip()
	}
	dirs, _ := filepath.Glob(root)
	sort.Strings(dirs)
	count := map[string]int{}
	for _, d := range dirs {
		r, err := Path(d)
		if err != nil {
			t.Logf("%s: %v", d, err)
			continue
		}
		count[r.Verdict]++
		if r.Disagree != "" {
			fmt.Println("DISAGREE", d, r.Disagree)
		}
		line := fmt.Sprintf("%-60s %-12s exact=%v gaps=%v", d, r.Verdict, r.Exact, r.Gaps)
		if r.First != nil {
			line += fmt.Sprintf("\n    first: %s %s op=%q field=%s stored=%.120s written=%.120s why=%s", r.First.File, r.First.ID, r.First.Op, r.First.Field, r.First.Stored, r.First.Written, r.First.Why)
		}
		for _, a := range r.Alternatives {
			line += fmt.Sprintf("\n    alt: %s (%s)", a.Change, a.Reason)
		}
		for _, o := range r.Open {
			line += "\n    open: " + o
		}
		if os.Getenv("SCRIPT") != "" {
			line += "\n" + ops.String(r.Script)
		}
		fmt.Println(line)
	}
	fmt.Println(count)
}

func TestExploreGen(t *testing.T) {
	root := os.Getenv("EXPLOREGEN")
	if root == "" {
		t.Skip()
	}
	dirs, _ := filepath.Glob(root)
	sort.Strings(dirs)
	count := map[string]int{}
	for _, d := range dirs {
		r, err := Path(d)
		if err != nil {
			t.Fatal(err)
		}
		f, _ := os.Open(filepath.Join(d, "session.ops"))
		orig, err := ops.Parse(f, "x")
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		v, err := intendedView(r.ID, orig)
		if err != nil {
			t.Fatal(err)
		}
		same := fmt.Sprint(v) == fmt.Sprint(r.View)
		inAlt := same
		for _, a := range r.Alternatives {
			inAlt = inAlt || fmt.Sprint(a.View) == fmt.Sprint(v)
		}
		count[fmt.Sprintf("%s same=%v inalt=%v", r.Verdict, same, inAlt)]++
		if r.Verdict == Reconstructed && !same || r.Verdict == Unexplained {
			fmt.Printf("%s %s same=%v\n", d, r.Verdict, same)
			if r.First != nil {
				fmt.Printf("    first: %s %s op=%q field=%s stored=%.120s written=%.120s why=%s\n", r.First.File, r.First.ID, r.First.Op, r.First.Field, r.First.Stored, r.First.Written, r.First.Why)
			}
		}
	}
	fmt.Println(count)
}

func TestExploreOne(t *testing.T) {
	d := os.Getenv("ONE")
	if d == "" {
		t.Skip()
	}
	r, _ := Path(d)
	f, _ := os.Open(filepath.Join(d, "session.ops"))
	orig, _ := ops.Parse(f, "x")
	v, _ := intendedView(r.ID, orig)
	fmt.Println("ORIG VIEW", v)
	fmt.Println("RECON VIEW", r.View, r.Verdict)
	a, _ := os.Create("/tmp/a.ops")
	a.WriteString(ops.String(orig))
	a.Close()
	c, _ := os.Create("/tmp/b.ops")
	c.WriteString(ops.String(r.Script))
	c.Close()
}

func intendedView(sid string, script []ops.Op) (model.TargetView, error) {
	t := model.NewTarget(sid)
	for i, op := range script {
		if err := t.Apply(op); err != nil {
			return model.TargetView{}, fmt.Errorf("op %d (%s): %w", i+1, ops.Format(op), err)
		}
	}
	return t.View(), nil
}

func TestExploreDiffs(t *testing.T) {
	root := os.Getenv("DIFFS")
	if root == "" {
		t.Skip()
	}
	dirs, _ := filepath.Glob(root)
	count := map[string]int{}
	ex := map[string]string{}
	for _, d := range dirs {
		rd, _ := Read(d)
		b := newBuilder(rd)
		b.quiet = true
		b.run()
		if b.first != nil {
			count["(build stops) "+b.first.Field]++
			continue
		}
		for _, df := range compareAll(b.d, b.modelWrites()) {
			k := ""
			if at, ok := b.wroteAt[df.id]; ok {
				k = b.script[at].Kind()
			}
			key := fmt.Sprintf("%-14s %s", k, df.field)
			count[key]++
			ex[key] = fmt.Sprintf("%s %s stored=%.70s written=%.70s", d, df.file, df.stored, df.written)
		}
	}
	keys := make([]string, 0, len(count))
	for k := range count {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Printf("%5d %s\n      %s\n", count[k], k, ex[k])
	}
}

func TestExploreExtra(t *testing.T) {
	d := os.Getenv("EXTRA")
	if d == "" {
		t.Skip()
	}
	rd, _ := Read(d)
	b := newBuilder(rd)
	b.quiet = true
	b.run()
	for _, df := range compareAll(b.d, b.modelWrites()) {
		if df.field == "metadata.extra" {
			fmt.Println(df.file)
			fmt.Println("S", df.stored)
			fmt.Println("W", df.written)
			return
		}
	}
}

func TestExploreProof(t *testing.T) {
	root := os.Getenv("PROOF")
	if root == "" {
		t.Skip()
	}
	dirs, _ := filepath.Glob(root)
	count := map[string]int{}
	for _, d := range dirs {
		r, _ := Path(d)
		if r.Verdict == Unexplained {
			continue
		}
		p := proof.Place(r.Script)
		count[fmt.Sprintf("%s walked=%v", r.Verdict, p.Walked)]++
		if os.Getenv("V") != "" {
			fmt.Printf("%s %s ops=%d skel=%d walked=%v why=%s unreq=%v\n", d, r.Verdict, p.Ops, len(p.Skeleton), p.Walked, p.Why, p.Unrequired)
		}
	}
	fmt.Println(count)
}

func TestExploreSkel(t *testing.T) {
	d := os.Getenv("SKEL")
	if d == "" {
		t.Skip()
	}
	r, _ := Path(d)
	p := proof.Place(r.Script)
	fmt.Print(ops.String(p.Skeleton))
}
