package secrets

import (
	"crypto/sha256"
	"math/big"
	"slices"
	"strings"
	"sync"
)

// Secrets known by their shape rather than by a keyword: a wallet's recovery
// phrase (twelve or more words of the BIP-39 list) and a private key written
// as a JSON array of its bytes (Solana's keypair files, many wallets'
// exports). Both are found by one linear pass each; the word list is only
// loaded when a run of candidate words is long enough.

// mnemonicWords is the shortest recovery phrase BIP-39 defines.
const mnemonicWords = 12

// bip39Index maps each word of the list to its position.
var bip39Index = sync.OnceValue(func() map[string]int {
	words := strings.Fields(bip39Words)
	m := make(map[string]int, len(words))
	for i, w := range words {
		m[w] = i
	}
	return m
})

// scanStructural finds the shape-only secrets in text.
func scanStructural(text string) []Finding {
	var out []Finding
	out = append(out, findMnemonics(text)...)
	out = append(out, findByteArrayKeys(text)...)
	out = append(out, findBase58Keys(text)...)
	out = append(out, findPasswordTables(text)...)
	return out
}

// findNamedValue finds the secret of a file whose name says it holds one
// (wandb_api_key, .vault-token, db_password.txt, github-token) and whose
// whole content is one value: that value.
func findNamedValue(text, filePath string) []Finding {
	if filePath == "" || len(text) > 1024 {
		return nil
	}
	base := strings.ToLower(filePath[strings.LastIndexAny(filePath, "/\\")+1:])
	named := false
	for _, w := range []string{"key", "token", "secret", "password", "passwd", "credential"} {
		if strings.Contains(base, w) {
			named = true
			break
		}
	}
	if !named {
		return nil
	}
	for _, w := range []string{".pub", "public", "example", "sample", "template", ".md", ".go", ".py", ".ts", ".js", ".rs",
		".java", ".rb", ".json", ".yaml", ".yml", ".toml", ".xml", ".html", ".css", "keyboard", "keymap", "monkey", "turkey"} {
		if strings.Contains(base, w) {
			return nil
		}
	}
	v := strings.TrimSpace(text)
	if len(v) < 16 || len(v) > 512 || strings.ContainsAny(v, " \t\n") || Placeholder(v) || entropy(v) < 3 || strings.HasPrefix(v, "-----") {
		return nil
	}
	start := strings.Index(text, v)
	return []Finding{{RuleID: "secret-file-value", Line: 1 + strings.Count(text[:start], "\n"), Start: start, End: start + len(v),
		Confidence: Positional, base: Positional}}
}

// spacedTokenPrefixes are providers' token prefixes that a token split
// into groups ("ghp_ Z4OS t7FK …", to get past a scanner) still starts with.
var spacedTokenPrefixes = []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "xoxb-", "xoxp-", "xoxa-",
	"sk-proj-", "sk-ant-", "sk_live_", "rk_live_", "AKIA", "ASIA", "hf_", "npm_", "pypi-", "dop_v1_", "SG.", "shpat_"}

// findSpacedTokens finds provider tokens written with spaces inside them:
// the prefix and a space, then groups of two to eight token characters separated by
// single spaces. The groups are joined and scanned; a token found covers
// the whole spaced span.
func findSpacedTokens(text string, o Options, w *work) []Finding {
	// The prefix is followed by a space: a few passes rule most texts out.
	if !strings.Contains(text, "_ ") && !strings.Contains(text, "- ") && !strings.Contains(text, "AKIA ") && !strings.Contains(text, "ASIA ") && !strings.Contains(text, "SG. ") {
		return nil
	}
	var out []Finding
	for _, prefix := range spacedTokenPrefixes {
		for from := 0; from < len(text) && len(out) < 8; {
			i := strings.Index(text[from:], prefix+" ")
			if i < 0 {
				break
			}
			i += from
			from = i + len(prefix)
			j := i + len(prefix)
			var b strings.Builder
			b.WriteString(prefix)
			groups, spaces, digits := 0, 0, 0
			for j < len(text) && b.Len() <= 256 {
				if text[j] == ' ' && j+1 < len(text) && tokenByte(text[j+1]) {
					spaces++
					j++
					continue
				}
				k := j
				for k < len(text) && tokenByte(text[k]) {
					k++
				}
				if k == j || k-j > 8 {
					break
				}
				if g := text[j:k]; strings.ContainsAny(g, "0123456789") || len(g) > 1 && strings.ToLower(g[1:]) != g[1:] {
					digits++ // a digit, or a capital inside: a random chunk, not a word
				}
				b.WriteString(text[j:k])
				groups++
				j = k
			}
			// Random chunks hold digits; a sentence after the prefix does not.
			if spaces < 2 || groups < 4 || b.Len() > 256 || digits*5 < groups*3 {
				continue
			}
			for _, f := range scanPlain(b.String(), o, w) {
				if f.Confidence == Token {
					out = append(out, Finding{RuleID: f.RuleID, Line: 1 + strings.Count(text[:i], "\n"), Start: i, End: j,
						Encoding: "spaced", Confidence: Token, base: Token})
					break
				}
			}
			from = j
		}
	}
	return out
}

