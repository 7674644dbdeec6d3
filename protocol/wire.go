package protocol

import (
	"encoding/json"
	"errors"
	"fmt"
)

// The wire format of docs/protocol.md, declared once: the harness's client
// (protocol/process) writes requests and reads replies with these types,
// the server of this repository's implementation (protocol/serve) reads
// requests and writes replies with them, and TestWireMatchesPython holds
// the Python implementations in the repository to the same names. Every
// message is one JSON object on one line; fields are written in the order
// the docs show them.

// Version is the protocol version of docs/protocol.md.
const Version = 1

// The message types: a request's "type", and its reply's on success.
const (
	TypeHello   = "hello"
	TypeSession = "session"
	TypeOp      = "op"
	TypeView    = "view"
	TypeRestart = "restart"
	TypeBye     = "bye"
	TypeError   = "error" // the reply to a request that cannot be honoured
)

// Request is every request; Type says which, and only that type's fields
// are set.
type Request struct {
	Type     string `json:"type"`
	Protocol int    `json:"protocol,omitempty"` // hello: the version the harness speaks
	ID       string `json:"id,omitempty"`       // session: the session's id
	Dir      string `json:"dir,omitempty"`      // session: where its files go
	Writer   string `json:"writer,omitempty"`   // session: the writers' config at the start
	Seq      int    `json:"seq,omitempty"`      // op: its position in the script, from 1
	Op       string `json:"op,omitempty"`       // op: one line of the op language
	Config   string `json:"config,omitempty"`   // view: the config to load under
}

// Hello is the reply to hello: what the implementation declares of itself
// (docs/protocol.md, "Handshake").
type Hello struct {
	Type       string     `json:"type"`
	Protocol   int        `json:"protocol"`
	Name       string     `json:"name"`
	Claims     string     `json:"claims"`
	Ops        []string   `json:"ops"`
	Configs    []string   `json:"configs"`
	Views      []string   `json:"views"`
	Restart    bool       `json:"restart,omitempty"`
	Unmodelled []string   `json:"unmodelled,omitempty"`
	Together   [][]string `json:"together,omitempty"`
	Without    []string   `json:"without,omitempty"`
}

// Reply is the reply to every other request, or an error reply to any.
type Reply struct {
	Type  string          `json:"type"`
	Seq   int             `json:"seq,omitempty"`   // op, and the error reply to an op
	Dir   string          `json:"dir,omitempty"`   // session: where the implementation keeps it, when not in the directory given
	IDs   json.RawMessage `json:"ids,omitempty"`   // op: each id the op writes, the script's → the implementation's
	View  json.RawMessage `json:"view,omitempty"`  // view: the views the handshake declared
	Error string          `json:"error,omitempty"` // error: why
}

// AppendViewReply appends to b the reply to view holding view, a JSON
// object written by the caller (a view can be large, and its messages are
// written by their own encoders: Marshal of a Reply would validate it all
// again).
func AppendViewReply(b, view []byte) []byte {
	b = append(b, `{"type":"`+TypeView+`","view":`...)
	b = append(b, view...)
	return append(b, '}')
}

// DecodeReply reads one reply line into v (a *Hello or a *Reply), saying
// which field has the wrong type when one has.
func DecodeReply(line []byte, v any) error {
	err := json.Unmarshal(line, v)
	var te *json.UnmarshalTypeError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &te) && te.Field != "":
		return fmt.Errorf("%s: a JSON %s where the protocol has %s", te.Field, te.Value, goTypeName(te.Type.String()))
	case errors.As(err, &te):
		return fmt.Errorf("a JSON %s, not an object", te.Value)
	}
	return err
}

// goTypeName says a Go type of the wire in the protocol's words.
func goTypeName(t string) string {
	switch t {
	case "string":
		return "a string"
	case "int":
		return "an integer"
	case "bool":
		return "true or false"
	case "[]string":
		return "a list of strings"
	case "[][]string":
		return "a list of lists of strings"
	}
	return t
}
