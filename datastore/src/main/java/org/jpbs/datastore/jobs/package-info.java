/**
 * The job configuration files of PBS ({@code prune.cfg}, {@code verification.cfg},
 * {@code sync.cfg}, {@code remote.cfg}; section config like {@code datastore.cfg}) and the job
 * state files ({@code <config>/jobstates/<type>-<id>.json}, PBS's JSON shape). Pure file
 * policy: the scheduler that runs the jobs lives in the server ({@code docs/jobs.md}).
 */
package org.jpbs.datastore.jobs;
