package hook

import (
	"bytes"
	"encoding/json"
	"strings"
)

// CanonicalJSON re-encodes a JSON value (numbers kept as written, no HTML
// escaping) with sorted keys and no insignificant
// whitespace; text that is not JSON is returned as it is.
func CanonicalJSON(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	v, ok := DecodeJSON(raw)
	if !ok {
		return string(raw)
	}
	if s, ok := CanonicalValue(v); ok {
		return s
	}
	return string(raw)
}

// DecodeJSON decodes a JSON value with its numbers kept as written
// (json.Number), as CanonicalJSON reads it.
func DecodeJSON(raw json.RawMessage) (any, bool) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, false
	}
	return v, true
}

// CanonicalValue is CanonicalJSON for a value DecodeJSON returned.
func CanonicalValue(v any) (string, bool) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", false
	}
	return strings.TrimSuffix(b.String(), "\n"), true
}