// tokenByte reports a character tokens are made of.
func tokenByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// maxTableRows bounds the rows of one table read for passwords.
const maxTableRows = 2000

// findPasswordTables finds the passwords in a table of logins: a CSV or TSV
// (a password manager's or browser's export, a users sheet) whose header
// names a password column beside a user, login, URL or name column, and
// whose rows hold values in it that are not placeholders. Each value is a
// finding; a document that merely mentions a password column has no rows.
func findPasswordTables(text string) []Finding {
	// Only the lines that name a password can be a table's header: found
	// by searching, not by splitting the whole text.
	var starts []int
	for _, w := range tableHeaderWords {
		for from := 0; from < len(text) && len(starts) < 256; {
			i := strings.Index(text[from:], w)
			if i < 0 {
				break
			}
			i += from
			starts = append(starts, strings.LastIndexByte(text[:i], '\n')+1)
			from = i + len(w)
			if nl := strings.IndexByte(text[from:], '\n'); nl >= 0 {
				from += nl + 1 // the next line
			} else {
				from = len(text)
			}
		}
	}
	if len(starts) == 0 {
		return nil
	}
	slices.Sort(starts)
	var out []Finding
	done := -1 // where the last table read ended
	for _, ls := range slices.Compact(starts) {
		if ls < done {
			continue
		}
		end := strings.IndexByte(text[ls:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += ls
		}
		header := strings.TrimRight(text[ls:end], "\r")
		if !mayHoldPasswordColumn(header) {
			continue
		}
		sep, col, width, secretCol := passwordHeader(header)
		if col < 0 {
			continue
		}
		cellHolds := passwordValue
		if secretCol {
			cellHolds = secretCellValue
		}
		lineNo := 1 + strings.Count(text[:ls], "\n")
		start := end + 1
		for rows := 0; start < len(text) && rows < maxTableRows; rows++ {
			e := strings.IndexByte(text[start:], '\n')
			if e < 0 {
				e = len(text)
			} else {
				e += start
			}
			line := strings.TrimRight(text[start:e], "\r")
			lineNo++
			fields := splitRow(line, sep)
			if len(fields) != width {
				break // the table ended
			}
			if f := fields[col]; cellHolds(line[f.start:f.end]) {
				out = append(out, Finding{RuleID: "password-table", Line: lineNo, Start: start + f.start, End: start + f.end,
					Confidence: Positional, base: Positional})
			}
			start = e + 1
		}
		done = start
	}
	return out
}

// mayHoldPasswordColumn is the cheap test before a line is read as a
// header: it names a password column and has separators.
func mayHoldPasswordColumn(line string) bool {
	if len(line) > 2048 || !strings.ContainsAny(line, ",\t") || strings.ContainsAny(line, "(){};=<>[]") {
		return false // not a header: a line of code that names a key
	}
	for _, w := range tableHeaderWords {
		if strings.Contains(line, w) {
			return true
		}
	}
	return false
}

// tableHeaderWords are the words one of which a secret column's name holds.
var tableHeaderWords = []string{"pass", "Pass", "PASS", "pwd", "PWD", "secret", "Secret", "SECRET", "token", "Token", "TOKEN",
	"key", "Key", "KEY"}

// secretColumnEnds end the names of columns that hold a secret other than a
// password (api_secret, access_token, private key).
var secretColumnEnds = []string{"secret", "token", "api_key", "apikey", "private_key", "access_key", "secret_key", "signing_key",
	"client_secret", "auth_token", "access_token", "refresh_token", "webhook_secret"}

// secretColumn reports a column name (lower case) that says it holds a
// secret, not something about one.
func secretColumn(name string) bool {
	name = strings.NewReplacer(" ", "_", "-", "_").Replace(name)
	for _, w := range []string{"hash", "expir", "_id", "name", "url", "type", "prefix", "last4", "hint", "created", "rotated"} {
		if strings.Contains(name, w) {
			return false
		}
	}
	for _, e := range secretColumnEnds {
		if strings.HasSuffix(name, e) {
			return true
		}
	}
	return false
}

// secretCellValue reports a table cell that holds a token: sixteen or more
// characters without spaces, letters and digits, random-looking, not a
// placeholder.
func secretCellValue(v string) bool {
	v = strings.TrimSpace(v)
	if len(v) < 16 || len(v) > 400 || strings.ContainsAny(v, " ") || Placeholder(v) || entropy(v) < 3.5 {
		return false
	}
	letters, digits := false, false
	for i := 0; i < len(v); i++ {
		c := v[i]
		letters = letters || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		digits = digits || c >= '0' && c <= '9'
	}
	return letters && digits
}

// passwordHeader reads a table header: its separator, the password
// column's index and the number of columns; col is -1 when the line is not
// such a header. Without a password column, a column named for another
// secret (api_secret, access_token) is the one read (secretCol).
func passwordHeader(line string) (sep byte, col, width int, secretCol bool) {
	sep = ','
	if strings.Count(line, "\t") > strings.Count(line, ",") {
		sep = '\t'
	}
	fields := splitRow(line, sep)
	if len(fields) < 3 || len(fields) > 64 {
		return sep, -1, 0, false
	}
	col = -1
	other := -1
	beside := false
	for i, f := range fields {
		name := strings.ToLower(strings.TrimSpace(line[f.start:f.end]))
		switch {
		case strings.Contains(name, "password") || name == "passwd" || name == "pwd" || name == "pass":
			if strings.Contains(name, "hash") || strings.Contains(name, "changed") || strings.Contains(name, "reset") ||
				strings.Contains(name, "expir") || strings.Contains(name, "policy") {
				continue // password_hash, password_changed_at: not the password
			}
			if col < 0 {
				col = i
			}
		case secretColumn(name):
			// A secret or token column before a key column (api_key beside
			// api_secret may be the public half).
			if other < 0 || !strings.HasSuffix(name, "key") && strings.HasSuffix(strings.ToLower(strings.TrimSpace(line[fields[other].start:fields[other].end])), "key") {
				other = i
			}
		case strings.Contains(name, "user") || strings.Contains(name, "login") || strings.Contains(name, "email") ||
			strings.Contains(name, "url") || strings.Contains(name, "uri") || name == "name" || name == "title" ||
			strings.Contains(name, "site") || strings.Contains(name, "account") || strings.Contains(name, "host"):
			beside = true
		}
	}
	if !beside {
		return sep, -1, 0, false
	}
	if col < 0 && other >= 0 {
		return sep, other, len(fields), true
	}
	return sep, col, len(fields), false
}

// splitRow splits one line of a CSV or TSV into its fields' spans, with
// double-quoted fields ("a, b") kept whole (the quotes are not in the span).
func splitRow(line string, sep byte) []span {
	var out []span
	i := 0
	for {
		if i < len(line) && line[i] == '"' {
			j := i + 1
			for j < len(line) {
				if line[j] == '"' {
					if j+1 < len(line) && line[j+1] == '"' {
						j += 2
						continue
					}
					break
				}
				j++
			}
			out = append(out, span{i + 1, min(j, len(line))})
			k := strings.IndexByte(line[min(j, len(line)):], sep)
			if k < 0 {
				return out
			}
			i = j + k + 1
			continue
		}
		k := strings.IndexByte(line[i:], sep)
		if k < 0 {
			return append(out, span{i, len(line)})
		}
		out = append(out, span{i, i + k})
		i += k + 1
	}
}

// passwordValue reports a table cell that holds a password: six or more
// characters without spaces, not a placeholder, not a hash of one.
func passwordValue(v string) bool {
	v = strings.TrimSpace(v)
	if len(v) < 6 || len(v) > 200 || strings.ContainsAny(v, " ") || Placeholder(v) {
		return false
	}
	if strings.HasPrefix(v, "$2") || strings.HasPrefix(v, "$argon2") || strings.HasPrefix(v, "pbkdf2") ||
		strings.HasPrefix(v, "$6$") || strings.HasPrefix(v, "$5$") || strings.HasPrefix(v, "sha256$") {
		return false // a stored hash: not the password itself
	}
	return true
}

const base58Alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

// base58Value maps a byte to its base58 digit, or -1: one lookup per byte
// of scanned text instead of a search of the alphabet.
var base58Value = func() (t [256]int8) {
	for i := range t {
		t[i] = -1
	}
	for i := 0; i < len(base58Alphabet); i++ {
		t[base58Alphabet[i]] = int8(i)
	}
	return t
}()

// findBase58Keys finds Bitcoin-style private keys written in base58check:
// WIF keys (51–52 characters, version 0x80 or 0xef) and BIP-32 extended
// private keys (xprv, tprv, yprv, zprv; 111 characters). The checksum is
// verified, so a random string of the same shape is not one.
func findBase58Keys(text string) []Finding {
	var out []Finding
	i := 0
	for i < len(text) {
		if base58Value[text[i]] < 0 {
			i++
			continue
		}
		j := i
		for j < len(text) && base58Value[text[j]] >= 0 {
			j++
		}
		if n := j - i; (n == 51 || n == 52 || n >= 107 && n <= 112) && (i == 0 || !wordByte(text[i-1])) {
			if payload, ok := base58Check(text[i:j]); ok && privateKeyPayload(payload) {
				out = append(out, Finding{RuleID: "bitcoin-private-key", Line: 1 + strings.Count(text[:i], "\n"), Start: i, End: j,
					Confidence: Token, base: Token})
			}
		}
		i = j
	}
	return out
}

// base58Check decodes s and verifies its four-byte double-SHA-256 checksum.
func base58Check(s string) ([]byte, bool) {
	n := new(big.Int)
	radix := big.NewInt(58)
	for i := 0; i < len(s); i++ {
		n.Mul(n, radix)
		n.Add(n, big.NewInt(int64(base58Value[s[i]])))
	}
	b := n.Bytes()
	for i := 0; i < len(s) && s[i] == '1'; i++ {
		b = append([]byte{0}, b...)
	}
	if len(b) < 5 {
		return nil, false
	}
	payload, sum := b[:len(b)-4], b[len(b)-4:]
	first := sha256.Sum256(payload)
	second := sha256.Sum256(first[:])
	return payload, string(second[:4]) == string(sum)
}

// privateKeyPayload reports a WIF key (version byte, 32-byte key, optional
// compression flag) or an extended private key (78 bytes, private version).
func privateKeyPayload(p []byte) bool {
	switch {
	case (len(p) == 33 || len(p) == 34 && p[33] == 1) && (p[0] == 0x80 || p[0] == 0xef):
		return true
	case len(p) == 78:
		switch uint32(p[0])<<24 | uint32(p[1])<<16 | uint32(p[2])<<8 | uint32(p[3]) {
		case 0x0488ADE4, 0x04358394, 0x049D7878, 0x04B2430C, 0x045F18BC:
			return true
		}
	}
	return false
}

// findMnemonics finds runs of at least twelve BIP-39 words separated only
// by spaces, commas or list numbers ("1. word 2. word").
func findMnemonics(text string) []Finding {
	var out []Finding
	var run []span
	flush := func() {
		if len(run) >= mnemonicWords {
			out = append(out, mnemonicFinding(text, run)...)
		}
		run = run[:0]
	}
	i := 0
	for i < len(text) {
		c := text[i]
		if c < 'a' || c > 'z' {
			if !phraseSeparator(c) {
				flush()
			}
			i++
			continue
		}
		j := i
		for j < len(text) && text[j] >= 'a' && text[j] <= 'z' {
			j++
		}
		if j < len(text) && (text[j] >= 'A' && text[j] <= 'Z' || text[j] == '_' || text[j] == '-') || i > 0 && wordByte(text[i-1]) {
			// Part of a longer identifier (camelCase, snake_case, kebab-case).
			flush()
		} else if n := j - i; n >= 3 && n <= 8 {
			run = append(run, span{i, j})
		} else {
			flush()
		}
		i = j
	}
	flush()
	return out
}

// span is where a word lies in the text.
type span struct{ start, end int }

// mnemonicFinding checks a run of candidate words against the list: the
// longest stretch of listed words of at least twelve, with at least eight
// different words (not one word repeated), not in the list's own order (a
// document quoting the list).
func mnemonicFinding(text string, run []span) []Finding {
	list := bip39Index()
	best, cur, curStart, bestStart := 0, 0, 0, 0
	for i, w := range run {
		if _, ok := list[text[w.start:w.end]]; !ok {
			cur = 0
			continue
		}
		if cur == 0 {
			curStart = i
		}
		cur++
		if cur > best {
			best, bestStart = cur, curStart
		}
	}
	if best < mnemonicWords {
		return nil
	}
	phrase := run[bestStart : bestStart+best]
	distinct := map[string]bool{}
	ordered := true
	for i, w := range phrase {
		word := text[w.start:w.end]
		distinct[word] = true
		ordered = ordered && (i == 0 || list[word] > list[text[phrase[i-1].start:phrase[i-1].end]])
	}
	if len(distinct) < 8 || ordered {
		return nil
	}
	s, e := phrase[0].start, phrase[len(phrase)-1].end
	return []Finding{{RuleID: "wallet-recovery-phrase", Line: 1 + strings.Count(text[:s], "\n"), Start: s, End: e,
		Confidence: Token, base: Token}}
}

func phraseSeparator(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == '.' || c == ')' || c >= '0' && c <= '9'
}

func wordByte(c byte) bool {
	return c >= 'A' && c <= 'Z' || c == '_' || c == '-' || c == '/' || c == '.'
}

// findByteArrayKeys finds JSON arrays of exactly 32 or 64 numbers 0–255
// with varied values: a secret key or a keypair written as its bytes.
func findByteArrayKeys(text string) []Finding {
	if strings.Count(text, ",") < 31 {
		return nil
	}
	var out []Finding
	for i := 0; i < len(text); i++ {
		if text[i] != '[' {
			continue
		}
		n, end, ok := byteArray(text, i+1)
		if !ok {
			continue
		}
		if n == 32 || n == 64 {
			out = append(out, Finding{RuleID: "private-key-byte-array", Line: 1 + strings.Count(text[:i], "\n"), Start: i, End: end,
				Confidence: Token, base: Token})
		}
		i = end - 1
	}
	return out
}

// byteArray reads "n, n, …]" from text[i:], returning how many numbers it
// held, where it ends, and whether it was an array of varied bytes.
func byteArray(text string, i int) (count, end int, ok bool) {
	seen := map[int]bool{}
	prev, rising := -1, true // a table counting up (0, 1, 2, …) is no key
	for i < len(text) {
		for i < len(text) && (text[i] == ' ' || text[i] == '\n' || text[i] == '\r' || text[i] == '\t') {
			i++
		}
		v, digits := 0, 0
		for i < len(text) && text[i] >= '0' && text[i] <= '9' && digits < 4 {
			v = v*10 + int(text[i]-'0')
			i++
			digits++
		}
		if digits == 0 || digits > 3 || v > 255 {
			return 0, i, false
		}
		count++
		seen[v] = true
		rising = rising && v > prev
		prev = v
		for i < len(text) && (text[i] == ' ' || text[i] == '\n' || text[i] == '\r' || text[i] == '\t') {
			i++
		}
		if i >= len(text) || count > 64 {
			return 0, i, false
		}
		switch text[i] {
		case ',':
			i++
		case ']':
			return count, i + 1, len(seen) >= 16 && !rising
		default:
			return 0, i, false
		}
	}
	return 0, i, false
}
