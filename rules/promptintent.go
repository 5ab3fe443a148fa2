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
	"github.com/hookguard/hookguard/rules/effects"
)

// specificSecrets name a particular credential store or file, one
// alternative each, with the words one of which every match of it
// contains. One expression per alternative, each small enough for the
// backtracking matcher, runs only where its words occur: the single
// alternation of them all ran the slow NFA over every window.
var specificSecrets = []struct {
	words   []string
	pattern string
}{
	{[]string{".ssh"}, `\.ssh[/\\]+id_\w+\b(?:[^.]|\.(?:[^p]|p[^u]|pu[^b])|$)`},
	{[]string{"id_"}, `\bid_(rsa|ed25519|ecdsa|dsa)\b(?:[^.]|$)`},
	{[]string{".aws"}, `\.aws([/\\]+credentials)?\b`},
	{[]string{"gcloud"}, `\.config[/\\]+gcloud\b`},
	{[]string{".kube"}, `\.kube([/\\]+config)?\b`},
	{[]string{"kubeconfig"}, `\bkubeconfig\b`},
	{[]string{".docker"}, `\.docker[/\\]+config\.json`},
	{[]string{".netrc"}, `\.netrc\b`},
	{[]string{".git-credentials"}, `\.git-credentials\b`},
	{[]string{".npmrc"}, `\.npmrc\b`},
	{[]string{".pypirc"}, `\.pypirc\b`},
	{[]string{".env"}, `(^|[\s'"` + "`" + `(/])\.env(\.(production|prod|staging|local|development|dev|live))?\b`},
	{[]string{"login data"}, `\blogin data\b`},
	{[]string{"private key"}, `\bprivate keys?\b`},
	{[]string{"seed phrase", "recovery phrase", "mnemonic", "metamask", "phantom", "wallet"},
		`\b(seed phrases?|recovery phrases?|mnemonic|metamask|phantom|wallet (vault|keys?|data|files?))\b`},
	{[]string{"vault"}, `\bvault\b`},
	{[]string{"keychain"}, `\bkeychain\b`},
	{[]string{"tfstate"}, `\.tfstate\b`},
	{[]string{"credentials."}, `\bcredentials\.(xml|json|ya?ml|toml)\b`},
	{[]string{"environ"}, `/proc/(self|\d+)/environ\b`},
	{[]string{"secret"}, `\$\{\{\s*secrets\.`},
	{[]string{"sensitive values"}, `\bsensitive values\b`},
	{[]string{"histor"}, `\b(shell|bash|zsh) histor(y|ies)\b`},
	{[]string{"env", "set", "export -p"}, `\b(run|dump|print|printenv|output of)\s+(the\s+)?[\x60'"]?(env|printenv|set|export -p|the environment)\b`},
	{[]string{"1password", "bitwarden", "lastpass", "keepass", "dashlane"}, `\b(1password|bitwarden|lastpass|keepass(xc)?|dashlane)\b`},
	{[]string{"secret"}, `\bsecrets? (manager|store)\b.{0,20}\b(values?|all)\b`},
	{[]string{"secret"}, `\bsecrets?\.(ya?ml|json|toml|env|txt)\b`},
	{[]string{"service", "-sa", "_sa"}, `\b[\w.-]*(service[-_]?account|[-_]sa)[\w.-]*\.json\b`},
	{[]string{"key/", "keys/"}, `\bkeys?/[\w.-]+\.(json|pem|p12|pfx|key)\b`},
	{[]string{".p12", ".pfx", ".jks", ".keystore"}, `\b[\w.-]+\.(p12|pfx|jks|keystore)\b`},
	{[]string{"env"}, `\b(values?\s+of|print|dump|show|echo|output|display)\s+(out\s+)?(the\s+)?(values?\s+of\s+)?(every|all|each)\s+(the\s+|of\s+the\s+)?env(ironment)?\s+var(iable)?s?\b[^.\n]{0,60}\b(keys?|secrets?|tokens?|passwords?|credentials?)\b`},
}

