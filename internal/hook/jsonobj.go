package hook

import "encoding/json"

// splitObject splits a JSON object into its members as json.Unmarshal into
// map[string]json.RawMessage would (the last of duplicate keys wins), but
// each value is a slice of data, not a copy: a read event's content is most
// of the event, and every copy of 8 MiB is page faults and collector work in
// a process that lives for one event. ok is false when data is not valid
// JSON or not an object; the caller then asks json.Unmarshal for the error.
// Strings (most of an event) are checked by a tight loop of their own, the
// other values by json.Valid: encoding/json's checker reads about 300 MB/s,
// a tenth of an 8 MiB event's time.
func splitObject(data []byte) (map[string]json.RawMessage, bool) {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return nil, false
	}
	out := map[string]json.RawMessage{}
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return out, skipSpace(data, i+1) == len(data)
	}
	for i < len(data) {
		if data[i] != '"' {
			return nil, false
		}
		end, ok := scanString(data, i) // the key
		if !ok {
			return nil, false
		}
		key, ok := decodeString(data[i:end])
		if !ok {
			return nil, false
		}
		i = skipSpace(data, end)
		if i >= len(data) || data[i] != ':' {
			return nil, false
		}
		i = skipSpace(data, i+1)
		if i >= len(data) {
			return nil, false
		}
		if data[i] == '"' {
			end, ok = scanString(data, i)
		} else {
			end = skipValue(data, i)
			ok = end > i && json.Valid(data[i:end])
		}
		if !ok {
			return nil, false
		}
		out[key] = data[i:end:end]
		i = skipSpace(data, end)
		if i >= len(data) {
			return nil, false
		}
		switch data[i] {
		case ',':
			i = skipSpace(data, i+1)
		case '}':
			if skipSpace(data, i+1) != len(data) {
				return nil, false // trailing data
			}
			return out, true
		default:
			return nil, false
		}
	}
	return nil, false
}

// scanString returns the end of the JSON string that starts at data[i] and
// whether it is a valid one (no control characters, known escapes). Bytes
// of invalid UTF-8 are valid JSON to encoding/json (they decode to U+FFFD).
func scanString(data []byte, i int) (int, bool) {
	for i++; i < len(data); i++ {
		switch c := data[i]; {
		case c == '"':
			return i + 1, true
		case c < ' ':
			return i, false
		case c == '\\':
			if i+1 >= len(data) {
				return i, false
			}
			switch data[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i++
			case 'u':
				if i+5 >= len(data) {
					return i, false
				}
				for _, h := range data[i+2 : i+6] {
					if !('0' <= h && h <= '9' || 'a' <= h && h <= 'f' || 'A' <= h && h <= 'F') {
						return i, false
					}
				}
				i += 5
			default:
				return i, false
			}
		}
	}
	return i, false
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// skipValue returns the end of the JSON value that starts at data[i] (for
// an object or array, where its brackets close), to be checked by json.Valid.
func skipValue(data []byte, i int) int {
	if i >= len(data) {
		return i
	}
	switch data[i] {
	case '"':
		return skipString(data, i)
	case '{', '[':
		depth := 0
		for i < len(data) {
			switch data[i] {
			case '"':
				i = skipString(data, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return i
	default: // a number, true, false or null
		for i < len(data) {
			switch data[i] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				return i
			}
			i++
		}
		return i
	}
}

// skipString returns the end of the JSON string that starts at data[i].
func skipString(data []byte, i int) int {
	for i++; i < len(data); i++ {
		switch data[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return i
}
