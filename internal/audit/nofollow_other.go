//go:build !unix

package audit

// syscallNoFollow is not available on this platform.
const syscallNoFollow = 0
