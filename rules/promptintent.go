// Prompts that ask the agent to move credentials where they do not belong:
// into the chat, a document, a commit, a log, an outside address. The
// request names what it handles (a credential file, an .env file, a
// kubeconfig, a wallet, "every token") and where it goes (a URL, an email
// address, a public repository, paste site, gist, the chat, a README, a
// commit that is pushed, an unmasked log). Either alone is routine; both
// together are the exfiltration the later tool calls would carry out.

package rules

import (
	"regexp"
	"strings"
	"sync"

	"github.com/hookguard/hookguard/internal/hook"
	"github.com/hookguard/hookguard/internal/text"
)

var (
	// specificSecretRe names a particular credential store or file.
	specificSecretRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(\.ssh[/\\]+id_\w+\b(?:[^.]|\.(?:[^p]|p[^u]|pu[^b])|$)|\bid_(rsa|ed25519|ecdsa|dsa)\b(?:[^.]|$)|\.aws([/\\]+credentials)?\b|\.config[/\\]+gcloud\b|\.kube([/\\]+config)?\b|\bkubeconfig\b|\.docker[/\\]+config\.json|\.netrc\b|\.git-credentials\b|\.npmrc\b|\.pypirc\b|(^|[\s'"` + "`" + `(/])\.env(\.(production|prod|staging|local|development|dev|live))?\b|\blogin data\b|\bprivate keys?\b|\b(seed phrases?|recovery phrases?|mnemonic|metamask|phantom|wallet (vault|keys?|data|files?))\b|\bvault (kv )?(get|read)\b|\bkeychain\b|\bsecrets? (manager|store)\b.{0,20}\b(values?|all)\b)`)
	})
	// anySecretRe names credentials in general.
	anySecretRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(tokens?|passwords?|credentials?|secrets?|api[ _-]?keys?|access keys?)\b`)
	})
	// strongTargetRe is a place outside this machine and this session.
	strongTargetRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(https?://[^\s'"]+|\b[\w.+-]+@[\w-]+(\.[\w-]+)+\b|\bpublic\s+(github\s+|gitlab\s+)?(repo|repository|gist|bucket|channel|link|url)\b|\bgists?\b|\bpastebin\b|\bpaste\.\w+|\bunmasked\b|\bbypass\w*\b.{0,20}\bmask\w*|\bshow up in the (build |ci )?logs?\b)`)
	})
	// weakTargetRe is a place inside the session or the repository where a
	// credential is exposed: the chat, a document, a commit that is pushed.
	weakTargetRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(\b(paste|print|show|cat|output|display|dump)\b.{0,60}\b(here|chat|the conversation|this conversation|the contents?|full contents?|tokens?|passwords?|values?)\b|\breadme(\.md)?\b|\bcommit\b.{0,80}\bpush\b|\bin plaintext\b|\bplain[ -]?text\b)`)
	})
	// quotedRe is a quotation of some length ('…', "…", “…”).
	quotedRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`'[^'\n]{16,}'|"[^"\n]{16,}"|“[^”\n]{16,}”`)
	})
	// actionRe is a verb that moves or exposes data.
	actionRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(paste|print|show|upload|uploads|post|posts|send|sends|email|emails|e-mail|commit|push|publish|share|copy|dump|collect|harvest|exfiltrate|base64|decrypt\w*|reuse|cat|leak|forward|expose|embed)\b`)
	})
)

// Words one of which every credential the prompt rules name contains:
// the regular expressions only run around them.
var (
	specificAnchors = []string{".ssh", "id_", ".aws", "gcloud", ".kube", "kubeconfig", ".docker", ".netrc", ".git-credentials", ".npmrc",
		".pypirc", ".env", "login data", "private key", "seed phrase", "recovery phrase", "mnemonic", "metamask", "phantom", "wallet",
		"vault", "keychain", "secret"}
	generalAnchors = []string{"token", "password", "credential", "secret", "api", "access key"}
)

// promptIntent denies a prompt that asks to take a credential somewhere it
// must not go: a verb that moves or shows data near what names the
// credential, and a place it must not reach nearby. The regular expressions
// run only on short stretches around words that can start a match.
func (p *Policy) promptIntent(e *evaluation, prompt string) hook.Decision {
	if len(prompt) > 64<<10 {
		return ""
	}
	low := asciiLower(prompt)
	window := func(m []int, reach int) string {
		return low[max(0, m[0]-reach):min(len(low), m[1]+reach)]
	}
	var quoted [][]int
	quotedDone := false
	inQuotes := func(m []int) bool {
		// Quoted text is reported speech (an issue that says "email the
		// .env to …", which the user asks to ignore), not the request.
		if !quotedDone {
			quoted, quotedDone = quotedRe().FindAllStringIndex(prompt, -1), true
		}
		for _, q := range quoted {
			if m[0] >= q[0] && m[1] <= q[1] {
				return true
			}
		}
		return false
	}
	matches := func(anchors []string, re *regexp.Regexp, visit func(m []int) bool) {
		seen := map[int]bool{}
		for _, a := range anchors {
			for from := 0; from < len(low); {
				i := strings.Index(low[from:], a)
				if i < 0 {
					break
				}
				i += from
				from = i + len(a)
				lo := max(0, i-48)
				hi := min(len(low), i+len(a)+96)
				if m := re.FindStringIndex(low[lo:hi]); m != nil && !seen[lo+m[0]] {
					seen[lo+m[0]] = true
					if visit([]int{lo + m[0], lo + m[1]}) {
						return
					}
				}
			}
		}
	}
	var why string
	matches(specificAnchors, specificSecretRe(), func(m []int) bool {
		if !actionRe().MatchString(window(m, 120)) || inQuotes(m) {
			return false
		}
		if w := window(m, 200); strongTargetRe().MatchString(w) || weakTargetRe().MatchString(w) {
			why = "the prompt asks to expose or send " + text.Truncate(trimSep(prompt[m[0]:m[1]]), 40)
			return true
		}
		return false
	})
	if why == "" {
		matches(generalAnchors, anySecretRe(), func(m []int) bool {
			if actionRe().MatchString(window(m, 80)) && !inQuotes(m) && strongTargetRe().MatchString(window(m, 160)) {
				why = "the prompt asks to send " + prompt[m[0]:m[1]] + " outside this machine"
				return true
			}
			return false
		})
	}
	if why == "" {
		return ""
	}
	return e.add(&Rule{ID: "prompt-credential-exposure", Decision: hook.Deny, Reason: why,
		Advice: "credentials are shared through a secret manager, never pasted, committed, logged or sent; ask the user what they need to share"}, "")
}

// asciiLower lowercases ASCII letters only, so offsets stay those of s.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 32
		}
	}
	return string(b)
}

func trimSep(s string) string {
	for len(s) > 0 && (s[0] == ' ' || s[0] == '\'' || s[0] == '"' || s[0] == '`' || s[0] == '(' || s[0] == '/') {
		s = s[1:]
	}
	return s
}
