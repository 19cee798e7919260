package containers

import "strings"

// Redacted replaces a secret wherever Command, Identity or a log would show
// it.
const Redacted = "<redacted>"

// Redact returns a copy of args with every occurrence of secret replaced by
// Redacted (also inside "--flag=secret"). An empty secret changes nothing.
func Redact(args []string, secret string) []string {
	if args == nil {
		return nil
	}
	out := make([]string, len(args))
	for i, a := range args {
		if secret != "" {
			a = strings.ReplaceAll(a, secret, Redacted)
		}
		out[i] = a
	}
	return out
}