var (
	specificSecretRes = sync.OnceValue(func() []*regexp.Regexp {
		out := make([]*regexp.Regexp, len(specificSecrets))
		for i, s := range specificSecrets {
			out[i] = regexp.MustCompile(s.pattern)
		}
		return out
	})
	// anySecretRe names credentials in general.
	anySecretRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(tokens?|passwords?|credentials?|secrets?|api[ _-]?keys?|access keys?)\b`)
	})
)

// secretRefRe finds references to a secret: a CI expression (${{ … }}) or
// a variable ($NAME, ${NAME}).
var secretRefRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\$\{\{[^}\n]{1,120}\}\}|\$\{?[a-z_][a-z0-9_]*\}?`)
})

// secretRefs returns low with secret references blanked (same length).
func secretRefs(low string) string {
	if !strings.Contains(low, "$") {
		return low
	}
	return secretRefRe().ReplaceAllStringFunc(low, func(m string) string { return strings.Repeat(" ", len(m)) })
}

// storedIntoRe finds text that ends by naming where a value is put:
// "put X in ", "add it to your ", "store the token inside the ".
var storedIntoRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(put|puts|putting|add|adds|adding|store|stores|storing|save|saves|saving|keep|keeps|set|place|write it|write them|copy|copies|copying|rename|move)\b[^.!?\n]{0,80}\b(in|into|to|inside)\s+(the\s+|your\s+|their\s+|a\s+|an\s+|local\s+|project'?s?\s+)?[\x60'"]?$`)
})

// storedInto reports text before a credential file (up to its first
// character, past the delimiter a match may start with) that makes the file
// the place a value is stored.
func storedInto(before string) bool { return storedIntoRe().MatchString(before) }

