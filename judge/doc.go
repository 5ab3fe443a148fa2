// Package judge asks a model about what the rules could not decide: it renders
// the prompt from a prepared judge.Input, calls any OpenAI-compatible endpoint
// for a structured verdict, and keeps a cache, a circuit breaker and a
// fallback (deny unless configured otherwise) for every failure. It knows
// nothing of the policy engine: the pipeline builds its Input and Settings.
package judge
