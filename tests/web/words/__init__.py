"""What players read: every refusal, sentence and message, in English and Spanish."""
