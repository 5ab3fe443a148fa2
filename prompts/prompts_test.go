package prompts

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestEmbeddedRenders(t *testing.T) {
	s := Embedded()
	if len(s.Version) != 12 {
		t.Fatalf("version %q", s.Version)
	}
	var schema map[string]any
	if err := json.Unmarshal(s.Schema, &schema); err != nil || schema["additionalProperties"] != false {
		t.Fatalf("schema %s: %v", s.Schema, err)
	}
	sys, user, err := s.Render(SystemData{Nonce: "n1", Instructions: "team says hi"},
		EventData{Nonce: "n1", EventName: "beforeShellExecution", Kind: "shell", Command: "ls", Cwd: "/w",
			Parts: []Part{{Text: "ls", Decision: "judge", Rules: []string{"r1"}}}, Escalations: []string{"why"}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(sys, "team says hi") || !strings.Contains(sys, "<data-n1>") {
		t.Errorf("system:\n%s", sys)
	}
	if !strings.Contains(user, "<data-n1 name=\"command\">\nls\n</data-n1>") || !strings.Contains(user, "rules: judge (r1)") {
		t.Errorf("user:\n%s", user)
	}
	if strings.Contains(user, "<no value>") {
		t.Errorf("missing value in:\n%s", user)
	}
}

func TestOverrideChangesVersion(t *testing.T) {
	dir := t.TempDir()
	base := Embedded()
	o, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if o.Version != base.Version {
		t.Error("an empty override folder changed the version")
	}
	fp := Fingerprint(dir)
	if err := os.WriteFile(filepath.Join(dir, SystemFile), []byte("Be careful. {{.Nonce}}"), 0o600); err != nil {
		t.Fatal(err)
	}
	o2, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if o2.Version == base.Version || Fingerprint(dir) == fp {
		t.Error("override not noticed")
	}
	if err := os.WriteFile(filepath.Join(dir, EventFile), []byte("{{.Bogus"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(dir); err == nil {
		t.Error("broken template accepted")
	}
	if _, err := Load(filepath.Join(dir, "missing")); err == nil {
		t.Error("missing folder accepted")
	}
}
