package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/hookguard/hookguard/internal/testutil"
)

// decodedCursor is the part of an Event a Cursor fixture labels. Every field
// that the label leaves out must decode empty.
type decodedCursor struct {
	Kind           Kind            `json:"kind"`
	Name           string          `json:"name"`
	ConversationID string          `json:"conversation_id,omitempty"`
	GenerationID   string          `json:"generation_id,omitempty"`
	Model          string          `json:"model,omitempty"`
	CursorVersion  string          `json:"cursor_version,omitempty"`
	WorkspaceRoots []string        `json:"workspace_roots,omitempty"`
	UserEmail      string          `json:"user_email,omitempty"`
	TranscriptPath string          `json:"transcript_path,omitempty"`
	ToolName       string          `json:"tool_name,omitempty"`
	Command        string          `json:"command,omitempty"`
	Cwd            string          `json:"cwd,omitempty"`
	Server         string          `json:"server,omitempty"`
	Tool           string          `json:"tool,omitempty"`
	ToolInput      json.RawMessage `json:"tool_input,omitempty"`
	FilePath       string          `json:"file_path,omitempty"`
	Content        string          `json:"content,omitempty"`
	Prompt         string          `json:"prompt,omitempty"`
	Attachments    []string        `json:"attachments,omitempty"`
}

func canonical(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	if len(raw) == 0 {
		return ""
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("tool_input %s is not JSON: %v", raw, err)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func TestDecodeCursorEvents(t *testing.T) {
	type row struct {
		ID    string          `json:"id"`
		Event json.RawMessage `json:"event"`
		Want  decodedCursor   `json:"want"`
	}
	for _, c := range testutil.ReadJSONL[row](t, filepath.Join("testdata", "cursor", "events.jsonl")) {
		t.Run(c.ID, func(t *testing.T) {
			// Detected from the payload and forced with --dialect cursor alike.
			for _, dialect := range []Dialect{"", Cursor} {
				ev, err := Decode(c.Event, dialect)
				if err != nil {
					t.Fatalf("dialect %q: %v", dialect, err)
				}
				if ev.Dialect != Cursor {
					t.Errorf("dialect %q, want cursor", ev.Dialect)
				}
				got := decodedCursor{
					Kind: ev.Kind, Name: ev.Name, ConversationID: ev.ConversationID, GenerationID: ev.GenerationID,
					Model: ev.Model, CursorVersion: ev.CursorVersion, WorkspaceRoots: ev.WorkspaceRoots,
					UserEmail: ev.UserEmail, TranscriptPath: ev.TranscriptPath, ToolName: ev.ToolName,
					Command: ev.Command, Cwd: ev.Cwd, Server: ev.Server, Tool: ev.Tool, FilePath: ev.FilePath,
					Content: ev.Content, Prompt: ev.Prompt, Attachments: ev.Attachments,
				}
				if g, w := canonical(t, ev.ToolInput), canonical(t, c.Want.ToolInput); g != w {
					t.Errorf("tool_input %s, want %s", g, w)
				}
				want := c.Want
				want.ToolInput = nil
				if len(got.WorkspaceRoots) == 0 {
					got.WorkspaceRoots = nil
				}
				if !reflect.DeepEqual(got, want) {
					gj, _ := json.Marshal(got)
					wj, _ := json.Marshal(want)
					t.Errorf("decoded %s\nwant    %s", gj, wj)
				}
			}
		})
	}
}

func TestRespondCursor(t *testing.T) {
	type row struct {
		ID       string          `json:"id"`
		Event    json.RawMessage `json:"event"`
		Decision Decision        `json:"decision"`
		// User and Agent default to "U" and "A"; give "" to send no message.
		User  *string         `json:"user"`
		Agent *string         `json:"agent"`
		Want  json.RawMessage `json:"want"`
	}
	for _, c := range testutil.ReadJSONL[row](t, filepath.Join("testdata", "cursor", "respond.jsonl")) {
		t.Run(c.ID, func(t *testing.T) {
			ev, err := Decode(c.Event, "")
			if err != nil {
				t.Fatal(err)
			}
			m := Messages{User: "U", Agent: "A"}
			if c.User != nil {
				m.User = *c.User
			}
			if c.Agent != nil {
				m.Agent = *c.Agent
			}
			var b bytes.Buffer
			if err := Respond(ev, c.Decision, m).Write(&b); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			if strings.Count(out, "\n") != 1 || !strings.HasSuffix(out, "\n") || !json.Valid(b.Bytes()) {
				t.Fatalf("not exactly one JSON line: %q", out)
			}
			if g, w := canonical(t, bytes.TrimSpace(b.Bytes())), canonical(t, c.Want); g != w {
				t.Errorf("got  %s\nwant %s", g, w)
			}
		})
	}
}

// The wire bytes: sorted keys, no HTML escaping (commands contain && and <),
// one line.
func TestResponseWriteBytes(t *testing.T) {
	ev := &Event{Dialect: Cursor, Name: "beforeShellExecution", Kind: KindShell}
	var b bytes.Buffer
	if err := Respond(ev, Deny, Messages{User: "blocked `a && b > <c>`", Agent: "no\nretry"}).Write(&b); err != nil {
		t.Fatal(err)
	}
	want := `{"agent_message":"no\nretry","permission":"deny","user_message":"blocked ` + "`a && b > <c>`" + `"}` + "\n"
	if b.String() != want {
		t.Errorf("got  %q\nwant %q", b.String(), want)
	}
}

func TestDenyUnreadableShape(t *testing.T) {
	var b bytes.Buffer
	if err := DenyUnreadable("empty input").Write(&b); err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	// Safe for every event: permission events deny, prompt events stop.
	if got["permission"] != "deny" || got["continue"] != false {
		t.Errorf("not a deny for every event shape: %s", b.String())
	}
	for _, k := range []string{"user_message", "agent_message"} {
		s, _ := got[k].(string)
		if !strings.Contains(s, "could not read the event") || !strings.Contains(s, "empty input") {
			t.Errorf("%s = %q, want it to say the event could not be read and why", k, s)
		}
	}
	if s, _ := got["agent_message"].(string); !strings.Contains(s, "Do not retry") {
		t.Errorf("agent_message %q does not tell the agent not to retry", s)
	}
}

func TestReadInput(t *testing.T) {
	// A valid event padded to exactly n bytes.
	event := func(n int) []byte {
		head := `{"hook_event_name":"beforeReadFile","file_path":"/w/big.txt","content":"`
		tail := `"}`
		pad := n - len(head) - len(tail)
		if pad < 0 {
			t.Fatalf("size %d too small", n)
		}
		return []byte(head + strings.Repeat("a", pad) + tail)
	}
	cases := []struct {
		name    string
		input   []byte
		wantErr error
	}{
		{"empty", nil, ErrEmpty},
		{"whitespace", []byte(" \n\t\r\n  "), ErrEmpty},
		{"small", []byte(`{"hook_event_name":"stop"}`), nil},
		{"exactly-8MiB", event(MaxEventBytes), nil},
		{"8MiB-plus-one", event(MaxEventBytes + 1), ErrTooLarge},
	}
	if MaxEventBytes != 8<<20 {
		t.Fatalf("MaxEventBytes = %d, the contract says 8 MiB", MaxEventBytes)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data, err := ReadInput(bytes.NewReader(c.input))
			if !errors.Is(err, c.wantErr) {
				t.Fatalf("err %v, want %v", err, c.wantErr)
			}
			if c.wantErr != nil {
				if data != nil {
					t.Errorf("data returned with an error")
				}
				return
			}
			if !bytes.Equal(data, c.input) {
				t.Errorf("data differs from the input (%d vs %d bytes)", len(data), len(c.input))
			}
			if _, err := Decode(data, ""); err != nil {
				t.Errorf("decode: %v", err)
			}
		})
	}
	t.Run("read-error", func(t *testing.T) {
		boom := errors.New("boom")
		_, err := ReadInput(iotest.ErrReader(boom))
		if !errors.Is(err, boom) {
			t.Errorf("err %v, want it to wrap the read error", err)
		}
	})
	t.Run("one-byte-reads", func(t *testing.T) {
		in := []byte(`{"hook_event_name":"stop"}`)
		data, err := ReadInput(iotest.OneByteReader(bytes.NewReader(in)))
		if err != nil || !bytes.Equal(data, in) {
			t.Errorf("got %q, %v", data, err)
		}
	})
}

