package secrets

import (
	"encoding/base64"
	"regexp"
	"strings"
	"sync"
)

// documentedSamples are the sample credentials of providers' documentation:
// they appear in tutorials, tests and questions, and grant nothing.
var documentedSamples = map[string]bool{
	"AKIAIOSFODNN7EXAMPLE":                     true,
	"wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY": true,
	"eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c": true,
	"sk_test_4eC39HqLyjWDarjtT1zdp7dc":                                      true,
	"sk_test_BQokikJOvBiI2HlWgH4olfQ2":                                      true,
	"pk_test_TYooMQauvdEDq54NiTphI7jx":                                      true,
	"xoxb-17653672481-19874698323-pdFZKVeTuE8sk7oOcBrzbqgy":                 true,
	"ghp_16C7e42F292c6912E7710c838347Ae178B4a":                              true,
	"AIzaSyDdI0hCZtE6vySjMm-WEfRq3CPzqKqqsHI":                               true,
	"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": true,
	"123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11":                             true, // Telegram's Bot API docs
	"110201543:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw":                          true,
	// The first accounts of the Hardhat/Anvil/Ganache default test mnemonic
	// ("test test … junk"): printed by every local Ethereum node.
	"0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80": true,
	"ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80":   true,
	"0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d": true,
	"59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d":   true,
	"0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a": true,
	"5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a":   true,
	// Azurite's and the Azure storage emulator's well-known account key.
	"Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==": true,
}

// placeholderWords are words that mark a value as a stand-in.
var placeholderWords = []string{"example", "sample", "placeholder", "dummy", "redacted", "changeme", "change_me",
	"change-me", "your", "replace", "insert", "fake", "notreal", "not-real", "not_real", "lorem", "xxxx", "****",
	"....", "<", ">", "${", "$(", "{{", "}}", "%(", "secret_here", "token_here", "key_here", "hunter2"}

// commonDefaults are values that are names, defaults or words, not secrets.
var commonDefaults = map[string]bool{
	"password": true, "passwd": true, "pass": true, "secret": true, "token": true, "root": true, "admin": true,
	"postgres": true, "mysql": true, "guest": true, "test": true, "testing": true, "dev": true, "local": true,
	"default": true, "none": true, "null": true, "nil": true, "true": true, "false": true, "undefined": true,
	"required": true, "optional": true, "string": true, "bearer": true, "basic": true, "token_type": true,
	"access_token": true, "refresh_token": true, "id_token": true, "client_credentials": true, "api_key": true,
	"apikey": true, "value": true, "empty": true, "unset": true, "env": true, "stdin": true, "prompt": true,
}

var (
	placeholderOnce sync.Once
	placeholderRes  []*regexp.Regexp
)

// Placeholder reports whether a value found where a secret would be is a
// stand-in rather than a credential: a documented sample key, a word like
// EXAMPLE or changeme, runs of x or *, a masked form (sk-...a1B2), <your-key>,
// a variable or template reference, an upper-case placeholder name, or a
// value too uniform to be random.
func Placeholder(v string) bool {
	v = strings.Trim(v, "\"'` \t")
	if v == "" || documentedSamples[v] || sampleJWT(v) {
		return true
	}
	low := strings.ToLower(v)
	if commonDefaults[low] {
		return true
	}
	// A long random value (a private key's body, a JWT) holds short words
	// by chance ("…/FAKEtOy…"): there a word marks a stand-in only where
	// it stands apart from the letters around it (…REDACTED…, -your-key-).
	long := len(v) >= longValue
	for _, w := range placeholderWords {
		if long && isLetters(w) {
			if containsApart(low, w) {
				return true
			}
			continue
		}
		if strings.Contains(low, w) {
			return true
		}
	}
	placeholderOnce.Do(func() {
		for _, s := range []string{
			`^\$[A-Za-z_{(]`,                // $VAR, ${VAR}, $(cmd)
			`^%[A-Za-z_]+%$`,                // %VAR%
			`^@[A-Za-z_]+@$`,                // @VAR@
			`^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$`, // YOUR_TOKEN_HERE, API_KEY
			`(?i)x{5,}|\*{3,}|\.{3,}|…`,
			`(?i)^(sk|pk|rk|ghp|gho|xox[a-z]|glpat|npm|hf|AKIA)[-_]?\.{2,}`,
			`^<[^>]*>?$|^\[[^\]]*\]$`,
			`(?i)^(1234567890?|123456|abcdef(gh)?|qwerty|letmein|foobar|foo|bar|baz|test|todo|tbd)\d*$`,
		} {
			placeholderRes = append(placeholderRes, regexp.MustCompile(s))
		}
	})
	for _, re := range placeholderRes {
		if re.MatchString(v) {
			return true
		}
	}
	if run := longestRun(v); run >= 6 && run*3 >= len(v) || len(v) >= 12 && entropy(v) < 2.5 {
		return true
	}
	return throwawayWords(low)
}

// longValue is the length from which a placeholder word must stand apart
// from the letters around it.
const longValue = 100

// isLetters reports a word of ASCII letters only.
func isLetters(w string) bool {
	for i := 0; i < len(w); i++ {
		if c := w[i] | 0x20; c < 'a' || c > 'z' {
			return false
		}
	}
	return w != ""
}

// containsApart reports w in s with no letter just before or after it.
func containsApart(s, w string) bool {
	for off := 0; ; {
		i := strings.Index(s[off:], w)
		if i < 0 {
			return false
		}
		i += off
		before := i == 0 || !isLetters(s[i-1:i])
		after := i+len(w) == len(s) || !isLetters(s[i+len(w):i+len(w)+1])
		if before && after {
			return true
		}
		off = i + 1
	}
}