// exposeVerbRe finds a verb that writes a value out where it can be read.
var exposeVerbRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(echo|print|printf|log|logs|cat|dump|output|show|display|send|post|curl|upload|write|base64|expose|leak|tee)\b`)
})

// findSpecificSecret returns the leftmost match in w of any specific
// secret alternative (the first alternative in list order where two start
// at the same place), as the single alternation of them all would.
func findSpecificSecret(w string) []int {
	var best []int
	for i, re := range specificSecretRes() {
		if ws := specificSecrets[i].words; ws != nil && !containsAny(w, ws) {
			continue
		}
		if m := re.FindStringIndex(w); m != nil && (best == nil || m[0] < best[0]) {
			best = m
		}
	}
	return best
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// Words one of which every credential the prompt rules name contains:
// the regular expressions only run around them.
var (
	specificAnchors = []string{".ssh", "id_", ".aws", "gcloud", ".kube", "kubeconfig", ".docker", ".netrc", ".git-credentials", ".npmrc",
		".pypirc", ".env", "login data", "private key", "seed phrase", "recovery phrase", "mnemonic", "metamask", "phantom", "wallet",
		"vault", "keychain", "secret", "tfstate", "credentials.", "1password", "bitwarden", "lastpass", "keepass", "dashlane",
		"environ", "sensitive values", "histor", "run env", "dump env", "print env", "printenv", "the environment", "`env`", "'env'", "\"env\"",
		"service-account", "service_account", "serviceaccount", "-sa.", "_sa.", "keys/", "key/", ".p12", ".pfx", ".jks", ".keystore"}
	generalAnchors = []string{"token", "password", "credential", "secret", "api", "access key"}
)

// anchorSet finds every occurrence of a list of anchors in one pass over
// the text (a 4 KiB prompt would otherwise be searched once per anchor).
type anchorSet struct {
	anchors []string
	byPair  map[uint16][]int
	// pairs has a bit for every two-byte start of an anchor: most positions
	// are passed over without a map lookup.
	pairs [1 << 10]uint64
}

func newAnchorSet(anchors []string) *anchorSet {
	s := &anchorSet{anchors: anchors, byPair: map[uint16][]int{}}
	for i, a := range anchors {
		pair := uint16(a[0])<<8 | uint16(a[1])
		s.byPair[pair] = append(s.byPair[pair], i)
		s.pairs[pair/64] |= 1 << (pair % 64)
	}
	return s
}

// find returns, for each anchor in list order, where it occurs in low (non
// overlapping, left to right, as repeated strings.Index would find them).
func (s *anchorSet) find(low string) [][]int {
	out := make([][]int, len(s.anchors))
	next := make([]int, len(s.anchors)) // where each anchor may match again
	for pos := 0; pos+1 < len(low); pos++ {
		pair := uint16(low[pos])<<8 | uint16(low[pos+1])
		if s.pairs[pair/64]&(1<<(pair%64)) == 0 {
			continue
		}
		for _, ai := range s.byPair[pair] {
			if a := s.anchors[ai]; pos >= next[ai] && strings.HasPrefix(low[pos:], a) {
				out[ai] = append(out[ai], pos)
				next[ai] = pos + len(a)
			}
		}
	}
	return out
}

// any reports whether one of the anchors occurs in low, stopping at the
// first.
func (s *anchorSet) any(low string) bool {
	for pos := 0; pos+1 < len(low); pos++ {
		pair := uint16(low[pos])<<8 | uint16(low[pos+1])
		if s.pairs[pair/64]&(1<<(pair%64)) == 0 {
			continue
		}
		for _, ai := range s.byPair[pair] {
			if strings.HasPrefix(low[pos:], s.anchors[ai]) {
				return true
			}
		}
	}
	return false
}

var (
	specificAnchorSet = sync.OnceValue(func() *anchorSet { return newAnchorSet(specificAnchors) })
	generalAnchorSet  = sync.OnceValue(func() *anchorSet { return newAnchorSet(generalAnchors) })
)

// promptIntent denies a prompt that asks to take a credential somewhere it
// must not go: a verb that moves or shows data near what names the
// credential, and a place it must not reach nearby. The regular expressions
// run only on short stretches around words that can start a match.
func (p *Policy) promptIntent(e *evaluation, prompt string) hook.Decision {
	if len(prompt) > 64<<10 {
		return ""
	}
	low := text.ASCIILower(prompt)
	window := func(m []int, reach int) string {
		return low[max(0, m[0]-reach):min(len(low), m[1]+reach)]
	}
	var quoted [][]int
	quotedDone := false
	inQuotes := func(m []int) bool {
		// Quoted text is reported speech (an issue that says "email the
		// .env to …", which the user asks to ignore), not the request.
		if !quotedDone {
			quoted, quotedDone = quotations(prompt), true
		}
		for _, q := range quoted {
			if m[0] >= q[0] && m[1] <= q[1] {
				return true
			}
		}
		return false
	}
	matchesIn := func(src string, set *anchorSet, find func(string) []int, visit func(m []int) bool) {
		seen := map[int]bool{}
		for ai, positions := range set.find(src) {
			a := set.anchors[ai]
			for _, i := range positions {
				lo := max(0, i-48)
				hi := min(len(src), i+len(a)+96)
				if m := find(src[lo:hi]); m != nil && !seen[lo+m[0]] {
					seen[lo+m[0]] = true
					if visit([]int{lo + m[0], lo + m[1]}) {
						return
					}
				}
			}
		}
	}
	matches := func(set *anchorSet, find func(string) []int, visit func(m []int) bool) {
		matchesIn(low, set, find, visit)
	}
	var why string
	specific := func(m []int) bool {
		if !hasAction(window(m, 120)) && !publishPlace(window(m, 120)) || inQuotes(m) || forbidden(low[max(0, m[0]-30):m[0]]) {
			return false
		}
		if rest := low[m[1]:]; strings.Contains(low[m[0]:m[1]], ".env") && (strings.HasPrefix(rest, ".example") ||
			strings.HasPrefix(rest, ".sample") || strings.HasPrefix(rest, ".template") || strings.HasPrefix(rest, ".dist") ||
			strings.HasPrefix(rest, ".defaults")) {
			return false // .env.example: the template, with placeholders
		}
		if storedInto(low[max(0, m[0]-100) : m[0]+len(low[m[0]:m[1]])-len(strings.TrimLeft(low[m[0]:m[1]], " \t('\"`"))]) {
			// "put CF_TOKEN=xxxx in .dev.vars (gitignored)", "add the key to
			// .env": the credential file is where a value goes, the way it
			// is meant to be kept, not what is shown or sent.
			return false
		}
		if strings.HasPrefix(low[m[0]:], "${{") && !exposeVerbRe().MatchString(low[max(0, m[0]-60):m[0]]) {
			// "use ${{ secrets.CF_TOKEN }} in the workflow": a reference to
			// the secret, the way a workflow is meant to take it; only one
			// echoed, logged or sent is exposed.
			return false
		}
		if before := low[max(0, m[0]-40):m[0]]; templateCopyRe().MatchString(before) {
			// "copy .env.example to .env": setting up from the template.
			return false
		}
		w := window(m, 200)
		outside := strongTarget(w) || hasWord(w, "webhook", "discord", "slack", "telegram") || otherAccount(low[max(0, m[0]-24):m[0]])
		if quotedCommand(low[m[0]:m[1]]) && !outside {
			// run `env` and show me the output: the user asks to see their
			// own environment, for a person to decide; sent out, it is a leak.
			return false
		}
		if outside || weakTarget(w) || showsDirectly(low, m) {
			why = "the prompt asks to expose or send " + text.Truncate(trimSep(prompt[m[0]:m[1]]), 40)
			return true
		}
		return false
	}
	matches(specificAnchorSet(), findSpecificSecret, specific)
	if why == "" {
		// Any path the credential table knows (~/.config/gh/hosts.yml,
		// ~/.pgpass, a kubeconfig), not only those the expression names.
		for _, m := range credentialPaths(low) {
			if specific(m) {
				break
			}
		}
	}
	if why == "" {
		// ${{ secrets.NPM_TOKEN }}, ${NPM_TOKEN}: references to a secret
		// (a pasted workflow, an .npmrc that reads a variable) name no
		// secret of their own.
		matchesIn(secretRefs(low), generalAnchorSet(), anySecretRe().FindStringIndex, func(m []int) bool {
			if hasAction(window(m, 80)) && !inQuotes(m) && strongTarget(window(m, 160)) {
				why = "the prompt asks to send " + prompt[m[0]:m[1]] + " outside this machine"
				return true
			}
			return false
		})
	}
	if why == "" {
		why = exposedByCode(low)
	}
	if why == "" {
		return ""
	}
	return e.add(&Rule{ID: "prompt-credential-exposure", Decision: hook.Deny, Reason: why,
		Advice: "credentials are shared through a secret manager, never pasted, committed, logged or sent; ask the user what they need to share"}, "")
}

