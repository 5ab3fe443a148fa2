package hook

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzDecode: any input either fails to decode or decodes to an event whose
// answer is exactly one JSON object; nothing panics.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"hook_event_name":"beforeShellExecution","command":"ls","cwd":"/w","workspace_roots":["/w"]}`,
		`{"hook_event_name":"beforeReadFile","file_path":"/w/.env","content":"A=1"}`,
		`{"hook_event_name":"beforeMCPExecution","tool_name":"query","tool_input":"{\"sql\":\"select 1\"}","url":"http://x"}`,
		`{"hook_event_name":"preToolUse","tool_name":"Shell","tool_input":{"command":"rm -rf /"}}`,
		`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`,
		`{"hook_event_name":"beforeSubmitPrompt","prompt":"hi","attachments":[{"filePath":"/w/a"}]}`,
		`{"hook_event_name":42}`, `[]`, `null`, `{"hook_event_name":"beforeReadFile","file_path":"a\u0000b"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, d := range []Dialect{"", Cursor, Claude} {
			ev, err := Decode(data, d)
			if err != nil {
				continue
			}
			for _, dec := range []Decision{Allow, Ask, Deny} {
				out, err := json.Marshal(Respond(ev, dec, Messages{User: "u", Agent: "a"}))
				if err != nil {
					t.Fatalf("answer does not encode: %v", err)
				}
				var v map[string]any
				dj := json.NewDecoder(bytes.NewReader(out))
				if err := dj.Decode(&v); err != nil {
					t.Fatalf("answer is not a JSON object: %q", out)
				}
				if dj.More() {
					t.Fatalf("answer holds more than one JSON value: %q", out)
				}
			}
		}
	})
}

// FuzzDecodeString: for every valid JSON string, the fast decoder gives
// exactly what json.Unmarshal gives.
func FuzzDecodeString(f *testing.F) {
	for _, s := range []string{"plain", `a\"b\\c\/d\be\ff\ng\rh\ti`, `\u00e9\u4e2d`, `\ud83d\ude00`, `\ud83d`, `\ud83dx`,
		`\ude00\ud83d`, "caf\xc3\xa9", "bad\xffbyte", "\xed\xa0\x80", `\u0000`, `tab\there`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		v := append(append([]byte{'"'}, body...), '"')
		var want string
		if json.Unmarshal(v, &want) != nil {
			return // not a JSON string: the decoder is only given valid ones
		}
		got, ok := decodeString(v)
		if !ok || got != want {
			t.Fatalf("decodeString(%q) = %q, %v; json.Unmarshal gives %q", v, got, ok, want)
		}
	})
}

// FuzzSplitObject: for every valid JSON object, splitObject gives exactly
// the members json.Unmarshal gives; for anything else it declines.
func FuzzSplitObject(f *testing.F) {
	for _, s := range []string{`{}`, ` { "a" : 1 , "b":[1,{"c":"}"}], "a":"x\"y"} `, `{"k\u00e9":null,"t":true,"n":-1.5e3}`,
		`[]`, `null`, `{"a":1}x`, `{"a":}`, `"s"`, `{"a":{"b":{"c":[[]]}}}`, `{"":""}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var want map[string]json.RawMessage
		wantErr := json.Unmarshal(data, &want)
		got, ok := splitObject(data)
		if wantErr != nil || want == nil {
			if ok {
				t.Fatalf("splitObject accepted %q (json.Unmarshal: %v)", data, wantErr)
			}
			return
		}
		if !ok {
			t.Fatalf("splitObject declined the object %q", data)
		}
		if len(got) != len(want) {
			t.Fatalf("%q: %d members, want %d", data, len(got), len(want))
		}
		for k, v := range want {
			if !bytes.Equal(got[k], v) {
				t.Fatalf("%q: member %q is %q, want %q", data, k, got[k], v)
			}
		}
	})
}
