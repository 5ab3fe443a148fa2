// The secret detector in the rule pass: prompts, file contents, MCP inputs
// and shell command lines are scanned for credentials by rules/secrets.

package rules

import (
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/hookguard/hookguard/internal/hook"
	"github.com/hookguard/hookguard/rules/secrets"
	"github.com/hookguard/hookguard/rules/shell"
)

// SecretRulePrefix starts the rule id of a match the secret detector made:
// "secret:github-pat". A policy turns one kind off with
// disable: [secret:KIND], or the detector as a whole with disable: [secrets].
const SecretRulePrefix = "secret:"

// secretAdvice is what the agent is told when a secret blocks an event.
const secretAdvice = "remove the secret and have it rotated; refer to credentials by the name of the variable or file that holds them, never by value"

// secretText is one text of an event to scan.
type secretText struct {
	label string
	text  string
	opts  secrets.Options
	// positional: values secret only by their position (API_KEY=…,
	// --password …) block too. They do in text that goes to the model or
	// outward (prompts, files read, tool inputs); in shell commands and file
	// edits they are redacted, and the rest of the rules decide.
	positional bool
}

func (p *Policy) secretScan(e *evaluation, ev *hook.Event, ctx Context) hook.Decision {
	if p.disabledSecrets["secrets"] {
		return ""
	}
	var texts []secretText
	switch ev.Kind {
	case hook.KindPrompt, hook.KindSubagent:
		texts = append(texts, secretText{label: "the prompt", text: ev.Prompt, positional: true})
	case hook.KindRead:
		texts = append(texts, secretText{label: "the file", text: ev.Content, opts: secrets.Options{Path: ev.FilePath}, positional: true})
	case hook.KindWrite:
		texts = append(texts, secretText{label: "the edit", text: ev.Content, opts: secrets.Options{Path: ev.FilePath}})
	case hook.KindMCP:
		text := string(ev.ToolInput)
		if v, ok := e.toolInput(ev.ToolInput); ok {
			text = stringsIn(v)
		}
		texts = append(texts, secretText{label: "the tool input", text: text, positional: true})
	case hook.KindShell:
		texts = append(texts, secretText{label: "the command", text: ev.Command})
		// Split without the working folder and home: the text as written,
		// with only what the line itself sets resolved (the rule pass's
		// reading resolves $(pwd) and ~, which are no secrets). Not when
		// the rule pass could not parse the line: it is judged already,
		// and redaction reads it this way before the judge sees it.
		if split := e.out.split; split != nil && split.ParseError != nil {
			break
		}
		if res := shell.Split(ev.Command, shell.Options{}); len(res.Pipelines) > 0 {
			if exp := strings.Join(res.Pipelines, "\n"); exp != ev.Command {
				texts = append(texts, secretText{label: "the command (as the shell reads it)", text: exp})
			}
		}
	}
	var d hook.Decision
	for _, t := range texts {
		if t.text == "" {
			continue
		}
		res := secrets.Scan(t.text, t.opts)
		if res.Incomplete != "" {
			// Text the scan did not read may hold a secret: the event is
			// not understood (the judge, or deny without one).
			e.out.Escalations = append(e.out.Escalations, "the secret scan of "+t.label+" did not finish: "+res.Incomplete)
			d = hook.Stricter(d, hook.Judge)
		}
		for _, f := range res.Blocking(t.positional) {
			id := SecretRulePrefix + f.RuleID
			if p.disabledSecrets[id] {
				continue
			}
			if ev.Kind == hook.KindRead && f.RuleID == "private-key" && fixtureKeyFile(ev.FilePath, ctx) {
				// testdata/server-key.pem: a key committed with the tests is
				// usually a fixture, sometimes a real key left there; the
				// judge decides, with the key cut out of what it sees.
				e.out.Escalations = append(e.out.Escalations, fmt.Sprintf("the file is in the project's test data and holds a private key (%s)", f.Where()))
				d = hook.Stricter(d, hook.Judge)
				continue
			}
			r := &Rule{ID: id, Decision: hook.Deny, Secret: true,
				Reason: fmt.Sprintf("%s holds a secret: %s (%s)", t.label, f.Kind(), f.Where()),
				Advice: secretAdvice}
			d = hook.Stricter(d, e.add(r, ""))
			if !e.exhaustive {
				return d
			}
		}
	}
	return d
}

