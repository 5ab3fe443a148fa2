// Package resident is the wire between the thin hook client
// (cmd/hookguard-hook) and the resident evaluator in `hookguard serve`.
//
// Cursor starts a process per event, and most of a `hookguard hook` process's
// time goes to starting a large program: linking, package initialization,
// loading the policy. The thin client is a small program that hands the event
// to the server, which already holds the compiled policy, and prints the
// answer it gets back: the same bytes, stderr and exit code `hookguard hook`
// would give. When no server can be reached, or the server cannot answer for
// this client (another build, another environment), the client runs
// `hookguard hook` itself, so the answer never depends on the server.
//
// The package is imported by the thin client, so it stays within the
// standard library's lighter packages.
package resident

import (
	"bytes"
	"encoding/base64"
	"errors"
	"hash/fnv"
	"os"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// OpHook asks the server to answer one hook event.
const OpHook = "hook"

// Request is the client's one line to the server. The judge server's own
// request embeds it, so both ends read the same fields.
type Request struct {
	Op string `json:"op"`
	// Build identifies the hookguard binary the client would run itself
	// (BuildOf): a server built from another binary exits.
	Build string `json:"build"`
	// Env is the digest of the client's environment (EnvDigest); the server
	// answers only when its own is the same.
	Env string `json:"env"`
	// Args are the arguments after `hook`.
	Args []string `json:"args"`
	// Event is stdin as read (at most the event size cap plus one byte).
	Event []byte `json:"event"`
}

// Reply is what `hookguard hook` wrote and the code it exited with. Both
// streams travel as base64, so that the client reads the reply without a
// JSON decoder (ParseReply).
type Reply struct {
	Stdout []byte `json:"stdout"`
	Stderr []byte `json:"stderr"`
	Code   int    `json:"code"`
}

// MaxEventBytes is the event size cap (hook.MaxEventBytes, which a test
// keeps equal): the client reads one byte more, and the server reports an
// oversized event as hookguard would.
const MaxEventBytes = 8 << 20

// Response is the part of the server's one line back that the thin client
// reads (the judge server's response embeds it first): the reply, or why
// there is none (the client then answers by itself).
type Response struct {
	Hook  *Reply `json:"hook,omitempty"`
	Error string `json:"error,omitempty"`
}

// envIgnored are variables that do not change an answer: where the state
// directory is (the socket already says), and the client's and server's own
// switches.
var envIgnored = map[string]bool{
	"HOOKGUARD_STATE_DIR": true, "HOOKGUARD_START_RESIDENT": true, "HOOKGUARD_RESIDENT": true, "HOOKGUARD_BIN": true,
	"HOOKGUARD_SERVE_IDLE": true, "HOOKGUARD_DEBUG": true,
}

// relevant reports a variable that can change how an event is answered:
// hookguard's own settings, the judge endpoint and key, where the user's
// policy lives, and Claude Code's project directory.
func relevant(name string) bool {
	if envIgnored[name] {
		return false
	}
	switch name {
	case "HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "CLAUDE_PROJECT_DIR":
		return true
	}
	return strings.HasPrefix(name, "HOOKGUARD_") || strings.HasPrefix(name, "OPENAI_")
}

// EnvDigest is a digest of the variables in environ (NAME=value lines, as
// os.Environ gives them) that can change an answer. Values never travel: a
// model key is compared by digest only, over a socket only its user can reach.
func EnvDigest(environ []string) string {
	var lines []string
	for _, kv := range environ {
		name, _, ok := strings.Cut(kv, "=")
		if ok && relevant(name) {
			lines = append(lines, kv)
		}
	}
	sort.Strings(lines)
	// FNV-128a, not a cryptographic hash: both ends belong to one user, and
	// the digest only tells apart configurations (crypto/sha256 would cost
	// the thin client more to start than the rest of its work).
	h := fnv.New128a()
	for _, l := range lines {
		h.Write([]byte(l))
		h.Write([]byte{0})
	}
	return hexString(h.Sum(nil))
}

// hexString is encoding/hex's EncodeToString (which links fmt).
func hexString(b []byte) string {
	const digits = "0123456789abcdef"
	out := make([]byte, 0, 2*len(b))
	for _, c := range b {
		out = append(out, digits[c>>4], digits[c&0xf])
	}
	return string(out)
}

// EncodeRequest writes r as the one JSON line the server reads, without
// encoding/json (the thin client does not link it).
func EncodeRequest(r Request) []byte {
	b := make([]byte, 0, 256+base64.StdEncoding.EncodedLen(len(r.Event)))
	b = append(b, `{"op":`...)
	b = appendJSONString(b, r.Op)
	b = append(b, `,"build":`...)
	b = appendJSONString(b, r.Build)
	b = append(b, `,"env":`...)
	b = appendJSONString(b, r.Env)
	b = append(b, `,"args":[`...)
	for i, a := range r.Args {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, a)
	}
	b = append(b, `],"event":"`...)
	b = base64.StdEncoding.AppendEncode(b, r.Event)
	b = append(b, `"}`...)
	return append(b, '\n')
}

