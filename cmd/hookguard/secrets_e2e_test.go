package main

import (
	"encoding/base64"
	"encoding/json"
	"io"
	"io/fs"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// plantedSecret is a credential of one kind and the part of it that must
// never appear anywhere (its random core).
type plantedSecret struct {
	kind, value, core string
}

// plantedSecrets builds credentials of many kinds from a seeded generator, so
// that no real-looking secret is written in the source.
func plantedSecrets() []plantedSecret {
	r := rand.New(rand.NewPCG(20261203, 1))
	pick := func(n int, alphabet string) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		return string(b)
	}
	const (
		alnum  = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
		upper  = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
		hex    = "0123456789abcdef"
		b64    = alnum + "+/"
		letter = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	)
	var out []plantedSecret
	add := func(kind, prefix, core, suffix string) {
		out = append(out, plantedSecret{kind, prefix + core + suffix, core})
	}
	add("aws access key id", "AKIA", pick(16, upper), "")
	add("github classic token", "ghp_", pick(36, alnum), "")
	add("github fine-grained token", "github_pat_", pick(82, alnum+"_"), "")
	add("gitlab token", "glpat-", pick(20, alnum), "")
	add("slack bot token", "xoxb-"+pick(11, "0123456789")+"-"+pick(12, "0123456789")+"-", pick(24, alnum), "")
	add("slack webhook", "https://hooks.slack.com/services/T"+pick(8, upper)+"/B"+pick(10, upper)+"/", pick(24, alnum), "")
	add("stripe live key", "sk_live_", pick(32, alnum), "")
	add("openai project key", "sk-proj-", pick(40, alnum), "T3BlbkFJ"+pick(40, alnum))
	add("anthropic key", "sk-ant-api03-", pick(93, alnum), "AA")
	add("hugging face token", "hf_", pick(34, letter), "")
	add("npm token", "npm_", pick(36, alnum), "")
	add("pypi token", "pypi-AgEIcHlwaS5vcmc", pick(70, alnum), "")
	add("sendgrid key", "SG.", pick(22, alnum), "."+pick(43, alnum))
	add("google api key", "AIza", pick(35, alnum), "")
	add("digitalocean token", "dop_v1_", pick(64, hex), "")
	add("shopify token", "shpat_", pick(32, hex), "")
	add("twilio api key", "SK", pick(32, hex), "")
	add("postgres url password", "postgres://app:", pick(18, alnum), "@db.prod.internal:5432/shop")
	add("private key", "-----BEGIN RSA PRIVATE KEY-----\n", pick(64, b64)+"\n"+pick(64, b64), "\n-----END RSA PRIVATE KEY-----")
	add("jwt", base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"HS256","typ":"JWT"}`))+".", base64.RawURLEncoding.EncodeToString([]byte(`{"sub":"`+pick(16, alnum)+`","role":"service"}`)), "."+pick(43, alnum))
	add("azure storage key", "DefaultEndpointsProtocol=https;AccountName=shop;AccountKey=", pick(86, b64), "==;")
	add("option-position password", "--password ", pick(14, alnum)+"7", "")
	add("env-assignment secret", "PAYMENTS_API_KEY=", pick(28, alnum), "")
	add("bearer header", "Authorization: Bearer ", pick(40, alnum), "")
	add("mysql -p password", "mysql -u app -p", pick(12, alnum)+"9", " shop")
	add("labeled auth token", "auth token ", pick(32, hex), "")
	// Shapes found by position or structure: a key whose name ends in _KEY
	// with symbols in its quoted value, a token split with spaces, a row of
	// a password manager's export.
	add("quoted secret key", "SECRET_KEY = '", pick(20, alnum)+"!&)("+pick(20, alnum), "'")
	spaced := pick(36, alnum)
	var groups []string
	for i := 0; i < 36; i += 4 {
		groups = append(groups, spaced[i:i+4])
	}
	add("spaced github token", "ghp_ ", strings.Join(groups, " "), "")
	add("password table row", "url,username,password\nhttps://console.example.com,sam,", pick(16, alnum)+"#9", "\n")
	return out
}

// TestPlantedSecretsNeverLeave plants credentials of many kinds in shell,
// MCP and prompt events with blocking turned off (disable: [secrets]), so
// every event reaches the fake judge (prompts as the remembered intent of
// later events), and checks that none of them appears in what the judge was
// sent, in the cache, in the audit log or anywhere else in the state folder.
func TestPlantedSecretsNeverLeave(t *testing.T) {
	var mu sync.Mutex
	var requests []string
	m := newModel(t, func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		requests = append(requests, string(body))
		mu.Unlock()
		verdict(w, "allow")
	})
	policy := filepath.Join(t.TempDir(), "policy.yaml")
	if err := os.WriteFile(policy, []byte("version: 1\ndisable: [secrets]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := judgeEnv(t, m.url, "HOOKGUARD_POLICY="+policy)
	var state string
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "HOOKGUARD_STATE_DIR="); ok {
			state = v
		}
	}
	event := func(fields map[string]any) string {
		fields["cwd"] = "/tmp/p"
		fields["workspace_roots"] = []string{"/tmp/p"}
		fields["conversation_id"] = "c-planted"
		b, _ := json.Marshal(fields)
		return string(b)
	}
	secrets := plantedSecrets()
	if len(secrets) < 20 {
		t.Fatalf("only %d kinds", len(secrets))
	}
	runHookProcess(t, env, ambiguousEvent) // starts the judge server
	for _, s := range secrets {
		runHookProcess(t, env, event(map[string]any{"hook_event_name": "beforeSubmitPrompt", "prompt": "use this for the deploy: " + s.value}))
		runHookProcess(t, env, event(map[string]any{"hook_event_name": "beforeShellExecution", "command": "./tools/sync-fixtures.sh " + shellQuote(s.value)}))
		input, _ := json.Marshal(map[string]string{"note": "credential for the sync job", "value": s.value})
		runHookProcess(t, env, event(map[string]any{"hook_event_name": "beforeMCPExecution", "mcp_server_name": "acme-internal",
			"tool_name": "sync_records", "tool_input": string(input)}))
	}
	mu.Lock()
	sent := strings.Join(requests, "\n")
	n := len(requests)
	mu.Unlock()
	if n < len(secrets) {
		t.Fatalf("only %d judge requests for %d planted kinds: the events did not reach the judge", n, len(secrets))
	}
	var stored strings.Builder
	files := 0
	filepath.WalkDir(state, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if b, err := os.ReadFile(p); err == nil {
				stored.Write(b)
				files++
			}
		}
		return nil
	})
	if !strings.Contains(stored.String(), "sync-fixtures") {
		t.Fatalf("the state folder (%d files) holds no audit of the events", files)
	}
	for _, s := range secrets {
		if i := strings.Index(sent, s.core); i >= 0 {
			t.Errorf("%s reached the judge: …%s…", s.kind, sent[max(0, i-200):min(len(sent), i+len(s.core)+40)])
		}
		if strings.Contains(stored.String(), s.core) {
			t.Errorf("%s was written to the state folder (cache or audit log)", s.kind)
		}
	}
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
