package rules

import (
	"encoding/json"
	"errors"
	"strings"

	"github.com/hookguard/hookguard/rules/secrets"
	"github.com/hookguard/hookguard/rules/shell"

	"github.com/dlclark/regexp2/v2"
)

// replaceAll replaces every match of re in s. A folded pattern is matched
// against the lowercased text and the matches cut out of the original.
func replaceAll(re *regexp2.Regexp, s string, folded bool, with string) (string, error) {
	if !folded {
		return re.Replace(s, with, -1, -1)
	}
	orig := []rune(s)
	lower := []rune(strings.ToLower(s))
	if len(orig) != len(lower) {
		return "", errors.New("case folding changed the text length")
	}
	m, err := re.FindRunesMatch(lower)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	last := 0
	for m != nil {
		start, n := m.RuneIndex, m.RuneLength
		b.WriteString(string(orig[last:start]))
		b.WriteString(with)
		last = start + n
		if m, err = re.FindNextMatch(m); err != nil {
			return "", err
		}
	}
	b.WriteString(string(orig[last:]))
	return b.String(), nil
}

// Redact replaces every secret the secret detector (rules/secrets) and the
// policy's own detectors (rules marked secret) find in s with a marker naming
// its kind. Use it before anything leaves
// the process: to the model, the logs or the cache.
func (p *Policy) Redact(s string) string {
	if s == "" {
		return s
	}
	s, _ = secrets.Redact(s)
	if p == nil {
		return s
	}
	if p.index == nil {
		p.finish()
	}
	for _, r := range p.index.secrets {
		if !r.matchText(s, "") {
			continue
		}
		c := r.compile()
		for i, re := range c.patterns {
			var err error
			s, err = replaceAll(re, s, c.folded[i], "[REDACTED:"+r.ID+"]")
			if err != nil {
				// A timeout, or text whose case folding changes its length:
				// do not risk returning the secret.
				return "[REDACTED: text withheld, the secret scan did not finish]"
			}
		}
	}
	return s
}

// ContainsSecret reports whether any secret detector matches s, and which:
// the secret detector (any confidence, as redaction) or a rule marked secret.
func (p *Policy) ContainsSecret(s string) (string, bool) {
	switch res := secrets.Scan(s, secrets.Options{}); {
	case len(res.Findings) > 0:
		return SecretRulePrefix + res.Findings[0].RuleID, true
	case res.Incomplete != "":
		return SecretRulePrefix + "scan-incomplete", true
	}
	if p.index == nil {
		p.finish()
	}
	for _, r := range p.index.secrets {
		if r.matchText(s, strings.ToLower(s)) {
			return r.ID, true
		}
	}
	return "", false
}

// RedactCommand redacts a shell command line for the model, the logs and the
// cache. When the words the shell would build reveal a secret that the line as
// written hides (split by quotes, written with escapes), the line itself is
// withheld and its simple commands, redacted, stand in for it.
func (p *Policy) RedactCommand(line string) string {
	red := p.Redact(line)
	res := shell.Split(line, shell.Options{})
	expanded := strings.Join(res.Pipelines, "\n")
	if expanded == "" || expanded == line {
		return red
	}
	redExp := p.Redact(expanded)
	hidden := strings.Count(redExp, "[REDACTED") > strings.Count(red, "[REDACTED")
	for _, v := range secrets.Scan(expanded, secrets.Options{}).Values() {
		// A secret the shell assembles that the line does not hold as
		// written: the line hides it in quotes or escapes.
		hidden = hidden || !strings.Contains(line, v)
	}
	if hidden {
		return "[hookguard: the command as written holds a secret in split or escaped form; its simple commands, redacted:]\n" + redExp
	}
	return red
}

// RedactorFor returns a redactor for text derived from an event whose own
// texts (command, prompt, content, tool input) are given: Redact, and also
// every secret found in those texts wherever it, or a cut-short piece of it,
// appears — a command quoted and truncated in a reason or a summary cannot
// carry a secret past the detectors.
func (p *Policy) RedactorFor(texts ...string) func(string) string {
	var known []string
	for _, t := range texts {
		if t == "" {
			continue
		}
		known = append(known, secrets.Scan(t, secrets.Options{}).Values()...)
		if tt := strings.TrimSpace(t); (strings.HasPrefix(tt, "{") || strings.HasPrefix(tt, "[")) && json.Valid([]byte(tt)) {
			// A tool input: its string values decoded (a multi-line value's
			// lines are lines again: a password table, a key file).
			if dec := jsonStrings(json.RawMessage(tt)); dec != tt {
				known = append(known, secrets.Scan(dec, secrets.Options{}).Values()...)
			}
		}
		if res := shell.Split(t, shell.Options{}); len(res.Pipelines) > 0 {
			if exp := strings.Join(res.Pipelines, "\n"); exp != t {
				known = append(known, secrets.Scan(exp, secrets.Options{}).Values()...)
			}
		}
	}
	return func(s string) string {
		if s == "" {
			return s
		}
		return secrets.RedactKnown(p.Redact(s), known)
	}
}
