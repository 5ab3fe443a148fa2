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
	"sync"

	"github.com/hookguard/hookguard/internal/hook"
	"github.com/hookguard/hookguard/internal/text"
)

var (
	// specificSecretRe names a particular credential store or file.
	specificSecretRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(\.ssh[/\\]+id_\w+\b(?:[^.]|\.(?:[^p]|p[^u]|pu[^b])|$)|\bid_(rsa|ed25519|ecdsa|dsa)\b(?:[^.]|$)|\.aws([/\\]+credentials)?\b|\.config[/\\]+gcloud\b|\.kube([/\\]+config)?\b|\bkubeconfig\b|\.docker[/\\]+config\.json|\.netrc\b|\.git-credentials\b|\.npmrc\b|\.pypirc\b|(^|[\s'"` + "`" + `(/])\.env(\.(production|prod|staging|local|development|dev|live))?\b|\blogin data\b|\bprivate keys?\b|\b(seed phrases?|recovery phrases?|mnemonic|metamask|phantom|wallet (vault|keys?|data|files?))\b|\bvault (kv )?(get|read)\b|\bkeychain\b|\bsecrets? (manager|store)\b.{0,20}\b(values?|all)\b)`)
	})
	// anySecretRe names credentials in general.
	anySecretRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(tokens?|passwords?|credentials?|secrets?|api[ _-]?keys?|access keys?)\b`)
	})
	// strongTargetRe is a place outside this machine and this session.
	strongTargetRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(https?://[^\s'"]+|\b[\w.+-]+@[\w-]+(\.[\w-]+)+\b|\bpublic\s+(github\s+|gitlab\s+)?(repo|repository|gist|bucket|channel|link|url)\b|\bgists?\b|\bpastebin\b|\bpaste\.\w+|\bunmasked\b|\bbypass\w*\b.{0,20}\bmask\w*|\bshow up in the (build |ci )?logs?\b)`)
	})
	// weakTargetRe is a place inside the session or the repository where a
	// credential is exposed: the chat, a document, a commit that is pushed.
	weakTargetRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(\b(paste|print|show|cat|output|display|dump)\b.{0,60}\b(here|chat|the conversation|this conversation|the contents?|full contents?|tokens?|passwords?|values?)\b|\bREADME(\.md)?\b|\bcommit\b.{0,80}\bpush\b|\bin plaintext\b|\bplain[ -]?text\b)`)
	})
	// quotedRe is a quotation of some length ('…', "…", “…”).
	quotedRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`'[^'\n]{16,}'|"[^"\n]{16,}"|“[^”\n]{16,}”`)
	})
	// actionRe is a verb that moves or exposes data.
	actionRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(paste|print|show|upload|uploads|post|posts|send|sends|email|emails|e-mail|commit|push|publish|share|copy|dump|collect|harvest|exfiltrate|base64|decrypt\w*|reuse|cat|leak|forward|expose|embed)\b`)
	})
)

// promptIntent denies a prompt that asks to take a credential somewhere it
// must not go: a verb that moves or shows data near what names the
// credential, and a place it must not reach.
func (p *Policy) promptIntent(e *evaluation, prompt string) hook.Decision {
	if len(prompt) > 64<<10 {
		return ""
	}
	actions := actionRe().FindAllStringIndex(prompt, -1)
	if len(actions) == 0 {
		return ""
	}
	near := func(span []int, reach int) bool {
		for _, a := range actions {
			if a[1] <= span[0] && span[0]-a[1] <= reach || a[0] >= span[1] && a[0]-span[1] <= reach {
				return true
			}
		}
		return false
	}
	// Quoted text is reported speech (an issue that says "email the .env
	// to …", which the user asks to ignore), not the request.
	quoted := quotedRe().FindAllStringIndex(prompt, -1)
	inQuotes := func(m []int) bool {
		for _, q := range quoted {
			if m[0] >= q[0] && m[1] <= q[1] {
				return true
			}
		}
		return false
	}
	var why string
	strong := strongTargetRe().MatchString(prompt)
	for _, m := range specificSecretRe().FindAllStringIndex(prompt, -1) {
		if !inQuotes(m) && near(m, 120) && (strong || weakTargetRe().MatchString(prompt)) {
			why = "the prompt asks to expose or send " + text.Truncate(trimSep(prompt[m[0]:m[1]]), 40)
			break
		}
	}
	if why == "" && strong {
		for _, m := range anySecretRe().FindAllStringIndex(prompt, -1) {
			if !inQuotes(m) && near(m, 80) {
				why = "the prompt asks to send " + prompt[m[0]:m[1]] + " outside this machine"
				break
			}
		}
	}
	if why == "" {
		return ""
	}
	return e.add(&Rule{ID: "prompt-credential-exposure", Decision: hook.Deny, Reason: why,
		Advice: "credentials are shared through a secret manager, never pasted, committed, logged or sent; ask the user what they need to share"}, "")
}

func trimSep(s string) string {
	for len(s) > 0 && (s[0] == ' ' || s[0] == '\'' || s[0] == '"' || s[0] == '`' || s[0] == '(' || s[0] == '/') {
		s = s[1:]
	}
	return s
}
