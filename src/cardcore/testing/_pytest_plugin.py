"""pytest plugin (placeholder until the kit lands)."""