// showsDirectly reports a request to show the credential itself ("show me
// the private keys", "print the kubeconfig"): a verb that shows, then the
// credential as its object, not a question about it (how, where, which)
// or a property of it (fingerprint, path, permissions).
func showsDirectly(low string, m []int) bool {
	// Key material only: showing it is the leak. Showing an .env or a
	// credentials file to read one value of it is for a person to decide.
	switch obj := low[m[0]:m[1]]; {
	case strings.Contains(obj, "private key"), strings.Contains(obj, "id_"), strings.Contains(obj, "phrase"),
		strings.Contains(obj, "mnemonic"), strings.Contains(obj, "wallet"):
	default:
		return false
	}
	if w := low[max(0, m[0]-200):min(len(low), m[1]+200)]; strings.Contains(w, "`") || properDestination(w) {
		return false // a command quoted for the user, or a move into a secret store
	}
	before := low[max(0, m[0]-40):m[0]]
	verb := -1
	for _, v := range []string{"show", "print", "cat", "dump", "display", "output", "paste", "give", "reveal", "decrypt", "decode"} {
		if is := wordIndexes(before, v, false); len(is) > 0 && is[len(is)-1] > verb {
			verb = is[len(is)-1]
		}
	}
	if verb < 0 {
		return false
	}
	gap := before[verb:]
	if hasWord(gap, "how", "where", "why", "what", "which", "whether", "if", "path", "paths", "name", "names", "list", "number",
		"count", "size", "type", "format", "permission", "permissions", "owner", "that", "to", "for", "without", "no", "not") {
		return false
	}
	after := low[m[1]:min(len(low), m[1]+24)]
	return !hasWord(after, "fingerprint", "fingerprints", "path", "paths", "permissions", "mode", "owner", "format", "type", "size",
		"exists", "exist", "location", "name", "names", "file names", "is loaded", "are loaded", "is used", "are used")
}

