package servebench

import "github.com/servebench/servebench/servebench/record"

// setMessageText sets a chat message's text: the one place the run writes
// a message's content.
func setMessageText(m *record.Message, text string) {
	m.Content = text
}