// jsonStrings returns the string values of a JSON document (and its keys,
// for key: value secrets), decoded, one per line; or the text itself when it
// is not JSON.
func jsonStrings(raw json.RawMessage) string {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return string(raw)
	}
	return stringsIn(v)
}

// stringsIn is jsonStrings for a decoded document.
func stringsIn(v any) string {
	var b strings.Builder
	var walk func(key string, v any)
	walk = func(key string, v any) {
		switch x := v.(type) {
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				walk(k, x[k])
			}
		case []any:
			for _, val := range x {
				walk(key, val)
			}
		case string:
			if key != "" {
				b.WriteString(key + ": ")
			}
			b.WriteString(x)
			b.WriteByte('\n')
			if strings.HasPrefix(strings.TrimSpace(x), "{") || strings.HasPrefix(strings.TrimSpace(x), "[") {
				// JSON inside a string (a body, a payload).
				if inner := jsonStrings(json.RawMessage(x)); inner != x {
					b.WriteString(inner)
				}
			}
		}
	}
	walk("", v)
	return b.String()
}

// fixtureKeyFile reports a key file (.pem, .key), test code or fixture data
// inside a workspace, in its test data (testFixturePath's folders, and the
// test folders of the usual layouts: internal/tls/testdata/server-key.pem,
// src/test/resources/keys/x.pem, tests/jwt.key), outside any folder whose
// name says it holds the real thing (prod, production, secrets, private).
func fixtureKeyFile(p string, ctx Context) bool {
	if p == "" || !strings.HasPrefix(p, "/") || !inWorkspace(path.Dir(p), ctx) {
		return false
	}
	switch strings.ToLower(path.Ext(p)) {
	case ".pem", ".key", ".p8", ".pk8", // key files
		".py", ".js", ".mjs", ".ts", ".go", ".rb", ".java", ".kt", ".rs", ".cs", ".php", ".ex", ".exs", // test code holding one
		".json", ".yaml", ".yml", ".toml": // fixture data
	default:
		return false // a key in notes.txt is not where a fixture keeps one
	}
	dir := strings.ToLower(path.Dir(p))
	fixture := testFixturePath(dir)
	for _, c := range strings.Split(dir, "/") {
		switch c {
		case "test", "tests", "__tests__", "spec", "testing":
			fixture = true
		case "prod", "production", "secrets", "private", ".ssh", "live":
			return false
		}
	}
	return fixture
}

// contentExempts reports whether a read's content lets a rule with
// content_exempt stand down: "public" — the content is only public keys and
// certificates, or a known credential config (Docker config.json,
// kubeconfig) whose fields hold no credential and where the detector finds
// none; "clean" — there is content and it holds no secret.
func contentExempts(mode string, content []string, path string, fixture bool) bool {
	if len(content) == 0 || strings.TrimSpace(content[0]) == "" {
		return false
	}
	if strings.Contains(path, "/.password-store/") || strings.Contains(path, "/Keychains/") {
		return false // a password manager's entry: ciphertext, but its store all the same
	}
	switch mode {
	case "public":
		if fixture && onlyPrivateKeys(content[0], path) {
			// A key in the project's test data: the secret scan sends it
			// to the judge (see fixtureKeyFile).
			return true
		}
		return secrets.PublicMaterialOnly(content[0]) ||
			credentialConfigWithoutSecrets(path, content[0]) && holdsNoSecret(content[0], path)
	case "clean":
		return holdsNoSecret(content[0], path)
	}
	return false
}

// blockingFindings returns what the secret detector finds in content that
// blocks, and whether it read all of it.
func blockingFindings(content, path string) ([]secrets.Finding, bool) {
	res := secrets.Scan(content, secrets.Options{Path: path})
	return res.Blocking(true), res.Incomplete == ""
}

// onlyPrivateKeys reports content whose blocking secrets are all private
// keys in armor (at least one).
func onlyPrivateKeys(content, path string) bool {
	b, complete := blockingFindings(content, path)
	if !complete || len(b) == 0 {
		return false
	}
	for _, f := range b {
		if f.RuleID != "private-key" {
			return false
		}
	}
	return true
}

// holdsNoSecret reports content in which the detector finds nothing that blocks.
func holdsNoSecret(content, path string) bool {
	b, complete := blockingFindings(content, path)
	return complete && len(b) == 0
}
