package resident

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/hookguard/hookguard/internal/hook"
)

func TestEncodeRequestIsTheJSONTheServerReads(t *testing.T) {
	for _, r := range []Request{
		{Op: OpHook, Build: "/usr/local/bin/hookguard@20261204T000000.000000000/123", Env: "abc", Args: []string{"--dialect", "cursor"},
			Event: []byte(`{"hook_event_name":"beforeShellExecution","command":"echo \"hi\"\n"}`)},
		{Op: OpHook, Build: "C:\\Program Files\\hookguard.exe", Env: "", Args: nil, Event: nil},
		{Op: OpHook, Build: "quote \" backslash \\ tab \t nul \x00 bell \x07 é 漢", Args: []string{"--policy", "/tmp/p \"x\".yaml"},
			Event: []byte{0xff, 0xfe, 0, '\n'}},
	} {
		line := EncodeRequest(r)
		if line[len(line)-1] != '\n' {
			t.Fatalf("no newline: %q", line)
		}
		var got Request
		if err := json.Unmarshal(line, &got); err != nil {
			t.Fatalf("%q does not decode: %v", line, err)
		}
		if len(got.Args) == 0 && len(r.Args) == 0 {
			got.Args = r.Args
		}
		if len(got.Event) == 0 && len(r.Event) == 0 {
			got.Event = r.Event
		}
		if !reflect.DeepEqual(got, r) {
			t.Errorf("round trip:\n got %#v\nwant %#v", got, r)
		}
	}
}

func TestParseReplyReadsWhatEncodingJSONWrites(t *testing.T) {
	for _, rep := range []Reply{
		{Stdout: []byte(`{"permission":"allow"}` + "\n"), Stderr: []byte{}, Code: 0},
		{Stdout: []byte(`{"permission":"deny"}` + "\n"), Stderr: []byte("hookguard: blocked \"x\"\n"), Code: 2},
		{Stdout: []byte{}, Stderr: nil, Code: 1},
	} {
		line, err := json.Marshal(Response{Hook: &rep})
		if err != nil {
			t.Fatal(err)
		}
		got, err := ParseReply(line)
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		if string(got.Stdout) != string(rep.Stdout) || string(got.Stderr) != string(rep.Stderr) || got.Code != rep.Code {
			t.Errorf("%s: got %+v", line, got)
		}
	}
	for _, bad := range []string{
		`{"error":"stale server: built from another binary, exiting"}`,
		``,
		`{"hook":{"stdout":"!!!","stderr":"","code":0}}`,
		`{"hook":{"stdout":"e30K","stderr":"","code":-1}}`,
		`{"hook":{"stdout":"e30K","stderr":"","code":0}`,
		`{"hook":{"stdout":"e30K","code":0}}`,
	} {
		if _, err := ParseReply([]byte(bad)); err == nil {
			t.Errorf("ParseReply(%q) took it", bad)
		}
	}
}

func TestDenyLineIsTheUnreadableDeny(t *testing.T) {
	var got, want map[string]any
	if err := json.Unmarshal(DenyLine("u \"1\"", "a\n2"), &got); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(hook.DenyUnreadable("x"))
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	for k := range want {
		if _, ok := got[k]; !ok {
			t.Errorf("DenyLine lacks %q", k)
		}
	}
	if got["permission"] != "deny" || got["continue"] != false || got["user_message"] != "u \"1\"" || got["agent_message"] != "a\n2" {
		t.Errorf("DenyLine = %v", got)
	}
}

func TestMaxEventBytesIsTheHookCap(t *testing.T) {
	if MaxEventBytes != hook.MaxEventBytes {
		t.Fatalf("resident.MaxEventBytes %d != hook.MaxEventBytes %d", MaxEventBytes, hook.MaxEventBytes)
	}
}

func TestEnvDigest(t *testing.T) {
	base := []string{"HOME=/home/a", "PATH=/bin", "HOOKGUARD_JUDGE=off", "OPENAI_API_KEY=k1", "TERM=xterm"}
	d := EnvDigest(base)
	tests := []struct {
		name string
		env  []string
		same bool
	}{
		{"order", []string{"TERM=xterm", "OPENAI_API_KEY=k1", "HOOKGUARD_JUDGE=off", "PATH=/bin", "HOME=/home/a"}, true},
		{"unrelated variables", append(append([]string{}, base...), "EDITOR=vim", "PWD=/x"), true},
		{"the server's own switches", append(append([]string{}, base...), "HOOKGUARD_STATE_DIR=/s", "HOOKGUARD_START_RESIDENT=1", "HOOKGUARD_SERVE_IDLE=1m"), true},
		{"another key", []string{"HOME=/home/a", "PATH=/bin", "HOOKGUARD_JUDGE=off", "OPENAI_API_KEY=k2", "TERM=xterm"}, false},
		{"another policy", append(append([]string{}, base...), "HOOKGUARD_POLICY=/p.yaml"), false},
		{"another home", []string{"HOME=/home/b", "PATH=/bin", "HOOKGUARD_JUDGE=off", "OPENAI_API_KEY=k1", "TERM=xterm"}, false},
		{"another Claude project", append(append([]string{}, base...), "CLAUDE_PROJECT_DIR=/w/p"), false},
	}
	for _, tt := range tests {
		if got := EnvDigest(tt.env) == d; got != tt.same {
			t.Errorf("%s: same digest = %v, want %v", tt.name, got, tt.same)
		}
	}
	if n := Name(d); len(n) != len("resident-")+16 {
		t.Errorf("Name = %q", n)
	}
}