// properDestination reports a secret store named as where a credential goes.
func properDestination(w string) bool {
	for _, d := range []string{"ci variable", "ci/cd variable", "secret variable", "secrets manager", "secret manager", "repository secret",
		"actions secret", "gh secret", "vault", "keychain", "1password", "sealed secret", "kubernetes secret", "key vault"} {
		if strings.Contains(w, d) {
			return true
		}
	}
	return false
}

// exposedByCode reports a request to build code that exposes credentials:
// logging them or returning them where they are read (production logs,
// error responses, the browser bundle).
func exposedByCode(low string) string {
	// A public build variable holding a server secret.
	for _, prefix := range []string{"next_public_", "vite_", "react_app_", "expo_public_", "nuxt_public_", "gatsby_", "public_"} {
		for _, i := range wordIndexes(low, prefix, true) {
			j := i + len(prefix)
			for j < len(low) && (wordChar(low[j]) || low[j] == '-') {
				j++
			}
			name := low[i:j]
			for _, s := range []string{"database_url", "db_url", "secret", "password", "service_role", "private_key", "privatekey", "db_pass"} {
				if strings.Contains(name[len(prefix):], s) && !remediation(low) {
					return "the prompt asks to expose a server secret to the browser bundle (" + name + ")"
				}
			}
		}
	}
	for _, v := range []string{"log", "logs", "logging", "print", "prints", "include", "includes", "expose", "exposes", "dump", "echo"} {
		for _, i := range wordIndexes(low, v, false) {
			w := low[i:min(len(low), i+160)]
			if end := strings.IndexAny(w, ".!?\n"); end > 0 && (end+1 >= len(w) || w[end+1] == ' ' || w[end+1] == '\n') {
				w = w[:end]
			}
			cred := ""
			for _, c := range []string{"authorization", "cookie", "cookies", "full headers", "raw headers", "all headers", "password",
				"passwords", "connection string", "api key", "api keys", "secret key", "access token", "access tokens", "credentials"} {
				for _, k := range wordIndexes(w, c, false) {
					if !hasWord(w[k+len(c):min(len(w), k+len(c)+16)], "attempt", "attempts", "reset", "policy", "hash", "hashes", "length",
						"strength", "expiry", "expired", "invalid", "missing", "changed", "validation", "errors", "failures", "field", "name") {
						cred = c
					}
				}
			}
			if cred == "" || remediation(w) || strings.Contains(w, "temporar") || strings.Contains(w, "debug") ||
				hasWord(low[i:min(len(low), i+400)], "redact", "redaction", "redacts", "scrub", "sanitize", "sanitizer", "mask", "masking") {
				// "our logs in prod leak the Authorization header, e.g. …;
				// write a redaction config": the request removes the exposure.
				continue
			}
			if hasWord(w, "production", "prod", "stdout", "response", "responses", "500", "client", "browser", "frontend", "public") {
				return "the prompt asks for code that exposes " + cred + " (logged or returned where others read it)"
			}
		}
	}
	return ""
}

// remediation reports text that removes an exposure rather than making one.
func remediation(w string) bool {
	return hasWord(w, "redact", "redacted", "redacts", "mask", "masked", "masks", "scrub", "strip", "strips", "except", "excluding",
		"without", "never", "not", "omit", "hide", "hidden", "sanitize", "sanitized", "remove", "stop", "stops", "rename", "filter") ||
		strings.Contains(w, "don't") || strings.Contains(w, "no longer") || strings.Contains(w, "shouldn't")
}

// credentialPaths returns the spans of path-like words in low (holding a
// slash, or starting with ~ or a dot) that the credential table classes as
// secret, examples and public keys excepted as it does for reads.
func credentialPaths(low string) [][]int {
	var out [][]int
	for i := 0; i < len(low); {
		for i < len(low) && !pathByte(low[i]) {
			i++
		}
		j := i
		for j < len(low) && pathByte(low[j]) {
			j++
		}
		word := strings.TrimRight(low[i:j], ".,:;")
		if len(word) > 3 && (strings.Contains(word, "/") || word[0] == '~' || word[0] == '.') &&
			effects.IsSecretPath(word, "/nonexistent-workspace", "/home/user") {
			out = append(out, []int{i, i + len(word)})
		}
		i = max(j, i+1)
	}
	return out
}

