// Package secrets finds credentials in text: prompts, file contents, MCP
// inputs and shell command lines. Its base is gitleaks' default rule set,
// generated into gitleaks_gen.go from a pinned gitleaks version (see
// internal/tools/gitleaksgen); additions.go holds hookguard's own rules beside
// it (credentials in connection strings, private keys of every armored kind,
// .env-style dumps, values that are secret by their position).
//
// The same detector serves blocking and redaction, so what is blocked in a
// prompt is also what is cut out before anything reaches the model, the logs
// or the cache. Rules compile lazily: only those whose keywords occur in the
// text.
package secrets

import (
	"regexp"
	"strings"
	"sync"
)

//go:generate go -C ../../internal/tools/gitleaksgen run . -o ../../../rules/secrets/gitleaks_gen.go -license ../../../rules/secrets/GITLEAKS-LICENSE
//go:generate go -C ../../internal/tools/bip39gen run . -o ../../../rules/secrets/bip39_gen.go -license ../../../rules/secrets/BIP39-LICENSE

// Confidence says how sure a finding is to be a live credential.
type Confidence int

const (
	// Test is a credential for a sandbox or a local development service (a
	// Stripe test-mode key, a database password on localhost): redacted, not
	// blocked.
	Test Confidence = iota
	// Positional is a value that is secret because of where it stands (the
	// value of --password, API_KEY=, Authorization:) or because it looks
	// random where a key goes (gitleaks' generic rule).
	Positional
	// Token is a credential in a provider's own format (a prefix and an
	// alphabet that say what it is), a private key or a password in a URL.
	Token
)

func (c Confidence) String() string {
	switch c {
	case Token:
		return "token"
	case Positional:
		return "positional"
	}
	return "test"
}

// rule is one detector: a regular expression whose secret group must pass
// the entropy threshold, the placeholder test and the allowlists.
type rule struct {
	ID          string
	Description string
	Regex       string
	// SecretGroup is the capture group holding the secret (0: the first
	// non-empty group, or the whole match).
	SecretGroup int
	// NameGroup, when set, is the group holding the name a positional
	// secret stands after (API_KEY in API_KEY=…); the name must say secret
	// (secretName) and the value must look like one (positionalValue).
	NameGroup int
	// Entropy is the Shannon entropy (bits per byte) the secret must exceed.
	Entropy float64
	// Path, when set, limits the rule to files whose path it matches.
	Path string
	// Keywords: the rule runs only when one of them occurs in the text
	// (lowercased).
	Keywords   []string
	Allowlists []allowlist
	// MixedValue requires the secret to mix letters with digits or symbols
	// (a rule that reads prose, where single words follow "key is").
	MixedValue bool
	// Near, when set, are characters one of which must follow a keyword
	// closely (within nearReach bytes) for the rule to run there: the
	// assignment a positional secret needs (key = value, key: value).
	Near string
	// NameEnds, when set, are the endings (lower case) one of which the
	// name group must end with.
	NameEnds []string
	// StrongValue, when set, takes only values of 24 or more characters
	// with upper- and lower-case letters and digits (a random token, not
	// a word, a version or a hexadecimal digest).
	StrongValue bool
	// Confidence of a finding (gitleaks' rules: Token, except the generic
	// ones; see confidenceOf).
	Confidence Confidence

	once   sync.Once
	re     *regexp.Regexp
	pathRe *regexp.Regexp
	// span is how far past its keyword's line a match can reach: a line's
	// trailing delimiter, or a whole key block for rules that cross lines.
	span int
}

// allowlist is gitleaks' allowlist: a finding is dropped when a regex
// matches its target (the secret, the whole match, or the line) or the
// secret contains a stop word; with MatchAll, when every given check holds.
type allowlist struct {
	Description string
	MatchAll    bool
	RegexTarget string
	Regexes     []string
	Paths       []string
	StopWords   []string
	// HasCommits marks a gitleaks allowlist that also names commits; commits
	// never apply here, so with MatchAll such a list never allows.
	HasCommits bool

	once    sync.Once
	res     []*regexp.Regexp
	pathRes []*regexp.Regexp
	stops   []string
}

// tokenEnd is how gitleaks' rules end a token; tokenEndInProse adds the
// punctuation of prose and markup.
const (
	tokenEnd        = `(?:[\x60'"\s;]|\\[nr]|$)`
	tokenEndInProse = `(?:[\x60'"\s;,.)!?>\]}|]|\\[nr]|$)`
)

func (r *rule) compile() {
	r.once.Do(func() {
		re := r.Regex
		if !strings.HasPrefix(r.ID, "generic") {
			// A token of a provider's own format ends where prose goes on
			// (", is it…", "…key).", "<KEY>"): gitleaks' end of a token
			// (a quote, a space, ; or the end) is widened by the
			// punctuation that cannot be part of one.
			re = strings.ReplaceAll(re, tokenEnd, tokenEndInProse)
		}
		r.re = regexp.MustCompile(re)
		r.span = 2
		if strings.Contains(r.Regex, `\s\S`) || strings.Contains(r.Regex, "(?s") || strings.Contains(r.Regex, `(?:\s|\\[nr])+`) {
			r.span = 16 << 10
		}
		if r.Path != "" {
			r.pathRe = regexp.MustCompile(r.Path)
		}
	})
}

func (a *allowlist) compile() {
	a.once.Do(func() {
		for _, s := range a.Regexes {
			a.res = append(a.res, regexp.MustCompile(s))
		}
		for _, s := range a.Paths {
			a.pathRes = append(a.pathRes, regexp.MustCompile(s))
		}
		for _, w := range a.StopWords {
			a.stops = append(a.stops, strings.ToLower(w))
		}
	})
}

// allows reports whether the allowlist drops a finding.
func (a *allowlist) allows(secret, match, line, path string) bool {
	a.compile()
	target := secret
	switch a.RegexTarget {
	case "match":
		target = match
	case "line":
		target = line
	}
	regexOK := false
	for _, re := range a.res {
		if re.MatchString(target) {
			regexOK = true
			break
		}
	}
	stopOK := false
	if len(a.stops) > 0 {
		low := strings.ToLower(secret)
		for _, w := range a.stops {
			if strings.Contains(low, w) {
				stopOK = true
				break
			}
		}
	}
	if !a.MatchAll {
		return regexOK || stopOK
	}
	if a.HasCommits {
		return false
	}
	checks := 0
	if len(a.pathRes) > 0 {
		checks++
		if !a.pathAllows(path) {
			return false
		}
	}
	if len(a.res) > 0 {
		checks++
		if !regexOK {
			return false
		}
	}
	if len(a.stops) > 0 {
		checks++
		if !stopOK {
			return false
		}
	}
	return checks > 0
}

func (a *allowlist) pathAllows(path string) bool {
	a.compile()
	if path == "" {
		return false
	}
	for _, re := range a.pathRes {
		if re.MatchString(path) {
			return true
		}
	}
	return false
}
