package judge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode"

	"github.com/hookguard/hookguard/internal/hook"
)

// Verdict is the model's answer once validated.
type Verdict struct {
	Decision hook.Decision `json:"decision"`
	Risk     string        `json:"risk"`
	Reason   string        `json:"reason"`
}

// BadAnswerError is a model answer that is not a usable verdict. It is a judge
// failure: it feeds the breaker and turns into the fallback, never an allow.
type BadAnswerError struct{ What string }

func (e *BadAnswerError) Error() string { return "bad answer from the model: " + e.What }

func badAnswer(format string, args ...any) error {
	return &BadAnswerError{What: fmt.Sprintf(format, args...)}
}

// maxReason caps the reason shown to the user and the agent, in runes.
const maxReason = 240

var risks = map[string]bool{"low": true, "medium": true, "high": true, "critical": true}

// ParseVerdict validates a model answer: the first JSON object in content must
// carry a known decision, a known risk and a non-empty reason. finish is the
// choice's finish_reason; "length" means the answer was cut off.
func ParseVerdict(content, finish string) (Verdict, error) {
	if finish == "length" {
		return Verdict{}, badAnswer("the answer was cut off (finish_reason length)")
	}
	obj, err := firstObject(content)
	if err != nil {
		return Verdict{}, err
	}
	str := func(k string) (string, error) {
		raw, ok := obj[k]
		if !ok {
			return "", badAnswer("no %q field", k)
		}
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", badAnswer("%q is not a string", k)
		}
		return s, nil
	}
	dec, err := str("decision")
	if err != nil {
		return Verdict{}, err
	}
	d, perr := hook.ParseDecision(strings.ToLower(strings.TrimSpace(dec)), false)
	if perr != nil {
		return Verdict{}, badAnswer("unknown decision %q", Sanitize(dec, 20))
	}
	risk, err := str("risk")
	if err != nil {
		return Verdict{}, err
	}
	risk = strings.ToLower(strings.TrimSpace(risk))
	if !risks[risk] {
		return Verdict{}, badAnswer("unknown risk %q", Sanitize(risk, 20))
	}
	reason, err := str("reason")
	if err != nil {
		return Verdict{}, err
	}
	reason = Sanitize(reason, maxReason)
	if reason == "" {
		return Verdict{}, badAnswer("empty reason")
	}
	v := Verdict{Decision: d, Risk: risk, Reason: reason}
	// An allow graded high or critical contradicts itself: take the stricter reading.
	if v.Decision == hook.Allow && (risk == "high" || risk == "critical") {
		v.Decision = hook.Ask
	}
	return v, nil
}

func firstObject(content string) (map[string]json.RawMessage, error) {
	s := strings.TrimSpace(content)
	if s == "" {
		return nil, badAnswer("empty answer")
	}
	for off := 0; off < len(s); {
		i := strings.IndexByte(s[off:], '{')
		if i < 0 {
			break
		}
		off += i
		var obj map[string]json.RawMessage
		dec := json.NewDecoder(bytes.NewReader([]byte(s[off:])))
		if err := dec.Decode(&obj); err == nil {
			if _, ok := obj["decision"]; ok {
				return obj, nil
			}
			off += int(dec.InputOffset())
			continue
		}
		off++
	}
	return nil, badAnswer("no JSON verdict in the answer")
}

var (
	// Compiled on first use: package init runs in every hook process.
	ansi = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)?`)
	})
	fenceLike = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`</?data-[0-9a-f]*[^>]*>`) })
)

// Sanitize makes model text safe to show: escape sequences, control and
// invisible format characters (bidi overrides, zero-width) removed, markup
// that imitates hookguard's data fences removed, whitespace folded to single
// spaces, and the result cut to max runes.
func Sanitize(s string, max int) string {
	s = ansi().ReplaceAllString(s, "")
	s = fenceLike().ReplaceAllString(s, "")
	s = strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\t' || r == '\r':
			return ' '
		case unicode.IsControl(r), unicode.Is(unicode.Cf, r), r == unicode.ReplacementChar:
			return -1
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > max {
		s = strings.TrimSpace(string(r[:max-1])) + "…"
	}
	return s
}

// isBadAnswer reports whether err is a malformed model answer.
func isBadAnswer(err error) bool {
	var b *BadAnswerError
	return errors.As(err, &b)
}
