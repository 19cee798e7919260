// Package suites turns SLO contracts, YAML files that declare an engine, a
// load and the objectives a run must meet, into Ginkgo specs, so that a
// missed objective fails `go test` and the report says which objective
// failed at which load.
//
// A suite loads its contracts before RunSpecs and registers them inside a
// top-level container:
//
//	func TestContracts(t *testing.T) {
//		RegisterFailHandler(Fail)
//		contracts, err := suites.LoadDir("contracts")
//		if err != nil {
//			t.Fatal(err) // every problem, each with its file, line and field
//		}
//		suites.SharedEngine(contracts...) // one engine for all parallel processes
//		Describe("SLO contracts", func() { suites.Register(contracts...) })
//		RunSpecs(t, "SLO contracts")
//	}
//
// Each contract becomes an Ordered, ContinueOnFailure, Serial container,
// labelled engine:<kind> (and gpu, sweep, and the contract's own labels).
// Each load point (one offered rate, or the contract's closed loop or
// replay) is a container whose BeforeAll runs the load with the servebench
// runner and whose specs are one It per objective, each located at the
// contract line that declared it. Every run's report is attached as a
// RunEntry report entry, and its run directory (schedule, outcomes, report
// and a copy of the contract) is kept under $SERVEBENCH_ARTIFACTS, the
// contract's artifacts directory, or the system's temporary directory.
//
// Engines are started by kind through EngineStarter functions: simengine
// in-process, vllm, sglang, tgi and llamacpp through their testcontainers
// modules; RegisterEngine adds or replaces one. A contract with a base_url
// needs no engine. Workloads come from a JSONL file or a registered
// generator (RegisterGenerator; fixed and mixed are built in).
//
// Check runs one contract without Ginkgo, as its specs would, and returns
// a Verdict per spec (`servebench check` is built on it); the specs that
// Register builds take the same steps and judgments.
//
// README.md in this directory documents the YAML schema with a complete
// example.
package suites