// throwawayWords reports a value made of a few plain words, one of which
// says it is for tests or local use (test-token-local, dev_secret,
// my-demo-key): typed by a person, not generated.
func throwawayWords(low string) bool {
	parts := strings.FieldsFunc(low, func(r rune) bool { return r == '-' || r == '_' || r == '.' })
	if len(parts) < 2 || len(parts) > 5 {
		return false
	}
	marked := false
	for _, p := range parts {
		if len(p) > 12 {
			return false
		}
		for _, r := range p {
			if r < 'a' || r > 'z' {
				return false
			}
		}
		switch p {
		case "test", "tests", "testing", "dev", "local", "localhost", "demo", "fake", "dummy", "sample", "mock", "stub", "example", "ci":
			marked = true
		}
	}
	return marked
}

// placeholderLine reports a line that says its value is a placeholder or
// lives elsewhere (a comment "# example", a gitleaks:allow marker).
func placeholderLine(line string) bool {
	return strings.Contains(line, "gitleaks:allow")
}

// credentialGrade caps the confidence of a finding by what the credential
// can reach: Stripe test-mode keys are Positional (they block in prompts,
// files read and tool inputs, not in commands); passwords in URLs to this
// machine and Firebase/Google browser keys in app config are Test.
func credentialGrade(id, secret, after, text, path string) Confidence {
	switch {
	case strings.HasPrefix(secret, "sk_test_"), strings.HasPrefix(secret, "rk_test_"):
		return Positional
	case strings.HasPrefix(secret, "django-insecure-"):
		// The key django-admin startproject writes for development; a
		// deployed site must replace it (Django's own check says so).
		return Test
	case id == "connection-string-password":
		if !strings.HasPrefix(after, "@") {
			return Token
		}
		host := strings.ToLower(after[1:])
		for _, local := range []string{"localhost", "127.0.0.1", "[::1]", "0.0.0.0", "host.docker.internal"} {
			if strings.HasPrefix(host, local) {
				return Test
			}
		}
	case id == "jwt" && unsignedJWT(secret):
		// alg "none": a token anyone can forge, the shape tests use.
		return Test
	case id == "gcp-api-key":
		base := strings.ToLower(path[strings.LastIndexByte(path, '/')+1:])
		low := strings.ToLower(text)
		if base == "google-services.json" || base == "googleservice-info.plist" || strings.Contains(low, "firebase") || strings.Contains(low, "authdomain") {
			return Test
		}
	}
	return Token
}

// unsignedJWT reports a JWT whose header says alg "none".
func unsignedJWT(tok string) bool {
	head, _, ok := strings.Cut(tok, ".")
	if !ok {
		return false
	}
	b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(head, "="))
	if err != nil {
		return false
	}
	h := strings.ReplaceAll(strings.ToLower(string(b)), " ", "")
	return strings.Contains(h, `"alg":"none"`)
}

// sampleJWT reports the token of jwt.io's and most tutorials' examples:
// its claims are the documented sample's (sub 1234567890, name John Doe),
// whatever the algorithm and signature (copies are often retyped).
func sampleJWT(tok string) bool {
	if !strings.HasPrefix(tok, "eyJ") || strings.Count(tok, ".") != 2 {
		return false
	}
	_, rest, _ := strings.Cut(tok, ".")
	payload, _, _ := strings.Cut(rest, ".")
	if len(payload) > 512 {
		return false
	}
	b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(payload, "="))
	if err != nil {
		return false
	}
	p := strings.ReplaceAll(string(b), " ", "")
	return strings.Contains(p, `"sub":"1234567890"`) && strings.Contains(p, `"name":"JohnDoe"`)
}

// encryptedDocument reports text whose values are ciphertext.
func encryptedDocument(text string) bool {
	for _, m := range []string{"kind: SealedSecret", "\"kind\": \"SealedSecret\"", "$ANSIBLE_VAULT;", "ENC[AES256_GCM", "-----BEGIN PGP MESSAGE-----", "encrypted_regex:", "\nsops:\n"} {
		if strings.Contains(text, m) {
			return true
		}
	}
	return false
}

// longestRun is the length of the longest run of one repeated byte.
func longestRun(s string) int {
	best, run := 0, 0
	for i := 0; i < len(s); i++ {
		if i > 0 && s[i] == s[i-1] {
			run++
		} else {
			run = 1
		}
		best = max(best, run)
	}
	return best
}

// PublicMaterialOnly reports text that holds public keys or certificates
// and nothing secret: PEM blocks of public keys, certificates and requests,
// SSH public key lines, comments and blank lines.
func PublicMaterialOnly(text string) bool {
	inBlock := ""
	seen := false
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case inBlock != "":
			if strings.HasPrefix(line, "-----END ") {
				inBlock = ""
			}
		case line == "", strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "-----BEGIN "):
			kind := strings.TrimSuffix(strings.TrimPrefix(line, "-----BEGIN "), "-----")
			if strings.Contains(kind, "PRIVATE") || !(strings.Contains(kind, "PUBLIC KEY") || strings.Contains(kind, "CERTIFICATE") || strings.Contains(kind, "X509 CRL")) {
				return false
			}
			inBlock, seen = kind, true
		case strings.HasPrefix(line, "ssh-") || strings.HasPrefix(line, "ecdsa-sha2-") || strings.HasPrefix(line, "sk-ssh-") || strings.HasPrefix(line, "sk-ecdsa-"):
			seen = true
		case strings.HasPrefix(line, "subject=") || strings.HasPrefix(line, "issuer=") || strings.HasPrefix(line, "Bag Attributes") || strings.HasPrefix(line, "friendlyName:") || strings.HasPrefix(line, "localKeyID:"):
		default:
			return false
		}
	}
	return seen && inBlock == ""
}
