-- The fingerprint of the command a stored reply answered: a command id
-- reused for a different command is refused (idempotency_key_reused).
ALTER TABLE command_results ADD COLUMN fingerprint TEXT NULL;
