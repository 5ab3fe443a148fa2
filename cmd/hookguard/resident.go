package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/hookguard/hookguard/internal/hook"
	"github.com/hookguard/hookguard/internal/judgeserver"
	"github.com/hookguard/hookguard/internal/pipeline"
	"github.com/hookguard/hookguard/internal/resident"
	"github.com/hookguard/hookguard/internal/statedir"
	"github.com/hookguard/hookguard/rules"
)

// loadPipeline builds the pipeline for one event; the resident evaluator
// replaces it with one that keeps compiled policies between events.
var loadPipeline = pipeline.Load

// inResidentServer is set in `hookguard serve`: the hook runs inside the
// server, which must not try to start itself.
var inResidentServer bool

// residentHook answers one event inside `hookguard serve` for the thin client
// (cmd/hookguard-hook): exactly what `hookguard hook ARGS < event` would write
// and exit with.
func residentHook(args []string, event []byte) resident.Reply {
	var out, errb bytes.Buffer
	code := run(append([]string{"hook"}, args...), bytes.NewReader(event), &out, &errb)
	// Never nil: encoding/json writes nil as null, which the client's
	// reader does not take (resident.ParseReply).
	return resident.Reply{Stdout: append([]byte{}, out.Bytes()...), Stderr: append([]byte{}, errb.Bytes()...), Code: code}
}

// startResidentIfAsked starts the resident evaluator after a hook the thin
// client ran itself because no server answered (it sets
// HOOKGUARD_START_RESIDENT=1), so that the next event finds one. A failure
// only costs speed: it is reported with HOOKGUARD_DEBUG set.
func startResidentIfAsked(stderr io.Writer) {
	if inResidentServer || os.Getenv("HOOKGUARD_START_RESIDENT") != "1" {
		return
	}
	exe, err := os.Executable()
	if err == nil {
		err = judgeserver.Start(statedir.Dir(nil), exe, "--resident")
	}
	if err != nil && os.Getenv("HOOKGUARD_DEBUG") != "" {
		io.WriteString(stderr, "hookguard: resident evaluator not started: "+err.Error()+"\n")
	}
}

// pipelineCache keeps the pipelines the resident evaluator built, by the
// policy files they came from (their paths and contents): an edited policy
// file is a new key, so an answer never comes from an outdated policy.
type pipelineCache struct {
	mu sync.Mutex
	m  map[string]cachedPipeline
}

type cachedPipeline struct {
	p *pipeline.Pipeline
	// warnings is what loading wrote to stderr (a broken project policy),
	// repeated with every answer as a fresh load would.
	warnings []byte
}

// maxCachedPipelines bounds the cache (one entry per workspace and policy).
const maxCachedPipelines = 64

// load is pipeline.Load with the cache in front.
func (c *pipelineCache) load(userPolicy string, ev *hook.Event, stderr io.Writer) (*pipeline.Pipeline, error) {
	key, ok := policyKey(userPolicy, ev.WorkspaceRoots)
	if !ok {
		return pipeline.Load(userPolicy, ev, stderr)
	}
	c.mu.Lock()
	e, hit := c.m[key]
	c.mu.Unlock()
	if hit {
		_, _ = stderr.Write(e.warnings)
		return e.p, nil
	}
	var w bytes.Buffer
	p, err := pipeline.Load(userPolicy, ev, &w)
	_, _ = stderr.Write(w.Bytes())
	if err != nil {
		return nil, err // not kept: the next event reads the files again
	}
	c.mu.Lock()
	if c.m == nil || len(c.m) >= maxCachedPipelines {
		c.m = map[string]cachedPipeline{}
	}
	c.m[key] = cachedPipeline{p: p, warnings: w.Bytes()}
	c.mu.Unlock()
	return p, nil
}

// policyKey identifies the policy an event gets: the user policy's path and
// content and each workspace root's project policy. ok is false when a file
// cannot be read for another reason than its absence (the uncached load then
// reports it).
func policyKey(userPolicy string, roots []string) (string, bool) {
	h := sha256.New()
	add := func(path string) bool {
		h.Write([]byte(path))
		h.Write([]byte{0})
		data, err := os.ReadFile(path)
		switch {
		case err == nil:
			h.Write([]byte{1})
			h.Write(data)
		case errors.Is(err, fs.ErrNotExist):
			h.Write([]byte{2})
		default:
			return false
		}
		h.Write([]byte{0})
		return true
	}
	user := userPolicy
	if user == "" {
		user = rules.UserPolicyPath()
	}
	if user != "" && !add(user) {
		return "", false
	}
	h.Write([]byte{3})
	for _, root := range roots {
		if root != "" && !add(filepath.Join(root, filepath.FromSlash(rules.ProjectPolicyPath))) {
			return "", false
		}
	}
	return hex.EncodeToString(h.Sum(nil)), true
}
