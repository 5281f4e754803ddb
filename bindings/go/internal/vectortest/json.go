// Package vectortest runs the cache timelines (cache.json) and pacing
// schedules (pacing.json) of tests/vectors (format: tests/vectors/README.md)
// through a cache or pacer under test: the binding's own Cache and Pacer in
// package robotstxt's tests, and fleet.Cache and fleet.Pacer over Redis in
// package fleet's, so that both answer the same cases. It also holds the
// strict decoding every vector runner of the binding uses: a field a runner
// does not know fails the case, so a typo cannot hide one.
package vectortest

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/robotstxt-engine/robotstxt-go"
)

// Strict decodes data into v, failing on unknown fields and trailing data.
func Strict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return fmt.Errorf("trailing data after the JSON value")
	}
	return nil
}

// Nullable is a field that may be absent, null, or a value.
type Nullable[T any] struct {
	Set, Null bool
	V         T
}

// UnmarshalJSON notes that the field was given, and whether as null.
func (n *Nullable[T]) UnmarshalJSON(data []byte) error {
	n.Set = true
	if string(data) == "null" {
		n.Null = true
		return nil
	}
	return Strict(data, &n.V)
}

// ByteString is a body or URL: a JSON string, or parts of text, hex and
// repeats.
type ByteString []byte

// UnmarshalJSON reads the string, or joins the parts.
func (b *ByteString) UnmarshalJSON(data []byte) error {
	if len(data) > 0 && data[0] == '"' {
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return err
		}
		*b = []byte(s)
		return nil
	}
	var parts []struct {
		Text   *string `json:"text"`
		Hex    *string `json:"hex"`
		Repeat *string `json:"repeat"`
		Times  int     `json:"times"`
	}
	if err := Strict(data, &parts); err != nil {
		return err
	}
	var out []byte
	for _, p := range parts {
		switch {
		case p.Text != nil:
			out = append(out, *p.Text...)
		case p.Hex != nil:
			raw, err := hex.DecodeString(*p.Hex)
			if err != nil {
				return err
			}
			out = append(out, raw...)
		case p.Repeat != nil:
			out = append(out, bytes.Repeat([]byte(*p.Repeat), p.Times)...)
		default:
			return fmt.Errorf("a body part with nothing in it")
		}
	}
	*b = out
	return nil
}

// File is a vector file: its cases, each decoded by its runner.
type File struct {
	Spec  string            `json:"spec"`
	Note  string            `json:"note"`
	Cases []json.RawMessage `json:"cases"`
}

// Rate is a request rate.
type Rate struct {
	Requests uint32 `json:"requests"`
	Seconds  uint32 `json:"seconds"`
}

// AccessPolicy is the access policy a case names ("careful" when none).
func AccessPolicy(name string) robotstxt.AccessPolicy {
	switch name {
	case "careful", "":
		return robotstxt.Careful
	case "strict":
		return robotstxt.StrictRFC
	}
	panic("unknown policy " + name)
}

// Policy is a freshness policy, each field optional.
type Policy struct {
	FreshForS         *float64 `json:"fresh_for_s"`
	RetryS            *float64 `json:"retry_s"`
	UnreachableLimitS *float64 `json:"unreachable_limit_s"`
	AfterLimit        *string  `json:"after_limit"`
	Access            *string  `json:"access"`
}

// Seconds is s seconds, to the ms.
func Seconds(s float64) time.Duration { return time.Duration(math.Round(s*1000)) * time.Millisecond }

// FreshnessPolicy is the policy the JSON gives, over the defaults; a nil
// p is the defaults.
func (p *Policy) FreshnessPolicy() robotstxt.FreshnessPolicy {
	policy := robotstxt.DefaultFreshnessPolicy()
	if p == nil {
		return policy
	}
	if p.FreshForS != nil {
		policy.FreshFor = Seconds(*p.FreshForS)
	}
	if p.RetryS != nil {
		policy.Retry = Seconds(*p.RetryS)
	}
	if p.UnreachableLimitS != nil {
		policy.UnreachableLimit = Seconds(*p.UnreachableLimitS)
	}
	if p.AfterLimit != nil {
		switch *p.AfterLimit {
		case "keep":
			policy.AfterLimit = robotstxt.KeepCopy
		case "allow":
			policy.AfterLimit = robotstxt.AllowAllAfterLimit
		default:
			panic("after_limit " + *p.AfterLimit)
		}
	}
	if p.Access != nil {
		policy.Access = AccessPolicy(*p.Access)
	}
	return policy
}

// Fetch is the outcome of a fetch of robots.txt.
type Fetch struct {
	Status       Nullable[int] `json:"status"`
	Redirects    int           `json:"redirects"`
	Body         ByteString    `json:"body"`
	MaxAgeS      *float64      `json:"max_age_s"`
	RetryAfterS  *float64      `json:"retry_after_s"`
	ETag         *string       `json:"etag"`
	LastModified *string       `json:"last_modified"`
}

// Response is the fetch's outcome.
func (f *Fetch) Response() robotstxt.Response {
	r := robotstxt.Response{Status: f.Status.V, Redirects: f.Redirects, Body: f.Body}
	if f.MaxAgeS != nil {
		r.MaxAge, r.HasMaxAge = Seconds(*f.MaxAgeS), true
	}
	if f.RetryAfterS != nil {
		r.RetryAfter, r.HasRetryAfter = Seconds(*f.RetryAfterS), true
	}
	if f.ETag != nil {
		r.ETag = *f.ETag
	}
	if f.LastModified != nil {
		r.LastModified = *f.LastModified
	}
	return r
}

// Validators are the validators a lease or an entry should have.
type Validators struct {
	ETag         Nullable[string] `json:"etag"`
	LastModified Nullable[string] `json:"last_modified"`
}

// Check fails the test unless got are these validators.
func (v *Validators) Check(t *testing.T, got robotstxt.Validators, where string) {
	t.Helper()
	if !v.ETag.Set || !v.LastModified.Set {
		t.Fatalf("%s: validators need etag and last_modified", where)
	}
	if got.ETag != v.ETag.V || got.LastModified != v.LastModified.V {
		t.Errorf("%s: validators %+v, want etag %+v last_modified %+v", where, got, v.ETag, v.LastModified)
	}
}

// SimpleCheck is a URL and whether the rules allow it.
type SimpleCheck struct {
	URL     string `json:"url"`
	Allowed bool   `json:"allowed"`
}

// Cases reads the cases of the vector file name in dir.
func Cases(t *testing.T, dir, name string) []json.RawMessage {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	var file File
	if err := Strict(raw, &file); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return file.Cases
}
