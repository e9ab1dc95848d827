package pipeline

import (
	"fmt"
	"strings"
	"sync"
	"time"
)

// Timings measures how long each stage of one table's generation takes
// (gen --timings): the generator's stages as its progress reports them,
// then writing, checksumming and summarising. It is safe for concurrent
// use: progress comes from the workers.
type Timings struct {
	mu      sync.Mutex
	done    []stageTime
	current string // "" before the first stage
	since   time.Time
}

type stageTime struct {
	name string
	took time.Duration
}

// enter ends the current stage and starts stage name; entering the
// current stage again changes nothing.
func (c *Timings) enter(name string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if name == c.current {
		return
	}
	c.stop()
	c.current, c.since = name, time.Now()
}

// stop ends the current stage (c.mu held).
func (c *Timings) stop() {
	if c.current != "" {
		c.done = append(c.done, stageTime{c.current, time.Since(c.since)})
		c.current = ""
	}
}

// String ends the current stage and lists every stage with its time,
// e.g. "seed 40.1s, iterate 88.4s, write 5.0s".
func (c *Timings) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stop()
	parts := make([]string, len(c.done))
	for n, s := range c.done {
		parts[n] = fmt.Sprintf("%s %.1fs", s.name, s.took.Seconds())
	}
	return strings.Join(parts, ", ")
}
