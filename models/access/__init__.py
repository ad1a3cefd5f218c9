"""Who works and what they may do: users, the session, the municipality's signing key."""
