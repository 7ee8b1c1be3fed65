-- Saved games of every game kind ("npuzzle" now; more kinds share the table)
-- and the pictures people upload for the picture games.

CREATE TABLE games (
	kind       TEXT    NOT NULL,            -- the game: npuzzle, ...
	name       TEXT    NOT NULL,            -- the save slot, chosen by the player
	board      TEXT    NOT NULL,            -- the current position in the family's text format
	data       TEXT    NOT NULL,            -- the rest of the game as JSON, owned by the game
	moves      INTEGER NOT NULL DEFAULT 0,  -- moves played so far
	elapsed_ms INTEGER NOT NULL DEFAULT 0,  -- playing time so far
	solved     INTEGER NOT NULL DEFAULT 0,  -- 1 once the game is won
	created_at TEXT    NOT NULL,            -- RFC 3339, UTC
	updated_at TEXT    NOT NULL,
	PRIMARY KEY (kind, name)
) STRICT;

CREATE INDEX games_by_update ON games (kind, updated_at DESC);

CREATE TABLE pictures (
	id         TEXT    NOT NULL PRIMARY KEY, -- hex digest of data
	name       TEXT    NOT NULL,             -- a label for people (the uploaded file's base name)
	type       TEXT    NOT NULL,             -- media type of data: image/jpeg or image/png
	data       BLOB    NOT NULL,
	width      INTEGER NOT NULL,
	height     INTEGER NOT NULL,
	created_at TEXT    NOT NULL
) STRICT;

CREATE INDEX pictures_by_age ON pictures (created_at DESC);
