package doctor

import "regexp"

// matcherMatches reports whether a Claude Code matcher selects a tool name:
// the matcher is a regular expression that must match the whole name.
func matcherMatches(matcher, tool string) bool {
	re, err := regexp.Compile("^(?:" + matcher + ")$")
	if err != nil {
		return matcher == tool
	}
	return re.MatchString(tool)
}
