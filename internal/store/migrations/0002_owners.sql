-- Owners (issue 38): every saved game, uploaded picture and web job belongs
-- to the client that made it (the web app's client identity, a random
-- 128-bit id kept in a cookie). Rows saved before owners existed get the
-- owner '' (no client has it: they stay in the file, shown to no one).

CREATE TABLE games_owned (
	owner      TEXT    NOT NULL,            -- the client identity that saved it
	kind       TEXT    NOT NULL,
	name       TEXT    NOT NULL,
	board      TEXT    NOT NULL,
	data       TEXT    NOT NULL,
	moves      INTEGER NOT NULL DEFAULT 0,
	elapsed_ms INTEGER NOT NULL DEFAULT 0,
	solved     INTEGER NOT NULL DEFAULT 0,
	created_at TEXT    NOT NULL,
	updated_at TEXT    NOT NULL,
	bytes      INTEGER NOT NULL DEFAULT 0,  -- bytes of board and data, for the quotas
	PRIMARY KEY (owner, kind, name)
) STRICT;

INSERT INTO games_owned (owner, kind, name, board, data, moves, elapsed_ms, solved, created_at, updated_at, bytes)
	SELECT '', kind, name, board, data, moves, elapsed_ms, solved, created_at, updated_at,
		length(CAST(board AS BLOB)) + length(CAST(data AS BLOB)) FROM games;
DROP TABLE games;
ALTER TABLE games_owned RENAME TO games;
CREATE INDEX games_by_update ON games (owner, kind, updated_at DESC);

CREATE TABLE pictures_owned (
	owner      TEXT    NOT NULL,             -- the client identity that uploaded it
	id         TEXT    NOT NULL,             -- hex digest of data
	name       TEXT    NOT NULL,
	type       TEXT    NOT NULL,
	data       BLOB    NOT NULL,
	width      INTEGER NOT NULL,
	height     INTEGER NOT NULL,
	created_at TEXT    NOT NULL,
	PRIMARY KEY (owner, id)
) STRICT;

INSERT INTO pictures_owned (owner, id, name, type, data, width, height, created_at)
	SELECT '', id, name, type, data, width, height, created_at FROM pictures;
DROP TABLE pictures;
ALTER TABLE pictures_owned RENAME TO pictures;
CREATE INDEX pictures_by_age ON pictures (owner, created_at DESC);
CREATE INDEX pictures_by_id ON pictures (id);

-- The web app's jobs: who submitted each (its identity and address), so
-- that only its owner reads or cancels it and the per-client bound on
-- running jobs is counted again after a restart.
CREATE TABLE jobs (
	id         TEXT    NOT NULL PRIMARY KEY,
	owner      TEXT    NOT NULL,
	address    TEXT    NOT NULL,
	kind       TEXT    NOT NULL,
	created_at TEXT    NOT NULL,
	finished   INTEGER NOT NULL DEFAULT 0    -- 1 once the server saw it end
) STRICT;

CREATE INDEX jobs_open ON jobs (finished);
CREATE INDEX jobs_by_age ON jobs (created_at);
