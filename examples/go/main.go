// A Go client of the API, generated from openapi/openapi.yaml by oapi-codegen (pinned in
// scripts/contract/generate-go-client.sh, which writes the client package beside a copy
// of this file in dist/sdk/go/ and runs it).
//
// Creates a snap, then communication advice for it, reads both responses into the
// generated types and prints them as JSON.
//
//	scripts/contract/generate-go-client.sh
//	cd dist/sdk/go && PPS_BASE_URL=http://127.0.0.1:3000 PPS_API_KEY=pps_live_... go run .
//
// `make contract` runs it against the live service (test/contract/go-client.test.ts).
package main

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net/http"
	"os"

	"profile-prediction-service/examples/go/client"
)

type result struct {
	SnapID  int64                `json:"snapId"`
	Snap    client.SnapResponse  `json:"snap"`
	CommsID int64                `json:"commsId"`
	Comms   client.CommsResponse `json:"comms"`
}

func main() {
	apiKey := os.Getenv("PPS_API_KEY")
	if apiKey == "" {
		fmt.Fprintln(os.Stderr, "set PPS_API_KEY to an API key (make run prints a demo key)")
		os.Exit(2)
	}
	baseURL := os.Getenv("PPS_BASE_URL")
	if baseURL == "" {
		baseURL = "http://127.0.0.1:3000"
	}
	out, err := createSnapAndComms(context.Background(), baseURL, apiKey)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	encoder := json.NewEncoder(os.Stdout)
	encoder.SetIndent("", "  ")
	if err := encoder.Encode(out); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func createSnapAndComms(ctx context.Context, baseURL, apiKey string) (*result, error) {
	// The API key goes in the `x-api-key` header, with no prefix.
	withKey := client.WithRequestEditorFn(func(_ context.Context, req *http.Request) error {
		req.Header.Set("x-api-key", apiKey)
		return nil
	})
	api, err := client.NewClientWithResponses(baseURL, withKey)
	if err != nil {
		return nil, err
	}

	ageRange, jobType := "35-44", "Financial auditor"
	// Safe to retry: a retry with the same key returns the first result and charges nothing.
	snapKey := newKey()
	snap, err := api.CreateSnapWithResponse(ctx, &client.CreateSnapParams{IdempotencyKey: &snapKey}, client.SnapRequest{
		Name:     "Ada Lovelace",
		Notes:    "Checks every figure twice, keeps meticulous notes and asks for the data before any decision.",
		AgeRange: &ageRange,
		JobType:  &jobType,
	})
	if err != nil {
		return nil, err
	}
	if snap.JSON201 == nil {
		return nil, fmt.Errorf("POST /api/v1/snap answered %d: %s", snap.StatusCode(), snap.Body)
	}

	channel := client.Email
	goal := "Agree on the audit schedule for next quarter"
	draft := "Hi Ada, I think maybe we could possibly look at the schedule sometime? Let me know."
	commsKey := newKey()
	comms, err := api.CreateCommsAnalysisWithResponse(ctx, &client.CreateCommsAnalysisParams{IdempotencyKey: &commsKey}, client.CommsRequest{
		SnapId:  snap.JSON201.Data.SnapId,
		Channel: &channel,
		Goal:    &goal,
		Draft:   &draft,
	})
	if err != nil {
		return nil, err
	}
	if comms.JSON201 == nil {
		return nil, fmt.Errorf("POST /api/v1/snap/comms answered %d: %s", comms.StatusCode(), comms.Body)
	}
	return &result{
		SnapID:  snap.JSON201.Data.SnapId,
		Snap:    snap.JSON201.Data.SnapResponse,
		CommsID: comms.JSON201.Data.CommsId,
		Comms:   comms.JSON201.Data.CommsResponse,
	}, nil
}

// newKey is a random Idempotency-Key (a UUID-like hex string).
func newKey() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}
