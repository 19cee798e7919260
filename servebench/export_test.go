package servebench

// Internals the external tests use.
// Millis converts a duration to the records' milliseconds.
var Millis = millis
