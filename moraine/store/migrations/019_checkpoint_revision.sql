-- The revision of its harness's adapter (Harness.revision) a stream's rows were read under: a stream below its
-- harness's revision is read again from the start (moraine.ingest.pipeline). Rows written before this column read
-- as 1, the revision every adapter had until one was bumped: a store re-reads exactly the bumped harnesses' files.
ALTER TABLE {db}.checkpoints ADD COLUMN IF NOT EXISTS revision UInt32 DEFAULT 1