// pathByte reports a byte a path word is made of.
func pathByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '/' || c == '.' || c == '_' || c == '-' || c == '~' || c == '\\'
}

// otherAccount reports a path that starts in another account's home
// (~root/.ssh/id_rsa, /root/.aws, ~deploy/…): taking its credentials is
// harvesting, wherever they go.
func otherAccount(before string) bool {
	if strings.HasSuffix(before, "/root/") || strings.HasSuffix(before, "/root") {
		return true
	}
	i := strings.LastIndexByte(before, '~')
	if i < 0 {
		return false
	}
	rest := strings.TrimSuffix(before[i+1:], "/")
	if rest == "" {
		return false // ~/ is the user's own home
	}
	for j := 0; j < len(rest); j++ {
		if !wordChar(rest[j]) && rest[j] != '-' {
			return false
		}
	}
	return true
}

// forbidden reports text just before a credential that forbids what follows
// ("never paste private keys", "do not commit .env files"): a rule about
// secrets, not a request.
func forbidden(before string) bool {
	for _, p := range []string{"never ", "don't ", "do not ", "must not ", "mustn't ", "shouldn't ", "should not ", "avoid ",
		"not to ", "stop ", "prevent ", "no one should "} {
		if strings.Contains(before, p) {
			return true
		}
	}
	return false
}

// quotedCommand reports a match that names the environment-dumping command
// in quotes (`env`, 'printenv').
func quotedCommand(m string) bool {
	return strings.ContainsAny(m, "`'\"") && (strings.HasSuffix(m, "env") || strings.HasSuffix(m, "set") || strings.HasSuffix(m, "-p"))
}

func trimSep(s string) string {
	for len(s) > 0 && (s[0] == ' ' || s[0] == '\'' || s[0] == '"' || s[0] == '`' || s[0] == '(' || s[0] == '/') {
		s = s[1:]
	}
	return s
}

// The checks below are plain string scans rather than regular expressions:
// they run on short windows of lower-cased text, and compiling patterns
// would cost more than the whole scan in a hook process.

// wordChar reports a byte that continues a word.
func wordChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c >= 0x80
}

// wordIndexes returns where w occurs in s as a whole word (prefix: w may
// continue, as decrypt in decrypts).
func wordIndexes(s, w string, prefix bool) []int {
	var out []int
	for from := 0; from <= len(s)-len(w); {
		i := strings.Index(s[from:], w)
		if i < 0 {
			break
		}
		i += from
		from = i + 1
		if i > 0 && wordChar(s[i-1]) {
			continue
		}
		if end := i + len(w); !prefix && end < len(s) && wordChar(s[end]) {
			continue
		}
		out = append(out, i)
	}
	return out
}

func hasWord(s string, words ...string) bool {
	for _, w := range words {
		if len(wordIndexes(s, w, false)) > 0 {
			return true
		}
	}
	return false
}

// actionWords are verbs that move or expose data.
var actionWords = []string{"paste", "print", "show", "upload", "uploads", "post", "posts", "send", "sends", "email", "emails",
	"e-mail", "commit", "push", "publish", "share", "copy", "dump", "collect", "harvest", "exfiltrate", "base64", "reuse", "cat",
	"leak", "forward", "expose", "embed", "compile", "gather", "hardcode", "replace", "inline", "list", "tell", "grab", "grep",
	"search", "read", "summarize", "summarise", "transcribe"}

func hasAction(w string) bool {
	return hasWord(w, actionWords...) || len(wordIndexes(w, "decrypt", true)) > 0
}

