// Command genbpe writes the BPE rank files that package tokens embeds: for
// each encoding bench uses, the tokens of tiktoken-go-loader's offline
// asset in rank order, compressed. Run it with `go generate ./model/tokens`
// after upgrading tiktoken-go-loader.
//
// A file is a raw DEFLATE stream of: the token count (4 bytes, big endian),
// the length of every token (1 byte each, in rank order), then every
// token's bytes, concatenated in rank order. Lengths before bytes compress
// better than interleaving them, which keeps the larger encoding under
// 1 MiB.
package main

import (
	"bufio"
	"bytes"
	"compress/flate"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/pkoukk/tiktoken-go-loader/assets"
)

func main() {
	for _, name := range os.Args[1:] {
		if err := write(name); err != nil {
			fmt.Fprintln(os.Stderr, "genbpe:", err)
			os.Exit(1)
		}
	}
}

// write converts the asset of one encoding into bpe/NAME.bpe.
func write(name string) error {
	src, err := assets.Assets.ReadFile(name + ".tiktoken")
	if err != nil {
		return err
	}
	tokens, err := parse(src)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	var buf bytes.Buffer
	zw, err := flate.NewWriter(&buf, flate.BestCompression)
	if err != nil {
		return err
	}
	if err := encode(zw, tokens); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join("bpe", name+".bpe"), buf.Bytes(), 0o644)
}

// parse reads "base64-token rank" lines and returns the tokens in rank
// order; the ranks must be 0, 1, 2, … so that the order alone keeps them.
func parse(src []byte) ([][]byte, error) {
	var tokens [][]byte
	sc := bufio.NewScanner(bytes.NewReader(src))
	for sc.Scan() {
		tok, rank, ok := strings.Cut(sc.Text(), " ")
		if !ok {
			continue
		}
		raw, err := base64.StdEncoding.DecodeString(tok)
		if err != nil {
			return nil, err
		}
		if r, err := strconv.Atoi(rank); err != nil || r != len(tokens) {
			return nil, fmt.Errorf("rank %q of token %d: want %d", rank, len(tokens), len(tokens))
		}
		if len(raw) == 0 || len(raw) > 255 {
			return nil, fmt.Errorf("token %d is %d bytes long: want 1 to 255", len(tokens), len(raw))
		}
		tokens = append(tokens, raw)
	}
	return tokens, sc.Err()
}

// encode writes the count, the lengths and the bytes of tokens to w.
func encode(w *flate.Writer, tokens [][]byte) error {
	lengths := make([]byte, 4, 4+len(tokens))
	binary.BigEndian.PutUint32(lengths, uint32(len(tokens)))
	for _, t := range tokens {
		lengths = append(lengths, byte(len(t)))
	}
	if _, err := w.Write(lengths); err != nil {
		return err
	}
	_, err := w.Write(bytes.Join(tokens, nil))
	return err
}