func TestDecodeErrors(t *testing.T) {
	type row struct {
		ID    string `json:"id"`
		Input string `json:"input"`
		Error string `json:"error"`
	}
	for _, c := range testutil.ReadJSONL[row](t, filepath.Join("testdata", "cursor", "invalid.jsonl")) {
		t.Run(c.ID, func(t *testing.T) {
			for _, dialect := range []Dialect{"", Cursor, Claude} {
				ev, err := Decode([]byte(c.Input), dialect)
				if err == nil {
					t.Fatalf("dialect %q: decoded %+v, want an error", dialect, ev)
				}
				if ev != nil {
					t.Errorf("dialect %q: an event came back with the error", dialect)
				}
				if !strings.Contains(err.Error(), c.Error) {
					t.Errorf("dialect %q: error %q, want it to contain %q", dialect, err, c.Error)
				}
			}
		})
	}
}

func TestDecodeAcceptsSurroundingWhitespace(t *testing.T) {
	ev, err := Decode([]byte("\n  {\"hook_event_name\":\"beforeShellExecution\",\"command\":\"ls\"}\n\n"), "")
	if err != nil {
		t.Fatal(err)
	}
	if ev.Kind != KindShell || ev.Command != "ls" {
		t.Errorf("decoded %+v", *ev)
	}
}

func TestPermissionKinds(t *testing.T) {
	cases := map[Kind]bool{
		KindShell: true, KindMCP: true, KindRead: true, KindWrite: true, KindSubagent: true, KindOther: true,
		KindPrompt: false, KindObserve: false,
	}
	for k, want := range cases {
		if got := (&Event{Kind: k}).Permission(); got != want {
			t.Errorf("%s: Permission() = %v, want %v", k, got, want)
		}
	}
}