// strongTarget reports a place outside this machine and this session: a
// URL, an email address, a public repository or gist, a paste site, a log
// where masking is bypassed.
func strongTarget(w string) bool {
	if strings.Contains(w, "http://") || strings.Contains(w, "https://") || emailAddress(w) {
		return true
	}
	if publishPlace(w) || hasWord(w, "unmasked") {
		return true
	}
	for _, scheme := range []string{"gs://", "s3://", "az://", "r2://", "webhook.site", "requestbin", "pipedream", "transfer.sh",
		"wetransfer", "dropbox", "google drive", "personal email", "personal account", "personal drive"} {
		if strings.Contains(w, scheme) {
			return true
		}
	}
	// A personal mailbox.
	if hasWord(w, "gmail", "sendmail", "hotmail", "protonmail", "yahoo", "outlook") {
		return true
	}
	// Past the secret scanner: a commit that skips its hooks, or the
	// scanner itself turned off.
	if strings.Contains(w, "--no-verify") || hasWord(w, "gitleaks", "trufflehog", "ggshield", "talisman", "detect-secrets") &&
		hasWord(w, "uninstall", "disable", "remove", "skip", "bypass", "delete", "silence", "ignore") {
		return true
	}
	// A chat channel (#devops on Slack).
	if hasWord(w, "slack", "discord", "teams", "channel") && strings.Contains(w, "#") {
		return true
	}
	// Harvesting across the machine or other users.
	for _, scope := range []string{"whole home", "home directory", "home dir", "every user", "all users", "this machine",
		"entire disk", "whole machine", "whole disk"} {
		if strings.Contains(w, scope) {
			return true
		}
	}
	// Asking to get past the secret scanner or the guard.
	for _, evade := range []string{"scanner doesn't", "scanner does not", "doesn't flag", "does not flag", "won't flag", "not flagged", "bypass the guard", "past the guard"} {
		if strings.Contains(w, evade) {
			return true
		}
	}
	for _, i := range wordIndexes(w, "bypass", true) {
		if strings.Contains(w[i:min(len(w), i+40)], "mask") {
			return true
		}
	}
	if i := strings.Index(w, "show up in the"); i >= 0 && strings.Contains(w[i:min(len(w), i+30)], "log") {
		return true
	}
	return false
}

// publishPlace reports a place that publishes what is put there: a gist,
// a paste site, a public repository.
func publishPlace(w string) bool {
	if hasWord(w, "gist", "gists", "pastebin") || strings.Contains(w, "paste.") {
		return true
	}
	for _, i := range wordIndexes(w, "public", false) {
		rest := strings.TrimPrefix(strings.TrimPrefix(w[i+len("public"):], " "), "github ")
		rest = strings.TrimPrefix(rest, "gitlab ")
		for _, t := range []string{"repo", "repository", "gist", "bucket", "channel", "link", "url"} {
			if strings.HasPrefix(rest, t) {
				return true
			}
		}
	}
	return false
}

// emailAddress reports name@domain.tld in w.
func emailAddress(w string) bool {
	for i := 1; i < len(w)-3; i++ {
		if w[i] != '@' || !(wordChar(w[i-1]) || w[i-1] == '.' || w[i-1] == '+' || w[i-1] == '-') {
			continue
		}
		j := i + 1
		for j < len(w) && (wordChar(w[j]) || w[j] == '-') {
			j++
		}
		if j > i+1 && j+1 < len(w) && w[j] == '.' && wordChar(w[j+1]) {
			return true
		}
	}
	return false
}

// weakTarget reports a place inside the session or the repository where a
// credential is exposed: the chat, a README, a commit that is pushed, a
// plain-text file.
func weakTarget(w string) bool {
	if len(wordIndexes(w, "readme", true)) > 0 || strings.Contains(w, "plaintext") || strings.Contains(w, "plain text") ||
		strings.Contains(w, "plain-text") {
		return true
	}
	// Into a file of the repository, or into source as literal values.
	for _, p := range []string{"in this repo", "in this folder", "in this directory", "in the repo", "repo root", "into one",
		"literal values", "actual values", "real values", "project root", "pr description", "pull request", "issue comment",
		"commit message", "job log", "build log", "ci log", "workflow log", "the logs", "in a table"} {
		if strings.Contains(w, p) {
			return true
		}
	}
	if intoRepoFile(w) {
		return true
	}
	for _, v := range []string{"commit", "force-add", "add"} {
		for _, i := range wordIndexes(w, v, false) {
			if hasWord(w[i:min(len(w), i+120)], "push") {
				return true
			}
		}
	}
	for _, v := range []string{"paste", "print", "show", "cat", "output", "display", "dump"} {
		for _, i := range wordIndexes(w, v, false) {
			after := w[i+len(v) : min(len(w), i+len(v)+70)]
			if hasWord(after, "here", "chat", "conversation", "content", "contents", "output", "token", "tokens", "password", "passwords", "value", "values") {
				return true
			}
		}
	}
	return false
}

