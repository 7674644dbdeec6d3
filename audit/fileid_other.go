//go:build !unix

package audit

import "io/fs"

// fileID is a directory's identity where the system gives none the audit
// reads: none, so a loop of links could not be cut.
type fileID struct{ name string }

// followLinks: without identities links are refused, each a problem.
const followLinks = false

func idOf(fs.FileInfo) (fileID, bool) { return fileID{}, false }