// appendJSONString appends s as a JSON string: quotes, backslashes and
// control characters escaped, invalid UTF-8 replaced (as encoding/json does).
func appendJSONString(b []byte, s string) []byte {
	const hexDigits = "0123456789abcdef"
	b = append(b, '"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b = append(b, '\\', byte(r))
		case r < 0x20:
			b = append(b, '\\', 'u', '0', '0', hexDigits[r>>4], hexDigits[r&0xf])
		default:
			b = utf8.AppendRune(b, r)
		}
	}
	return append(b, '"')
}

// DenyLine is the deny answer for an event that cannot be handled, in every
// dialect's fields (hook.DenyUnreadable's shape), as one JSON line.
func DenyLine(user, agent string) []byte {
	b := []byte(`{"agent_message":`)
	b = appendJSONString(b, agent)
	b = append(b, `,"continue":false,"permission":"deny","user_message":`...)
	b = appendJSONString(b, user)
	return append(b, "}\n"...)
}

// ErrNoReply says the server's line holds no reply (an error, or something
// this client does not read): the client then answers by itself.
var ErrNoReply = errors.New("the server gave no reply")

// ParseReply reads the server's line as encoding/json writes a Response
// holding a Reply ({"hook":{"stdout":"…","stderr":"…","code":N}}), without a
// JSON decoder. Anything else is ErrNoReply.
func ParseReply(line []byte) (*Reply, error) {
	rest, ok := bytes.CutPrefix(bytes.TrimSpace(line), []byte(`{"hook":{"stdout":"`))
	if !ok {
		return nil, ErrNoReply
	}
	var rep Reply
	var err error
	if rep.Stdout, rest, err = cutBase64(rest); err != nil {
		return nil, err
	}
	if after, null := bytes.CutPrefix(rest, []byte(`,"stderr":null`)); null {
		rest = after
	} else {
		if rest, ok = bytes.CutPrefix(rest, []byte(`,"stderr":"`)); !ok {
			return nil, ErrNoReply
		}
		if rep.Stderr, rest, err = cutBase64(rest); err != nil {
			return nil, err
		}
	}
	if rest, ok = bytes.CutPrefix(rest, []byte(`,"code":`)); !ok {
		return nil, ErrNoReply
	}
	digits, ok := bytes.CutSuffix(rest, []byte(`}}`))
	if !ok {
		return nil, ErrNoReply
	}
	code, err := strconv.Atoi(string(digits))
	if err != nil || code < 0 || code > 255 {
		return nil, ErrNoReply
	}
	rep.Code = code
	return &rep, nil
}

// cutBase64 decodes the base64 up to the closing quote and returns what
// follows it.
func cutBase64(b []byte) ([]byte, []byte, error) {
	i := bytes.IndexByte(b, '"')
	if i < 0 {
		return nil, nil, ErrNoReply
	}
	dec, err := base64.StdEncoding.AppendDecode(nil, b[:i])
	if err != nil {
		return nil, nil, ErrNoReply
	}
	return dec, b[i+1:], nil
}

// Name is the file name (without .sock or .lock) of the resident
// evaluator for an environment digest: one evaluator per environment, so
// that hooks run with different settings never share one.
func Name(envDigest string) string {
	if len(envDigest) > 16 {
		envDigest = envDigest[:16]
	}
	return "resident-" + envDigest
}

// BuildOf identifies the binary at exe by path, modification time and size:
// a rebuilt or upgraded binary has another identity.
func BuildOf(exe string) string {
	st, err := os.Stat(exe)
	if err != nil {
		return exe
	}
	return exe + "@" + st.ModTime().UTC().Format("20060102T150405.000000000") + "/" + strconv.FormatInt(st.Size(), 10)
}
