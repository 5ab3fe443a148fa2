// Package peercred reads the user id of the process at the other end of a
// unix socket. The judge server checks every client with it, and every
// client checks the server, so that neither talks to another user's process.
package peercred
