// Package judgectx gathers what a careful reviewer would look at before
// judging an escalated event: the user's recent requests from the agent's
// transcript, the text of the scripts, package.json scripts and recipes a
// command runs, and facts about the workspace (branch, remote). Everything it
// returns is untrusted text: the caller redacts it and fences it as data.
package judgectx

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"regexp"
	"strings"
	"sync"
)

// TranscriptTail is how much of the end of a transcript is read.
const TranscriptTail = 64 << 10

// MaxRequests is how many of the user's latest requests Intent returns.
const MaxRequests = 3

// Intent returns the user's most recent requests in the transcript at path,
// oldest first, separated by blank lines: Cursor's and Claude Code's JSON
// Lines transcripts and Cursor's text transcripts. Only the last
// TranscriptTail bytes are read; a missing or unreadable transcript gives "".
func Intent(path string) string {
	if path == "" {
		return ""
	}
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return ""
	}
	start := max(0, fi.Size()-TranscriptTail)
	if _, err := f.Seek(start, io.SeekStart); err != nil {
		return ""
	}
	data, err := io.ReadAll(io.LimitReader(f, TranscriptTail))
	if err != nil {
		return ""
	}
	if start > 0 {
		// The first line is cut: drop it.
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			data = data[i+1:]
		}
	}
	var reqs []string
	if looksJSONL(data) {
		reqs = jsonlRequests(data)
	} else {
		reqs = textRequests(string(data))
	}
	if len(reqs) > MaxRequests {
		reqs = reqs[len(reqs)-MaxRequests:]
	}
	return strings.Join(reqs, "\n\n")
}

func looksJSONL(data []byte) bool {
	t := bytes.TrimSpace(data)
	return len(t) > 0 && t[0] == '{'
}

// jsonlRequests reads user messages from JSON Lines: {"type":"user",
// "message":{"role":"user","content":…}} (Claude Code) or {"role":"user",
// "message":{"content":[{"type":"text","text":…}]}} and plain
// {"role":"user","content":…} (Cursor). Tool results, which Claude Code
// records as user messages, are not requests.
func jsonlRequests(data []byte) []string {
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), TranscriptTail)
	for sc.Scan() {
		var line struct {
			Type    string          `json:"type"`
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
			Message struct {
				Role    string          `json:"role"`
				Content json.RawMessage `json:"content"`
			} `json:"message"`
		}
		if json.Unmarshal(sc.Bytes(), &line) != nil {
			continue
		}
		if line.Type != "user" && line.Role != "user" && line.Message.Role != "user" {
			continue
		}
		content := line.Message.Content
		if len(content) == 0 {
			content = line.Content
		}
		if t := strings.TrimSpace(contentText(content)); t != "" {
			out = append(out, stripQueryTags(t))
		}
	}
	return out
}

// contentText is the text of a message content: a string, or the text
// blocks of a list (tool results and images left out).
func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &blocks) != nil {
		return ""
	}
	var parts []string
	for _, b := range blocks {
		if b.Type == "text" && b.Text != "" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// Compiled on first use: the hook process links this package for every event.
var (
	roleLine = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?im)^\s*(user|human|assistant|ai|tool|system)\s*:\s*`)
	})
	queryTags = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?s)</?user_query>`) })
)

// textRequests reads a text transcript: blocks that start with a role line
// ("user:", "assistant:"), the user's text possibly inside <user_query> tags.
func textRequests(s string) []string {
	locs := roleLine().FindAllStringSubmatchIndex(s, -1)
	var out []string
	for i, m := range locs {
		role := strings.ToLower(s[m[2]:m[3]])
		if role != "user" && role != "human" {
			continue
		}
		end := len(s)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		if t := strings.TrimSpace(stripQueryTags(s[m[1]:end])); t != "" {
			out = append(out, t)
		}
	}
	return out
}

func stripQueryTags(s string) string { return strings.TrimSpace(queryTags().ReplaceAllString(s, "")) }
