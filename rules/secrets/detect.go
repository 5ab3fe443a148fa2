package secrets

import (
	"math"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	htext "github.com/hookguard/hookguard/internal/text"

	"golang.org/x/text/unicode/norm"
)

// Finding is one secret found in a text. It never holds the secret's value,
// only where it is and what kind it is.
type Finding struct {
	// RuleID names the kind of secret (gitleaks' rule id, or one of ours:
	// private-key, connection-string-password, env-assignment, …).
	RuleID string
	// Line is the 1-based line of the text where the secret starts.
	Line int
	// Start and End delimit what must be cut out to remove the secret, in
	// the text Scan returns (the input after normalization).
	Start, End int
	// Encoding is how the secret was hidden ("" when written as is; else
	// base64, hex or percent, possibly joined with "+" for two layers).
	Encoding   string
	Confidence Confidence
	// base is the rule's own confidence: where two findings cover the same
	// text, the one from the more specific rule names it.
	base Confidence
}

// Kind is a short human name for the secret's kind ("GitHub PAT").
func (f Finding) Kind() string {
	words := strings.Split(f.RuleID, "-")
	for i, w := range words {
		if s, ok := properNames[w]; ok {
			words[i] = s
		}
	}
	return strings.Join(words, " ")
}

// properNames spell the words of rule ids that are names or acronyms.
var properNames = map[string]string{
	"aws": "AWS", "gcp": "GCP", "api": "API", "pat": "PAT", "jwt": "JWT", "github": "GitHub", "gitlab": "GitLab",
	"openai": "OpenAI", "pypi": "PyPI", "url": "URL", "vcs": "VCS", "id": "ID", "oauth": "OAuth", "sdk": "SDK",
	"slack": "Slack", "stripe": "Stripe", "twilio": "Twilio", "sendgrid": "SendGrid", "npm": "npm", "azure": "Azure",
	"anthropic": "Anthropic", "huggingface": "Hugging Face", "digitalocean": "DigitalOcean", "shopify": "Shopify",
	"mysql": "MySQL", "ssh": "SSH", "pgp": "PGP", "hashicorp": "HashiCorp", "vault": "Vault", "heroku": "Heroku",
	"datadog": "Datadog", "sentry": "Sentry", "discord": "Discord", "telegram": "Telegram", "mailgun": "Mailgun",
	"cloudflare": "Cloudflare", "gitter": "Gitter", "linear": "Linear", "notion": "Notion", "doppler": "Doppler",
	"okta": "Okta", "atlassian": "Atlassian", "bitbucket": "Bitbucket", "grafana": "Grafana", "putty": "PuTTY",
}

// Where says where the finding is, for messages: "line 3", or
// "line 3, base64-encoded".
func (f Finding) Where() string {
	w := "line " + itoa(f.Line)
	if f.Encoding != "" {
		w += ", " + f.Encoding + "-encoded"
	}
	return w
}

// Options says what a text is.
type Options struct {
	// Path is the file the text is the content of ("" for prompts, commands
	// and tool inputs); path-specific rules and path allowlists use it.
	Path string
}

// Result is the outcome of a scan.
type Result struct {
	// Text is the scanned text: the input after normalization (NFKC,
	// invisible characters removed). Findings' offsets refer to it.
	Text     string
	Findings []Finding
	// Incomplete says why the scan did not read all of the text (it is
	// longer than the scan reads, or holds so many secret keywords that
	// the work limit was reached); "" when it did. Text not read may hold
	// secrets: an incomplete scan vouches for nothing.
	Incomplete string
	// spent is the work the scan did (bytes read by the rules'
	// expressions) and hits the keyword positions it found: for tests.
	spent, hits int
}

// Blocking returns the findings that should block an event (not Test ones,
// and, when positional is false, not Positional ones either).
func (r Result) Blocking(positional bool) []Finding {
	var out []Finding
	for _, f := range r.Findings {
		if f.Confidence == Token || positional && f.Confidence == Positional {
			out = append(out, f)
		}
	}
	return out
}

// maxScan bounds the text one scan reads (an event's own size cap); longer
// text is scanned at both ends and the result is incomplete.
const maxScan = 8 << 20

