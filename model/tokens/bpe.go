package tokens

//go:generate go run ./internal/genbpe cl100k_base o200k_base

import (
	"bytes"
	"compress/flate"
	"embed"
	"encoding/binary"
	"fmt"
	"io"
	"path"
	"strings"
)

// bpeFiles holds the rank files of the encodings bench uses, and only
// those (tiktoken-go-loader's own assets would embed four); genbpe writes
// them and documents their format.
//
//go:embed bpe/*.bpe
var bpeFiles embed.FS

// bpeLoader is tiktoken-go's BpeLoader over bpeFiles: it never downloads.
type bpeLoader struct{}

// LoadTiktokenBpe returns the ranks of the encoding that file (a tiktoken
// URL or file name, such as ".../cl100k_base.tiktoken") names.
func (bpeLoader) LoadTiktokenBpe(file string) (map[string]int, error) {
	name := strings.TrimSuffix(path.Base(file), ".tiktoken")
	raw, err := bpeFiles.ReadFile("bpe/" + name + ".bpe")
	if err != nil {
		return nil, fmt.Errorf("token encoding %s is not built into bench", name)
	}
	data, err := io.ReadAll(flate.NewReader(bytes.NewReader(raw)))
	if err != nil {
		return nil, fmt.Errorf("reading the built-in ranks of %s: %w", name, err)
	}
	return decodeRanks(data)
}

// decodeRanks reads genbpe's layout: a count, one length byte per token,
// then the tokens' bytes; a token's rank is its position.
func decodeRanks(data []byte) (map[string]int, error) {
	if len(data) < 4 {
		return nil, fmt.Errorf("built-in token ranks are truncated")
	}
	n := int(binary.BigEndian.Uint32(data))
	lengths, body := data[4:], data[4:]
	if len(lengths) < n {
		return nil, fmt.Errorf("built-in token ranks are truncated")
	}
	lengths, body = lengths[:n], body[n:]
	ranks := make(map[string]int, n)
	for rank, l := range lengths {
		if len(body) < int(l) {
			return nil, fmt.Errorf("built-in token ranks are truncated at token %d", rank)
		}
		ranks[string(body[:l])] = rank
		body = body[l:]
	}
	if len(body) != 0 {
		return nil, fmt.Errorf("built-in token ranks have %d bytes after the last token", len(body))
	}
	return ranks, nil
}
