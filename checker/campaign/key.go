package campaign

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"sessiondag/ops"
)

// Key is what makes two failures the same: the check, the kind of data (and
// the writers' flags where they are not the kind's own), the damage and the
// script, with the ids renamed canonically (ops.Canonical). Two reductions
// that differ only by the generator's ids, or were found by different
// drivers, have the same key.
func Key(c Case) string {
	cc := canonical(c)
	var b strings.Builder
	b.WriteString(checkLine(cc).String())
	b.WriteByte('\n')
	for _, d := range cc.directives() {
		b.WriteString(d.String())
		b.WriteByte('\n')
	}
	b.WriteString(ops.String(cc.Script))
	sum := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(sum[:])
}