// MaxWork bounds the bytes the rules' expressions read in one scan, summed
// over rules (a keyword wakes its rules on the lines around it). Ordinary
// text, even megabytes of it, needs a small part of it; text made to be
// dense with keywords reaches it, and the scan stops there, incomplete,
// instead of taking seconds.
const MaxWork = 4 << 20

// work is what is left of one scan's budget.
type work struct {
	left       int
	hits       int
	incomplete string
}

// spend takes n bytes from the budget and reports whether the scan may go on.
func (w *work) spend(n int) bool {
	if w.incomplete != "" {
		return false
	}
	w.left -= n
	if w.left < 0 {
		w.fail("the text holds too many secret keywords to scan (work limit " + itoa(MaxWork>>20) + " MiB)")
		return false
	}
	return true
}

// fail marks the scan incomplete, for the first reason given.
func (w *work) fail(reason string) {
	if w.incomplete == "" {
		w.incomplete = reason
	}
}

// maxHits bounds the keyword positions one scan collects (a megabyte of
// source or prose holds a few thousand; 6 MiB of this project's labeled
// security events about 36,000, and of Go's crypto sources 2.5 MiB about
// 35,000).
const maxHits = 1 << 17

// Scan finds the secrets in text.
func Scan(text string, o Options) Result {
	w := &work{left: MaxWork}
	if len(text) > maxScan {
		w.fail("the text is longer than the secret scan reads (" + itoa(len(text)) + " bytes; the limit is " + itoa(maxScan) + ")")
		text = text[:maxScan/2] + "\n" + text[len(text)-maxScan/2:]
	}
	// The passes read a copy of the same length in which escaped quotes
	// and line ends (a notebook's or a JSON document's strings) and the
	// formatting tags of HTML (<code>, <p>) are blanked: a finding's
	// position is the same in both, and the text redacted is the one given.
	res := Result{Text: Normalize(text)}
	n := blankMarkup(res.Text)
	res.Findings = scanPlain(n, o, w)
	if w.incomplete == "" {
		// An incomplete scan already makes the text not understood (the
		// event is judged, its text withheld): the structural and decoding
		// passes over megabytes of it would change nothing.
		res.Findings = append(res.Findings, scanStructural(n)...)
		res.Findings = append(res.Findings, findNamedValue(n, o.Path)...)
		res.Findings = append(res.Findings, findSpacedTokens(n, o, w)...)
		res.Findings = append(res.Findings, scanEncoded(n, o, 1, w)...)
		res.Findings = append(res.Findings, scanViews(n, o, w)...)
		res.Findings = append(res.Findings, scanJoinedNames(n, o, w)...)
		res.Findings = append(res.Findings, scanJoinedPieces(n, o, w)...)
	}
	res.Findings = dedupe(res.Findings)
	res.Incomplete = w.incomplete
	res.spent = MaxWork - w.left
	res.hits = w.hits
	if res.Incomplete == "" && encryptedDocument(n) {
		// Values in a sealed or encrypted document (SealedSecret, sops,
		// Ansible Vault) are ciphertext; only a provider's token or a key
		// in the clear still counts.
		kept := res.Findings[:0]
		for _, f := range res.Findings {
			if f.Confidence == Token {
				kept = append(kept, f)
			}
		}
		res.Findings = kept
	}
	return res
}

// Contains reports the first blocking finding in text, if any.
func Contains(text string, o Options, positional bool) (Finding, bool) {
	b := Scan(text, o).Blocking(positional)
	if len(b) == 0 {
		return Finding{}, false
	}
	return b[0], true
}

// Redact returns text with every secret (of any confidence) replaced by a
// marker naming its kind, and the findings. When the text had to be
// normalized to find a secret, the normalized text is returned redacted.
func Redact(text string) (string, []Finding) {
	res := Scan(text, Options{})
	if res.Incomplete != "" {
		// Text the scan did not read may hold a secret: none of it goes.
		return "[REDACTED: text withheld, the secret scan did not finish: " + res.Incomplete + "]", res.Findings
	}
	if len(res.Findings) == 0 {
		return text, nil
	}
	var b strings.Builder
	last := 0
	for _, f := range res.Findings {
		if f.Start < last {
			continue
		}
		b.WriteString(res.Text[last:f.Start])
		b.WriteString("[REDACTED:" + f.RuleID + "]")
		last = f.End
	}
	b.WriteString(res.Text[last:])
	// The same value written elsewhere in the text, where no rule saw it as
	// a secret (Q2vLp7rT://:Q2vLp7rT@host), goes too.
	return RedactKnown(b.String(), res.Values()), res.Findings
}

