-- Ingest recovery deletes a stream's rows with lightweight DELETE; touches has a projection (002), which such
-- deletes refuse unless the table rebuilds its projections.
ALTER TABLE {db}.touches MODIFY SETTING lightweight_mutation_projection_mode = 'rebuild'
