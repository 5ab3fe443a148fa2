package judgeserver

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sashabaranov/go-openai"

	"github.com/hookguard/hookguard/cache"
	"github.com/hookguard/hookguard/internal/resident"
	"github.com/hookguard/hookguard/internal/text"
	"github.com/hookguard/hookguard/judge"
)

// ErrRunning means another server already holds the state directory.
var ErrRunning = errors.New("a judge server is already running")

// Server is the judge server.
type Server struct {
	// Dir is the state directory (socket, lock, persistent cache).
	Dir string
	// Idle is how long the server waits without a request before it exits.
	Idle time.Duration
	// Build identifies this binary (see Build); clients with another exit it.
	Build string
	// HTTPClient, when set, is used for model calls (tests).
	HTTPClient openai.HTTPDoer
	// Logf receives diagnostics; nil discards them.
	Logf func(format string, args ...any)
	// Getenv reads the server's environment (the model key); nil is os.Getenv.
	Getenv func(string) string
	// Hook, when set, answers whole hook events for the thin client (the
	// resident evaluator): it runs `hookguard hook` on the event in this
	// process. Env is the digest of this server's environment
	// (resident.EnvDigest); a client with another is told to answer itself.
	Hook func(args []string, event []byte) resident.Reply
	Env  string
	// Name, when set, makes this a resident evaluator rather than the judge
	// server: its socket and lock are Name.sock and Name.lock in Dir (one per
	// environment, see resident.Name), and it holds no judge or cache of its
	// own: the hooks it runs reach the judge server like any hook does.
	Name string

	mu       sync.Mutex
	judges   map[string]*judge.Judge
	order    []string
	cache    cache.Cache
	intents  *judge.Intents
	started  time.Time
	lastSeen atomic.Int64
	active   atomic.Int32
	requests atomic.Uint64
	ln       net.Listener
	stop     chan struct{}
	stopOnce sync.Once
}

// maxJudges bounds the judges kept for distinct configurations.
const maxJudges = 16

// Serve runs until ctx ends, the server is idle for s.Idle, or a client asks
// it to stop. It returns ErrRunning when another server holds the directory.
func (s *Server) Serve(ctx context.Context) error {
	if s.Idle <= 0 {
		s.Idle = 10 * time.Minute
	}
	if s.Logf == nil {
		s.Logf = func(string, ...any) {}
	}
	if err := cache.EnsureDir(s.Dir); err != nil {
		return err
	}
	lockFile, sock := LockFile, SocketPath(s.Dir)
	if s.Name != "" {
		lockFile, sock = s.Name+".lock", filepath.Join(s.Dir, s.Name+".sock")
	}
	lock, err := os.OpenFile(filepath.Join(s.Dir, lockFile), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return fmt.Errorf("open server lock: %w", err)
	}
	defer lock.Close()
	if err := lockExclusive(lock); err != nil {
		return err
	}
	_ = os.Remove(sock) // stale: we hold the lock, so no server owns it
	ln, err := listenPrivate(sock)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", sock, err)
	}
	if err := os.Chmod(sock, 0o600); err != nil {
		ln.Close()
		return fmt.Errorf("secure socket: %w", err)
	}
	if s.Name == "" {
		store, err := cache.OpenStore(s.Dir, nil)
		if err != nil {
			s.Logf("persistent cache off: %v", err)
			store = nil
		}
		s.cache = cache.NewTiered(cache.NewMemory(8192, nil), store)
	}
	s.intents = judge.NewIntents(judge.IntentTTL, nil)
	s.judges = map[string]*judge.Judge{}
	s.started = time.Now()
	s.touch()
	s.mu.Lock()
	s.ln = ln
	s.mu.Unlock()
	stop := s.stopCh()
	s.Logf("%s %d listening on %s", s.kind(), os.Getpid(), sock)

	go s.watch(ctx)
	var wg sync.WaitGroup
	for {
		conn, err := ln.Accept()
		if err != nil {
			select {
			case <-stop:
				wg.Wait()
				// Remove the socket only if it is still ours.
				_ = os.Remove(sock)
				return nil
			default:
			}
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				continue
			}
			s.Shutdown()
			wg.Wait()
			return fmt.Errorf("accept: %w", err)
		}
		wg.Go(func() { s.handle(conn.(*net.UnixConn)) })
	}
}

// Shutdown stops the server.
func (s *Server) Shutdown() {
	stop := s.stopCh()
	s.stopOnce.Do(func() {
		close(stop)
		s.mu.Lock()
		ln := s.ln
		s.mu.Unlock()
		if ln != nil {
			ln.Close()
		}
	})
}

func (s *Server) stopCh() chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stop == nil {
		s.stop = make(chan struct{})
	}
	return s.stop
}

func (s *Server) kind() string {
	if s.Name != "" {
		return "resident evaluator"
	}
	return "judge server"
}

func (s *Server) socket() string {
	if s.Name != "" {
		return filepath.Join(s.Dir, s.Name+".sock")
	}
	return SocketPath(s.Dir)
}

func (s *Server) touch() { s.lastSeen.Store(time.Now().UnixNano()) }