// Normalize folds compatibility characters (NFKC: full-width letters) and
// removes invisible format characters (zero-width spaces and joiners, soft
// hyphens, bidi controls), so that a secret split by them reads whole.
func Normalize(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	folds := false
	for _, r := range s {
		if r >= 0x80 && (compatibility(r) || unicode.Is(unicode.Cf, r)) {
			folds = true
			break
		}
	}
	if !folds {
		return s
	}
	// Each compatibility character folded on its own, the rest kept: NFKC
	// over the whole text reorders and recomposes every rune (a text of
	// megabytes full of them took a tenth of a second), and a secret is
	// made of the ASCII these characters fold to.
	var b strings.Builder
	b.Grow(len(s))
	var folded map[rune]string
	for _, r := range s {
		switch {
		case r < utf8.RuneSelf:
			b.WriteByte(byte(r))
		case unicode.Is(unicode.Cf, r):
		case compatibility(r):
			f, ok := folded[r]
			if !ok {
				if folded == nil {
					folded = map[rune]string{}
				}
				f = norm.NFKC.String(string(r))
				folded[r] = f
			}
			b.WriteString(f)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// compatibility reports characters NFKC folds into ASCII letters, digits or
// punctuation: full-width forms, mathematical alphanumerics, ligatures,
// super- and subscripts, enclosed and letter-like symbols, odd spaces. Text
// without them (accents, dashes, CJK) is left alone, which spares loading
// the normalization tables.
func compatibility(r rune) bool {
	switch {
	case r >= 0xFF00 && r <= 0xFFEF, r >= 0x1D400 && r <= 0x1D7FF, r >= 0xFB00 && r <= 0xFB06,
		r >= 0x2070 && r <= 0x209F, r >= 0x2460 && r <= 0x24FF, r >= 0x2100 && r <= 0x214F,
		r >= 0xFE50 && r <= 0xFE6F, r >= 0x1F100 && r <= 0x1F1FF, r >= 0x2000 && r <= 0x200A,
		r == 0x3000, r == 0x00A0, r >= 0x00B2 && r <= 0x00B9, r >= 0x2160 && r <= 0x217F:
		return true
	}
	return false
}

var (
	allRules    []*rule
	keywords    []string // lower case
	keywordRule [][]int  // keyword index → rule indexes
	// byPair indexes keywords by their first two bytes; pairSeen is the
	// same as a bit set, so most positions of a text cost one bit test.
	byPair    map[uint16][]int
	pairSeen  [1 << 16 / 64]uint64
	setupOnce sync.Once
)

// skippedRules are gitleaks rules the detector does not run, and why.
var skippedRules = map[string]string{
	// Positional secrets are ours (env-assignment, config-secret,
	// option-secret, password-in-prose): names filtered by their last word,
	// values by shape. gitleaks' generic rule costs 7 ms to compile with its
	// allowlist in every hook process whose text says "key" or "token".
	"generic-api-key": "replaced by hookguard's positional rules",
}

func setup() {
	setupOnce.Do(func() {
		allRules = make([]*rule, 0, len(gitleaksRules)+len(ourRules)+1)
		keywords = make([]string, 0, 512)
		keywordRule = make([][]int, 0, 512)
		for i := range gitleaksRules {
			r := &gitleaksRules[i]
			r.Confidence = confidenceOf(r.ID)
			if r.ID == "generic-api-key" {
				r.Near = assignment
			}
			allRules = append(allRules, r)
		}
		for i := range ourRules {
			allRules = append(allRules, &ourRules[i])
		}
		allRules = append(allRules, &labeledToken)
		idx := make(map[string]int, 512)
		byPair = make(map[uint16][]int, 512)
		for ri, r := range allRules {
			if skippedRules[r.ID] != "" && ri < len(gitleaksRules) {
				continue
			}
			for _, k := range r.Keywords {
				k = strings.ToLower(k)
				if len(k) < 2 {
					continue
				}
				i, ok := idx[k]
				if !ok {
					i = len(keywords)
					idx[k] = i
					keywords = append(keywords, k)
					keywordRule = append(keywordRule, nil)
					pair := uint16(k[0])<<8 | uint16(k[1])
					byPair[pair] = append(byPair[pair], i)
					pairSeen[pair/64] |= 1 << (pair % 64)
				}
				keywordRule[i] = append(keywordRule[i], ri)
			}
		}
	})
}

// confidenceOf grades gitleaks' rules: the generic ones find secrets by
// position and randomness, the others by a provider's format.
func confidenceOf(id string) Confidence {
	switch id {
	case "generic-api-key", "curl-auth-header", "curl-auth-user", "kubernetes-secret-yaml", "jwt", "jwt-base64":
		return Positional
	}
	return Token
}

// scanPlain runs the rules whose keywords occur in text, each on the lines
// around its keywords (a secret sits next to the word that names it), so
// that a long file costs what its interesting lines cost.
func scanPlain(text string, o Options, w *work) []Finding {
	setup()
	if o.Path != "" {
		for i := range gitleaksGlobal {
			if !gitleaksGlobal[i].MatchAll && gitleaksGlobal[i].pathAllows(o.Path) {
				// gitleaks' global path allowlist: lockfiles, vendored
				// code, images and fonts.
				return nil
			}
		}
	}
	// Keywords are ASCII: lower-casing only ASCII keeps every byte where
	// it is in text (Unicode lower-casing can change lengths, and the
	// positions found here are read back in text).
	lower := htext.ASCIILower(text)
	hits := map[int][]int{} // rule → keyword positions
	var cands []int
	nhits := 0
	for pos := 0; pos+1 < len(lower); pos++ {
		if nhits > maxHits {
			// Text made of keywords: the rules could not read it all
			// within the budget anyway.
			w.fail("the text holds too many secret keywords to scan (more than " + itoa(maxHits) + ")")
			break
		}
		pair := uint16(lower[pos])<<8 | uint16(lower[pos+1])
		if pairSeen[pair/64]&(1<<(pair%64)) == 0 {
			continue
		}
		for _, ki := range byPair[pair] {
			if !strings.HasPrefix(lower[pos:], keywords[ki]) {
				continue
			}
			end := pos + len(keywords[ki])
			if n := keywordRun[keywords[ki]]; n > 0 && !tokenRun(text, end, n) {
				// "s." in orders.ts: not the start of a Vault token.
				continue
			}
			if c, ok := keywordNeeds[keywords[ki]]; ok && strings.IndexByte(text[end:min(len(text), end+needReach)], c) < 0 {
				continue
			}
			for _, ri := range keywordRule[ki] {
				if near := allRules[ri].Near; near != "" && !strings.ContainsAny(text[end:min(len(text), end+nearReach)], near) {
					continue
				}
				if _, ok := hits[ri]; !ok {
					cands = append(cands, ri)
				}
				hits[ri] = append(hits[ri], pos)
				nhits++
			}
		}
	}
	w.hits += nhits
	sort.Ints(cands)
	var out []Finding
	for _, ri := range cands {
		r := allRules[ri]
		r.compile()
		if r.pathExcluded(o.Path) {
			continue // once per rule, not once per window
		}
		for _, win := range windows(text, hits[ri], r.span) {
			if !w.spend(win[1] - win[0]) {
				return out
			}
			out = append(out, r.find(text, win[0], win[1], o, ri < len(gitleaksRules))...)
		}
	}
	return out
}

// keywordRun are keywords so short and common that they count only when a
// run of at least that many token characters follows them (gitleaks'
// Vault rule keys on "s.", which most file names and sentences hold;
// compiling its pattern for each would cost every such hook call).
var keywordRun = map[string]int{"s.": 24, "ey": 17, "sk": 32, "cio": 32, "ac": 32}

// keywordNeeds are keywords that count only when a byte follows within
// needReach: a URL holds a password only when an @ follows it.
var keywordNeeds = map[string]byte{"://": '@'}

const needReach = 300

// tokenRun reports at least n letters, digits, '_' or '-' at text[i:].
func tokenRun(text string, i, n int) bool {
	if i+n > len(text) {
		return false
	}
	for _, c := range []byte(text[i : i+n]) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// nearReach is how far after a keyword a rule's Near characters are looked for.
const nearReach = 40

// windows returns the merged stretches of text around keyword positions. A
// rule within one line reads from a little before its keyword (the name
// it is part of) to at most maxAfter bytes after it, within the line; a rule
// that crosses lines (a key block) reads span bytes on from the line.
func windows(text string, pos []int, span int) [][2]int {
	const before, maxAfter = 64, 1024
	var out [][2]int
	for _, p := range pos {
		// The line around p, looked for within lineReach: on a text of
		// one long line (a minified file, a JSON blob) an unbounded look
		// would cost the whole text for every keyword, and a window needs
		// no more.
		reach := lineReach
		if span < maxAfter {
			reach = max(2*before, maxAfter)
		}
		reachLo := max(0, p-reach)
		lineLo := strings.LastIndexByte(text[reachLo:p], '\n') + 1 + reachLo
		if lineLo == reachLo && reachLo > 0 && text[reachLo-1] != '\n' {
			lineLo = reachLo
		}
		reachHi := min(len(text), p+reach)
		lineHi := strings.IndexByte(text[p:reachHi], '\n')
		if lineHi < 0 {
			lineHi = reachHi
		} else {
			lineHi += p
		}
		lo, hi := lineLo, min(len(text), lineHi+span)
		if span < maxAfter {
			lo = max(lineLo, p-before)
			for lo > lineLo && p-lo < 2*before && !delimiter(text[lo-1]) {
				lo--
			}
			hi = min(len(text), lineHi+span, p+maxAfter)
		}
		if n := len(out); n > 0 && lo <= out[n-1][1] && (hi-out[n-1][0] <= maxMerged || span >= maxAfter) {
			out[n-1][1] = max(out[n-1][1], hi)
			continue
		}
		out = append(out, [2]int{lo, hi})
	}
	return out
}

// maxMerged is the longest window that overlapping windows are merged
// into: the rest start windows of their own (overlapping is cheaper than
// long: Go's regexp runs short inputs on its fast backtracker, long ones on
// the slower NFA).
const maxMerged = 2 << 10

// lineReach is how far from a keyword windows looks for the ends of its
// line: more than any window reads on either side of it.
const lineReach = 4 << 10

// delimiter reports bytes that cannot be inside a token or a name.
func delimiter(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '"', '\'', '`', '(', ')', '[', ']', '{', '}', ',', ';', '<', '>':
		return true
	}
	return false
}

// find applies one rule to text[lo:hi] (offsets are text's).
// pathExcluded reports a rule that does not apply to the file at path: it
// is limited to other paths, or one of its allowlists allows this one.
func (r *rule) pathExcluded(path string) bool {
	if r.pathRe != nil && (path == "" || !r.pathRe.MatchString(path)) {
		return true
	}
	for i := range r.Allowlists {
		a := &r.Allowlists[i]
		if !a.MatchAll && a.pathAllows(path) {
			return true
		}
	}
	return false
}

// matches returns the rule's matches in text[lo:hi] with text's offsets. A
// rule with NameEnds skips a match whose name does not end with one of
// them and looks again from the end of that name (d=aws_secret_access_key=…:
// the value of d holds the assignment that counts).
func (r *rule) matches(text string, lo, hi int) [][]int {
	if len(r.NameEnds) == 0 {
		ms := r.re.FindAllStringSubmatchIndex(text[lo:hi], -1)
		for _, m := range ms {
			for i := range m {
				if m[i] >= 0 {
					m[i] += lo
				}
			}
		}
		return ms
	}
	var out [][]int
	for pos := lo; pos < hi; {
		m := r.re.FindStringSubmatchIndex(text[pos:hi])
		if m == nil {
			break
		}
		for i := range m {
			if m[i] >= 0 {
				m[i] += pos
			}
		}
		g := 2 * r.NameGroup
		if m[g] >= 0 && endsWithAny(text[m[g]:m[g+1]], r.NameEnds) {
			out = append(out, m)
			pos = max(m[1], pos+1)
			continue
		}
		if m[g] >= 0 {
			pos = max(m[g+1], pos+1)
		} else {
			pos = max(m[1], pos+1)
		}
	}
	return out
}

// find returns the rule's findings in text[lo:hi] (the caller has checked
// pathExcluded).
func (r *rule) find(text string, lo, hi int, o Options, gitleaks bool) []Finding {
	var out []Finding
	for _, m := range r.matches(text, lo, hi) {
		start, end := m[0], m[1]
		for end > start && text[end-1] == '\n' {
			end--
		}
		for start < end && text[start] == '\n' {
			start++
		}
		match := text[start:end]
		ss, se := start, end
		if len(m) > 2 {
			if r.SecretGroup > 0 {
				if 2*r.SecretGroup+1 >= len(m) || m[2*r.SecretGroup] < 0 {
					continue
				}
				ss, se = m[2*r.SecretGroup], m[2*r.SecretGroup+1]
			} else {
				for g := r.NameGroup + 1; 2*g+1 < len(m); g++ {
					if m[2*g] >= 0 && m[2*g+1] > m[2*g] {
						ss, se = m[2*g], m[2*g+1]
						break
					}
				}
			}
		}
		secret := text[ss:se]
		// A password of letters alone, scattered in case (HANZpxCNqQFvAK).
		letterPassword := r.NameGroup > 0 && m[2*r.NameGroup] >= 0 && passwordName(text[m[2*r.NameGroup]:m[2*r.NameGroup+1]]) &&
			caseMixed(strings.TrimRight(secret, ".,;:!?)"))
		if r.NameGroup > 0 && (m[2*r.NameGroup] < 0 || !secretName(text[m[2*r.NameGroup]:m[2*r.NameGroup+1]]) ||
			!positionalValue(secret) && !letterPassword) {
			continue
		}
		if r.Confidence == Positional && r.NameGroup == 0 && !positionalValue(secret) {
			continue
		}
		if r.MixedValue && !mixed(secret) && !letterPassword {
			continue
		}
		if r.StrongValue && !strongValue(secret) {
			continue
		}
		if r.Entropy != 0 && entropy(secret) <= r.Entropy {
			continue
		}
		line := lineAround(text, start, end)
		if gitleaks && allowedBy(gitleaksGlobal, secret, match, line, o.Path) {
			continue
		}
		if allowedBy(r.Allowlists, secret, match, line, o.Path) {
			continue
		}
		if Placeholder(secret) || placeholderLine(line) {
			continue
		}
		conf := min(r.Confidence, credentialGrade(r.ID, secret, text[se:min(len(text), se+64)], text, o.Path))
		out = append(out, Finding{RuleID: r.ID, Line: 1 + strings.Count(text[:ss], "\n"), Start: ss, End: se, Confidence: conf, base: r.Confidence})
	}
	return out
}

func allowedBy(lists []allowlist, secret, match, line, path string) bool {
	for i := range lists {
		if lists[i].allows(secret, match, line, path) {
			return true
		}
	}
	return false
}

// lineAround returns the full lines holding text[start:end].
func lineAround(text string, start, end int) string {
	ls := strings.LastIndexByte(text[:start], '\n') + 1
	le := strings.IndexByte(text[end:], '\n')
	if le < 0 {
		le = len(text)
	} else {
		le += end
	}
	return text[ls:le]
}

// dedupe sorts findings by position and merges those that overlap, keeping
// the finding of the more specific rule where two cover the same text.
func dedupe(fs []Finding) []Finding {
	if len(fs) < 2 {
		return fs
	}
	sort.SliceStable(fs, func(i, j int) bool {
		if fs[i].Start != fs[j].Start {
			return fs[i].Start < fs[j].Start
		}
		if fs[i].base != fs[j].base {
			return fs[i].base > fs[j].base
		}
		if fs[i].Confidence != fs[j].Confidence {
			return fs[i].Confidence > fs[j].Confidence
		}
		return fs[i].End > fs[j].End
	})
	out := fs[:1]
	for _, f := range fs[1:] {
		last := &out[len(out)-1]
		if f.Start < last.End {
			// Overlapping: keep one span covering both, named and graded
			// by the more specific rule (a provider's rule knows that a
			// Firebase key is public; the generic rule does not).
			if f.End > last.End {
				last.End = f.End
			}
			if f.base > last.base || f.base == last.base && f.Confidence > last.Confidence {
				last.Confidence, last.RuleID, last.Encoding, last.base = f.Confidence, f.RuleID, f.Encoding, f.base
			}
			continue
		}
		out = append(out, f)
	}
	return out
}

// entropy is the Shannon entropy of s in bits per byte.
func entropy(s string) float64 {
	if s == "" {
		return 0
	}
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	e := 0.0
	n := float64(len(s))
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			e -= p * math.Log2(p)
		}
	}
	return e
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}

// mixed reports whether s mixes letters with digits or symbols.
// passwordName reports a name that says its value is a password (a
// password made of letters alone is still one).
func passwordName(name string) bool {
	low := strings.ToLower(name)
	return strings.Contains(low, "pass")
}

// caseMixed reports a letters-only value of ten or more with upper and
// lower case scattered through it (HANZpxCNqQFvAK), not a word in title or
// camel case (Password, CorrectHorseBattery, XMLHttpRequest).
func caseMixed(s string) bool {
	if len(s) < 10 {
		return false
	}
	upper, lower, changes, upperPairs := 0, 0, 0, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'A' && c <= 'Z':
			upper++
		case c >= 'a' && c <= 'z':
			lower++
		default:
			return false
		}
		if i > 0 && (c >= 'A' && c <= 'Z') != (s[i-1] >= 'A' && s[i-1] <= 'Z') {
			changes++
		}
		if i > 0 && c >= 'A' && c <= 'Z' && s[i-1] >= 'A' && s[i-1] <= 'Z' {
			upperPairs++
		}
	}
	// Runs of capitals among small letters: not camel case (SomeIdentifierName).
	return upper >= 3 && lower >= 3 && changes >= 4 && upperPairs >= 2
}

