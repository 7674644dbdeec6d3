// Package protocol is the room of the implementation under test: what an
// implementation is to the harness (Impl, Starter, About), the
// implementation protocol's wire format, declared once here for both of
// its sides (wire.go), and the rules of its handshake (hello.go). Its
// subpackages are those sides: process, the harness's client that runs an
// implementation as a process, and serve, the implementation in this
// repository behind the protocol (`sessiondag serve`). docs/protocol.md is
// the protocol's text.
package protocol
