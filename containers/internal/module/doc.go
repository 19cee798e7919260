// Package module is the plumbing the engine modules (containers/vllm,
// containers/sglang, containers/tgi, containers/llamacpp,
// containers/simengine, containers/ollama, containers/dockermodelrunner)
// share: an engine's launch description (Spec), its container request
// (Assemble, Plan), starting it (RunModule, StartWith) into a Base, the
// same engine as a local process (ProcessPlan, RunModuleProcess,
// StartProcess) and the typed flag sets behind each module's options
// (FlagSet).
//
// Users meet none of it by name: they call a module's Run or RunProcess
// with the shared options of package containers and hold the result as a
// containers.Engine (or the module's own Container).
package module
