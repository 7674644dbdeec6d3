package store

import "io/fs"

// FileKind names the type of a file a reader of session directories
// refuses ("a named pipe", "a directory", ...), or "" for a regular file
// or a type it has no name for: every refusal of a file by its type,
// here and in the audit, is worded with it.
func FileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return ""
}

// kind names the type of the file id is of, for a reader that refuses it.
func (id fileID) kind() string {
	if k := FileKind(id.fileMode()); k != "" {
		return k
	}
	return "not a regular file"
}
