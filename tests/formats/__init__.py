"""Files the table owns: exported games read back safely."""
