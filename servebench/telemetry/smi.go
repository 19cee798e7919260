package telemetry

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// SMIQueryFields are the fields asked of nvidia-smi --query-gpu, in the
// order of its CSV columns. nvidia-smi has no energy field: the energy is
// power.draw integrated over the readings' own timestamps.
var SMIQueryFields = []string{"timestamp", "index", "uuid", "name", "utilization.gpu", "memory.used", "power.draw", "clocks.sm", "temperature.gpu"}

// smiTimestampLayout is nvidia-smi's timestamp, in local time.
const smiTimestampLayout = "2006/01/02 15:04:05.000"

// smiStopGrace is how long nvidia-smi may take to exit once interrupted.
const smiStopGrace = 3 * time.Second

// smiProbeTimeout bounds the query that checks nvidia-smi works.
const smiProbeTimeout = 15 * time.Second

// NvidiaSMI reads the GPUs by running nvidia-smi in its loop mode (-lms).
type NvidiaSMI struct {
	path string
	gpus int
}

// OpenNvidiaSMI checks that nvidia-smi (path, or nvidia-smi on PATH when
// path is empty) runs and lists at least one GPU.
func OpenNvidiaSMI(ctx context.Context, path string) (*NvidiaSMI, error) {
	if path == "" {
		path = "nvidia-smi"
	}
	resolved, err := exec.LookPath(path)
	if err != nil {
		return nil, fmt.Errorf("nvidia-smi: %s not found on PATH", path)
	}
	ctx, cancel := context.WithTimeout(ctx, smiProbeTimeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, resolved, "--query-gpu=index", "--format=csv,noheader,nounits").CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("nvidia-smi: %s --query-gpu=index failed: %v: %s", resolved, err, tail(out, 300))
	}
	n := 0
	for _, line := range strings.Split(string(out), "\n") {
		if strings.TrimSpace(line) != "" {
			n++
		}
	}
	if n == 0 {
		return nil, fmt.Errorf("nvidia-smi: %s lists no GPU", resolved)
	}
	return &NvidiaSMI{path: resolved, gpus: n}, nil
}

// Name is "nvidia-smi".
func (s *NvidiaSMI) Name() string { return "nvidia-smi" }

// GPUs is the number of GPUs nvidia-smi listed when it was opened.
func (s *NvidiaSMI) GPUs() int { return s.gpus }

// Close does nothing: each stream runs and ends its own process.
func (s *NvidiaSMI) Close() error { return nil }

// Stream runs nvidia-smi --query-gpu=... -lms interval and passes each
// line on as a reading, timed by nvidia-smi's own timestamp, until ctx is
// done (the process is then killed).
func (s *NvidiaSMI) Stream(ctx context.Context, interval time.Duration, emit func(Reading), warn func(error)) error {
	ms := max(1, interval.Milliseconds())
	cmd := exec.CommandContext(ctx, s.path, "--query-gpu="+strings.Join(SMIQueryFields, ","),
		"--format=csv,noheader,nounits", "-lms", strconv.FormatInt(ms, 10))
	// Interrupt rather than kill, as Ctrl-C would: nvidia-smi then exits on
	// its own and writes out what it still buffers; it is killed only if it
	// has not exited within smiStopGrace.
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = smiStopGrace
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return fmt.Errorf("nvidia-smi: %w", err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &limitedWriter{buf: &stderr, limit: 4096}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("nvidia-smi: %w", err)
	}
	r := csv.NewReader(stdout)
	r.TrimLeadingSpace = true
	r.FieldsPerRecord = len(SMIQueryFields)
	r.ReuseRecord = true
	line := 0
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		line++
		if err != nil {
			warn(fmt.Errorf("nvidia-smi output line %d: %w", line, err))
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				continue
			}
			break
		}
		reading, err := parseSMIRecord(rec, time.Now())
		if err != nil {
			warn(fmt.Errorf("nvidia-smi output line %d: %w", line, err))
			continue
		}
		emit(reading)
	}
	err = cmd.Wait()
	if ctx.Err() != nil {
		return nil
	}
	if err != nil {
		return fmt.Errorf("nvidia-smi exited early: %v: %s", err, tail(stderr.Bytes(), 300))
	}
	return fmt.Errorf("nvidia-smi exited early: %s", tail(stderr.Bytes(), 300))
}

// parseSMIRecord turns one CSV record (in SMIQueryFields' order) into a
// reading. A value nvidia-smi cannot give ("[N/A]", "[Not Supported]") is
// nil; a timestamp it cannot parse is replaced by arrived.
func parseSMIRecord(rec []string, arrived time.Time) (Reading, error) {
	if len(rec) != len(SMIQueryFields) {
		return Reading{}, fmt.Errorf("want %d fields (%s), got %d", len(SMIQueryFields), strings.Join(SMIQueryFields, ","), len(rec))
	}
	r := Reading{At: arrived, UUID: strings.TrimSpace(rec[2]), Name: strings.TrimSpace(rec[3])}
	if at, err := time.ParseInLocation(smiTimestampLayout, strings.TrimSpace(rec[0]), time.Local); err == nil {
		r.At = at
	}
	idx, err := strconv.Atoi(strings.TrimSpace(rec[1]))
	if err != nil {
		return Reading{}, fmt.Errorf("index: %q is not a GPU index", rec[1])
	}
	r.GPU = idx
	dst := []**float64{&r.UtilizationPercent, &r.MemoryUsedMiB, &r.PowerW, &r.SMClockMHz, &r.TemperatureC}
	for i, d := range dst {
		field := SMIQueryFields[4+i]
		v, ok, err := smiNumber(rec[4+i])
		if err != nil {
			return Reading{}, fmt.Errorf("%s: %w", field, err)
		}
		if ok {
			*d = ptr(v)
		}
	}
	return r, nil
}

// smiNumber parses one value; ok is false for a value nvidia-smi marks as
// unavailable.
func smiNumber(s string) (v float64, ok bool, err error) {
	s = strings.TrimSpace(s)
	if s == "" || strings.HasPrefix(s, "[") || strings.EqualFold(s, "N/A") {
		return 0, false, nil
	}
	v, err = strconv.ParseFloat(s, 64)
	if err != nil || !finite(v) {
		return 0, false, fmt.Errorf("%q is not a number", s)
	}
	return v, true, nil
}

// tail is the end of b, at most n bytes, trimmed.
func tail(b []byte, n int) string {
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return strings.TrimSpace(string(b))
}

// limitedWriter keeps at most limit bytes and discards the rest.
type limitedWriter struct {
	buf   *bytes.Buffer
	limit int
}

func (w *limitedWriter) Write(p []byte) (int, error) {
	if room := w.limit - w.buf.Len(); room > 0 {
		w.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}
