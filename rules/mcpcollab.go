package rules

import (
	"regexp"
	"strings"
	"sync"
	"unicode"
)

// Posts to the team's tracker and chat (an issue, a comment, a pull request
// opened for review, a chat message) are routine work: they are allowed when
// the rules find nothing in them. What they find is judged or denied: a
// secret (the secret scan), several people's contact details (personalData),
// and what collabConcern lists.

// collaborationPost reports a tool that opens an issue, a pull or merge
// request, a ticket or a page, comments on one, or posts a chat message:
// text for the team to read, not a file, a merge, a release or an e-mail.
func collaborationPost(tool string) bool {
	words := map[string]bool{}
	for _, w := range toolWords(splitCamel(tool)) {
		words[strings.ToLower(w)] = true
	}
	for _, w := range []string{"file", "files", "branch", "repository", "repo", "release", "tag", "email", "mail", "merge_pull_request",
		"delete", "remove", "update", "edit", "close", "assign", "transfer", "invite", "secret", "variable", "webhook", "workflow"} {
		if words[w] {
			return false
		}
	}
	switch {
	case words["comment"] || words["comments"]:
		return true
	case words["create"] || words["add"] || words["open"] || words["new"]:
		for _, w := range []string{"issue", "pull", "ticket", "page", "pages", "task", "card", "note", "discussion", "story", "bug"} {
			if words[w] {
				return true
			}
		}
		return words["merge"] && words["request"]
	case words["post"] || words["reply"] || words["send"]:
		return words["message"] || words["thread"] || words["reply"] || words["chat"]
	}
	return false
}

// splitCamel separates camelCase words with underscores (addCommentToJiraIssue).
func splitCamel(s string) string {
	var b strings.Builder
	for i, r := range s {
		if i > 0 && unicode.IsUpper(r) && unicode.IsLower(rune(s[i-1])) {
			b.WriteByte('_')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// collabConcern returns why a post to the team's tracker or chat needs a
// person ("" when nothing does): text written to steer an AI reviewer or
// guard, a person's contact or payment details, internal host names and
// addresses, or a channel shared with people outside the company.
func collabConcern(text, channel string) string {
	switch {
	case reviewerSteeringRe().MatchString(text):
		return "the text is written to steer an AI reviewer or guard (a planted instruction)"
	case personalHintRe().MatchString(text) || personalData(text) != "":
		return "the text carries a person's contact or payment details"
	case credentialHint(text):
		return "the text may carry a credential (a long random value after a key, password or token, a token split by spaces, or an encoded token)"
	case internalHostRe().MatchString(text):
		return "the text names internal hosts or addresses"
	case massMentionRe().MatchString(text):
		return "the message notifies everyone in the channel or workspace (@channel, @here, @everyone)"
	case externalChannelRe().MatchString(channel):
		return "the channel is shared with people outside the company (" + channel + ")"
	}
	return ""
}

// credentialHint reports text that may hold a credential the secret scan
// does not name: a long random value after a word that says key, password,
// token or secret, a known token prefix followed by chunks split with
// spaces, a JWT-looking blob, or a user / password pair.
func credentialHint(text string) bool {
	if splitTokenRe().MatchString(text) || jwtBlobRe().MatchString(text) {
		return true
	}
	for _, m := range credentialValueRe().FindAllStringSubmatch(text, 16) {
		if v := m[len(m)-1]; randomLooking(v) {
			return true
		}
	}
	return false
}

// randomLooking reports a value that mixes letter cases and digits or
// symbols over at least 12 characters: not a word, a path or a name.
func randomLooking(v string) bool {
	if len(v) < 12 || strings.ContainsAny(v, "/\\") && !strings.ContainsAny(v, "+=") {
		return false
	}
	upper, lower, digit, other := 0, 0, 0, 0
	for _, r := range v {
		switch {
		case r >= 'A' && r <= 'Z':
			upper++
		case r >= 'a' && r <= 'z':
			lower++
		case r >= '0' && r <= '9':
			digit++
		default:
			other++
		}
	}
	return upper > 0 && lower > 0 && (digit > 0 || other > 0) && upper+digit+other >= 4
}

var (
	credentialValueRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(key|password|passwd|pwd|pass|secret|token|credentials?)\b[^:=\n]{0,20}[:=]\s*["'\x60]?([^\s"'\x60,;]{12,})|\b[\w.@-]{3,40}\s+/\s+([^\s/]{12,})`)
	})
	splitTokenRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(ghp|gho|ghs|github_pat|glpat|xox[abpr]|sk|AKIA|AIza|npm)[_-]?\s+([A-Za-z0-9]{3,8}\s+){3,}[A-Za-z0-9]{2,}`)
	})
	jwtBlobRe          = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{60,}`) })
	reviewerSteeringRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?is)\b(ignore|disregard|forget)\s+(all\s+|any\s+|your\s+)?(prior|previous|earlier|above|the)?\s*(instructions|guidance|rules|policy|policies|review instructions)\b` +
			`|\b(ai|automated|security|code)\s+(reviewers?|guards?|hooks?|classifiers?|assistants?|agents?)\b.{0,160}\b(approve|allow|pre-?approved|permission|label them|read|run|execute|include|send|delete|paste)\b` +
			`|<!--[^>]{0,300}\b(ai|assistant|agent|reviewer|guard|llm|copilot|claude|cursor)\b` +
			`|\bpermission\\?"?\s*:\s*\\?"?allow\b|\bpre-?approved\b|\bsystem\s*(override|note|prompt)\b|\bmaintenance mode\b`)
	})
	// personalHintRe is one person's data in a post: a private mail
	// address next to a phone number, a card's last digits, an IBAN, a birth date.
	personalHintRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(card\s+ending|last\s?4|card_last4|iban|date of birth|\bdob\b|social security|ssn|salar(y|ies)|payroll|compensation)\b|\b[A-Z]{2}\d{2}[ ]?\d{4}[ ]?\d{4}[ ]?\d{4}[ ]?\d{4}|\b(customers?|users?|clients?|patients?)\b.{0,80}\b(emails?|e-mails?|phones?|phone numbers|addresses|pii|csv)\b`)
	})
	internalHostRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b[\w-]+(\.[\w-]+)*\.(internal|corp|intranet|lan)\b|\b(10\.\d{1,3}|192\.168|172\.(1[6-9]|2\d|3[01]))\.\d{1,3}\.\d{1,3}\b`)
	})
	externalChannelRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(ext|partner|vendor|shared|guest|external|client|customer|public)`)
	})
)

// massMentionRe matches a mention that notifies a whole channel or
// workspace (Slack's <!channel>, <!here>, <!everyone>; @channel, @here,
// @everyone, @all in chat and trackers).
var massMentionRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)<!(?:channel|here|everyone)>|(?:^|[\s(])@(?:channel|here|everyone|all)\b`)
})