// watch stops the server when ctx ends or it has been idle long enough.
func (s *Server) watch(ctx context.Context) {
	tick := time.NewTicker(min(s.Idle/4+time.Millisecond, 5*time.Second))
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			s.Shutdown()
			return
		case <-s.stopCh():
			return
		case <-tick.C:
			idle := time.Since(time.Unix(0, s.lastSeen.Load()))
			if s.active.Load() == 0 && idle >= s.Idle {
				s.Logf("idle for %s, exiting", idle.Round(time.Second))
				s.Shutdown()
				return
			}
		}
	}
}

func (s *Server) handle(conn *net.UnixConn) {
	defer conn.Close()
	s.active.Add(1)
	defer s.active.Add(-1)
	defer s.touch()
	s.touch()
	if uid, err := peerUID(conn); err != nil || uid != os.Getuid() {
		s.Logf("refused a peer (uid %d): %v", uid, err)
		return
	}
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	r := bufio.NewReaderSize(conn, 64<<10)
	line, err := r.ReadBytes('\n')
	if err != nil && len(line) == 0 {
		return
	}
	var req request
	if err := json.Unmarshal(line, &req); err != nil {
		s.reply(conn, failed("bad request: "+err.Error()))
		return
	}
	s.requests.Add(1)
	if req.Build != "" && s.Build != "" && req.Build != s.Build && req.Op != OpShutdown {
		s.reply(conn, failed("stale server: built from another binary, exiting"))
		s.Logf("client build %q differs from ours, exiting", req.Build)
		s.Shutdown()
		return
	}
	switch req.Op {
	case OpJudge:
		if s.Name != "" {
			s.reply(conn, failed("a resident evaluator does not judge; ask the judge server"))
			return
		}
		if req.Input == nil {
			s.reply(conn, failed("judge: no input"))
			return
		}
		j, err := s.judgeFor(req.Config)
		if err != nil {
			s.reply(conn, failed(err.Error()))
			return
		}
		res := j.Decide(context.Background(), *req.Input)
		s.reply(conn, response{Result: &res})
	case OpHook:
		switch {
		case s.Hook == nil:
			s.reply(conn, failed("this server does not answer hook events"))
		case req.Env != s.Env:
			s.reply(conn, failed("the client's environment differs from the server's"))
		default:
			rep := s.Hook(req.Args, req.Event)
			s.reply(conn, response{Response: resident.Response{Hook: &rep}})
		}
	case OpIntent:
		if s.Name != "" {
			s.reply(conn, failed("a resident evaluator keeps no user requests"))
			return
		}
		s.intents.Remember(req.Conversation, text.Truncate(req.Text, 2000))
		s.reply(conn, response{})
	case OpStatus:
		st := s.status()
		s.reply(conn, response{Status: &st})
	case OpShutdown:
		s.reply(conn, response{})
		s.Shutdown()
	default:
		s.reply(conn, failed(fmt.Sprintf("unknown op %q", req.Op)))
	}
}

func (s *Server) reply(conn net.Conn, resp response) {
	_ = conn.SetWriteDeadline(time.Now().Add(5 * time.Second))
	b, _ := json.Marshal(resp)
	_, _ = conn.Write(append(b, '\n'))
}

// configKey identifies a judge configuration (the key included, hashed).
func configKey(c judge.Config) string {
	b, _ := json.Marshal(struct {
		C   judge.Config
		Key string
	}{c, c.APIKey})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// judgeFor returns the judge for a client's configuration, creating it the
// first time; all judges share the cache and the user requests.
func (s *Server) judgeFor(c judge.Config) (*judge.Judge, error) {
	c.StateDir = s.Dir
	if c.APIKey == "" && c.KeyDigest != "" {
		getenv := s.Getenv
		if getenv == nil {
			getenv = os.Getenv
		}
		key := judge.EnvKey(getenv)
		if judge.KeyDigest(key) != c.KeyDigest {
			return nil, errors.New("the judge server's environment holds another model key")
		}
		c.APIKey = key
	}
	k := configKey(c)
	s.mu.Lock()
	defer s.mu.Unlock()
	if j, ok := s.judges[k]; ok {
		return j, nil
	}
	c.Cache = s.cache
	c.Intents = s.intents
	c.HTTPClient = s.HTTPClient
	c.Logf = s.Logf
	j, err := judge.New(c)
	if err != nil {
		return nil, err
	}
	if len(s.order) >= maxJudges {
		delete(s.judges, s.order[0])
		s.order = s.order[1:]
	}
	s.judges[k] = j
	s.order = append(s.order, k)
	s.Logf("judge for %s (prompt %s)", c.Endpoint(), j.PromptVersion())
	return j, nil
}

func (s *Server) status() Status {
	s.mu.Lock()
	judges := make([]*judge.Judge, 0, len(s.order))
	for _, k := range s.order {
		judges = append(judges, s.judges[k])
	}
	s.mu.Unlock()
	st := Status{
		PID: os.Getpid(), Started: s.started.Format(time.RFC3339),
		Uptime: time.Since(s.started).Round(time.Second).String(),
		Socket: s.socket(), Build: s.Build, Requests: s.requests.Load(),
		Conversations: s.intents.Len(),
	}
	for _, j := range judges {
		st.Judges = append(st.Judges, j.Status())
	}
	return st
}
