package model

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"regexp"
	"strings"
)

// Two servers serve the same model when its content agrees: its weights
// (the digests of the model layer and of any adapter or projector, which
// Ollama's /api/show names as the blobs of its modelfile's FROM and
// ADAPTER lines) and its setup (template, system prompt, parameters). The
// manifest digest /api/tags reports is no such proof: a model `ollama
// create`d from the same gguf on two machines gets two manifests that
// differ in a file path.

// blobName is how Ollama names a blob on disk: sha256-<64 hex digits>.
var blobName = regexp.MustCompile(`^sha256-[0-9a-f]{64}$`)

// weightsOf reads the digests of a model's weights from its modelfile, as
// /api/show writes it: the blobs its FROM and ADAPTER lines name, in
// order, as "sha256:<hex>", joined by "+". It returns "" when there is no
// such line, or one names no blob (a model the server cannot show so).
func weightsOf(modelfile string) string {
	var digests []string
	sc := bufio.NewScanner(strings.NewReader(modelfile))
	for sc.Scan() {
		cmd, arg, ok := strings.Cut(strings.TrimSpace(sc.Text()), " ")
		if !ok || (!strings.EqualFold(cmd, "FROM") && !strings.EqualFold(cmd, "ADAPTER")) {
			continue
		}
		blob := path.Base(strings.TrimSpace(arg))
		if !blobName.MatchString(blob) {
			return ""
		}
		digests = append(digests, strings.Replace(blob, "-", ":", 1))
	}
	return strings.Join(digests, "+")
}

// setupOf is a short digest of what shapes a model's prompt and sampling
// beside its weights: its template, system prompt and parameters.
func setupOf(template, system, parameters string) string {
	h := sha256.New()
	for _, s := range []string{template, system, parameters} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
}

// Identity is the digest a run records for info's model (model_digest):
// its weights' when the server names them, else its manifest's, else "".
func (info ServerInfo) Identity() string {
	if info.Weights != "" {
		return info.Weights
	}
	return info.Digest
}

// Matches reports whether digest, as a run recorded it (its weights', or,
// in runs older than that, its manifest's), may be info's model: it is one
// of the two, or the server names neither.
func (info ServerInfo) Matches(digest string) bool {
	return digest == info.Weights || digest == info.Digest || info.Identity() == ""
}

// SameModel is the one check of whether two servers serve the same model
// under one name, shared by bench doctor and bench run: nil when their
// weights and setups agree (or a server cannot tell), else an error that
// says how they differ. Servers that name no weights are compared by
// their manifest digests.
func SameModel(a, b ServerInfo) error {
	name := a.Model
	switch {
	case a.Weights != "" && b.Weights != "" && a.Weights != b.Weights:
		return fmt.Errorf("the servers hold different weights of %s (%s on %s, %s on %s): a pool must serve one model the same everywhere; pull or create the same %s on every host",
			name, ShortDigest(a.Weights), a.Host, ShortDigest(b.Weights), b.Host, name)
	case a.Weights != "" && b.Weights != "" && a.Setup != "" && b.Setup != "" && a.Setup != b.Setup:
		return fmt.Errorf("the servers hold the same weights of %s with another template, system prompt or parameters (%s on %s, %s on %s): their replies would differ; create %s from the same Modelfile on every host",
			name, a.Setup, a.Host, b.Setup, b.Host, name)
	case (a.Weights == "" || b.Weights == "") && a.Digest != "" && b.Digest != "" && a.Digest != b.Digest:
		return fmt.Errorf("the servers hold different weights of %s (manifests %s on %s, %s on %s, and the servers name no weights): a pool must serve one model the same everywhere; pull the same %s on every host",
			name, ShortDigest(a.Digest), a.Host, ShortDigest(b.Digest), b.Host, name)
	}
	return nil
}

// ShortDigest cuts a digest "sha256:<hex>" (or several joined by "+", or
// bare hex) to 12 hex digits each, for text output.
func ShortDigest(d string) string {
	parts := strings.Split(d, "+")
	for i, p := range parts {
		algo, h, ok := strings.Cut(p, ":")
		switch {
		case ok && len(h) > 12:
			parts[i] = algo + ":" + h[:12]
		case !ok && len(p) > 12:
			parts[i] = p[:12]
		}
	}
	return strings.Join(parts, "+")
}
