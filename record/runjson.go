package record

import (
	"bytes"
	"encoding/json"
	"slices"
)

// runKeys is the order of run.json's keys as format 1 has always written
// them, before the settings were one embedded struct. Keys added since
// follow them in the struct's order.
var runKeys = []string{
	"format", "bench_version", "id", "uid", "backend", "host", "model", "model_digest",
	"temperature", "num_ctx", "top_p", "max_tokens", "think", "seeds", "tasks", "tracks",
	"posture", "max_turns", "token_limit", "tries", "parallel", "started", "prompts_sha256",
	"episode_timeout_ms", "models", "hosts", "parallel_per_host", "shard", "workflow_model",
	"workflow_model_digest", "max_reply_bytes", "workspace_limit", "replay_of", "sandbox",
}

// MarshalJSON writes the run with its keys in runKeys' order, so that a
// run.json has the same bytes whatever the struct's layout.
func (r Run) MarshalJSON() ([]byte, error) {
	type plain Run // Run without this method
	b, err := json.Marshal(plain(r))
	if err != nil {
		return nil, err
	}
	keys, vals, err := objectFields(b)
	if err != nil {
		return nil, err
	}
	order := make([]int, 0, len(keys))
	for _, k := range runKeys {
		if i := slices.Index(keys, k); i >= 0 {
			order = append(order, i)
		}
	}
	for i, k := range keys {
		if !slices.Contains(runKeys, k) {
			order = append(order, i)
		}
	}
	var out bytes.Buffer
	out.WriteByte('{')
	for n, i := range order {
		if n > 0 {
			out.WriteByte(',')
		}
		kb, _ := json.Marshal(keys[i])
		out.Write(kb)
		out.WriteByte(':')
		out.Write(vals[i])
	}
	out.WriteByte('}')
	return out.Bytes(), nil
}

// objectFields splits a JSON object into its keys and raw values, in order.
func objectFields(b []byte) ([]string, []json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	if _, err := dec.Token(); err != nil { // {
		return nil, nil, err
	}
	var keys []string
	var vals []json.RawMessage
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, err
		}
		keys, vals = append(keys, t.(string)), append(vals, v)
	}
	return keys, vals, nil
}
