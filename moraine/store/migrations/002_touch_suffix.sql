-- file_attention suffix lookups: a touch whose worktree root is unknown keeps its absolute path as its tail; a query
-- tail T matches it when the path ends with "/T". rpath = reverse(path) turns that suffix test into a key-range read
-- through the by_rpath projection (the insert side is unchanged: rpath is materialized).
ALTER TABLE {db}.touches ADD COLUMN IF NOT EXISTS rpath String MATERIALIZED reverse(path)
;
ALTER TABLE {db}.touches ADD PROJECTION IF NOT EXISTS by_rpath (SELECT * ORDER BY rpath)
;
ALTER TABLE {db}.touches MATERIALIZE PROJECTION by_rpath
