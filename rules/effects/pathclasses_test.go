package effects

import (
	"slices"
	"testing"
)

// TestPathClassExamples checks every example of paths.yaml: a match is in
// its class, a no_match is not.
func TestPathClassExamples(t *testing.T) {
	const home = "/home/dev"
	n := 0
	for _, pc := range pathTable() {
		for _, p := range pc.Examples.Match {
			n++
			if got := PathClassesOf(p, "/w/app", home); !slices.Contains(got, pc.Class) {
				t.Errorf("%s: %s has classes %v, want it in the class", pc.Class, p, got)
			}
		}
		for _, p := range pc.Examples.NoMatch {
			n++
			if got := PathClassesOf(p, "/w/app", home); slices.Contains(got, pc.Class) {
				t.Errorf("%s: %s is in the class, want it out", pc.Class, p)
			}
		}
	}
	if n < 50 {
		t.Errorf("only %d path examples", n)
	}
}

// TestPathNormalization checks the spellings an event can use for one path.
func TestPathNormalization(t *testing.T) {
	const home = "/Users/sam"
	for _, p := range []string{
		"~/.ssh/id_rsa", "$HOME/.ssh/id_rsa", "${HOME}/.ssh/id_rsa", "/Users/sam//.ssh/./id_rsa",
		"/Users/sam/project/../.ssh/id_rsa", "/Users/sam/.SSH/ID_RSA", "%2FUsers%2Fsam%2F.ssh%2Fid_rsa",
		"file:///Users/sam/.ssh/id_rsa", "file://localhost/Users/sam/.ssh/id_rsa", "~sam/.ssh/id_rsa",
		"..\\.ssh\\id_rsa",
	} {
		if got := PathClassesOf(p, "/Users/sam/project", home); !slices.Contains(got, ClassSecret) {
			t.Errorf("%s: classes %v, want secret", p, got)
		}
	}
	if got := PathClassesOf("/home/dev/.SSH/deploy", "/", "/home/dev"); slices.Contains(got, ClassSecret) {
		t.Errorf("a Linux path is case-sensitive: %v", got)
	}
}

// TestPathClassesCacheReturnsCopies: the remembered answer is not shared
// with callers, so one caller appending to or changing its slice cannot
// change what the next one is told.
func TestPathClassesCacheReturnsCopies(t *testing.T) {
	ResetPathClassCache()
	first := PathClassesOf("~/.aws/credentials", "/w/app", "/home/dev")
	if len(first) == 0 {
		t.Fatal("~/.aws/credentials has no classes")
	}
	want := append([]string(nil), first...)
	first[0] = "changed"
	_ = append(first[:1], "extra")
	second := PathClassesOf("~/.aws/credentials", "/w/app", "/home/dev")
	if len(second) != len(want) || second[0] != want[0] {
		t.Fatalf("second answer %v, want %v", second, want)
	}
}
