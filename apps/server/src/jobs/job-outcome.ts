// Below the job registry (app/job-registry.ts) so that the services whose functions are job handlers can
// name what they return without importing the registry, which knows every feature.

/** What a handler reports; a thrown error means "failed" and pg-boss retries per the queue's policy. */
export type JobOutcome = { status: 'success' | 'skipped'; detail?: Record<string, unknown> };
