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
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return string(raw)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return string(raw)
	}
	return strings.TrimSuffix(b.String(), "\n")
}
