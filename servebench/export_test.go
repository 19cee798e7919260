package servebench

// Internals the external tests use.
var (
	// Millis converts a duration to the records' milliseconds.
	Millis = millis
	// NewTransport is the tuned transport a Client uses by default.
	NewTransport = newTransport
)
