package benchgate

import (
	"bytes"
	"math/rand"
	"os"
	"path/filepath"
	"testing"
)

func TestZZRandom(t *testing.T) {
	r := rand.New(rand.NewSource(42))
	seeds := []string{
		header + runs("Load-2", seq(100, 1, 10), "512 B/op\t10 allocs/op"),
		header + runs("Load/x=1-2", seq(1e-3, 1e-4, 6), "0 B/op\t0 allocs/op 3 MB/s"),
		"Unit ns/op better=higher assume=exact\nBenchmarkX 1 1 ns/op\nBenchmarkX 1 0 ns/op\n",
	}
	tokens := []string{"NaN", "-Inf", "1e308", "-5", "0", "\n", "\t", " ", "ns/op", "B/op", "allocs/op", "Benchmark", "pkg: q\n", "-", "/", "%", "1e-320", "Unit "}
	dir := t.TempDir()
	op, np := filepath.Join(dir, "o"), filepath.Join(dir, "n")
	mut := func(s string) string {
		b := []byte(s)
		for k := r.Intn(8); k >= 0; k-- {
			if len(b) == 0 {
				b = append(b, tokens[r.Intn(len(tokens))]...)
				continue
			}
			i := r.Intn(len(b))
			switch r.Intn(4) {
			case 0:
				b[i] = byte(r.Intn(256))
			case 1:
				b = append(b[:i], append([]byte(tokens[r.Intn(len(tokens))]), b[i:]...)...)
			case 2:
				j := i + r.Intn(len(b)-i)
				b = append(b[:i], b[j:]...)
			case 3:
				b = append(b, b[i:]...)
			}
		}
		return string(b)
	}
	for it := 0; it < 20000; it++ {
		o, n := mut(seeds[r.Intn(len(seeds))]), mut(seeds[r.Intn(len(seeds))])
		os.WriteFile(op, []byte(o), 0o644)
		os.WriteFile(np, []byte(n), 0o644)
		var a, e bytes.Buffer
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Fatalf("panic %v\nOLD %q\nNEW %q", p, o, n)
				}
			}()
			if c := Main([]string{op, np}, &a, &e); c < 0 || c > 2 {
				t.Fatal(c)
			}
		}()
	}
}
