// Package gpu holds the GPU-labelled example contracts (contracts/): an SLO
// contract and a sweep on Ollama with its CUDA backend. scripts/gpu-check.sh
// runs them on a GPU host; elsewhere their specs skip (or fail with
// SERVEBENCH_REQUIRE_GPU=1). It holds tests only.
package gpu