// strongValue reports a value of 24 or more characters with upper- and
// lower-case letters and digits.
func strongValue(s string) bool {
	if len(s) < 24 {
		return false
	}
	var upper, lower, digit bool
	for i := 0; i < len(s); i++ {
		c := s[i]
		upper = upper || c >= 'A' && c <= 'Z'
		lower = lower || c >= 'a' && c <= 'z'
		digit = digit || c >= '0' && c <= '9'
	}
	return upper && lower && digit
}

func mixed(s string) bool {
	letters, others := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			letters = true
		case c == '_' || c == '-' || c == '.':
		default:
			others = true
		}
	}
	return letters && others
}

// Values returns the secrets of a scan as they are written in its text.
func (r Result) Values() []string {
	var out []string
	for _, f := range r.Findings {
		out = append(out, r.Text[f.Start:f.End])
	}
	return out
}

// minKnownPrefix is the shortest piece of a known secret that RedactKnown
// cuts out: a secret quoted and cut short in a message ("sk_live_4eC3…")
// still goes.
const minKnownPrefix = 8

// RedactKnown replaces every occurrence in s of the given secrets, and of
// any piece of one at least minKnownPrefix bytes long that starts where the
// secret starts, with a marker. It catches secrets the detectors can no
// longer recognize in text derived from an event: quoted in a reason,
// truncated in a summary.
func RedactKnown(s string, values []string) string {
	for _, v := range values {
		if len(v) < minKnownPrefix {
			continue
		}
		prefix := v[:minKnownPrefix]
		var b strings.Builder
		last := 0
		for i := 0; i+minKnownPrefix <= len(s); {
			j := strings.Index(s[i:], prefix)
			if j < 0 {
				break
			}
			start := i + j
			k := minKnownPrefix
			for start+k < len(s) && k < len(v) && s[start+k] == v[k] {
				k++
			}
			b.WriteString(s[last:start])
			b.WriteString("[REDACTED]")
			last = start + k
			i = last
		}
		if last > 0 {
			b.WriteString(s[last:])
			s = b.String()
		}
	}
	return s
}
