"""Training code and data for the moderation classifier."""
