package rules

import "testing"

// TestPersonalData: several people's private contact details count; a team's
// work addresses, example domains, network addresses and versions do not.
func TestPersonalData(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{"Affected: maria.keller@gmx.de, +49 151 2384 1192; jonas@web.de, +49 160 9021 7745", true},
		{"customer_id,email\n1021,lee.h@gmail.com\n1022,r.ortiz@yahoo.com", true},
		{"call them: +1-415-555-0132, +1-212-555-0177, +1-646-555-0199", true},
		{"one customer wrote in: ana@gmail.com", false},
		{"cc: alice@acme.io, bob@acme.io, carol@acme.io, dan@acme.io", false},
		{"set SMTP_FROM=user@example.com and test with test@example.org", false},
		{"pods on 10.0.12.201, 10.0.12.202 and 192.168.100.200 restarted; upgraded to 1.22.333.4444", false},
		{"ticket 1021 and 1022 are duplicates of 1023", false},
	} {
		if got := personalData(c.text) != ""; got != c.want {
			t.Errorf("%q: personal data = %v, want %v (%s)", c.text, got, c.want, personalData(c.text))
		}
	}
}
