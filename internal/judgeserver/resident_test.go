package judgeserver

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hookguard/hookguard/internal/resident"
)

// startResident runs a resident evaluator whose hook echoes its input.
func startResident(t *testing.T, dir, env string) string {
	t.Helper()
	s := &Server{Dir: dir, Idle: time.Minute, Build: "test", Env: env, Name: resident.Name(env),
		Hook: func(args []string, event []byte) resident.Reply {
			return resident.Reply{Stdout: append([]byte("answer to "), event...), Stderr: []byte(args[0]), Code: 2}
		}}
	done := make(chan error, 1)
	go func() { done <- s.Serve(context.Background()) }()
	sock := filepath.Join(dir, resident.Name(env)+".sock")
	deadline := time.Now().Add(2 * time.Second)
	for {
		if _, err := os.Stat(sock); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("resident evaluator did not start")
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Cleanup(func() {
		s.Shutdown()
		<-done
	})
	return sock
}

// ask sends one raw line and returns the decoded answer.
func ask(t *testing.T, sock string, line []byte) response {
	t.Helper()
	conn, err := net.Dial("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.Write(line); err != nil {
		t.Fatal(err)
	}
	b, err := bufio.NewReader(conn).ReadBytes('\n')
	if err != nil {
		t.Fatal(err)
	}
	var resp response
	if err := json.Unmarshal(b, &resp); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return resp
}

func TestResidentAnswersHookRequests(t *testing.T) {
	dir := t.TempDir()
	env := resident.EnvDigest([]string{"HOME=/home/a"})
	sock := startResident(t, dir, env)
	tests := []struct {
		name    string
		req     resident.Request
		wantErr bool
	}{
		{"same environment", resident.Request{Op: resident.OpHook, Build: "test", Env: env, Args: []string{"--dialect"}, Event: []byte("{}")}, false},
		{"another environment", resident.Request{Op: resident.OpHook, Build: "test", Env: "other", Args: []string{"x"}, Event: []byte("{}")}, true},
	}
	for _, tt := range tests {
		resp := ask(t, sock, resident.EncodeRequest(tt.req))
		if tt.wantErr {
			if resp.Error == "" || resp.Hook != nil {
				t.Errorf("%s: %+v", tt.name, resp)
			}
			continue
		}
		if resp.Hook == nil || string(resp.Hook.Stdout) != "answer to {}" || string(resp.Hook.Stderr) != "--dialect" || resp.Hook.Code != 2 {
			t.Errorf("%s: %+v", tt.name, resp)
		}
	}
	// A resident evaluator neither judges nor remembers requests: that is
	// the judge server's state.
	for _, op := range []string{OpJudge, OpIntent} {
		b, _ := json.Marshal(request{Request: resident.Request{Op: op, Build: "test"}})
		if resp := ask(t, sock, append(b, '\n')); resp.Error == "" {
			t.Errorf("%s on a resident evaluator: %+v", op, resp)
		}
	}
	// The judge server's own socket is not taken.
	if _, err := os.Stat(SocketPath(dir)); err == nil {
		t.Error("the resident evaluator listens on the judge server's socket")
	}
}

func TestJudgeServerRefusesHookRequests(t *testing.T) {
	dir := t.TempDir()
	startServer(t, dir, time.Minute)
	resp := ask(t, SocketPath(dir), resident.EncodeRequest(resident.Request{Op: resident.OpHook, Build: "test", Event: []byte("{}")}))
	if resp.Error == "" || resp.Hook != nil {
		t.Fatalf("%+v", resp)
	}
}

// TestHookReplyIsWhatTheThinClientReads: the server's reply line, as it
// marshals it, is what resident.ParseReply (the thin client's reader) takes.
func TestHookReplyIsWhatTheThinClientReads(t *testing.T) {
	rep := resident.Reply{Stdout: []byte(`{"permission":"allow"}` + "\n"), Stderr: []byte{}, Code: 0}
	b, err := json.Marshal(response{Response: resident.Response{Hook: &rep}})
	if err != nil {
		t.Fatal(err)
	}
	got, err := resident.ParseReply(b)
	if err != nil || string(got.Stdout) != string(rep.Stdout) || got.Code != 0 {
		t.Fatalf("ParseReply(%s) = %+v, %v", b, got, err)
	}
	if _, err := resident.ParseReply(mustJSON(t, failed("stale server"))); err == nil {
		t.Fatal("an error answer was read as a reply")
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
