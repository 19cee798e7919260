// Package media prepares the images a run sends, before the run: a seeded
// pool of synthetic images of declared sizes, format and content, encoded
// in parallel and held in memory or spooled to disk, attached to a
// workload's chat rows as image_url content parts (data: URLs, or http
// URLs of a loopback file server it starts). Importing images from files
// is fixtures/traces.ImportImages (servebench workload import images).
//
// Entry points:
//
//	ParseImageSizes (ImageSize)   a seeded bucket map of sizes, "256x256=0.5,720x1280=0.5"
//	PoolSpec, BuildPool (Pool)    the synthetic pool: generated in parallel, nothing encoded on the timed path
//	Pool.Attach                   a workload whose chat rows carry the pool's images, drawn by seeded index
//	Pool.Serve (ImageServer)      the file server for the http transport
//
// The package depends on record and schedule only.
package media
