// Package judgeserver is the judge server and its client. Cursor starts a new
// `hookguard hook` process per event, so an in-process breaker never trips and
// an in-process LRU is always empty; the server (`hookguard serve`) outlives
// them on a unix socket in the state directory and holds the cache, the
// breaker, the HTTP connection pool and the user's recent requests. The
// client starts it on demand and judges in-process when it cannot be reached.
package judgeserver

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/hookguard/hookguard/internal/hook"
	"github.com/hookguard/hookguard/internal/resident"
	"github.com/hookguard/hookguard/judge"
)

// errNoServer is returned where the platform has no judge server (Windows):
// the hook judges in-process, with the persistent cache.
var errNoServer = errors.New("the judge server is not supported on this platform; judging in-process")

// File names inside the state directory.
const (
	SocketFile = "judge.sock"
	LockFile   = "judge.lock"
	LogFile    = "judge.log"
)

// Operations a client can ask for.
const (
	OpJudge    = "judge"
	OpIntent   = "intent"
	OpStatus   = "status"
	OpShutdown = "shutdown"
	// OpHook answers a whole hook event (the thin client's request; see
	// package resident).
	OpHook = resident.OpHook
)

// request is one line from a client: the hook request's fields (op, the
// client's build, and for OpHook the environment digest, arguments and
// event; see resident.Request, which the thin client writes by hand), and
// the judge's.
type request struct {
	resident.Request
	// Config is the client's resolved judge configuration (its environment
	// and policy); the server keeps one judge per distinct configuration.
	Config judge.Config `json:"config"`
	Input  *judge.Input `json:"input,omitempty"`
	// Conversation and Text carry a user request to remember (already redacted).
	Conversation string `json:"conversation,omitempty"`
	Text         string `json:"text,omitempty"`
}

// response is the server's one line back: a hook reply or an error (the
// fields the thin client reads, resident.Response, first), a verdict or a
// status.
type response struct {
	resident.Response
	Result *hook.Result `json:"result,omitempty"`
	Status *Status      `json:"status,omitempty"`
}

// failed is the answer that carries only an error.
func failed(msg string) response { return response{Response: resident.Response{Error: msg}} }

// Status describes a running server.
type Status struct {
	PID           int            `json:"pid"`
	Started       string         `json:"started"`
	Uptime        string         `json:"uptime"`
	Socket        string         `json:"socket"`
	Build         string         `json:"build"`
	Requests      uint64         `json:"requests"`
	Conversations int            `json:"conversations"`
	Judges        []judge.Status `json:"judges"`
}

// SocketPath is the server's socket in dir.
func SocketPath(dir string) string { return filepath.Join(dir, SocketFile) }

// Build identifies the running binary by path, size and modification time.
func Build() string {
	exe, err := os.Executable()
	if err != nil {
		return "unknown"
	}
	return resident.BuildOf(exe)
}
