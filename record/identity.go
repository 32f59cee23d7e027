package record

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
)

// NewUID returns a new run identity: 128 random bits as 32 hex digits.
func NewUID() string {
	b := make([]byte, 16)
	rand.Read(b) // never fails (crypto/rand)
	return hex.EncodeToString(b)
}

// derivedUIDPrefix starts the identity of a run folder written before
// runs recorded one.
const derivedUIDPrefix = "json-sha256-"

// identity is the uid of the run whose run.json holds raw and decodes to
// r: r.UID, or, for a folder written before runs recorded one, one derived
// from the file's bytes (which never change once written), so that a copy
// of a folder is the same run and two folders of the same name are not.
func identity(r Run, raw []byte) string {
	if r.UID != "" {
		return r.UID
	}
	sum := sha256.Sum256(raw)
	return derivedUIDPrefix + hex.EncodeToString(sum[:8])
}
