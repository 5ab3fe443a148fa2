package effects

import "testing"

// BenchmarkBuildGit is what a hook process pays on its first git command:
// building git's entry (the largest) from the generated table.
func BenchmarkBuildGit(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_ = generatedProgram("git")
	}
}

// BenchmarkBuildLs is the same for a small entry.
func BenchmarkBuildLs(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_ = generatedProgram("ls")
	}
}