// repoFileExts are extensions of files a repository keeps in version
// control (source, configuration, infrastructure, docs).
var repoFileExts = map[string]bool{"tf": true, "tfvars": true, "yaml": true, "yml": true, "json": true, "js": true, "ts": true,
	"tsx": true, "jsx": true, "py": true, "go": true, "rb": true, "java": true, "kt": true, "cs": true, "php": true, "properties": true,
	"toml": true, "ini": true, "cfg": true, "conf": true, "xml": true, "md": true, "txt": true, "sh": true, "gradle": true, "swift": true,
	"rs": true, "hcl": true, "plist": true}

// intoRepoFile reports "into FILE" naming a file
// that is committed (terraform.tfvars, config/app.yaml, Dockerfile), not a
// place for secrets (.env, a secret manager).
func intoRepoFile(w string) bool {
	const prep = "into "
	for from := 0; ; {
		i := strings.Index(w[from:], prep)
		if i < 0 {
			break
		}
		i += from
		from = i + len(prep)
		if i > 0 && wordChar(w[i-1]) {
			continue
		}
		rest := strings.TrimLeft(w[from:], " `'\"")
		rest = strings.TrimPrefix(strings.TrimPrefix(rest, "the "), "our ")
		end := strings.IndexAny(rest, " `'\",;:)\n")
		if end < 0 {
			end = len(rest)
		}
		file := strings.TrimRight(rest[:end], ".")
		base := file[strings.LastIndex(file, "/")+1:]
		if strings.HasPrefix(base, ".env") || strings.Contains(base, "secret") {
			continue
		}
		if dot := strings.LastIndex(base, "."); dot > 0 && repoFileExts[base[dot+1:]] || base == "dockerfile" || base == "makefile" {
			return true
		}
	}
	return false
}

func asciiLowerByte(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 32
	}
	return c
}

// quotations returns the spans of quoted text of some length ('…', "…",
// “…”) on one line: reported speech.
func quotations(s string) [][]int {
	var out [][]int
	for _, q := range [][2]string{{"'", "'"}, {"\"", "\""}, {"“", "”"}} {
		for from := 0; from < len(s); {
			i := strings.Index(s[from:], q[0])
			if i < 0 {
				break
			}
			i += from
			if q[0] == "'" && i > 0 && wordChar(asciiLowerByte(s[i-1])) {
				from = i + 1 // an apostrophe (don't), not a quotation
				continue
			}
			j := strings.Index(s[i+len(q[0]):], q[1])
			for q[1] == "'" && j >= 0 {
				// The closing quote ends a word, not starts one (it's).
				end := i + len(q[0]) + j
				if end+1 >= len(s) || !wordChar(asciiLowerByte(s[end+1])) {
					break
				}
				k := strings.Index(s[end+1:], q[1])
				if k < 0 {
					j = -1
					break
				}
				j += 1 + k
			}
			if j < 0 {
				break
			}
			j += i + len(q[0])
			inner := s[i+len(q[0]) : j]
			if len(inner) >= 16 && !strings.Contains(inner, "\n") {
				out = append(out, []int{i, j + len(q[1])})
				from = j + len(q[1])
			} else {
				from = i + len(q[0])
			}
		}
	}
	return out
}

// templateCopyRe ends with a template copied to the file that follows
// ("cp .env.example ", "copy .env.sample to ").
var templateCopyRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\.(example|sample|template|dist|tmpl)\s+(to\s+|into\s+)?$`)
})
