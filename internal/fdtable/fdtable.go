// Package fdtable grows the process's file descriptor table before a run
// needs it, so that the growth does not stall the run.
//
// Linux keeps a process's open descriptors in one table and doubles it
// when a new descriptor does not fit. In a process with several threads
// (every Go program) each growth first waits for an RCU grace period:
// 8 to 24 ms apiece on a 2-core virtual machine (docs/performance.md). The thread that opens the
// descriptor waits with it, and since a socket is created by a raw system
// call it keeps its Go processor meanwhile: with one processor nothing
// else runs, the dispatcher included. A run that opens 4,000 connections
// grows the table four or five times inside its window, and every request
// due during a growth is sent that much late. Grown once before the window,
// the table stays grown: the kernel never shrinks it.
package fdtable

// DefaultReserve is the descriptor count a run reserves: room for about
// 60,000 connections, far above what one client core sustains. The table
// holds a pointer a descriptor, so it costs 0.5 MB of kernel memory.
const DefaultReserve = 1 << 16
