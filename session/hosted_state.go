package session

import (
	"fmt"
)

// HostedState is what a hosted agent keeps on its session: the last committed pubsub
// checkpoint and the SDK's own session id.
type HostedState struct {
	Checkpoint   *int64 `json:"checkpoint,omitempty"`
	SDKSessionID string `json:"sdkSessionId,omitempty"`
}

// Hosted returns the session's checkpoint and SDK session id.
func (s *Session) Hosted() (HostedState, error) {
	if err := s.lock(); err != nil {
		return HostedState{}, err
	}
	defer s.mu.Unlock()
	return s.hosted, nil
}

// CommitCheckpoint records that the agent has safely processed pubsub message pubsubID,
// and everything recorded in the session so far. The session is active again.
func (s *Session) CommitCheckpoint(pubsubID int64) error {
	if pubsubID < 0 {
		return fmt.Errorf("%w: the pubsub id must not be negative", ErrInvalidArgument)
	}
	if err := s.lock(); err != nil {
		return err
	}
	defer s.mu.Unlock()
	s.hosted.Checkpoint = &pubsubID
	s.seenSeq = s.chain.nextSeq
	s.mgr.store.Apply(SetCheckpoint{SessionID: s.id, Checkpoint: pubsubID, SeenSeq: s.seenSeq})
	return nil
}

// UpdateSDKSession records the SDK's own session id, once the model has finished: the SDK
// session has seen everything recorded so far.
func (s *Session) UpdateSDKSession(id string) error {
	if id == "" {
		return fmt.Errorf("%w: the SDK session id is empty; use clearSdkSession() to forget it", ErrInvalidArgument)
	}
	if err := s.lock(); err != nil {
		return err
	}
	defer s.mu.Unlock()
	s.hosted.SDKSessionID = id
	s.seenSeq = s.chain.nextSeq
	s.mgr.store.Apply(SetSDKSession{SessionID: s.id, SDKSessionID: id, Seen: true, SeenSeq: s.seenSeq})
	return nil
}

// ClearSDKSession forgets the SDK's session id, so that the next run starts a new one.
func (s *Session) ClearSDKSession() error {
	if err := s.lock(); err != nil {
		return err
	}
	defer s.mu.Unlock()
	s.hosted.SDKSessionID = ""
	s.mgr.store.Apply(SetSDKSession{SessionID: s.id})
	return nil
}
