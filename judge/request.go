// Package judge asks a model about what the rules could not decide.
package judge

import (
	"github.com/hookguard/hookguard/internal/hook"
	"github.com/hookguard/hookguard/rules"
)

// Request is one escalated event with everything the judge may see.
type Request struct {
	Event   *hook.Event
	Outcome *rules.Outcome
	Policy  *rules.Policy
	// Intent is the user's recent request in the same conversation, when known.
	Intent string
}
