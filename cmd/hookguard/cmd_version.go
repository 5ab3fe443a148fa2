package main

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// version is set at build time with -ldflags "-X main.version=…"; otherwise the
// module version from the build info is used.
var version = ""

func init() {
	register(command{name: "version", summary: "print the version (--json: with the revision and the Go version)", run: runVersion})
}

// versionInfo is what `hookguard version --json` prints.
type versionInfo struct {
	Version  string `json:"version"`
	Revision string `json:"revision,omitempty"`
	Time     string `json:"time,omitempty"`
	Modified bool   `json:"modified,omitempty"`
	Go       string `json:"go"`
	Platform string `json:"platform"`
}

func runVersion(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("version", "version [--json]", stderr)
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	v := buildVersion()
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(v)
	}
	line := "hookguard " + v.Version
	if v.Revision != "" {
		rev := v.Revision
		if len(rev) > 12 {
			rev = rev[:12]
		}
		line += " (" + rev
		if v.Modified {
			line += ", modified"
		}
		line += ")"
	}
	fmt.Fprintln(stdout, line, v.Go, v.Platform)
	return nil
}

func versionString() string { return buildVersion().Version }

// buildVersion reads the version and the VCS revision the Go toolchain
// stamped into the binary.
func buildVersion() versionInfo {
	v := versionInfo{Version: "(devel)", Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	bi, ok := debug.ReadBuildInfo()
	if ok && bi.Main.Version != "" {
		v.Version = bi.Main.Version
	}
	if version != "" {
		v.Version = version
	}
	if ok {
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				v.Revision = s.Value
			case "vcs.time":
				v.Time = s.Value
			case "vcs.modified":
				v.Modified = s.Value == "true"
			}
		}
	}
	return v
}
