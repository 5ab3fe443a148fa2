package cache

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"

	bolterrors "go.etcd.io/bbolt/errors"

	bolt "go.etcd.io/bbolt"

	"github.com/hookguard/hookguard/internal/statedir"
)

var bucket = []byte("verdicts")

// Store is the persistent cache: one bbolt file in the state directory.
//
// bbolt takes an exclusive file lock while a writer has the file open, and
// several processes use the store at once (the judge server and any hook
// process judging in-process), so the file is opened for each operation and
// closed right after: reads share the lock, writes hold it for one short
// transaction, and nobody waits long for anybody.
type Store struct {
	path string
	now  func() time.Time
	// readWait and writeWait bound the wait for the file lock. A read that
	// cannot get it is a miss; a write that cannot is a lost cache entry.
	readWait, writeWait time.Duration
}

// StoreFile is the store's file name inside the state directory.
const StoreFile = "verdicts.db"

// OpenStore prepares the store in dir (created 0700; the file is 0600). now
// may be nil for time.Now.
func OpenStore(dir string, now func() time.Time) (*Store, error) {
	if err := EnsureDir(dir); err != nil {
		return nil, err
	}
	if now == nil {
		now = time.Now
	}
	return &Store{path: filepath.Join(dir, StoreFile), now: now, readWait: 150 * time.Millisecond, writeWait: time.Second}, nil
}

// EnsureDir creates dir with mode 0700, tightens it when it exists, and
// refuses a directory that is not ours (statedir.Ensure).
func EnsureDir(dir string) error {
	return statedir.Ensure(dir)
}

// Path is the store's file.
func (s *Store) Path() string { return s.path }

func (s *Store) open(readOnly bool) (*bolt.DB, error) {
	wait := s.writeWait
	if readOnly {
		wait = s.readWait
	}
	db, err := bolt.Open(s.path, 0o600, &bolt.Options{Timeout: wait, ReadOnly: readOnly})
	if err != nil {
		if errors.Is(err, bolterrors.ErrInvalid) || errors.Is(err, bolterrors.ErrChecksum) || errors.Is(err, bolterrors.ErrVersionMismatch) {
			return nil, s.quarantine(err.Error())
		}
		return nil, fmt.Errorf("open verdict store: %w", err)
	}
	return db, nil
}

// Get returns the live entry for key. A missing store is a miss, not an error.
func (s *Store) Get(key string) (_ Entry, _ bool, err error) {
	defer s.recoverCorrupt(&err)
	if _, err := os.Stat(s.path); errors.Is(err, fs.ErrNotExist) {
		return Entry{}, false, nil
	}
	db, err := s.open(true)
	if err != nil {
		return Entry{}, false, err
	}
	defer db.Close()
	var e Entry
	var found bool
	err = db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucket)
		if b == nil {
			return nil
		}
		v := b.Get([]byte(key))
		if v == nil {
			return nil
		}
		if err := json.Unmarshal(v, &e); err != nil {
			return fmt.Errorf("decode cached verdict: %w", err)
		}
		found = !e.Expired(s.now())
		return nil
	})
	if err != nil {
		return Entry{}, false, err
	}
	return e, found, nil
}

// Put stores e under key, and now and then sweeps expired entries.
func (s *Store) Put(key string, e Entry) (err error) {
	defer s.recoverCorrupt(&err)
	now := s.now()
	if e.Expired(now) {
		return nil
	}
	v, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("encode verdict: %w", err)
	}
	db, err := s.open(false)
	if err != nil {
		return err
	}
	defer db.Close()
	err = db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bucket)
		if err != nil {
			return err
		}
		if err := b.Put([]byte(key), v); err != nil {
			return err
		}
		if rand.IntN(32) == 0 {
			_, err = sweep(b, now)
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("store verdict: %w", err)
	}
	return nil
}

// Sweep removes expired entries and returns how many it removed.
func (s *Store) Sweep() (_ int, err error) {
	defer s.recoverCorrupt(&err)
	if _, err := os.Stat(s.path); errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	db, err := s.open(false)
	if err != nil {
		return 0, err
	}
	defer db.Close()
	n := 0
	err = db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucket)
		if b == nil {
			return nil
		}
		var err error
		n, err = sweep(b, s.now())
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("sweep verdict store: %w", err)
	}
	return n, nil
}

func sweep(b *bolt.Bucket, now time.Time) (int, error) {
	var dead [][]byte
	err := b.ForEach(func(k, v []byte) error {
		var e Entry
		if json.Unmarshal(v, &e) != nil || e.Expired(now) {
			dead = append(dead, append([]byte(nil), k...))
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	for _, k := range dead {
		if err := b.Delete(k); err != nil {
			return 0, err
		}
	}
	return len(dead), nil
}

// Len counts the entries on disk (expired ones included until swept).
func (s *Store) Len() (_ int, err error) {
	defer s.recoverCorrupt(&err)
	if _, err := os.Stat(s.path); errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	db, err := s.open(true)
	if err != nil {
		return 0, err
	}
	defer db.Close()
	n := 0
	err = db.View(func(tx *bolt.Tx) error {
		if b := tx.Bucket(bucket); b != nil {
			n = b.Stats().KeyN
		}
		return nil
	})
	return n, err
}

// ErrCorrupt means the store file was damaged; it has been moved aside and
// the next write starts a new one.
var ErrCorrupt = errors.New("verdict store damaged")

// recoverCorrupt turns a panic inside bbolt (a damaged page) into ErrCorrupt:
// the judge keeps judging, without the damaged file.
func (s *Store) recoverCorrupt(err *error) {
	if r := recover(); r != nil {
		*err = s.quarantine(fmt.Sprint(r))
	}
}

// quarantine moves a damaged store aside (verdicts.db.corrupt-TIME) so that a
// fresh one replaces it, and says so.
func (s *Store) quarantine(why string) error {
	aside := s.path + ".corrupt-" + time.Now().UTC().Format("20060102T150405")
	if err := os.Rename(s.path, aside); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w (%s); moving it aside failed: %v", ErrCorrupt, why, err)
	}
	return fmt.Errorf("%w (%s): moved to %s", ErrCorrupt, why, filepath.Base(aside))
}
