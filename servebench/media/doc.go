// Package media prepares the images a run sends, before the run: a seeded
// pool of synthetic images of declared sizes, format and content, encoded
// in parallel and held in memory or spooled to disk, attached to each
// scheduled request of a workload as image_url content parts (data: URLs, or http
// URLs of a loopback file server it starts). Importing images from files
// is fixtures/traces.ImportImages (servebench workload import images).
//
// Entry points:
//
//	ParseImageSizes (ImageSize)   a seeded bucket map of sizes, "256x256=0.5,720x1280=0.5"
//	PoolSpec, BuildPool (Pool)    the synthetic pool: generated in parallel, nothing encoded on the timed path
//	Pool.Attach                   a workload whose every scheduled request carries its own draw of the pool's images
//	DrawImages                    the draw: pool indices from the seed and the request's entry ID
//	Pool.Serve (ImageServer)      the file server for the http transport
//
// The package depends on record and schedule only.
package media
