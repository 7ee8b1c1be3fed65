package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// JobRef records who submitted a web job: its owner (the client identity)
// and address, so that only the owner reads or cancels it and the bound on
// a client's running jobs can be counted again after a restart.
type JobRef struct {
	ID, Owner, Address, Kind string
	Created                  time.Time
	Finished                 bool // the server saw the job end
}

// jobKeep is how long a job's record is kept after it was submitted.
const jobKeep = 30 * 24 * time.Hour

// AddJob records a job; records older than 30 days go (the job system
// forgets a job's result sooner, a week after it finished by default).
func (s *Store) AddJob(ctx context.Context, j JobRef) error {
	now := time.Now().UTC()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: recording job: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "DELETE FROM jobs WHERE created_at < ?", formatTime(now.Add(-jobKeep))); err != nil {
		return fmt.Errorf("store: forgetting old jobs: %w", err)
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO jobs (id, owner, address, kind, created_at, finished) VALUES (?, ?, ?, ?, ?, ?)",
		j.ID, j.Owner, j.Address, j.Kind, formatTime(now), j.Finished); err != nil {
		return fmt.Errorf("store: recording job: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: recording job: %w", err)
	}
	return nil
}

const jobColumns = "id, owner, address, kind, created_at, finished"

func scanJob(row scanner) (JobRef, error) {
	var j JobRef
	var created string
	if err := row.Scan(&j.ID, &j.Owner, &j.Address, &j.Kind, &created, &j.Finished); err != nil {
		return JobRef{}, err
	}
	var err error
	j.Created, err = parseTime(created)
	return j, err
}

// Job returns the record of job id, or ErrNotFound.
func (s *Store) Job(ctx context.Context, id string) (JobRef, error) {
	j, err := scanJob(s.db.QueryRowContext(ctx, "SELECT "+jobColumns+" FROM jobs WHERE id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return JobRef{}, fmt.Errorf("%w: no job %q", ErrNotFound, id)
	}
	if err != nil {
		return JobRef{}, fmt.Errorf("store: loading job %q: %w", id, err)
	}
	return j, nil
}

// OpenJobs lists the jobs not marked finished, the oldest first.
func (s *Store) OpenJobs(ctx context.Context) ([]JobRef, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT "+jobColumns+" FROM jobs WHERE finished = 0 ORDER BY created_at, id")
	if err != nil {
		return nil, fmt.Errorf("store: listing jobs: %w", err)
	}
	defer rows.Close()
	var jobs []JobRef
	for rows.Next() {
		j, err := scanJob(rows)
		if err != nil {
			return nil, fmt.Errorf("store: listing jobs: %w", err)
		}
		jobs = append(jobs, j)
	}
	return jobs, rows.Err()
}

// FinishJob marks job id finished (no error if it is not recorded).
func (s *Store) FinishJob(ctx context.Context, id string) error {
	if _, err := s.db.ExecContext(ctx, "UPDATE jobs SET finished = 1 WHERE id = ?", id); err != nil {
		return fmt.Errorf("store: finishing job %q: %w", id, err)
	}
	return nil
}
