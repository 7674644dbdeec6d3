package hunt

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"sessiondag/checker/harness"
	"sessiondag/checker/ops"
)

// Key is what makes two failures the same: the check, the kind of data and
// the reduced script with its ids renamed canonically (ops.Canonical),
// damage directives included. Two reductions that differ only by the
// generator's ids have the same key.
func Key(f *harness.Finding, script []ops.Op) string {
	r := ops.NewRenamer(script)
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", f.Directive().String())
	for _, d := range f.Extra {
		d.Args = slices.Clone(d.Args)
		for i := range d.Args {
			d.Args[i].Value = r.String(d.Args[i].Value)
		}
		fmt.Fprintf(&b, "%s\n", d.String())
	}
	b.WriteString(ops.String(r.Script(script)))
	sum := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(sum[:])
}
