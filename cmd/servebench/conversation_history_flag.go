package main

import (
	"flag"
	"fmt"

	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/schedule"
)

// conversationHistoryFlag holds --history: what the later turns of a
// conversation carry.
type conversationHistoryFlag struct {
	mode string
}

func (f *conversationHistoryFlag) register(fs *flag.FlagSet) {
	fs.StringVar(&f.mode, "history", string(schedule.TurnHistoryEngine),
		"what a conversation's later turns carry as the earlier answers: engine (the engine's own answers in this run) or workload (the file's assistant messages as written)")
}

// apply sets the run's history mode.
func (f *conversationHistoryFlag) apply(s *servebench.Settings) error {
	h, err := schedule.ParseTurnHistory(f.mode)
	if err != nil {
		return fmt.Errorf("--history: %w", err)
	}
	s.TurnHistory = h
	return nil
}
